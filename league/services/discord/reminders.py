"""Reminders in a connected league's channel: the fixture reminders that
`league.services.scheduling.send_due_reminders` found due and claimed (each once, whichever
worker ran it), posted by the league's bot, mentioning the coaches who linked their Discord
user (only them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import format_date, gettext, in_language
from league.models import DiscordConnection, DiscordLink, Match
from league.services.discord import client
from league.services.discord.messages import embed, message, text
from league.services.discord.vault import decrypt_token
from league.services.scheduling import Reminder
from league.services.webhooks.payloads import page_url


def reminder_message(session: Session, match: Match, kind: str) -> dict[str, Any]:
    """The reminder, mentioning the coaches who linked their Discord user (only them)."""
    home, away = text(match.home.team.name), text(match.away.team.name)
    day = format_date(match.scheduled_for)
    if kind == "time":
        said = gettext(
            "%(home)s v %(away)s is due on %(date)s with no agreed time: offer times with /offer.",
            home=home,
            away=away,
            date=day,
        )
    elif kind == "pregame":
        said = gettext(
            "%(home)s v %(away)s is tomorrow: its pre-game is not filled yet.", home=home, away=away
        )
    else:
        said = gettext(
            "%(home)s v %(away)s was due on %(date)s: its result is not recorded yet.",
            home=home,
            away=away,
            date=day,
        )
    coaches = [side.team.coach_id for side in match.sides if side.team.coachless_since is None]
    linked = list(
        session.scalars(
            select(DiscordLink.discord_user_id)
            .where(DiscordLink.user_id.in_(coaches))
            .order_by(DiscordLink.discord_user_id)
        )
    )
    return message(
        content=" ".join(f"<@{user}>" for user in linked),
        embeds=[
            embed(
                match.league,
                gettext("Reminder"),
                description=said,
                url=page_url("matches", match.id),
            )
        ],
        mention_users=linked,
    )


def post_reminders(session: Session, reminders: Sequence[Reminder]) -> int:
    """Post each reminder to its league's channel where the league is connected to a
    Discord application; how many Discord took. A refused post is not tried again: the
    reminder was claimed, and its webhook (if any) keeps its own retries."""
    posted = 0
    for reminder in reminders:
        match = session.get(Match, reminder.match_id)
        if match is None:
            continue
        connection = session.scalar(
            select(DiscordConnection).where(DiscordConnection.league_id == match.league_id)
        )
        token = decrypt_token(connection.bot_token_encrypted) if connection else None
        if connection is None or token is None:
            continue  # not connected to Discord: its webhooks say it, if it has any
        with in_language(connection.league.default_language):
            answer = client.call(
                "POST",
                f"/channels/{connection.channel_id}/messages",
                reminder_message(session, match, reminder.kind),
                bot_token=token,
            )
        posted += int(answer.ok)
    return posted
