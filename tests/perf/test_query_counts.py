"""Queries per request on the heavy pages stay at a small fixed number (no N+1).

The same limits hold on the tiny demo league (2 teams, 1 result) and on the
large league set of `seed-demo --large` (200 teams, 10 seasons, 6,600 results
and the dead, replacements and advancements that come with them): a page that
loaded per team, per player or per match would need more queries on the large
one.
The limits are the measured counts (a change that adds a query shows here), at most 8
for every page a visitor gets between two writes. Signed-out visitors get the league
pages from the page cache (one query: the data revision). The signed-in commissioner's
requests are counted twice: from the shared body (`SHARED`, what they get between
writes) and rendering it, which happens once per write, page and variant: at most 8
too, the signed-in user, the data revision and the viewer's membership (with the
team's coach) included, the commissioner's to-do list on the league home as well.
"""

from __future__ import annotations

import pytest

from league import caching
from tests.perf.conftest import Measured, counting

#: page -> (path template, signed in as the commissioner, most queries allowed)
PAGES = {
    "league home (anonymous: cached)": ("/leagues/{league}", False, 1),
    "league home (commissioner: full page)": ("/leagues/{league}", True, 8),
    "standings page (anonymous: cached)": ("/leagues/{league}/standings", False, 1),
    # Two more than the table alone: the coaches' ratings (every played game of the
    # league) and the race chart (the season's results round by round).
    "standings page (commissioner)": ("/leagues/{league}/standings", True, 8),
    "fixtures page (anonymous: cached)": ("/leagues/{league}/fixtures", False, 1),
    "fixtures page (commissioner)": ("/leagues/{league}/fixtures", True, 7),
    "statistics (anonymous: cached)": ("/leagues/{league}/stats", False, 1),
    "statistics and graveyard (commissioner)": ("/leagues/{league}/stats", True, 8),
    "records (anonymous: cached)": ("/leagues/{league}/records", False, 1),
    # The union of every top list, the results in order (unbeaten runs), today's rosters.
    "records and hall of fame (commissioner)": ("/leagues/{league}/records", True, 7),
    "team roster (anonymous: fingerprint)": ("/teams/{team}", False, 2),
    # The league's seasons: whether an off-season re-draft is open (link on the page).
    "team roster (commissioner: full page)": ("/teams/{team}", True, 8),
    "player page (anonymous: cached)": ("/players/{player}", False, 1),
    # The dice log adds one: the player's rolls with the advancements that used them.
    "player page (commissioner)": ("/players/{player}", True, 8),
    # One more than the roster alone: the match's journeymen, mercenaries and star players.
    "match report form": ("/matches/{match}/report", True, 7),
    "match page": ("/matches/{match}", False, 8),
    # The match with both rosters (as its page), the times offered, who may offer them.
    "time to play (commissioner)": ("/matches/{match}/time", True, 7),
    "rules browser: skills": ("/rules/bb2025/skills", False, 0),
    "rules browser: team type": ("/rules/bb2025/teams/human", False, 0),
    "roster API": ("/api/v1/teams/{team}", False, 6),
    # The entries with their coaches in one query, the rounds paired, the last round.
    "tournament entries (commissioner)": ("/leagues/{league}/entries", True, 8),
    "entry's club and rating (commissioner)": ("/leagues/{league}/entries/{team}", True, 8),
    "swap pairings (commissioner)": ("/leagues/{league}/entries/swap", True, 8),
    "entries API": ("/api/v1/leagues/{league}/entries", False, 8),
    # The NAF report's confirmation page: the league, the season's games with their
    # teams, coaches, rosters (for the team values) and players' lines.
    "NAF report page (commissioner)": ("/leagues/{league}/naf-report", True, 8),
    # Tournament day: the projector's page, the organiser's rosters and round entry.
    "big screen (anonymous: cached)": ("/leagues/{league}/screen", False, 1),
    "big screen (commissioner)": ("/leagues/{league}/screen", True, 8),
    "rosters of the event (commissioner)": ("/leagues/{league}/event/rosters", True, 8),
    "round entry (commissioner)": ("/leagues/{league}/fixtures/rounds/1/results", True, 8),
    # The coach, their teams, every played game (the ratings), their teams' casualties.
    "coach profile (anonymous: cached)": ("/coaches/{coach}", False, 1),
    "coach profile (commissioner)": ("/coaches/{coach}", True, 8),
    # Kept until the next write (the data revision): one query between writes.
    "coach API (kept)": ("/api/v1/coaches/{coach}", False, 1),
    "team history (commissioner)": ("/teams/{team}/history", True, 8),
    "team value chart (SVG)": ("/teams/{team}/charts/value.svg", True, 4),
    "team position chart (SVG)": ("/teams/{team}/charts/position.svg", True, 6),
    "player SPP chart (SVG)": ("/players/{player}/charts/spp.svg", True, 6),
    # The question before a team's logo is removed: the user, the team (its roster and
    # ledger come with it, as on every page that manages it) and its league.
    "remove the logo (question)": ("/teams/{team}/logo/remove", True, 6),
    # The league (members, teams, seasons), the signed-in user, the revision, the connection.
    "Discord settings (commissioner)": ("/leagues/{league}/discord", True, 6),
}


