"""API v1 matches (docs/api.md, Matches), with hand-computed numbers.

The league starts teams with 250,000 gold so that, after hiring, each treasury
plus its winnings stays under BB2025's Expensive Mistakes trigger (100,000):
no dice are rolled and every treasury figure below is exact.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Match, MatchPlayer, Player, TreasuryEntry
from tests.factories import make_league, make_user
from tests.web.test_api_leagues_teams import API, ApiWorld, assert_error, auth, token_for


class World(ApiWorld):
    """A BB2025 league run by boss: anna's Humans (50,000 left) and bram's Orcs (40,000 left)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
        self.boss_token, self.anna_token = token_for(boss), token_for(anna)
        self.bram_token, self.stranger_token = token_for(bram), token_for(make_user("stranger"))
        self.league_id = make_league(boss, "bb2025", anna, bram, starting_treasury=250_000).id
        self.humans = self._team("Reikland Reavers", "human", self.anna_token)
        self.orcs = self._team("Gouged Eye", "orc", self.bram_token)
        # Humans: 250,000 - 75,000 - 75,000 - 50,000 = 50,000
        self.thrower = self._hire(self.humans, "human-thrower", self.anna_token)
        self.catcher = self._hire(self.humans, "human-catcher", self.anna_token)
        self.lineman = self._hire(self.humans, "human-lineman", self.anna_token)
        # Orcs (Brawlin' Brutes): 250,000 - 85,000 - 75,000 - 50,000 = 40,000
        self.blitzer = self._hire(self.orcs, "orc-blitzer", self.bram_token)
        self.orc_thrower = self._hire(self.orcs, "orc-thrower", self.bram_token)
        self.orc_lineman = self._hire(self.orcs, "orc-lineman", self.bram_token)
        assert (self.treasury(self.humans), self.treasury(self.orcs)) == (50_000, 40_000)

    def _team(self, name: str, team_type: str, token: str) -> int:
        body = {"name": name, "team_type": team_type}
        response = self.post(f"/leagues/{self.league_id}/teams", body, token)
        assert response.status_code == 201, response.json
        return response.json["id"]

    def _hire(self, team_id: int, position: str, token: str) -> int:
        body = {"position": position, "name": position.replace("-", " ").title()}
        response = self.post(f"/teams/{team_id}/players", body, token)
        assert response.status_code == 201, response.json
        return response.json["id"]

    def record(self, body: dict[str, Any], token: str | None = None) -> Any:
        return self.post(f"/leagues/{self.league_id}/matches", body, token or self.boss_token)

    def void(self, match_id: int, token: str | None = None) -> Any:
        return self.post(f"/matches/{match_id}/void", None, token or self.boss_token)

    def spp(self, player_id: int) -> dict[str, int]:
        return self.get(f"/players/{player_id}")["spp"]

    def treasury(self, team_id: int) -> int:
        return self.get(f"/teams/{team_id}")["treasury"]

    def report(self, **changes: Any) -> dict[str, Any]:
        """Humans 2 - 1 Orcs with 40,000 and 20,000 winnings."""
        return {
            "home_team": self.humans,
            "away_team": self.orcs,
            "home_score": 2,
            "away_score": 1,
            "winnings": {"home": 40_000, "away": 20_000},
            "players": [
                {"player_id": self.thrower, "comp": 2, "mvp": True},
                {"player_id": self.catcher, "td": 2, "int": 1},
                {"player_id": self.blitzer, "td": 1, "cas": 2},
                {"player_id": self.orc_lineman, "injury": "seriously_hurt"},
            ],
            **changes,
        }


@pytest.fixture
def world(client: FlaskClient) -> World:
    return World.built_once(client)


def snapshot(world: World) -> dict[str, object]:
    """Everything a refused call must leave alone."""
    db.session.expire_all()
    return {
        "matches": [(m.id, m.state) for m in db.session.scalars(select(Match).order_by(Match.id))],
        "lines": db.session.scalar(select(func.count(MatchPlayer.id))),
        "ledger": db.session.scalar(select(func.count(TreasuryEntry.id))),
        "players": [
            (p.id, p.spp_earned, p.spp_spent, p.status)
            for p in db.session.scalars(select(Player).order_by(Player.id))
        ],
        "treasuries": (world.treasury(world.humans), world.treasury(world.orcs)),
    }


