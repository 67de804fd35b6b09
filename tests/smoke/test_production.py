"""The production smoke test: the app started as the README's production section says,
used through HTTP only.

Processes: `flask db upgrade` on a fresh PostgreSQL database, gunicorn with two workers,
`flask jobs worker`, Redis for the rate-limit counts and the job queue (a queue name of
its own), `LEAGUE_ENV=production`, `PUBLIC_URL` and `TRUSTED_HOSTS`. The demo data is
seeded with `flask seed-demo` first. Then, over HTTP with the public Host header: sign in,
build the league pack and download it, rename a player and find the team's sheet
rendered ahead, deliver a webhook to a receiver on 127.0.0.1 (ALLOW_PRIVATE_WEBHOOKS=1)
and read /healthz.

Production cookies are Secure; TLS ends at a proxy in front of gunicorn, which this test
leaves out, so its client sends the secure cookies back over plain HTTP (the app trusts
no X-Forwarded-* header: it has no ProxyFix).

Marked `smoke`: the default runs leave it out (pyproject.toml); `make smoke` (part of
`make test`) runs it. Without PostgreSQL (TEST_POSTGRES_SERVER) or Redis
(TEST_REDIS_URL) it is skipped, unless CI=true, where it fails.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import pytest
import redis
import requests
import sqlalchemy
from huey.storage import RedisStorage

from tests.conftest import IN_CI, create_postgres_database, drop_postgres_database
from tests.pdf import pdf_text
from tests.receiver import Receiver, receiver
from tests.served import _free_port

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PUBLIC_URL = "https://league.example.test"
HOST = urlsplit(PUBLIC_URL).hostname or ""
#: Seconds to wait for a server to answer or a job to be done (the machine may be busy).
PATIENCE = 60

T = TypeVar("T")


def _unavailable(message: str) -> NoReturn:
    if IN_CI:
        pytest.fail(f"{message} (CI=true: the production smoke test is required)")
    pytest.skip(f"SKIPPED the production smoke test: {message}")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    try:
        url = create_postgres_database("league_smoke")
    except sqlalchemy.exc.OperationalError as error:
        _unavailable(f"PostgreSQL is not reachable: {error.orig}")
    yield url
    drop_postgres_database(url)


@pytest.fixture
def queue_name() -> Iterator[str]:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as error:
        _unavailable(f"Redis is not reachable at {REDIS_URL}: {error}")
    name = f"smoke-{uuid.uuid4().hex[:8]}"
    yield name
    RedisStorage(name, url=REDIS_URL).flush_all()


@dataclass
class Site:
    """The served app, reached on 127.0.0.1 with the public Host header."""

    base: str
    logs: dict[str, Path]
    http: requests.Session
    #: The signed-in demo commissioner.
    username: str

    def url(self, path: str) -> str:
        return self.base + path

    def _sent(self, response: requests.Response) -> requests.Response:
        # Production cookies are Secure, which requests sends over https only: over the
        # plain HTTP that the TLS proxy would forward, they go back all the same.
        for cookie in self.http.cookies:
            cookie.secure = False
        return response

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self._sent(self.http.get(self.url(path), **{"timeout": PATIENCE, **kwargs}))

    def post_form(self, page: str, action: str, data: dict[str, Any]) -> requests.Response:
        """Post `data` to `action` with the CSRF token of the form on `page`."""
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', self.get(page).text)
        assert token, f"no CSRF token on {page}"
        return self._sent(
            self.http.post(
                self.url(action),
                data={"csrf_token": token[1], **data},
                allow_redirects=False,
                timeout=PATIENCE,
            )
        )

    def log_tails(self) -> str:
        return "\n".join(
            f"--- {name} (last lines) ---\n" + "\n".join(path.read_text().splitlines()[-40:])
            for name, path in self.logs.items()
        )

    def wait_for(self, what: str, check: Callable[[], T | None]) -> T:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if (value := check()) is not None:
                return value
            time.sleep(0.25)
        raise AssertionError(f"no {what} after {PATIENCE} s\n{self.log_tails()}")


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(  # noqa: S603  (our own interpreter and app)
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture
def site(queue_name: str, postgres_url: str, tmp_path: Path) -> Iterator[Site]:
    # The README's production environment, with this test's own database, queue and cache.
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LEAGUE_ENV": "production",
        "SECRET_KEY": uuid.uuid4().hex,
        "PUBLIC_URL": PUBLIC_URL,
        "TRUSTED_HOSTS": HOST,
        "DATABASE_URL": postgres_url,
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "JOB_QUEUE": REDIS_URL,
        "JOB_QUEUE_NAME": queue_name,
        "PDF_CACHE_DIR": str(tmp_path / "pdf-cache"),
        "ALLOW_PRIVATE_WEBHOOKS": "1",
    }
    flask = [str(BIN / "flask"), "--app", "app"]
    _run([*flask, "db", "upgrade"], env)
    # seed-demo writes the log-in into the instance folder unless told another file.
    seeding_app = f"league:create_app({{'DEMO_CREDENTIALS_FILE': '{tmp_path / 'demo.txt'}'}})"

    port = _free_port()
    logs = {"gunicorn": tmp_path / "gunicorn.log", "worker": tmp_path / "worker.log"}
    commands = {
        "gunicorn": [
            str(BIN / "gunicorn"),
            *("--workers", "2", "--bind", f"127.0.0.1:{port}", "app:app"),
        ],
        "worker": [*flask, "jobs", "worker", "--workers", "2"],
    }
    processes: list[subprocess.Popen[bytes]] = []
    outputs = [path.open("wb") for path in logs.values()]
    client = requests.Session()
    client.headers["Host"] = HOST
    try:
        for command, output in zip(commands.values(), outputs, strict=True):
            processes.append(
                subprocess.Popen(  # noqa: S603  (our own interpreter and app)
                    command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT
                )
            )
        # Seeded while the servers start (the schema is there): the test waits less.
        seeded = _run([str(BIN / "flask"), "--app", seeding_app, "seed-demo"], env)
        log_in = re.search(r"commissioner: (\S+) / (\S+)", seeded)
        assert log_in, seeded
        username, password = log_in.groups()
        served = Site(f"http://127.0.0.1:{port}", logs, client, username)

        def up() -> bool | None:
            for process in processes:
                assert process.poll() is None, f"a process stopped\n{served.log_tails()}"
            try:
                # The first answer may take seconds on a busy machine: waited for, not failed.
                return served.get("/login", timeout=(2, 20)).status_code == 200 or None
            except (requests.ConnectionError, requests.Timeout):
                return None

        served.wait_for("answer from gunicorn", up)
        login = served.post_form("/login", "/login", {"username": username, "password": password})
        assert login.status_code == 302, login.text
        yield served
    finally:
        # gunicorn's quick shutdown (SIGTERM waits for its workers), the worker's stop.
        for process, stop in zip(processes, (signal.SIGINT, signal.SIGTERM), strict=False):
            process.send_signal(stop)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for output in outputs:
            output.close()


def _first_id(kind: str, page: str) -> int:
    """The id of the first link to /<kind>/<id> on the page."""
    link = re.search(rf'href="/{kind}/(\d+)"', page)
    assert link, f"no link to /{kind}/... on the page"
    return int(link[1])


def _sheets(cache: Path, team_id: int) -> set[str]:
    """The team's sheets in the PDF cache (one file per version of what it prints)."""
    return {
        p.name
        for p in cache.glob(f"team-{team_id}-*.pdf")
        if re.fullmatch(rf"team-{team_id}-[0-9a-f]+\.pdf", p.name)
    }


