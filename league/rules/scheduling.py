"""Finding a time to play a fixture: how many times a coach offers, which one is proposed,
and when the league's channel is reminded of a fixture.

These are the league manager's own conventions, not the game's rules, so they are not in
a ruleset's data: every league schedules the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

#: The times each side of a fixture may offer at once.
MAX_SLOTS_PER_SIDE = 3

#: The reminders about one fixture, each sent once.
#: "time": no agreed time yet, some days before the fixture's date (the round's deadline);
#: "pregame": a side has not filled its pre-game, the day before the match;
#: "report": no result confirmed, a day after the match.
REMINDER_KINDS = ("time", "pregame", "report")

#: When each reminder is due, in days from the fixture's day: from the first number on,
#: before the second (the time and the pre-game up to the day itself, the report for a
#: week after); a fixture whose window has passed is not reminded of any more.
REMINDER_DAYS = {"time": (-3, 1), "pregame": (-1, 1), "report": (1, 8)}


def first_shared_slot(home: Iterable[datetime], away: Iterable[datetime]) -> datetime | None:
    """The earliest time both sides offered (None: they share none yet)."""
    shared = set(home) & set(away)
    return min(shared) if shared else None


def reminder_due(kind: str, day: date, today: date) -> bool:
    """Whether the `kind` reminder of a fixture on `day` is due `today`."""
    first, until = REMINDER_DAYS[kind]
    return day + timedelta(days=first) <= today < day + timedelta(days=until)
