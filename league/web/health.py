"""`/healthz`: whether this deployment can serve and run its jobs, for a load balancer or a
monitor. JSON, 200 when every check passes, else 503 naming the failed checks.

Checks: the database answers; the rate-limit store answers (when it is a shared one, not
memory://); the job queue's store answers; a worker ran its heartbeat job recently (when
jobs run in workers, not `immediate`). A failure says only the kind of error, never an
address or a message that could carry a setting.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text
from werkzeug.wrappers import Response

from league import jobs
from league.extensions import db
from league.security import limiter

bp = Blueprint("health", __name__)

#: A check: (passed?, what to show beside it); one that raises failed.
Check = Callable[[], tuple[bool, dict[str, object]]]


def _database() -> tuple[bool, dict[str, object]]:
    with db.engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    return True, {}


def _rate_limits() -> tuple[bool, dict[str, object]]:
    return bool(limiter.storage.check()), {}


def _job_queue() -> tuple[bool, dict[str, object]]:
    return True, {"pending": jobs.huey.pending_count()}


def _worker() -> tuple[bool, dict[str, object]]:
    age = jobs.heartbeat_age()  # None: no worker ever beat
    passed = age is not None and age <= jobs.HEARTBEAT_STALE_AFTER
    return passed, {"heartbeat_age": None if age is None else round(age, 1)}


def _checks() -> dict[str, Check]:
    config = current_app.config
    checks: dict[str, Check] = {"database": _database}
    if not str(config["RATELIMIT_STORAGE_URI"]).startswith("memory://"):
        checks["rate_limits"] = _rate_limits
    if config["JOB_QUEUE"] != "immediate":
        checks["job_queue"] = _job_queue
        checks["worker"] = _worker
    return checks


@bp.get("/healthz")
@limiter.exempt
def healthz() -> tuple[Response, int]:
    results: dict[str, dict[str, object]] = {}
    for name, check in _checks().items():
        try:
            passed, details = check()
        except Exception as error:  # a store that cannot be reached: the check fails
            passed, details = False, {"error": type(error).__name__}
        results[name] = {"ok": passed, **details}
    failed = [name for name, result in results.items() if not result["ok"]]
    response = jsonify({"status": "fail" if failed else "ok", "failed": failed, "checks": results})
    response.cache_control.no_store = True
    return response, 503 if failed else 200