def assert_invalid_report(response: Any, *words: str) -> dict[str, list[str]]:
    assert response.status_code == 422, response.json
    error = response.json["error"]
    assert set(error) == {"code", "message", "fields"}
    assert error["code"] == "invalid_report"
    for word in words:
        assert word in error["message"]
    messages = [m for ms in error["fields"].values() for m in ms]
    assert len(error["message"]) == len(" ".join(messages))
    assert all(m in error["message"] for m in messages)
    return error["fields"]


# ---------------------------------------------------------------------------
# Recording


def test_record_a_bb2025_match(world: World) -> None:
    response = world.record(world.report())
    assert response.status_code == 201, response.json
    match = response.json
    zeros = {"td": 0, "cas": 0, "comp": 0, "int": 0, "deflection": 0}
    extras = {"throw_completion": 0, "safe_landing": 0, "apothecary_used": False}
    assert match == {
        "id": match["id"],
        "league_id": world.league_id,
        "state": "played",
        "friendly": False,
        "round": None,
        "home_team": world.humans,
        "away_team": world.orcs,
        "home_score": 2,
        "away_score": 1,
        "conceded": None,
        "winnings": {"home": 40_000, "away": 20_000},
        "fans_change": {"home": 0, "away": 0},
        "fan_attendance": None,
        "expensive_mistakes": {
            "home": {"outcome": None, "loss": 0},
            "away": {"outcome": None, "loss": 0},
        },
        "played_at": match["played_at"],
        "players": [
            {
                **zeros,
                **extras,
                "player_id": world.thrower,
                "team_id": world.humans,
                "name": "Human Thrower",
                "comp": 2,
                "mvp": True,
                "injury": None,
                "lasting": None,
                "spp": 2 * 1 + 4,
            },
            {
                **zeros,
                **extras,
                "player_id": world.catcher,
                "team_id": world.humans,
                "name": "Human Catcher",
                "td": 2,
                "int": 1,
                "mvp": False,
                "injury": None,
                "lasting": None,
                "spp": 2 * 3 + 2,
            },
            {
                **zeros,
                **extras,
                "player_id": world.blitzer,
                "team_id": world.orcs,
                "name": "Orc Blitzer",
                "td": 1,
                "cas": 2,
                "mvp": False,
                "injury": None,
                "lasting": None,
                "spp": 1 * 2 + 2 * 3,  # Brawlin' Brutes: TD 2, CAS 3
            },
            {
                **zeros,
                **extras,
                "player_id": world.orc_lineman,
                "team_id": world.orcs,
                "name": "Orc Lineman",
                "mvp": False,
                "injury": "seriously_hurt",
                "lasting": None,
                "spp": 0,
            },
        ],
    }
    assert match["played_at"].endswith("+00:00")
    assert world.get(f"/matches/{match['id']}") == match  # public, same representation
    assert world.spp(world.thrower) == {"earned": 6, "spent": 0, "available": 6}
    assert world.spp(world.catcher)["earned"] == 8
    assert world.spp(world.blitzer)["earned"] == 8
    assert world.spp(world.lineman)["earned"] == 0
    assert world.get(f"/players/{world.orc_lineman}")["status"] == "mng"
    assert world.treasury(world.humans) == 50_000 + 40_000
    assert world.treasury(world.orcs) == 40_000 + 20_000


