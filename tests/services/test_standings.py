"""Standings, tie-breakers, season statistics, leaders and the graveyard, hand-computed."""

from __future__ import annotations

from typing import Any

import pytest

from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.services import access, matches, paging, seasons, teams
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.standings import standings, tie_breaker_order
from league.services.stats import graveyard, graveyard_page, season_stats
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_active_team, make_league, make_user, with_touchdowns

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league(commissioner: User, coach: User, names: list[str], **settings: Any) -> League:
    """A league with active teams of these names, one lineman each (who scores)."""
    league = make_league(commissioner, "bb2025", coach, **settings)
    with unit_of_work() as session:
        for name in names:
            teams.create_team(session, coach, teams.NewTeam(league.id, name, "human", active=True))
    give_scorers(coach, league)
    return league


def _teams(league: League) -> dict[str, Team]:
    return {t.name: t for t in access.get_league(db.session, league.id).teams}


def play(
    commissioner: User,
    league: League,
    home: Team,
    away: Team,
    home_score: int,
    away_score: int,
    *players: PlayerEvents,
    friendly: bool = False,
    home_conceded: bool = False,
) -> Match:
    """A result; the touchdowns `players` leave out go to each team's first player."""
    report = MatchReport(
        home=SideReport(score=home_score, conceded=home_conceded, mistake_d6=6),
        away=SideReport(score=away_score, mistake_d6=6),
        players=players,
    )
    report = with_touchdowns(report, home, away)
    with unit_of_work() as session:
        return matches.record_new_match(
            session, commissioner, league.id, home.id, away.id, report, friendly=friendly
        )


def _table(league: League) -> list[tuple]:
    found = standings(db.session, access.get_league(db.session, league.id))
    return [
        (
            r.position,
            r.team_name,
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.td_for,
            r.td_against,
            r.cas_for,
            r.cas_against,
            r.points,
        )
        for r in found.rows
    ]


def _notes(league: League) -> list[tuple[str, str, str]]:
    found = standings(db.session, access.get_league(db.session, league.id))
    return [(n.upper, n.lower, n.tie_breaker) for n in found.notes]


# ---------------------------------------------------------------------------
# Standings


def test_no_results_yet_lists_the_active_teams_level(commissioner, coach) -> None:
    league = _league(commissioner, coach, ["Reavers", "Gouged Eye"])
    found = standings(db.session, access.get_league(db.session, league.id))
    assert found.empty
    assert found.season_name == "Season 1"
    assert [(r.position, r.team_name, r.played, r.points) for r in found.rows] == [
        (1, "Gouged Eye", 0, 0),
        (2, "Reavers", 0, 0),
    ]
    assert found.notes == ()


def test_three_way_tie_on_points_resolved_by_head_to_head(commissioner, coach) -> None:
    league = _league(commissioner, coach, ["Alpha", "Bravo", "Charlie", "Delta", "Echo"])
    t = _teams(league)
    play(commissioner, league, t["Bravo"], t["Charlie"], 1, 0)
    play(commissioner, league, t["Charlie"], t["Alpha"], 1, 0)
    play(commissioner, league, t["Bravo"], t["Alpha"], 0, 0)
    play(commissioner, league, t["Alpha"], t["Delta"], 5, 0)
    play(commissioner, league, t["Charlie"], t["Echo"], 0, 0)
    play(commissioner, league, t["Delta"], t["Echo"], 1, 0)
    # Bravo, Charlie and Alpha have 4 points each. Among themselves Bravo took 4
    # (win + draw), Charlie 3, Alpha 1; on touchdown difference Alpha (+4) would
    # lead Bravo (+1) and Charlie (0), and by name Alpha would lead too.
    assert _table(league) == [
        (1, "Bravo", 2, 1, 1, 0, 1, 0, 0, 0, 4),
        (2, "Charlie", 3, 1, 1, 1, 1, 1, 0, 0, 4),
        (3, "Alpha", 3, 1, 1, 1, 5, 1, 0, 0, 4),
        (4, "Delta", 2, 1, 0, 1, 1, 5, 0, 0, 3),
        (5, "Echo", 2, 0, 1, 1, 0, 1, 0, 0, 1),
    ]
    assert _notes(league) == [
        ("Bravo", "Charlie", "head_to_head"),
        ("Charlie", "Alpha", "head_to_head"),
    ]


