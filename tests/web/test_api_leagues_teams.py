"""API v1 leagues, teams and players (docs/api.md, Leagues; Teams and players)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Player, Team, TreasuryEntry, User
from league.rules.competitions import DEFAULT_TIE_BREAKERS
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import hire, make_league, make_team, make_user
from tests.snapshots import seeded_once

API = "/api/v1"
#: The numbers of a standings row (besides "team_id" and "team").
STANDINGS_COUNTS = (
    "played",
    "won",
    "drawn",
    "lost",
    "td_for",
    "td_against",
    "cas_for",
    "cas_against",
    "points",
    "bonus_points",
    "byes",
)


def token_for(user: User) -> str:
    with unit_of_work() as session:
        return issue_token(session, user)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error(response: Any, status: int, code: str, *words: str) -> None:
    assert response.status_code == status, response.json
    assert set(response.json) == {"error"}
    assert set(response.json["error"]) == {"code", "message"}
    assert response.json["error"]["code"] == code
    for word in words:
        assert word in response.json["error"]["message"]


def snapshot() -> dict[str, object]:
    """Everything a refused call must leave alone."""
    db.session.expire_all()
    return {
        "leagues": db.session.scalar(select(func.count(League.id))),
        "teams": [
            (t.id, t.treasury, t.rerolls, t.apothecary, t.assistant_coaches, t.cheerleaders)
            for t in db.session.scalars(select(Team).order_by(Team.id))
        ],
        "players": [
            (p.id, p.number, p.status)
            for p in db.session.scalars(select(Player).order_by(Player.id))
        ],
        "ledger": db.session.scalar(select(func.count(TreasuryEntry.id))),
    }


class ApiWorld:
    """Calls to the API through the test client, signed with a bearer token or not."""

    client: FlaskClient

    @classmethod
    def built_once(
        cls, client: FlaskClient, *args: Any, then: Callable[[Any], object] | None = None
    ) -> Self:
        """The world built (then `then(world)`) through the API the first time in the test
        session, its rows copied back every later time (`tests.snapshots.seeded_once`)."""

        def build() -> Self:
            world = cls(client, *args)
            if then is not None:
                then(world)
            return world

        key = f"{cls.__module__}.{cls.__qualname__}{args}{then and then.__qualname__}"
        world = seeded_once(key, build)
        world.client = client
        return world

    def post(self, path: str, body: object, token: str | None = None) -> Any:
        headers = auth(token) if token else {}
        return self.client.post(f"{API}{path}", json=body, headers=headers)

    def get(self, path: str) -> Any:
        response = self.client.get(f"{API}{path}")
        assert response.status_code == 200, response.json
        return response.json


class World(ApiWorld):
    """A commissioner's BB2025 league with one coach's active Human team."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.boss = make_user("boss")
        self.grim = make_user("grim")
        self.stranger = make_user("stranger")
        self.boss_token = token_for(self.boss)
        self.grim_token = token_for(self.grim)
        self.stranger_token = token_for(self.stranger)
        self.league_id = make_league(self.boss, "bb2025", self.grim).id
        response = self.post(
            f"/leagues/{self.league_id}/teams",
            {"name": "Reikland Reavers", "team_type": "human"},
            self.grim_token,
        )
        assert response.status_code == 201, response.json
        self.team_id: int = response.json["id"]

    def hire(self, body: object, token: str | None = None) -> Any:
        return self.post(f"/teams/{self.team_id}/players", body, token or self.grim_token)

    def buy(self, item: object, token: str | None = None) -> Any:
        return self.post(
            f"/teams/{self.team_id}/purchases", {"item": item}, token or self.grim_token
        )

    def team(self) -> dict[str, Any]:
        return self.get(f"/teams/{self.team_id}")


@pytest.fixture
def world(client: FlaskClient) -> World:
    return World.built_once(client)


# ---------------------------------------------------------------------------
# Leagues


