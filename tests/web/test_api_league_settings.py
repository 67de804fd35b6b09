"""API v1 league settings: PATCH /api/v1/leagues/{id} and POST /api/v1/leagues take
every setting of the settings page (docs/api.md, Leagues)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_team, make_user
from tests.pages import input_value, login

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def stored(league_id: int) -> dict[str, Any]:
    """Every stored setting of the league."""
    db.session.expire_all()
    league = db.session.get(League, league_id)
    assert league is not None
    return {
        "name": league.name,
        "ruleset": league.ruleset_id,
        "starting_treasury": league.starting_treasury,
        "points": (league.points_win, league.points_draw, league.points_loss),
        "tie_breakers": list(league.tie_breakers),
        "house_rules": dict(league.house_rules),
        "table_dice_allowed": league.table_dice_allowed,
        "paper_size": league.paper_size,
        "default_language": league.default_language,
        "pairing": {
            "avoid_same_club": league.pairing_avoid_same_club,
            "first_round": league.pairing_first_round,
        },
        # As stored, in UTC (SQLite gives it back without the offset; PostgreSQL with it).
        "roster_deadline": naive(league.roster_deadline),
        "correction_deadline": naive(league.correction_deadline),
    }


def naive(moment: datetime | None) -> datetime | None:
    return moment.astimezone(UTC).replace(tzinfo=None) if moment and moment.tzinfo else moment


def selected(page: str, select_id: str) -> str | None:
    found = re.search(
        rf'<select[^>]*\bid="{select_id}".*?<option selected value="([^"]*)"', page, re.S
    )
    return found.group(1) if found else None


def checked(page: str, input_id: str) -> bool:
    found = re.search(rf'<input[^>]*\bid="{input_id}"[^>]*>', page)
    assert found is not None
    return " checked" in found.group(0)


@pytest.fixture
def boss() -> User:
    return make_user("boss")


@pytest.fixture
def league(boss: User) -> League:
    return make_league(boss, "bb2025")


def test_every_setting_round_trips_through_patch_and_shows_on_the_settings_page(
    client: FlaskClient, boss: User, league: League
) -> None:
    changes = {
        "name": "Old World Cup",
        "ruleset": "bb2020",  # no teams yet: the ruleset may still change
        "starting_treasury": 1_150_000,
        "points": {"win": 2, "draw": 1, "loss": 0},
        "tie_breakers": ["points", "opponents_points", "td_difference", "cas_caused"],
        "concessions": {"conceding_points": -1, "credited_score": [2, 0]},
        # BB2020's chosen primary skill costs 6, 8, 12, 16, 20, 30 SPP; a league may lower them.
        "house_rules": {"costs": {"chosen_primary": [5, 7, 10, 14, 18, 25]}},
        "table_dice_allowed": True,
        "paper_size": "letter",
        "default_language": "de",
        "pairing": {"avoid_same_club": False, "first_round": "rating"},
        "roster_deadline": "2026-12-05T08:00:00+00:00",
        "correction_deadline": "2026-12-05T09:30:00+00:00",
    }
    response = client.patch(f"{API}/leagues/{league.id}", json=changes, headers=auth(boss))
    assert response.status_code == 200, response.json
    shown = response.json
    # The concession settings are kept in the house rule `tournament`.
    expected = {key: value for key, value in changes.items() if key != "concessions"}
    expected["house_rules"] = {
        **changes["house_rules"],
        "tournament": {"concession_points": -1, "concession_score": [2, 0]},
    }
    assert {key: shown[key] for key in changes} == {**changes, **expected}
    assert client.get(f"{API}/leagues/{league.id}").json == shown
    assert stored(league.id) == {
        **expected,
        "points": (2, 1, 0),
        "roster_deadline": datetime(2026, 12, 5, 8, 0),
        "correction_deadline": datetime(2026, 12, 5, 9, 30),
    }

    login(client, "boss")
    page = client.get(f"/leagues/{league.id}/settings").text
    assert input_value(page, "name") == "Old World Cup"
    assert selected(page, "ruleset_id") == "bb2020"
    assert input_value(page, "starting_treasury") == "1150000"
    assert [input_value(page, f"points_{r}") for r in ("win", "draw", "loss")] == ["2", "1", "0"]
    assert [selected(page, f"tie_breaker_{i}") for i in range(1, 6)] == [
        "points",
        "opponents_points",
        "td_difference",
        "cas_caused",
        "",
    ]
    assert input_value(page, "concession_points") == "-1"
    assert input_value(page, "concession_score") == "2-0"
    assert input_value(page, "cost_chosen_primary") == "5, 7, 10, 14, 18, 25"
    assert checked(page, "table_dice_allowed")
    assert selected(page, "paper_size") == "letter"
    assert selected(page, "default_language") == "de"
    assert not checked(page, "pairing_avoid_same_club")
    assert selected(page, "pairing_first_round") == "rating"
    # The settings page shows the deadlines in UTC.
    assert input_value(page, "roster_deadline") == "2026-12-05T08:00"
    assert input_value(page, "correction_deadline") == "2026-12-05T09:30"


def test_patch_changes_only_what_it_names(client: FlaskClient, boss: User, league: League) -> None:
    before = stored(league.id)
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"table_dice_allowed": True, "points": {"draw": 2, "win": 4}},
        headers=auth(boss),
    )
    assert response.status_code == 200, response.json
    assert response.json["table_dice_allowed"] is True
    assert response.json["points"] == {"win": 4, "draw": 2, "loss": 0}
    assert stored(league.id) == {**before, "table_dice_allowed": True, "points": (4, 2, 0)}


def test_post_takes_every_setting(client: FlaskClient, boss: User) -> None:
    response = client.post(
        f"{API}/leagues",
        json={
            "name": "Table Dice League",
            "ruleset": "bb2025",
            "starting_treasury": 1_100_000,
            "points": {"win": 3, "draw": 1, "loss": 1},
            "tie_breakers": ["td_scored"],
            "house_rules": {"spp_awards": {"td": 4}},
            "table_dice_allowed": True,
            "paper_size": "letter",
            "default_language": "it",
            "pairing": {"first_round": "manual"},
        },
        headers=auth(boss),
    )
    assert response.status_code == 201, response.json
    assert stored(response.json["id"]) == {
        "name": "Table Dice League",
        "ruleset": "bb2025",
        "starting_treasury": 1_100_000,
        "points": (3, 1, 1),
        "tie_breakers": ["td_scored"],
        "house_rules": {"spp_awards": {"td": 4}},
        "table_dice_allowed": True,
        "paper_size": "letter",
        "default_language": "it",
        "pairing": {"avoid_same_club": True, "first_round": "manual"},
        "roster_deadline": None,
        "correction_deadline": None,
    }


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"name": 7}, 400, "'name'"),
        ({"name": "No"}, 422, "league name"),  # 3 to 80 characters
        ({"ruleset": "bb1987"}, 422, "ruleset"),
        ({"starting_treasury": "lots"}, 400, "'starting_treasury'"),
        ({"starting_treasury": -1}, 422, "starting treasury"),
        ({"starting_treasury": 10_000_001}, 422, "starting treasury"),
        ({"points": [3, 1, 0]}, 400, "'points'"),
        ({"points": {"win": 2**31}}, 400, "'points.win'"),
        ({"points": {"win": 1, "draw": 2}}, 422, "Points for a win"),
        ({"tie_breakers": "points"}, 400, "'tie_breakers'"),
        ({"tie_breakers": ["points", "points"]}, 422, "tie-breaker"),
        ({"tie_breakers": ["longest_beard"]}, 422, "tie-breaker"),
        ({"house_rules": []}, 400, "'house_rules'"),
        ({"house_rules": {"spp_awards": {"td": 101}}}, 422, "House rules: spp awards td"),
        ({"table_dice_allowed": "yes"}, 400, "'table_dice_allowed'"),
        ({"paper_size": "a3"}, 422, "paper"),
        ({"default_language": "nl"}, 422, "languages offered"),
        ({"default_language": 5}, 400, "'default_language'"),
        ({"pairing": True}, 400, "'pairing'"),
        ({"pairing": {"avoid_same_club": "yes"}}, 400, "'pairing.avoid_same_club'"),
        ({"pairing": {"first_round": 3}}, 400, "'pairing.first_round'"),
        ({"pairing": {"first_round": "swiss"}}, 422, "seeded by rating"),
        ({"roster_deadline": "next Saturday"}, 400, "'roster_deadline'"),
        ({"roster_deadline": 20261205}, 400, "'roster_deadline'"),
        ({"correction_deadline": "2026-13-01T09:00:00Z"}, 400, "'correction_deadline'"),
        (
            {"roster_deadline": "2026-12-05T09:00:00Z", "correction_deadline": "2026-12-04"},
            422,
            "correction deadline",
        ),
        # One bad setting among good ones: nothing at all changes.
        ({"name": "Renamed League", "table_dice_allowed": True, "paper_size": 4}, 400, "paper"),
    ],
)
def test_a_bad_setting_is_refused_naming_it_and_nothing_changes(
    client: FlaskClient, boss: User, league: League, body: dict[str, Any], status: int, named: str
) -> None:
    before = stored(league.id)
    response = client.patch(f"{API}/leagues/{league.id}", json=body, headers=auth(boss))
    assert response.status_code == status, response.json
    assert named in response.json["error"]["message"]
    assert stored(league.id) == before


def test_the_ruleset_cannot_change_once_the_league_has_teams(
    client: FlaskClient, boss: User, league: League
) -> None:
    make_team(boss, league, "human")
    before = stored(league.id)
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"ruleset": "bb2020", "table_dice_allowed": True},
        headers=auth(boss),
    )
    assert response.status_code == 409
    assert response.json["error"] == {
        "code": "conflict",
        "message": "The ruleset cannot change once the league has teams.",
    }
    assert stored(league.id) == before
    # The same ruleset again is no change, and the rest goes through.
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"ruleset": "bb2025", "table_dice_allowed": True},
        headers=auth(boss),
    )
    assert response.status_code == 200


def test_only_a_commissioner_or_a_site_admin_changes_settings(
    client: FlaskClient, boss: User
) -> None:
    coach, admin = make_user("grim"), make_user("root", admin=True)
    league = make_league(boss, "bb2025", coach)
    before = stored(league.id)
    refused = client.patch(
        f"{API}/leagues/{league.id}", json={"table_dice_allowed": True}, headers=auth(coach)
    )
    assert refused.status_code == 403
    assert refused.json["error"]["code"] == "forbidden"
    assert stored(league.id) == before
    assert client.patch(f"{API}/leagues/{league.id}", json={}).status_code == 401
    allowed = client.patch(
        f"{API}/leagues/{league.id}", json={"table_dice_allowed": True}, headers=auth(admin)
    )
    assert allowed.status_code == 200
    assert stored(league.id)["table_dice_allowed"] is True


def test_unknown_league_is_404(client: FlaskClient, boss: User) -> None:
    response = client.patch(f"{API}/leagues/999", json={}, headers=auth(boss))
    assert response.status_code == 404


def test_the_document_describes_patch_and_the_settings(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").json
    operation = document["paths"]["/api/v1/leagues/{league_id}"]["patch"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/LeagueSettings"}
    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(operation["responses"])
    settings = set(document["components"]["schemas"]["LeagueSettings"]["properties"])
    league = set(document["components"]["schemas"]["League"]["properties"])
    expected = {
        "name",
        "ruleset",
        "starting_treasury",
        "points",
        "tie_breakers",
        "concessions",
        "house_rules",
        "table_dice_allowed",
        "log_finalises",
        "paper_size",
        "default_language",
        "pairing",
        "roster_deadline",
        "correction_deadline",
    }
    assert settings == expected
    assert expected <= league
    assert expected <= set(document["components"]["schemas"]["NewLeague"]["properties"])


def test_the_live_log_setting_is_read_and_changed(
    client: FlaskClient, boss: User, league: League
) -> None:
    url = f"{API}/leagues/{league.id}"
    assert client.get(url).json["log_finalises"] is False
    changed = client.patch(url, json={"log_finalises": True}, headers=auth(boss))
    assert changed.status_code == 200, changed.json
    assert changed.json["log_finalises"] is True
    db.session.expire_all()
    assert db.session.get(League, league.id).log_finalises is True  # type: ignore[union-attr]
    refused = client.patch(url, json={"log_finalises": "yes"}, headers=auth(boss))
    assert refused.status_code == 400


def test_tie_breakers_and_concessions_are_checked_and_nothing_is_written(
    client: FlaskClient, boss: User, league: League
) -> None:
    url = f"{API}/leagues/{league.id}"
    before = stored(league.id)
    for body, field in (
        ({"tie_breakers": ["points", "luck"]}, "tie-breaker 'luck' is unknown"),
        (
            {"tie_breakers": ["points", "cas_caused", "cas_caused"]},
            "tie-breaker 'cas_caused' is picked twice",
        ),
        ({"concessions": {"credited_score": [0, 2]}}, "winner must score more than the loser"),
        ({"concessions": {"conceding_points": "one"}}, "concessions"),
    ):
        response = client.patch(url, json=body, headers=auth(boss))
        assert response.status_code in (400, 422), (body, response.json)
        assert field in str(response.json), (body, response.json)
        assert stored(league.id) == before
    # null clears a concession setting again.
    client.patch(url, json={"concessions": {"credited_score": [2, 0]}}, headers=auth(boss))
    cleared = client.patch(url, json={"concessions": {"credited_score": None}}, headers=auth(boss))
    assert cleared.json["concessions"] == {"conceding_points": None, "credited_score": None}
    assert stored(league.id)["house_rules"] == {}


def test_the_deadlines_are_set_read_and_cleared(
    client: FlaskClient, boss: User, league: League
) -> None:
    url = f"{API}/leagues/{league.id}"
    changed = client.patch(
        url,
        # Without an offset a time is UTC; with one it is converted.
        json={
            "roster_deadline": "2026-12-05T09:00:00",
            "correction_deadline": "2026-12-05T12:30:00+02:00",
        },
        headers=auth(boss),
    )
    assert changed.status_code == 200, changed.json
    assert changed.json["roster_deadline"] == "2026-12-05T09:00:00+00:00"
    assert changed.json["correction_deadline"] == "2026-12-05T10:30:00+00:00"
    assert client.get(url).json["correction_deadline"] == "2026-12-05T10:30:00+00:00"
    cleared = client.patch(url, json={"correction_deadline": None}, headers=auth(boss))
    assert cleared.json["correction_deadline"] is None
    assert cleared.json["roster_deadline"] == "2026-12-05T09:00:00+00:00"
