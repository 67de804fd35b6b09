"""Concurrency soak on PostgreSQL: many threads hire, record, advance and void in one league.

N threads each run M operations, picked at random, against one BB2025 league
of six teams, through the services: one transaction each that, like a view,
first reads the team (unlocked) and then calls the service, which locks:

- hire: a player of a random position for a random team (refused: no gold,
  position or roster full);
- record: a result between two random teams, with touchdowns, casualties,
  completions, an MVP and now and then an injury (refused: a player who misses
  the match, dead, ...);
- advance: a chosen skill for a random player with the SPP for it (refused:
  someone spent them first, ...);
- void: a random played match (refused: its SPP or gold were spent, ...).

It prints operations per second and, per kind, the successes and the refusals
by code. Then it checks the league from scratch: `services.recompute.check_all`
(what `flask recompute --check` runs) must find no difference, no treasury may
be negative, no player may have spent more SPP than he earned or other than his
advancements cost. Exit status 1 when any check fails or any operation raised
something other than a refusal (DomainError, ReportErrors): in a request that
would be a 500.

The database is a new one on TEST_POSTGRES_SERVER (default
postgresql+psycopg://postgres@127.0.0.1:5432), dropped at the end. Without a
server the soak is skipped (exit 0) unless CI=true.

    python bench/soak.py            # 8 threads x 100 operations (a minute or so)
    python bench/soak.py --short    # 6 threads x 25 operations (a few seconds; `make test`)
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from sqlalchemy import func, select

from bench._common import POSTGRES_SERVER, postgres_reachable, postgres_url, summary
from league import create_app
from league.extensions import db
from league.models import Advancement, Match, Player, Team, TreasuryEntry, User
from league.models.player import ON_ROSTER
from league.services import access, leagues, matches, recompute, teams, users
from league.services.advancement import AdvancementRequest, buy_advancement, options_for
from league.services.errors import DomainError
from league.services.matches import MatchReport, PlayerEvents, ReportErrors, SideReport
from league.services.unit_of_work import unit_of_work
from tests.conftest import IN_CI

PASSWORD = "soak password"  # noqa: S105  (throwaway accounts in a throwaway database)
TEAMS = (
    ("Reikland Reavers", "human"),
    ("Gouged Eye", "orc"),
    ("Athelorn Avengers", "wood-elf"),
    ("Darkside Cowboys", "dark-elf"),
    ("Grudgebearers", "dwarf"),
    ("Lowdown Rats", "skaven"),
)
#: Each team starts with this many linemen (then the soak hires more).
STARTING_PLAYERS = 11
MAX_PLAYERS = 16
KINDS = ("hire", "record", "advance", "void")
#: How often each kind is picked.
WEIGHTS = (3, 4, 3, 1)
CHOSEN_KINDS = ("chosen_primary", "chosen_secondary")


# ---------------------------------------------------------------------------
# The league


@dataclass(frozen=True, slots=True)
class League:
    id: int
    commissioner: int
    #: team id -> its coach's user id
    coaches: dict[int, int]


def seed_league() -> League:
    with unit_of_work() as session:
        commissioner = users.create_user(session, users.NewUser("soak_commish", PASSWORD))
        coaches = [
            users.create_user(session, users.NewUser(f"soak_coach{n}", PASSWORD))
            for n in range(len(TEAMS))
        ]
        league = leagues.create_league(
            session, commissioner, leagues.LeagueSettings("Soak League", "bb2025")
        )
        for coach in coaches:
            leagues.add_member(session, commissioner, league, coach, "coach")
        team_coaches = {}
        for (name, team_type), coach in zip(TEAMS, coaches, strict=True):
            team = teams.create_team(
                session, coach, teams.NewTeam(league.id, name, team_type, active=True)
            )
            # The linemen: the position with the most places (the cheapest among equals).
            lineman = max(access.team_type_of(team).positions, key=lambda p: (p.max, -p.cost))
            for number in range(1, STARTING_PLAYERS + 1):
                command = teams.HirePlayer(lineman.id, f"{name} {number}", number)
                teams.hire_player(session, coach, team.id, command)
            team_coaches[team.id] = coach.id
        return League(league.id, commissioner.id, team_coaches)


# ---------------------------------------------------------------------------
# The operations (each one transaction, like one request)


def _actor(league: League, team_id: int, rng: random.Random) -> User:
    """The team's coach, or now and then the commissioner."""
    user_id = league.commissioner if rng.random() < 0.2 else league.coaches[team_id]
    return db.session.get(User, user_id)  # type: ignore[return-value]


