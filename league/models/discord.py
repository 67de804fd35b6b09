"""A league's Discord application, the Discord users tied to accounts, the one-time link
tokens that tie them, and the interaction signatures already answered (replays)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk
from league.models.user import User

if TYPE_CHECKING:
    from league.models.league import League

#: Discord's ids are snowflakes: decimal numbers of up to 20 digits, kept as text.
SNOWFLAKE = 25


class DiscordConnection(Model):
    """The Discord application a league answers slash commands through (one per league).

    The bot token is stored encrypted (`league.services.discord.secrets`); the public key
    checks the signature of every interaction Discord sends."""

    __tablename__ = "discord_connection"

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), unique=True)
    application_id: Mapped[str] = mapped_column(String(SNOWFLAKE), unique=True)
    #: Ed25519 public key, 64 hex digits, as Discord's developer portal shows it.
    public_key: Mapped[str] = mapped_column(String(64))
    #: The bot token, Fernet-encrypted with DISCORD_TOKEN_KEY.
    bot_token_encrypted: Mapped[str] = mapped_column(Text)
    guild_id: Mapped[str] = mapped_column(String(SNOWFLAKE))
    channel_id: Mapped[str] = mapped_column(String(SNOWFLAKE))
    commands_registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[created_at]

    league: Mapped[League] = relationship()


class DiscordLink(Model):
    """A Discord user tied to an account: buttons they press act as that user."""

    __tablename__ = "discord_link"

    id: Mapped[intpk]
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), unique=True)
    discord_user_id: Mapped[str] = mapped_column(String(SNOWFLAKE), unique=True)
    #: The Discord name when linked (shown on the profile; Discord users may rename).
    discord_name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[created_at]

    user: Mapped[User] = relationship()


class DiscordLinkToken(Model):
    """A one-time link `/link` handed out: only its SHA-256 digest is stored."""

    __tablename__ = "discord_link_token"

    id: Mapped[intpk]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    discord_user_id: Mapped[str] = mapped_column(String(SNOWFLAKE))
    discord_name: Mapped[str] = mapped_column(String(100), default="")
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[created_at]


class DiscordInteractionSeen(Model):
    """The signature of an interaction already answered: the same request again is a
    replay (kept for as long as its timestamp would be accepted)."""

    __tablename__ = "discord_interaction_seen"

    #: SHA-256 of the signature (hex).
    signature_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