def test_head_to_head_is_worked_out_again_for_the_teams_still_level(commissioner, coach) -> None:
    league = _league(commissioner, coach, ["Xray", "Yankee", "Zulu", "Delta", "Echo"])
    t = _teams(league)
    play(commissioner, league, t["Yankee"], t["Xray"], 1, 0)
    play(commissioner, league, t["Yankee"], t["Zulu"], 0, 0)
    play(commissioner, league, t["Xray"], t["Zulu"], 3, 0)
    play(commissioner, league, t["Xray"], t["Zulu"], 0, 0)
    play(commissioner, league, t["Zulu"], t["Delta"], 0, 0)
    play(commissioner, league, t["Zulu"], t["Echo"], 0, 0)
    # Yankee, Xray, Zulu: 4 points each. Among the three: Yankee 4, Xray 4, Zulu 2.
    # Yankee and Xray are level again, so head-to-head is recomputed for those two
    # alone: Yankee beat Xray. (Touchdown difference would have put Xray first.)
    # Delta and Echo are level on every tie-breaker of the default list (no coin toss):
    # listed by name, whatever their stored draws (Echo's is the bigger).
    t["Delta"].coin_toss, t["Echo"].coin_toss = 100, 900
    db.session.commit()
    assert _table(league) == [
        (1, "Yankee", 2, 1, 1, 0, 1, 0, 0, 0, 4),
        (2, "Xray", 3, 1, 1, 1, 3, 1, 0, 0, 4),
        (3, "Zulu", 5, 0, 4, 1, 0, 3, 0, 0, 4),
        (4, "Delta", 1, 0, 1, 0, 0, 0, 0, 0, 1),
        (5, "Echo", 1, 0, 1, 0, 0, 0, 0, 0, 1),
    ]
    assert _notes(league) == [
        ("Yankee", "Xray", "head_to_head"),
        ("Xray", "Zulu", "head_to_head"),
        ("Delta", "Echo", "name"),
    ]
    # With the coin toss picked, the stored draws decide, the bigger first (900 > 100).
    access.get_league(db.session, league.id).tie_breakers = [
        *access.get_league(db.session, league.id).tie_breakers,
        "coin_toss",
    ]
    db.session.commit()
    assert [row[1] for row in _table(league)][3:] == ["Echo", "Delta"]
    assert _notes(league)[-1] == ("Echo", "Delta", "coin_toss")


def test_tie_resolved_by_touchdown_difference(commissioner, coach) -> None:
    league = _league(commissioner, coach, ["Aardvarks", "Middle", "Zebras"])
    t = _teams(league)
    play(commissioner, league, t["Zebras"], t["Middle"], 3, 0)
    play(commissioner, league, t["Middle"], t["Aardvarks"], 0, 1)
    # Zebras and Aardvarks never met: head-to-head 0-0, then TD difference +3 against +1.
    assert _table(league) == [
        (1, "Zebras", 1, 1, 0, 0, 3, 0, 0, 0, 3),
        (2, "Aardvarks", 1, 1, 0, 0, 1, 0, 0, 0, 3),
        (3, "Middle", 2, 0, 0, 2, 0, 4, 0, 0, 0),
    ]
    assert _notes(league) == [("Zebras", "Aardvarks", "td_difference")]


