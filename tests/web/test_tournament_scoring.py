"""Tournament scoring on the league settings page and in the standings.

The organiser's house rule ``tournament`` (points and bonus points over the ruleset's
``[season.tournament]``, which sets none in BB2025) is set from two boxes of the settings
page; the standings then show a bonus-points column.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, User
from league.services import matches, teams
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns
from tests.pages import input_value, league_form, login


@pytest.fixture
def boss() -> User:
    return make_user("boss")


def test_the_settings_page_sets_tournament_points_and_bonus(
    client: FlaskClient, boss: User
) -> None:
    league = make_league(boss, "bb2025")
    login(client, "boss")
    response = client.post(
        f"/leagues/{league.id}/settings",
        data=league_form(
            tournament_points="3/1/0", tournament_bonus="touchdowns 3 +1, close_loss 1 +2"
        ),
    )
    assert response.status_code == 302, response.text
    db.session.expire_all()
    assert db.session.get(League, league.id).house_rules == {  # type: ignore[union-attr]
        "tournament": {
            "points": [3, 1, 0],
            "bonus": [
                {"kind": "touchdowns", "threshold": 3, "points": 1},
                {"kind": "close_loss", "threshold": 1, "points": 2},
            ],
        }
    }
    page = client.get(f"/leagues/{league.id}/settings").text
    assert input_value(page, "tournament_points") == "3/1/0"
    assert input_value(page, "tournament_bonus") == "touchdowns 3 +1, close_loss 1 +2"
    # Emptying both boxes turns tournament scoring off again.
    client.post(f"/leagues/{league.id}/settings", data=league_form())
    db.session.expire_all()
    assert db.session.get(League, league.id).house_rules == {}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("box", "text", "message"),
    [
        ("tournament_points", "3/1", "Write three whole numbers: win/draw/loss"),
        ("tournament_points", "1/3/0", "a win is worth at least a draw"),
        ("tournament_points", "3/-1/0", "must not be negative"),
        ("tournament_bonus", "fouls 1 +1", "Write each bonus as kind, threshold and points"),
        ("tournament_bonus", "touchdowns three +1", "Write each bonus as kind"),
        ("tournament_bonus", "touchdowns 0 +1", "must be at least 1"),
        ("bye_score", "1:0", "Write the score as for-against, e.g. 1-0."),
        ("bye_score", "101-0", "must be at most 100"),
        ("bye_result", "loss", "Not a valid choice"),
    ],
)
def test_bad_scoring_shows_next_to_its_box_and_nothing_changes(
    client: FlaskClient, boss: User, box: str, text: str, message: str
) -> None:
    league = make_league(boss, "bb2025")
    login(client, "boss")
    response = client.post(f"/leagues/{league.id}/settings", data=league_form(**{box: text}))
    assert response.status_code == 200
    errors = response.text.split(f'id="{box}-errors"', 1)
    assert len(errors) == 2, f"no error under the {box} box"
    assert message in errors[1].split("</ul>", 1)[0]
    db.session.expire_all()
    saved = db.session.get(League, league.id)
    assert saved is not None
    assert (saved.name, saved.house_rules) == ("bb2025 league", {})


def test_the_standings_show_the_bonus_column_only_when_scored(
    client: FlaskClient, boss: User
) -> None:
    league = make_league(
        boss,
        "bb2025",
        house_rules={
            "tournament": {"bonus": [{"kind": "touchdowns", "threshold": 2, "points": 1}]}
        },
    )
    with unit_of_work() as session:
        home, away = (
            teams.create_team(session, boss, teams.NewTeam(league.id, n, "human", active=True)).id
            for n in ("Ants", "Bats")
        )
    give_scorers(boss, league)
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, home, away).id
    with unit_of_work() as session:
        matches.record_result(
            session,
            boss,
            match_id,
            with_match_touchdowns(
                MatchReport(SideReport(score=2, mistake_d6=6), SideReport(score=0, mistake_d6=6)),
                match_id,
            ),
        )
    page = client.get(f"/leagues/{league.id}/standings").text
    assert 'title="Bonus points (counted in the points)"' in page
    # Ants: 3 for the win (the league's points) + 1 for two touchdowns.
    assert '<td class="num bonus" data-label="BP">1</td>' in page
    assert "Bonus: +1 for scoring at least 2 touchdowns in a match." in page
    api = client.get(f"/api/v1/leagues/{league.id}/standings").json
    assert [(r["team"], r["points"], r["bonus_points"]) for r in api["rows"]] == [
        ("Ants", 4, 1),
        ("Bats", 0, 0),
    ]
    plain = make_league(boss, "bb2025")
    assert "Bonus points" not in client.get(f"/leagues/{plain.id}/standings").text


def test_the_settings_page_sets_the_bye(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2025")
    login(client, "boss")
    response = client.post(
        f"/leagues/{league.id}/settings", data=league_form(bye_result="draw", bye_score="0-0")
    )
    assert response.status_code == 302, response.text
    db.session.expire_all()
    assert db.session.get(League, league.id).house_rules == {  # type: ignore[union-attr]
        "tournament": {"bye_result": "draw", "bye_touchdowns": [0, 0]}
    }
    page = client.get(f"/leagues/{league.id}/settings").text
    assert input_value(page, "bye_score") == "0-0"
    assert '<option selected value="draw">' in page
