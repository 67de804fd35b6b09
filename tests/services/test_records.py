"""League records worked out by hand on a small league, and how a void, a correction and a
closed season change them.

BB2025 SPP (ruleset data, [spp]): a touchdown 3, a casualty 2, a completion 1.
The league: Reavers (humans) and Gouged Eye (orcs); three results in the league's order:
  M1 Reavers 2-1 Gouged Eye   catcher A 2 TD, blitzer 1 CAS; orc lineman 1 TD
  M2 Reavers 3-0 Gouged Eye   catcher A 1 TD, catcher B 2 TD, thrower 3 COMP
  M3 Reavers 0-1 Gouged Eye   orc lineman 1 TD
"""

from __future__ import annotations

import pytest

from league.extensions import db
from league.models import Advancement, Player
from league.models.live_log import MatchLogEvent
from league.services import matches, seasons
from league.services.access import get_league
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.records import Records, league_records
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user


def _play(commissioner, league, home, away, score, players) -> int:
    with unit_of_work() as session:
        match = matches.schedule_match(session, commissioner, league.id, home.id, away.id)
        match_id = match.id
    _report(commissioner, match_id, score, players)
    return match_id


def _report(commissioner, match_id, score, players) -> None:
    report = MatchReport(
        home=SideReport(score=score[0], mistake_d6=6),
        away=SideReport(score=score[1], mistake_d6=6),
        players=tuple(players),
        fan_attendance=4,
    )
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)


def _records(league, scope="all", season=None) -> Records:
    db.session.expire_all()
    return league_records(db.session, get_league(db.session, league.id), scope, season)


def _board(records: Records, code: str):
    boards = records.player_records + records.team_records + records.memorable_matches
    return next(b for b in boards if b.code == code)


def _values(records: Records, code: str) -> list[tuple[int, int, str]]:
    """(rank, value, player or team name) of a record's lines."""
    return [(e.rank, e.value, e.player_name or e.team_name) for e in _board(records, code).entries]


@pytest.fixture
def played(commissioner, league_2025):
    league, humans, orcs = league_2025

    def first(team, position):
        return next(p for p in team.players if p.position_id == position)

    catchers = [p for p in humans.players if p.position_id == "human-catcher"]
    a, b = catchers
    db.session.execute(Player.__table__.update().where(Player.id == a.id).values(name="Anselm"))
    db.session.execute(Player.__table__.update().where(Player.id == b.id).values(name="Bertil"))
    db.session.commit()
    blitzer, thrower = first(humans, "human-blitzer"), first(humans, "human-thrower")
    orc = first(orcs, "orc-lineman")
    m1 = _play(
        commissioner,
        league,
        humans,
        orcs,
        (2, 1),
        [PlayerEvents(a.id, td=2), PlayerEvents(blitzer.id, cas=1), PlayerEvents(orc.id, td=1)],
    )
    m2 = _play(
        commissioner,
        league,
        humans,
        orcs,
        (3, 0),
        [PlayerEvents(a.id, td=1), PlayerEvents(b.id, td=2), PlayerEvents(thrower.id, comp=3)],
    )
    m3 = _play(commissioner, league, humans, orcs, (0, 1), [PlayerEvents(orc.id, td=1)])
    return league, humans, orcs, (m1, m2, m3), (a, b, orc)