def test_concessions_points_system_and_fewest_conceded(commissioner, coach) -> None:
    league = _league(
        commissioner,
        coach,
        ["Aces", "Kings", "Queens"],
        points_win=2,
        points_draw=1,
        points_loss=0,
        tie_breakers=("points", "fewest_conceded"),
    )
    t = _teams(league)
    play(commissioner, league, t["Aces"], t["Kings"], 1, 0, home_conceded=True)
    play(commissioner, league, t["Aces"], t["Queens"], 3, 0)
    play(commissioner, league, t["Queens"], t["Kings"], 1, 0)
    # Aces conceded while leading: a loss. Everyone has 2 points (2 for a win);
    # Aces conceded a match, so Kings and Queens go ahead, level with each other.
    assert _table(league) == [
        (1, "Kings", 2, 1, 0, 1, 0, 2, 0, 0, 2),
        (2, "Queens", 2, 1, 0, 1, 1, 3, 0, 0, 2),
        (3, "Aces", 2, 1, 0, 1, 4, 0, 0, 0, 2),
    ]
    found = standings(db.session, access.get_league(db.session, league.id))
    assert [r.concessions for r in found.rows] == [0, 0, 1]
    assert [(n.upper, n.tie_breaker) for n in found.notes] == [
        ("Kings", "name"),
        ("Queens", "fewest_conceded"),
    ]
    assert found.tie_breakers == ("points", "fewest_conceded")
    assert found.explanations[0] == "Points: 2 for a win, 1 for a draw, 0 for a loss."
    assert "listed by name (the commissioner's choice)" in found.explanations[-1]


def test_points_come_first_when_the_list_leaves_them_out(commissioner, coach) -> None:
    league = _league(commissioner, coach, [], tie_breakers=("td_difference",))
    assert tie_breaker_order(league) == ("points", "td_difference")


def test_friendlies_voided_matches_and_other_seasons_do_not_count(commissioner, coach) -> None:
    league = _league(commissioner, coach, ["Reavers", "Gouged Eye"])
    t = _teams(league)
    play(commissioner, league, t["Reavers"], t["Gouged Eye"], 2, 0, friendly=True)
    voided = play(commissioner, league, t["Gouged Eye"], t["Reavers"], 4, 0)
    with unit_of_work() as session:
        matches.void_match(session, commissioner, voided.id)
    play(commissioner, league, t["Gouged Eye"], t["Reavers"], 1, 1)
    # Level on everything: the stored coin toss puts Gouged Eye (2) above Reavers (1).
    t["Gouged Eye"].coin_toss, t["Reavers"].coin_toss = 2, 1
    db.session.commit()
    assert _table(league) == [
        (1, "Gouged Eye", 1, 0, 1, 0, 1, 1, 0, 0, 1),
        (2, "Reavers", 1, 0, 1, 0, 1, 1, 0, 0, 1),
    ]
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    play(commissioner, league, t["Reavers"], t["Gouged Eye"], 1, 0)
    assert _table(league)[0] == (1, "Reavers", 1, 1, 0, 0, 1, 0, 0, 0, 3)
    fresh = access.get_league(db.session, league.id)
    season_1 = standings(db.session, fresh, 1)
    assert season_1.season_name == "Season 1"
    assert [(r.team_name, r.points) for r in season_1.rows] == [
        ("Gouged Eye", 1),
        ("Reavers", 1),
    ]


# ---------------------------------------------------------------------------
# With players: casualties, statistics, leaders, graveyard


def _name_players(team: Team, prefix: str) -> dict[str, Player]:
    """Rename the players "<prefix> <position letter><index>" (L0, C0, T0, B0...)."""
    counts: dict[str, int] = {}
    named = {}
    for player in sorted(team.players, key=lambda p: p.number):
        letter = player.position_id.split("-")[1][0].upper()
        key = f"{letter}{counts.setdefault(letter, 0)}"
        counts[letter] += 1
        player.name = f"{prefix} {key}"
        named[key] = player
    db.session.commit()
    return named


@pytest.fixture
def two_teams(commissioner):
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    reavers = make_active_team(anna, league, "human", "Reavers", HUMANS)
    barons = make_active_team(bram, league, "human", "Barons", HUMANS)
    return league, reavers, _name_players(reavers, "Rea"), barons, _name_players(barons, "Bar")


