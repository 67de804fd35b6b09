"""Accounts: registration, password checks, sessions, API tokens."""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash
from zxcvbn import zxcvbn

from league.i18n import N_, gettext
from league.i18n.languages import LANGUAGES
from league.models import ApiToken, User
from league.models.user import new_session_secret
from league.services import audit, submissions
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.text import checked_name

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")
MIN_PASSWORD_LENGTH = 8
#: Hashing is deliberately slow; a megabyte-long "password" must not tie up a worker.
MAX_PASSWORD_LENGTH = 256
ZXCVBN_MAX_LENGTH = 72
#: Every warning zxcvbn 4.5 gives (zxcvbn/feedback.py), marked for the catalogues: zxcvbn
#: speaks English only, so its warning is translated here by its English text.
ZXCVBN_WARNINGS = frozenset(
    {
        N_("Straight rows of keys are easy to guess."),
        N_("Short keyboard patterns are easy to guess."),
        N_('Repeats like "aaa" are easy to guess.'),
        N_('Repeats like "abcabcabc" are only slightly harder to guess than "abc".'),
        N_('Sequences like "abc" or "6543" are easy to guess.'),
        N_("Recent years are easy to guess."),
        N_("Dates are often easy to guess."),
        N_("This is a top-10 common password."),
        N_("This is a top-100 common password."),
        N_("This is a very common password."),
        N_("This is similar to a commonly used password."),
        N_("A word by itself is easy to guess."),
        N_("Names and surnames by themselves are easy to guess."),
        N_("Common names and surnames are easy to guess."),
    }
)

