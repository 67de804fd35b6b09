"""A league's Discord application: a commissioner connects it (the bot token encrypted at
rest, never shown again), registers its slash commands, or disconnects it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import DiscordConnection, League, User
from league.services import audit
from league.services.access import get_league, may_commission
from league.services.discord import client
from league.services.discord.commands import command_definitions
from league.services.discord.vault import decrypt_token, encrypt_token, is_public_key
from league.services.errors import Conflict, DomainError, NotFound, RuleViolation

_SNOWFLAKE = re.compile(r"^[0-9]{5,25}$")
#: A bot token: three base64url parts with dots; no spaces, no newlines.
_TOKEN = re.compile(r"^[A-Za-z0-9_\-.]{20,200}$")


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    application_id: str
    public_key: str
    guild_id: str
    channel_id: str
    #: None or empty: keep the stored token.
    bot_token: str | None = None


def connection_of(session: Session, league_id: int) -> DiscordConnection | None:
    return session.scalar(select(DiscordConnection).where(DiscordConnection.league_id == league_id))


def connection_for_application(session: Session, application_id: str) -> DiscordConnection | None:
    return session.scalar(
        select(DiscordConnection).where(DiscordConnection.application_id == application_id)
    )


def _checked(settings: DiscordSettings, needs_token: bool) -> DiscordSettings:
    problems = RuleViolation(code="invalid_discord_settings")
    for name in ("application_id", "guild_id", "channel_id"):
        if not _SNOWFLAKE.match(getattr(settings, name).strip()):
            problems.add(name, gettext("Paste the id Discord shows: a number of 5 to 25 digits."))
    if not is_public_key(settings.public_key.strip().lower()):
        problems.add("public_key", gettext("Paste the public key: 64 hexadecimal digits."))
    token = (settings.bot_token or "").strip()
    if token and not _TOKEN.match(token):
        problems.add("bot_token", gettext("That is not a bot token: copy it again from Discord."))
    elif not token and needs_token:
        problems.add("bot_token", gettext("Paste the bot token."))
    if problems.problems:
        raise problems
    return DiscordSettings(
        settings.application_id.strip(),
        settings.public_key.strip().lower(),
        settings.guild_id.strip(),
        settings.channel_id.strip(),
        token or None,
    )


def connect(
    session: Session, actor: User, league_id: int, settings: DiscordSettings
) -> DiscordConnection:
    """Connect the league to the application, or change its connection."""
    league = get_league(session, league_id, collections=False, lock="update")
    may_commission(league, actor, "discord", session).require()
    connection = connection_of(session, league.id)
    settings = _checked(settings, needs_token=connection is None)
    taken = connection_for_application(session, settings.application_id)
    if taken is not None and taken.league_id != league.id:
        raise Conflict(
            gettext("That Discord application already answers for another league."),
            field="application_id",
        )
    if connection is None:
        connection = DiscordConnection(league_id=league.id)
        session.add(connection)
    if connection.application_id != settings.application_id:
        connection.commands_registered_at = None
    connection.application_id = settings.application_id
    connection.public_key = settings.public_key
    connection.guild_id = settings.guild_id
    connection.channel_id = settings.channel_id
    if settings.bot_token:
        connection.bot_token_encrypted = encrypt_token(settings.bot_token)
    session.flush()
    audit.record(session, actor, "discord.connect", "league", league.id)
    return connection


def disconnect(session: Session, actor: User, league_id: int) -> None:
    league = get_league(session, league_id, collections=False, lock="update")
    may_commission(league, actor, "discord", session).require()
    connection = connection_of(session, league.id)
    if connection is None:
        raise NotFound(gettext("%(league)s is not connected to Discord.", league=league.name))
    session.delete(connection)
    audit.record(session, actor, "discord.disconnect", "league", league.id)


def register_commands(
    session: Session, actor: User | None, league: League, now: datetime
) -> DiscordConnection:
    """Register the slash commands in the league's Discord server (Discord's bulk overwrite:
    commands of an earlier version go). `actor` None: the operator's command line."""
    if actor is not None:
        may_commission(league, actor, "discord", session).require()
    connection = connection_of(session, league.id)
    if connection is None:
        raise NotFound(gettext("%(league)s is not connected to Discord.", league=league.name))
    token = decrypt_token(connection.bot_token_encrypted)
    if token is None:
        raise RuleViolation(
            gettext("The stored bot token cannot be read (the key changed): paste it again."),
            field="bot_token",
        )
    answer = client.put_guild_commands(
        connection.application_id, connection.guild_id, token, command_definitions()
    )
    if not answer.ok:
        raise DomainError(
            gettext(
                "Discord refused the commands (%(status)s): %(reason)s",
                status=answer.status,
                reason=answer.body[:300] or gettext("no answer"),
            )
            if answer.status
            else gettext("Discord could not be reached: %(reason)s", reason=answer.body),
            code="discord_refused",
        )
    connection.commands_registered_at = now
    audit.record(session, actor, "discord.register_commands", "league", league.id)
    return connection
