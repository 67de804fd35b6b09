"""The fixture's times page: coaches offer times and accept the proposal on the site."""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import FixtureSlot, Match
from league.services import scheduling
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import Seeded
from tests.factories import DEFAULT_PASSWORD


def _log_in(client: FlaskClient, username: str) -> None:
    response = client.post("/login", data={"username": username, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302


def test_offer_and_accept_on_the_site(client: FlaskClient, seeded: Seeded) -> None:
    url = f"/matches/{seeded.fixture.id}/times"
    assert client.get(url).status_code == 200  # visitors see where it stands
    assert client.post(url, data={}).status_code == 302  # ...and are sent to log in
    _log_in(client, "anna")
    response = client.post(
        url,
        data={
            "team_id": str(seeded.humans.id),
            "time1": "2030-12-10T20:00",
            "time2": "2030-12-11T20:00",
        },
    )
    assert response.status_code == 302
    offered = db.session.scalars(select(FixtureSlot.starts_at).order_by(FixtureSlot.starts_at))
    assert [t.replace(tzinfo=UTC) if t.tzinfo is None else t for t in offered] == [
        datetime(2030, 12, 10, 20, 0, tzinfo=UTC),
        datetime(2030, 12, 11, 20, 0, tzinfo=UTC),
    ]
    with unit_of_work() as session:
        scheduling.offer_slots(
            session,
            seeded.bram,
            seeded.fixture.id,
            seeded.orcs.id,
            [datetime(2030, 12, 11, 20, 0, tzinfo=UTC)],
            datetime(2030, 1, 1, tzinfo=UTC),
        )
    page = client.get(url).get_data(as_text=True)
    assert "Proposed: 2030-12-11 20:00 UTC" in page
    assert client.post(f"{url}/accept").status_code == 302
    db.session.expire_all()
    assert db.session.get(Match, seeded.fixture.id).scheduled_for == date(2030, 12, 11)  # type: ignore[union-attr]
    assert "Agreed: 2030-12-11 20:00 UTC" in client.get(url).get_data(as_text=True)


def test_a_coach_offers_only_for_their_own_team(client: FlaskClient, seeded: Seeded) -> None:
    _log_in(client, "bram")
    response = client.post(
        f"/matches/{seeded.fixture.id}/times",
        data={"team_id": str(seeded.humans.id), "time1": "2030-12-10T20:00"},
    )
    assert response.status_code == 400  # not one of the teams offered to him
    assert db.session.scalars(select(FixtureSlot)).all() == []