def test_create_league_makes_the_caller_commissioner(client: FlaskClient) -> None:
    token = token_for(make_user("boss"))
    response = client.post(
        f"{API}/leagues",
        json={"name": "  Old World Cup ", "ruleset": "bb2020"},
        headers=auth(token),
    )
    assert response.status_code == 201
    league = response.json
    assert league == {
        "id": league["id"],
        "name": "Old World Cup",
        "ruleset": "bb2020",
        "starting_treasury": 1_000_000,
        "points": {"win": 3, "draw": 1, "loss": 0},
        "tie_breakers": league["tie_breakers"],
        "concessions": {"conceding_points": None, "credited_score": None},
        "house_rules": {},
        "table_dice_allowed": False,
        "log_finalises": False,
        "paper_size": "a4",
        "default_language": "en",
        "pairing": {"avoid_same_club": True, "first_round": "random"},
        "roster_deadline": None,
        "correction_deadline": None,
        "season": 1,
        "commissioners": ["boss"],
        "coaches": [],
        "teams": [],
    }
    assert client.get(f"{API}/leagues/{league['id']}").json == league


def test_create_league_defaults_to_bb2025(client: FlaskClient) -> None:
    token = token_for(make_user("boss"))
    response = client.post(f"{API}/leagues", json={"name": "Default"}, headers=auth(token))
    assert response.status_code == 201
    assert response.json["ruleset"] == "bb2025"


def test_league_shows_its_teams_publicly(world: World) -> None:
    make_team(world.grim, db.session.get(League, world.league_id), "orc", "Gouged Eye")
    response = world.client.get(f"{API}/leagues/{world.league_id}")
    assert response.status_code == 200
    assert response.json["commissioners"] == ["boss"]
    assert response.json["coaches"] == ["grim"]
    assert response.json["teams"] == [
        {
            "id": response.json["teams"][0]["id"],
            "name": "Gouged Eye",
            "team_type": "orc",
            "coach": "grim",
            "status": "draft",
        },
        {
            "id": world.team_id,
            "name": "Reikland Reavers",
            "team_type": "human",
            "coach": "grim",
            "status": "active",
        },
    ]


def test_standings_list_every_active_team_with_zeros(world: World) -> None:
    world.post(
        f"/leagues/{world.league_id}/teams",
        {"name": "Athelorn Avengers", "team_type": "wood-elf", "coach": "grim"},
        world.boss_token,
    )
    # A team still drafting is not in the standings.
    make_team(world.grim, db.session.get(League, world.league_id), "orc", "Gouged Eye")
    response = world.client.get(f"{API}/leagues/{world.league_id}/standings")
    assert response.status_code == 200
    zeros = dict.fromkeys(STANDINGS_COUNTS, 0)
    rows = response.json["rows"]
    assert [row["team"] for row in rows] == ["Athelorn Avengers", "Reikland Reavers"]
    reavers = db.session.get(Team, world.team_id)
    order = response.json["tie_breakers"]
    assert order == list(db.session.get(League, world.league_id).tie_breakers)
    # Every tie-breaker's value in the league's order: all zero (no result yet).
    values = dict.fromkeys(order, 0)
    assert reavers.coin_toss is not None
    assert rows[1] == {
        "team_id": world.team_id,
        "team": "Reikland Reavers",
        **zeros,
        "tie_breaker_values": values,
        # No result yet: the two are listed by name, level on everything (the coin toss
        # is not used before the first result); the last row has no next team.
        "separated_by": None,
    }
    assert rows[0]["separated_by"] == "name"


def test_standings_of_a_league_without_teams(client: FlaskClient) -> None:
    league = make_league(make_user("boss"))
    response = client.get(f"{API}/leagues/{league.id}/standings")
    assert response.status_code == 200
    # No rows, and no divisions (a league without any has an empty list).
    assert response.json == {
        "rows": [],
        "divisions": [],
        "tie_breakers": list(DEFAULT_TIE_BREAKERS),
    }


