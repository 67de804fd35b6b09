"""Requests per second for the public pages, through the WSGI app (no network)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league import create_app
from league.extensions import db
from league.services.demo import seed_demo
from league.services.unit_of_work import unit_of_work

PAGES = ["/", "/login"]
ROUNDS = 200


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3", "SECRET_KEY": "bench"}
        )
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                seed_demo(session)
            client = app.test_client()
            for path in PAGES:
                client.get(path)  # warm up templates
                started = time.perf_counter()
                for _ in range(ROUNDS):
                    client.get(path)
                took = time.perf_counter() - started
                print(f"GET {path}: {ROUNDS / took:.0f} req/s ({took / ROUNDS * 1000:.2f} ms each)")
            db.engine.dispose()


if __name__ == "__main__":
    main()
