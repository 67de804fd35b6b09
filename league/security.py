"""Security settings that apply to every response: headers, host names, request limits."""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from datetime import timedelta
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from itsdangerous import BadSignature, URLSafeTimedSerializer
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage
from werkzeug.wrappers import Response

from league.i18n import N_, format_number, gettext

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

#: Failed log-ins for one username from one address: that address is locked out of that
#: account for the rest of the minute; the owner at any other address is not.
LOGIN_LIMIT_PER_PAIR = "10 per minute"
#: Failed log-ins from one address, whatever the usernames: trying many accounts. Looser,
#: so one coach's typos do not lock out everybody else behind the same address.
LOGIN_LIMIT_PER_ADDRESS = "30 per minute"
#: Shown on the page the two limits above refuse.
LOGIN_LIMIT_MESSAGE = N_("Too many failed log-ins from your address: try again in a minute.")
#: Failed log-ins for one username from every address together: the first ones are free,
#: then each attempt waits for the one before, longer and longer up to a cap. A pause,
#: never a lock: the owner waits at most LOGIN_SLOWDOWN_MAX_DELAY seconds.
LOGIN_SLOWDOWN_FREE_FAILURES = 10
LOGIN_SLOWDOWN_MAX_DELAY = 30
#: The failures are counted over the hour starting with the first of them.
LOGIN_SLOWDOWN_WINDOW = 3600
#: A browser that logged in to a username is not slowed down for it (so a guesser who
#: takes every turn still cannot keep the owner out): a signed cookie naming the last few.
KNOWN_BROWSER_COOKIE = "known_browser"
KNOWN_BROWSER_FOR = timedelta(days=90)
KNOWN_BROWSER_USERNAMES = 5
#: Sign-up attempts from one address.
REGISTER_LIMIT = "10 per hour"
#: Roster sheets rendered for signed-out visitors from one address (copies from the cache
#: are free); a render costs about a second of CPU.
PDF_RENDER_LIMIT = "20 per minute"
#: Discord's interactions, per sending address (Discord sends from few addresses: generous,
#: but a flood of forged requests is cut off before each costs a signature check).
DISCORD_INTERACTIONS_LIMIT = "600 per minute"


def _username_digest(username: str) -> str:
    """A username as a store key: hashed (any length, any text), case and spaces ignored."""
    return hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]


def login_pair_key() -> str:
    """The limiter's key for the username being logged in to from this address."""
    return f"login-pair:{_username_digest(request.form.get('username', ''))}:{get_remote_address()}"


def login_slowdown_delay(failures: int) -> int:
    """How long an attempt at a username with `failures` holds it: nobody tries it meanwhile.

    0 while the failures are free; then 1, 2, 4, 8, 16 seconds and LOGIN_SLOWDOWN_MAX_DELAY.
    """
    if failures < LOGIN_SLOWDOWN_FREE_FAILURES:
        return 0
    return int(min(2 ** (failures - LOGIN_SLOWDOWN_FREE_FAILURES), LOGIN_SLOWDOWN_MAX_DELAY))


class LoginSlowdown:
    """The per-username pause, counted in the limiter's store (shared by every process).

    While that store is down each process counts in memory, as the limiter itself does.
    """

    def __init__(self) -> None:
        self._fallback = MemoryStorage()

    def init_app(self) -> None:
        """Start each app with empty fallback counts, as the limiter starts its store."""
        self._fallback = MemoryStorage()

    def _keys(self, username: str) -> tuple[str, str]:
        prefix = current_app.config.get("RATELIMIT_KEY_PREFIX", "")
        digest = _username_digest(username)
        return f"{prefix}login-failures:{digest}", f"{prefix}login-turn:{digest}"

    def _stores(self) -> tuple[Storage, Storage]:
        return limiter.storage, self._fallback

    def attempt(self, username: str) -> int:
        """Seconds to wait before trying `username` again; 0: this attempt may go ahead.

        An attempt that goes ahead takes the turn, an atomic counter in the store that
        expires after the delay, so attempts sent together do not all slip through. A
        browser that logged in to `username` before never waits. A wait is also this
        response's Retry-After header.
        """
        if _browser_key(username) in _known_usernames():
            return 0
        failures_key, turn_key = self._keys(username)
        for store in self._stores():
            try:
                delay = login_slowdown_delay(store.get(failures_key))
                if not delay or store.incr(turn_key, delay) == 1:
                    return 0
                g.login_pause = max(1, math.ceil(store.get_expiry(turn_key) - time.time()))
                return int(g.login_pause)
            except _errors_of(store):
                current_app.logger.warning("Rate limit store unreachable: counting in memory")
        return 0

    def failed(self, username: str) -> None:
        """Count a wrong password for `username`."""
        failures_key, _ = self._keys(username)
        for store in self._stores():
            try:
                store.incr(failures_key, LOGIN_SLOWDOWN_WINDOW)
                return
            except _errors_of(store):
                current_app.logger.warning("Rate limit store unreachable: counting in memory")

    @staticmethod
    def remember_browser(response: Response, username: str) -> None:
        """Note on `response` that this browser logged in to `username`."""
        known = [key for key in _known_usernames() if key != _browser_key(username)]
        value = [_browser_key(username), *known][:KNOWN_BROWSER_USERNAMES]
        response.set_cookie(
            KNOWN_BROWSER_COOKIE,
            _known_browser_signer().dumps(value),
            max_age=KNOWN_BROWSER_FOR,
            secure=current_app.config["SESSION_COOKIE_SECURE"],
            httponly=True,
            samesite="Lax",
        )

    @staticmethod
    def retry_after_header(response: Response) -> Response:
        """The pause as Retry-After (the limiter would round it down, or put its own)."""
        if "login_pause" in g:
            response.headers["Retry-After"] = str(g.login_pause)
        return response


def _known_browser_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="known-browser")


def _browser_key(username: str) -> str:
    """A username as the known-browser cookie holds it: keyed, so the cookie does not tell
    who used the browser."""
    secret = current_app.secret_key or ""
    key = secret if isinstance(secret, bytes) else secret.encode()
    return hmac.new(key, username.strip().lower().encode(), "sha256").hexdigest()[:32]


def _known_usernames() -> list[str]:
    """The usernames (as `_browser_key`s) this browser logged in to; none if the cookie is
    missing, too old or not signed by us."""
    value = request.cookies.get(KNOWN_BROWSER_COOKIE)
    if not value:
        return []
    try:
        known = _known_browser_signer().loads(value, max_age=int(KNOWN_BROWSER_FOR.total_seconds()))
    except BadSignature:
        return []
    return [key for key in known if isinstance(key, str)] if isinstance(known, list) else []


def _errors_of(store: Storage) -> tuple[type[Exception], ...]:
    """What `store` raises when it cannot answer (its driver's errors, or wrapped ones)."""
    errors = store.base_exceptions
    return (StorageError, *(errors if isinstance(errors, tuple) else (errors,)))


login_slowdown = LoginSlowdown()


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
    # A sliding window: ten failures count as ten whenever they come, never split in two
    # by a minute's boundary (which would let a burst of 20 through a fixed window).
    app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    app.config.setdefault("PDF_RENDER_LIMIT", PDF_RENDER_LIMIT)
    _check_production(app)
    # Hooks run last registered first: registered before the limiter's, this one has the
    # last word on Retry-After.
    app.after_request(login_slowdown.retry_after_header)
    limiter.init_app(app)
    login_slowdown.init_app()
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
