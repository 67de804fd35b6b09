"""Discord's interactions, received at POST /discord/interactions.

`verify` decides whether to believe a request: the league is found by the application id
in the body, and nothing else of it is read until its Ed25519 signature over timestamp +
body checks out with that league's public key; a timestamp older (or newer) than
`WINDOW` is refused, and so is a signature already seen (remembered in the database, so
every web process knows it). `answer` then answers PING, the commands, their autocomplete
and the buttons, in the league's language; a command that may take long (`DEFERRED`)
is answered "thinking..." at once and finished by a job (`follow_up`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from league.i18n import gettext, in_language
from league.models import DiscordInteractionSeen, League
from league.services.access import LeagueCollection, get_league
from league.services.discord import answers, coaches, linking
from league.services.discord.connections import connection_for_application
from league.services.discord.messages import (
    AUTOCOMPLETE,
    DEFERRED,
    PONG,
    message,
    notice,
    reply,
    text,
)
from league.services.discord.vault import signature_valid
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.urls import public_base

#: Discord's interaction types.
PING, COMMAND, COMPONENT, COMPLETE = 1, 2, 3, 4
#: What the answers read of the league along with it.
_SEASONS: tuple[LeagueCollection, ...] = ("seasons",)
#: How far a request's timestamp may be from now.
WINDOW = timedelta(minutes=5)
#: Commands answered by a job after a "thinking..." (their answer may take longer than
#: Discord's three seconds).
DEFERRED_COMMANDS = frozenset({"result"})


class Refused(Exception):
    """Not believed: 401, with the reason for the log (never the body)."""


@dataclass(frozen=True, slots=True)
class Verified:
    connection_id: int
    league_id: int
    application_id: str
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A deferred command for the job queue to answer."""

    league_id: int
    application_id: str
    interaction_token: str
    command: str
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Answered:
    body: dict[str, Any]
    follow_up: FollowUp | None = None


def _remember(session: Session, signature: str, now: datetime) -> bool:
    """Note the signature; False when it was already seen (a replay)."""
    session.execute(
        delete(DiscordInteractionSeen).where(DiscordInteractionSeen.seen_at < now - 2 * WINDOW)
    )
    digest = hashlib.sha256(signature.lower().encode()).hexdigest()
    try:
        with session.begin_nested():
            session.add(DiscordInteractionSeen(signature_hash=digest, seen_at=now))
    except IntegrityError:
        return False
    return True


def verify(
    session: Session, body: bytes, signature: str | None, timestamp: str | None, now: datetime
) -> Verified:
    """The request, believed; raises `Refused`. Call in a unit of work (it notes the
    signature)."""
    if not signature or not timestamp:
        raise Refused("no signature")
    try:
        payload = json.loads(body)
        application_id = str(payload["application_id"])
    except (ValueError, TypeError, KeyError):
        raise Refused("not an interaction") from None
    connection = connection_for_application(session, application_id)
    if connection is None:
        raise Refused("unknown application")
    if not signature_valid(connection.public_key, signature, timestamp, body):
        raise Refused("bad signature")
    if not timestamp.isdigit() or abs(now.timestamp() - int(timestamp)) > WINDOW.total_seconds():
        raise Refused("stale timestamp")
    if not _remember(session, signature, now):
        raise Refused("replayed")
    if not isinstance(payload, dict):
        raise Refused("not an interaction")
    return Verified(connection.id, connection.league_id, application_id, payload)


def _options(data: dict[str, Any]) -> tuple[str, dict[str, str], str | None]:
    """(command path, option values, the option being typed) of a command's data; a sub
    command is part of the path ("rules skill")."""
    name = str(data.get("name", ""))
    options = data.get("options") or []
    if options and options[0].get("type") in (1, 2):  # a sub command (group)
        name = f"{name} {options[0].get('name', '')}"
        options = options[0].get("options") or []
    values, focused = {}, None
    for option in options:
        values[str(option.get("name"))] = str(option.get("value", ""))
        if option.get("focused"):
            focused = str(option.get("name"))
    return name, values, focused