def test_records_worked_out_by_hand(played) -> None:
    league, _humans, _orcs, (m1, m2, m3), (_a, _b, orc) = played
    records = _records(league)
    assert records.matches_played == 3
    orc_name = orc.name
    # A's 2 TD in M1 and B's 2 TD in M2 share first place; then three 1-TD lines.
    assert _values(records, "td_match")[:2] == [(1, 2, "Anselm"), (1, 2, "Bertil")]
    assert [rank for rank, _, _ in _values(records, "td_match")] == [1, 1, 3, 3, 3]
    # Season and career: A 2 + 1 = 3, B 2, the orc 1 + 1 = 2 (B before the orc by name).
    assert _values(records, "td_season") == [(1, 3, "Anselm"), (2, 2, "Bertil"), (2, 2, orc_name)]
    assert _values(records, "td_career")[0] == (1, 3, "Anselm")
    # SPP: A 3 TD x 3 = 9; in a match, A's 2 TD x 3 = 6 and B's 6 share first.
    assert _values(records, "spp_career")[0] == (1, 9, "Anselm")
    assert _values(records, "spp_match")[:2] == [(1, 6, "Anselm"), (1, 6, "Bertil")]
    assert _values(records, "comp_match") == [
        (1, 3, _board(records, "comp_match").entries[0].player_name)
    ]
    assert _values(records, "cas_career")[0][1] == 1
    # Biggest win: M2 by 3; then the two 1-goal wins, the earlier first.
    wins = _board(records, "biggest_win").entries
    assert [(w.value, w.match_id, w.team_name) for w in wins] == [
        (3, m2, "Reavers"),
        (1, m1, "Reavers"),
        (1, m3, "Gouged Eye"),
    ]
    assert (wins[0].score_for, wins[0].score_against, wins[0].opponent_name) == (3, 0, "Gouged Eye")
    # Highest scoring: M1 and M2 with 3 goals each, M3 with 1.
    assert [(e.rank, e.value, e.match_id) for e in _board(records, "highest_scoring").entries] == [
        (1, 3, m1),
        (1, 3, m2),
        (3, 1, m3),
    ]
    assert [(e.value, e.match_id) for e in _board(records, "most_casualties").entries] == [(1, m1)]
    # Unbeaten: the Reavers W W L (2, M1 to M2, over); Gouged Eye L L W (1, going on).
    runs = _board(records, "unbeaten_run").entries
    assert [(r.team_name, r.value, r.since_match_id, r.match_id, r.ongoing) for r in runs] == [
        ("Reavers", 2, m1, m2, False),
        ("Gouged Eye", 1, m3, m3, True),
    ]
    # Nobody has an advancement yet, nobody is dead or retired; no MVP was entered.
    fame = records.hall_of_fame
    assert fame.top_level == "Legend"
    assert (fame.top_level_total, fame.top_level_players, fame.legends, fame.mvps) == (
        0,
        (),
        (),
        (),
    )
    assert records.champions == ()


def test_a_void_and_a_correction_change_the_records(commissioner, played) -> None:
    league, _humans, _orcs, (m1, m2, _m3), (a, _b, orc) = played
    with unit_of_work() as session:
        matches.void_match(session, commissioner, m2)
    records = _records(league)
    assert records.matches_played == 2
    # Without M2: A 2 TD (M1), B none; the biggest win is 1 goal; the Reavers W L.
    assert _values(records, "td_season") == [(1, 2, "Anselm"), (1, 2, orc.name)]
    assert [w.value for w in _board(records, "biggest_win").entries] == [1, 1]
    runs = _board(records, "unbeaten_run").entries
    assert [(r.team_name, r.value) for r in runs] == [("Reavers", 1), ("Gouged Eye", 1)]
    assert "Bertil" not in {e.player_name for e in _board(records, "td_match").entries}

    # M1 corrected to 4-1 with A's 4 TD: 4 TD and 12 SPP in a match, a 3-goal win.
    _report(commissioner, m1, (4, 1), [PlayerEvents(a.id, td=4), PlayerEvents(orc.id, td=1)])
    records = _records(league)
    assert _values(records, "td_match")[0] == (1, 4, "Anselm")
    assert _values(records, "spp_match")[0] == (1, 12, "Anselm")
    assert _board(records, "biggest_win").entries[0].value == 3
    assert _board(records, "most_casualties").entries == ()


