"""Jobs through a real queue and a real worker process (`flask jobs worker`).

Two queues: the embedded SQLite file (the default, no server) and Redis on
127.0.0.1:6379 (TEST_REDIS_URL overrides; without a Redis server the Redis test is
skipped, unless CI=true, where it fails). The database is a SQLite file, or with
TEST_DATABASE=postgresql a PostgreSQL database of its own, that both processes open.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest
import redis
from flask import Flask

from league import jobs
from league.extensions import db
from league.models import Team
from league.pdf.cache import PdfCache
from league.pdf.context import roster_context
from league.pdf.render import design_version
from league.pdf.roster import entry_name, sheet_key, team_url
from league.services import teams
from league.services.unit_of_work import unit_of_work
from tests.conftest import (
    IN_CI,
    ON_POSTGRES,
    create_postgres_database,
    drop_postgres_database,
    make_app,
)
from tests.pages import login
from tests.pdf import pdf_text, sample
from tests.pdf.test_jobs import active_teams

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
#: Seconds a worker gets to finish what the test waits for.
PATIENCE = 90


@pytest.fixture
def database_file_or_postgres(tmp_path: Path) -> Iterator[str]:
    if not ON_POSTGRES:
        yield f"sqlite:///{tmp_path}/league.sqlite3"
        return
    url = create_postgres_database("league_jobs")
    yield url
    drop_postgres_database(url)


@pytest.fixture
def redis_url() -> str:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as error:
        message = f"Redis is not reachable at {REDIS_URL}: {error}"
        if IN_CI:
            pytest.fail(f"{message} (CI=true: the Redis path is required)")
        pytest.skip(f"SKIPPED the real Redis queue: {message}")
    return REDIS_URL


def wait_for(what: str, check: Callable[[], object], worker: subprocess.Popen[bytes]) -> object:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if value := check():
            return value
        assert worker.poll() is None, f"the worker stopped while waiting for {what}"
        time.sleep(0.2)
    raise AssertionError(f"no {what} after {PATIENCE} s")


@contextmanager
def app_on_a_queue(
    queue: str, database_url: str, tmp_path: Path
) -> Iterator[tuple[Flask, dict[str, str]]]:
    """An app on `queue` (a name of its own) and `database_url`, in its context, with the
    tables created, and the environment of a worker on them."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    cache = tmp_path / "pdf-cache"
    app: Flask = make_app(
        database_url, JOB_QUEUE=queue, JOB_QUEUE_NAME=name, PDF_CACHE_DIR=str(cache)
    )
    environment = {
        **os.environ,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": database_url,
        "JOB_QUEUE": queue,
        "JOB_QUEUE_NAME": name,
        "PDF_CACHE_DIR": str(cache),
        "PYTHONPATH": str(ROOT),
    }
    with app.app_context():
        db.create_all()
        try:
            yield app, environment
        finally:
            jobs.huey.storage.flush_all()
            db.session.remove()
            db.engine.dispose()


@contextmanager
def worker_process(
    environment: dict[str, str], tmp_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """`flask jobs worker` in `environment`, stopped (SIGINT: jobs under way finish) at the end."""
    with (tmp_path / "worker.log").open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "jobs", "worker", "--workers", "2"],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            yield worker
        finally:
            worker.send_signal(signal.SIGINT)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()


def run_through_a_worker(queue: str, database_url: str, tmp_path: Path) -> None:
    """The pack and a sheet rendered ahead, by a worker process, followed from the pages."""
    with (
        app_on_a_queue(queue, database_url, tmp_path) as (app, environment),
        worker_process(environment, tmp_path) as worker,
    ):
        app.config["RENDER_AHEAD"] = True
        cache = tmp_path / "pdf-cache"
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Worker League")
        ids = active_teams(coach, league, ("Ants", "Bees"))
        client = app.test_client()
        login(client, commissioner.username, sample.PASSWORD)
        status_url = f"/leagues/{league.id}/rosters/status.json"

        assert client.post(f"/leagues/{league.id}/rosters/build").status_code == 302
        first = client.get(status_url).json
        assert first["job"]["state"] in ("queued", "running", "done")
        # A second request while it runs joins it (or finds it built).
        client.post(f"/leagues/{league.id}/rosters/build")

        # The PDF is stored first, then the job says it is done.
        status = wait_for(
            "pack",
            lambda: (
                (s := client.get(status_url).json)["ready"] and s["job"]["state"] == "done" and s
            ),
            worker,
        )
        assert isinstance(status, dict)
        assert (status["job"]["state"], status["job"]["done"]) == ("done", 2)
        assert len(pdf_text(client.get(status["url"]).data)) == 4  # two sheets of two pages

        # A hire: the worker renders the Bees' new sheet before anyone asks for it.
        with unit_of_work() as session:
            teams.hire_player(
                session, coach, ids[1], teams.HirePlayer("human-lineman", "Fresh Bee")
            )
        with app.test_request_context():
            bees = db.session.get(Team, ids[1])
            assert bees is not None
            sheet = roster_context(bees, url=team_url(bees), printed_on=date.today(), paper="a4")
            key = sheet_key(sheet, design_version())
            wait_for(
                "sheet",
                lambda: PdfCache(cache).get(entry_name("team", ids[1], "a4"), key),
                worker,
            )
        response = client.get(f"/teams/{ids[1]}/roster.pdf")
        assert response.headers["X-PDF-Cache"] == "hit"
        assert "Fresh Bee" in pdf_text(response.data)[0]


def test_the_embedded_sqlite_queue_with_a_worker_process(
    database_file_or_postgres: str, tmp_path: Path
) -> None:
    run_through_a_worker(f"sqlite:///{tmp_path}/jobs.sqlite3", database_file_or_postgres, tmp_path)


def test_the_redis_queue_with_a_worker_process(
    redis_url: str, database_file_or_postgres: str, tmp_path: Path
) -> None:
    run_through_a_worker(redis_url, database_file_or_postgres, tmp_path)


def test_a_worker_restarts_a_pack_whose_worker_died(
    database_file_or_postgres: str, tmp_path: Path
) -> None:
    # The periodic jobs run as a worker starts, then every minute: no request asks.
    queue = f"sqlite:///{tmp_path}/jobs.sqlite3"
    with app_on_a_queue(queue, database_file_or_postgres, tmp_path) as (_, environment):
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Restart League")
        active_teams(coach, league, ("Ants", "Bees"))
        # Its worker was killed at team 1 of 2, longer than STALE_AFTER ago.
        jobs._save(
            league.id, "a4", jobs.PackJob("running", 1, 2, time.time() - jobs.STALE_AFTER - 1)
        )
        with worker_process(environment, tmp_path) as worker:
            done = wait_for(
                "restarted pack",
                lambda: (job := jobs.pack_job(league.id, "a4")) and job.state == "done" and job,
                worker,
            )
        assert isinstance(done, jobs.PackJob)
        assert (done.done, done.total) == (2, 2)
        # The heartbeat ran as well.
        age = jobs.heartbeat_age()
        assert age is not None
        assert age < PATIENCE
