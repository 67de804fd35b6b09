"""Statements one result sends (the write side of issue 28): recording a report reads what it
needs once, and nothing it reads grows with the number of players reported.

Counted are the SELECTs: INSERTs of the report's lines are one per line on SQLite and one in
all on PostgreSQL (the driver's batched insert), so they would make the counts differ by store.
"""

from __future__ import annotations

import pytest
from flask import Flask

from league.extensions import db
from league.models import League, Team, User
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.perf.conftest import QueryCounter, counting

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))
#: SELECTs of recording a 22-player report on a scheduled fixture, as measured: the match,
#: league, membership, season, both teams locked with their players and coaches, the
#: pre-game, match-day players, the previous results' lines, the match's ledger (once),
#: and each team's caches worked out again. The team value each side took the field with
#: (stored with the result) reads nothing more: it is worked out from the locked roster.
MOST_SELECTS = 45


@pytest.fixture
def fixture(app: Flask) -> tuple[User, League, Team, Team]:
    commissioner = make_user("commish")
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", HUMANS)
    away = make_active_team(bram, league, "human", "Barons", HUMANS)
    return commissioner, league, home, away


def _record(fixture: tuple[User, League, Team, Team], players_each: int) -> QueryCounter:
    """Schedule a match, then record it with `players_each` players of each team in it,
    every one with an event; the statements of the recording alone."""
    commissioner, league, home, away = fixture
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, commissioner, league.id, home.id, away.id).id
    lines = []
    for team, score in ((home, 2), (away, 1)):
        roster = sorted(db.session.get(Team, team.id).players, key=lambda p: p.number)
        scorers = roster[:score]
        lines += [PlayerEvents(p.id, td=1) for p in scorers]
        lines += [PlayerEvents(p.id, comp=1) for p in roster[score:players_each]]
    report = MatchReport(
        home=SideReport(score=2, mistake_d6=6, winnings=50_000),
        away=SideReport(score=1, mistake_d6=6, winnings=40_000),
        players=tuple(lines),
        fan_attendance=8,
    )
    db.session.expire_all()
    with counting(db.engine) as counter, unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)
    return counter


def _selects(counter: QueryCounter) -> list[str]:
    return [s for s in counter.statements if s.lstrip().upper().startswith("SELECT")]


def test_a_22_player_report_reads_what_it_needs_once(fixture) -> None:
    selects = _selects(_record(fixture, players_each=11))
    listing = "\n".join(selects)
    assert len(selects) <= MOST_SELECTS, f"{len(selects)} SELECTs\n{listing}"
    # The match's ledger: what each team booked for it and what its pre-game spent, one
    # statement each for both teams (it was two per team, read again for each use).
    booked = [s for s in selects if "FROM treasury_entry" in s and "match_id" in s]
    spent = [s for s in selects if "sum(pregame_side.treasury_spent)" in s]
    assert (len(booked), len(spent)) == (1, 1), listing
    # The match-day players (none taken on here): read once, not again after an unchanged sync.
    assert sum("player.match_day_match_id = " in s for s in selects) == 1, listing


def test_the_reads_do_not_grow_with_the_players_reported(fixture) -> None:
    """A 2-player report and a 22-player one read the same number of times (no N+1)."""
    few = len(_selects(_record(fixture, players_each=1)))
    many = len(_selects(_record(fixture, players_each=11)))
    assert many == few
