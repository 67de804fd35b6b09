"""`/healthz`: 200 when the database, the shared stores and a worker answer, else 503 with
the failed checks named, and never an address or a setting in it."""

from __future__ import annotations

import time
from pathlib import Path

from flask import Flask

from league import jobs
from tests.conftest import make_app

#: Nothing listens on port 1: a Redis that cannot be reached.
NO_REDIS = "redis://127.0.0.1:1/0"


def test_with_jobs_run_in_the_request_only_the_database_is_checked(app: Flask) -> None:
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok", "failed": [], "checks": {"database": {"ok": True}}}
    assert response.headers["Cache-Control"] == "no-store"


def test_the_worker_must_have_beaten_recently(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, JOB_QUEUE=f"sqlite:///{tmp_path / 'jobs.sqlite3'}")
    client = app.test_client()

    never = client.get("/healthz")
    assert never.status_code == 503
    assert never.json["failed"] == ["worker"]
    assert never.json["checks"]["job_queue"] == {"ok": True, "pending": 0}
    assert never.json["checks"]["worker"] == {"ok": False, "heartbeat_age": None}

    with app.app_context():
        jobs.heartbeat.call_local()  # what a worker's scheduler runs every minute
    fresh = client.get("/healthz")
    assert fresh.status_code == 200
    assert fresh.json["status"] == "ok"
    assert 0 <= fresh.json["checks"]["worker"]["heartbeat_age"] < 60

    # A worker gone for longer than HEARTBEAT_STALE_AFTER.
    jobs.huey.put(jobs.HEARTBEAT_KEY, time.time() - jobs.HEARTBEAT_STALE_AFTER - 5)
    gone = client.get("/healthz")
    assert gone.status_code == 503
    assert gone.json["failed"] == ["worker"]
    assert gone.json["checks"]["worker"]["ok"] is False


def test_unreachable_stores_fail_without_telling_their_address(database_url: str) -> None:
    app = make_app(database_url, RATELIMIT_STORAGE_URI=NO_REDIS, JOB_QUEUE=NO_REDIS)
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.json["failed"] == ["rate_limits", "job_queue", "worker"]
    assert response.json["checks"]["database"] == {"ok": True}
    assert response.json["checks"]["job_queue"] == {"ok": False, "error": "ConnectionError"}
    assert "127.0.0.1" not in response.text


def test_an_unreachable_database_fails(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "league.sqlite3"
    app = make_app(f"sqlite:///{missing}")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.json["failed"] == ["database"]
    assert response.json["checks"]["database"] == {"ok": False, "error": "OperationalError"}
    assert str(tmp_path) not in response.text
