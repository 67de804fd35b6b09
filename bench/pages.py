"""Server time per request of the heavy pages on the large league set.

Seeds `flask seed-demo --large` (200 teams, 10 seasons, 6,600 results) into a
fresh SQLite database, and into a fresh PostgreSQL one when a server answers
(TEST_POSTGRES_SERVER, default 127.0.0.1:5432), then requests each page through
the WSGI app (no network) and prints p50 / p95 server time, the queries per
request and the response size. Measures only: nothing is asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (
    QueryCounter,
    backends,
    heavy_pages,
    log_in,
    make_app,
    p50_p95,
    print_table,
    summary,
    timed,
)
from league.extensions import db
from league.seeding.large_demo import LargeDemoSize, seed_large_demo
from league.services.unit_of_work import unit_of_work

ROUNDS = 25


def pages(
    league_id: int, team_id: int, player_id: int, match_id: int
) -> list[tuple[str, str, bool]]:
    """(label, path, signed in as the commissioner)."""
    return [
        ("league home (standings)", f"/leagues/{league_id}", False),
        ("team roster", f"/teams/{team_id}", False),
        ("player page", f"/players/{player_id}", False),
        ("match report form", f"/matches/{match_id}/report", True),
        ("statistics", f"/leagues/{league_id}/stats", False),
        ("records (all time)", f"/leagues/{league_id}/records", False),
        ("standings page", f"/leagues/{league_id}/standings", False),
        ("rules browser (skills)", "/rules/bb2025/skills", False),
        ("roster API (JSON)", f"/api/v1/teams/{team_id}", False),
    ]


def measure(label: str, url_context) -> None:
    with url_context() as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            started = time.perf_counter()
            with unit_of_work() as session:
                result = seed_large_demo(session, LargeDemoSize())
            assert result is not None  # noqa: S101 - a fresh database
            print(
                f"{label}: seeded {result.teams} teams, {result.players} players, "
                f"{result.matches_played} results, {result.player_lines} player lines, "
                f"{result.advancements} advancements in {time.perf_counter() - started:.1f}s"
            )
            league_id = result.league_ids[0]
            team_id, player_id, match_id = heavy_pages(league_id)
            engine = db.engine
        # Requests run outside any app context, as in production: each gets its own
        # session (no identity map carried over) and its own `g`.
        commissioner = 1
        anonymous, signed_in = app.test_client(), app.test_client()
        log_in(signed_in, commissioner)
        counter = QueryCounter(engine)
        rows = []
        for name, path, login in pages(league_id, team_id, player_id, match_id):
            client = signed_in if login else anonymous
            response = client.get(path)
            if response.status_code != 200:
                raise SystemExit(f"GET {path}: {response.status_code} {response.location}")
            with counter.attached():
                client.get(path)
            queries = counter.count
            times = timed(lambda c=client, p=path: c.get(p), ROUNDS)
            p50, p95 = p50_p95(times)
            rows.append(
                (name, f"{p50:.1f}", f"{p95:.1f}", queries, f"{len(response.data) / 1024:.0f}")
            )
            summary("pages.py", f"{label}: {name}", f"{p50:.1f} ms p50, {queries} queries")
            etag = response.headers.get("ETag")
            if etag:
                again = {"If-None-Match": etag}
                times = timed(lambda c=client, p=path, h=again: c.get(p, headers=h), ROUNDS)
                p50, p95 = p50_p95(times)
                with counter.attached():
                    status = client.get(path, headers=again).status_code
                rows.append(
                    (f"  same, If-None-Match ({status})", f"{p50:.1f}", f"{p95:.1f}",
                     counter.count, "0")
                )  # fmt: skip
        print(f"{label}: league {league_id}, team {team_id}, player {player_id}, "
              f"match {match_id}; {ROUNDS} requests each, server time in ms")  # fmt: skip
        print_table(("page", "p50 ms", "p95 ms", "queries", "KB"), rows)
        print()
        engine.dispose()


def main() -> None:
    for label, url_context in backends():
        measure(label, url_context)


if __name__ == "__main__":
    main()
