"""Reminders posted to a connected league's Discord channel, each once: a fixture due
within `TIME_NOTICE` with no agreed time, a pre-game not filled the day before, a result
not recorded the day after. A worker claims a reminder by writing its row (one per match
and kind) before posting it, so two workers never post the same one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from league.i18n import format_date, gettext, in_language
from league.models import DiscordConnection, DiscordLink, DiscordReminder, Match, MatchTeam
from league.services import pregame, scheduling
from league.services.access import league_ruleset
from league.services.discord import client
from league.services.discord.messages import embed, message, text
from league.services.discord.vault import decrypt_token
from league.services.unit_of_work import unit_of_work
from league.services.webhooks.payloads import page_url

#: A fixture this close to its date with no agreed time gets a reminder.
TIME_NOTICE = timedelta(days=3)


@dataclass(frozen=True, slots=True)
class Due:
    match_id: int
    kind: str


def _due(session: Session, connection: DiscordConnection, today: date) -> Iterator[Due]:
    """The reminders the league's fixtures call for today (sent or not)."""
    has_pregame = league_ruleset(connection.league).match_day is not None
    fixtures = session.scalars(
        select(Match)
        .where(
            Match.league_id == connection.league_id,
            Match.state.in_(("scheduled", "draft")),
            Match.scheduled_for.is_not(None),
            Match.scheduled_for <= today + TIME_NOTICE,
        )
        .options(joinedload(Match.sides).joinedload(MatchTeam.team))
        .order_by(Match.scheduled_for, Match.id)
    ).unique()
    for match in fixtures:
        day = match.scheduled_for
        assert day is not None  # noqa: S101 - selected so
        if day < today:
            yield Due(match.id, "report")
            continue
        if match.state != "scheduled":
            continue
        if scheduling.slot_state(session, match).agreed is None:
            yield Due(match.id, "time")
        if has_pregame and day == today + timedelta(days=1):
            saved = [s for s in ("home", "away") if pregame.saved_side(session, match, s)]
            if len(saved) < 2:
                yield Due(match.id, "pregame")


def _claim(due: Due, now: datetime) -> bool:
    """Write the reminder's row; False when another worker wrote it first."""
    with unit_of_work() as session:
        try:
            with session.begin_nested():
                session.add(DiscordReminder(match_id=due.match_id, kind=due.kind, sent_at=now))
        except IntegrityError:
            return False
    return True


def _release(due: Due) -> None:
    """The post failed: the reminder goes out on a later run."""
    with unit_of_work() as session:
        session.execute(
            delete(DiscordReminder).where(
                DiscordReminder.match_id == due.match_id, DiscordReminder.kind == due.kind
            )
        )


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


def send_due(session: Session, today: date, now: datetime) -> int:
    """Post every reminder due today that no worker has posted; how many this call posted."""
    posted = 0
    connections = session.scalars(
        select(DiscordConnection)
        .options(joinedload(DiscordConnection.league))
        .order_by(DiscordConnection.id)
    ).all()
    for connection in connections:
        token = decrypt_token(connection.bot_token_encrypted)
        if token is None:
            continue
        with in_language(connection.league.default_language):
            for due in list(_due(session, connection, today)):
                if not _claim(due, now):
                    continue
                match = session.get(Match, due.match_id)
                assert match is not None  # noqa: S101 - just claimed
                answer = client.call(
                    "POST",
                    f"/channels/{connection.channel_id}/messages",
                    reminder_message(session, match, due.kind),
                    bot_token=token,
                )
                if answer.ok:
                    posted += 1
                else:
                    _release(due)
    return posted
