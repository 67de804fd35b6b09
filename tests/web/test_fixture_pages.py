"""Fixtures, standings and statistics pages, the forms and the iCalendar feed."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from flask import Flask, url_for
from sqlalchemy import func, select

from league import caching
from league.extensions import db
from league.models import League, Match, Team, User
from league.services import access, fixtures, matches, paging, teams
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.web import fixtures as fixtures_views
from tests.factories import (
    give_scorers,
    make_active_team,
    make_league,
    make_user,
    with_match_touchdowns,
    with_touchdowns,
)
from tests.pages import field_errors, flashes, login, table_rows, text_of

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))

# ---------------------------------------------------------------------------
# Helpers


def match_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Match)) or 0


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def league_with(commissioner: User, coach: User, names: list[str]) -> League:
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        for name in names:
            teams.create_team(session, coach, teams.NewTeam(league.id, name, "human", active=True))
    give_scorers(coach, league)
    return league


def team_ids(league: League) -> dict[str, int]:
    return {t.name: t.id for t in access.get_league(db.session, league.id).teams}


def play(commissioner: User, league: League, home: int, away: int, hs: int, aws: int, *events):
    """A result; the touchdowns `events` leave out go to each team's first player."""
    report = MatchReport(
        home=SideReport(score=hs, mistake_d6=6),
        away=SideReport(score=aws, mistake_d6=6),
        players=events,
    )
    report = with_touchdowns(report, db.session.get(Team, home), db.session.get(Team, away))
    with unit_of_work() as session:
        return matches.record_new_match(session, commissioner, league.id, home, away, report)


# ---------------------------------------------------------------------------
# Empty states


def test_empty_states_explain_what_to_do(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, [])
    page = client.get(f"/leagues/{league.id}/fixtures").text
    assert "No fixtures for Season 1 yet." in text_of(page)
    assert "The commissioner schedules the matches" in text_of(page)
    assert "Generate fixtures" not in page
    standings_page = text_of(client.get(f"/leagues/{league.id}/standings").text)
    assert "No results in Season 1 yet, so every team is level." in standings_page
    assert "Head-to-head: the points the tied teams took" in standings_page
    stats_page = text_of(client.get(f"/leagues/{league.id}/stats").text)
    assert "Leaders and team statistics appear once match results" in stats_page
    assert "The graveyard is empty." in stats_page
    league_page = client.get(f"/leagues/{league.id}").text
    assert "Standings appear once the first match result is entered." in league_page
    assert f'href="/leagues/{league.id}/fixtures"' in league_page
    assert f'href="/leagues/{league.id}/stats"' in league_page

    login(client, "commish")
    page = text_of(client.get(f"/leagues/{league.id}/fixtures").text)
    assert "A schedule needs at least two active teams; bb2025 league has 0." in page
    generate = text_of(client.get(f"/leagues/{league.id}/fixtures/generate").text)
    assert "A schedule needs at least two active teams" in generate


def test_unknown_league_or_season_is_404(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, [])
    assert client.get("/leagues/999/fixtures").status_code == 404
    assert client.get("/leagues/999/fixtures.ics").status_code == 404
    assert client.get(f"/leagues/{league.id}/standings?season=7").status_code == 404
    assert client.get(f"/leagues/{league.id}/stats?season=7").status_code == 404


# ---------------------------------------------------------------------------
# Generating fixtures