def test_league_errors(client: FlaskClient) -> None:
    token = token_for(make_user("boss"))
    response = client.post(f"{API}/leagues", json={"name": "No token", "ruleset": "bb2025"})
    assert_error(response, 401, "unauthorized")
    response = client.post(
        f"{API}/leagues", json={"name": "Future", "ruleset": "bb2099"}, headers=auth(token)
    )
    assert_error(response, 422, "rule_violation", "bb2099")
    response = client.post(f"{API}/leagues", json={"name": "X"}, headers=auth(token))
    assert_error(response, 422, "rule_violation", "3 to 80")
    response = client.post(
        f"{API}/leagues", json={"name": "Cup", "ruleset": ""}, headers=auth(token)
    )
    assert_error(response, 422, "rule_violation", "Unknown ruleset")
    for body, field in (
        ({}, "name"),
        ({"ruleset": "bb2025"}, "name"),
        ({"name": None}, "name"),
        ({"name": 12}, "name"),
        ({"name": ["x"]}, "name"),
        ({"name": "Cup", "ruleset": 2025}, "ruleset"),
        ({"name": "Nul\x00Cup"}, "name"),
    ):
        response = client.post(f"{API}/leagues", json=body, headers=auth(token))
        assert_error(response, 400, "invalid_field", f"'{field}'")
    assert db.session.scalar(select(func.count(League.id))) == 0
    for missing in ("/leagues/999", "/leagues/999/standings", "/leagues/abc", "/leagues/-1"):
        assert_error(client.get(f"{API}{missing}"), 404, "not_found")
    assert_error(client.get(f"{API}/leagues/99999999999999999999"), 404, "not_found")


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{not json", "application/json"),
        ("", "application/json"),
        ("[1, 2]", "application/json"),
        ('"a string"', "application/json"),
        ("null", "application/json"),
        ("42", "application/json"),
        ("name=Cup", "application/x-www-form-urlencoded"),
        (b"\xff\xfe", "application/json"),
        ("[" * 100_000, "application/json"),
    ],
    ids=["broken", "empty", "array", "string", "null", "number", "form", "not-utf8", "deep"],
)
def test_a_body_that_is_not_a_json_object_is_400(
    client: FlaskClient, data: str | bytes, content_type: str
) -> None:
    token = token_for(make_user("boss"))
    response = client.post(
        f"{API}/leagues", data=data, content_type=content_type, headers=auth(token)
    )
    assert_error(response, 400, "bad_request", "JSON object")


# ---------------------------------------------------------------------------
# Teams


def test_created_team_is_active_with_empty_roster_and_full_treasury(world: World) -> None:
    team = world.team()
    assert team == {
        "id": world.team_id,
        "name": "Reikland Reavers",
        "league_id": world.league_id,
        "team_type": "human",
        "coach": "grim",
        "coachless": False,
        "status": "active",
        "treasury": 1_000_000,
        "rerolls": 0,
        "apothecary": False,
        "assistant_coaches": 0,
        "cheerleaders": 0,
        "dedicated_fans": 1,
        "team_value": 0,
        "current_team_value": 0,
        "division": None,
        "colours": None,
        "logo_url": None,
        "players": [],
        "roster_approval": {
            "team_id": world.team_id,
            "state": "open",
            "locked": False,
            "note": None,
            "changed_at": None,
        },
    }


def test_create_team_answers_201_with_the_team(world: World) -> None:
    response = world.post(
        f"/leagues/{world.league_id}/teams",
        {"name": "Grudgebearers", "team_type": "dwarf", "coach": None},
        world.grim_token,
    )
    assert response.status_code == 201
    assert response.json["team_type"] == "dwarf"
    assert response.json["treasury"] == 1_000_000
    assert response.json["status"] == "active"
    assert response.json == world.client.get(f"{API}/teams/{response.json['id']}").json


def test_commissioner_creates_a_team_for_a_coach(world: World) -> None:
    response = world.post(
        f"/leagues/{world.league_id}/teams",
        {"name": "Grudgebearers", "team_type": "dwarf", "coach": "GRIM"},
        world.boss_token,
    )
    assert response.status_code == 201
    team = response.json
    assert (team["name"], team["team_type"], team["coach"]) == ("Grudgebearers", "dwarf", "grim")
    # The coach's team, in the league, read back as it was answered.
    assert world.client.get(f"{API}/teams/{team['id']}").json == team