#: zxcvbn's score (0 to 4) a password needs: 2 is "somewhat guessable", about 10^8 guesses,
#: which refuses dictionary words, repeats like "aaaaaaaa" and keyboard runs like "qwertyuiop".
MIN_PASSWORD_SCORE = 2


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
            gettext("A username has 3 to 40 letters, digits, dots, dashes or underscores."),
            code="invalid_username",
            field="username",
        )
    problem = password_problem(command.password, username)
    if problem:
        raise RuleViolation(problem, code="weak_password", field="password")
    if find_user(session, username) is not None:
        raise Conflict(
            gettext("The username %(username)s is taken.", username=repr(username)),
            code="username_taken",
            field="username",
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
        return gettext("A password needs at least %(min)s characters.", min=MIN_PASSWORD_LENGTH)
    if len(password) > MAX_PASSWORD_LENGTH:
        return gettext("A password has at most %(max)s characters.", max=MAX_PASSWORD_LENGTH)
    if username and username.lower() in password.lower():
        return gettext("A password must not contain the username.")
    # zxcvbn refuses to judge more than 72 characters; their first 72 tell the strength.
    strength = zxcvbn(password[:ZXCVBN_MAX_LENGTH], user_inputs=[username] if username else [])
    if strength["score"] < MIN_PASSWORD_SCORE:
        # zxcvbn's warning is English, one of a fixed set: translated from ours; one we do
        # not know (a newer zxcvbn) gives the general advice rather than English.
        warning = strength["feedback"]["warning"]
        hint = (
            gettext(warning)
            if warning in ZXCVBN_WARNINGS
            else gettext("Add a few more words or characters.")
        )
        return gettext("That password is too easy to guess: %(hint)s.", hint=hint.rstrip("."))
    return None


def find_user(session: Session, username: str) -> User | None:
    """The user called `username`, case-insensitively (exact match, no wildcards)."""
    return session.scalar(select(User).where(func.lower(User.username) == username.strip().lower()))


@functools.cache
def _dummy_password_hash() -> str:
    """A hash nobody's password matches, checked for unknown usernames."""
    return generate_password_hash(secrets.token_urlsafe(16), method="scrypt")


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user when the password matches, else None (same answer for unknown names).

    An unknown name costs a password check too, so the time taken does not tell
    whether the account exists.
    """
    user = find_user(session, username)
    if user is None:
        check_password_hash(_dummy_password_hash(), password)
        return None
    if not check_password_hash(user.password_hash, password):
        return None
    return user


def user_for_session(session: Session, session_secret: str) -> User | None:
    """The user a session or remember cookie signs in (None once the secret was replaced)."""
    return session.scalar(select(User).where(User.session_secret == session_secret))


def end_sessions(session: Session, user: User, *, revoke_tokens: bool = False) -> int:
    """Sign `user` out on every device: cookies holding the old secret stop working.

    With `revoke_tokens`, every API token stops too (a copied token outlives any cookie).
    The number of tokens revoked.
    """
    user.session_secret = new_session_secret()
    revoked = active_tokens(session, user) if revoke_tokens else []
    for row in revoked:
        _revoke(session, user, row)
    audit.record(session, user, "user.end_sessions", "user", user.id, revoked_tokens=len(revoked))
    return len(revoked)


@dataclass(frozen=True, slots=True)
class PasswordChange:
    current_password: str
    new_password: str


def change_password(session: Session, user: User, command: PasswordChange) -> None:
    """Replace the password (the current one is asked for) and end every other session."""
    if not check_password_hash(user.password_hash, command.current_password):
        raise RuleViolation(
            gettext("That is not your current password."),
            code="wrong_password",
            field="current_password",
        )
    problem = password_problem(command.new_password, user.username)
    if problem:
        raise RuleViolation(problem, code="weak_password", field="new_password")
    user.password_hash = generate_password_hash(command.new_password, method="scrypt")
    user.session_secret = new_session_secret()
    audit.record(session, user, "user.change_password", "user", user.id)


def set_language(session: Session, user: User, language: str | None) -> None:
    """The language `user` reads the site in; None or "": no choice (browser, league)."""
    if language and language not in LANGUAGES:
        raise RuleViolation(
            "Choose one of the languages offered.", code="unknown_language", field="language"
        )
    if (language or None) != user.language:
        user.language = language or None
        audit.record(session, user, "user.set_language", "user", user.id)


#: The longest NAF name (the column's width).
MAX_NAF_NAME = 60


def set_naf_identity(session: Session, user: User, name: str | None, number: int | None) -> None:
    """The coach's NAF name and member number (None, or "": not a member, or not told).

    Tournament entries show them, and the NAF's results report names coaches by them.
    """
    naf_name = (
        checked_name(name, field="naf_name", what=gettext("A NAF name"), length=(1, MAX_NAF_NAME))
        if name and name.strip()
        else None
    )
    if number is not None and not 0 < number <= 2_147_483_647:
        raise RuleViolation(
            gettext("A NAF number is a whole number above 0."),
            code="invalid_naf_number",
            field="naf_number",
        )
    if (naf_name, number) != (user.naf_name, user.naf_number):
        user.naf_name, user.naf_number = naf_name, number
        audit.record(session, user, "user.set_naf_identity", "user", user.id)


def get_user(session: Session, username: str) -> User:
    user = find_user(session, username)
    if user is None:
        raise NotFound(gettext("There is no user called %(username)s.", username=repr(username)))
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: The longest token name (the column's width).
MAX_TOKEN_NAME = 60
#: A token's last use is written at most this often (not on every request).
TOKEN_USE_PRECISION = timedelta(minutes=1)


def _token_name(name: str) -> str:
    return checked_name(
        name,
        field="name",
        what=gettext("A token name"),
        length=(1, MAX_TOKEN_NAME),
        code="invalid_token_name",
    )


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
        claimed,
        gettext(
            "The token “%(name)s” was created; it was shown once, on that page.", name=row.name
        ),
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
        raise NotFound(gettext("You have no such API token."))
    return row


def revoke_token(session: Session, user: User, token_id: int) -> ApiToken:
    """Revoke one of the user's tokens; it stops authenticating with the next request."""
    row = get_own_token(session, user, token_id)
    _revoke(session, user, row)
    return row


def _revoke(session: Session, user: User, row: ApiToken) -> None:
    row.revoked_at = datetime.now(UTC)
    audit.record(session, user, "token.revoke", "api_token", row.id, name=row.name)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they are stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def active_token(session: Session, token: str) -> ApiToken | None:
    """The active token `token` is (its owner: `.user`); None for any other string."""
    return session.scalar(
        select(ApiToken).where(ApiToken.token_hash == _digest(token), ApiToken.revoked_at.is_(None))
    )


def token_use_due(row: ApiToken) -> bool:
    """Whether this use of the token is to be written (at most once per TOKEN_USE_PRECISION:
    the requests in between only read, and on SQLite take no write lock)."""
    return (
        row.last_used_at is None
        or datetime.now(UTC) - _aware(row.last_used_at) >= TOKEN_USE_PRECISION
    )


def note_token_use(session: Session, token_id: int) -> None:
    """Write the token's use; the caller commits."""
    now = datetime.now(UTC)
    # Conditional: of two requests at the same moment, one writes.
    session.execute(
        update(ApiToken)
        .where(
            ApiToken.id == token_id,
            or_(
                ApiToken.last_used_at.is_(None),
                ApiToken.last_used_at <= now - TOKEN_USE_PRECISION,
            ),
        )
        .values(last_used_at=now)
        # Not compared in Python with the loaded row (SQLite gives naive datetimes back).
        .execution_options(synchronize_session=False)
    )