def _path(template: str, measured: Measured) -> str:
    return template.format(
        league=measured.league_id,
        team=measured.team_id,
        player=measured.player_id,
        match=measured.match_id,
        coach=measured.coach,
    )


@pytest.mark.parametrize("page", PAGES)
def test_queries_per_request(measured: Measured, page: str) -> None:
    template, signed_in, limit = PAGES[page]
    path = _path(template, measured)
    client = measured.client(signed_in=signed_in)
    assert client.get(path).status_code == 200  # warm up (ruleset caches, templates)
    caching.shared_pages.clear()  # a signed-in page is rendered, not read from memory
    with counting(measured.engine) as counter:
        response = client.get(path)
    assert response.status_code == 200
    statements = "\n".join(counter.statements)
    assert counter.count <= limit, f"{page}: {counter.count} queries\n{statements}"


#: page -> (path template, most queries allowed): signed in as the commissioner, the body
#: from memory. The signed-in user, the data revision, then what the variant asks: the
#: user's membership (with the coach of the team, or of the player's team, for theirs).
SHARED = {
    "league home": ("/leagues/{league}", 3),
    "standings page": ("/leagues/{league}/standings", 3),
    "fixtures page": ("/leagues/{league}/fixtures", 3),
    "statistics and graveyard": ("/leagues/{league}/stats", 3),
    "records and hall of fame": ("/leagues/{league}/records", 3),
    "team roster": ("/teams/{team}", 3),
    "player page": ("/players/{player}", 3),
    "coach profile": ("/coaches/{coach}", 2),
}


@pytest.mark.parametrize("page", SHARED)
def test_queries_per_signed_in_request_from_the_shared_body(measured: Measured, page: str) -> None:
    template, limit = SHARED[page]
    path = _path(template, measured)
    client = measured.client(signed_in=True)
    assert client.get(path).status_code == 200  # renders and keeps the shared body
    with counting(measured.engine) as counter:
        response = client.get(path)
    assert response.status_code == 200
    statements = "\n".join(counter.statements)
    assert counter.count <= limit, f"{page}: {counter.count} queries\n{statements}"


def test_the_leagues_differ_in_size(measured: Measured) -> None:
    """Guard the premise: the mid-size league really has much more of everything."""
    rows = measured.client().get(f"/api/v1/leagues/{measured.league_id}/standings").get_json()
    played = sum(row["played"] for row in rows["rows"])
    if len(rows["rows"]) == 2:  # the tiny demo league
        assert played == 2
    else:  # 200 teams shared by four leagues; half of the last season played
        assert len(rows["rows"]) == 50
        assert played >= 50 * 3


def test_the_records_page_stays_small(measured: Measured) -> None:
    """Each record shows its top five (and ten seasons of champions): the page of the
    large league (ten seasons, thousands of results) stays under 150 KB, all time or one
    season."""
    client = measured.client(signed_in=True)
    for query in ("", "?scope=season"):
        response = client.get(f"/leagues/{measured.league_id}/records{query}")
        assert response.status_code == 200
        assert len(response.data) < 150_000, (query, len(response.data))


#: Issue 28: no HTML page grows without bound; on the large set each stays under this.
MOST_HTML_BYTES = 150 * 1024


@pytest.mark.parametrize(
    "page",
    [name for name, (path, signed_in, _) in PAGES.items() if signed_in and "." not in path],
)
def test_no_html_page_is_over_150_kb(measured: Measured, page: str) -> None:
    """The pages a signed-in commissioner sees, rendered in full (the biggest variant): the
    long lists (players, graveyard, fixtures, history, ledger) come a page at a time."""
    template, _, _ = PAGES[page]
    client = measured.client(signed_in=True)
    caching.shared_pages.clear()
    response = client.get(_path(template, measured))
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert len(response.data) <= MOST_HTML_BYTES, f"{page}: {len(response.data):,} bytes"