def test_create_team_errors_change_nothing(world: World) -> None:
    before = snapshot()
    path = f"/leagues/{world.league_id}/teams"
    body = {"name": "Grudgebearers", "team_type": "dwarf"}
    assert_error(world.post(path, body), 401, "unauthorized")
    assert_error(world.post(path, body, "not-a-token"), 401, "unauthorized")
    assert_error(world.post(path, body, world.stranger_token), 403, "forbidden", "Join")
    assert_error(
        world.post(path, {**body, "coach": "boss"}, world.grim_token),
        403,
        "forbidden",
        "commissioner",
    )
    assert_error(
        world.post(path, {**body, "coach": "stranger"}, world.boss_token), 404, "not_found"
    )
    assert_error(world.post("/leagues/999/teams", body, world.grim_token), 404, "not_found")
    assert_error(
        world.post(path, {"name": "reikland reavers", "team_type": "dwarf"}, world.grim_token),
        409,
        "conflict",
        "already has a team",
    )
    assert_error(
        world.post(path, {"name": "Grudgebearers", "team_type": "squig"}, world.grim_token),
        422,
        "rule_violation",
        "squig",
    )
    for bad, field in (
        ({"team_type": "dwarf"}, "name"),
        ({"name": "Grudgebearers"}, "team_type"),
        ({"name": 7, "team_type": "dwarf"}, "name"),
        ({"name": "Grudgebearers", "team_type": True}, "team_type"),
        ({**body, "coach": 3}, "coach"),
    ):
        assert_error(world.post(path, bad, world.grim_token), 400, "invalid_field", f"'{field}'")
    assert_error(world.post(path, [body], world.grim_token), 400, "bad_request")
    assert snapshot() == before


# ---------------------------------------------------------------------------
# Players


def test_hire_a_blitzer(world: World) -> None:
    response = world.hire({"position": "human-blitzer", "name": "Griff", "number": 7})
    assert response.status_code == 201
    player = response.json
    assert player == {
        "id": player["id"],
        "team_id": world.team_id,
        "name": "Griff",
        "number": 7,
        "position": "human-blitzer",
        "position_name": "Human Blitzer",
        "ma": 7,
        "st": 3,
        "ag": 3,
        "pa": 4,
        "av": 9,
        "skills": ["Block", "Tackle"],
        "spp": {"earned": 0, "spent": 0, "available": 0},
        "advancements": 0,
        "level": "Rookie",
        "value": 85000,
        "status": "active",
        "injuries": [],
    }
    team = world.team()
    assert team["treasury"] == 915_000
    assert team["team_value"] == 85000
    assert team["current_team_value"] == 85000
    assert team["players"] == [player]
    assert world.client.get(f"{API}/players/{player['id']}").json == player


def test_hire_gives_the_next_free_number_and_parameterised_skills(world: World) -> None:
    first = world.hire({"position": "human-lineman", "name": "Lars", "number": None}).json
    ogre = world.hire({"position": "ogre", "name": "Grunt"}).json
    assert (first["number"], ogre["number"]) == (1, 2)
    assert ogre["skills"] == [
        "Bone Head",
        "Loner (3+)",
        "Mighty Blow",
        "Thick Skull",
        "Throw Team-mate",
    ]
    assert (ogre["ma"], ogre["st"], ogre["ag"], ogre["pa"], ogre["av"]) == (5, 5, 4, 5, 10)
    assert world.team()["treasury"] == 1_000_000 - 50000 - 140000


def test_commissioner_may_hire_for_a_coach(world: World) -> None:
    before = world.team()["treasury"]
    response = world.hire({"position": "human-lineman", "name": "Lars"}, world.boss_token)
    assert response.status_code == 201
    assert (response.json["name"], response.json["position"]) == ("Lars", "human-lineman")
    # BB2025 Human Lineman: 50,000 from the coach's treasury, though the commissioner hired.
    assert world.team()["treasury"] == before - 50_000
    assert "Lars" in [p["name"] for p in world.team()["players"]]