def test_extras_formula_winnings_concession_and_fans(world: World) -> None:
    response = world.record(
        {
            "home_team": world.humans,
            "away_team": world.orcs,
            "home_score": 1,
            "away_score": 0,
            "fan_attendance": 3,
            "conceded": "away",
            "fans_change": {"home": 1},
            "players": [
                {"player_id": world.catcher, "td": 1, "mvp": True},
                # The Orcs conceded: a second MVP for the winners.
                {"player_id": world.thrower, "throw_completion": 1, "mvp": True},
                {"player_id": world.blitzer, "cas": 1},  # forfeited by the concession
            ],
        }
    )
    assert response.status_code == 201, response.json
    match = response.json
    # BB2025 (RULES-FACTS 6b): the Orcs conceded, so the Humans take the whole attendance
    # plus their touchdowns, no stalling bonus: (3 + 1) x 10,000; the Orcs get nothing.
    assert match["winnings"] == {"home": 40_000, "away": 0}
    assert match["conceded"] == "away"
    # The Orcs' D3 loss is the server's roll: at 1 Dedicated Fan they have none to lose.
    assert match["fans_change"] == {"home": 1, "away": 0}
    assert match["fan_attendance"] == 3
    assert [line["spp"] for line in match["players"]] == [3 + 4, 1 + 4, 0]
    assert world.spp(world.thrower)["earned"] == 5
    assert world.spp(world.blitzer)["earned"] == 0
    humans = world.get(f"/teams/{world.humans}")
    assert (humans["treasury"], humans["dedicated_fans"]) == (90_000, 2)
    assert world.treasury(world.orcs) == 40_000


def test_a_conceding_team_loses_its_d3_fans_rolled_at_the_table(world: World) -> None:
    # Two 1-0 wins take the Orcs' Dedicated Fans from 1 to 3 (no winnings typed, so the
    # treasuries stay below the Expensive Mistakes trigger); the league lets coaches enter
    # the table's dice. Then the Orcs lead 1-0 and concede; the D3 came up 2.
    for _ in range(2):
        win = {
            "home_team": world.humans,
            "away_team": world.orcs,
            "home_score": 0,
            "away_score": 1,
            "winnings": {"home": 0, "away": 0},
            "fans_change": {"away": 1},
            "players": [{"player_id": world.blitzer, "td": 1}],
        }
        assert world.record(win).status_code == 201
    assert world.get(f"/teams/{world.orcs}")["dedicated_fans"] == 3
    db.session.get(League, world.league_id).table_dice_allowed = True  # type: ignore[union-attr]
    db.session.commit()
    body = {
        "home_team": world.humans,
        "away_team": world.orcs,
        "home_score": 0,
        "away_score": 1,
        "fan_attendance": 3,
        "conceded": "away",
        "players": [{"player_id": world.blitzer, "td": 1}],
    }
    # Only a conceding team loses more than one: the Humans' -2 is refused, nothing changes.
    before = snapshot(world)
    fields = assert_invalid_report(
        world.record({**body, "fans_change": {"home": -2, "away": -2}}),
        "Dedicated fans change by -1, 0 or +1.",
    )
    assert set(fields) == {"home_fans_change"}
    assert snapshot(world) == before
    response = world.record({**body, "fans_change": {"away": -2}})
    assert response.status_code == 201, response.json
    assert response.json["fans_change"] == {"home": 0, "away": -2}
    # The Humans won by the concession: the whole attendance, no TD, no stalling bonus.
    assert response.json["winnings"] == {"home": 30_000, "away": 0}
    assert world.get(f"/teams/{world.orcs}")["dedicated_fans"] == 1


def test_a_match_without_players_or_winnings(world: World) -> None:
    body = {"home_team": world.orcs, "away_team": world.humans, "home_score": 0, "away_score": 0}
    response = world.record(body)
    assert response.status_code == 201, response.json
    assert response.json["players"] == []
    # No fan attendance given: the BB2025 formula has nothing to work with.
    assert response.json["winnings"] == {"home": 0, "away": 0}
    assert (response.json["home_team"], response.json["away_team"]) == (world.orcs, world.humans)


def test_a_site_admin_may_record(world: World) -> None:
    admin_token = token_for(make_user("root", admin=True))
    response = world.record(world.report(), admin_token)
    assert response.status_code == 201, response.json
    assert response.json["state"] == "played"
    assert (response.json["home_team"], response.json["away_team"]) == (world.humans, world.orcs)
    assert (response.json["home_score"], response.json["away_score"]) == (2, 1)
    assert response.json["winnings"] == {"home": 40_000, "away": 20_000}


