"""How many open live-log pages one web process serves (issue 27).

An open log page polls `GET /api/v1/matches/<id>/log` every POLL seconds with
`If-None-Match`; no request waits for a change, so a page holds a worker only for the
few milliseconds of each poll. This serves a match whose log holds 30 events with
gunicorn, ONE sync worker, on a migrated SQLite file (PostgreSQL too when a server
answers), drives it with CLIENTS threads polling as fast as the worker answers for
SECONDS, and prints the polls per second, their latency, and the open pages that rate
serves (polls per second x POLL). Measured twice: a quiet log (every poll a 304), and a
log that changes every second (a coach logging: each page then gets one 200 per change).

Settings: LIVE_SECONDS (8), LIVE_CLIENTS (8), LIVE_POLL (3 seconds, as the page polls).
Measures only; the client threads share one Python process, so the figure is a floor.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import print_table, summary
from tests.conftest import POSTGRES_SERVER

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
SECONDS = float(os.environ.get("LIVE_SECONDS", "8"))
CLIENTS = int(os.environ.get("LIVE_CLIENTS", "8"))
POLL = float(os.environ.get("LIVE_POLL", "3"))

SEED = """
import sys
from league import create_app
from league.extensions import db
from league.models import Player, User
from league.services import live_log, matches
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

app = create_app()
with app.app_context():
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    away = make_active_team(bram, league, "human", "Marauders", (("human-lineman", 11),))
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, home.id, away.id).id
    player = min(p.id for p in db.session.get(type(home), home.id).players)
    for n in range(30):
        with unit_of_work() as session:
            entry = live_log.LogEntry(f"seed-{n:04d}", "home", "comp", 1 + n // 16, 1 + n % 8,
                                      player_id=player)
            live_log.log_event(session, session.get(User, anna.id), match_id, entry)
    with unit_of_work() as session:
        token = issue_token(session, session.get(User, anna.id))
    print(match_id, player, token)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _environment(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SECRET_KEY": "bench",
        "LEAGUE_ENV": "production",
        "PUBLIC_URL": "http://127.0.0.1",
        "RATELIMIT_SINGLE_PROCESS": "1",
        "DATABASE_URL": url,
        "JOB_QUEUE": "immediate",
        "RENDER_AHEAD": "0",
    }


def _poll(base: str, path: str, stop: float, latencies: list[float], statuses: dict[int, int]):
    session = requests.Session()
    etag = None
    while time.perf_counter() < stop:
        headers = {"If-None-Match": etag} if etag else {}
        started = time.perf_counter()
        response = session.get(f"{base}{path}", headers=headers, timeout=30)
        latencies.append(time.perf_counter() - started)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        if response.status_code == 200:
            etag = response.headers.get("ETag")


def _writer(base: str, path: str, token: str, player: int, stop: float) -> None:
    session = requests.Session()
    n = 0
    while time.perf_counter() < stop:
        n += 1
        body = {"id": f"writer-{time.time_ns()}-{n}", "side": "home", "kind": "comp",
                "player_id": player, "half": 2, "turn": 8}  # fmt: skip
        session.post(f"{base}{path}", json=body, headers={"Authorization": f"Bearer {token}"})
        time.sleep(1)


def measure(base: str, path: str, token: str, player: int, changing: bool) -> list[object]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    stop = time.perf_counter() + SECONDS
    threads = [
        threading.Thread(target=_poll, args=(base, path, stop, latencies, statuses))
        for _ in range(CLIENTS)
    ]
    if changing:
        threads.append(threading.Thread(target=_writer, args=(base, path, token, player, stop)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rate = len(latencies) / SECONDS
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else 0.0
    return [
        "changing every second" if changing else "quiet",
        f"{rate:,.0f}",
        f"{statistics.median(latencies) * 1000:.1f} ms" if latencies else "-",
        f"{p99 * 1000:.1f} ms",
        ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
        f"{rate * POLL:,.0f}",
    ]


def run(label: str, url: str) -> None:
    environment = _environment(url)
    migrate = subprocess.run(  # noqa: S603 - our own flask
        [str(BIN / "flask"), "--app", "app", "db", "upgrade"],
        env=environment, capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    if migrate.returncode:
        print(migrate.stdout, migrate.stderr)
        raise SystemExit(1)
    seeded = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", SEED],
        env=environment, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    match_id, player, token = seeded.stdout.split()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(  # noqa: S603 - our own gunicorn
        [str(BIN / "gunicorn"), "--workers", "1", "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning", "app:app"],
        env=environment, cwd=ROOT,
    )  # fmt: skip
    path = f"/api/v1/matches/{match_id}/log"
    try:
        for _ in range(300):
            try:
                if requests.get(f"{base}{path}", timeout=10).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        rows = [measure(base, path, token, int(player), changing) for changing in (False, True)]
    finally:
        server.terminate()
        server.wait()
    print(f"{label}: gunicorn, 1 sync worker; {CLIENTS} polling threads for {SECONDS:.0f} s;")
    print(f"a page polls every {POLL:.0f} s, so pages served = polls/s x {POLL:.0f}.")
    print_table(["log", "polls/s", "p50", "p99", "statuses", "open pages served"], rows)
    summary("live_log.py", f"open log pages one sync worker serves ({label}, quiet)", rows[0][5])
    summary("live_log.py", f"open log pages one sync worker serves ({label}, changing)", rows[1][5])
    print()


def main() -> int:
    if not (BIN / "gunicorn").exists():
        print("live log benchmark skipped: .venv/bin/gunicorn is missing (make install).")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        run("SQLite", f"sqlite:///{tmp}/live.sqlite3")
    from bench._common import postgres_reachable, postgres_url

    if postgres_reachable() is None:
        with postgres_url("league_bench_live") as url:
            run("PostgreSQL", url)
    else:
        print(f"PostgreSQL skipped: not reachable at {POSTGRES_SERVER}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
