"""Write-side timings: recording a 22-player match report, buying an advancement.

Each is timed as one transaction (service call and commit), p50 over a number
of rounds, on the tiny demo league (`flask seed-demo`) and on the large set
(`flask seed-demo --large`: teams with some 66 matches of history each), on
SQLite and on PostgreSQL when a server answers. The two should cost about the
same: neither may grow with a team's history or the league's size, and the
ratio large/tiny is printed against its goal (at most 1.2x). The rounds on the
two sets take turns, so a busy machine slows both alike. Measures only.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from sqlalchemy import select

from bench._common import QueryCounter, backends, make_app, p50_p95, print_table, summary
from league.extensions import db
from league.models import League, Player, Team, User
from league.rules import advancement_cost, legal_skills
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.seeding.large_demo import LargeDemoSize, seed_large_demo
from league.services.access import get_team, team_ruleset, team_type_of
from league.services.advancement import (
    AdvancementRequest,
    buy_advancement,
    held_skills,
    undo_last_advancement,
)
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_result
from league.services.matches import schedule_match as schedule
from league.services.teams import HirePlayer, hire_player
from league.services.unit_of_work import unit_of_work

ROUNDS = 30
RECORD = "record a 22-player report"
BUY = "buy an advancement"
WARM_UP = 2
#: The large set may cost at most this many times what the tiny league costs (issue 18).
GOAL = 1.2


def _two_teams(commissioner: User, league_id: int) -> tuple[int, int]:
    """Two teams of the league with eleven players fit to play (hiring linemen if need be)."""
    team_ids = list(
        db.session.scalars(
            select(Team.id)
            .where(Team.league_id == league_id, Team.status == "active")
            .order_by(Team.id)
            .limit(2)
        )
    )
    for team_id in team_ids:
        with unit_of_work() as session:
            team = get_team(session, team_id)
            fit = sum(1 for p in team.players if p.status == "active")
            cheapest = min(team_type_of(team).positions, key=lambda p: (p.cost, -p.max))
            for number in range(fit, 11):
                hire_player(
                    session, commissioner, team_id, HirePlayer(cheapest.id, f"Sub {number}")
                )
    return team_ids[0], team_ids[1]


def _report(home_id: int, away_id: int) -> MatchReport:
    """22 players with events: touchdowns, passes, casualties (badly hurt only), MVPs."""
    lines = []
    for team_id in (home_id, away_id):
        players = sorted(
            (p for p in get_team(db.session, team_id).players if p.status == "active"),
            key=lambda p: p.number,
        )[:11]
        for index, player in enumerate(players):
            lines.append(
                PlayerEvents(
                    player.id,
                    td=1 if index < 2 else 0,
                    comp=1 if index in (2, 3, 4) else 0,
                    cas=1 if index in (5, 6) else 0,
                    interceptions=1 if index == 7 else 0,
                    mvp=1 if index == 8 else 0,
                    # Badly hurt: nobody misses the next round of the benchmark.
                    injury="badly_hurt" if index in (9, 10) else None,
                )
            )
    return MatchReport(
        home=SideReport(score=2, mistake_d6=6, winnings=50_000),
        away=SideReport(score=2, mistake_d6=6, winnings=50_000),
        players=tuple(lines),
        fan_attendance=8,
    )


def _advancement_target(league_id: int) -> tuple[int, AdvancementRequest] | None:
    """A player on the roster who can afford a chosen primary skill now, and a legal one."""
    for player in db.session.scalars(
        select(Player)
        .join(Team, Team.id == Player.team_id)
        .where(Team.league_id == league_id, Player.status.in_(("active", "mng")))
        .order_by(Player.id)
    ):
        ruleset = team_ruleset(player.team)
        taken = len(player.active_advancements)
        if taken >= ruleset.advancement.max_advancements:
            continue
        if player.spp_available < advancement_cost(ruleset, "chosen_primary", taken + 1):
            continue
        position = team_type_of(player.team).position(player.position_id)
        held = held_skills(position, player)
        skills = [
            s
            for s in legal_skills(ruleset, position, held, "chosen_primary")
            if s.category in position.primary
        ]
        if skills:
            return player.id, AdvancementRequest("chosen_primary", skill=skills[0].name)
    return None


def _unit_of_work(
    counter: QueryCounter, service: Callable[..., object], *args: object
) -> tuple[float, int]:
    """Seconds and statements of one unit of work calling `service(session, *args)`, with
    nothing left in the identity map from before."""
    db.session.expire_all()
    with counter.attached():
        began = time.perf_counter()
        with unit_of_work() as session:
            service(session, *args)
        return time.perf_counter() - began, counter.count


@dataclass
class Seeded:
    """One seeded league set, and what its rounds need (ids: each round has its own session)."""

    app: Flask
    commissioner_id: int
    league_id: int
    home_id: int
    away_id: int
    #: Who buys the advancement: found once the reports have given the players SPP.
    advancement: tuple[int, AdvancementRequest] | None = None
    #: Seconds of each round and statements of the last one, by transaction.
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    queries: dict[str, int] = field(default_factory=dict)

    def timed(self, transaction: str, seconds: float, queries: int) -> None:
        self.times[transaction].append(seconds)
        self.queries[transaction] = queries


@contextmanager
def seeded(label: str, url_context: Callable[[], Any], size: str) -> Iterator[Seeded]:
    with url_context() as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            started = time.perf_counter()
            with unit_of_work() as session:
                if size == "tiny":
                    seed_demo(session)
                else:
                    seed_large_demo(session, LargeDemoSize())
            print(f"{label}, {size} league: seeded in {time.perf_counter() - started:.1f}s")
            commissioner = db.session.scalar(select(User).where(User.username == DEMO_COMMISSIONER))
            league_id = db.session.scalar(
                select(League.id).where(League.ruleset_id == "bb2025").order_by(League.id)
            )
            assert commissioner is not None  # noqa: S101 - seeded
            assert league_id is not None  # noqa: S101 - seeded
            commissioner_id = commissioner.id
            home_id, away_id = _two_teams(commissioner, league_id)
            db.session.remove()
        try:
            yield Seeded(app, commissioner_id, league_id, home_id, away_id)
        finally:
            with app.app_context():
                db.engine.dispose()


def _record_round(league: Seeded) -> None:
    with league.app.app_context():
        commissioner = db.session.get(User, league.commissioner_id)
        with unit_of_work() as session:
            match_id = schedule(
                session, commissioner, league.league_id, league.home_id, league.away_id
            ).id
        report = _report(league.home_id, league.away_id)
        league.timed(
            RECORD,
            *_unit_of_work(QueryCounter(db.engine), record_result, commissioner, match_id, report),
        )


def _buy_round(league: Seeded) -> None:
    assert league.advancement is not None  # noqa: S101 - asked for only when there is one
    player_id, request = league.advancement
    with league.app.app_context():
        commissioner = db.session.get(User, league.commissioner_id)
        league.timed(
            BUY,
            *_unit_of_work(
                QueryCounter(db.engine), buy_advancement, commissioner, player_id, request
            ),
        )
        with unit_of_work() as session:
            undo_last_advancement(session, commissioner, player_id)


def measure(label: str, url_context: Callable[[], Any]) -> list[tuple[object, ...]]:
    """Both transactions on both league sets of one database, the rounds taking turns
    (tiny, large, tiny, ...): whatever else the machine does meanwhile weighs on both."""
    with seeded(label, url_context, "tiny") as tiny, seeded(label, url_context, "large") as large:
        for _ in range(ROUNDS + WARM_UP):
            for league in (tiny, large):
                _record_round(league)
        for league in (tiny, large):
            with league.app.app_context():
                league.advancement = _advancement_target(league.league_id)
        if tiny.advancement and large.advancement:
            for _ in range(ROUNDS + WARM_UP):
                for league in (tiny, large):
                    _buy_round(league)
        else:
            print(f"{label}: no player can afford an advancement, none bought")
        rows: list[tuple[object, ...]] = []
        for transaction in large.times:
            small, big = (p50_p95(s.times[transaction][WARM_UP:])[0] for s in (tiny, large))
            rows.append(
                (
                    label,
                    transaction,
                    f"{small:.1f}",
                    f"{big:.1f}",
                    f"{big / small:.2f}x",
                    f"{GOAL:.1f}x",
                    f"{tiny.queries[transaction]} / {large.queries[transaction]}",
                )
            )
    return rows


def main() -> None:
    rows: list[tuple[object, ...]] = []
    for label, url_context in backends():
        rows += measure(label, url_context)
    print(f"p50 of {ROUNDS} transactions each (service call and commit), in ms")
    print_table(
        (
            "database",
            "transaction",
            "tiny p50",
            "large p50",
            "large/tiny",
            "goal",
            "queries tiny / large",
        ),
        rows,
    )
    for database, transaction, small, big, ratio, goal, _queries in rows:
        summary(
            "services.py",
            f"{database}: {transaction}",
            f"{small} -> {big} ms p50, {ratio} (goal <= {goal})",
        )


if __name__ == "__main__":
    main()
