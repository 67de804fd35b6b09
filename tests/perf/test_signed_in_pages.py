"""Signed-in visitors share the league, team and player pages too (caching.shared_page).

The body is rendered once per page, language and variant (role in the league, coach
of the team or not) with holes for what belongs to one person: the CSRF token, the
one-time form token, the name in the navigation, a fixture's "Enter result" link
that only its two coaches get. These tests sign in through the real log-in form (CSRF
on, as in production) and check that each viewer gets their own holes filled, that
the shared copy holds nobody's token, and that every kind of write shows at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league import caching
from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.models.revision import current_revision
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services import access, leagues, matches, teams
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user
from tests.conftest import make_app
from tests.factories import with_match_touchdowns
from tests.perf.conftest import _database

#: A member of the league without a team: a coach who plays no fixture.
BENCHWARMER = "coach_cora"
TOKEN = re.compile(r'name="(?:csrf_token|token)" type="hidden" value="([^"]*)"')


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[Flask, str]]:
    """The demo leagues plus a teamless coach in the BB2025 one; CSRF checked."""
    with _database("league_signed_in", tmp_path_factory) as url:
        app = make_app(url, WTF_CSRF_ENABLED=True)
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                accounts = seed_demo(session)
                assert accounts is not None
                commissioner = session.scalar(
                    select(User).where(User.username == DEMO_COMMISSIONER)
                )
                cora = create_user(session, NewUser(BENCHWARMER, accounts.password))
                league = session.scalar(select(League).where(League.ruleset_id == "bb2025"))
                leagues.add_member(session, commissioner, league, cora, "coach")
            db.session.remove()
        yield app, accounts.password
        with app.app_context():
            db.engine.dispose()


def _sign_in(app: Flask, username: str, password: str) -> FlaskClient:
    """A browser signed in through the log-in form, its welcome message already shown."""
    client = app.test_client()
    token = TOKEN.search(client.get("/login").text)
    assert token is not None
    response = client.post(
        "/login",
        data={"csrf_token": token.group(1), "username": username, "password": password},
    )
    assert response.status_code == 302, response.text
    client.get("/")
    return client


def _ids(app: Flask) -> tuple[int, int, int, int]:
    """The BB2025 league, coach_anna's team, one of its players, its open fixture count."""
    with app.app_context():
        league_id = db.session.scalar(select(League.id).where(League.ruleset_id == "bb2025"))
        team_id = db.session.scalar(
            select(Team.id)
            .join(User, User.id == Team.coach_id)
            .where(Team.league_id == league_id, User.username == "coach_anna")
        )
        player_id = db.session.scalar(
            select(Player.id).where(Player.team_id == team_id).order_by(Player.id)
        )
        scheduled = db.session.scalar(
            select(func.count(Match.id)).where(
                Match.league_id == league_id, Match.state == "scheduled"
            )
        )
        db.session.remove()
    return league_id, team_id, player_id, scheduled


def _pages(app: Flask) -> list[str]:
    league_id, team_id, player_id, _ = _ids(app)
    league = f"/leagues/{league_id}"
    return [
        league,
        f"{league}/standings",
        f"{league}/fixtures",
        f"{league}/stats",
        f"/teams/{team_id}",
        f"/players/{player_id}",
    ]


