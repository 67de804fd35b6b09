"""API v1 advancement (docs/api.md, Advancement) and standings, with hand-computed numbers.

BB2025 Human Blitzer: 85,000, MA 7 ST 3 AG 3+ PA 4+ AV 9+, Block and Tackle,
primary G S, secondary A D. Costs of the 1st advancement: random primary 3,
chosen primary 6, chosen secondary 10, characteristic 14 SPP; Block, Dodge,
Guard and Mighty Blow are elite (+10,000 on top of the skill's value).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import Advancement, League, Player, Team
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_league, make_user, with_touchdowns
from tests.web.test_api_leagues_teams import (
    API,
    STANDINGS_COUNTS,
    ApiWorld,
    assert_error,
    auth,
    token_for,
)

MAX_STEPS = [  # six BB2025 advancements: (request, SPP spent so far, value so far)
    ({"kind": "chosen_primary", "skill": "Mighty Blow"}, 6, 115_000),
    ({"kind": "chosen_primary", "skill": "Guard"}, 6 + 8, 145_000),
    ({"kind": "chosen_secondary", "skill": "Dodge"}, 14 + 16, 195_000),
    ({"kind": "random_characteristic", "dice": [7], "characteristic": "st"}, 30 + 24, 255_000),
    (
        {"kind": "random_primary", "category": "G", "dice": [1, 2, 1, 3], "skill": "Fend"},
        64,
        275_000,
    ),
    ({"kind": "chosen_secondary", "skill": "Jump Up"}, 64 + 34, 315_000),
]


class World(ApiWorld):
    """boss's league (ruleset chosen per test) with grim's active Human team and one player."""

    def __init__(self, client: FlaskClient, ruleset: str = "bb2025") -> None:
        self.client = client
        self.boss, self.grim = make_user("boss"), make_user("grim")
        self.admin = make_user("root", admin=True)
        self.boss_token, self.grim_token = token_for(self.boss), token_for(self.grim)
        self.admin_token = token_for(self.admin)
        self.stranger_token = token_for(make_user("stranger"))
        self.league_id = make_league(self.boss, ruleset, self.grim).id
        response = self.post(
            f"/leagues/{self.league_id}/teams",
            {"name": "Reikland Reavers", "team_type": "human"},
            self.grim_token,
        )
        assert response.status_code == 201, response.json
        self.team_id: int = response.json["id"]
        position = "human-blitzer" if ruleset == "bb2025" else "blitzer"
        self.blitzer = self.hire(position, "Griff", 7)

    def hire(self, position: str, name: str, number: int) -> int:
        body = {"position": position, "name": name, "number": number}
        response = self.post(f"/teams/{self.team_id}/players", body, self.grim_token)
        assert response.status_code == 201, response.json
        return response.json["id"]

    def table_dice(self, allowed: bool) -> None:
        db.session.get(League, self.league_id).table_dice_allowed = allowed
        db.session.commit()

    def give_spp(self, spp: int, player_id: int | None = None) -> None:
        db.session.expire_all()
        db.session.get(Player, player_id or self.blitzer).spp_earned = spp  # as if from matches
        db.session.commit()

    def advance(self, body: object, token: str | None = None, player_id: int | None = None) -> Any:
        path = f"/players/{player_id or self.blitzer}/advancements"
        return self.post(path, body, token or self.grim_token)

    def options(self, player_id: int | None = None) -> dict[str, Any]:
        return self.get(f"/players/{player_id or self.blitzer}/advancement-options")

    def player(self) -> dict[str, Any]:
        return self.get(f"/players/{self.blitzer}")


def with_table_dice(world: World) -> None:
    world.table_dice(True)


@pytest.fixture
def world(client: FlaskClient) -> World:
    return World.built_once(client, then=with_table_dice)


def advancements_recorded() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(Advancement.id))) or 0


def by_kind(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {option["kind"]: option for option in options["options"]}


# ---------------------------------------------------------------------------
# Options


def test_options_of_a_new_blitzer(world: World) -> None:
    world.give_spp(10)
    options = world.options()
    assert {k: v for k, v in options.items() if k != "options"} == {
        "player_id": world.blitzer,
        "available_spp": 10,
        "advancements_taken": 0,
        "next_advancement": 1,
        "level": "Rookie",
        "must_spend": False,  # 10 < 14, the characteristic cost
        "pending_rolls": 0,
        "pending_roll": None,
    }
    kinds = by_kind(options)
    assert list(kinds) == [
        "random_primary",
        "chosen_primary",
        "chosen_secondary",
        "random_characteristic",
    ]  # BB2025 has no random secondary
    assert {k: (o["cost"], o["value_increase"], o["affordable"]) for k, o in kinds.items()} == {
        "random_primary": (3, 20_000, True),
        "chosen_primary": (6, 20_000, True),
        "chosen_secondary": (10, 40_000, True),
        "random_characteristic": (14, None, False),
    }
    assert kinds["random_characteristic"]["refused"] == "not_enough_spp"
    assert kinds["chosen_primary"]["refused"] is None
    assert kinds["random_characteristic"]["characteristic_value_increases"] == {
        "ma": 20_000,
        "st": 60_000,
        "ag": 30_000,
        "pa": 20_000,
        "av": 10_000,
    }
    primary = kinds["chosen_primary"]["skills"]
    assert "Mighty Blow" in primary
    assert "Guard" in primary
    assert not {"Block", "Tackle", "Dodge"} & set(primary)  # held / secondary
    assert kinds["chosen_primary"]["categories"] == ["G", "S"]
    assert "Dodge" in kinds["chosen_secondary"]["skills"]
    assert kinds["chosen_secondary"]["categories"] == ["A", "D"]
    assert set(kinds["random_primary"]["skills"]) == set(primary)


def test_options_are_public_and_404_for_unknown_players(world: World) -> None:
    assert world.client.get(f"{API}/players/{world.blitzer}/advancement-options").status_code == 200
    for path in ("/players/999/advancement-options", "/players/2147483648/advancement-options"):
        assert_error(world.client.get(f"{API}{path}"), 404, "not_found")
    assert_error(world.advance({"kind": "chosen_primary"}, player_id=999), 404, "not_found")


# ---------------------------------------------------------------------------
# Buying


def test_chosen_primary_mighty_blow(world: World) -> None:
    world.give_spp(20)
    response = world.advance({"kind": "chosen_primary", "skill": "Mighty Blow"})
    assert response.status_code == 201, response.json
    advancement, player = response.json["advancement"], response.json["player"]
    assert advancement == {
        "id": advancement["id"],
        "player_id": world.blitzer,
        "number": 1,
        "kind": "chosen_primary",
        "spp_cost": 6,
        "skill": "Mighty Blow",
        "characteristic": None,
        "category": None,
        "dice": None,
        "dice_source": None,
        "value_increase": 30_000,  # 20,000 + 10,000 elite
        "created_at": advancement["created_at"],
        "undone_at": None,
    }
    assert advancement["created_at"].endswith("+00:00")
    assert player["skills"] == ["Block", "Tackle", "Mighty Blow"]
    assert player["spp"] == {"earned": 20, "spent": 6, "available": 14}
    assert (player["advancements"], player["level"], player["value"]) == (1, "Experienced", 115_000)
    assert world.player() == player
    team = world.get(f"/teams/{world.team_id}")
    assert team["team_value"] == 115_000
    assert team["players"] == [player]
    assert world.get(f"/players/{world.blitzer}/advancements") == {"advancements": [advancement]}
    # The next advancement costs more, and Mighty Blow is no longer offered.
    kinds = by_kind(world.options())
    assert world.options()["next_advancement"] == 2
    assert {k: o["cost"] for k, o in kinds.items()} == {
        "random_primary": 4,
        "chosen_primary": 8,
        "chosen_secondary": 12,
        "random_characteristic": 16,
    }
    assert "Mighty Blow" not in kinds["chosen_primary"]["skills"]
    assert [o["affordable"] for o in kinds.values()] == [True, True, True, False]


def test_bb2020_random_primary_rerolls_a_held_skill(client: FlaskClient) -> None:
    world = World(client, "bb2020")  # BB2020 Blitzer: 85,000, Block
    world.table_dice(True)
    world.give_spp(3)
    response = world.advance({"kind": "random_primary", "category": "G", "dice": [1, 1]})
    assert_error(response, 422, "skill_not_allowed", "roll again")  # (1,1) = Block, held
    assert advancements_recorded() == 0
    response = world.advance({"kind": "random_primary", "category": "G", "dice": [1, 2]})
    assert response.status_code == 201, response.json
    advancement = response.json["advancement"]
    assert (advancement["skill"], advancement["spp_cost"], advancement["value_increase"]) == (
        "Dauntless",
        3,
        10_000,
    )
    assert (advancement["dice"], advancement["dice_source"], advancement["category"]) == (
        [1, 2],
        "table",
        "G",
    )
    player = response.json["player"]
    assert player["skills"] == ["Block", "Dauntless"]
    assert (player["spp"]["spent"], player["value"]) == (3, 95_000)


def test_bb2025_random_skill_picks_one_of_two_rolls(world: World) -> None:
    world.give_spp(3)
    body = {"kind": "random_primary", "category": "G", "dice": [1, 2, 1, 3]}
    assert_error(world.advance(body), 422, "choice_required", "Dauntless or Fend")
    assert_error(world.advance({**body, "skill": "Pro"}), 422, "skill_not_allowed")
    assert_error(world.advance({**body, "dice": [1, 2]}), 422, "invalid_dice", "4 dice")
    assert advancements_recorded() == 0
    response = world.advance({**body, "skill": "Fend"})
    assert response.status_code == 201, response.json
    advancement = response.json["advancement"]
    assert (advancement["skill"], advancement["dice"], advancement["spp_cost"]) == (
        "Fend",
        [1, 2, 1, 3],
        3,
    )
    assert response.json["player"]["value"] == 105_000
    assert response.json["player"]["skills"] == ["Block", "Tackle", "Fend"]


def test_characteristic_advancement(world: World) -> None:
    world.give_spp(14)
    assert_error(
        world.advance({"kind": "random_characteristic", "dice": [7], "characteristic": "ma"}),
        422,
        "characteristic_capped",
        "does not allow MA",  # D8 7 = AG or ST
    )
    assert_error(world.advance({"kind": "random_characteristic", "dice": [9]}), 422, "invalid_dice")
    response = world.advance({"kind": "random_characteristic", "dice": [7], "characteristic": "st"})
    assert response.status_code == 201, response.json
    advancement, player = response.json["advancement"], response.json["player"]
    assert (advancement["characteristic"], advancement["skill"], advancement["dice"]) == (
        "st",
        None,
        [7],
    )
    assert (advancement["spp_cost"], advancement["value_increase"]) == (14, 60_000)
    assert (player["st"], player["value"], player["spp"]["available"]) == (4, 145_000, 0)
    assert player["skills"] == ["Block", "Tackle"]


def test_characteristic_is_capped_after_two_improvements(world: World) -> None:
    world.give_spp(200)
    body = {"kind": "random_characteristic", "dice": [6], "characteristic": "ma"}  # AG or MA
    assert world.advance(body).status_code == 201
    assert world.advance(body).status_code == 201
    assert_error(world.advance(body), 422, "characteristic_capped")
    player = world.player()
    assert (player["ma"], player["spp"]["spent"], player["value"]) == (9, 14 + 16, 125_000)


def test_seventh_advancement_is_refused(world: World) -> None:
    world.give_spp(200)
    for body, spent, value in MAX_STEPS:
        response = world.advance(body)
        assert response.status_code == 201, (body, response.json)
        assert (response.json["player"]["spp"]["spent"], response.json["player"]["value"]) == (
            spent,
            value,
        ), body
    player = world.player()
    assert player["skills"] == [
        "Block",
        "Tackle",
        "Mighty Blow",
        "Guard",
        "Dodge",
        "Fend",
        "Jump Up",
    ]
    assert (player["advancements"], player["level"], player["st"]) == (6, "Legend", 4)
    assert_error(
        world.advance({"kind": "chosen_primary", "skill": "Wrestle"}),
        422,
        "max_advancements",
        "most advancements (6)",
    )
    options = world.options()
    assert (options["next_advancement"], options["advancements_taken"]) == (None, 6)
    assert all(o["cost"] is None and not o["affordable"] for o in options["options"])
    assert {o["refused"] for o in options["options"]} == {"max_advancements"}
    history = world.get(f"/players/{world.blitzer}/advancements")["advancements"]
    assert [a["number"] for a in history] == [1, 2, 3, 4, 5, 6]
    assert advancements_recorded() == 6


def test_rules_refusals_are_422_and_change_nothing(world: World) -> None:
    cases = [
        ({"kind": "chosen_primary", "skill": "Mighty Blow"}, "insufficient_spp", "needs 6 SPP"),
    ]
    for body, code, text in cases:
        assert_error(world.advance(body), 422, code, text)
    world.give_spp(12)
    cases = [
        ({"kind": "chosen_primary", "skill": "Block"}, "already_has_skill", "already has"),
        ({"kind": "chosen_primary", "skill": "Dodge"}, "skill_not_allowed", "no primary access"),
        ({"kind": "chosen_primary", "skill": "Stunty"}, "skill_not_allowed", "traits"),
        ({"kind": "chosen_primary", "skill": "Nope"}, "skill_not_allowed", "does not have"),
        ({"kind": "chosen_primary"}, "skill_not_allowed", "Name the skill"),
        ({"kind": "random_secondary", "category": "A"}, "skill_not_allowed", "this ruleset"),
        (
            {"kind": "random_characteristic", "dice": [8], "characteristic": "st"},
            "insufficient_spp",
            "needs 14 SPP and has 12",
        ),
        (
            {"kind": "random_primary", "category": "ZZ", "dice": [1, 2, 1, 3], "skill": "Fend"},
            "skill_not_allowed",
            "category",
        ),
    ]
    for body, code, text in cases:
        assert_error(world.advance(body), 422, code, text)
    assert advancements_recorded() == 0
    assert world.player()["spp"] == {"earned": 12, "spent": 0, "available": 12}


def test_malformed_bodies_are_400(world: World) -> None:
    world.give_spp(50)
    chosen = {"kind": "chosen_primary", "skill": "Guard"}
    for body, field in (
        ({}, "kind"),
        ({"skill": "Guard"}, "kind"),
        ({"kind": None}, "kind"),
        ({"kind": 7}, "kind"),
        ({"kind": "wizard"}, "kind"),
        ({**chosen, "skill": 5}, "skill"),
        ({**chosen, "skill": ["Guard"]}, "skill"),
        ({**chosen, "skill": "Gu\x00ard"}, "skill"),
        ({**chosen, "category": 1}, "category"),
        ({**chosen, "characteristic": "strength"}, "characteristic"),
        ({**chosen, "characteristic": 3}, "characteristic"),
        ({**chosen, "dice": "1,2"}, "dice"),
        ({**chosen, "dice": 3}, "dice"),
        ({**chosen, "dice": [1, "2"]}, "dice"),
        ({**chosen, "dice": [True]}, "dice"),
        ({**chosen, "dice": [1.5]}, "dice"),
        ({**chosen, "dice": [[1]]}, "dice"),
        ({**chosen, "dice": [1, 2, 3, 4, 5]}, "dice"),
        ({**chosen, "dice": [10**40]}, "dice"),
    ):
        assert_error(world.advance(body), 400, "invalid_field", f"'{field}'")
    assert_error(world.advance([chosen]), 400, "bad_request", "JSON object")
    response = world.client.post(
        f"{API}/players/{world.blitzer}/advancements",
        data="{broken",
        content_type="application/json",
        headers=auth(world.grim_token),
    )
    assert_error(response, 400, "bad_request")
    assert advancements_recorded() == 0


def test_permissions(world: World) -> None:
    world.give_spp(100)
    body = {"kind": "chosen_primary", "skill": "Guard"}
    path = f"{API}/players/{world.blitzer}/advancements"
    assert_error(world.client.post(path, json=body), 401, "unauthorized")
    assert_error(world.advance(body, "not-a-token"), 401, "unauthorized")
    assert_error(world.advance(body, world.stranger_token), 403, "forbidden", "coach")
    assert advancements_recorded() == 0
    assert world.advance(body, world.boss_token).status_code == 201  # commissioner
    assert world.advance({**body, "skill": "Wrestle"}, world.admin_token).status_code == 201
    assert world.advance({**body, "skill": "Grab"}).status_code == 201  # the coach
    assert world.player()["advancements"] == 3


def test_a_fired_player_cannot_advance(world: World) -> None:
    world.give_spp(20)
    fired = world.client.delete(f"{API}/players/{world.blitzer}", headers=auth(world.grim_token))
    assert fired.status_code == 200
    assert_error(world.advance({"kind": "chosen_primary", "skill": "Guard"}), 409, "conflict")
    options = world.options()
    assert not any(o["affordable"] for o in options["options"])
    assert options["must_spend"] is False


# ---------------------------------------------------------------------------
# Server dice


def test_server_dice_only_league(world: World) -> None:
    world.table_dice(False)
    world.give_spp(30)
    sent = {"kind": "random_characteristic", "dice": [8], "characteristic": "st"}
    assert_error(world.advance(sent), 422, "invalid_dice", "server dice only")
    response = world.advance({"kind": "random_characteristic"})
    assert response.status_code == 200, response.json
    pending = response.json["pending_roll"]
    (die,) = pending["dice"]
    assert 1 <= die <= 8
    assert (pending["kind"], pending["category"]) == ("random_characteristic", None)
    assert f"rolled {die}: choose" in pending["message"]
    assert response.json["player"]["spp"]["spent"] == 0
    assert advancements_recorded() == 0
    # The dice are kept: the options show them and asking again cannot re-roll.
    assert world.options()["pending_roll"] == {
        "kind": "random_characteristic",
        "category": None,
        "dice": [die],
    }
    again = world.advance({"kind": "random_characteristic"})
    assert (again.status_code, again.json["pending_roll"]["dice"]) == (200, [die])
    assert_error(
        world.advance({"kind": "random_primary", "category": "G"}),
        409,
        "roll_pending",
        "finish that one first",
    )
    # Every D8 row allows a primary skill instead (the SPP stay spent).
    response = world.advance({"kind": "random_characteristic", "skill": "Guard"})
    assert response.status_code == 201, response.json
    advancement = response.json["advancement"]
    assert (advancement["skill"], advancement["dice"], advancement["dice_source"]) == (
        "Guard",
        [die],
        "server",
    )
    assert (advancement["spp_cost"], advancement["value_increase"]) == (14, 30_000)
    assert response.json["player"]["value"] == 115_000
    assert world.options()["pending_roll"] is None


class _Die:
    """Stands in for the server's random source: every die shows `face`."""

    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, low: int, high: int) -> int:
        return self.face


