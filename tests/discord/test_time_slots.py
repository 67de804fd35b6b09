"""Finding a time: each coach offers up to three times for a fixture (the service, or
`/offer` in Discord); the earliest both offer is proposed, and a linked coach's button in
`/my` accepts it, dating the fixture. An unlinked Discord user's button is refused."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Match, TimeSlot
from league.services import scheduling
from league.services.errors import Forbidden, RuleViolation
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import (
    ANNA_DISCORD,
    STRANGER_DISCORD,
    Seeded,
    command,
    interaction,
    post_signed,
)
from tests.discord.test_linking import _link_anna, _press

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TUESDAY_8PM = datetime(2026, 12, 8, 20, 0, tzinfo=UTC)
WEDNESDAY_8PM = datetime(2026, 12, 9, 20, 0, tzinfo=UTC)
THURSDAY_8PM = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)


def _side(seeded: Seeded, team) -> str:
    return "home" if seeded.fixture.home.team_id == team.id else "away"


def _offer(seeded: Seeded, coach, team, times, now=NOW):
    with unit_of_work() as session:
        return scheduling.offer_times(
            session, coach, seeded.fixture.id, _side(seeded, team), times, now=now
        )


def test_the_earliest_time_both_offer_is_proposed(connected: Seeded) -> None:
    state = _offer(connected, connected.anna, connected.humans, [THURSDAY_8PM, WEDNESDAY_8PM])
    assert state.proposed is None  # Gouged Eye has offered nothing yet
    state = _offer(
        connected, connected.bram, connected.orcs, [TUESDAY_8PM, THURSDAY_8PM, WEDNESDAY_8PM]
    )
    # Both offer Wednesday and Thursday: Wednesday, the earlier, is proposed.
    assert state.proposed == WEDNESDAY_8PM
    assert state.offered[_side(connected, connected.humans)] == [WEDNESDAY_8PM, THURSDAY_8PM]
    # A new offer replaces the team's earlier ones.
    state = _offer(connected, connected.anna, connected.humans, [THURSDAY_8PM])
    assert state.proposed == THURSDAY_8PM


def test_offers_are_checked(connected: Seeded) -> None:
    four = [TUESDAY_8PM, WEDNESDAY_8PM, THURSDAY_8PM, datetime(2026, 12, 11, 20, tzinfo=UTC)]
    with pytest.raises(RuleViolation, match=r"Offer at most 3 times\."):
        _offer(connected, connected.anna, connected.humans, four)
    with pytest.raises(RuleViolation, match=r"Every time offered must be in the future\."):
        _offer(connected, connected.anna, connected.humans, [TUESDAY_8PM], now=THURSDAY_8PM)
    # Anna does not coach Gouged Eye.
    with pytest.raises(Forbidden):
        _offer(connected, connected.anna, connected.orcs, [TUESDAY_8PM])
    assert db.session.scalars(select(TimeSlot)).all() == []


def test_nothing_to_accept_before_a_time_in_common(connected: Seeded) -> None:
    _offer(connected, connected.anna, connected.humans, [TUESDAY_8PM])
    with (
        pytest.raises(RuleViolation, match="Both sides must offer a time"),
        unit_of_work() as session,
    ):
        scheduling.accept_time(session, connected.bram, connected.fixture.id, TUESDAY_8PM)


def test_offer_in_discord_then_accept_with_the_button(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _link_anna(client, key)
    _offer(connected, connected.bram, connected.orcs, [WEDNESDAY_8PM, THURSDAY_8PM], now=NOW)
    fixture_id = connected.fixture.id
    answer = post_signed(
        client,
        key,
        command("offer", match=str(fixture_id), time1="2026-12-10 20:00", time2="2026-12-12 18:00"),
    ).get_json()["data"]
    assert answer["flags"] == 64
    assert answer["content"] == (
        "Reavers offers 2026-12-10 20:00 UTC, 2026-12-12 18:00 UTC. "
        "Proposed: 2026-12-10 20:00 UTC; run /my to accept it."
    )
    data = post_signed(client, key, command("my")).get_json()["data"]
    assert "Proposed time: 2026-12-10 20:00 UTC" in data["embeds"][0]["fields"][0]["value"]
    buttons = [b for row in data["components"] for b in row["components"]]
    accept = next(b for b in buttons if b["custom_id"] == f"accept:{fixture_id}")
    assert accept["label"] == "Accept 2026-12-10 20:00 UTC"

    # Somebody who has not linked cannot press it.
    refused = _press(client, key, f"accept:{fixture_id}", STRANGER_DISCORD)
    assert refused["data"]["content"].startswith("Your Discord user is not linked")
    db.session.expire_all()
    assert db.session.get(Match, fixture_id).scheduled_for == date(2026, 12, 12)  # type: ignore[union-attr]

    done = _press(client, key, f"accept:{fixture_id}", ANNA_DISCORD)
    assert done["data"]["content"] == ("Time agreed: Gouged Eye v Reavers at 2026-12-10 20:00 UTC.")
    db.session.expire_all()
    # The fixture is dated that day: the fixtures page and the calendars show it.
    assert db.session.get(Match, fixture_id).scheduled_for == date(2026, 12, 10)  # type: ignore[union-attr]
    data = post_signed(client, key, command("my")).get_json()["data"]
    assert "Agreed time: 2026-12-10 20:00 UTC" in data["embeds"][0]["fields"][0]["value"]


def test_offer_refuses_a_time_it_cannot_read(client: FlaskClient, connected: Seeded, key) -> None:
    _link_anna(client, key)
    answer = post_signed(
        client, key, command("offer", match=str(connected.fixture.id), time1="next tuesday")
    ).get_json()["data"]
    assert answer["content"] == "Write each time as 2026-12-10 20:00 (UTC)."
    assert db.session.scalars(select(TimeSlot)).all() == []


def test_the_match_option_autocompletes_fixtures_to_play(
    client: FlaskClient, connected: Seeded, key
) -> None:
    typed = interaction(
        4,
        {
            "name": "offer",
            "type": 1,
            "options": [{"name": "match", "type": 3, "value": "", "focused": True}],
        },
    )
    choices = post_signed(client, key, typed).get_json()["data"]["choices"]
    # Round 1 is played: only round 2's fixture is left.
    assert choices == [
        {"name": "Gouged Eye v Reavers (Round 2)", "value": str(connected.fixture.id)}
    ]
