"""Security settings that apply to every response: headers, host names, request limits."""

from __future__ import annotations

import hashlib
import math
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

from league.i18n import format_number, gettext

# No inline scripts or styles anywhere: everything comes from static/.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"
)

#: Browsers keep to HTTPS for a year after seeing Strict-Transport-Security.
HSTS_MAX_AGE = 365 * 24 * 3600

# The counts live in RATELIMIT_STORAGE_URI: memory:// keeps them per process (development,
# tests, a single-process server); redis://... shares them between every app process.
limiter = Limiter(key_func=get_remote_address, default_limits=[])

#: Failed log-ins for one username, from any address: guessing one account's password.
LOGIN_LIMIT_PER_USERNAME = "10 per minute"
#: Failed log-ins from one address, whatever the usernames: trying many accounts. Looser,
#: so one coach's typos do not lock out everybody else behind the same address.
LOGIN_LIMIT_PER_ADDRESS = "30 per minute"
#: Sign-up attempts from one address.
REGISTER_LIMIT = "10 per hour"
#: Roster sheets rendered for signed-out visitors from one address (copies from the cache
#: are free); a render costs about a second of CPU.
PDF_RENDER_LIMIT = "20 per minute"


def login_username_key() -> str:
    """The limiter's key for the username being logged in to (hashed: any length, any text)."""
    username = request.form.get("username", "").strip().lower()
    return "login-username:" + hashlib.sha256(username.encode()).hexdigest()[:32]


def _check_production(app: Flask) -> None:
    """Refuse to start production with settings that only suit one process on one host."""
    config = app.config
    if config.get("LEAGUE_ENV") != "production":
        return
    if config["RATELIMIT_STORAGE_URI"].startswith("memory://") and not config.get(
        "RATELIMIT_SINGLE_PROCESS"
    ):
        raise RuntimeError(
            "RATELIMIT_STORAGE_URI is memory://: each app process would count log-in "
            "attempts on its own. Set RATELIMIT_STORAGE_URI=redis://127.0.0.1:6379 (a store "
            "every process shares), or RATELIMIT_SINGLE_PROCESS=1 if only one process serves."
        )
    public_url = config.get("PUBLIC_URL") or (
        f"//{config['SERVER_NAME']}" if config.get("SERVER_NAME") else None
    )
    if not public_url:
        raise RuntimeError(
            "PUBLIC_URL is not set: the site's address as visitors see it, e.g. "
            "https://league.example.org (printed on roster sheets; the accepted host name)."
        )
    if not config.get("TRUSTED_HOSTS"):
        # Only the public host name: any other Host header is refused (400).
        config["TRUSTED_HOSTS"] = [urlsplit(public_url).hostname]


def strict_transport_security(app: Flask) -> str | None:
    """The Strict-Transport-Security header to send, if any: in production unless HSTS=0
    (a proxy in front that sends its own), elsewhere only with HSTS=1."""
    enabled = app.config.get("HSTS")
    if enabled is None:
        enabled = app.config.get("LEAGUE_ENV") == "production"
    if not enabled:
        return None
    subdomains = app.config.get("HSTS_INCLUDE_SUBDOMAINS", True)
    return f"max-age={HSTS_MAX_AGE}" + ("; includeSubDomains" if subdomains else "")


def _limit_json_body() -> None:
    """A JSON body is parsed whole in memory: it gets the smaller MAX_JSON_LENGTH, refused
    (413) from its Content-Length before any of it is read."""
    limits = [current_app.config.get(name) for name in ("MAX_JSON_LENGTH", "MAX_CONTENT_LENGTH")]
    limit = min((size for size in limits if size), default=None)
    if not request.is_json or limit is None:
        return
    if request.content_length is not None and request.content_length > limit:
        abort(
            413,
            description=gettext(
                "The JSON body is too large: %(size)s KB, at most %(limit)s KB are accepted.",
                size=format_number(math.ceil(request.content_length / 1024)),
                limit=format_number(limit // 1024),
            ),
        )
    # A body sent without a length (chunked) is cut off at the limit as it is read.
    request.max_content_length = limit


def configure_security(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("PDF_RENDER_LIMIT", PDF_RENDER_LIMIT)
    _check_production(app)
    limiter.init_app(app)
    hsts = strict_transport_security(app)
    app.before_request(_limit_json_body)

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if hsts:
            response.headers.setdefault("Strict-Transport-Security", hsts)
        return response