def test_a_repeated_idempotency_key_records_once(world: World) -> None:
    body = world.report(idempotency_key="discord-msg-42")
    first = world.record(body)
    assert first.status_code == 201
    again = world.record(body)
    assert again.status_code == 200  # the first match, nothing new recorded
    assert again.json == first.json
    # Even a different report under the same key answers with the first match.
    other = world.record(world.report(home_score=5, idempotency_key="discord-msg-42"))
    assert (other.status_code, other.json) == (200, first.json)
    assert db.session.scalar(select(func.count(Match.id))) == 1
    assert world.spp(world.catcher)["earned"] == 8
    assert world.treasury(world.humans) == 90_000
    assert world.treasury(world.orcs) == 60_000
    # A new key is a new match.
    second = world.record(
        world.report(
            idempotency_key="discord-msg-43",
            home_score=0,
            away_score=0,
            players=[],
            winnings={"home": 5_000},
        )
    )
    assert second.status_code == 201
    assert second.json["id"] != first.json["id"]
    assert world.treasury(world.humans) == 95_000


def test_a_repeated_key_still_checks_who_asks_and_where(world: World) -> None:
    body = world.report(idempotency_key="k")
    first = world.record(body)
    assert first.status_code == 201
    assert_error(world.record(body, world.anna_token), 403, "forbidden")
    assert_error(world.post(f"/leagues/{world.league_id}/matches", body), 401, "unauthorized")
    other_league = make_league(make_user("other"), "bb2025").id
    admin_token = token_for(make_user("root", admin=True))
    response = world.post(f"/leagues/{other_league}/matches", body, admin_token)
    assert_error(response, 409, "conflict", "idempotency key")
    assert db.session.scalar(select(func.count(Match.id))) == 1


# ---------------------------------------------------------------------------
# Refusals


def test_auth_and_permissions(world: World) -> None:
    before = snapshot(world)
    path = f"/leagues/{world.league_id}/matches"
    body = world.report()
    assert_error(world.post(path, body), 401, "unauthorized")
    assert_error(world.post(path, body, "not-a-token"), 401, "unauthorized")
    for token in (world.anna_token, world.bram_token, world.stranger_token):
        assert_error(world.post(path, body, token), 403, "forbidden", "commissioner")
    assert_error(world.post("/leagues/999/matches", body, world.boss_token), 404, "not_found")
    assert snapshot(world) == before


def test_teams_that_cannot_play_are_422(world: World) -> None:
    before = snapshot(world)
    response = world.record(world.report(away_team=world.humans))
    assert_error(response, 422, "rule_violation", "cannot play itself")
    response = world.record(world.report(away_team=999))
    assert_error(response, 422, "rule_violation", "does not play in")
    other = make_user("other")
    outsider = make_league(other, "bb2025").id
    response = world.post(f"/leagues/{outsider}/matches", world.report(), token_for(other))
    assert_error(response, 422, "rule_violation", "does not play in")
    assert snapshot(world) == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"home_team": None}, "home_team"),
        ({"away_team": "2"}, "away_team"),
        ({"home_score": None}, "home_score"),
        ({"away_score": 1.5}, "away_score"),
        ({"home_score": True}, "home_score"),
        ({"home_score": 10**30}, "home_score"),
        ({"winnings": 40_000}, "winnings"),
        ({"winnings": {"home": "40k"}}, "winnings.home"),
        ({"winnings": {"away": 10**12}}, "winnings.away"),
        ({"fans_change": {"home": "+1"}}, "fans_change.home"),
        ({"conceded": "both"}, "conceded"),
        ({"conceded": True}, "conceded"),
        ({"fan_attendance": "many"}, "fan_attendance"),
        ({"players": {"player_id": 1}}, "players"),
        ({"players": [{"player_id": 1}] * 101}, "players"),
        ({"players": [7]}, "players[0]"),
        ({"players": [{"td": 1}]}, "players[0].player_id"),
        ({"players": [{"player_id": "7"}]}, "players[0].player_id"),
        ({"players": [{"player_id": 7, "td": "1"}]}, "players[0].td"),
        ({"players": [{"player_id": 7, "int": 10**40}]}, "players[0].int"),
        ({"players": [{"player_id": 7, "mvp": 1}]}, "players[0].mvp"),
        ({"players": [{"player_id": 7, "injury": "broken_leg"}]}, "players[0].injury"),
        ({"players": [{"player_id": 7, "injury": 3}]}, "players[0].injury"),
        ({"players": [{"player_id": 7, "lasting": "wp"}]}, "players[0].lasting"),
        ({"idempotency_key": 42}, "idempotency_key"),
        ({"idempotency_key": ""}, "idempotency_key"),
        ({"idempotency_key": "k" * 65}, "idempotency_key"),
    ],
)
def test_malformed_reports_are_400(world: World, changes: dict[str, Any], field: str) -> None:
    before = snapshot(world)
    assert_error(world.record(world.report(**changes)), 400, "invalid_field", f"'{field}'")
    assert snapshot(world) == before


