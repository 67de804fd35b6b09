"""Simultaneous requests to a served app never spend the same gold twice (issue 14).

The app runs in its own `flask run` process (threaded, as `make run` serves it) on a
SQLite file, or on a fresh PostgreSQL database under TEST_DATABASE=postgresql; the
requests come from real threads, released together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests
from sqlalchemy import select

from league.extensions import db
from league.models import Match, Player, Team, User
from league.services import access, matches, teams
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.conftest import make_app
from tests.factories import DEFAULT_PASSWORD, make_league, make_user
from tests.pages import input_value
from tests.served import all_at_once, app_on, post_json, serve, served_database

#: BB2025: a Human team re-roll costs 50,000, twice that once the draft is confirmed.
REROLL_AFTER_DRAFT = 100_000
#: BB2025 Human roster: a Blitzer costs 85,000.
BLITZER = 85_000


@dataclass(frozen=True, slots=True)
class Served:
    url: str
    base: str
    commissioner_id: int
    coach_token: str
    #: One token per thread: a token's first use in a minute writes to its row, and one
    #: row written by every request would line them up before the race.
    commissioner_tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Setup:
    url: str
    base: str
    team_id: int
    coach_token: str
    commissioner_id: int


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One served app for the module: a commissioner and a coach with an API token."""
    with served_database(tmp_path_factory.mktemp("served")) as url:
        with app_on(url):
            coach = make_user("coach")
            commissioner_id = make_user("commish").id
            with unit_of_work() as session:
                coach_token = issue_token(session, session.get(User, coach.id))
                commissioner = session.get(User, commissioner_id)
                commissioner_tokens = tuple(issue_token(session, commissioner) for _ in range(20))
        with serve(url) as base:
            yield Served(url, base, commissioner_id, coach_token, commissioner_tokens)


@pytest.fixture
def setup(served: Served, request: pytest.FixtureRequest) -> Setup:
    """An active Human team (no players) with 100,000 in its treasury, in a league of its own."""
    with app_on(served.url):
        commissioner = db.session.get(User, served.commissioner_id)
        coach = db.session.scalar(select(User).where(User.username == "coach"))
        league = make_league(commissioner, "bb2025", coach)
        with unit_of_work() as session:
            command = teams.NewTeam(league.id, request.node.name[:40], "human", active=True)
            team = teams.create_team(session, coach, command)
        with unit_of_work() as session:
            teams.adjust_treasury(session, commissioner, team.id, -900_000, "Leave 100,000")
        return Setup(served.url, served.base, team.id, served.coach_token, commissioner.id)


def _team(team_id: int) -> Team:
    team = db.session.get(Team, team_id)
    assert team is not None
    return team


def _recompute_check(url: str) -> str:
    """`flask recompute --check` on the served database; its output."""
    app = make_app(url)
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["recompute", "--check"])
        db.engine.dispose()
    assert result.exit_code == 0, result.output
    return result.output


def test_twenty_simultaneous_purchases_spend_the_treasury_once(setup: Setup) -> None:
    path = f"/api/v1/teams/{setup.team_id}/purchases"
    page = f"{setup.base}/teams/{setup.team_id}"
    # Pages read meanwhile neither wait for the purchases to end nor hold them up.
    *answers, read_1, read_2, read_3 = all_at_once(
        [lambda: post_json(setup.base, setup.coach_token, path, {"item": "reroll"})] * 20
        + [lambda: requests.get(page, timeout=60)] * 3
    )
    assert [read.status_code for read in (read_1, read_2, read_3)] == [200, 200, 200]
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses == {200: 1, 422: 19}, [a.text for a in answers if a.status_code >= 500]
    refusals = {answer.json()["error"]["code"] for answer in answers if answer.status_code == 422}
    assert refusals == {"insufficient_treasury"}
    with app_on(setup.url):
        team = _team(setup.team_id)
        assert (team.rerolls, team.treasury) == (1, 100_000 - REROLL_AFTER_DRAFT)
    assert "Every cached balance matches" in _recompute_check(setup.url)


def test_ten_simultaneous_hires_with_gold_for_one_hire_one(setup: Setup) -> None:
    path = f"/api/v1/teams/{setup.team_id}/players"
    calls = [
        lambda n=n: post_json(
            setup.base,
            setup.coach_token,
            path,
            {"position": "human-blitzer", "name": f"Blitzer {n}"},
        )
        for n in range(10)
    ]
    answers = all_at_once(calls)
    assert Counter(answer.status_code for answer in answers) == {201: 1, 422: 9}
    with app_on(setup.url):
        team = _team(setup.team_id)
        assert (len(access.roster(team)), team.treasury) == (1, 100_000 - BLITZER)
    assert "Every cached balance matches" in _recompute_check(setup.url)


def test_simultaneous_hires_of_one_shirt_number_answer_409(setup: Setup) -> None:
    """Gold for all of them; the number decides: one is hired, the others hear why not."""
    with app_on(setup.url), unit_of_work() as session:
        commissioner = session.get(User, setup.commissioner_id)
        teams.adjust_treasury(session, commissioner, setup.team_id, 900_000, "Gold for every hire")
    path = f"/api/v1/teams/{setup.team_id}/players"
    calls = [
        lambda n=n: post_json(
            setup.base,
            setup.coach_token,
            path,
            {"position": "human-lineman", "name": f"Lineman {n}", "number": 7},
        )
        for n in range(8)
    ]
    answers = all_at_once(calls)
    assert Counter(answer.status_code for answer in answers) == {201: 1, 409: 7}
    winner = next(answer.json() for answer in answers if answer.status_code == 201)
    refused = [answer.json()["error"]["message"] for answer in answers if answer.status_code == 409]
    assert set(refused) == {f"Number 7 is taken by {winner['name']}."}


