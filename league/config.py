"""Configuration read from the environment.

`DATABASE_URL` selects the store (SQLite under `instance/` by default),
`SECRET_KEY` signs sessions and CSRF tokens, `LEAGUE_ENV` is one of
development (default), production or testing. `PUBLIC_URL` is the site's
address as visitors see it (printed on roster sheets; in production also the
only host name accepted unless `TRUSTED_HOSTS`, comma-separated, lists others).
`RATELIMIT_STORAGE_URI` names the store the request limits count in.
`ALLOW_PRIVATE_WEBHOOKS=1` lets webhooks post to private networks and this server;
`WEBHOOK_DISPATCH=inline` sends webhooks within the request instead of on the job queue.
`LOGO_DIR` is where team logos are kept (beside `PDF_CACHE_DIR`: every process must see it).
`DISCORD_TOKEN_KEY` encrypts the Discord bot tokens at rest (a Fernet key; production
refuses to start without it, elsewhere one is derived from SECRET_KEY);
`DISCORD_API_URL` is where Discord's HTTP API answers (tests point it at a local stand-in).
`MAX_CONTENT_LENGTH` and `MAX_JSON_LENGTH` cap a request's body, in bytes. `HSTS=0` leaves
Strict-Transport-Security to a proxy in front (on by default in production);
`HSTS_INCLUDE_SUBDOMAINS=0` limits it to the site's own host name.
"""

from __future__ import annotations

import base64
import hashlib
import os
from datetime import timedelta
from pathlib import Path

from cryptography.fernet import Fernet

SECRET_KEY_FILE = "secret_key"  # noqa: S105  (a file name, not a secret)
#: Where `make run` serves: the printed address when PUBLIC_URL is not set outside production.
DEVELOPMENT_URL = "http://127.0.0.1:5000"
#: Discord's HTTP API (slash command registration, follow-up messages).
DISCORD_API_URL = "https://discord.com/api/v10"
#: How long "keep me logged in" lasts (Flask-Login's default is a year).
REMEMBER_FOR = timedelta(days=30)
#: The largest request body: a team logo upload (up to about 2 MB) with its form.
MAX_CONTENT_LENGTH = 4 * 1024 * 1024
#: The largest JSON body: parsed whole in memory, and no API request needs more.
MAX_JSON_LENGTH = 1024 * 1024


def _read_secret_key(instance_path: Path) -> str | None:
    """The key from the environment, else the one `make run` generated into instance/."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    key_file = instance_path / SECRET_KEY_FILE
    if key_file.is_file():
        return key_file.read_text().strip() or None
    return None


def _names(value: str | None) -> list[str] | None:
    """'a.example, b.example' -> ['a.example', 'b.example']; unset or empty -> None."""
    names = [name.strip() for name in (value or "").split(",") if name.strip()]
    return names or None


def _bytes(name: str, default: int) -> int:
    """A size in bytes from the environment variable `name` (unset or empty: `default`)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) == 0:
        raise RuntimeError(f"{name} must be a positive number of bytes, e.g. 1048576: {value!r}")
    return int(value)