def test_production_serves_and_runs_its_jobs(site: Site, tmp_path: Path) -> None:
    health = site.wait_for(
        "healthy /healthz (database, Redis, queue, worker heartbeat)",
        lambda: ((r := site.get("/healthz")).status_code == 200 and r.json()) or None,
    )
    assert health["status"] == "ok"
    assert set(health["checks"]) == {"database", "rate_limits", "job_queue", "worker"}

    # The league pack: built by the worker, followed on status.json, downloaded.
    league_id = _first_id("leagues", site.get("/").text)
    team_id = _first_id("teams", site.get(f"/leagues/{league_id}").text)
    built = site.post_form(
        f"/leagues/{league_id}/rosters", f"/leagues/{league_id}/rosters/build", {"paper": "a4"}
    )
    assert built.status_code == 302, built.text

    def pack_built() -> dict[str, Any] | None:
        status = site.get(f"/leagues/{league_id}/rosters/status.json?paper=a4").json()
        assert status["job"] is None or status["job"]["state"] != "failed", (
            f"{status}\n{site.log_tails()}"
        )
        return status if status["ready"] and status["job"]["state"] == "done" else None

    status = site.wait_for("league pack", pack_built)
    pack = site.get(status["url"])
    assert pack.headers["Content-Type"] == "application/pdf"
    text = " ".join(pdf_text(pack.content))
    # Printed with the public address (a job has no request to take it from).
    assert f"{PUBLIC_URL}/teams/{team_id}" in text

    # A change: the worker renders the team's new sheet before anybody asks for it. A
    # download would render it on a miss, so the test watches the cache for the new sheet,
    # then the download must be a hit.
    cache = tmp_path / "pdf-cache"
    before = _sheets(cache, team_id)
    assert before, "the pack rendered every team's sheet"
    player_id = _first_id("players", site.get(f"/teams/{team_id}").text)
    number = re.search(r'name="number"[^>]*value="(\d+)"', site.get(f"/players/{player_id}").text)
    assert number, "the player form shows his number"
    renamed = site.post_form(
        f"/players/{player_id}",
        f"/players/{player_id}/edit",
        {"name": "Smoke Renamed", "number": number[1]},
    )
    assert renamed.status_code == 302, renamed.text
    site.wait_for("sheet rendered ahead", lambda: _sheets(cache, team_id) - before or None)
    sheet = site.get(f"/teams/{team_id}/roster.pdf")
    assert sheet.headers["X-PDF-Cache"] == "hit"
    assert "Smoke Renamed" in " ".join(pdf_text(sheet.content))

    # A webhook, delivered by the worker to a receiver on this machine.
    with receiver() as hooks:
        registered = site.post_form(
            f"/leagues/{league_id}/webhooks",
            f"/leagues/{league_id}/webhooks",
            {"url": hooks.url, "events": "team.created", "format": "json"},
        )
        assert registered.status_code == 201, registered.text
        _draft_a_team(site, league_id)
        delivery = site.wait_for("webhook delivery", lambda: _first(hooks))
    assert delivery["event"] == "team.created"
    assert delivery["league"]["url"] == f"{PUBLIC_URL}/leagues/{league_id}"
    assert delivery["data"]["team"]["name"] == "Smoke Team"
    assert delivery["data"]["team"]["url"].startswith(f"{PUBLIC_URL}/teams/")

    final = site.get("/healthz")
    assert final.status_code == 200, final.text
    assert final.json()["checks"]["worker"]["heartbeat_age"] < PATIENCE * 3


def _draft_a_team(site: Site, league_id: int) -> None:
    page = site.get(f"/leagues/{league_id}/teams/new").text
    team_type = re.search(r'name="team_type_id"[^>]*>\s*<option[^>]*value="([^"]+)"', page)
    assert team_type, "the new team form lists the team types"
    drafted = site.post_form(
        f"/leagues/{league_id}/teams/new",
        f"/leagues/{league_id}/teams/new",
        {"name": "Smoke Team", "team_type_id": team_type[1], "coach": site.username},
    )
    assert drafted.status_code == 302, drafted.text


def _first(hooks: Receiver) -> dict[str, Any] | None:
    return json.loads(hooks.received[0].body) if hooks.received else None
