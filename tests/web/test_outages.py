"""Passing outages answer 503 with Retry-After, never 500 (issue 33, points 8 and 9).

- SQLite's write lock held by another connection for longer than the busy timeout: the
  write is refused with 503 on pages and in the API, and nothing of it is saved.
- The job queue (Redis) out of reach: the league pack's page and its status.json say the
  pack is unavailable for now (503); a change whose webhooks and sheets would be queued
  after its commit still succeeds.
"""

from __future__ import annotations

import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

import league
from league import jobs, outages
from league.extensions import db
from league.models import Team, User, WebhookDelivery
from league.outages import DATABASE_RETRY_AFTER, QUEUE_RETRY_AFTER
from league.services import webhooks
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.conftest import make_app
from tests.factories import make_league, make_team, make_user
from tests.pages import login, text_of
from tests.pdf import sample
from tests.pdf.test_jobs import active_teams

#: Nothing listens on port 1: connecting is refused at once.
CLOSED_REDIS = "redis://127.0.0.1:1/0"
#: BB2025 Human roster: a team re-roll costs 50,000 while the draft lasts.
HUMAN_REROLL_IN_DRAFT = 50_000


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


# The database held past the busy timeout ------------------------------------------


@pytest.fixture
def file_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """An app on a SQLite file whose connections wait 0.1 s for the write lock (15 s in
    production): long enough to see the wait give up, short enough for a test."""
    monkeypatch.setattr(league, "SQLITE_BUSY_TIMEOUT_MS", 100)
    app = make_app(f"sqlite:///{tmp_path / 'league.sqlite3'}")
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def write_lock(file_app: Flask, tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection on the same file, ready to take the write lock (BEGIN IMMEDIATE)."""
    holder = sqlite3.connect(tmp_path / "league.sqlite3", isolation_level=None)
    yield holder
    holder.close()


def test_a_page_write_waiting_past_the_busy_timeout_is_a_503_and_saves_nothing(
    file_app: Flask, write_lock: sqlite3.Connection
) -> None:
    coach = make_user("grim")
    team = make_team(coach, make_league(coach))
    treasury = team.treasury
    client = file_app.test_client()
    login(client, "grim")

    write_lock.execute("BEGIN IMMEDIATE")
    refused = client.post(f"/teams/{team.id}/buy", data={"item": "reroll"})
    # Reading is not held up by the other connection's write lock (WAL).
    assert client.get(f"/teams/{team.id}").status_code == 200
    write_lock.execute("ROLLBACK")

    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert "The database is busy with other changes and nothing was saved." in text_of(refused.text)
    db.session.expire_all()
    unchanged = db.session.get(Team, team.id)
    assert (unchanged.treasury, unchanged.rerolls) == (treasury, 0)
    # The lock gone, the same form goes through.
    assert client.post(f"/teams/{team.id}/buy", data={"item": "reroll"}).status_code == 302
    db.session.expire_all()
    bought = db.session.get(Team, team.id)
    assert (bought.treasury, bought.rerolls) == (treasury - HUMAN_REROLL_IN_DRAFT, 1)


def test_an_api_write_waiting_past_the_busy_timeout_is_a_503_and_saves_nothing(
    file_app: Flask, write_lock: sqlite3.Connection
) -> None:
    coach = make_user("grim")
    league_id = make_league(coach).id
    headers = auth(coach)
    client = file_app.test_client()
    teams_url = f"/api/v1/leagues/{league_id}/teams"
    # The token's first use is noted (a write) before the lock is taken.
    assert client.get(f"/api/v1/leagues/{league_id}", headers=headers).status_code == 200

    write_lock.execute("BEGIN IMMEDIATE")
    refused = client.post(
        teams_url, headers=headers, json={"name": "Reikland Reavers", "team_type": "human"}
    )
    write_lock.execute("ROLLBACK")

    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert refused.json == {
        "error": {
            "code": "service_unavailable",
            "message": "The database is busy with other changes and nothing was saved. "
            "Try again in a few seconds.",
        }
    }
    assert db.session.scalars(select(Team)).all() == []
    created = client.post(
        teams_url, headers=headers, json={"name": "Reikland Reavers", "team_type": "human"}
    )
    assert created.status_code == 201, created.json
    assert [team.name for team in db.session.scalars(select(Team))] == ["Reikland Reavers"]


def test_only_a_lock_held_too_long_is_a_passing_outage(
    file_app: Flask, write_lock: sqlite3.Connection
) -> None:
    # A statement that writes inside a transaction begun without the lock (not a service's
    # unit of work): SQLAlchemy wraps the driver's "database is locked".
    write_lock.execute("BEGIN IMMEDIATE")
    with pytest.raises(OperationalError) as locked, db.engine.begin() as connection:
        connection.execute(text("CREATE TABLE scratch (id INTEGER)"))
    write_lock.execute("ROLLBACK")
    unavailable = outages.as_unavailable(locked.value)
    assert unavailable is not None
    assert (unavailable.code, unavailable.retry_after) == (503, DATABASE_RETRY_AFTER)
    # Any other database error is a fault of ours: it stays a logged 500.
    with pytest.raises(OperationalError) as fault, db.engine.begin() as connection:
        connection.execute(text("SELECT * FROM no_such_table"))
    assert outages.as_unavailable(fault.value) is None


# The job queue out of reach -------------------------------------------------------


@pytest.fixture
def queue_down(app: Flask) -> Iterator[None]:
    """The app's job queue on a Redis that is not there (the next app resets the queue)."""
    app.config["JOB_QUEUE"] = CLOSED_REDIS
    jobs.init_app(app)
    yield
    app.config["JOB_QUEUE"] = "immediate"
    jobs.init_app(app)


def test_the_pack_is_shown_unavailable_while_the_queue_is_down(
    client: FlaskClient, queue_down: None
) -> None:
    commissioner, coach = sample.make_users()
    pack_league = sample.make_sample_league(commissioner, coach, "Queue League")
    active_teams(coach, pack_league, ("Ants", "Bees"))
    login(client, commissioner.username, sample.PASSWORD)
    message = (
        "The league pack cannot be built for now: the job queue does not answer. "
        "Try again in a minute. Each team's roster PDF still prints on its own."
    )

    page = client.get(f"/leagues/{pack_league.id}/rosters")
    assert page.status_code == 503
    assert page.headers["Retry-After"] == str(QUEUE_RETRY_AFTER)
    assert message in text_of(page.text)
    assert "Build the league pack" not in page.text
    assert "Ants" in page.text  # the teams' own sheets are still listed

    status = client.get(f"/leagues/{pack_league.id}/rosters/status.json")
    assert status.status_code == 503
    assert status.headers["Retry-After"] == str(QUEUE_RETRY_AFTER)
    assert status.json == {"error": {"code": "service_unavailable", "message": message}}

    build = client.post(f"/leagues/{pack_league.id}/rosters/build")
    assert build.status_code == 503
    assert message in text_of(build.text)


def test_a_redis_that_does_not_answer_is_a_503_too(client: FlaskClient, app: Flask) -> None:
    """A Redis that accepts the connection and never answers (hung, or a proxy in front of
    a dead one): redis-py gives up after its 5 s socket timeout, and the page says 503."""
    commissioner, coach = sample.make_users()
    pack_league = sample.make_sample_league(commissioner, coach, "Hung League")
    active_teams(coach, pack_league, ("Ants",))
    login(client, commissioner.username, sample.PASSWORD)
    with socket.create_server(("127.0.0.1", 0)) as silent:
        app.config["JOB_QUEUE"] = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        jobs.init_app(app)
        # Should the client wait for ever, the "Redis" hangs up after 20 s.
        hang_up = threading.Timer(20, silent.close)
        hang_up.start()
        started = time.monotonic()
        page = client.get(f"/leagues/{pack_league.id}/rosters")
        waited = time.monotonic() - started
        hang_up.cancel()
    app.config["JOB_QUEUE"] = "immediate"
    jobs.init_app(app)
    assert page.status_code == 503
    assert waited < 15


def test_a_change_stands_when_its_webhook_and_sheet_cannot_be_queued(
    app: Flask, client: FlaskClient, queue_down: None
) -> None:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="queue", RENDER_AHEAD=True)
    boss = make_user("boss")
    league_id = make_league(boss).id
    with unit_of_work() as session:
        settings = webhooks.WebhookSettings("http://127.0.0.1:9/hook", ("team.created",))
        webhooks.create_webhook(session, session.get(User, boss.id), league_id, settings)

    created = client.post(
        f"/api/v1/leagues/{league_id}/teams",
        headers=auth(boss),
        json={"name": "Reikland Reavers", "team_type": "human"},
    )

    assert created.status_code == 201, created.json
    assert [team.name for team in db.session.scalars(select(Team))] == ["Reikland Reavers"]
    # Still to send: `flask webhooks retry` (or the queue, once back) delivers it.
    [delivery] = db.session.scalars(select(WebhookDelivery)).all()
    assert (delivery.event, delivery.status, delivery.attempts) == ("team.created", "pending", 0)