def test_commissioner_generates_a_double_round_robin(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo", "Charlie", "Delta"])
    login(client, "commish")
    url = f"/leagues/{league.id}/fixtures/generate"
    page = text_of(client.get(url).text)
    assert "Single round robin: 3 rounds, 6 matches" in page
    assert "Double round robin: 6 rounds, 12 matches" in page
    assert "Teams (4): Alpha, Bravo, Charlie, and Delta." in page

    form = {"format": "double", "start_date": "2025-09-06", "days_between": "7"}
    refused = client.post(url, data=form)
    assert refused.status_code == 200
    assert field_errors(refused.text, "confirm") == ["Tick the box to confirm."]
    assert match_count() == 0

    bad = client.post(url, data={**form, "days_between": "0", "confirm": "y"})
    assert field_errors(bad.text, "days_between") == ["From 1 to 365 days."]
    assert match_count() == 0

    done = client.post(url, data={**form, "confirm": "y"})
    assert done.status_code == 302
    assert done.headers["Location"].endswith(f"/leagues/{league.id}/fixtures")
    page = client.get(f"/leagues/{league.id}/fixtures").text
    assert flashes(page) == ["12 fixtures created in 6 rounds."]
    assert match_count() == 12
    for number, day in ((1, "Sep 6, 2025"), (2, "Sep 13, 2025"), (6, "Oct 11, 2025")):
        heading = re.search(rf'<h2 id="round-{number}">(.*?)</h2>', page, re.S)
        assert heading is not None
        assert text_of(heading.group(1)) == f"Round {number} · {day}"
    assert len(table_rows(page, 'id="round-1"')) == 2
    assert "Generate fixtures" not in text_of(page)  # the season has its schedule now

    again = client.get(url).text
    assert "Season 1 already has 12 league matches" in text_of(again)
    refused = client.post(url, data={**form, "confirm": "y"})
    assert "Season 1 already has 12 league matches" in text_of(refused.text)
    assert match_count() == 12


def test_each_round_has_its_own_page(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo", "Charlie", "Delta", "Echo"])
    login(client, "commish")
    form = {"format": "single", "start_date": "2025-09-06", "days_between": "7", "confirm": "y"}
    assert client.post(f"/leagues/{league.id}/fixtures/generate", data=form).status_code == 302
    client.post("/logout")

    listing = client.get(f"/leagues/{league.id}/fixtures").text
    assert f'href="/leagues/{league.id}/fixtures/rounds/2?season=1">Round 2</a>' in listing
    page = client.get(f"/leagues/{league.id}/fixtures/rounds/2").text
    heading = re.search(r'<h2 id="round-2">(.*?)</h2>', page, re.S)
    assert heading is not None
    assert text_of(heading.group(1)) == "Round 2 · Sep 13, 2025"
    assert 'id="round-1"' not in page
    assert 'id="round-3"' not in page
    assert len(table_rows(page, 'id="round-2"')) == 2  # five teams: two matches and a bye
    assert "Bye:" in page
    assert re.search(r'rounds/1\?season=1" rel="prev">\W*Round 1</a>', page)
    assert re.search(r'rounds/3\?season=1" rel="next">Round 3\W*</a>', page)
    last = client.get(f"/leagues/{league.id}/fixtures/rounds/5").text
    assert re.search(r'rel="prev">\W*Round 4</a>', last)
    assert 'rel="next"' not in last
    assert client.get(f"/leagues/{league.id}/fixtures/rounds/6").status_code == 404
    assert client.get(f"/leagues/{league.id}/fixtures/rounds/1?season=9").status_code == 404


def test_a_long_season_comes_a_few_rounds_at_a_time(
    client, commissioner, coach, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages of whole rounds, as many as fit in FIXTURES_PAGE matches (here two rounds of
    two matches), the round in play's page first; every round linked from every page."""
    league = league_with(commissioner, coach, ["Alpha", "Bravo", "Charlie", "Delta", "Echo"])
    with unit_of_work() as session:
        fixtures.generate_fixtures(
            session, commissioner, league.id, False, date(2025, 9, 6), shuffle=False
        )
    path = f"/leagues/{league.id}/fixtures"
    whole = client.get(path).text
    assert [int(n) for n in re.findall(r'<h2 id="round-(\d)">', whole)] == [1, 2, 3, 4, 5]
    assert "Next page" not in whole  # 10 matches: one page

    monkeypatch.setattr(fixtures_views, "FIXTURES_PAGE", 4)
    caching.pages.clear()  # the page above was kept at this revision

    def rounds_on(page: str) -> list[int]:
        return [int(n) for n in re.findall(r'<h2 id="round-(\d)">', page)]

    # Nothing played: the first round is in play.
    first = client.get(path).text
    assert rounds_on(first) == [1, 2]
    assert "1 to 2 of 5" in text_of(first)
    assert f'href="{path}?rounds=2" rel="next"' in first
    assert 'rel="prev"' not in first
    for number, page_number in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3)):
        link = "" if page_number == 1 else f"{path}?rounds={page_number}"
        assert f'href="{link}#round-{number}"' in first  # every round, from every page
    middle = client.get(f"{path}?rounds=2").text
    assert rounds_on(middle) == [3, 4]
    assert f'href="{path}?rounds=1" rel="prev"' in middle
    assert f'href="{path}?rounds=3" rel="next"' in middle
    assert table_rows(middle, 'id="round-3"') == table_rows(whole, 'id="round-3"')
    last = client.get(f"{path}?rounds=3").text
    assert rounds_on(last) == [5]
    assert 'rel="next"' not in last
    # A page number out of range, or not a number, gives the nearest page (as other lists).
    for asked, shown in (("0", [1, 2]), ("99", [5]), ("two", [1, 2])):
        page = client.get(f"{path}?rounds={asked}")
        assert page.status_code == 200
        assert rounds_on(page.text) == shown

    # Round 1 and 2 played: the page of round 3 comes first.
    for match in db.session.scalars(select(Match).where(Match.round <= 2)):
        play_fixture(commissioner, match.id)
    assert rounds_on(client.get(path).text) == [3, 4]


def play_fixture(commissioner: User, match_id: int) -> None:
    report = MatchReport(home=SideReport(score=1), away=SideReport(score=0))
    with unit_of_work() as session:
        matches.record_result(
            session, commissioner, match_id, with_match_touchdowns(report, match_id)
        )


def test_only_commissioners_generate_or_add(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo"])
    generate = f"/leagues/{league.id}/fixtures/generate"
    new = f"/leagues/{league.id}/fixtures/new"
    assert client.get(generate).status_code == 302  # to the log-in page
    login(client, "anna")
    assert client.get(generate).status_code == 403
    assert client.post(generate, data={"format": "single", "confirm": "y"}).status_code == 403
    assert client.get(new).status_code == 403
    ids = team_ids(league)
    assert (
        client.post(new, data={"home_team": ids["Alpha"], "away_team": ids["Bravo"]}).status_code
        == 403
    )
    assert match_count() == 0
    page = client.get(f"/leagues/{league.id}/fixtures").text
    assert "Add a fixture" not in page


def test_generating_needs_the_csrf_token(app: Flask, client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo"])
    login(client, "commish")
    app.config["WTF_CSRF_ENABLED"] = True
    response = client.post(
        f"/leagues/{league.id}/fixtures/generate", data={"format": "single", "confirm": "y"}
    )
    assert response.status_code == 400
    assert match_count() == 0


# ---------------------------------------------------------------------------
# Adding one fixture


def test_add_a_fixture_by_hand(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo"])
    with unit_of_work() as session:
        teams.create_team(session, coach, teams.NewTeam(league.id, "Drafting", "orc"))
    ids = team_ids(league)
    login(client, "commish")
    url = f"/leagues/{league.id}/fixtures/new"
    page = client.get(url).text
    assert "Drafting" not in page  # only active teams play

    same = client.post(url, data={"home_team": ids["Alpha"], "away_team": ids["Alpha"]})
    assert field_errors(same.text, "away_team") == ["A team cannot play itself."]
    missing = client.post(url, data={"home_team": "0", "away_team": ids["Bravo"]})
    assert field_errors(missing.text, "home_team") == ["Choose the home team."]
    bad_round = client.post(
        url, data={"home_team": ids["Alpha"], "away_team": ids["Bravo"], "round_number": "0"}
    )
    assert field_errors(bad_round.text, "round_number") == ["A round from 1 to 999."]
    assert match_count() == 0

    done = client.post(
        url,
        data={
            "home_team": ids["Bravo"],
            "away_team": ids["Alpha"],
            "scheduled_for": "2025-10-04",
            "round_number": "2",
        },
    )
    assert done.status_code == 302
    page = client.get(f"/leagues/{league.id}/fixtures").text
    assert flashes(page) == ["Fixture added: Bravo vs Alpha."]
    rows = table_rows(page, 'id="round-2"')
    assert [row[:4] for row in rows] == [["Sat, Oct 4, 2025", "Bravo", "v", "Alpha"]]

    client.post(url, data={"home_team": ids["Alpha"], "away_team": ids["Bravo"], "friendly": "y"})
    page = client.get(f"/leagues/{league.id}/fixtures").text
    rows = table_rows(page, 'id="other-matches"')
    assert [row[:4] for row in rows] == [["no date", "Alpha", "v", "Bravo friendly"]]
    # A hand-added league fixture means the season is being scheduled by hand.
    assert "Generate fixtures" not in text_of(page)


# ---------------------------------------------------------------------------
# Results and the "enter result" links


def test_fixture_list_shows_results_and_match_numbers(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo", "Charlie"])
    with unit_of_work() as session:
        fixtures.generate_fixtures(
            session, commissioner, league.id, False, date(2025, 3, 1), shuffle=False
        )
    first = db.session.scalar(select(Match).where(Match.round == 1))
    with unit_of_work() as session:
        matches.record_result(
            session,
            commissioner,
            first.id,
            with_match_touchdowns(
                MatchReport(home=SideReport(score=2), away=SideReport(score=1, conceded=True)),
                first.id,
            ),
        )
    page = client.get(f"/leagues/{league.id}/fixtures").text
    rows = table_rows(page, 'id="round-1"')
    # round_robin([Alpha, Bravo, Charlie]): Bravo v Charlie first, Alpha on a bye.
    assert rows == [
        ["Sat, Mar 1, 2025", "Bravo", "2\u20131", "Charlie conceded", f"Match #{first.id}"]
    ]
    assert "Bye: Alpha" in text_of(page)
    second = db.session.scalar(select(Match).where(Match.round == 2))
    # A scheduled fixture links to its pre-match page too.
    assert table_rows(page, 'id="round-2"')[0][4] == f"Match #{second.id} \u00b7 Pre-match"
    assert f'href="/matches/{second.id}/pregame"' in page
    if "matches.report" not in client.application.view_functions:
        assert "Enter result" not in page
    if "matches.show" in client.application.view_functions:
        with client.application.test_request_context():
            show = url_for("matches.show", match_id=first.id)
        assert f'<a href="{show}">Match #{first.id}</a>' in page


def test_enter_result_links_when_the_report_page_exists(
    app: Flask, client, commissioner, coach
) -> None:
    if "matches.report" not in app.view_functions:
        app.add_url_rule(
            "/test-matches/<int:match_id>/report",
            endpoint="matches.report",
            view_func=lambda match_id: "",
        )
    make_user("bram")
    league = league_with(commissioner, coach, ["Alpha", "Bravo"])
    ids = team_ids(league)
    with unit_of_work() as session:
        fixture = matches.schedule_match(
            session, commissioner, league.id, ids["Alpha"], ids["Bravo"]
        )
    with app.test_request_context():
        link = url_for("matches.report", match_id=fixture.id)
    page = client.get(f"/leagues/{league.id}/fixtures").text
    assert link not in page  # anonymous visitors only read
    login(client, "anna")  # coaches both teams
    assert f'<a href="{link}">Enter result</a>' in client.get(f"/leagues/{league.id}/fixtures").text
    client.post("/logout")
    login(client, "commish")
    assert f'<a href="{link}">Enter result</a>' in client.get(f"/leagues/{league.id}/fixtures").text


# ---------------------------------------------------------------------------
# Standings, statistics, graveyard


def test_standings_page_and_league_page_show_the_table(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Aardvarks", "Middle", "Zebras"])
    ids = team_ids(league)
    play(commissioner, league, ids["Zebras"], ids["Middle"], 3, 0)
    play(commissioner, league, ids["Middle"], ids["Aardvarks"], 0, 1)
    # The last column: each team's coach's rating (NAF ranking formula). Both results
    # are between the same coach's teams, which rates nobody: everyone stays at 150.
    expected = [
        ["1", "Zebras", "1", "1", "0", "0", "3", "0", "+3", "0", "0", "0", "3", "150"],
        ["2", "Aardvarks", "1", "1", "0", "0", "1", "0", "+1", "0", "0", "0", "3", "150"],
        ["3", "Middle", "2", "0", "0", "2", "0", "4", "-4", "0", "0", "0", "0", "150"],
    ]
    page = client.get(f"/leagues/{league.id}/standings").text
    assert table_rows(page, 'class="standings"') == expected
    text = text_of(page)
    assert "Zebras ahead of Aardvarks on touchdown difference." in text
    assert "Points: 3 for a win, 1 for a draw, 0 for a loss." in text
    assert "Teams still level after these are listed by name" in text
    league_page = client.get(f"/leagues/{league.id}").text
    # The league's home shows the table without the ratings.
    assert table_rows(league_page, 'class="standings"') == [row[:-1] for row in expected]
    assert "Zebras ahead of Aardvarks on touchdown difference." in text_of(league_page)


def test_coin_toss_ties_show_the_stored_draw(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Delta", "Echo"])
    ids = team_ids(league)
    play(commissioner, league, ids["Echo"], ids["Delta"], 1, 1)
    db.session.get(League, league.id).tie_breakers = ["points", "coin_toss"]
    teams = {t.name: t for t in db.session.get(League, league.id).teams}
    teams["Delta"].coin_toss, teams["Echo"].coin_toss = 31, 704
    db.session.commit()
    page = text_of(client.get(f"/leagues/{league.id}/standings").text)
    assert (
        "Echo ahead of Delta on the coin toss (the server's stored draw: 704 against 31)." in page
    )
    # Stable: the draw is stored, so the next view says the same.
    assert text_of(client.get(f"/leagues/{league.id}/standings").text) == page
    # Level even on the draw: listed by name.
    teams["Echo"].coin_toss = 31
    db.session.commit()
    page = text_of(client.get(f"/leagues/{league.id}/standings").text)
    assert (
        "Delta and Echo are level on every tie-breaker: listed by name (commissioner's choice)."
        in page
    )


def _human_team(coach: User, league: League, name: str) -> Team:
    team = make_active_team(coach, league, "human", name, HUMANS)
    for player in team.players:
        player.name = f"{name[:3]} {player.number}"
    db.session.commit()
    return team


def _stats_league(commissioner, *deaths: int) -> League:
    """Reavers 2-1 Barons (BB2025): Rea 1 two TD and the MVP, Rea 10 two completions, Bar 12
    a TD, a casualty and the MVP; Rea 3 dies, and each Barons number in `deaths`."""
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    reavers = _human_team(anna, league, "Reavers")
    barons = _human_team(bram, league, "Barons")
    r = {p.number: p for p in reavers.players}
    b = {p.number: p for p in barons.players}
    play(
        commissioner,
        league,
        reavers.id,
        barons.id,
        2,
        1,
        PlayerEvents(r[1].id, td=2, mvp=1),  # 6 + 4 = 10 SPP
        PlayerEvents(r[10].id, comp=2),  # 2
        PlayerEvents(b[12].id, td=1, cas=1, mvp=1),  # 3 + 2 + 4 = 9
        PlayerEvents(r[3].id, injury="dead"),
        *(PlayerEvents(b[number].id, injury="dead") for number in deaths),
    )
    return league


def test_stats_page_leaders_teams_and_graveyard(client, commissioner) -> None:
    league = _stats_league(commissioner)
    page = client.get(f"/leagues/{league.id}/stats").text
    assert table_rows(page, 'id="leaders-td"') == [
        ["1", "Rea 1", "Reavers", "2"],
        ["2", "Bar 12", "Barons", "1"],
    ]
    assert table_rows(page, 'id="leaders-spp"') == [
        ["1", "Rea 1", "Reavers", "10"],
        ["2", "Bar 12", "Barons", "9"],
        ["3", "Rea 10", "Reavers", "2"],
    ]
    assert "Nobody yet." in text_of(page[page.index('id="leaders-interceptions"') :])
    assert table_rows(page, 'id="team-stats"') == [
        ["Barons", "1", "1", "1", "0", "0", "1", "9", "0", "0"],
        ["Reavers", "1", "2", "0", "2", "0", "1", "12", "1", "1"],
    ]
    graves = table_rows(page, 'id="graveyard"')
    assert len(graves) == 1
    assert graves[0][:4] == ["#3 Rea 3", "Reavers", "Human Lineman", "0"]
    fatal = db.session.scalar(select(func.max(Match.id)))
    assert graves[0][4] == f"match #{fatal} against Barons (won 2\u20131), Season 1"


def test_stats_page_lists_players_and_graves_a_page_at_a_time(
    client, commissioner, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = _stats_league(commissioner, 4)
    path = f"/leagues/{league.id}/stats"
    whole = client.get(path).text
    players = table_rows(whole, 'id="player-stats"')
    graves = table_rows(whole, 'id="graveyard"')
    assert len(players) >= 3
    assert len(graves) == 2
    assert "Next page" not in whole  # one page each: no pager

    monkeypatch.setattr(paging, "LIST_PAGE", 1)
    caching.pages.clear()  # the pages above were kept at this revision
    for number, row in enumerate(players, start=1):
        page = client.get(f"{path}?players={number}&graves=2").text
        assert table_rows(page, 'id="player-stats"') == [row]
        assert f"{number} to {number} of {len(players)}" in text_of(page)
        assert table_rows(page, 'id="graveyard"') == [graves[1]]  # the other list's page
    first = client.get(path).text
    assert f'href="{path}?players=2"' in first
    assert 'rel="prev"' not in first[: first.index('id="graveyard"')]
    # A page number out of range, or not a number, gives the nearest page.
    for asked, shown in (("0", 0), ("99", -1), ("two", 0)):
        page = client.get(f"{path}?players={asked}")
        assert page.status_code == 200
        assert table_rows(page.text, 'id="player-stats"') == [players[shown]]


def test_a_players_matches_and_a_teams_ledger_come_a_page_at_a_time(
    client, commissioner, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    reavers = _human_team(anna, league, "Reavers")
    barons = _human_team(bram, league, "Barons")
    scorer = next(p for p in reavers.players if p.number == 1)
    for home_score in (1, 2, 3):
        play(commissioner, league, reavers.id, barons.id, home_score, 0, PlayerEvents(scorer.id))
    player_path, team_path = f"/players/{scorer.id}", f"/teams/{reavers.id}"
    history = table_rows(client.get(player_path).text, ">Match history<")
    ledger = table_rows(client.get(team_path).text, 'id="ledger"')
    assert len(history) == 3  # his three matches, latest first
    assert [row[2] for row in history] == ["3-0", "2-0", "1-0"]
    assert len(ledger) >= 2

    monkeypatch.setattr(paging, "LIST_PAGE", 1)
    caching.pages.clear()  # the pages above were kept at this revision
    for number, row in enumerate(history, start=1):
        page = client.get(f"{player_path}?matches={number}").text
        assert table_rows(page, ">Match history<") == [row]
        assert f"{number} to {number} of 3" in text_of(page)
    for number, row in enumerate(ledger, start=1):
        page = client.get(f"{team_path}?ledger={number}").text
        assert table_rows(page, 'id="ledger"') == [row]
    assert f'href="{team_path}?ledger=2"' in client.get(team_path).text


# ---------------------------------------------------------------------------
# iCalendar


def test_ics_feed(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Smith, Jones; Co", "Bravo"])
    ids = team_ids(league)
    with unit_of_work() as session:
        dated = matches.schedule_match(
            session,
            commissioner,
            league.id,
            ids["Smith, Jones; Co"],
            ids["Bravo"],
            round_number=1,
            scheduled_for=date(2025, 9, 6),
        )
        matches.schedule_match(
            session, commissioner, league.id, ids["Bravo"], ids["Smith, Jones; Co"]
        )
    response = client.get(f"/leagues/{league.id}/fixtures.ics")
    assert response.status_code == 200
    assert response.mimetype == "text/calendar"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="league-{league.id}-fixtures.ics"'
    )
    body = response.get_data(as_text=True)
    assert body.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert body.endswith("END:VCALENDAR\r\n")
    assert "\n" not in body.replace("\r\n", "")
    assert body.count("BEGIN:VEVENT") == 1  # the undated fixture has no calendar day
    unfolded = body.replace("\r\n ", "")
    assert f"UID:match-{dated.id}@127.0.0.1\r\n" in unfolded
    assert "DTSTART;VALUE=DATE:20250906\r\n" in unfolded
    assert "DTEND;VALUE=DATE:20250907\r\n" in unfolded
    assert "SUMMARY:Smith\\, Jones\\; Co vs Bravo\r\n" in unfolded
    assert "DESCRIPTION:bb2025 league\\, Season 1\\, round 1\r\n" in unfolded
    page = f"http://127.0.0.1:5000/leagues/{league.id}/fixtures"  # PUBLIC_URL, not the Host
    assert f"URL:{page}#match-{dated.id}\r\n" in unfolded
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))


def test_the_same_fixture_twice_in_a_round_asks_to_add_another(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo"])
    ids = team_ids(league)
    login(client, "commish")
    url = f"/leagues/{league.id}/fixtures/new"
    fixture = {"home_team": ids["Alpha"], "away_team": ids["Bravo"], "round_number": "2"}
    assert client.post(url, data=fixture).status_code == 302
    first = db.session.scalar(select(func.max(Match.id)))

    twice = client.post(url, data={**fixture, "home_team": ids["Bravo"], "away_team": ids["Alpha"]})
    assert field_errors(twice.text, "add_another") == [
        f"Bravo and Alpha already meet in round 2 (match #{first}). "
        "Tick \u201cadd another\u201d to add a second match."
    ]
    assert 'name="add_another"' in twice.text
    assert match_count() == 1

    again = client.post(url, data={**fixture, "add_another": "y"})
    assert again.status_code == 302
    assert match_count() == 2


def test_a_voided_result_leaves_its_fixture_in_the_round(client, commissioner, coach) -> None:
    league = league_with(commissioner, coach, ["Alpha", "Bravo", "Charlie", "Delta"])
    login(client, "commish")
    form = {"format": "single", "start_date": "2025-09-06", "days_between": "7", "confirm": "y"}
    assert client.post(f"/leagues/{league.id}/fixtures/generate", data=form).status_code == 302
    client.get(f"/leagues/{league.id}/fixtures")  # shows (and so clears) the message
    round_two = db.session.scalars(select(Match).where(Match.round == 2).order_by(Match.id)).all()
    # Empty rosters: a 1-0 with the attendance blank, winnings 0, no Expensive Mistakes.
    for match in round_two:
        with unit_of_work() as session:
            matches.record_result(
                session,
                commissioner,
                match.id,
                with_match_touchdowns(
                    MatchReport(home=SideReport(score=1), away=SideReport(score=0)), match.id
                ),
            )
    voided = round_two[0].id

    response = client.post(f"/matches/{voided}/void")
    again = db.session.scalar(select(Match).where(Match.replaces_id == voided))
    assert again is not None
    assert response.location == f"/matches/{again.id}"
    page = client.get(response.location).text
    assert flashes(page) == [
        "The match is voided; everything its result caused is undone.",
        "The fixture is still to be played: enter its new result here.",
    ]
    assert "Not played yet." in page
    history = page[page.index('data-testid="match-history"') :]
    today = datetime.now(UTC).date().isoformat()
    assert f'<a href="/matches/{voided}">Match #{voided}</a>' in history
    assert f"1\u20130, played {today}, voided on {today}, by commish" in text_of(history)
    assert f'href="/matches/{again.id}/report"' in page  # enter the new result

    old = client.get(f"/matches/{voided}").text
    assert f"This match was voided on {today}, by commish" in text_of(old)
    assert f'played again as <a href="/matches/{again.id}">match #{again.id}</a>' in old

    # The round is still there, with the fixture waiting for its result.
    round_page = client.get(f"/leagues/{league.id}/fixtures/rounds/2?season=1")
    assert round_page.status_code == 200
    assert len(table_rows(round_page.text, 'id="round-2"')) == 2
    assert f'href="/matches/{again.id}' in round_page.text
    assert f'href="/matches/{voided}' not in round_page.text
