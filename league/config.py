"""Configuration read from the environment.

`DATABASE_URL` selects the store (SQLite under `instance/` by default),
`SECRET_KEY` signs sessions and CSRF tokens, `LEAGUE_ENV` is one of
development (default), production or testing.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

SECRET_KEY_FILE = "secret_key"  # noqa: S105  (a file name, not a secret)
#: How long "keep me logged in" lasts (Flask-Login's default is a year).
REMEMBER_FOR = timedelta(days=30)


def _read_secret_key(instance_path: Path) -> str | None:
    """The key from the environment, else the one `make run` generated into instance/."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    key_file = instance_path / SECRET_KEY_FILE
    if key_file.is_file():
        return key_file.read_text().strip() or None
    return None


def from_environment(instance_path: Path) -> dict[str, object]:
    env = os.environ.get("LEAGUE_ENV", "development")
    database_url = os.environ.get("DATABASE_URL") or (
        f"sqlite:///{instance_path / 'league.sqlite3'}"
    )
    return {
        "LEAGUE_ENV": env,
        "SECRET_KEY": _read_secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": env == "production",
        "REMEMBER_COOKIE_SECURE": env == "production",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_DURATION": REMEMBER_FOR,
        "WTF_CSRF_TIME_LIMIT": None,
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        # LEAGUE_BENCH=1 adds /_bench/baseline, the load test's reference page (bench/load.sh).
        "LEAGUE_BENCH": os.environ.get("LEAGUE_BENCH") == "1",
    }
