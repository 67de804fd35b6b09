"""Absolute URLs on the configured address, for pages, sheets and background jobs."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import current_app


def public_base() -> str:
    """The site's address as visitors see it: PUBLIC_URL, else SERVER_NAME (production
    requires one of them)."""
    config = current_app.config
    base = config.get("PUBLIC_URL") or f"{config['PREFERRED_URL_SCHEME']}://{config['SERVER_NAME']}"
    return str(base).rstrip("/")


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute URL to print or hand out, on the configured address (PUBLIC_URL, else
    SERVER_NAME): never the request's Host header, which any client may set.

    Built from the app's URL map bound to that address (its scheme, host and path prefix),
    so it needs no request: a job has none, and in production a made-up one would be
    refused by the trusted-hosts check.
    """
    app = current_app
    address = urlsplit(public_base())
    adapter = app.url_map.bind(
        address.netloc, script_name=address.path or "/", url_scheme=address.scheme
    )
    app.inject_url_defaults(endpoint, values)
    return adapter.build(endpoint, values, force_external=True)
