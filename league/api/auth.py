"""Bearer-token authentication for the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import g, request

from league.extensions import db
from league.models import User
from league.services.errors import DomainError
from league.services.users import user_for_token


class Unauthorized(DomainError):
    status = 401
    code = "unauthorized"


def token_user() -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return user_for_token(db.session, token.strip())


def token_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        user = token_user()
        if user is None:
            raise Unauthorized("Send a valid API token: 'Authorization: Bearer <token>'.")
        g.api_user = user
        return view(*args, **kwargs)

    return wrapper
