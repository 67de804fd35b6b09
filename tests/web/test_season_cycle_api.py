"""Issue 17's "Done when", through the API only (after the accounts exist).

A league plays a season (fixtures generated, results entered), closes it (prizes booked),
re-drafts every team, approves each re-draft and plays on in the next season, with every
gold piece of every treasury in the ledger; and an organiser runs a Swiss tournament day
from the first pairing to the final table.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import Team, TreasuryEntry, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_user

API = "/api/v1"
NAMES = ("Altdorf Amblers", "Bögenhafen Bruisers", "Carroburg Crushers", "Delberz Dukes")


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.json
    return response.json


def ledger(team_id: int) -> dict[str, int]:
    """The team's ledger rows summed by kind."""
    db.session.expire_all()
    rows = db.session.execute(
        select(TreasuryEntry.kind, func.sum(TreasuryEntry.amount))
        .where(TreasuryEntry.team_id == team_id)
        .group_by(TreasuryEntry.kind)
    )
    return {kind: int(total) for kind, total in rows}


def assert_every_gold_piece_in_the_ledger(client: FlaskClient, team_ids: list[int]) -> None:
    for team_id in team_ids:
        treasury = client.get(f"{API}/teams/{team_id}").json["treasury"]
        assert treasury == sum(ledger(team_id).values()), team_id


def new_league(client: FlaskClient, headers: dict[str, str], **settings: Any) -> int:
    body = {"name": "Old World League", "ruleset": "bb2025", **settings}
    return int(ok(client.post(f"{API}/leagues", json=body, headers=headers), 201)["id"])


def new_teams(
    client: FlaskClient, headers: dict[str, str], league_id: int, names: tuple[str, ...]
) -> list[int]:
    ids = []
    for name in names:
        body = {"name": name, "team_type": "human"}
        team = ok(client.post(f"{API}/leagues/{league_id}/teams", json=body, headers=headers), 201)
        for number in range(1, 12):
            hired = {"position": "human-lineman", "name": f"{name[:8]} {number}"}
            ok(client.post(f"{API}/teams/{team['id']}/players", json=hired, headers=headers), 201)
        ids.append(team["id"])
    return ids


def result(home: int, away: int, home_score: int, away_score: int) -> dict[str, Any]:
    """A result body whose touchdowns are each team's first player's (lowest number)."""
    players = []
    for team_id, touchdowns in ((home, home_score), (away, away_score)):
        if touchdowns:
            team = db.session.get(Team, team_id)
            assert team is not None
            first = min(team.players, key=lambda p: p.number)
            players.append({"player_id": first.id, "td": touchdowns})
    return {"home_score": home_score, "away_score": away_score, "players": players}


