"""The records page and GET /api/v1/leagues/{id}/records (docs/api.md, Leagues)."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user

API = "/api/v1"
HUMANS = (("human-lineman", 11),)


def _league_with_a_result():
    """Amblers 3-1 Bruisers: the Amblers' first player 3 TD (9 SPP at 3 a touchdown,
    BB2025), the Bruisers' first 1 TD."""
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen <b>Bruisers</b>", HUMANS)
    scorer = min(home.players, key=lambda p: p.number)
    other = min(away.players, key=lambda p: p.number)
    report = MatchReport(
        home=SideReport(score=3, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(PlayerEvents(scorer.id, td=3), PlayerEvents(other.id, td=1)),
    )
    with unit_of_work() as session:
        match = matches.record_new_match(session, boss, league.id, home.id, away.id, report)
        match_id = match.id
    return league, home, away, scorer, match_id


def test_the_api_answers_a_seasons_records_and_all_time(client: FlaskClient) -> None:
    league, home, _away, scorer, match_id = _league_with_a_result()
    body = client.get(f"{API}/leagues/{league.id}/records?scope=season").json
    assert (body["scope"], body["season_number"], body["matches_played"]) == ("season", 1, 1)
    boards = {b["code"]: b for b in body["player_records"]}
    assert "td_career" not in boards  # a career is all time
    top = boards["td_match"]["entries"][0]
    assert (top["rank"], top["value"], top["player_id"], top["team_id"], top["match_id"]) == (
        1,
        3,
        scorer.id,
        home.id,
        match_id,
    )
    win = next(b for b in body["team_records"] if b["code"] == "biggest_win")["entries"][0]
    assert (win["value"], win["team_name"], win["score_for"], win["score_against"]) == (
        2,
        "Altdorf Amblers",
        3,
        1,
    )
    everything = client.get(f"{API}/leagues/{league.id}/records?scope=all").json
    assert everything["scope"] == "all"
    assert everything["season_number"] is None
    career = next(b for b in everything["player_records"] if b["code"] == "spp_career")
    assert career["entries"][0]["value"] == 9  # 3 TD x 3 SPP
    # Without a scope: all time; with only a season: that season.
    assert client.get(f"{API}/leagues/{league.id}/records").json["scope"] == "all"
    assert client.get(f"{API}/leagues/{league.id}/records?season=1").json["scope"] == "season"


def test_the_api_refuses_a_bad_scope_or_season(client: FlaskClient) -> None:
    league, *_ = _league_with_a_result()
    bad = client.get(f"{API}/leagues/{league.id}/records?scope=ever")
    assert bad.status_code == 400
    assert bad.json["error"] == {
        "code": "invalid_field",
        "message": "'scope' must be one of: season, all.",
    }
    bad_season = client.get(f"{API}/leagues/{league.id}/records?scope=season&season=x")
    assert bad_season.status_code == 400
    assert bad_season.json["error"]["message"] == "'season' must be a season number."
    assert client.get(f"{API}/leagues/{league.id}/records?scope=season&season=9").status_code == 404
    assert client.get(f"{API}/leagues/999999/records").status_code == 404


def test_the_records_page_links_players_matches_and_teams(client: FlaskClient) -> None:
    league, home, _away, scorer, match_id = _league_with_a_result()
    page = client.get(f"/leagues/{league.id}/records")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'href="/players/{scorer.id}"' in html
    assert f'href="/matches/{match_id}"' in html
    assert f'href="/teams/{home.id}"' in html
    assert "Bögenhafen &lt;b&gt;Bruisers&lt;/b&gt;" in html  # escaped
    assert "<b>Bruisers</b>" not in html
    stats = client.get(f"/leagues/{league.id}/stats").get_data(as_text=True)
    assert f'href="/leagues/{league.id}/records"' in stats


def test_an_empty_league_explains_its_records(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    html = client.get(f"/leagues/{league.id}/records").get_data(as_text=True)
    assert "No matches played yet: records appear after the first result." in html
    assert "No season has closed yet" in html
    season = client.get(f"/leagues/{league.id}/records?scope=season").get_data(as_text=True)
    assert "This season has no result yet" in season