def hire(league: League, rng: random.Random) -> None:
    with unit_of_work() as session:
        # Mostly a team with room (read unlocked: another thread may fill it first).
        rosters = dict(
            session.execute(
                select(Player.team_id, func.count())
                .where(Player.team_id.in_(league.coaches), Player.status.in_(ON_ROSTER))
                .group_by(Player.team_id)
            ).all()
        )
        room = [team_id for team_id in league.coaches if rosters.get(team_id, 0) < MAX_PLAYERS]
        team_id = rng.choice(room if room and rng.random() < 0.9 else list(league.coaches))
        actor = _actor(league, team_id, rng)
        team = access.get_team(session, team_id)
        position = rng.choice(access.team_type_of(team).positions)
        command = teams.HirePlayer(position.id, f"Soak {rng.randrange(10**6)}")
        teams.hire_player(session, actor, team_id, command)


def _side_events(players: list[Player], score: int, rng: random.Random) -> tuple[PlayerEvents, ...]:
    # Players who miss this match play now and then: the service refuses those reports.
    players = [p for p in players if p.status == "active" or rng.random() < 0.05]
    if not players:
        return ()
    scorers = [rng.choice(players) for _ in range(score)]
    mvp = rng.choice(players)
    events: dict[int, dict[str, object]] = {}
    for player in players:
        line: dict[str, object] = {
            "td": scorers.count(player),
            "cas": rng.choice((0, 0, 0, 1)),
            "comp": rng.choice((0, 0, 1)),
            "mvp": 1 if player is mvp else 0,
        }
        if rng.random() < 0.05:
            line["injury"] = rng.choice(("badly_hurt", "seriously_hurt"))
        if any(line.values()):
            events[player.id] = line
    return tuple(PlayerEvents(player_id, **line) for player_id, line in events.items())  # type: ignore[arg-type]


def record(league: League, rng: random.Random) -> None:
    home_id, away_id = rng.sample(list(league.coaches), 2)
    with unit_of_work() as session:
        actor = db.session.get(User, league.commissioner)
        home, away = (access.get_team(session, team_id) for team_id in (home_id, away_id))
        scores = rng.randrange(4), rng.randrange(4)
        players = []
        for team, score in zip((home, away), scores, strict=True):
            fit = [p for p in access.roster(team) if p.status == "active"]  # not missing the game
            players.extend(_side_events(fit, score, rng))
        report = MatchReport(
            SideReport(score=scores[0], winnings=10_000 * (1 + scores[0])),
            SideReport(score=scores[1], winnings=10_000 * (1 + scores[1])),
            players=tuple(players),
            fan_attendance=rng.randrange(2, 12),
        )
        key = uuid.uuid4().hex if rng.random() < 0.5 else None
        matches.record_new_match(
            session, actor, league.id, home_id, away_id, report, idempotency_key=key
        )


def advance(league: League, rng: random.Random) -> None:
    team_id = rng.choice(list(league.coaches))
    with unit_of_work() as session:
        actor = _actor(league, team_id, rng)
        team = access.get_team(session, team_id)
        candidates = [p for p in access.roster(team) if p.spp_available >= 3]
        if not candidates:
            candidates = access.roster(team)
        if not candidates:
            return
        player = rng.choice(candidates)
        options = [o for o in options_for(player).options if o.kind in CHOSEN_KINDS]
        affordable = [o for o in options if o.affordable and o.skills] or options
        if not affordable:
            return
        option = rng.choice(affordable)
        skill = rng.choice(option.skills) if option.skills else "Block"
        buy_advancement(session, actor, player.id, AdvancementRequest(option.kind, skill))


def void(league: League, rng: random.Random) -> None:
    with unit_of_work() as session:
        actor = db.session.get(User, league.commissioner)
        played = list(
            session.scalars(
                select(Match.id).where(Match.league_id == league.id, Match.state == "played")
            )
        )
        if not played:
            return
        matches.void_match(session, actor, rng.choice(played))


OPERATIONS: dict[str, Callable[[League, random.Random], None]] = {
    "hire": hire,
    "record": record,
    "advance": advance,
    "void": void,
}


# ---------------------------------------------------------------------------
# Running


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: Counter[str] = field(default_factory=Counter)
    refused: dict[str, Counter[str]] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    errors: list[str] = field(default_factory=list)


