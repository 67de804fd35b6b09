"""Domain events (league/services/events.py): told to the subscribers as the transaction
commits, in the order they happened, and never when it rolls back."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from league.extensions import db
from league.models import Team
from league.models.webhook import WEBHOOK_EVENTS
from league.services import events
from league.services.events import DomainEvent, MatchVoided, SeasonClosed, TeamCreated
from league.services.unit_of_work import unit_of_work
from league.services.webhooks.subscriber import WEBHOOK_EVENT
from tests.factories import make_league, make_user


class Heard:
    def __init__(self) -> None:
        self.before: list[tuple[DomainEvent, bool]] = []
        self.after: list[DomainEvent] = []

    def before_commit(self, session: Session, happened: Sequence[DomainEvent]) -> None:
        # Still in the transaction: what it wrote is there to read.
        self.before += [(event, session.in_transaction()) for event in happened]

    def after_commit(self, happened: Sequence[DomainEvent]) -> None:
        self.after += happened


@pytest.fixture
def heard(app: Flask) -> Iterator[Heard]:
    listener = Heard()
    events.subscribe(before_commit=listener.before_commit, after_commit=listener.after_commit)
    yield listener
    events.unsubscribe(before_commit=listener.before_commit, after_commit=listener.after_commit)


def test_events_reach_the_subscribers_in_order_before_and_after_the_commit(heard: Heard) -> None:
    with unit_of_work() as session:
        events.record(session, TeamCreated(1, 10))
        events.record(session, MatchVoided(1, 7))
        assert heard.before == []  # nothing is told while the use case runs
    assert heard.before == [(TeamCreated(1, 10), True), (MatchVoided(1, 7), True)]
    assert heard.after == [TeamCreated(1, 10), MatchVoided(1, 7)]
    with unit_of_work():
        pass  # told once: the next transaction has nothing to tell
    assert len(heard.after) == 2


def test_a_transaction_rolled_back_tells_nothing(heard: Heard) -> None:
    def refused() -> None:
        with unit_of_work() as session:
            events.record(session, SeasonClosed(1, 3))
            raise RuntimeError("refused")

    with pytest.raises(RuntimeError):
        refused()
    with unit_of_work():
        pass
    assert (heard.before, heard.after) == ([], [])


def test_a_savepoint_rolled_back_keeps_the_transactions_events(heard: Heard) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    with unit_of_work() as session:
        events.record(session, SeasonClosed(league.id, 1))
        savepoint = session.begin_nested()
        savepoint.rollback()
    assert heard.after == [SeasonClosed(league.id, 1)]


def test_what_a_before_commit_subscriber_writes_is_saved_with_the_change(app: Flask) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")

    def rename(session: Session, happened: Sequence[DomainEvent]) -> None:
        for event in happened:
            if isinstance(event, TeamCreated):
                team = session.get(Team, event.team_id)
                assert team is not None
                team.name = "Renamed on commit"

    events.subscribe(before_commit=rename)
    try:
        with unit_of_work() as session:
            team = Team(
                league_id=league.id,
                coach_id=boss.id,
                team_type_id="human",
                name="Altdorf Amblers",
            )
            session.add(team)
            session.flush()
            events.record(session, TeamCreated(league.id, team.id))
            team_id = team.id
    finally:
        events.unsubscribe(before_commit=rename)
    db.session.expire_all()
    saved = db.session.get(Team, team_id)
    assert saved is not None
    assert saved.name == "Renamed on commit"


def test_every_webhook_event_comes_from_a_domain_event() -> None:
    """Each domain event is announced under one webhook event; `player.died` comes with the
    result it happened in (docs/api.md, Webhooks)."""
    # By name: a slotted dataclass leaves the class it was made from among the subclasses.
    declared = {kind.__name__ for kind in DomainEvent.__subclasses__()}
    assert {kind.__name__ for kind in WEBHOOK_EVENT} == declared
    assert {*WEBHOOK_EVENT.values(), "player.died"} == set(WEBHOOK_EVENTS)
