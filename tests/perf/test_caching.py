"""Conditional GETs: ETags and 304s on the public pages; the anonymous roster page cache.

The roster page's ETag is a fingerprint of the team's rows in the database, and
the rendered page is kept under it: every change a service makes to what the
page shows must give a new fingerprint (or visitors would see a stale page).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import select

from league import caching
from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.rules import legal_skills
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services import access, advancement, leagues, matches, teams
from league.services.unit_of_work import unit_of_work
from tests.conftest import make_app
from tests.perf.conftest import _database, counting


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Flask]:
    """The demo leagues in their own database; requests run outside any app context."""
    with _database("caching", tmp_path_factory) as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                seed_demo(session)
            db.session.remove()
        yield app
        with app.app_context():
            db.engine.dispose()


def _ids(app: Flask) -> dict[str, int]:
    with app.app_context():
        league = db.session.scalar(select(League).where(League.ruleset_id == "bb2025"))
        team = db.session.scalar(
            select(Team).where(Team.league_id == league.id, Team.name == "Reikland Reavers")
        )
        ids = {"league": league.id, "team": team.id}
        db.session.remove()
    return ids


def _signed_in(app: Flask):
    client = app.test_client()
    with app.app_context():
        # The session cookie carries the user's session secret (User.get_id).
        secret = db.session.scalar(
            select(User.session_secret).where(User.username == DEMO_COMMISSIONER)
        )
    with client.session_transaction() as session:
        session["_user_id"] = secret
        session["_fresh"] = True
    return client


@pytest.mark.parametrize(
    "path",
    ["/", "/rules/bb2025/skills", "/leagues/{league}", "/leagues/{league}/stats", "/teams/{team}"],
)
def test_public_pages_answer_if_none_match_with_304(site: Flask, path: str) -> None:
    path = path.format(**_ids(site))
    client = site.test_client()
    first = client.get(path)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_a_roster_revalidation_needs_no_rendering(site: Flask) -> None:
    path = f"/teams/{_ids(site)['team']}"
    client = site.test_client()
    etag = client.get(path).headers["ETag"]
    with site.app_context():
        engine = db.engine
    with counting(engine) as counter:
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert counter.count == 2  # the fingerprint, nothing else


def test_the_cached_roster_is_the_rendered_page(site: Flask) -> None:
    path = f"/teams/{_ids(site)['team']}"
    cached = site.test_client().get(path)
    caching.pages.clear()
    fresh = site.test_client().get(path)
    assert cached.data == fresh.data
    assert cached.headers["ETag"] == fresh.headers["ETag"]


def test_the_roster_json_is_fingerprinted_and_cached(site: Flask) -> None:
    path = f"/api/v1/teams/{_ids(site)['team']}"
    client = site.test_client()
    first = client.get(path)
    assert first.status_code == 200
    assert first.mimetype == "application/json"
    assert first.get_json()["name"] == "Reikland Reavers"
    with site.app_context():
        engine = db.engine
    with counting(engine) as counter:
        assert client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert counter.count == 2  # the fingerprint, nothing else
    caching.pages.clear()
    fresh = client.get(path)
    assert fresh.data == first.data
    assert fresh.headers["ETag"] == first.headers["ETag"]
    assert client.get("/api/v1/teams/999999").get_json()["error"]["code"] == "not_found"


def _page(app: Flask, path: str) -> tuple[str, str]:
    response = app.test_client().get(path)
    assert response.status_code == 200
    return response.headers["ETag"], response.text


def test_every_change_to_a_team_gives_its_page_a_new_etag(site: Flask) -> None:
    ids = _ids(site)
    path = f"/teams/{ids['team']}"
    seen = {_page(site, path)[0]}
    api_path = f"/api/v1/teams/{ids['team']}"
    seen_json = {site.test_client().get(api_path).headers["ETag"]}

    def changed(action, text: str) -> None:
        with site.app_context():
            commissioner = db.session.scalar(select(User).where(User.username == DEMO_COMMISSIONER))
            with unit_of_work() as session:
                action(session, commissioner)
            db.session.remove()
        etag, body = _page(site, path)
        assert etag not in seen, text
        assert text in body
        seen.add(etag)
        json_etag = site.test_client().get(api_path).headers["ETag"]
        assert json_etag not in seen_json, text
        seen_json.add(json_etag)

    team_id = ids["team"]

    def scorer(session) -> Player:
        return session.scalar(
            select(Player).where(Player.team_id == team_id).order_by(Player.spp_earned.desc())
        )

    changed(
        lambda s, c: teams.hire_player(s, c, team_id, teams.HirePlayer("human-lineman", "Newbie")),
        "Newbie",
    )
    changed(
        lambda s, c: teams.rename_player(s, c, scorer(s).id, "Renamed Star", 42), "Renamed Star"
    )
    changed(
        lambda s, c: teams.adjust_treasury(s, c, team_id, 200_000, "Sponsorship"), "Sponsorship"
    )
    changed(lambda s, c: teams.buy_team_item(s, c, team_id, "reroll"), "Bought a team re-roll")

    def advance(s, c) -> None:
        player = scorer(s)
        team = access.get_team(s, team_id)
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

    changed(advance, "Renamed Star")
    changed(lambda s, c: advancement.undo_last_advancement(s, c, scorer(s).id), "Renamed Star")

    def record(s, c) -> None:
        match = s.scalar(
            select(Match).where(Match.league_id == ids["league"], Match.state == "scheduled")
        )
        report = matches.MatchReport(
            home=matches.SideReport(score=0, mistake_d6=6, winnings=70_000),
            away=matches.SideReport(score=0, mistake_d6=6, winnings=70_000),
            fan_attendance=4,
        )
        matches.record_result(s, c, match.id, report)

    changed(record, "Winnings, match #")

    def rename_league(s, c) -> None:
        league = access.get_league(s, ids["league"])
        settings = leagues.LeagueSettings(
            "Renamed Demo League", league.ruleset_id, league.starting_treasury
        )
        leagues.update_settings(s, c, league.id, settings)

    changed(rename_league, "Renamed Demo League")


def test_signed_in_visitors_get_their_own_page(site: Flask) -> None:
    path = f"/teams/{_ids(site)['team']}"
    anonymous = site.test_client().get(path)
    assert "Adjust the treasury" not in anonymous.text
    commissioner = _signed_in(site).get(path)
    assert commissioner.status_code == 200
    assert "Adjust the treasury" in commissioner.text
    assert "Adjust the treasury" not in site.test_client().get(path).text


def test_a_pending_message_is_shown_not_cached(site: Flask) -> None:
    path = f"/teams/{_ids(site)['team']}"
    client = site.test_client()
    with client.session_transaction() as session:
        session["_flashes"] = [("info", "A message for this visitor only")]
    assert "A message for this visitor only" in client.get(path).text
    assert "A message for this visitor only" not in site.test_client().get(path).text


def test_the_baseline_page_exists_only_for_the_load_test(site: Flask, tmp_path) -> None:
    assert site.test_client().get("/_bench/baseline").status_code == 404
    bench = make_app(f"sqlite:///{tmp_path / 'bench.sqlite3'}", LEAGUE_BENCH=True)
    with bench.app_context():
        engine = db.engine
    with counting(engine) as counter:
        response = bench.test_client().get("/_bench/baseline")
    assert response.status_code == 200
    assert response.text.count("<tr>") == 16 + 1  # the rows and the head
    assert counter.count == 0
    engine.dispose()


def test_a_changed_template_gives_the_pages_a_new_etag(
    app: Flask, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a deploy that changes a template, browsers must not keep the old page (304).

    The build stamp hashes the app's template folder, here a temporary copy.
    """
    from tests.factories import make_league, make_team, make_user

    coach = make_user("grim")
    team = make_team(coach, make_league(coach))
    templates = tmp_path / "templates"
    shutil.copytree(app.template_folder, templates)
    monkeypatch.setattr(app, "template_folder", str(templates))
    caching.stamp_of_files.cache_clear()
    monkeypatch.setattr(caching, "pages", caching.PageCache())
    client = app.test_client()
    before = client.get(f"/teams/{team.id}")
    assert before.status_code == 200
    assert (
        client.get(
            f"/teams/{team.id}", headers={"If-None-Match": before.headers["ETag"]}
        ).status_code
        == 304
    )

    show = templates / "teams" / "show.html"
    show.write_text(show.read_text() + "{# a new release #}\n")
    caching.stamp_of_files.cache_clear()  # a new process after the deploy

    after = client.get(f"/teams/{team.id}", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert after.headers["ETag"] != before.headers["ETag"]
