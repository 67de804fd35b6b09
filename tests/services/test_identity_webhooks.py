"""Discord embeds wear the team's colour and logo; the payloads carry both."""

from __future__ import annotations

from typing import Any

import pytest

from league.extensions import db
from league.models import Team
from league.services import identity, webhooks
from league.services.unit_of_work import unit_of_work
from league.services.webhooks.discord import COLOURS
from league.services.webhooks.payloads import team_payload, team_ref
from tests import logo_files
from tests.factories import make_league, make_team, make_user


@pytest.fixture
def logo_dir(app, tmp_path):
    app.config["LOGO_DIR"] = str(tmp_path / "logos")
    return tmp_path / "logos"


@pytest.fixture
def team(logo_dir) -> Team:
    anna = make_user("anna")
    league = make_league(make_user("commish"), "bb2025", anna)
    team = make_team(anna, league, "human", "Reikland Reavers")
    with unit_of_work() as session:
        identity.set_colours(session, anna, team.id, ["#C81E1E", "#ffffff"])
        identity.set_logo(session, anna, team.id, logo_files.image_bytes((64, 64)), "a.png")
    db.session.expire_all()
    return db.session.get(Team, team.id)


def envelope(event: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "event": event,
        "league": {"id": 1, "name": "Old World", "url": "http://127.0.0.1:5000/leagues/1"},
        "occurred_at": "2026-11-28T17:00:00+00:00",
        "data": data,
    }


def side(ref: dict[str, Any], score: int) -> dict[str, Any]:
    return {**ref, "score": score, "scorers": []}


def test_the_team_reference_carries_colours_and_logo(team: Team) -> None:
    ref = team_ref(team)
    assert ref["colours"] == ["#c81e1e", "#ffffff"]
    assert ref["logo_url"] == f"http://127.0.0.1:5000/logos/{team.logo_key}-256.png"


def test_a_new_teams_embed_wears_its_colour_and_logo(team: Team) -> None:
    message = webhooks.discord_message(envelope("team.created", team_payload(team)))
    embed = message["embeds"][0]
    assert embed["color"] == 0xC81E1E == 13_114_910  # 200 * 65536 + 30 * 256 + 30
    assert embed["thumbnail"] == {"url": team_ref(team)["logo_url"]}


def test_a_result_wears_the_winners_colour_and_a_draw_the_home_teams() -> None:
    plain = {"id": 2, "name": "Bruisers", "url": "u", "colours": None, "logo_url": None}
    dressed = {
        "id": 1,
        "name": "Reavers",
        "url": "u",
        "colours": ["#1f4e9c", "#ffffff"],
        "logo_url": None,
    }

    def result(home_score: int, away_score: int, home, away) -> dict[str, Any]:
        match = {"home": side(home, home_score), "away": side(away, away_score)}
        match.update(friendly=False, round=1, url="u")
        data = {"match": match, "casualties": [], "standings": []}
        return webhooks.discord_message(envelope("match.finalised", data))["embeds"][0]

    assert result(2, 1, dressed, plain)["color"] == 0x1F4E9C
    assert result(0, 1, plain, dressed)["color"] == 0x1F4E9C
    # The winner has no colours: the event's own colour, and no thumbnail.
    won_by_plain = result(1, 0, plain, dressed)
    assert won_by_plain["color"] == COLOURS["match.finalised"]
    assert "thumbnail" not in won_by_plain
    assert result(1, 1, dressed, plain)["color"] == 0x1F4E9C  # a draw: the home team's