def _switch(name: str) -> bool | None:
    """An on/off setting: 1 or 0; unset or empty: None (the default applies)."""
    value = os.environ.get(name, "").strip()
    if value in ("", "1", "0"):
        return {"1": True, "0": False}.get(value)
    raise RuntimeError(f"{name} must be 1 or 0: {value!r}")


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
        # Production has no default: league.security refuses to start without an address.
        "PUBLIC_URL": os.environ.get("PUBLIC_URL")
        or (None if env == "production" else DEVELOPMENT_URL),
        "SERVER_NAME": os.environ.get("SERVER_NAME") or None,
        "TRUSTED_HOSTS": _names(os.environ.get("TRUSTED_HOSTS")),
        # Production refuses memory:// (counts per process) unless RATELIMIT_SINGLE_PROCESS=1.
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        "RATELIMIT_SINGLE_PROCESS": os.environ.get("RATELIMIT_SINGLE_PROCESS") == "1",
        # If the shared store is down, count in the process meanwhile: log-ins stay throttled
        # (per process) and answer, instead of failing with a 500.
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        # Where background jobs wait (league/jobs.py): redis://..., sqlite:///... or
        # immediate; unset: a SQLite file beside the database (immediate for tests).
        "JOB_QUEUE": os.environ.get("JOB_QUEUE") or None,
        # Separates queues sharing one Redis database (JOB_QUEUE_NAME=league by default).
        "JOB_QUEUE_NAME": os.environ.get("JOB_QUEUE_NAME") or "league",
        # Rendered PDFs: web and worker processes must share it (instance/pdf-cache/ by default).
        "PDF_CACHE_DIR": os.environ.get("PDF_CACHE_DIR") or None,
        # Team logos (league.services.logos): shared by web and worker processes, like the
        # PDFs (instance/logos/ by default).
        "LOGO_DIR": os.environ.get("LOGO_DIR") or None,
        # RENDER_AHEAD=0: no job renders a roster sheet after a change (unset: on, not in tests).
        "RENDER_AHEAD": _switch("RENDER_AHEAD"),
        # LEAGUE_BENCH=1 adds /_bench/baseline, the load test's reference page (bench/load.sh).
        "LEAGUE_BENCH": os.environ.get("LEAGUE_BENCH") == "1",
        # Webhooks may post to private networks and this server only when this says so.
        "ALLOW_PRIVATE_WEBHOOKS": os.environ.get("ALLOW_PRIVATE_WEBHOOKS") == "1",
        # "queue" (default): deliveries run on the job queue; "inline": in the request.
        "WEBHOOK_DISPATCH": os.environ.get("WEBHOOK_DISPATCH", "queue"),
        # Fernet key for the Discord bot tokens (league.services.discord.vault).
        "DISCORD_TOKEN_KEY": os.environ.get("DISCORD_TOKEN_KEY") or None,
        "DISCORD_API_URL": os.environ.get("DISCORD_API_URL") or DISCORD_API_URL,
        # Larger bodies are refused (413) before they are read.
        "MAX_CONTENT_LENGTH": _bytes("MAX_CONTENT_LENGTH", MAX_CONTENT_LENGTH),
        "MAX_JSON_LENGTH": _bytes("MAX_JSON_LENGTH", MAX_JSON_LENGTH),
        # Strict-Transport-Security (league.security): unset, on in production only.
        "HSTS": _switch("HSTS"),
        "HSTS_INCLUDE_SUBDOMAINS": _switch("HSTS_INCLUDE_SUBDOMAINS") is not False,
    }


def settle_discord_token_key(config: dict[str, object]) -> None:
    """DISCORD_TOKEN_KEY checked (a Fernet key: 32 bytes, URL-safe base64). Production
    refuses to start without one; elsewhere a key is derived from SECRET_KEY, so development
    and tests need no setting (a changed SECRET_KEY then makes stored bot tokens unreadable:
    they are entered again)."""
    key = config.get("DISCORD_TOKEN_KEY")
    if not key:
        if config.get("LEAGUE_ENV") == "production":
            raise RuntimeError(
                "DISCORD_TOKEN_KEY is not set: the key that encrypts Discord bot tokens. "
                "Make one with: python -c 'from cryptography.fernet import Fernet; "
                "print(Fernet.generate_key().decode())'"
            )
        digest = hashlib.sha256(b"league discord token key:" + str(config["SECRET_KEY"]).encode())
        config["DISCORD_TOKEN_KEY"] = base64.urlsafe_b64encode(digest.digest()).decode()
        return
    try:
        Fernet(str(key))
    except ValueError:
        raise RuntimeError(
            "DISCORD_TOKEN_KEY is not a Fernet key (32 bytes in URL-safe base64)."
        ) from None
