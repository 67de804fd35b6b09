"""Security settings that apply to every response: headers and login throttling."""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

# No inline scripts or styles anywhere: everything comes from static/.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"
)

# In-memory per process by default; RATELIMIT_STORAGE_URI (e.g. redis://...) shares the
# counts between app processes.
limiter = Limiter(key_func=get_remote_address, default_limits=[])

#: Repeated failed log-ins from one address are slowed down.
LOGIN_LIMIT = "10 per minute"


def configure_security(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter.init_app(app)

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