def _get(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.text


def _signed_in_as(page: str) -> str:
    found = re.search(r"Signed in as <strong>(.*?)</strong>", page)
    assert found is not None
    return found.group(1)


def test_each_viewer_gets_their_own_name_tokens_and_buttons(site: tuple[Flask, str]) -> None:
    app, password = site
    caching.shared_pages.clear()
    cora, anna, bram = (
        _sign_in(app, name, password) for name in (BENCHWARMER, "coach_anna", "coach_bram")
    )
    commissioner = _sign_in(app, DEMO_COMMISSIONER, password)
    league_id, team_id, _, scheduled = _ids(app)
    # Each viewer's tokens (a CSRF token is the same for one session within a second).
    given: dict[str, set[str]] = {}
    for path in _pages(app):
        # The teamless coach renders each shared body first; the others read it.
        for name, client in (
            (BENCHWARMER, cora),
            ("coach_anna", anna),
            ("coach_bram", bram),
            (DEMO_COMMISSIONER, commissioner),
        ):
            page = _get(client, path)
            assert _signed_in_as(page) == name, path
            tokens = set(TOKEN.findall(page))
            others = set().union(*(seen for who, seen in given.items() if who != name))
            assert tokens, path
            assert not tokens & others, path
            given.setdefault(name, set()).update(tokens)
    # Nobody's name in the navigation, nobody's token in any shared body.
    bodies = [body for _, body in caching.shared_pages._pages.values()]
    assert bodies
    everyone = set().union(*given.values())
    for body in bodies:
        assert "<strong>coach_" not in body
        assert "<strong>commissioner" not in body
        assert not set(TOKEN.findall(body)) & everyone

    fixtures = f"/leagues/{league_id}/fixtures"
    # Every open fixture of the demo league is coach_anna v coach_bram: its two coaches and
    # the commissioner may enter it, the teamless coach may not.
    assert scheduled >= 1
    assert _get(cora, fixtures).count("Enter result") == 0
    for client in (anna, bram, commissioner):
        assert _get(client, fixtures).count("Enter result") == scheduled
    # The team page: its coach and the commissioner hire, another coach only reads; only
    # the commissioner hands the team over.
    hire = f'action="/teams/{team_id}/hire"'
    team_page = f"/teams/{team_id}"
    assert hire in _get(anna, team_page)
    assert hire in _get(commissioner, team_page)
    assert hire not in _get(bram, team_page)
    assert "Hand over to another coach" in _get(commissioner, team_page)
    assert "Hand over to another coach" not in _get(anna, team_page)
    # The commissioner's to-do list is theirs alone.
    assert 'data-testid="todo"' in _get(commissioner, f"/leagues/{league_id}")
    assert 'data-testid="todo"' not in _get(anna, f"/leagues/{league_id}")


def test_the_filled_in_tokens_are_the_viewers_own(site: tuple[Flask, str]) -> None:
    """A CSRF token from a shared page works for the viewer it was filled in for, not for
    another; a one-time token is new on every page shown."""
    app, password = site
    anna, bram = (_sign_in(app, name, password) for name in ("coach_anna", "coach_bram"))
    league_id, team_id, _, _ = _ids(app)
    path = f"/leagues/{league_id}/standings"
    anna_token = TOKEN.search(_get(anna, path))
    bram_token = TOKEN.search(_get(bram, path))
    assert anna_token is not None
    assert bram_token is not None
    # The language switcher takes a signed-in visitor's CSRF token.
    switch = {"language": "en", "next": path}
    refused = bram.post("/language", data={**switch, "csrf_token": anna_token.group(1)})
    assert refused.status_code == 400
    taken = anna.post("/language", data={**switch, "csrf_token": anna_token.group(1)})
    assert taken.status_code == 302

    def one_time_tokens() -> list[str]:
        return re.findall(
            r'name="token" type="hidden" value="([^"]*)"', _get(anna, f"/teams/{team_id}")
        )

    first, second = one_time_tokens(), one_time_tokens()
    assert first
    assert second
    assert not set(first) & set(second)


def _without_tokens(page: str) -> str:
    return TOKEN.sub('name="token" value=""', page)


def test_a_signed_in_coach_sees_every_kind_of_write_at_once(site: tuple[Flask, str]) -> None:
    app, password = site
    anna = _sign_in(app, "coach_anna", password)
    league_id, team_id, _, _ = _ids(app)
    with app.app_context():
        match_id = db.session.scalar(
            select(Match.id)
            .where(Match.league_id == league_id, Match.state == "scheduled")
            .order_by(Match.id)
        )
        db.session.remove()

    def served() -> dict[str, str]:
        return {path: _without_tokens(_get(anna, path)) for path in _pages(app)}

    def fresh() -> dict[str, str]:
        caching.shared_pages.clear()
        return served()

    def change(action: Callable[[Session, User], object]) -> None:
        with app.app_context():
            commissioner = db.session.scalar(select(User).where(User.username == DEMO_COMMISSIONER))
            with unit_of_work() as session:
                action(session, commissioner)
            db.session.remove()

    def report(home: int, away: int) -> matches.MatchReport:
        return matches.MatchReport(
            home=matches.SideReport(score=home, mistake_d6=6, winnings=60_000),
            away=matches.SideReport(score=away, mistake_d6=6, winnings=60_000),
            fan_attendance=4,
        )

    def rename_league(s: Session, c: User) -> None:
        league = access.get_league(s, league_id)
        settings = leagues.LeagueSettings(
            "Renamed Shared League", league.ruleset_id, league.starting_treasury
        )
        leagues.update_settings(s, c, league.id, settings)

    changes: list[tuple[str, Callable[[Session, User], object], str, str]] = [
        (
            "result",
            lambda s, c: matches.record_result(
                s, c, match_id, with_match_touchdowns(report(2, 0), match_id)
            ),
            f"/leagues/{league_id}/fixtures",
            "2\u20130",  # the score, with an en dash
        ),
        (
            "hire",
            lambda s, c: teams.hire_player(
                s, c, team_id, teams.HirePlayer("human-lineman", "Shared Newbie")
            ),
            f"/teams/{team_id}",
            "Shared Newbie",
        ),
        ("settings change", rename_league, f"/leagues/{league_id}", "Renamed Shared League"),
        (
            "void",
            lambda s, c: matches.void_match(s, c, match_id),
            f"/leagues/{league_id}/fixtures",
            "",
        ),
    ]
    before = served()
    for kind, action, where, shown in changes:
        change(action)
        after = served()
        assert after != before, f"{kind}: no page changed"
        assert shown in after[where], f"{kind}: not shown on {where}"
        assert after == fresh(), f"{kind}: a stale page was served"
        before = after


def test_a_change_committed_without_a_flush_is_a_new_revision(site: tuple[Flask, str]) -> None:
    """A shared page is current only if every committed write changes the revision, a
    change that reaches the database at the commit's own flush too."""
    app, _ = site
    _, _, player_id, _ = _ids(app)
    with app.app_context():
        before = current_revision(db.session())
        player = db.session.get(Player, player_id)
        assert player is not None
        player.name = "Renamed At Commit"
        db.session.commit()
        assert current_revision(db.session()) != before
        db.session.remove()
