"""The app served by `flask run` in its own process, for tests that send real concurrent requests.

`served_database` gives a database of its own (a SQLite file, or a fresh PostgreSQL
database under TEST_DATABASE=postgresql) with the schema created; the test fills it
through the services, then `serve(url)` starts the threaded development server that
`make run` uses on a free port, against that database, and stops it afterwards.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from threading import Barrier
from typing import IO, Any

import requests

from league.extensions import db
from tests.conftest import ON_POSTGRES, create_postgres_database, drop_postgres_database, make_app

ROOT = Path(__file__).resolve().parent.parent
STARTUP_SECONDS = 30


@contextmanager
def served_database(tmp_path: Path) -> Iterator[str]:
    """An empty schema on a database no other test uses; yields its URL."""
    url = (
        create_postgres_database("league_served")
        if ON_POSTGRES
        else f"sqlite:///{tmp_path / 'served.sqlite3'}"
    )
    try:
        yield url
    finally:
        if ON_POSTGRES:
            drop_postgres_database(url)


@contextmanager
def app_on(url: str) -> Iterator[None]:
    """An app context on `url` with the tables created, to set the data up through services."""
    app = make_app(url)
    with app.app_context():
        db.create_all()
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serve(url: str) -> Iterator[str]:
    """`flask run` (threaded, as `make run` starts it) on `url`; yields the base URL."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": "served-tests",
        "PYTHONPATH": str(ROOT),
        "LEAGUE_ENV": "testing",
    }
    command = [sys.executable, "-m", "flask", "--app", "app", "run", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    # The request log goes to a file: a pipe nobody reads would fill and stall the server.
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(  # noqa: S603  (our own interpreter and app)
            [*command, "--with-threads", "--no-reload", "--no-debugger"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(server, base, log)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _wait_until_up(server: subprocess.Popen[bytes], base: str, log: IO[str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"flask run exited early:\n{log.read()}")
        # A loaded machine (CI runs the passes side by side) may take seconds to answer the
        # first request: a slow answer is waited for, not taken as a failure to start.
        try:
            requests.get(f"{base}/api/v1/rulesets", timeout=(2, 20))
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.1)
        else:
            return
    raise RuntimeError(f"flask run did not answer within {STARTUP_SECONDS} s")


def all_at_once(calls: Sequence[Callable[[], Any]], *, spread: float = 0.0) -> list[Any]:
    """Run every call in its own thread, released together; their results in order.

    With `spread` (seconds), the calls leave one after another over that time instead of
    at the same instant: some arrive while the first is still being handled, some as it ends.
    """
    barrier = Barrier(len(calls))
    step = spread / len(calls)

    def run(index: int, call: Callable[[], Any]) -> Any:
        barrier.wait()
        time.sleep(index * step)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, range(len(calls)), calls))


def post_json(base: str, token: str, path: str, body: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{base}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
