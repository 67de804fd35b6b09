"""Finding a time to play (issue 32): times offered, the first shared one proposed and
agreed, the round's state on the to-do list, the calendar, and reminders sent once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest
from flask import Flask

from league.extensions import db
from league.models import League, Match, ReminderSent, Team, User
from league.rules.scheduling import first_shared_slot, reminder_due
from league.services import matches, scheduling, todo, webhooks
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.fixtures import calendar_events, ics_calendar
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from tests.conftest import ON_POSTGRES
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Receiver, receiver

HUMANS = (("human-lineman", 11),)
#: "Now" in these tests: Monday 30 November 2026, 12:00 UTC.
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
FRIDAY_7PM = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
SATURDAY_3PM = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)
SUNDAY_2PM = datetime(2026, 12, 6, 14, 0, tzinfo=UTC)
HOME = "**Reavers** @everyone"
ZWSP = "\u200b"


def _world(day: date | None = date(2026, 12, 7)) -> tuple[User, User, User, League, int]:
    """A commissioner, two coaches, and their fixture in round 1, due by `day`."""
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", HOME, HUMANS)
    away = make_active_team(bram, league, "human", "Bruisers", HUMANS)
    with unit_of_work() as session:
        match = matches.schedule_match(
            session, boss, league.id, home.id, away.id, round_number=1, scheduled_for=day
        )
    return boss, anna, bram, league, match.id


def _offer(actor: User, match_id: int, side: str, *times: datetime) -> scheduling.Schedule:
    with unit_of_work() as session:
        return scheduling.offer_times(session, actor, match_id, side, times, now=NOW)


def test_the_first_time_both_sides_offered_is_proposed() -> None:
    assert first_shared_slot([SATURDAY_3PM, SUNDAY_2PM], [SUNDAY_2PM, SATURDAY_3PM]) == (
        SATURDAY_3PM
    )
    assert first_shared_slot([FRIDAY_7PM], [SATURDAY_3PM]) is None
    assert first_shared_slot([], []) is None


def test_reminders_fall_due_in_their_windows() -> None:
    # A fixture due by Monday 7 December: "no time agreed" from Friday the 4th (three days
    # before) through the 7th; "pre-game" on the 6th and 7th; "report" from the 8th for a
    # week (the 14th is the last day).
    day = date(2026, 12, 7)
    assert [d for d in range(1, 20) if reminder_due("time", day, date(2026, 12, d))] == [4, 5, 6, 7]
    assert [d for d in range(1, 20) if reminder_due("pregame", day, date(2026, 12, d))] == [6, 7]
    assert [d for d in range(1, 20) if reminder_due("report", day, date(2026, 12, d))] == list(
        range(8, 15)
    )


def test_coaches_offer_times_and_agree_the_first_they_share() -> None:
    _boss, anna, bram, league, match_id = _world()
    offered = _offer(anna, match_id, "home", SUNDAY_2PM, FRIDAY_7PM, SATURDAY_3PM)
    assert offered.offered["home"] == [FRIDAY_7PM, SATURDAY_3PM, SUNDAY_2PM]
    assert offered.proposed is None
    offered = _offer(bram, match_id, "away", SUNDAY_2PM, SATURDAY_3PM)
    assert offered.proposed == SATURDAY_3PM
    assert offered.agreed is None

    with unit_of_work() as session:
        agreed = scheduling.accept_time(session, bram, match_id, SATURDAY_3PM)
    assert agreed.agreed == SATURDAY_3PM
    match = db.session.get(Match, match_id)
    assert match.scheduled_for == date(2026, 12, 5)  # the fixture's date follows
    # The calendar's event is timed now: 15:00-17:00 UTC on the 5th.
    events = calendar_events(db.session, league, uid_domain="example.org")
    assert events[0].starts_at is not None
    feed = ics_calendar("League", events, now=NOW)
    assert "DTSTART:20261205T150000Z\r\n" in feed
    assert "DTEND:20261205T170000Z\r\n" in feed


def test_offers_are_checked_and_a_refusal_changes_nothing() -> None:
    _boss, anna, bram, _league, match_id = _world()
    _offer(anna, match_id, "home", SATURDAY_3PM)
    with pytest.raises(RuleViolation) as four:
        _offer(anna, match_id, "home", FRIDAY_7PM, SATURDAY_3PM, SUNDAY_2PM, NOW.replace(month=12))
    assert four.value.fields == {"times": ["Offer at most 3 times."]}
    with pytest.raises(RuleViolation) as past:
        _offer(anna, match_id, "home", datetime(2026, 11, 29, 19, 0, tzinfo=UTC))
    assert past.value.fields == {"times": ["Every time offered must be in the future."]}
    with pytest.raises(Forbidden, match="Only \\*\\*Reavers\\*\\* @everyone's coach"):
        _offer(bram, match_id, "home", SUNDAY_2PM)
    with (
        pytest.raises(RuleViolation, match="Both sides must offer a time"),
        unit_of_work() as session,
    ):
        scheduling.accept_time(session, anna, match_id, SATURDAY_3PM)
    schedule = scheduling.schedule_of(db.session, db.session.get(Match, match_id))
    assert schedule.offered == {"home": [SATURDAY_3PM], "away": []}
    assert schedule.agreed is None


def test_a_played_match_takes_no_more_times() -> None:
    boss, anna, _bram, _league, match_id = _world()
    with unit_of_work() as session:
        matches.void_match(session, boss, match_id)
    with pytest.raises(Conflict, match="no longer waiting to be played"):
        _offer(anna, match_id, "home", SATURDAY_3PM)


def test_the_to_do_list_shows_the_round_in_plays_times() -> None:
    boss, anna, bram, league, first = _world()
    with unit_of_work() as session:
        teams = session.query(Team).order_by(Team.id).all()
        second = matches.schedule_match(
            session, boss, league.id, teams[1].id, teams[0].id, round_number=1, add_another=True
        ).id
        third = matches.schedule_match(
            session, boss, league.id, teams[0].id, teams[1].id, round_number=1, add_another=True
        ).id
        matches.schedule_match(  # round 2 is not in play yet: not counted
            session, boss, league.id, teams[0].id, teams[1].id, round_number=2
        )
    _offer(anna, first, "home", SATURDAY_3PM)
    _offer(bram, first, "away", SATURDAY_3PM)
    with unit_of_work() as session:
        scheduling.accept_time(session, anna, first, SATURDAY_3PM)
    _offer(bram, second, "home", SUNDAY_2PM)
    listed = todo.commissioner_todo(db.session, boss, db.session.get(League, league.id))
    assert listed.round_times == todo.RoundTimes(1, agreed=1, offered=1, silent=1)
    assert third  # the silent one


@pytest.fixture
def listening(app: Flask) -> Iterator[Receiver]:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    with receiver() as found:
        yield found


def test_reminders_reach_the_channel_once_with_names_inert(listening: Receiver) -> None:
    boss, _anna, _bram, league, match_id = _world(day=date(2026, 12, 2))
    with unit_of_work() as session:
        webhooks.create_webhook(
            session,
            boss,
            league.id,
            WebhookSettings(f"{listening.url}/discord", ("fixture.reminder",), "discord"),
        )
    with unit_of_work() as session:  # Monday 30th, due Wednesday 2nd: no time agreed yet
        sent = scheduling.send_due_reminders(session, NOW)
    assert sent == [scheduling.Reminder(match_id, "time")]
    with unit_of_work() as session:  # a second look sends nothing again
        assert scheduling.send_due_reminders(session, NOW) == []
    [message] = [r.json for r in listening.received]
    [embed] = message["embeds"]
    assert embed["title"] == rf"No time agreed yet for \*\*Reavers\*\* @{ZWSP}everyone v Bruisers"
    assert embed["description"] == "To be played by Dec 2, 2026"
    assert message["allowed_mentions"] == {"parse": []}
    # On the 3rd (the day after), the report is due, once.
    with unit_of_work() as session:
        sent = scheduling.send_due_reminders(session, datetime(2026, 12, 3, 9, tzinfo=UTC))
    assert sent == [scheduling.Reminder(match_id, "report")]


@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="two connections at once: the PostgreSQL pass (SQLite shares one; "
    "tests/discord/test_reminders.py runs two worker processes on a SQLite file)",
)
def test_two_workers_at_once_send_each_reminder_once(app: Flask) -> None:
    _boss, _anna, _bram, _league, match_id = _world(day=date(2026, 12, 1))
    start = threading.Barrier(2)
    found: list[list[scheduling.Reminder]] = []

    def worker() -> None:
        with app.app_context():
            start.wait()
            with unit_of_work() as session:
                found.append(scheduling.send_due_reminders(session, NOW))
            db.session.remove()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    # Due Tuesday 1st, on Monday 30th: "time" (from the 28th) and "pregame" (from the 30th).
    assert sorted(r.kind for sent in found for r in sent) == ["pregame", "time"]
    assert db.session.query(ReminderSent).filter_by(match_id=match_id).count() == 2
