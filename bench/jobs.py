"""Background jobs: a 100-team league pack built by a worker, and sheets rendered ahead.

A `flask jobs worker` process serves the embedded SQLite queue (JOB_QUEUE_BENCH=redis://...
uses Redis instead) over a SQLite league of 100 teams (the large set's generator, one
season). Prints:

- the league pack built from nothing (every sheet rendered), with its progress as the
  page sees it, then built again after one team changed (the other 99 sheets reused);
- the time to a roster PDF a few seconds after a change (a treasury adjustment: the
  worker renders the new sheet meanwhile; goal p95 < 100 ms), and the fresh render of
  a sheet on its own (a download that finds no sheet in the cache).

Measures only: nothing is asserted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from bench._common import log_in, make_app, p50_p95, summary
from league import jobs
from league.extensions import db
from league.models import League, Team, User
from league.pdf.cache import PdfCache
from league.seeding.large_demo import COMMISSIONER, LargeDemoSize, seed_large_demo
from league.services import teams
from league.services.unit_of_work import unit_of_work

ROOT = Path(__file__).resolve().parent.parent
TEAMS = 100
CHANGES = 12
#: Seconds between a change and the download ("a few seconds after a change").
SETTLE = float(os.environ.get("BENCH_SETTLE", "3"))
FRESH_ROUNDS = 5


def start_worker(environment: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # our own command
        [sys.executable, "-m", "flask", "--app", "app", "jobs", "worker"],
        cwd=ROOT,
        env=environment,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def wait_for_pack(league: League, paper: str, worker: subprocess.Popen[bytes]) -> jobs.PackJob:
    """Follow the job as the page does; print the progress at each tenth."""
    shown = -1
    while True:
        job = jobs.pack_job(league.id, paper)
        if job is not None and job.total and job.done * 10 // job.total > shown:
            shown = job.done * 10 // job.total
            print(f"    {job.state}: {job.done}/{job.total} teams")
        if job is not None and job.state in ("done", "failed"):
            return job
        if worker.poll() is not None:
            raise RuntimeError("the worker stopped")
        time.sleep(0.25)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as tmp:
        queue = os.environ.get("JOB_QUEUE_BENCH") or f"sqlite:///{tmp}/jobs.sqlite3"
        database = f"sqlite:///{tmp}/league.sqlite3"
        cache = Path(tmp) / "pdf-cache"
        name = f"bench-{os.getpid()}"
        config = {"JOB_QUEUE": queue, "JOB_QUEUE_NAME": name, "PDF_CACHE_DIR": str(cache)}
        app = make_app(database, RENDER_AHEAD=True, **config)
        environment = {
            **os.environ,
            "SECRET_KEY": "bench",
            "DATABASE_URL": database,
            "JOB_QUEUE": queue,
            "JOB_QUEUE_NAME": name,
            "PDF_CACHE_DIR": str(cache),
            "PYTHONPATH": str(ROOT),
        }
        with app.app_context():
            db.create_all()
            size = LargeDemoSize(teams=TEAMS, seasons=1, rulesets=("bb2025",))
            with unit_of_work() as session:
                seeded = seed_large_demo(session, size)
            league = db.session.get(League, seeded.league_ids[0]) if seeded else None
            if league is None:
                raise SystemExit("the league was not seeded")
            paper = league.paper_size
            worker = start_worker(environment, Path(tmp) / "worker.log")
            try:
                print(f"queue: {queue.split(':')[0]}, one worker process (2 threads)")
                run(app, league, paper, worker, cache)
            finally:
                worker.send_signal(signal.SIGINT)
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
                if queue.startswith("redis"):
                    jobs.huey.storage.flush_all()
                db.engine.dispose()


def run(app, league: League, paper: str, worker: subprocess.Popen[bytes], cache: Path) -> None:
    team_ids = list(
        db.session.scalars(
            select(Team.id).where(Team.league_id == league.id, Team.status == "active")
        )
    )
    total = len(team_ids)

    print(f"league pack, {total} teams, every sheet rendered:")
    started = time.perf_counter()
    jobs.start_pack(league, paper, total)
    job = wait_for_pack(league, paper, worker)
    fresh = time.perf_counter() - started
    meta = PdfCache(cache).get_meta(f"league-{league.id}") or {}
    print(
        f"  {job.state} in {fresh:.1f} s ({fresh / total * 1000:.0f} ms a team; "
        f"{meta.get('pages')} pages, {int(meta.get('bytes', 0)) / 1e6:.1f} MB) {job.error}"
    )

    commissioner = db.session.scalar(select(User).where(User.username == COMMISSIONER))
    if commissioner is None:
        raise SystemExit("no commissioner in the seeded league")

    def change(team_id: int) -> None:
        with unit_of_work() as session:
            teams.adjust_treasury(session, commissioner, team_id, 10_000, "Bench bonus")

    change(team_ids[0])
    started = time.perf_counter()
    jobs.start_pack(db.session.get(League, league.id), paper, total)
    job = wait_for_pack(league, paper, worker)
    again = time.perf_counter() - started
    meta = PdfCache(cache).get_meta(f"league-{league.id}") or {}
    print(
        f"  after one team changed: {job.state} in {again:.1f} s "
        f"({meta.get('rendered')} rendered, {total - int(meta.get('rendered', 0))} reused)"
    )
    summary(
        "jobs.py",
        f"league pack, {total} teams: fresh / one changed",
        f"{fresh:.1f} s / {again:.1f} s",
    )

    client = app.test_client()
    log_in(client, commissioner.id)
    times: list[float] = []
    hits = 0
    for team_id in team_ids[1 : CHANGES + 1]:
        change(team_id)
        time.sleep(SETTLE)
        started = time.perf_counter()
        response = client.get(f"/teams/{team_id}/roster.pdf")
        times.append(time.perf_counter() - started)
        hits += response.headers["X-PDF-Cache"] == "hit"
    p50, p95 = p50_p95(times)
    print(
        f"roster PDF {SETTLE:.0f} s after a change ({CHANGES} changes, rendered ahead): "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms (goal p95 < 100 ms), {hits}/{CHANGES} cache hits"
    )

    fresh_times = []
    for team_id in team_ids[CHANGES + 1 : CHANGES + 1 + FRESH_ROUNDS]:
        for path in cache.glob(f"team-{team_id}-*.pdf"):
            path.unlink()
        started = time.perf_counter()
        response = client.get(f"/teams/{team_id}/roster.pdf")
        fresh_times.append(time.perf_counter() - started)
        if response.headers["X-PDF-Cache"] != "miss":
            raise SystemExit("a fresh render was served from the cache")
    fresh_p50, _ = p50_p95(fresh_times)
    print(f"roster PDF rendered on the request (no sheet in the cache): p50 {fresh_p50:.0f} ms")
    summary(
        "jobs.py",
        "roster PDF after a change: ahead p95 / fresh p50",
        f"{p95:.1f} ms / {fresh_p50:.0f} ms",
    )


if __name__ == "__main__":
    main()
