"""Finding a time to play a fixture, and reminding the league's channel of what waits.

Each side offers up to `MAX_SLOTS_PER_SIDE` times; the earliest time both offered is
proposed, and either coach (or a commissioner) accepting it sets the fixture's date and
kick-off, which the fixtures page and the calendars show. Reminders go out once each (the
`reminder_sent` row's unique key decides, however many workers look at once) as the
`fixture.reminder` event the league's webhooks may subscribe to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from league.i18n import gettext
from league.models import Match, MatchTeam, PregameSide, ReminderSent, TimeSlot, User
from league.models.types import utcnow
from league.rules.scheduling import (
    MAX_SLOTS_PER_SIDE,
    REMINDER_DAYS,
    REMINDER_KINDS,
    first_shared_slot,
    reminder_due,
)
from league.services import audit
from league.services import events as domain_events
from league.services.access import can_manage, may_manage_team, may_report
from league.services.errors import Conflict, RuleViolation
from league.services.matches import get_match
from league.services.pregame import has_pregame


@dataclass(frozen=True, slots=True)
class Schedule:
    """A fixture's times: what each side offered, the time proposed, the time agreed."""

    match: Match
    offered: dict[str, list[datetime]]
    proposed: datetime | None
    agreed: datetime | None


def _utc(moment: datetime) -> datetime:
    """Stored datetimes come back naive from SQLite: they are UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def schedule_of(session: Session, match: Match) -> Schedule:
    """The times offered for `match` (one query)."""
    offered: dict[str, list[datetime]] = {"home": [], "away": []}
    for slot in session.scalars(
        select(TimeSlot).where(TimeSlot.match_id == match.id).order_by(TimeSlot.starts_at)
    ):
        offered[slot.side].append(_utc(slot.starts_at))
    agreed = _utc(match.kickoff_at) if match.kickoff_at else None
    return Schedule(match, offered, first_shared_slot(offered["home"], offered["away"]), agreed)


def sides_managed(match: Match, user: User | None) -> list[str]:
    """The sides of `match` whose times `user` may offer (a commissioner: both)."""
    return [side.side for side in match.sides if can_manage(side.team, user)]


def _schedulable(match: Match) -> None:
    if match.state != "scheduled":
        raise Conflict(
            gettext("This match is no longer waiting to be played: its time cannot change.")
        )


def offer_times(
    session: Session,
    actor: User,
    match_id: int,
    side: str,
    times: Sequence[datetime],
    *,
    now: datetime | None = None,
) -> Schedule:
    """Replace the times `side` offers with `times` (none: withdraw them)."""
    match = get_match(session, match_id, for_update=True)
    may_manage_team(match.side(side).team, actor, "times").require()
    _schedulable(match)
    now = now or utcnow()
    wanted = sorted({_utc(moment).replace(second=0, microsecond=0) for moment in times})
    problems = RuleViolation(code="scheduling.times")
    if len(wanted) > MAX_SLOTS_PER_SIDE:
        problems.add("times", gettext("Offer at most %(count)s times.", count=MAX_SLOTS_PER_SIDE))
    if any(moment <= now for moment in wanted):
        problems.add("times", gettext("Every time offered must be in the future."))
    if problems.problems:
        raise problems
    session.execute(delete(TimeSlot).where(TimeSlot.match_id == match.id, TimeSlot.side == side))
    session.add_all(
        TimeSlot(match_id=match.id, side=side, starts_at=moment, offered_by_id=actor.id)
        for moment in wanted
    )
    session.flush()
    times_offered = [moment.isoformat() for moment in wanted]
    audit.record(
        session, actor, "match.offer_times", "match", match.id, side=side, times=times_offered
    )
    return schedule_of(session, match)


def accept_time(session: Session, actor: User, match_id: int, starts_at: datetime) -> Schedule:
    """Agree to play at `starts_at`, a time both sides offered: the fixture's date and
    kick-off become it."""
    match = get_match(session, match_id, for_update=True)
    may_report(match, actor, "times").require()
    _schedulable(match)
    schedule = schedule_of(session, match)
    starts_at = _utc(starts_at)
    if starts_at not in schedule.offered["home"] or starts_at not in schedule.offered["away"]:
        raise RuleViolation(
            gettext("Both sides must offer a time before it can be agreed."),
            code="scheduling.not_shared",
            field="starts_at",
        )
    match.kickoff_at = starts_at
    match.scheduled_for = starts_at.date()
    session.flush()
    audit.record(
        session, actor, "match.agree_time", "match", match.id, starts_at=starts_at.isoformat()
    )
    return schedule_of(session, match)


# ---------------------------------------------------------------------------
# Reminders


@dataclass(frozen=True, slots=True)
class Reminder:
    match_id: int
    kind: str


def _is_due(match: Match, kind: str, today: date, sides_filled: int) -> bool:
    """Whether the `kind` reminder of `match` is due `today`; `sides_filled`: how many
    sides have saved their pre-game."""
    if match.scheduled_for is None or not reminder_due(kind, match.scheduled_for, today):
        return False
    if kind == "time":
        return match.state == "scheduled" and match.kickoff_at is None
    if kind == "pregame":
        return match.state == "scheduled" and has_pregame(match) and sides_filled < 2
    return match.state in ("scheduled", "draft")  # "report": no result confirmed yet


def send_due_reminders(session: Session, now: datetime | None = None) -> list[Reminder]:
    """Record every reminder due at `now` that was not sent before (each as a
    `FixtureReminder` event, which the webhooks announce), and return them."""
    today = (now or utcnow()).date()
    # Only fixtures some reminder window can still hold (REMINDER_DAYS).
    first = min(start for start, _ in REMINDER_DAYS.values())
    last = max(until for _, until in REMINDER_DAYS.values())
    candidates = list(
        session.scalars(
            select(Match)
            .where(
                Match.state.in_(("scheduled", "draft")),
                Match.scheduled_for.is_not(None),
                Match.scheduled_for > today - timedelta(days=last),
                Match.scheduled_for <= today - timedelta(days=first),
            )
            .options(selectinload(Match.sides).selectinload(MatchTeam.team))
            .order_by(Match.scheduled_for, Match.id)
        )
    )
    # What the candidates already had sent, and their pre-games filled: two queries for
    # all of them (a reminder's window lasts days, and this runs every hour).
    ids = [match.id for match in candidates]
    sent_before = set(
        session.execute(
            select(ReminderSent.match_id, ReminderSent.kind).where(ReminderSent.match_id.in_(ids))
        ).tuples()
    )
    filled = dict(
        session.execute(
            select(PregameSide.match_id, func.count())
            .where(PregameSide.match_id.in_(ids))
            .group_by(PregameSide.match_id)
        )
        .tuples()
        .all()
    )
    sent = []
    for match in candidates:
        for kind in REMINDER_KINDS:
            if (match.id, kind) in sent_before:
                continue
            if _is_due(match, kind, today, filled.get(match.id, 0)) and _claim(
                session, match, kind
            ):
                domain_events.record(
                    session, domain_events.FixtureReminder(match.league_id, match.id, kind)
                )
                sent.append(Reminder(match.id, kind))
    return sent


def _claim(session: Session, match: Match, kind: str) -> bool:
    """Take the reminder for this process: False when another took it first."""
    try:
        with session.begin_nested():
            session.add(ReminderSent(match_id=match.id, kind=kind))
    except IntegrityError:
        return False
    return True
