"""Two app processes count log-in failures in one shared store (issue 14, point 7).

With per-process counts, three workers let an attacker try about thirty
passwords before the first refusal. Here two server processes share Redis
(RATELIMIT_STORAGE_URI): the eleventh failure is refused whichever answers it.
Redis is required under CI=true; elsewhere a missing Redis skips this test.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
import redis

from league.extensions import db
from league.security import LOGIN_LIMIT_PER_PAIR
from tests.conftest import IN_CI, make_app
from tests.factories import DEFAULT_PASSWORD, make_user

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_store() -> Iterator[redis.Redis]:
    store = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        store.ping()
    except redis.exceptions.ConnectionError as error:
        message = f"Redis is not reachable at {REDIS_URL}: {error}"
        if IN_CI:
            pytest.fail(f"{message} (CI=true: the shared rate-limit test is required)")
        pytest.skip(message)
    yield store
    store.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_serving(port: int, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server on port {port} stopped: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no server on port {port} after 30 s")


@pytest.fixture
def two_servers(tmp_path: Path, redis_store: redis.Redis) -> Iterator[tuple[list[int], str]]:
    """Two app processes on one SQLite file and one Redis, with a user called grim; and
    the prefix of their keys in Redis."""
    database_url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    app = make_app(database_url)
    with app.app_context():
        db.create_all()
        make_user("grim")
        db.session.remove()
        db.engine.dispose()
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    environment = {**os.environ, "RATELIMIT_STORAGE_URI": REDIS_URL, "PYTHONPATH": str(ROOT)}
    ports = [_free_port(), _free_port()]
    logs = [tmp_path / f"server-{port}.log" for port in ports]
    servers = []
    for port, log in zip(ports, logs, strict=True):
        with log.open("w") as output:
            command = [sys.executable, "-m", "tests.web.serve_for_limits"]
            servers.append(
                subprocess.Popen(  # noqa: S603  (our own interpreter and module)
                    [*command, str(port), database_url, prefix],
                    cwd=ROOT,
                    env=environment,
                    stdout=output,
                    stderr=output,
                )
            )
    try:
        for port, server, log in zip(ports, servers, logs, strict=True):
            _wait_until_serving(port, server, log)
        yield ports, prefix
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
        for key in redis_store.scan_iter(f"*{prefix}*"):
            redis_store.delete(key)


def _log_in(port: int, password: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = urlencode({"username": "grim", "password": password})
        connection.request(
            "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        return connection.getresponse().status
    finally:
        connection.close()


def test_two_processes_share_one_count(
    two_servers: tuple[list[int], str], redis_store: redis.Redis
) -> None:
    ports, prefix = two_servers
    allowed = int(LOGIN_LIMIT_PER_PAIR.split()[0])  # 10 failures a minute
    statuses = [_log_in(ports[n % 2], f"guess {n}") for n in range(allowed)]
    assert statuses == [200] * allowed  # five failures on each server
    # The eleventh attempt is refused by either process, even with the right password.
    assert _log_in(ports[0], DEFAULT_PASSWORD) == 429
    assert _log_in(ports[1], DEFAULT_PASSWORD) == 429
    # The failures behind the per-username slowdown are counted there too, all ten.
    (failures,) = redis_store.scan_iter(f"*{prefix}login-failures:*")
    assert int(redis_store.get(failures) or 0) == allowed
