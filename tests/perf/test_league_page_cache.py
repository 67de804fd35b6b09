"""The league pages (home, standings, fixtures, statistics) are cached until the next write.

Their version is the data revision (`models.revision`): every committed write sets a
new token, so a page served from memory is always the page a fresh render gives.
Each kind of change a league sees after a round is checked: a result, its
correction, a void, a hire, an advancement, a settings change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from league import caching
from league.extensions import db
from league.models import DataRevision, League, Match, Player, Team, User
from league.rules import legal_skills
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services import access, advancement, leagues, matches, teams
from league.services.unit_of_work import unit_of_work
from tests.conftest import make_app
from tests.pages import table_rows
from tests.perf.conftest import _database, counting

PAGES = ("", "/standings", "/fixtures", "/stats", "/fixtures/rounds/1")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Flask]:
    with _database("league_cache", tmp_path_factory) as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                seed_demo(session)
            db.session.remove()
        yield app
        with app.app_context():
            db.engine.dispose()


def _league_id(app: Flask) -> int:
    with app.app_context():
        league_id = db.session.scalar(select(League.id).where(League.ruleset_id == "bb2025"))
        db.session.remove()
    return league_id


def _served(app: Flask, league_id: int) -> dict[str, str]:
    pages = {}
    for page in PAGES:
        response = app.test_client().get(f"/leagues/{league_id}{page}")
        assert response.status_code == 200, page
        pages[page] = response.text
    return pages


def _fresh(app: Flask, league_id: int) -> dict[str, str]:
    caching.pages.clear()
    return _served(app, league_id)


def _change(app: Flask, action: Callable[[Session, User], object]) -> None:
    with app.app_context():
        commissioner = db.session.scalar(select(User).where(User.username == DEMO_COMMISSIONER))
        with unit_of_work() as session:
            action(session, commissioner)
        db.session.remove()


def test_a_cached_league_page_costs_one_query(site: Flask) -> None:
    league_id = _league_id(site)
    _served(site, league_id)
    with site.app_context():
        engine = db.engine
    for page in PAGES:
        with counting(engine) as counter:
            assert site.test_client().get(f"/leagues/{league_id}{page}").status_code == 200
        assert counter.count == 1, page  # the data revision, nothing else


def test_a_read_leaves_the_revision_alone_and_a_write_changes_it(site: Flask) -> None:
    def token() -> str:
        with site.app_context():
            found = db.session.scalar(select(DataRevision.token))
            db.session.remove()
        return found

    before = token()
    _served(site, _league_id(site))
    assert token() == before
    _change(site, lambda s, c: teams.rename_player(s, c, _any_player(s), "Read Not Write", 99))
    assert token() != before


def _any_player(session: Session) -> int:
    return session.scalar(select(Player.id).order_by(Player.id))


def test_every_kind_of_change_shows_on_the_cached_pages(site: Flask) -> None:
    league_id = _league_id(site)
    with site.app_context():
        match = db.session.scalar(
            select(Match).where(Match.league_id == league_id, Match.state == "scheduled")
        )
        match_id, home_id = match.id, match.side("home").team_id
        # Each team's touchdowns are its last player's (the demo's first result hurt a first).
        scorers = {s.side: max(s.team.players, key=lambda p: p.number).id for s in match.sides}
        home_name = db.session.get(Team, home_id).name
        db.session.remove()

    def report(home: int, away: int) -> matches.MatchReport:
        touchdowns = (("home", home), ("away", away))
        return matches.MatchReport(
            home=matches.SideReport(score=home, mistake_d6=6, winnings=60_000),
            away=matches.SideReport(score=away, mistake_d6=6, winnings=60_000),
            players=tuple(matches.PlayerEvents(scorers[s], td=n) for s, n in touchdowns if n),
            fan_attendance=4,
        )

    def home_row(pages: dict[str, str]) -> list[str]:
        """The home team's figures, without its coach's rating (the last column)."""
        rows = table_rows(pages["/standings"], "<table")
        return next(row for row in rows if home_name in " ".join(row))[:-1]

    def advance(s: Session, c: User) -> None:
        player = s.scalar(
            select(Player).where(Player.team_id == home_id).order_by(Player.spp_earned.desc())
        )
        team = access.get_team(s, home_id)
        position = access.team_type_of(team).position(player.position_id)
        held = advancement.held_skills(position, player)
        skill = next(
            k
            for k in legal_skills(access.team_ruleset(team), position, held, "chosen_primary")
            if k.category in position.primary and k.name not in position.skill_names
        )
        advancement.buy_advancement(
            s, c, player.id, advancement.AdvancementRequest("chosen_primary", skill=skill.name)
        )

    def rename_league(s: Session, c: User) -> None:
        league = access.get_league(s, league_id)
        settings = leagues.LeagueSettings(
            "Renamed Cached League", league.ruleset_id, league.starting_treasury
        )
        leagues.update_settings(s, c, league.id, settings)

    changes: list[tuple[str, Callable[[Session, User], object]]] = [
        ("result", lambda s, c: matches.record_result(s, c, match_id, report(2, 0))),
        ("correction", lambda s, c: matches.record_result(s, c, match_id, report(0, 1))),
        ("void", lambda s, c: matches.void_match(s, c, match_id)),
        (
            "hire",
            lambda s, c: teams.hire_player(
                s, c, home_id, teams.HirePlayer("human-lineman", "Cache Newbie")
            ),
        ),
        ("advancement", advance),
        ("settings change", rename_league),
    ]
    before = _served(site, league_id)
    history = [home_row(before)[2:]]
    for kind, action in changes:
        _change(site, action)
        served = _served(site, league_id)
        assert served != before, f"{kind}: no league page changed"
        assert served == _fresh(site, league_id), f"{kind}: a stale page was served"
        history.append(home_row(served)[2:])
        before = served
    assert "Renamed Cached League" in before["/standings"]
    # The home team's row (played, won, drawn, lost, TD for, against, difference, ..., points)
    # follows the result, its correction and the void; a win is worth 3 points in the demo
    # league's settings, a loss 0. The demo's one result was a 1-2 loss.
    lost_once = ["1", "0", "0", "1", "1", "2", "-1", "1", "0", "+1", "0"]
    assert history == [
        lost_once,
        ["2", "1", "0", "1", "3", "2", "+1", "1", "0", "+1", "3"],  # won 2-0
        ["2", "0", "0", "2", "1", "3", "-2", "1", "0", "+1", "0"],  # corrected to 0-1
        lost_once,  # voided: the match no longer counts
        lost_once,  # a hire, an advancement, a new name: no result changes
        lost_once,
        lost_once,
    ]
