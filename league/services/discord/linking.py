"""Tying a Discord user to an account: `/link` hands out a one-time link (only its digest
is stored; it expires), the signed-in user who opens and confirms it is tied to that
Discord user. Buttons pressed in Discord then act as that user."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import DiscordLink, DiscordLinkToken, User
from league.services import audit
from league.services.errors import NotFound

#: How long a link from `/link` may be used.
LINK_LIFETIME = timedelta(minutes=15)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def new_link_token(session: Session, discord_user_id: str, discord_name: str, now: datetime) -> str:
    """A one-time token for the Discord user (the digest is stored, the token returned)."""
    session.execute(delete(DiscordLinkToken).where(DiscordLinkToken.expires_at < now))
    token = secrets.token_urlsafe(32)
    session.add(
        DiscordLinkToken(
            token_hash=_digest(token),
            discord_user_id=discord_user_id,
            discord_name=discord_name[:100],
            expires_at=now + LINK_LIFETIME,
        )
    )
    return token


@dataclass(frozen=True, slots=True)
class PendingLink:
    discord_user_id: str
    discord_name: str


def _usable(session: Session, token: str, now: datetime) -> DiscordLinkToken:
    found = session.scalar(
        select(DiscordLinkToken).where(DiscordLinkToken.token_hash == _digest(token))
    )
    if found is None or found.used_at is not None or _aware(found.expires_at) < now:
        raise NotFound(
            gettext("This Discord link is unknown, used or expired: run /link in Discord again.")
        )
    return found


def pending_link(session: Session, token: str, now: datetime) -> PendingLink:
    """Who the link would tie (for the page that asks to confirm)."""
    found = _usable(session, token, now)
    return PendingLink(found.discord_user_id, found.discord_name)


def redeem(session: Session, user: User, token: str, now: datetime) -> DiscordLink:
    """Tie the token's Discord user to `user` (replacing either side's earlier link)."""
    found = _usable(session, token, now)
    found.used_at = now
    session.execute(
        delete(DiscordLink).where(
            (DiscordLink.user_id == user.id)
            | (DiscordLink.discord_user_id == found.discord_user_id)
        )
    )
    session.flush()
    link = DiscordLink(
        user_id=user.id, discord_user_id=found.discord_user_id, discord_name=found.discord_name
    )
    session.add(link)
    session.flush()
    audit.record(session, user, "discord.link", "user", user.id)
    return link


def unlink(session: Session, user: User) -> bool:
    """Untie the user's Discord user; whether there was one."""
    gone = session.execute(delete(DiscordLink).where(DiscordLink.user_id == user.id))
    if gone.rowcount:  # type: ignore[attr-defined]
        audit.record(session, user, "discord.unlink", "user", user.id)
    return bool(gone.rowcount)  # type: ignore[attr-defined]


def linked_user(session: Session, discord_user_id: str) -> User | None:
    return session.scalar(
        select(User)
        .join(DiscordLink, DiscordLink.user_id == User.id)
        .where(DiscordLink.discord_user_id == discord_user_id)
    )


def link_of(session: Session, user: User) -> DiscordLink | None:
    return session.scalar(select(DiscordLink).where(DiscordLink.user_id == user.id))
