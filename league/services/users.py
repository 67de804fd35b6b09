"""Accounts: registration, password checks, API tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from league.models import ApiToken, User
from league.services import audit, submissions
from league.services.errors import Conflict, NotFound, RuleViolation

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")
MIN_PASSWORD_LENGTH = 8
#: Hashing is deliberately slow; a megabyte-long "password" must not tie up a worker.
MAX_PASSWORD_LENGTH = 256
#: Passwords at the top of every breach list that would pass the length rule.
COMMON_PASSWORDS = frozenset(
    {
        "00000000", "11111111", "12345678", "123456789", "1234567890", "87654321",
        "abcd1234", "abcdefgh", "baseball", "bloodbowl", "football", "iloveyou",
        "letmein1", "password", "password1", "password123", "princess", "qwerty123",
        "qwertyuiop", "sunshine", "superman", "trustno1", "welcome1",
    }
)  # fmt: skip


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
    problem = password_problem(command.password, username)
    if problem:
        raise RuleViolation(problem, code="weak_password", field="password")
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


def password_problem(password: str, username: str) -> str | None:
    """Why `password` is refused for `username`, or None when it is acceptable."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return f"A password needs at least {MIN_PASSWORD_LENGTH} characters."
    if len(password) > MAX_PASSWORD_LENGTH:
        return f"A password has at most {MAX_PASSWORD_LENGTH} characters."
    lowered = password.lower()
    if lowered in COMMON_PASSWORDS:
        return "That password is one of the most common ones; choose another."
    if username and username.lower() in lowered:
        return "A password must not contain the username."
    return None


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


#: The longest token name (the column's width).
MAX_TOKEN_NAME = 60
#: A token's last use is written at most this often (not on every request).
TOKEN_USE_PRECISION = timedelta(minutes=1)


def _token_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= MAX_TOKEN_NAME:
        raise RuleViolation(
            f"A token name has 1 to {MAX_TOKEN_NAME} characters.",
            code="invalid_token_name",
            field="name",
        )
    return name


def issue_token(
    session: Session, user: User, name: str = "cli", *, form_token: str | None = None
) -> str:
    """A new random API token called `name`; only its digest is kept, so show it once.

    The token acts as `user`: whatever the user may do (now, not when it was issued).
    A resent form (`form_token`, see submissions) creates no second token.
    """
    claimed = submissions.claim(session, user, form_token, "token.issue", name.strip())
    token = secrets.token_urlsafe(32)
    row = ApiToken(user_id=user.id, token_hash=_digest(token), name=_token_name(name))
    session.add(row)
    submissions.done(
        claimed, f"The token “{row.name}” was created; it was shown once, on that page."
    )
    session.flush()
    audit.record(session, user, "token.issue", "api_token", row.id, name=row.name)
    return token


def active_tokens(session: Session, user: User) -> list[ApiToken]:
    """The user's tokens that still authenticate, newest first."""
    return list(
        session.scalars(
            select(ApiToken)
            .where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
            .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
        )
    )


def get_own_token(session: Session, user: User, token_id: int) -> ApiToken:
    """One of the user's active tokens (someone else's is 'not found', not 'forbidden')."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user.id or row.revoked_at is not None:
        raise NotFound("You have no such API token.")
    return row


def revoke_token(session: Session, user: User, token_id: int) -> ApiToken:
    """Revoke one of the user's tokens; it stops authenticating with the next request."""
    row = get_own_token(session, user, token_id)
    row.revoked_at = datetime.now(UTC)
    audit.record(session, user, "token.revoke", "api_token", row.id, name=row.name)
    return row


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they are stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def user_for_token(session: Session, token: str) -> User | None:
    """The user an active token belongs to, noting its use; None for any other string.

    The use is written to the token (at most once per TOKEN_USE_PRECISION); the caller
    commits it.
    """
    row = session.scalar(
        select(ApiToken).where(ApiToken.token_hash == _digest(token), ApiToken.revoked_at.is_(None))
    )
    if row is None:
        return None
    now = datetime.now(UTC)
    if row.last_used_at is None or now - _aware(row.last_used_at) >= TOKEN_USE_PRECISION:
        row.last_used_at = now
    return row.user
