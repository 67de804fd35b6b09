"""The tournament roster check: GET /api/v1/teams/{id}/matched-play, its page and the
`matched_play` house rule on the settings page and in the API.

BB2025 matched play (ruleset.toml [matched_play]): budget 1,150,000 by default; Humans
are tier 2: 7 skill points; a primary skill 1 point, a secondary 2; each elite skill
(Block, Dodge, Guard, Mighty Blow) at most 4 times per team. The roster: 7 linemen at
50,000, 2 catchers and 2 throwers at 75,000, 2 blitzers at 85,000 (820,000), 3 re-rolls
at 50,000 and an apothecary at 50,000: 1,020,000. Added skills cost no gold.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from league.extensions import db
from league.models import Advancement, League, Team, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import buy, hire, make_league, make_team, make_user
from tests.pages import input_value, league_form, login

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


@pytest.fixture
def boss() -> User:
    return make_user("boss")


def human_team(boss: User, league: League) -> Team:
    team = make_team(boss, league, "human")
    for position, count in (
        ("human-lineman", 7),
        ("human-catcher", 2),
        ("human-thrower", 2),
        ("human-blitzer", 2),
    ):
        hire(boss, team, position, count)
    buy(boss, team, "reroll", 3)
    buy(boss, team, "apothecary")
    return team


def add_skills(team: Team, *skills: tuple[str, str, str]) -> None:
    """(skill, kind, category), one per player in shirt-number order, as advancements."""
    with unit_of_work() as session:
        players = sorted(db.session.get(Team, team.id).players, key=lambda p: p.number)  # type: ignore[union-attr]
        for player, (skill, kind, category) in zip(players, skills, strict=False):
            session.add(
                Advancement(
                    player_id=player.id,
                    number=1,
                    kind=kind,
                    spp_cost=6,
                    skill=skill,
                    category=category,
                    value_increase=20_000,
                )
            )


@pytest.fixture
def tournament(boss: User) -> League:
    return make_league(
        boss, "bb2025", starting_treasury=1_150_000, house_rules={"matched_play": {}}
    )


def test_a_roster_over_its_skill_points_is_refused_with_the_reason(
    client: FlaskClient, boss: User, tournament: League
) -> None:
    team = human_team(boss, tournament)
    # Block x4 chosen primary (4 points) + Dodge x2 chosen secondary (4 points) = 8 > 7.
    add_skills(
        team,
        *[("Block", "chosen_primary", "G")] * 4,
        *[("Dodge", "chosen_secondary", "A")] * 2,
    )
    response = client.get(f"{API}/teams/{team.id}/matched-play")
    assert response.status_code == 200
    assert response.json == {
        "team_id": team.id,
        "allowed": False,
        "budget": 1_150_000,
        "cost": 1_020_000,
        "skill_points": {"used": 8, "allowed": 7},
        "problems": [
            {
                "code": "over_skill_points",
                "message": "The skills added cost 8 skill points; a tier 2 team has 7.",
            }
        ],
    }
    page = client.get(f"/teams/{team.id}/matched-play").text
    assert "The skills added cost 8 skill points; a tier 2 team has 7." in page
    assert "Block (primary)" in page
    assert "Dodge (secondary)" in page


def test_a_fifth_block_and_a_lowered_budget(
    client: FlaskClient, boss: User, tournament: League
) -> None:
    team = human_team(boss, tournament)
    add_skills(team, *[("Block", "chosen_primary", "G")] * 5)
    with unit_of_work() as session:
        league = session.get(League, tournament.id)
        assert league is not None
        league.house_rules = {"matched_play": {"budget": 1_000_000}}
    response = client.get(f"{API}/teams/{team.id}/matched-play").json
    assert response["allowed"] is False
    assert response["skill_points"] == {"used": 5, "allowed": 7}
    assert response["problems"] == [
        {
            "code": "roster_over_budget",
            "message": "The roster costs 1,020,000, 20,000 over the budget of 1,000,000.",
        },
        {
            "code": "elite_skill_over_cap",
            "message": "Block is added 5 times; an elite skill may be added at most 4 times.",
        },
    ]


def test_a_legal_roster_is_allowed_and_linked_from_the_team_page(
    client: FlaskClient, boss: User, tournament: League
) -> None:
    team = human_team(boss, tournament)
    add_skills(team, ("Block", "chosen_primary", "G"), ("Dodge", "chosen_secondary", "A"))
    # Anyone may look, as at the team sheet: no token.
    response = client.get(f"{API}/teams/{team.id}/matched-play")
    assert response.json["allowed"] is True
    assert response.json["skill_points"] == {"used": 3, "allowed": 7}
    assert response.json["problems"] == []
    assert 'data-testid="matched-play-link"' in client.get(f"/teams/{team.id}").text
    page = client.get(f"/teams/{team.id}/matched-play").text
    assert "This roster keeps to the tournament rules." in page
    # The costs in words, singular where the count is one: a primary 1 point, a secondary 2.
    assert "A primary skill costs 1 skill point." in page
    assert "A secondary skill costs 2 skill points." in page


def test_a_league_without_the_check(client: FlaskClient, boss: User) -> None:
    team = make_team(boss, make_league(boss, "bb2025"), "human")
    response = client.get(f"{API}/teams/{team.id}/matched-play")
    assert response.status_code == 409
    assert response.json["error"]["code"] == "matched_play_off"
    assert client.get(f"/teams/{team.id}/matched-play").status_code == 404
    assert 'data-testid="matched-play-link"' not in client.get(f"/teams/{team.id}").text
    assert client.get(f"{API}/teams/999999/matched-play").status_code == 404


@pytest.mark.parametrize(
    ("house_rules", "named"),
    [
        ({"matched_play": {"skill_points": [6, 7]}}, "expected 4 numbers"),
        ({"matched_play": {"budget": -1}}, "must be at least 0"),
        ({"matched_play": {"secondary_cost": 0}}, "must be at least 1"),
        ({"matched_play": {"elite_cap": 5}}, "unknown key"),
    ],
)
def test_bad_matched_play_settings_are_a_422_and_nothing_changes(
    client: FlaskClient, boss: User, house_rules: dict[str, Any], named: str
) -> None:
    league = make_league(boss, "bb2025")
    response = client.patch(
        f"{API}/leagues/{league.id}", json={"house_rules": house_rules}, headers=auth(boss)
    )
    assert response.status_code == 422, response.json
    assert named in response.json["error"]["message"]
    db.session.expire_all()
    assert db.session.get(League, league.id).house_rules == {}  # type: ignore[union-attr]


def test_bb2020_has_no_matched_play(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2020")
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"house_rules": {"matched_play": {}}},
        headers=auth(boss),
    )
    assert response.status_code == 422
    assert "no matched-play rules" in response.json["error"]["message"]


def test_the_settings_page_turns_the_check_on_and_shows_it(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2025")
    login(client, "boss")
    response = client.post(
        f"/leagues/{league.id}/settings",
        data=league_form(matched_play_on="y", matched_play="budget=1100000, skill_points=5/6/7/8"),
    )
    assert response.status_code == 302, response.text
    db.session.expire_all()
    assert db.session.get(League, league.id).house_rules == {  # type: ignore[union-attr]
        "matched_play": {"budget": 1_100_000, "skill_points": [5, 6, 7, 8]}
    }
    page = client.get(f"/leagues/{league.id}/settings").text
    assert input_value(page, "matched_play") == "budget=1100000, skill_points=5/6/7/8"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"matched_play_on": "y", "matched_play": "skill_points=5/6"}, "expected 4 numbers"),
        ({"matched_play_on": "y", "matched_play": "budget=lots"}, "is not a number"),
        ({"matched_play_on": "y", "matched_play": "elite_cap=5"}, "Write key=value pairs"),
        ({"matched_play": "budget=1000000"}, "Tick “Check tournament rosters”"),
    ],
)
def test_bad_settings_show_next_to_the_box_and_nothing_changes(
    client: FlaskClient, boss: User, changes: dict[str, str], message: str
) -> None:
    league = make_league(boss, "bb2025")
    login(client, "boss")
    response = client.post(f"/leagues/{league.id}/settings", data=league_form(**changes))
    assert response.status_code == 200
    errors = response.text.split('id="matched_play-errors"', 1)
    assert len(errors) == 2, "no error under the matched-play box"
    assert message in errors[1].split("</ul>", 1)[0]
    db.session.expire_all()
    assert db.session.get(League, league.id).name == "bb2025 league"  # type: ignore[union-attr]


def test_a_ruleset_without_matched_play_names_the_tick_box(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2020")
    login(client, "boss")
    response = client.post(
        f"/leagues/{league.id}/settings",
        data=league_form(ruleset_id="bb2020", matched_play_on="y"),
    )
    assert response.status_code == 200
    errors = response.text.split('id="matched_play_on-errors"', 1)
    assert len(errors) == 2
    assert "no matched-play rules" in errors[1].split("</ul>", 1)[0]
