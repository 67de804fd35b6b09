"""Small typed helpers that build test data through the services."""

from __future__ import annotations

from league.extensions import db
from league.models import User
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user

DEFAULT_PASSWORD = "correct horse battery"


def make_user(username: str = "grim", *, admin: bool = False) -> User:
    with unit_of_work() as session:
        user = create_user(session, NewUser(username, DEFAULT_PASSWORD, admin))
    return db.session.get(User, user.id)  # type: ignore[return-value]
