"""API v1 after a pre-game: a journeyman in the result, then POST
/api/v1/matches/{id}/journeymen/{player_id}/hire (BB2025)."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Match, Player, Team, User
from league.services import matches, postgame
from league.services.pregame import SideChoices, record_side
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def test_a_journeyman_plays_and_is_hired(client: FlaskClient) -> None:
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    # A draft needs eleven: eleven Orcs, one fired, so one journeyman (BB2025: up to 11).
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    lineman = db.session.scalars(select(Player).where(Player.team_id == orcs.id)).first()
    assert lineman is not None
    lineman.status = "fired"
    db.session.commit()
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, humans.id, orcs.id).id
    # Humans 550,000 against Orcs 500,000 + one journeyman at 50,000: equal CTVs.
    with unit_of_work() as session:
        record_side(session, anna, match_id, "home", SideChoices())
    with unit_of_work() as session:
        record_side(session, bram, match_id, "away", SideChoices())
    with unit_of_work() as session:
        match = session.get(Match, match_id)
        assert match is not None
        (journeyman,) = postgame.match_day_players(session, match)
        journeyman_id = journeyman.id
    hire_url = f"{API}/matches/{match_id}/journeymen/{journeyman_id}/hire"

    early = client.post(hire_url, headers=auth(bram))
    assert early.status_code == 409, early.json

    result = client.post(
        f"{API}/matches/{match_id}/result",
        json={
            "home_score": 0,
            "away_score": 2,
            "winnings": {"home": 0, "away": 0},
            "players": [{"player_id": journeyman_id, "td": 2, "mvp": True}],
        },
        headers=auth(boss),
    )
    assert result.status_code == 200, result.json
    assert [(p["player_id"], p["td"], p["spp"]) for p in result.json["players"]] == [
        # BB2025, a Brawlin' Brutes team: 2 SPP a touchdown, 4 for the MVP.
        (journeyman_id, 2, 2 * 2 + 4)
    ]

    rival = client.post(hire_url, headers=auth(anna))
    assert rival.status_code == 403

    db.session.expire_all()
    # (Expensive Mistakes may have rolled on the 450,000: the price is what moves now.)
    before = db.session.get(Team, orcs.id).treasury  # type: ignore[union-attr]
    # A name that is not one line is refused with the reason; nothing is hired.
    bad = client.post(hire_url, json={"name": "Grom\nthe Second"}, headers=auth(bram))
    assert bad.status_code == 422, bad.json
    assert bad.json["error"]["message"].startswith("A player's name"), bad.json
    hired = client.post(hire_url, json={"name": "Grom the Second"}, headers=auth(bram))
    assert hired.status_code == 200, hired.json
    player = hired.json
    assert player["name"] == "Grom the Second"
    assert (player["id"], player["status"], player["position"]) == (
        journeyman_id,
        "active",
        "orc-lineman",
    )
    # Hired at the BB2025 price: the 50,000 fee plus no value increase; his SPP kept.
    assert player["spp"]["earned"] == 8
    assert player["value"] == 50_000
    db.session.expire_all()
    team = db.session.get(Team, player["team_id"])
    assert team is not None
    assert team.treasury == before - 50_000

    again = client.post(hire_url, headers=auth(bram))
    assert again.status_code == 422
    assert again.json["error"]["code"] == "not_a_journeyman"
    assert again.json["error"]["message"] == (
        f"{player['name']} is not a journeyman waiting to be hired."
    )
