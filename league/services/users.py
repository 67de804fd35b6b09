"""Accounts: registration, password checks, API tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from league.models import ApiToken, User
from league.services import audit
from league.services.errors import Conflict, NotFound, RuleViolation

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")
MIN_PASSWORD_LENGTH = 8


@dataclass(frozen=True, slots=True)
class NewUser:
    username: str
    password: str
    admin: bool = False


def create_user(session: Session, command: NewUser) -> User:
    """Register an account; the password is stored only as a scrypt hash."""
    username = command.username.strip()
    if not USERNAME_PATTERN.match(username):
        raise RuleViolation(
            "A username has 3 to 40 letters, digits, dots, dashes or underscores.",
            code="invalid_username",
            field="username",
        )
    if len(command.password) < MIN_PASSWORD_LENGTH:
        raise RuleViolation(
            f"A password needs at least {MIN_PASSWORD_LENGTH} characters.",
            code="weak_password",
            field="password",
        )
    if find_user(session, username) is not None:
        raise Conflict(
            f"The username {username!r} is taken.", code="username_taken", field="username"
        )
    user = User(
        username=username,
        password_hash=generate_password_hash(command.password, method="scrypt"),
        is_admin=command.admin,
    )
    session.add(user)
    session.flush()
    audit.record(session, user, "user.create", "user", user.id, admin=command.admin)
    return user


def find_user(session: Session, username: str) -> User | None:
    """The user called `username`, case-insensitively (exact match, no wildcards)."""
    return session.scalar(select(User).where(func.lower(User.username) == username.strip().lower()))


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user when the password matches, else None (same answer for unknown names)."""
    user = find_user(session, username)
    if user is None or not check_password_hash(user.password_hash, password):
        return None
    return user


def get_user(session: Session, username: str) -> User:
    user = find_user(session, username)
    if user is None:
        raise NotFound(f"There is no user called {username!r}.")
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User) -> str:
    """A new random API token; only its digest is kept, so show it once."""
    token = secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, token_hash=_digest(token)))
    audit.record(session, user, "token.issue", "user", user.id)
    return token


def user_for_token(session: Session, token: str) -> User | None:
    row = session.scalar(
        select(ApiToken).where(ApiToken.token_hash == _digest(token), ApiToken.revoked_at.is_(None))
    )
    return row.user if row else None