def test_season_and_all_time_scopes_and_the_champion(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    a = next(p for p in humans.players if p.position_id == "human-catcher")
    orc = next(p for p in orcs.players if p.position_id == "orc-lineman")
    _play(commissioner, league, humans, orcs, (2, 0), [PlayerEvents(a.id, td=2)])
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    second = _play(commissioner, league, orcs, humans, (1, 0), [PlayerEvents(orc.id, td=1)])

    current = _records(league, "season")
    assert (current.scope, current.season_number, current.matches_played) == ("season", 2, 1)
    assert _values(current, "td_season") == [(1, 1, orc.name)]
    assert {b.code for b in current.player_records if b.code.endswith("_career")} == set()
    assert [e.match_id for e in _board(current, "biggest_win").entries] == [second]

    first = _records(league, "season", 1)
    assert (first.season_number, first.matches_played) == (1, 1)
    assert _values(first, "td_season") == [(1, 2, a.name)]

    everything = _records(league)
    assert (everything.scope, everything.season_number, everything.matches_played) == (
        "all",
        None,
        2,
    )
    assert [v for _, v, _ in _values(everything, "td_career")] == [2, 1]
    # Season 1 closed with the Reavers first: BB2025 pays them its first prize.
    assert [(c.season_number, c.team_name) for c in everything.champions] == [(1, "Reavers")]
    assert [(t.team_name, t.titles, t.total) for t in everything.trophies] == [("Reavers", 1, 1)]


def test_an_empty_league_has_empty_records(league_2025) -> None:
    league, _, _ = league_2025
    records = _records(league)
    assert records.empty
    assert all(board.entries == () for board in records.player_records + records.memorable_matches)
    # Today's team values still rank the two active teams.
    assert len(_board(records, "highest_tv").entries) == 2


def test_the_hall_of_fame_and_deaths_caused(commissioner, league_2025) -> None:
    """The top level is the ruleset's last level (BB2025: Legend, after its 6th and last
    advancement); a legend is a player no longer playing, by career SPP; deaths caused come
    from the live log's casualties whose victim the report still has dead."""
    league, humans, orcs = league_2025
    blitzer = next(p for p in humans.players if p.position_id == "human-blitzer")
    star = next(p for p in humans.players if p.position_id == "human-catcher")
    victim, other = [p for p in orcs.players if p.position_id == "orc-lineman"][:2]
    players = [
        PlayerEvents(star.id, td=1, mvp=1),
        PlayerEvents(blitzer.id, cas=1, td=1),
        PlayerEvents(victim.id, comp=1, injury="dead"),
        PlayerEvents(other.id, mvp=1),
    ]
    m1 = _play(commissioner, league, humans, orcs, (2, 0), players)
    # Six advancements: the catcher reaches Legend (numbers 1-6, none undone).
    for number in range(1, 7):
        db.session.add(
            Advancement(
                player_id=star.id,
                number=number,
                kind="chosen_primary",
                spp_cost=0,
                skill=f"Skill {number}",
                value_increase=0,
            )
        )
    db.session.add(
        MatchLogEvent(
            match_id=m1,
            client_id="kill-0001",
            side="home",
            kind="cas",
            player_id=blitzer.id,
            victim_id=victim.id,
            injury="dead",
            half=1,
            turn=3,
            logged_by_id=commissioner.id,
        )
    )
    db.session.commit()

    records = _records(league)
    fame = records.hall_of_fame
    # The catcher: 1 TD x 3 + MVP 4 = 7 SPP (BB2025 [spp]).
    assert (fame.top_level, fame.top_level_total) == ("Legend", 1)
    assert [(e.player_id, e.value) for e in fame.top_level_players] == [(star.id, 7)]
    # The dead orc lineman: 1 completion = 1 SPP.
    assert [(e.player_id, e.value, e.team_name) for e in fame.legends] == [
        (victim.id, 1, "Gouged Eye")
    ]
    assert sorted((e.player_id, e.value, e.rank) for e in fame.mvps) == sorted(
        [(star.id, 1, 1), (other.id, 1, 1)]
    )
    assert _values(records, "deaths_caused") == [(1, 1, blitzer.name)]

    # Corrected: the victim was only badly hurt. No death caused, no legend.
    players[2] = PlayerEvents(victim.id, comp=1, injury="badly_hurt")
    _report(commissioner, m1, (2, 0), players)
    records = _records(league)
    assert _board(records, "deaths_caused").entries == ()
    assert records.hall_of_fame.legends == ()


def test_a_closed_season_without_prizes_is_listed_without_a_champion(commissioner) -> None:
    """BB2020 pays no prizes (its ruleset has no [season.prizes]): the closed season is
    listed, its champion left to the final table."""
    league = make_league(commissioner, "bb2020")
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    found = _records(league)
    assert [(c.season_number, c.team_id, c.playoff_team_id) for c in found.champions] == [
        (1, None, None)
    ]
    assert found.trophies == ()


BB2020_HUMANS = (("human-lineman", 11),)
BB2020_ORCS = (("orc-lineman", 11),)


def test_a_closed_season_without_prizes_keeps_its_table_leader_as_champion(commissioner) -> None:
    """BB2020 pays no prizes: the first of the final table when the season closed is its
    champion (a 1-0 win: 3 points to 0), and reopening the season forgets it."""
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2020", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", BB2020_HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", BB2020_ORCS)
    scorer = min((p for p in humans.players), key=lambda p: p.number)
    _play(commissioner, league, orcs, humans, (0, 1), [PlayerEvents(scorer.id, td=1)])
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    found = _records(league)
    assert [(c.season_number, c.team_name) for c in found.champions] == [(1, "Reavers")]
    assert [(t.team_name, t.titles) for t in found.trophies] == [("Reavers", 1)]
    with unit_of_work() as session:
        seasons.reopen_season(session, commissioner, league.id, 1)
    assert _records(league).champions == ()