def test_simultaneous_advancements_spend_the_spp_once(setup: Setup) -> None:
    """SPP for one advancement, ten requests for ten different skills: one is taken."""
    with app_on(setup.url):
        coach = db.session.scalar(select(User).where(User.username == "coach"))
        commissioner = db.session.get(User, setup.commissioner_id)
        with unit_of_work() as session:
            blitzer = teams.hire_player(
                session, coach, setup.team_id, teams.HirePlayer("human-blitzer", "Griff", 4)
            )
            rivals = teams.create_team(
                session,
                coach,
                teams.NewTeam(_team(setup.team_id).league_id, "Rivals", "human", active=True),
            )
            blitzer_id, rivals_id, league_id = blitzer.id, rivals.id, rivals.league_id
        # BB2025 SPP table: a touchdown earns 3 SPP, so two give 6, the price of a first
        # chosen primary skill (BB2025 advancement costs: 6, 8, 12, 16, 20, 30).
        report = MatchReport(
            home=SideReport(score=2, mistake_d6=6),
            away=SideReport(score=0, mistake_d6=6),
            players=(PlayerEvents(player_id=blitzer_id, td=2),),
        )
        with unit_of_work() as session:
            matches.record_new_match(
                session, commissioner, league_id, setup.team_id, rivals_id, report
            )
    skills = ("Dauntless", "Dirty Player", "Fend", "Frenzy", "Kick", "Pro", "Shadowing")
    path = f"/api/v1/players/{blitzer_id}/advancements"
    answers = all_at_once(
        [
            lambda skill=skill: post_json(
                setup.base, setup.coach_token, path, {"kind": "chosen_primary", "skill": skill}
            )
            for skill in skills
        ]
    )
    statuses = Counter(answer.status_code for answer in answers)
    assert statuses[201] == 1, [answer.text for answer in answers]
    # The others hear that the SPP are spent (or, racing for advancement number 1, a 409).
    assert set(statuses) <= {201, 409, 422}, [answer.text for answer in answers]
    with app_on(setup.url):
        player = db.session.get(Player, blitzer_id)
        assert (player.spp_earned, player.spp_spent, len(player.advancements)) == (6, 6, 1)
    assert "Every cached balance matches" in _recompute_check(setup.url)


@pytest.mark.parametrize(("repeats", "spread"), [(2, 0.0), (20, 0.0), (20, 0.5), (20, 1.0)])
def test_simultaneous_reports_with_one_idempotency_key_record_one_match(
    served: Served, repeats: int, spread: float
) -> None:
    """The first answers 201, every repeat 200 with that match; no other fixture appears."""
    with app_on(served.url):
        commissioner = db.session.get(User, served.commissioner_id)
        league = make_league(commissioner, "bb2025")
        with unit_of_work() as session:
            home, away = (
                teams.create_team(
                    session, commissioner, teams.NewTeam(league.id, name, "human", active=True)
                )
                for name in ("A1 Humans", "A2 Humans")
            )
            # A lineman each, who scores the team's touchdowns.
            scorers = [
                teams.hire_player(
                    session, commissioner, team.id, teams.HirePlayer("human-lineman", "Scorer", 1)
                ).id
                for team in (home, away)
            ]
            league_id, home_id, away_id = league.id, home.id, away.id
    body = {
        "home_team": home_id,
        "away_team": away_id,
        "home_score": 2,
        "away_score": 1,
        "players": [
            {"player_id": scorers[0], "td": 2},
            {"player_id": scorers[1], "td": 1},
        ],
        "idempotency_key": f"report-{league_id}",
    }
    path = f"/api/v1/leagues/{league_id}/matches"
    answers = all_at_once(
        [
            lambda token=token: post_json(served.base, token, path, body)
            for token in served.commissioner_tokens[:repeats]
        ],
        spread=spread,
    )
    assert Counter(answer.status_code for answer in answers) == {201: 1, 200: repeats - 1}
    assert len({answer.json()["id"] for answer in answers}) == 1
    with app_on(served.url):
        stored = db.session.scalars(select(Match).where(Match.league_id == league_id)).all()
        assert [(match.state, match.idempotency_key) for match in stored] == [
            ("played", f"report-{league_id}")
        ]


def _signed_in(base: str, username: str) -> requests.Session:
    browser = requests.Session()
    csrf = input_value(browser.get(f"{base}/login", timeout=30).text, "csrf_token")
    answer = browser.post(
        f"{base}/login",
        data={"username": username, "password": DEFAULT_PASSWORD, "csrf_token": csrf},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302
    return browser


def test_a_hire_form_sent_twice_at_once_hires_once(setup: Setup) -> None:
    """A double click: the same form (gold for both hires) twice at the same instant."""
    browser = _signed_in(setup.base, "coach")
    page = browser.get(f"{setup.base}/teams/{setup.team_id}", timeout=30).text
    data = {
        "csrf_token": input_value(page, "csrf_token"),
        "token": input_value(page, "token"),
        "position_id": "human-lineman",
        "name": "Clicked Twice",
        "number": "4",
    }
    url = f"{setup.base}/teams/{setup.team_id}/hire"
    cookies = browser.cookies.get_dict()
    answers = all_at_once(
        [lambda: requests.post(url, data=data, cookies=cookies, allow_redirects=False, timeout=60)]
        * 2
    )
    assert [answer.status_code for answer in answers] == [302, 302]
    with app_on(setup.url):
        team = _team(setup.team_id)
        # BB2025 Human Lineman: 50,000, paid once.
        assert ([p.name for p in access.roster(team)], team.treasury) == (["Clicked Twice"], 50_000)