def test_a_season_closed_redrafted_and_the_next_one_started(client: FlaskClient) -> None:
    boss = make_user("boss")
    headers = auth(boss)
    league_id = new_league(client, headers)
    team_ids = new_teams(client, headers, league_id, NAMES)
    # The starting 1,000,000 less 11 linemen at 50,000 (BB2025 Human roster): 450,000.
    for team_id in team_ids:
        assert ledger(team_id) == {"starting": 1_000_000, "hire": -550_000}
    assert_every_gold_piece_in_the_ledger(client, team_ids)

    # Season 1: a round robin of 4 teams is 3 rounds of 2 matches; the home side wins 2-1.
    fixtures = ok(
        client.post(f"{API}/leagues/{league_id}/fixtures/generate", json={}, headers=headers),
        201,
    )["fixtures"]
    assert len(fixtures) == 6
    for fixture in fixtures:
        body = result(fixture["home_team"], fixture["away_team"], 2, 1)
        ok(client.post(f"{API}/matches/{fixture['id']}/result", json=body, headers=headers))
    table = ok(client.get(f"{API}/leagues/{league_id}/standings"))["rows"]
    assert sum(row["played"] for row in table) == 12
    assert_every_gold_piece_in_the_ledger(client, team_ids)

    closed = ok(client.post(f"{API}/leagues/{league_id}/seasons/1/close", headers=headers))
    assert (closed["season"], closed["next_season"]) == (1, 2)
    # BB2025 Glittering Prizes: 100,000 (and the Trophy), 60,000, 30,000 for the top three;
    # each is one "prize" row of its team's ledger.
    paid = {p["team_id"]: p["gold"] for p in closed["prizes"]}
    assert sorted(paid.values(), reverse=True) == [100_000, 60_000, 30_000]
    assert list(paid) == [row["team_id"] for row in closed["rows"][:3]]
    for team_id in team_ids:
        assert ledger(team_id).get("prize", 0) == paid.get(team_id, 0)
    assert_every_gold_piece_in_the_ledger(client, team_ids)

    # The off-season: every team keeps its players and re-drafts within its budget.
    for team_id in team_ids:
        url = f"{API}/teams/{team_id}/redraft"
        plan = ok(client.get(url))
        treasury = client.get(f"{API}/teams/{team_id}").json["treasury"]
        # The treasury is emptied into the budget: 1,000,000 + treasury + per game/win/draw.
        budget = plan["budget"]
        assert budget["treasury"] == treasury
        assert budget["base"] == 1_000_000
        keep = [p["player_id"] for p in plan["players"]]
        submitted = ok(client.post(url, json={"keep": keep}, headers=headers))
        assert submitted["state"] == "submitted"
        approved = ok(client.post(f"{url}/approve", headers=headers))
        # What is left of the budget is the new treasury; the ledger says how it came about.
        assert approved["treasury"] == submitted["left"]
        assert sorted(p["id"] for p in approved["players"] if p["status"] == "active") == sorted(
            keep
        )
        assert "redraft" in ledger(team_id)
        assert ok(client.get(url))["state"] == "approved"
    assert_every_gold_piece_in_the_ledger(client, team_ids)

    # Season 2 is open and plays like the first.
    assert ok(client.get(f"{API}/leagues/{league_id}"))["season"] == 2
    second = ok(
        client.post(f"{API}/leagues/{league_id}/fixtures/generate", json={}, headers=headers),
        201,
    )["fixtures"]
    assert len(second) == 6
    body = result(second[0]["home_team"], second[0]["away_team"], 1, 1)
    ok(client.post(f"{API}/matches/{second[0]['id']}/result", json=body, headers=headers))
    rows = ok(client.get(f"{API}/leagues/{league_id}/standings"))["rows"]
    assert sum(row["played"] for row in rows) == 2
    assert_every_gold_piece_in_the_ledger(client, team_ids)


def test_a_swiss_tournament_day_from_pairing_to_final_table(client: FlaskClient) -> None:
    boss = make_user("boss")
    headers = auth(boss)
    # The organiser's scoring: 3/1/0 and +1 for losing by one touchdown; a bye a 1-0 win.
    scoring = {"points": [3, 1, 0], "bonus": [{"kind": "close_loss", "threshold": 1, "points": 1}]}
    league_id = new_league(client, headers, house_rules={"tournament": scoring})
    names = (*NAMES, "Eilhart Eagles")
    team_ids = new_teams(client, headers, league_id, names)
    rounds = f"{API}/leagues/{league_id}/rounds"
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    points = dict.fromkeys(team_ids, 0)
    for number in (1, 2, 3):
        paired = ok(client.post(rounds, headers=headers), 201)
        assert paired["round"] == number
        assert not paired["rematches"]
        # Five teams: two matches and a bye each round, every team once.
        pairs = [(p["home_team"], p["away_team"]) for p in paired["pairings"]]
        assert sorted([t for pair in pairs for t in pair] + [paired["bye"]]) == sorted(team_ids)
        # The next round waits for this one's results.
        waiting = client.post(rounds, headers=headers)
        assert (waiting.status_code, waiting.json["error"]["code"]) == (409, "round_unplayed")
        for pairing, (home, away) in zip(paired["pairings"], pairs, strict=True):
            assert frozenset((home, away)) not in met
            met.add(frozenset((home, away)))
            body = result(home, away, 1, 0)
            ok(
                client.post(
                    f"{API}/matches/{pairing['match_id']}/result", json=body, headers=headers
                )
            )
            points[home] += 3  # a win
            points[away] += 1  # lost by one touchdown: the bonus point
        byes.append(paired["bye"])
        points[paired["bye"]] += 3  # a bye is a 1-0 win (BB2025 data)
    assert len(set(byes)) == 3  # nobody sat out twice

    final = ok(client.get(f"{API}/leagues/{league_id}/standings"))
    rows = final["rows"]
    assert {row["team_id"]: row["points"] for row in rows} == points
    assert [row["points"] for row in rows] == sorted(points.values(), reverse=True)
    for row in rows:
        # Each team played or sat out every round; each loss was by one touchdown.
        assert row["played"] == 3
        assert row["bonus_points"] == row["lost"]
        assert row["byes"] == byes.count(row["team_id"])
    assert final["divisions"] == []
    # The printable round sheet of the last round lists its two tables.
    sheet = client.get(f"/leagues/{league_id}/fixtures/rounds/3/print")
    assert sheet.status_code == 200