def test_a_body_that_is_not_an_object_is_400(world: World) -> None:
    assert_error(world.record([world.report()]), 400, "bad_request", "JSON object")  # type: ignore[arg-type]
    response = world.client.post(
        f"{API}/leagues/{world.league_id}/matches",
        data="{broken",
        content_type="application/json",
        headers=auth(world.boss_token),
    )
    assert_error(response, 400, "bad_request")


def test_reports_the_rules_refuse_are_422_with_every_problem(world: World) -> None:
    stranger_team = world.post(
        f"/leagues/{world.league_id}/teams",
        {"name": "Athelorn Avengers", "team_type": "wood-elf", "coach": "anna"},
        world.boss_token,
    ).json["id"]
    elf = world._hire(stranger_team, "wood-elf-lineman", world.anna_token)
    before = snapshot(world)
    response = world.record(
        world.report(
            home_score=1,  # but the catcher scored 2
            players=[
                {"player_id": world.thrower, "mvp": True},
                {"player_id": world.catcher, "td": 2, "mvp": True},  # second MVP
                {"player_id": world.lineman, "cas": -1},
                {"player_id": elf, "td": 0},  # plays for another team
                {"player_id": world.blitzer, "injury": "lasting_injury"},  # which one?
            ],
        )
    )
    fields = assert_invalid_report(response, "scored 2 touchdowns but the score says 1")
    assert set(fields) == {
        "home_score",
        "away_score",  # the Orcs' touchdown is nobody's here
        "home_mvp",
        f"player_{world.lineman}",
        f"player_{elf}",
        f"player_{world.blitzer}",
    }
    assert "2 MVPs" in fields["home_mvp"][0]
    assert "cas cannot be negative" in fields[f"player_{world.lineman}"][0]
    assert "plays for neither team" in fields[f"player_{elf}"][0]
    assert "lasting injury" in fields[f"player_{world.blitzer}"][0]
    assert snapshot(world) == before
    response = world.record(world.report(home_score=-1, winnings={"home": -5}))
    fields = assert_invalid_report(response, "negative")
    assert {"home_score", "home_winnings"} <= set(fields)
    assert snapshot(world) == before


def test_a_score_the_touchdowns_do_not_make_is_422_on_the_score_fields(world: World) -> None:
    """Every touchdown is some player's: 5-0 with one touchdown entered, and 0-1 with none,
    are refused naming the score fields, and change nothing."""
    before = snapshot(world)
    response = world.record(
        world.report(
            home_score=5,
            away_score=0,
            players=[{"player_id": world.catcher, "td": 1}],
        )
    )
    fields = assert_invalid_report(response, "scored 1 touchdown but the score says 5")
    assert fields == {
        "home_score": ["The players of Reikland Reavers scored 1 touchdown but the score says 5."]
    }
    response = world.record(world.report(home_score=0, away_score=1, players=[]))
    fields = assert_invalid_report(response)
    assert set(fields) == {"away_score"}
    assert snapshot(world) == before