def test_server_dice_that_refuse_the_request_are_kept(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    world.table_dice(False)
    world.give_spp(30)
    server = "league.services.advancement.random.SystemRandom"
    monkeypatch.setattr(server, lambda: _Die(1))  # BB2025 D8 1: AV only (RULES-FACTS 3b)
    response = world.advance({"kind": "random_characteristic", "characteristic": "st"})
    assert response.status_code == 200, response.json
    assert response.json["pending_roll"]["dice"] == [1]
    assert "does not allow ST" in response.json["pending_roll"]["message"]
    monkeypatch.setattr(server, lambda: _Die(8))  # an 8 would allow ST: it is not rolled
    again = world.advance({"kind": "random_characteristic", "characteristic": "st"})
    assert_error(again, 422, "characteristic_capped", "roll of 1 does not allow ST")
    assert world.options()["pending_roll"]["dice"] == [1]
    taken = world.advance({"kind": "random_characteristic", "characteristic": "av"})
    assert taken.status_code == 201, taken.json
    assert (taken.json["advancement"]["characteristic"], taken.json["advancement"]["dice"]) == (
        "av",
        [1],
    )


def test_classic_star_player_rolls(client: FlaskClient) -> None:
    world = World(client, "classic")  # Blitzer 90,000: a roll at 6 SPP, nothing spent
    world.table_dice(True)
    world.give_spp(6)
    options = world.options()
    assert (options["pending_rolls"], options["available_spp"]) == (1, 6)
    assert all(o["cost"] is None for o in options["options"])
    response = world.advance({"kind": "chosen_primary", "dice": [3, 4], "skill": "Tackle"})
    assert response.status_code == 201, response.json
    assert response.json["advancement"]["spp_cost"] == 0
    player = response.json["player"]
    assert (player["spp"]["spent"], player["value"], player["advancements"]) == (0, 110_000, 1)
    assert world.options()["pending_rolls"] == 0


# ---------------------------------------------------------------------------
# Matches: SPP to spend, injuries, standings


def _play(
    world: World, home: int, away: int, score: tuple[int, int], *players: PlayerEvents
) -> None:
    """A result; the touchdowns `players` leave out go to each team's first player."""
    report = MatchReport(
        home=SideReport(score=score[0], mistake_d6=6),
        away=SideReport(score=score[1], mistake_d6=6),
        players=players,
    )
    report = with_touchdowns(report, db.session.get(Team, home), db.session.get(Team, away))
    with unit_of_work() as session:
        matches.record_new_match(session, world.boss, world.league_id, home, away, report)


def _team(world: World, name: str, team_type: str) -> int:
    body = {"name": name, "team_type": team_type}
    response = world.post(f"/leagues/{world.league_id}/teams", body, world.grim_token)
    assert response.status_code == 201, response.json
    return response.json["id"]


def test_spp_from_a_match_buys_an_advancement_and_injuries_show(world: World) -> None:
    orcs = _team(world, "Gouged Eye", "orc")
    lineman = world.hire("human-lineman", "Lars", 1)
    _play(
        world,
        world.team_id,
        orcs,
        (2, 0),
        PlayerEvents(player_id=world.blitzer, td=2),  # 6 SPP
        PlayerEvents(player_id=lineman, injury="lasting_injury", lasting="av"),
    )
    assert world.player()["spp"] == {"earned": 6, "spent": 0, "available": 6}
    response = world.advance({"kind": "chosen_primary", "skill": "Mighty Blow"})
    assert response.status_code == 201, response.json
    assert response.json["player"]["spp"] == {"earned": 6, "spent": 6, "available": 0}
    injured = world.get(f"/players/{lineman}")
    assert injured["injuries"] == [{"kind": "lasting", "characteristic": "av"}]
    assert injured["av"] == 8  # 9+ made one worse
    assert world.player()["injuries"] == []
    _play(world, orcs, world.team_id, (0, 0))  # Lars misses this one (the lasting injury)
    assert world.get(f"/players/{lineman}")["status"] == "active"
    _play(world, orcs, world.team_id, (0, 0), PlayerEvents(lineman, injury="serious_injury"))
    injured = world.get(f"/players/{lineman}")
    assert injured["injuries"] == [
        {"kind": "niggling"},
        {"kind": "lasting", "characteristic": "av"},
    ]
    assert injured["status"] == "mng"


def test_standings_after_matches(world: World) -> None:
    orcs = _team(world, "Gouged Eye", "orc")
    elves = _team(world, "Athelorn Avengers", "wood-elf")
    dwarfs = _team(world, "Grudgebearers", "dwarf")
    # A lineman each, to score their touchdowns.
    for team_id, lineman in (
        (orcs, "orc-lineman"),
        (elves, "wood-elf-lineman"),
        (dwarfs, "dwarf-lineman"),
    ):
        hire(world.grim, db.session.get(Team, team_id), lineman)
    _play(world, world.team_id, orcs, (2, 1), PlayerEvents(world.blitzer, td=2, cas=1))
    _play(world, elves, dwarfs, (1, 1))
    _play(world, orcs, elves, (0, 3))
    rows = world.get(f"/leagues/{world.league_id}/standings")["rows"]
    fields = ("played", "won", "drawn", "lost", "td_for", "td_against")
    table = [
        (row["team"], *(row[f] for f in fields), row["cas_for"], row["cas_against"], row["points"])
        for row in rows
    ]
    assert table == [
        ("Athelorn Avengers", 2, 1, 1, 0, 4, 1, 0, 0, 4),
        ("Reikland Reavers", 1, 1, 0, 0, 2, 1, 1, 0, 3),
        ("Grudgebearers", 1, 0, 1, 0, 1, 1, 0, 0, 1),
        ("Gouged Eye", 2, 0, 0, 2, 1, 5, 0, 1, 0),
    ]
    assert set(rows[0]) == {
        "team_id",
        "team",
        *STANDINGS_COUNTS,
        "tie_breaker_values",
        "separated_by",
    }
    assert rows[1]["team_id"] == world.team_id
    assert world.get(f"/leagues/{world.league_id}/standings?season=1")["rows"] == rows
    path = f"{API}/leagues/{world.league_id}/standings"
    assert_error(world.client.get(f"{path}?season=2"), 404, "not_found", "no season 2")
    for bad in ("x", "-1", "1.5", "9" * 40):
        assert_error(world.client.get(f"{path}?season={bad}"), 400, "invalid_field", "'season'")
