"""The commissioner's to-do list shows where finding a time stands for the coming week's
fixtures: agreed, offered, or silent."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, Match
from league.services import scheduling
from league.services.matches import schedule_match
from league.services.todo import commissioner_todo
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import Seeded
from tests.factories import DEFAULT_PASSWORD

#: Round 2 (12 December) is four days away; a friendly on 15 December and one on
#: 30 December (past the week) are added below.
TODAY = date(2026, 12, 8)
NOW = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)
SLOT = datetime(2026, 12, 12, 20, 0, tzinfo=UTC)


def test_the_coming_weeks_fixtures_and_their_times(client: FlaskClient, seeded: Seeded) -> None:
    with unit_of_work() as session:
        friendly = schedule_match(
            session,
            seeded.commissioner,
            seeded.league.id,
            seeded.humans.id,
            seeded.orcs.id,
            scheduled_for=date(2026, 12, 15),
            friendly=True,
        ).id
        schedule_match(
            session,
            seeded.commissioner,
            seeded.league.id,
            seeded.orcs.id,
            seeded.humans.id,
            scheduled_for=date(2026, 12, 30),
            friendly=True,
        )
    league = db.session.get(League, seeded.league.id)
    todo = commissioner_todo(db.session, seeded.commissioner, league, TODAY)
    assert [(t.match.match_id, t.state) for t in todo.fixture_times] == [
        (seeded.fixture.id, "silent"),
        (friendly, "silent"),
    ]
    with unit_of_work() as session:
        scheduling.offer_slots(
            session, seeded.anna, seeded.fixture.id, seeded.humans.id, [SLOT], NOW
        )
        scheduling.offer_slots(session, seeded.bram, friendly, seeded.orcs.id, [SLOT], NOW)
        scheduling.offer_slots(session, seeded.anna, friendly, seeded.humans.id, [SLOT], NOW)
        scheduling.accept_proposed(session, seeded.bram, friendly, NOW)
    db.session.expire_all()
    league = db.session.get(League, seeded.league.id)
    todo = commissioner_todo(db.session, seeded.commissioner, league, TODAY)
    # The friendly is now dated 12 December too: without a round, it comes first.
    assert [(t.match.match_id, t.state) for t in todo.fixture_times] == [
        (friendly, "agreed"),
        (seeded.fixture.id, "offered"),
    ]
    assert db.session.get(Match, friendly).scheduled_for == date(2026, 12, 12)  # type: ignore[union-attr]


def test_the_league_page_lists_them(client: FlaskClient, seeded: Seeded) -> None:
    soon = datetime.now(UTC).date() + timedelta(days=3)
    with unit_of_work() as session:
        friendly = schedule_match(
            session,
            seeded.commissioner,
            seeded.league.id,
            seeded.humans.id,
            seeded.orcs.id,
            scheduled_for=soon,
            friendly=True,
        ).id
    response = client.post("/login", data={"username": "commish", "password": DEFAULT_PASSWORD})
    assert response.status_code == 302
    page = client.get(f"/leagues/{seeded.league.id}").get_data(as_text=True)
    assert 'data-testid="todo-time-silent"' in page
    assert f'href="/matches/{friendly}/times"' in page
    assert "no time offered" in page
