"""Helpers shared by the benchmark scripts (not a benchmark: bench/run.py skips _*.py)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from league import create_app
from league.extensions import db
from league.models import Match, MatchPlayer, Player, Team, User
from tests.conftest import POSTGRES_SERVER, create_postgres_database, drop_postgres_database


def make_app(url: str, **config: Any) -> Flask:
    settings: dict[str, Any] = {
        "SQLALCHEMY_DATABASE_URI": url,
        "SECRET_KEY": "bench",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
    }
    settings.update(config)
    return create_app(settings)


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        yield f"sqlite:///{tmp}/bench.sqlite3"


def postgres_reachable() -> str | None:
    """None when a server answers at POSTGRES_SERVER, else why not."""
    try:
        engine = create_engine(f"{POSTGRES_SERVER}/postgres", connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
    except OperationalError as error:
        return str(error.orig).strip().splitlines()[0]
    return None


@contextmanager
def postgres_url(prefix: str = "league_bench") -> Iterator[str]:
    """A fresh PostgreSQL database for the run, dropped afterwards."""
    url = create_postgres_database(prefix, durable=True)
    try:
        yield url
    finally:
        drop_postgres_database(url)


def backends() -> list[tuple[str, Callable[[], Any]]]:
    """(label, url context manager): SQLite always, PostgreSQL when a server answers."""
    found: list[tuple[str, Callable[[], Any]]] = [("SQLite", sqlite_url)]
    reason = postgres_reachable()
    if reason is None:
        found.append(("PostgreSQL", postgres_url))
    else:
        print(f"PostgreSQL skipped: not reachable at {POSTGRES_SERVER} ({reason})")
    return found


class QueryCounter:
    """Counts the statements an engine sends (a before_cursor_execute listener)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.count = 0

    def __call__(self, *_args: Any, **_kwargs: Any) -> None:
        self.count += 1

    @contextmanager
    def attached(self) -> Iterator[QueryCounter]:
        self.count = 0
        event.listen(self.engine, "before_cursor_execute", self)
        try:
            yield self
        finally:
            event.remove(self.engine, "before_cursor_execute", self)


def biggest_team(league_id: int) -> int | None:
    """The league's team with the most players on its books (the longest roster page)."""
    return db.session.scalar(
        select(Player.team_id)
        .join(Team, Team.id == Player.team_id)
        .where(Team.league_id == league_id)
        .group_by(Player.team_id)
        .order_by(func.count().desc(), Player.team_id)
        .limit(1)
    )


def heavy_pages(league_id: int) -> tuple[int, int, int]:
    """Where a league's heavy pages are: its biggest team, that team's busiest player on the
    roster, a fixture to report (team, player and match ids)."""
    team_id = biggest_team(league_id)
    player_id = db.session.scalar(
        select(Player.id)
        .outerjoin(MatchPlayer, MatchPlayer.player_id == Player.id)
        .where(Player.team_id == team_id, Player.status.in_(("active", "mng")))
        .group_by(Player.id)
        .order_by(func.count(MatchPlayer.id).desc(), Player.id)
        .limit(1)
    )
    match_id = db.session.scalar(
        select(Match.id)
        .where(Match.league_id == league_id, Match.state == "scheduled")
        .order_by(Match.id)
        .limit(1)
    )
    if not (team_id and player_id and match_id):
        raise LookupError(f"league {league_id}: no team, player or fixture to measure")
    return team_id, player_id, match_id


def log_in(client: FlaskClient, user_id: int) -> None:
    """Sign the test client in as `user_id` (Flask-Login's session key), no form needed."""
    with client.application.app_context():  # the cookie carries the user's session secret
        secret = db.session.get(User, user_id).session_secret
    with client.session_transaction() as session:
        session["_user_id"] = secret
        session["_fresh"] = True


def timed(action: Callable[[], object], rounds: int, warm_up: int = 2) -> list[float]:
    """Seconds per call, after `warm_up` calls."""
    for _ in range(warm_up):
        action()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def p50_p95(times: Sequence[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def summary(benchmark: str, what: str, figure: str) -> None:
    """Offer one headline figure to `make bench`'s closing summary table.

    bench/run.py names a file in BENCH_SUMMARY; run alone, a script just prints.
    """
    path = os.environ.get("BENCH_SUMMARY")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{benchmark}\t{what}\t{figure}\n")


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    cells = [[str(c) for c in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for index, row in enumerate(cells):
        line = "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        print(line)
        if index == 0:
            print("  ".join("-" * width for width in widths))
