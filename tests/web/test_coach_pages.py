"""Coach profiles, ratings in the table, and the charts (escaped, well-formed SVG).

Ratings by the NAF ranking formula: two coaches at 150 in a two-coach league,
K = 2 x sqrt(2) = 2.828427; a win moves each by 2.828427 x 0.5 = 1.414214.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # our own responses, parsed to prove them well-formed

import pytest
from sqlalchemy import select

from league.extensions import db
from league.models import Team, User
from league.services import matches
from league.services.advancement import AdvancementRequest, buy_advancement
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user, with_touchdowns
from tests.pages import login, text_of

HOSTILE = '<script>alert("x")</script> & \'Co\' "Q"'
HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))
SVG = "{http://www.w3.org/2000/svg}"


def parse(document: str | bytes) -> ET.Element:
    """The SVG as XML (this app's own output, not untrusted input): fails unless well-formed."""
    return ET.fromstring(document)  # noqa: S314


@pytest.fixture
def played(app):
    commissioner = make_user("commish")
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    hostile = make_active_team(anna, league, "human", HOSTILE, HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
    with unit_of_work() as session:
        fixtures = [
            matches.schedule_match(
                session, commissioner, league.id, hostile.id, orcs.id, round_number=n
            )
            for n in (1, 2)
        ]
        ids = [fixture.id for fixture in fixtures]
    for match_id, (home, away) in zip(ids, ((2, 1), (1, 1)), strict=True):
        report = with_touchdowns(
            MatchReport(home=SideReport(score=home), away=SideReport(score=away)), hostile, orcs
        )
        with unit_of_work() as session:
            matches.record_result(session, commissioner, match_id, report)
    return league, hostile, orcs, ids


def _no_raw_hostile_text(body: str) -> None:
    assert "<script>alert" not in body
    assert "&lt;script&gt;alert" in body


def test_the_profile_page_shows_teams_record_and_rating(client, played) -> None:
    league, hostile, _orcs, _ids = played
    page = client.get("/coaches/anna")
    assert page.status_code == 200
    body = page.text
    _no_raw_hostile_text(body)
    # Win 2-1 then a draw 1-1: W/D/L 1/1/0, touchdowns 3 for, 2 against.
    assert text_of(re.search(r'data-testid="record">(.*?)</dd>', body).group(1)) == "1 / 1 / 0"
    assert text_of(re.search(r'data-testid="touchdowns">(.*?)</dd>', body).group(1)) == "3 / 2"
    # 151.414214 after the win; the draw: expected 1 / (10^(-2.828427/150) + 1) = 0.510853,
    # 151.414214 + 2.828427 x (0.5 - 0.510853) = 151.383517, shown as 151.4.
    assert text_of(re.search(r'data-testid="site-rating">(.*?)</dd>', body).group(1)) == "151.4"
    assert f'href="/teams/{hostile.id}"' in body
    assert f'href="/leagues/{league.id}"' in body


def test_an_unknown_coach_is_404(client, app) -> None:
    assert client.get("/coaches/nobody").status_code == 404


def test_team_page_and_members_link_to_the_coach(client, played) -> None:
    league, hostile, _orcs, _ids = played
    assert 'href="/coaches/anna"' in client.get(f"/teams/{hostile.id}").text
    login(client, "commish")
    assert 'href="/coaches/anna"' in client.get(f"/leagues/{league.id}/members").text


def test_the_standings_show_ratings_and_the_race(client, played) -> None:
    league, _hostile, _orcs, _ids = played
    body = client.get(f"/leagues/{league.id}/standings").text
    _no_raw_hostile_text(body)
    ratings = [text_of(cell) for cell in re.findall(r'data-testid="coach-rating">(.*?)</td>', body)]
    # anna 151.4 (above), bram 300 - 151.383517 = 148.616483, shown as 148.6.
    assert ratings == ["151.4", "148.6"]
    svg = re.search(r"<svg .*?</svg>", body, re.S).group(0)
    root = parse(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
    assert root.find(f"{SVG}title").text.startswith("The race")
    # The hostile name survives as text, escaped in the markup: whole in the series'
    # title, and in the legend under the chart (HTML on a page).
    assert HOSTILE in [title.text for title in root.iter(f"{SVG}title")]
    legend = re.search(r'<ul class="chart-legend">(.*?)</ul>', body, re.S).group(1)
    assert HOSTILE in text_of(legend)


def test_a_void_changes_the_ratings_in_the_table(client, played, app) -> None:
    league, _hostile, _orcs, ids = played
    commish = db.session.scalar(select(User).where(User.username == "commish"))
    with unit_of_work() as session:
        matches.void_match(session, commish, ids[0])
    body = client.get(f"/leagues/{league.id}/standings").text
    ratings = [text_of(cell) for cell in re.findall(r'data-testid="coach-rating">(.*?)</td>', body)]
    # Only the draw between equals is left: both stay at 150.
    assert ratings == ["150", "150"]


@pytest.mark.parametrize("name", ["value", "position"])
def test_team_charts_are_well_formed_escaped_svg(client, played, name) -> None:
    _league, hostile, _orcs, _ids = played
    response = client.get(f"/teams/{hostile.id}/charts/{name}.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    _no_raw_hostile_text(response.text)
    root = parse(response.data)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert HOSTILE in root.find(f"{SVG}title").text


def test_the_position_chart_follows_the_rounds(client, played) -> None:
    _league, hostile, _orcs, _ids = played
    root = parse(client.get(f"/teams/{hostile.id}/charts/position.svg").data)
    # Round 1: a 2-1 win, first; round 2: a draw, still first on points (4 to 1).
    titles = [
        c.find(f"{SVG}title").text
        for c in root.iter(f"{SVG}circle")
        if c.find(f"{SVG}title") is not None
    ]
    assert [t.rsplit(": ", 1)[1] for t in titles] == ["1", "1"]


def test_the_history_page_has_charts_and_tables(client, played) -> None:
    _league, hostile, _orcs, _ids = played
    body = client.get(f"/teams/{hostile.id}/history").text
    _no_raw_hostile_text(body)
    assert 'data-testid="team-value-chart"' in body
    assert 'data-testid="team-position-chart"' in body
    assert "The figures as a table" in body


def test_the_player_page_charts_spp(client, played) -> None:
    _league, hostile, _orcs, _ids = played
    scorer = min((p for p in db.session.get(Team, hostile.id).players), key=lambda p: p.number)
    assert f'src="/players/{scorer.id}/charts/spp.svg"' in client.get(f"/players/{scorer.id}").text
    root = parse(client.get(f"/players/{scorer.id}/charts/spp.svg").data)
    # Three touchdowns over two matches: 2 x 3 SPP, then 1 x 3 SPP (BB2025: 3 SPP a touchdown).
    values = [
        c.find(f"{SVG}title").text.rsplit(": ", 1)[1]
        for c in root.iter(f"{SVG}circle")
        if c.find(f"{SVG}title") is not None
    ]
    assert values == ["6", "9"]


def test_the_coach_api(client, played) -> None:
    league, hostile, _orcs, _ids = played
    body = client.get("/api/v1/coaches/anna").get_json()
    assert body["username"] == "anna"
    # 151.383517 as worked out above (a win, then a draw).
    assert body["rating"] == pytest.approx(151.383517, abs=1e-5)
    assert body["record"] == {
        "played": 2,
        "won": 1,
        "drawn": 1,
        "lost": 0,
        "td_for": 3,
        "td_against": 2,
        "cas_for": 0,
        "cas_against": 0,
    }
    assert [(team["id"], team["name"], team["league_id"]) for team in body["teams"]] == [
        (hostile.id, HOSTILE, league.id)
    ]
    assert body["league_ratings"][0]["k"] == pytest.approx(2.828427, abs=1e-6)


def test_the_coach_api_for_an_unknown_user_is_404(client, app) -> None:
    response = client.get("/api/v1/coaches/nobody")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_an_advancement_is_marked_after_the_match_it_followed(client, app) -> None:
    commissioner, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)

    def play() -> None:
        report = with_touchdowns(
            MatchReport(home=SideReport(score=2), away=SideReport(score=0)), humans, orcs
        )
        with unit_of_work() as session:
            matches.record_new_match(session, commissioner, league.id, humans.id, orcs.id, report)

    play()
    scorer = min(db.session.get(Team, humans.id).players, key=lambda p: p.number)
    # Two touchdowns, 3 SPP each (BB2025): 6 SPP, the price of a chosen primary skill.
    with unit_of_work() as session:
        buy_advancement(
            session, anna, scorer.id, AdvancementRequest(kind="chosen_primary", skill="Block")
        )
    play()
    root = parse(client.get(f"/players/{scorer.id}/charts/spp.svg").data)
    points = [
        c.find(f"{SVG}title").text.rsplit(": ", 1)[1]
        for c in root.iter(f"{SVG}circle")
        if c.find(f"{SVG}title") is not None
    ]
    assert points == ["6", "12"]
    (marker,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker"]
    assert marker.find(f"{SVG}title").text == "1. Block"
    # Drawn on the first match's point (x of step 1 of 2: the plot's left edge, 60).
    assert marker.find(f"{SVG}circle").get("cx") == "60.0"


def test_a_chart_is_kept_until_the_next_write(client, played) -> None:
    _league, hostile, _orcs, ids = played
    url = f"/teams/{hostile.id}/charts/position.svg"
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    commish = db.session.scalar(select(User).where(User.username == "commish"))
    with unit_of_work() as session:
        matches.void_match(session, commish, ids[0])
    # A write: a new ETag, and the chart drawn again (one round played now, a draw).
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert again.data != first.data


def test_the_image_draws_its_own_legend_with_long_names_cut(client, played) -> None:
    _league, hostile, _orcs, _ids = played
    root = parse(client.get(f"/teams/{hostile.id}/charts/position.svg").data)
    # The legend of a standalone image is in the SVG, the name cut to 32 characters.
    assert HOSTILE[:31] + "\u2026" in [text.text for text in root.iter(f"{SVG}text")]


def test_the_coach_api_is_kept_until_a_void_changes_it(client, played) -> None:
    _league, _hostile, _orcs, ids = played
    first = client.get("/api/v1/coaches/anna")
    etag = first.headers["ETag"]
    assert client.get("/api/v1/coaches/anna", headers={"If-None-Match": etag}).status_code == 304
    commish = db.session.scalar(select(User).where(User.username == "commish"))
    with unit_of_work() as session:
        matches.void_match(session, commish, ids[0])
    again = client.get("/api/v1/coaches/anna", headers={"If-None-Match": etag})
    assert again.status_code == 200
    # Only the draw between equals is left: 150.
    assert again.get_json()["rating"] == pytest.approx(150)
