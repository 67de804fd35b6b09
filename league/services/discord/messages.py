"""Discord messages the commands answer with: embeds within Discord's limits, every text a
person wrote made inert, and mentions allowed only where meant."""

from __future__ import annotations

from typing import Any

from league.models import League, Team
from league.services.webhooks.discord import DISCORD_LIMITS, discord_text, embed_length

#: Interaction response types (Discord's).
PONG, MESSAGE, DEFERRED, UPDATE, AUTOCOMPLETE = 1, 4, 5, 7, 8
#: Message flag: only the user who asked sees it.
EPHEMERAL = 64
#: The league's embeds without a team colour.
LEAGUE_COLOUR = 0x1565C0
#: Discord's limits on autocomplete choices and buttons.
MAX_CHOICES = 25
MAX_BUTTONS = 25


def text(value: str) -> str:
    """A name a person typed, inert in a message (no markdown, no @everyone)."""
    return discord_text(value)


def plain(value: str) -> str:
    """The same for where Discord shows plain text (an embed's author, a button's label)."""
    return discord_text(value, markdown=False)


def clip(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "\u2026"


def team_colour(team: Team | None) -> int:
    """The team's primary colour ("#rrggbb") as Discord's integer, else the league's."""
    if team is not None and team.primary_colour:
        return int(team.primary_colour[1:], 16)
    return LEAGUE_COLOUR


def embed(
    league: League,
    title: str,
    *,
    description: str = "",
    url: str | None = None,
    fields: list[tuple[str, str]] | None = None,
    team: Team | None = None,
) -> dict[str, Any]:
    """An embed: `title`, `description` and fields are already inert (built with `text`)."""
    limits = DISCORD_LIMITS
    built: dict[str, Any] = {
        "title": clip(title, limits["title"]),
        "color": team_colour(team),
        "author": {"name": clip(plain(league.name), limits["author"])},
        "fields": [
            {
                "name": clip(name, limits["field_name"]),
                "value": clip(value or "\u2014", limits["field_value"]),
                "inline": False,
            }
            for name, value in (fields or [])[: limits["fields"]]
        ],
    }
    if url:
        built["url"] = url
    if description:
        built["description"] = clip(description, limits["description"])
    while embed_length(built) > limits["total"] and built["fields"]:
        built["fields"].pop()
    return built


def message(
    *,
    content: str = "",
    embeds: list[dict[str, Any]] | None = None,
    components: list[dict[str, Any]] | None = None,
    ephemeral: bool = False,
    mention_users: list[str] | None = None,
) -> dict[str, Any]:
    """A message's data: mentions parsed from nothing; only the linked users named in
    `mention_users` may be pinged."""
    data: dict[str, Any] = {
        "content": content,
        "embeds": embeds or [],
        "allowed_mentions": {"parse": [], "users": list(mention_users or [])},
    }
    if components is not None:
        data["components"] = components
    if ephemeral:
        data["flags"] = EPHEMERAL
    return data


def reply(data: dict[str, Any]) -> dict[str, Any]:
    """The interaction's answer carrying the message."""
    return {"type": MESSAGE, "data": data}


def notice(content: str) -> dict[str, Any]:
    """A short answer only the asker sees (`content` already inert)."""
    return reply(message(content=content, ephemeral=True))


def buttons(rows: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Action rows of buttons, five a row: (custom_id, label)."""
    found = [
        {"type": 2, "style": 1, "custom_id": custom_id, "label": clip(plain(label), 80)}
        for custom_id, label in rows[:MAX_BUTTONS]
    ]
    return [{"type": 1, "components": found[i : i + 5]} for i in range(0, len(found), 5)]