def test_hire_errors_change_nothing(world: World) -> None:
    world.hire({"position": "human-blitzer", "name": "Griff", "number": 7})
    world.hire({"position": "human-blitzer", "name": "Gunther", "number": 8})
    before = snapshot()
    lineman = {"position": "human-lineman", "name": "Lars"}
    assert_error(
        world.client.post(f"{API}/teams/{world.team_id}/players", json=lineman),
        401,
        "unauthorized",
    )
    assert_error(world.hire(lineman, world.stranger_token), 403, "forbidden")
    assert_error(world.post("/teams/999/players", lineman, world.grim_token), 404, "not_found")
    assert_error(
        world.hire({**lineman, "number": 7}), 409, "conflict", "Number 7 is taken by Griff"
    )
    assert_error(
        world.hire({"position": "human-blitzer", "name": "Third"}),
        422,
        "position_full",
        "2 Human Blitzers",
    )
    assert_error(world.hire({**lineman, "position": "orc-lineman"}), 422, "rule_violation")
    for number in (0, 100, 10**30):
        assert_error(world.hire({**lineman, "number": number}), 422, "rule_violation", "1 to 99")
    assert_error(world.hire({**lineman, "name": "   "}), 422, "rule_violation")
    for bad, field in (
        ({"name": "Lars"}, "position"),
        ({"position": "human-lineman"}, "name"),
        ({**lineman, "number": "9"}, "number"),
        ({**lineman, "number": True}, "number"),
        ({**lineman, "number": 9.5}, "number"),
        ({**lineman, "name": {"first": "Lars"}}, "name"),
        ({**lineman, "position": 1}, "position"),
    ):
        assert_error(world.hire(bad), 400, "invalid_field", f"'{field}'")
    assert_error(world.hire("human-lineman"), 400, "bad_request")
    assert snapshot() == before


def test_hire_over_budget_is_422(client: FlaskClient) -> None:
    grim = make_user("grim")
    league = make_league(grim, "bb2025", starting_treasury=100_000)
    token = token_for(grim)
    team = client.post(
        f"{API}/leagues/{league.id}/teams",
        json={"name": "Poor Reavers", "team_type": "human"},
        headers=auth(token),
    ).json
    assert team["treasury"] == 100_000
    before = snapshot()
    response = client.post(
        f"{API}/teams/{team['id']}/players",
        json={"position": "ogre", "name": "Grunt"},
        headers=auth(token),
    )
    assert_error(response, 422, "insufficient_treasury", "Not enough gold")
    assert snapshot() == before


def test_seventeenth_player_is_422(world: World) -> None:
    hire(world.grim, db.session.get(Team, world.team_id), "human-lineman", 16)
    before = snapshot()
    response = world.hire({"position": "human-lineman", "name": "Seventeen"})
    assert_error(response, 422, "roster_full", "16 players")
    assert snapshot() == before


def test_fire_a_player(world: World) -> None:
    griff = world.hire({"position": "human-blitzer", "name": "Griff", "number": 7}).json
    response = world.client.delete(f"{API}/players/{griff['id']}", headers=auth(world.grim_token))
    assert response.status_code == 200
    assert response.json == {**griff, "status": "fired"}
    team = world.team()
    assert team["treasury"] == 915_000  # no refund
    assert team["team_value"] == 0
    assert team["players"] == [{**griff, "status": "fired"}]
    # The shirt number is free again, and the fired player stays in the history.
    again = world.hire({"position": "human-blitzer", "name": "Gunther", "number": 7})
    assert again.status_code == 201
    assert [(p["name"], p["status"]) for p in world.team()["players"]] == [
        ("Gunther", "active"),
        ("Griff", "fired"),
    ]


def test_fire_errors_change_nothing(world: World) -> None:
    griff = world.hire({"position": "human-blitzer", "name": "Griff", "number": 7}).json
    path = f"{API}/players/{griff['id']}"
    before = snapshot()
    assert_error(world.client.delete(path), 401, "unauthorized")
    assert_error(world.client.delete(path, headers=auth(world.stranger_token)), 403, "forbidden")
    assert_error(
        world.client.delete(f"{API}/players/999", headers=auth(world.grim_token)), 404, "not_found"
    )
    assert snapshot() == before
    world.client.delete(path, headers=auth(world.grim_token))
    response = world.client.delete(path, headers=auth(world.grim_token))
    assert_error(response, 409, "conflict", "not on the roster")