def _user(payload: dict[str, Any]) -> tuple[str, str]:
    """(id, name) of the Discord user who acted (in a server: the member's user)."""
    user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
    return str(user.get("id", "")), str(user.get("global_name") or user.get("username") or "")


def command_message(
    session: Session, league: League, command: str, options: dict[str, str]
) -> dict[str, Any]:
    """The message a read-only command answers with (a refusal only the asker sees)."""
    try:
        if command == "standings":
            return answers.standings_message(session, league)
        if command == "fixtures":
            return answers.fixtures_message(session, league, options.get("team"))
        if command == "team":
            return answers.team_message(session, league, options.get("name", ""))
        if command == "player":
            return answers.player_message(session, league, options.get("name", ""))
        if command == "result":
            return answers.result_message(session, league, options.get("match", ""))
        if command == "rules skill":
            return answers.skill_message(league, options.get("name", ""))
    except DomainError as refusal:
        return message(content=text(refusal.message), ephemeral=True)
    return message(content=gettext("This command is not known here."), ephemeral=True)


def _link_message(payload: dict[str, Any], now: datetime) -> dict[str, Any]:
    discord_id, discord_name = _user(payload)
    if not discord_id:
        return notice(gettext("Discord did not say who you are: try again."))
    with unit_of_work() as session:
        token = linking.new_link_token(session, discord_id, discord_name, now)
    return notice(
        gettext(
            "Open this link within %(minutes)s minutes and log in to tie your Discord user to "
            "your account (it works once): %(url)s",
            minutes=int(linking.LINK_LIFETIME.total_seconds() // 60),
            url=f"{public_base()}/discord/link/{token}",
        )
    )


def answer(session: Session, verified: Verified, now: datetime) -> Answered:
    """The answer to a verified interaction, read in `session`; `/link` and the buttons
    write in units of work of their own."""
    payload = verified.payload
    kind = payload.get("type")
    if kind == PING:
        return Answered({"type": PONG})
    league = get_league(session, verified.league_id, collections=_SEASONS)
    with in_language(league.default_language):
        data = payload.get("data") or {}
        if kind == COMPONENT:
            discord_id, _name = _user(payload)
            user = linking.linked_user(session, discord_id) if discord_id else None
            return Answered(coaches.press(league, user, str(data.get("custom_id", ""))))
        command, options, focused = _options(data)
        if kind == COMPLETE:
            typed = options.get(focused or "", "")
            found = answers.choices(session, league, command, focused or "", typed)
            return Answered({"type": AUTOCOMPLETE, "data": {"choices": found}})
        if kind != COMMAND:
            return Answered(notice(gettext("This interaction is not known here.")))
        if command == "link":
            return Answered(_link_message(payload, now))
        if command == "my":
            discord_id, _name = _user(payload)
            user = linking.linked_user(session, discord_id) if discord_id else None
            if user is None:
                return Answered(coaches.not_linked())
            return Answered(reply(coaches.my_message(session, league, user)))
        if command == "offer":
            discord_id, _name = _user(payload)
            user = linking.linked_user(session, discord_id) if discord_id else None
            return Answered(coaches.offer(session, league, user, options, now))
        if command in DEFERRED_COMMANDS:
            token = str(payload.get("token", ""))
            return Answered(
                {"type": DEFERRED},
                FollowUp(league.id, verified.application_id, token, command, options),
            )
        return Answered(reply(command_message(session, league, command, options)))


def follow_up_message(session: Session, follow_up: FollowUp) -> dict[str, Any]:
    """A deferred command's message (for the job that edits the "thinking..." answer)."""
    league = get_league(session, follow_up.league_id, collections=_SEASONS)
    with in_language(league.default_language):
        built = command_message(session, league, follow_up.command, follow_up.options)
    built.pop("flags", None)  # a deferred answer's visibility was fixed by the deferral
    return built
