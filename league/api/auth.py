"""Bearer-token authentication for the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import g, request

from league.api.errors import Unauthorized
from league.extensions import db
from league.models import User
from league.services import users
from league.services.unit_of_work import unit_of_work


def token_user() -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    row = users.active_token(db.session(), token.strip())
    if row is None:
        return None
    user = row.user
    if users.token_use_due(row):
        # Commits the token's last use, nothing else; at most once a minute.
        with unit_of_work() as session:
            users.note_token_use(session, row.id)
    return user


def token_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        user = token_user()
        if user is None:
            raise Unauthorized("Send a valid API token: 'Authorization: Bearer <token>'.")
        g.api_user = user
        return view(*args, **kwargs)

    # Read by the OpenAPI document: which routes need a token.
    wrapper.requires_token = True  # type: ignore[attr-defined]
    return wrapper
