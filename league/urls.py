"""Absolute URLs on the configured address, for pages, sheets and background jobs."""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute URL to print or hand out, on the configured address (PUBLIC_URL, else
    SERVER_NAME): never the request's Host header, which any client may set."""
    config = current_app.config
    base = config.get("PUBLIC_URL") or f"{config['PREFERRED_URL_SCHEME']}://{config['SERVER_NAME']}"
    return base.rstrip("/") + url_for(endpoint, **values).removeprefix(request.script_root)
