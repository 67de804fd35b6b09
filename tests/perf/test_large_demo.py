"""`flask seed-demo --large`: a deterministic large data set whose caches are all correct."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import func, select

from league.extensions import db
from league.models import Advancement, League, Match, MatchPlayer, Player, Team, TreasuryEntry
from league.seeding.large_demo import (
    MID_SIZE,
    LargeDemoSize,
    large_demo_rows,
    seed_large_demo,
)
from league.services.matches import MatchReport, SideReport, record_new_match
from league.services.recompute import check_all
from league.services.unit_of_work import unit_of_work
from league.services.users import authenticate, find_user

#: Every shipped ruleset, a few teams each, three seasons (the last one half played).
SMALL = LargeDemoSize(teams=24, seasons=3)


def test_the_default_is_the_large_league_set() -> None:
    size = LargeDemoSize()
    assert size.teams == 200
    assert size.seasons == 10
    assert len(size.rulesets) >= 3
    # 9 full seasons and half of the 10th: some 6,600 results for 200 teams.
    results = size.teams // 2 * size.rounds_per_season * (size.seasons - 1) + size.teams // 2 * (
        size.played_rounds_last_season
    )
    assert results >= 6_000


def test_the_same_size_gives_the_same_rows() -> None:
    first = large_demo_rows(MID_SIZE, "hash")
    second = large_demo_rows(MID_SIZE, "hash")
    assert first == second
    other_seed = large_demo_rows(
        LargeDemoSize(teams=20, seasons=3, rulesets=("bb2025",), seed=7), "hash"
    )
    assert other_seed["match_player"] != first["match_player"]


def test_seeds_every_ruleset_and_passes_check_all(app) -> None:
    steps = []
    with unit_of_work() as session:
        result = seed_large_demo(session, SMALL, progress=steps.append, password="large-demo-pw")
    assert result is not None
    assert sum(steps) == SMALL.steps
    session = db.session
    assert result.teams == session.scalar(select(func.count(Team.id))) == 24
    rulesets = set(session.scalars(select(League.ruleset_id)))
    assert rulesets == set(SMALL.rulesets)
    # Several team types per league; players, results, events, injuries, advancements.
    types = Counter(session.scalars(select(Team.team_type_id)))
    assert len(types) >= 12
    assert result.players == session.scalar(select(func.count(Player.id)))
    assert result.players > 24 * 11
    states = Counter(session.scalars(select(Match.state)))
    assert states["played"] == result.matches_played > 0
    assert states["scheduled"] == result.matches_scheduled > 0
    lines = session.scalar(select(func.count(MatchPlayer.id)))
    assert lines == result.player_lines > result.matches_played
    injuries = Counter(
        session.scalars(select(MatchPlayer.injury).where(MatchPlayer.injury.is_not(None)))
    )
    assert {"badly_hurt", "dead"} <= set(injuries)
    assert session.scalar(select(func.count(Player.id)).where(Player.status == "dead"))
    assert result.advancements == session.scalar(select(func.count(Advancement.id))) > 0
    kinds = set(session.scalars(select(Advancement.kind)))
    assert {"chosen_primary", "random_characteristic"} <= kinds
    # Every server roll is in the players' dice logs, linked to the advancement it made.
    server_rolled = select(Advancement).where(Advancement.dice_source == "server")
    assert session.scalars(server_rolled).first() is not None
    assert all(
        a.dice_roll is not None and a.dice_roll.dice == a.dice and a.dice_roll.kind == a.kind
        for a in session.scalars(server_rolled)
    )
    entry_kinds = set(session.scalars(select(TreasuryEntry.kind)))
    assert {"starting", "hire", "purchase", "winnings"} <= entry_kinds
    # The demo accounts work.
    assert authenticate(session, result.username, "large-demo-pw") is not None
    # Every cache (SPP, injuries, status, fans, staff, treasury) matches the events.
    assert check_all(session) == []


def test_new_rows_after_the_seed_get_fresh_ids(app) -> None:
    """Ids were written explicitly; the database's own sequences must continue after them."""
    with unit_of_work() as session:
        seed_large_demo(session, LargeDemoSize(teams=4, seasons=1, rulesets=("bb2025",)))
    last = db.session.scalar(select(func.max(Match.id)))
    commissioner = find_user(db.session, "commissioner")
    home, away = db.session.scalars(select(Team.id).order_by(Team.id).limit(2))
    with unit_of_work() as session:
        match = record_new_match(
            session,
            commissioner,
            1,
            home,
            away,
            MatchReport(home=SideReport(score=0), away=SideReport(score=0)),
        )
    assert match.id == last + 1
    assert check_all(db.session) == []


def test_cli_seed_demo_large(app, runner, tmp_path) -> None:
    app.config["DEMO_CREDENTIALS_FILE"] = str(tmp_path / "credentials.txt")
    result = runner.invoke(args=["seed-demo", "--large", "--teams", "8", "--seasons", "2"])
    assert result.exit_code == 0, result.output
    assert "Seeded 8 teams in 4 leagues" in result.output
    assert "commissioner: commissioner / " in (tmp_path / "credentials.txt").read_text()
    again = runner.invoke(args=["seed-demo", "--large", "--teams", "8"])
    assert again.exit_code == 0
    assert "already has users" in again.output
    assert check_all(db.session) == []


def test_cli_sizes_need_large(runner) -> None:
    result = runner.invoke(args=["seed-demo", "--teams", "8"])
    assert result.exit_code != 0
    assert "--large" in result.output