def worker(app: Flask, league: League, operations: int, seed: int, tally: Tally) -> None:
    """Run `operations` random operations; a worker that dies counts as an unexpected error."""
    try:
        _work(app, league, operations, seed, tally)
    except Exception:  # the soak's own bookkeeping failed: it must not pass unnoticed
        with tally.lock:
            tally.errors.append(f"worker died: {traceback.format_exc()}")


def _work(app: Flask, league: League, operations: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    with app.app_context():
        for _ in range(operations):
            kind = rng.choices(KINDS, WEIGHTS)[0]
            try:
                OPERATIONS[kind](league, rng)
            except ReportErrors as report:
                where = next(iter(report.fields), "") or "report"  # the first field refused
                with tally.lock:
                    tally.refused[kind][f"invalid {where}"] += 1
            except DomainError as error:
                with tally.lock:
                    tally.refused[kind][error.code] += 1
            except Exception:  # anything else would be a 500 in a request
                with tally.lock:
                    tally.errors.append(f"{kind}: {traceback.format_exc()}")
            else:
                with tally.lock:
                    tally.done[kind] += 1
            finally:
                db.session.remove()


def check(league: League) -> list[str]:
    """Everything wrong with the league after the soak (empty: all is well)."""
    problems = [f"recompute: {d}" for d in recompute.check_all(db.session)]
    for team in db.session.scalars(select(Team).where(Team.league_id == league.id)):
        if team.treasury < 0:
            problems.append(f"{team.name}: negative treasury {team.treasury:,}")
        ledger = db.session.scalar(
            select(func.coalesce(func.sum(TreasuryEntry.amount), 0)).where(
                TreasuryEntry.team_id == team.id
            )
        )
        if ledger != team.treasury:
            problems.append(f"{team.name}: treasury {team.treasury:,}, ledger {ledger:,}")
    for player in db.session.scalars(select(Player)):
        spent = db.session.scalar(
            select(func.coalesce(func.sum(Advancement.spp_cost), 0)).where(
                Advancement.player_id == player.id, Advancement.undone_at.is_(None)
            )
        )
        if player.spp_spent != spent:
            problems.append(
                f"{player.name}: spent {player.spp_spent} SPP, advancements cost {spent}"
            )
        if player.spp_spent > player.spp_earned:
            problems.append(
                f"{player.name}: spent {player.spp_spent} SPP of {player.spp_earned} earned"
            )
    return problems


def run(threads: int, operations: int, seed: int) -> int:
    with postgres_url("league_soak") as url:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": "soak",
                "LEAGUE_ENV": "testing",
                "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": threads + 2, "max_overflow": 4},
            }
        )
        with app.app_context():
            db.create_all()
            league = seed_league()
            db.session.remove()
        tally = Tally()
        workers = [
            threading.Thread(target=worker, args=(app, league, operations, seed + n, tally))
            for n in range(threads)
        ]
        started = time.perf_counter()
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
        seconds = time.perf_counter() - started
        with app.app_context():
            problems = check(league)
            db.session.remove()
            db.engine.dispose()

    total = threads * operations
    print(f"soak: {threads} threads x {operations} operations on PostgreSQL (seed {seed})")
    print(f"operations: {total} in {seconds:.1f} s")
    print(f"throughput: {total / seconds:.0f} operations/s")
    for kind in KINDS:
        refusals = ", ".join(f"{code} {n}" for code, n in tally.refused[kind].most_common())
        print(
            f"{kind}: {tally.done[kind]} done, {sum(tally.refused[kind].values())} refused"
            + (f" ({refusals})" if refusals else "")
        )
    print(f"unexpected errors: {len(tally.errors)}")
    print(f"consistency problems: {len(problems)}")
    summary(
        "soak.py",
        f"{total} concurrent operations on PostgreSQL",
        f"{total / seconds:.0f}/s, {len(tally.errors)} errors, {len(problems)} problems",
    )
    for error in tally.errors[:5]:
        print(f"\n{error}", file=sys.stderr)
    for problem in problems[:20]:
        print(f"  {problem}", file=sys.stderr)
    return 1 if tally.errors or problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="a few seconds (make test)")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--operations", type=int, help="operations per thread")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    threads = args.threads or (6 if args.short else 8)
    operations = args.operations or (25 if args.short else 100)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    why = postgres_reachable()
    if why is not None:
        message = f"PostgreSQL is not reachable at {POSTGRES_SERVER}: {why}"
        if IN_CI:
            print(f"soak: FAILED: {message} (CI=true: the soak is required)", file=sys.stderr)
            return 1
        print(f"soak: SKIPPED: {message}")
        return 0
    return run(threads, operations, seed)


if __name__ == "__main__":
    sys.exit(main())