def test_casualties_count_from_the_players_events(commissioner, two_teams) -> None:
    league, reavers, r, barons, b = two_teams
    play(
        commissioner,
        league,
        reavers,
        barons,
        2,
        1,
        PlayerEvents(r["L0"].id, td=2, cas=1),
        PlayerEvents(r["B0"].id, cas=1),
        PlayerEvents(b["L0"].id, td=1, cas=2),
    )
    play(commissioner, league, barons, reavers, 1, 1, PlayerEvents(r["B1"].id, cas=1))
    play(
        commissioner, league, reavers, barons, 3, 0, PlayerEvents(r["B0"].id, cas=3), friendly=True
    )
    assert _table(league) == [
        (1, "Reavers", 2, 1, 1, 0, 3, 2, 3, 2, 4),
        (2, "Barons", 2, 0, 1, 1, 2, 3, 2, 3, 1),
    ]


def test_season_statistics_and_leaders(
    commissioner, two_teams, monkeypatch: pytest.MonkeyPatch
) -> None:
    league, reavers, r, barons, b = two_teams
    play(
        commissioner,
        league,
        reavers,
        barons,
        10,
        1,
        PlayerEvents(r["L0"].id, td=3, mvp=1),  # 9 + 4 = 13 SPP
        PlayerEvents(r["L1"].id, td=2),  # 6
        PlayerEvents(r["L2"].id, td=2, cas=1),  # 6 + 2 = 8
        PlayerEvents(r["L3"].id, td=1),  # 3
        PlayerEvents(r["L4"].id, td=1),  # 3
        PlayerEvents(r["L5"].id, td=1),  # 3
        PlayerEvents(r["T0"].id, comp=4),  # 4
        PlayerEvents(r["C0"].id, interceptions=1),  # 2
        PlayerEvents(b["B0"].id, td=1, cas=2, mvp=1),  # 3 + 4 + 4 = 11
    )
    play(commissioner, league, reavers, barons, 5, 0, PlayerEvents(r["L6"].id, td=5), friendly=True)

    stats = season_stats(db.session, access.get_league(db.session, league.id))
    assert stats.matches_played == 1
    boards = {
        board.code: [(e.rank, e.name, e.team_name, e.value) for e in board.leaders]
        for board in stats.leaders
    }
    assert boards["td"] == [
        (1, "Rea L0", "Reavers", 3),
        (2, "Rea L1", "Reavers", 2),
        (2, "Rea L2", "Reavers", 2),
        (4, "Bar B0", "Barons", 1),
        (4, "Rea L3", "Reavers", 1),
    ]
    assert boards["cas"] == [(1, "Bar B0", "Barons", 2), (2, "Rea L2", "Reavers", 1)]
    assert boards["comp"] == [(1, "Rea T0", "Reavers", 4)]
    assert boards["interceptions"] == [(1, "Rea C0", "Reavers", 1)]
    assert boards["spp"] == [
        (1, "Rea L0", "Reavers", 13),
        (2, "Bar B0", "Barons", 11),
        (3, "Rea L2", "Reavers", 8),
        (4, "Rea L1", "Reavers", 6),
        (5, "Rea T0", "Reavers", 4),
    ]
    assert boards["mvp"] == [(1, "Bar B0", "Barons", 1), (1, "Rea L0", "Reavers", 1)]
    team_rows = [
        (t.team_name, t.played, t.td, t.cas, t.comp, t.interceptions, t.mvp, t.spp)
        for t in stats.teams
    ]
    assert team_rows == [
        ("Barons", 1, 1, 2, 0, 0, 1, 11),
        ("Reavers", 1, 10, 1, 4, 1, 1, 42),
    ]
    l0 = next(p for p in stats.players.items if p.name == "Rea L0")
    assert (l0.position, l0.td, l0.mvp, l0.spp) == ("Human Lineman", 3, 1, 13)
    assert l0.number == r["L0"].number
    assert "Rea L6" not in {p.name for p in stats.players.items}  # friendly only
    # Most SPP first, equal SPP by name (L3, L4 and L5 have 3 each).
    assert [(p.name, p.spp) for p in stats.players.items][:9] == [
        ("Rea L0", 13),
        ("Bar B0", 11),
        ("Rea L2", 8),
        ("Rea L1", 6),
        ("Rea T0", 4),
        ("Rea L3", 3),
        ("Rea L4", 3),
        ("Rea L5", 3),
        ("Rea C0", 2),
    ]

    # Read a page at a time in SQL (3 to a page): the same rows in the same order, and
    # the same leaders on every page (the boards count every player, not the page's).
    monkeypatch.setattr(paging, "LIST_PAGE", 3)
    league_now = access.get_league(db.session, league.id)
    pages = [season_stats(db.session, league_now, None, n) for n in (1, 2, 3, 99)]
    assert [[p.name for p in page.players.items] for page in pages[:3]] == [
        ["Rea L0", "Bar B0", "Rea L2"],
        ["Rea L1", "Rea T0", "Rea L3"],
        ["Rea L4", "Rea L5", "Rea C0"],
    ]
    total = stats.players.total  # every player with a line in the match
    assert [(page.players.number, page.players.pages, page.players.total) for page in pages] == [
        (1, -(-total // 3), total),
        (2, -(-total // 3), total),
        (3, -(-total // 3), total),
        (-(-total // 3), -(-total // 3), total),  # past the end: the last page
    ]
    assert pages[2].players.first == 7
    assert all(page.leaders == stats.leaders for page in pages)


def test_no_statistics_before_the_first_result(commissioner, two_teams) -> None:
    league = two_teams[0]
    stats = season_stats(db.session, access.get_league(db.session, league.id))
    assert stats.empty
    assert (list(stats.players.items), stats.players.total, stats.players.pages) == ([], 0, 1)
    assert [(t.team_name, t.played, t.spp) for t in stats.teams] == [
        ("Barons", 0, 0),
        ("Reavers", 0, 0),
    ]
    assert all(board.leaders == () for board in stats.leaders)


def test_graveyard(commissioner, two_teams) -> None:
    league, reavers, r, barons, b = two_teams
    fatal = play(
        commissioner,
        league,
        barons,
        reavers,
        0,
        0,
        PlayerEvents(b["B0"].id, cas=1),
        PlayerEvents(r["L4"].id, injury="dead"),
    )
    voided = play(
        commissioner, league, reavers, barons, 1, 0, PlayerEvents(b["L0"].id, injury="dead")
    )
    with unit_of_work() as session:
        matches.void_match(session, commissioner, voided.id)

    graves = graveyard(db.session, access.get_league(db.session, league.id))
    assert [
        (g.name, g.team_name, g.position, g.match_id, g.opponent, g.outcome, g.season_name)
        for g in graves
    ] == [("Rea L4", "Reavers", "Human Lineman", fatal.id, "Barons", "drawn", "Season 1")]
    assert (graves[0].score_for, graves[0].score_against, graves[0].round) == (0, 0, None)
    assert db.session.get(Player, b["L0"].id).status == "active"  # the voided death is undone
    stats = season_stats(db.session, access.get_league(db.session, league.id))
    by_team = {t.team_name: (t.injuries, t.deaths) for t in stats.teams}
    assert by_team == {"Reavers": (1, 1), "Barons": (0, 0)}


def test_lists_read_a_page_at_a_time_give_the_rows_of_the_whole_list(
    commissioner, two_teams, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graveyard, a player's history and a team's ledger read a page in SQL: pages 1
    and 2 hold the rows the whole list has there, in the same order."""
    league, reavers, r, barons, b = two_teams
    for n, score in enumerate((1, 2, 3)):
        play(
            commissioner,
            league,
            reavers,
            barons,
            score,
            0,
            PlayerEvents(r["L0"].id, td=score),
            PlayerEvents(b[f"L{n}"].id, injury="dead"),
        )
    monkeypatch.setattr(paging, "LIST_PAGE", 2)
    league_now = access.get_league(db.session, league.id)
    graves = graveyard(db.session, league_now)
    assert len(graves) == 3
    assert list(graveyard_page(db.session, league_now, 1).items) == graves[:2]
    second = graveyard_page(db.session, league_now, 2)
    assert (list(second.items), second.number, second.pages, second.total, second.first) == (
        graves[2:],
        2,
        2,
        3,
        3,
    )
    assert list(graveyard_page(db.session, league_now, 9).items) == graves[2:]  # the last

    team = access.get_team(db.session, reavers.id)
    ledger = team.ledger[::-1]  # newest first
    assert len(ledger) > 4
    for number in (1, 2):
        page = teams.ledger_page(db.session, team, number)
        assert list(page.items) == ledger[(number - 1) * 2 : number * 2]
        assert page.total == len(ledger)

    scorer = db.session.get(Player, r["L0"].id)
    first, rest = (matches.player_history(db.session, scorer, n) for n in (1, 2))
    assert [h.score for h in (*first.items, *rest.items)] == ["3-0", "2-0", "1-0"]
    assert [h.events.td for h in (*first.items, *rest.items)] == [3, 2, 1]
    assert {h.opponent.name for h in (*first.items, *rest.items)} == {"Barons"}


def test_the_event_scores_concessions_in_the_table(commissioner, coach) -> None:
    # The event's settings: the conceding coach gets -1 point and a conceded match counts
    # as 2-0 for the winner. Points 3/1/0.
    league = _league(
        commissioner,
        coach,
        ["Aces", "Kings", "Queens"],
        house_rules={"tournament": {"concession_points": -1, "concession_score": [2, 0]}},
    )
    t = _teams(league)
    play(commissioner, league, t["Aces"], t["Kings"], 1, 0, home_conceded=True)
    play(commissioner, league, t["Queens"], t["Aces"], 1, 1)
    # Aces led 1-0 and conceded: a loss, -1 point, counted 0-2. Kings: a win, 3 points,
    # counted 2-0. Queens 1-1 Aces: a point each. Aces: -1 + 1 = 0; TD 0+1 for, 2+1 against.
    assert _table(league) == [
        (1, "Kings", 1, 1, 0, 0, 2, 0, 0, 0, 3),
        (2, "Queens", 1, 0, 1, 0, 1, 1, 0, 0, 1),
        (3, "Aces", 2, 0, 1, 1, 1, 3, 0, 0, 0),
    ]


def test_opponents_points_rank_the_table(commissioner, coach) -> None:
    # Tie-breakers: points, opponents' points, casualties caused. 3/1/0.
    league = _league(
        commissioner,
        coach,
        ["Aces", "Bears", "Cats", "Dogs"],
        tie_breakers=("points", "opponents_points", "cas_caused"),
    )
    t = _teams(league)
    play(commissioner, league, t["Aces"], t["Cats"], 1, 0)
    play(commissioner, league, t["Bears"], t["Dogs"], 1, 0)
    play(commissioner, league, t["Cats"], t["Dogs"], 1, 0)
    # Aces 3 (beat Cats), Bears 3 (beat Dogs), Cats 3 (beat Dogs), Dogs 0.
    play(commissioner, league, t["Dogs"], t["Bears"], 0, 0)
    found = standings(db.session, access.get_league(db.session, league.id))
    # Bears now 4 (a draw with Dogs), Dogs 1: Bears' opponents are Dogs twice (1 + 1 = 2).
    rows = {r.team_name: r for r in found.rows}
    assert (rows["Bears"].points, rows["Bears"].opponents_points) == (4, 2)
    # Aces: Cats' 3. Cats: Aces' 3 + Dogs' 1 = 4. Level on 3 points: Cats ahead on
    # opponents' points, 4 against 3.
    assert (rows["Aces"].opponents_points, rows["Cats"].opponents_points) == (3, 4)
    assert [r.team_name for r in found.rows] == ["Bears", "Cats", "Aces", "Dogs"]
    assert [r.separated_by for r in found.rows] == [None, "opponents_points", None, None]
    assert rows["Cats"].tie_breaker_values == {
        "points": 3,
        "opponents_points": 4,
        "cas_caused": 0,
    }
    assert ("Cats", "Aces", "opponents_points", (4, 3)) in [
        (n.upper, n.lower, n.tie_breaker, n.values) for n in found.notes
    ]


def test_casualties_caused_break_a_tie(commissioner, coach) -> None:
    league = _league(
        commissioner,
        coach,
        ["Aces", "Bears", "Cats", "Dogs"],
        tie_breakers=("points", "opponents_points", "cas_caused"),
    )
    t = _teams(league)
    aces, bears = (t[name].players[0] for name in ("Aces", "Bears"))
    play(commissioner, league, t["Bears"], t["Dogs"], 1, 0, PlayerEvents(bears.id, td=1, cas=1))
    play(commissioner, league, t["Aces"], t["Cats"], 1, 0, PlayerEvents(aces.id, td=1, cas=2))
    play(commissioner, league, t["Cats"], t["Dogs"], 0, 0)
    # Aces 3, Bears 3, Cats 1, Dogs 1. Opponents' points: Aces met Cats (1), Bears met
    # Dogs (1): level again. Casualties caused: Aces 2, Bears 1: Aces first (Bears
    # would lead by name).
    found = standings(db.session, access.get_league(db.session, league.id))
    assert [(r.team_name, r.points, r.opponents_points, r.cas_for) for r in found.rows[:2]] == [
        ("Aces", 3, 1, 2),
        ("Bears", 3, 1, 1),
    ]
    assert found.rows[0].separated_by == "cas_caused"


def test_a_circular_three_way_tie_goes_to_the_next_tie_breakers(commissioner, coach) -> None:
    # The organiser's order: points, head-to-head, TD difference, opponents' points,
    # casualties caused. 3/1/0.
    league = _league(
        commissioner,
        coach,
        ["Aces", "Bulls", "Crows"],
        tie_breakers=(
            "points",
            "head_to_head",
            "td_difference",
            "opponents_points",
            "cas_caused",
        ),
    )
    t = _teams(league)
    a, b, c = (t[name].players[0] for name in ("Aces", "Bulls", "Crows"))
    play(commissioner, league, t["Aces"], t["Bulls"], 1, 0, PlayerEvents(a.id, td=1, cas=1))
    play(commissioner, league, t["Bulls"], t["Crows"], 1, 0, PlayerEvents(b.id, td=1, cas=3))
    play(commissioner, league, t["Crows"], t["Aces"], 1, 0, PlayerEvents(c.id, td=1, cas=2))
    # Each won once and lost once: 3 points each. Head-to-head among the three: 3 each
    # (circular), so it separates nobody. TD difference: +1 - 1 = 0 each. Opponents'
    # points: each met the two others, 3 + 3 = 6 each. Casualties caused: Bulls 3,
    # Crows 2, Aces 1: that decides.
    found = standings(db.session, access.get_league(db.session, league.id))
    assert [
        (r.team_name, r.points, r.td_difference, r.opponents_points, r.cas_for) for r in found.rows
    ] == [("Bulls", 3, 0, 6, 3), ("Crows", 3, 0, 6, 2), ("Aces", 3, 0, 6, 1)]
    assert [r.separated_by for r in found.rows] == ["cas_caused", "cas_caused", None]
    assert found.rows[0].tie_breaker_values == {
        "points": 3,
        "head_to_head": 3,
        "td_difference": 0,
        "opponents_points": 6,
        "cas_caused": 3,
    }