def test_a_dead_player_cannot_play_again(world: World) -> None:
    killed = world.report(
        players=[
            {"player_id": world.catcher, "td": 2},
            {"player_id": world.blitzer, "td": 1},
            {"player_id": world.orc_lineman, "injury": "dead"},
        ]
    )
    assert world.record(killed).status_code == 201
    assert world.get(f"/players/{world.orc_lineman}")["status"] == "dead"
    before = snapshot(world)
    response = world.record(
        world.report(home_score=0, players=[{"player_id": world.orc_lineman, "td": 1}])
    )
    fields = assert_invalid_report(response, "dead and cannot play")
    assert list(fields) == [f"player_{world.orc_lineman}"]
    assert snapshot(world) == before


# ---------------------------------------------------------------------------
# Reading and voiding


def test_get_match_is_public_and_404_when_unknown(world: World) -> None:
    recorded = world.record(world.report()).json
    # Read without a token: the match as the recording answered it.
    response = world.client.get(f"{API}/matches/{recorded['id']}")
    assert response.status_code == 200
    assert response.json == recorded
    for path in ("/matches/999", "/matches/x", "/matches/2147483648"):
        assert_error(world.client.get(f"{API}{path}"), 404, "not_found")


def test_void_takes_everything_back(world: World) -> None:
    before = snapshot(world)
    match = world.record(world.report()).json
    assert world.spp(world.catcher)["earned"] == 8
    response = world.void(match["id"])
    assert response.status_code == 200, response.json
    assert response.json == {**match, "state": "voided"}
    assert world.get(f"/matches/{match['id']}")["state"] == "voided"
    for player in (world.thrower, world.catcher, world.blitzer):
        assert world.spp(player) == {"earned": 0, "spent": 0, "available": 0}
    assert world.get(f"/players/{world.orc_lineman}")["status"] == "active"
    after = snapshot(world)
    # The match stays in history as voided; the ledger gained one correction per team.
    assert after["matches"] == [(match["id"], "voided")]
    assert after["treasuries"] == before["treasuries"] == (50_000, 40_000)
    assert after["players"] == before["players"]
    assert_error(world.void(match["id"]), 409, "conflict", "already voided")


def test_void_refusals_change_nothing(world: World) -> None:
    match_id = world.record(world.report()).json["id"]
    before = snapshot(world)
    assert_error(world.post(f"/matches/{match_id}/void", None), 401, "unauthorized")
    assert_error(world.void(match_id, "not-a-token"), 401, "unauthorized")
    assert_error(world.void(match_id, world.anna_token), 403, "forbidden", "commissioner")
    assert_error(world.void(999), 404, "not_found")
    assert snapshot(world) == before


def test_void_is_refused_when_awarded_spp_was_spent(world: World) -> None:
    match = world.record(world.report()).json
    catcher = db.session.get(Player, world.catcher)
    catcher.spp_spent = 6  # as if he had bought an advancement with them
    db.session.commit()
    before = snapshot(world)
    assert_error(world.void(match["id"]), 409, "spp_spent", "already spent 6 SPP")
    assert snapshot(world) == before
    assert world.get(f"/matches/{match['id']}") == match
    assert world.spp(world.catcher) == {"earned": 8, "spent": 6, "available": 2}
    assert world.treasury(world.humans) == 90_000


def test_void_is_refused_when_the_winnings_were_spent(world: World) -> None:
    match = world.record(world.report()).json
    for item in ("apothecary", "cheerleader"):  # 90,000 - 50,000 - 10,000 = 30,000 < 40,000
        response = world.post(f"/teams/{world.humans}/purchases", {"item": item}, world.anna_token)
        assert response.status_code == 200, response.json
    before = snapshot(world)
    assert before["treasuries"] == (30_000, 60_000)
    assert_error(world.void(match["id"]), 409, "winnings_spent", "already spent gold")
    assert snapshot(world) == before
    assert world.get(f"/matches/{match['id']}")["state"] == "played"
