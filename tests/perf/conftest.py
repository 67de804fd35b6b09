"""Leagues to measure: the tiny demo and the full large set, each in its own database.

The requests of these tests run outside any app context, as in production, so
each gets a fresh database session (nothing is already in an identity map) and
the queries counted are the ones a real request sends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import String, cast, event, select, update
from sqlalchemy.engine import Engine

from bench._common import heavy_pages, log_in
from league.extensions import db
from league.models import League, Team, User
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.seeding.large_demo import seed_large_demo
from league.services.unit_of_work import unit_of_work
from tests.conftest import (
    ON_POSTGRES,
    create_postgres_database,
    drop_postgres_database,
    make_app,
)


@dataclass(frozen=True, slots=True)
class Measured:
    """A seeded league and where its heavy pages are."""

    app: Flask
    engine: Engine
    league_id: int
    team_id: int
    player_id: int
    match_id: int
    commissioner_id: int
    #: The username of the heavy team's coach (their profile page).
    coach: str = ""

    def client(self, *, signed_in: bool = False) -> FlaskClient:
        client = self.app.test_client()
        if signed_in:
            log_in(client, self.commissioner_id)
        return client


class QueryCounter:
    """Statements sent to the database (a before_cursor_execute listener)."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.statements.append(statement)

    @property
    def count(self) -> int:
        return len(self.statements)


@contextmanager
def counting(engine: Engine) -> Iterator[QueryCounter]:
    counter = QueryCounter()
    event.listen(engine, "before_cursor_execute", counter)
    try:
        yield counter
    finally:
        event.remove(engine, "before_cursor_execute", counter)


@contextmanager
def _database(name: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if ON_POSTGRES:
        url = create_postgres_database(f"league_perf_{name}")
        try:
            yield url
        finally:
            drop_postgres_database(url)
    else:
        yield f"sqlite:///{tmp_path_factory.mktemp(name) / 'perf.sqlite3'}"


@pytest.fixture(scope="module", params=["tiny", "large"])
def measured(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Measured]:
    """The tiny demo league (2 teams, 1 result) and `seed-demo --large` (200 teams, 10 seasons)."""
    with _database(request.param, tmp_path_factory) as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                if request.param == "tiny":
                    seed_demo(session)
                else:
                    seed_large_demo(session)
                # Every team dressed, every other one with a logo: the badges on the
                # tables and pages read their team's row, never one more query per row.
                session.execute(
                    update(Team).values(primary_colour="#1f4e9c", secondary_colour="#ffffff")
                )
                session.execute(
                    update(Team)
                    .where(Team.id % 2 == 0)
                    .values(logo_key=cast(Team.id, String) + "-0123456789abcdef")
                )
            league_id = db.session.scalar(
                select(League.id).where(League.ruleset_id == "bb2025").order_by(League.id)
            )
            commissioner_id = db.session.scalar(
                select(User.id).where(User.username == DEMO_COMMISSIONER)
            )
            assert league_id
            assert commissioner_id
            team_id, player_id, match_id = heavy_pages(league_id)
            coach = db.session.scalar(
                select(User.username).join(Team, Team.coach_id == User.id).where(Team.id == team_id)
            )
            assert coach
            engine = db.engine
            db.session.remove()
        yield Measured(app, engine, league_id, team_id, player_id, match_id, commissioner_id, coach)
        engine.dispose()