def test_firing_during_a_draft_undoes_the_hire(world: World) -> None:
    draft = make_team(world.grim, db.session.get(League, world.league_id), "orc", "Gouged Eye")
    (player,) = hire(world.grim, draft, "orc-lineman")
    player_id = player.id
    response = world.client.delete(f"{API}/players/{player_id}", headers=auth(world.grim_token))
    assert response.status_code == 200
    assert response.json["id"] == player_id
    assert response.json["name"] == "Player 1"
    assert world.client.get(f"{API}/teams/{draft.id}").json["players"] == []
    assert world.client.get(f"{API}/teams/{draft.id}").json["treasury"] == 1_000_000
    assert_error(world.client.get(f"{API}/players/{player_id}"), 404, "not_found")


def test_player_and_team_reads_are_public_and_404_when_unknown(world: World) -> None:
    for path in ("/players/999", "/teams/999", "/teams/x", "/players/2147483648"):
        assert_error(world.client.get(f"{API}{path}"), 404, "not_found")


# ---------------------------------------------------------------------------
# Purchases


def test_buy_items(world: World) -> None:
    response = world.buy("reroll")
    assert response.status_code == 200
    # After the draft a re-roll costs double (Human: 2 x 50,000); TV counts it at roster price.
    assert response.json["treasury"] == 900_000
    assert response.json["rerolls"] == 1
    assert response.json["team_value"] == 50000
    for item in ("apothecary", "assistant_coach", "cheerleader"):
        assert world.buy(item).status_code == 200
    team = world.team()
    assert (team["apothecary"], team["assistant_coaches"], team["cheerleaders"]) == (True, 1, 1)
    assert team["treasury"] == 900_000 - 50000 - 10000 - 10000
    assert team["team_value"] == 50000 + 50000 + 10000 + 10000
    again = world.buy("cheerleader").json
    assert again == {
        **team,
        "treasury": team["treasury"] - 10000,
        "cheerleaders": 2,
        "team_value": team["team_value"] + 10000,
        "current_team_value": team["current_team_value"] + 10000,
    }


def test_purchase_errors_change_nothing(world: World) -> None:
    world.buy("apothecary")
    before = snapshot()
    assert_error(
        world.client.post(f"{API}/teams/{world.team_id}/purchases", json={"item": "reroll"}),
        401,
        "unauthorized",
    )
    assert_error(world.buy("reroll", world.stranger_token), 403, "forbidden")
    assert_error(
        world.post("/teams/999/purchases", {"item": "reroll"}, world.grim_token), 404, "not_found"
    )
    assert_error(world.buy("apothecary"), 422, "item_not_allowed", "already has an apothecary")
    assert_error(world.buy("dedicated_fan"), 422, "item_not_allowed", "drafting")
    assert_error(world.buy("wizard"), 422, "unknown_item", "wizard")
    assert_error(world.buy(None), 400, "invalid_field", "'item'")
    assert_error(world.buy(["reroll"]), 400, "invalid_field", "'item'")
    assert_error(
        world.post(f"/teams/{world.team_id}/purchases", {}, world.grim_token), 400, "invalid_field"
    )
    assert snapshot() == before


def test_shambling_undead_cannot_buy_an_apothecary(world: World) -> None:
    undead = world.post(
        f"/leagues/{world.league_id}/teams",
        {"name": "Sylvanian Shamblers", "team_type": "shambling-undead"},
        world.grim_token,
    ).json
    before = snapshot()
    response = world.post(
        f"/teams/{undead['id']}/purchases", {"item": "apothecary"}, world.grim_token
    )
    assert_error(response, 422, "item_not_allowed", "Shambling Undead teams cannot hire")
    assert snapshot() == before


def test_purchase_over_budget_is_422(client: FlaskClient) -> None:
    grim = make_user("grim")
    league = make_league(grim, "bb2025", starting_treasury=60_000)
    token = token_for(grim)
    team = client.post(
        f"{API}/leagues/{league.id}/teams",
        json={"name": "Poor Reavers", "team_type": "human"},
        headers=auth(token),
    ).json
    before = snapshot()
    response = client.post(
        f"{API}/teams/{team['id']}/purchases", json={"item": "reroll"}, headers=auth(token)
    )
    assert_error(response, 422, "insufficient_treasury", "100,000")
    assert snapshot() == before
