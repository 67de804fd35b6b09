"""A large, deterministic demo data set for measuring the application at scale.

`flask seed-demo --large` builds it: by default 200 teams in four leagues (one
per shipped ruleset, every team type in use), ten seasons of fixtures of which
9.5 are played (about 6,700 results with per-player events and injuries), dead
players replaced, advancements bought as coaches would, re-rolls bought with
the winnings. A fixed random seed makes every run produce the same rows (only
the password and its hash differ).

The matches are simulated in Python with the rules engine (the same SPP, injury,
winnings and Expensive Mistakes functions the services call), and the rows are
then written with bulk inserts: going through `record_result` once per match
would recompute each team from its whole history every time. The caches the
services keep (SPP, injuries, status, fans, staff, treasury, value) are written
as the events say, so `recompute.check_all` finds nothing to repair.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from league.models import Advancement, League, Match, MatchPlayer, Player, Team, User
from league.seeding.large_demo.builder import Builder
from league.seeding.large_demo.state import (
    COMMISSIONER,
    FULL_SIZE,
    MID_SIZE,
    TABLES,
    LargeDemoResult,
    LargeDemoSize,
)

__all__ = [
    "COMMISSIONER",
    "MID_SIZE",
    "LargeDemoResult",
    "LargeDemoSize",
    "large_demo_rows",
    "seed_large_demo",
]


def _insert(session: Session, table: type[Any], rows: list[dict[str, Any]]) -> None:
    statement = table.__table__.insert()
    chunk = 5_000
    for start in range(0, len(rows), chunk):
        session.execute(statement, rows[start : start + chunk])


def _reset_sequences(session: Session, tables: Iterable[type[Any]]) -> None:
    """PostgreSQL: move each id sequence past the ids written explicitly."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for table in tables:
        name = table.__tablename__
        if "id" not in table.__table__.c:
            continue
        session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), "  # noqa: S608 (our table names)
                f'GREATEST((SELECT MAX(id) FROM "{name}"), 1))'
            )
        )


def large_demo_rows(
    size: LargeDemoSize,
    password_hash: str,
    progress: Callable[[int], None] = lambda _steps: None,
) -> dict[str, list[dict[str, Any]]]:
    """Every row of the data set, by table name, in insertion order (no database needed).

    The same size gives the same rows (and the same ids, counted from 1).
    """
    builder = Builder(size, progress)
    builder.build(password_hash)
    builder.finish()
    return {table.__tablename__: builder.rows[table] for table in TABLES}


def seed_large_demo(
    session: Session,
    size: LargeDemoSize = FULL_SIZE,
    *,
    progress: Callable[[int], None] = lambda _steps: None,
    password: str | None = None,
) -> LargeDemoResult | None:
    """Build the large data set into an empty database; None when it already has users.

    `progress` is called with a number of steps done (in all, `size.steps`).
    """
    if session.scalar(select(func.count(User.id))):
        return None
    password = password or secrets.token_urlsafe(9)
    rows = large_demo_rows(size, generate_password_hash(password, method="scrypt"), progress)
    for table in TABLES:
        _insert(session, table, rows[table.__tablename__])
        progress(1)
    _reset_sequences(session, TABLES)
    # Fresh planner statistics: without them PostgreSQL picks poor plans on the new rows
    # (until autovacuum gets round to them), and SQLite has none at all.
    session.execute(text("ANALYZE"))
    session.expire_all()
    matches = rows[Match.__tablename__]
    return LargeDemoResult(
        username=COMMISSIONER,
        password=password,
        league_ids=tuple(row["id"] for row in rows[League.__tablename__]),
        teams=len(rows[Team.__tablename__]),
        players=len(rows[Player.__tablename__]),
        matches_played=sum(1 for row in matches if row["state"] == "played"),
        matches_scheduled=sum(1 for row in matches if row["state"] == "scheduled"),
        player_lines=len(rows[MatchPlayer.__tablename__]),
        advancements=len(rows[Advancement.__tablename__]),
    )
