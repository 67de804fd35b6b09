"""Webhook messages for Discord: one embed per event, within Discord's documented limits,
with every text a person wrote made inert (`discord_text`)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from league.i18n import N_, format_date, format_datetime, gettext, ngettext
from league.rules import stat_label
from league.services.labels import season_name
from league.services.webhooks.payloads import TEST_EVENT

#: Discord's documented limits for embeds (characters, counts).
DISCORD_LIMITS = {
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field_name": 256,
    "field_value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,
    "embeds": 10,
}
#: Embed colours per event (Discord takes an integer RGB).
COLOURS = {
    "match.finalised": 0x2E7D32,
    "match.corrected": 0xF9A825,
    "match.voided": 0x757575,
    "fixtures.generated": 0x1565C0,
    "advancement.bought": 0x6A1B9A,
    "player.died": 0x212121,
    "team.created": 0x00838F,
    "team.redrafted": 0x00838F,
    "season.closed": 0xC62828,
    "fixture.reminder": 0xEF6C00,
    TEST_EVENT: 0x546E7A,
}
#: The Discord embeds' texts: marked here, translated where a message is built.
EVENT_TITLES = {
    "match.finalised": N_("Result"),
    "match.corrected": N_("Result corrected"),
    "match.voided": N_("Result voided"),
    "fixtures.generated": N_("Fixtures generated"),
    "advancement.bought": N_("Advancement"),
    "player.died": N_("A player died"),
    "team.created": N_("New team"),
    "team.redrafted": N_("Team re-drafted"),
    "season.closed": N_("Season closed"),
    "fixture.reminder": N_("Reminder"),
    TEST_EVENT: N_("Test message"),
}
#: A reminder's title by what waits (fixture.reminder's `kind`).
REMINDER_TITLES = {
    "time": N_("No time agreed yet for %(home)s v %(away)s"),
    "pregame": N_("Pre-game to fill for %(home)s v %(away)s"),
    "report": N_("Result to report for %(home)s v %(away)s"),
}
INJURY_NAMES = {
    "badly_hurt": N_("Badly Hurt"),
    "seriously_hurt": N_("Seriously Hurt"),
    "serious_injury": N_("Serious Injury"),
    "lasting_injury": N_("Lasting Injury"),
    "dead": N_("Dead"),
}


#: Every character Discord's markdown reads as syntax: emphasis (* _), strike-through (~),
#: spoilers (|), code (`), masked links ([text](url)), bare links (https:), <...> (mentions,
#: emoji, <url>), headings (#), quotes (>), lists (- * 1.), subtext (-#), and the escape
#: itself. A backslash before one shows it as it is.
_MARKDOWN = re.compile(r"[\\*_~|`\[\]()<>#:.\-]")
#: The keys of a payload's `data` whose text a person wrote (names; a coach's username).
USER_TEXT_KEYS = frozenset({"name", "player", "team", "coach", "season"})


def discord_text(text: str, *, markdown: bool = True) -> str:
    """A text a person wrote, made inert for Discord, as HTML escaping does for a page:
    its markdown shows as typed (no link, no formatting) and no `@everyone` / `@here`
    mention can be read in it (a zero-width space after each @). `markdown=False` is
    for the places Discord shows as plain text (an embed's author), where a backslash
    would show."""
    if markdown:
        text = _MARKDOWN.sub(lambda found: "\\" + found.group(), text)
    return text.replace("@", "@\u200b")


def _escaped(data: Any, key: str = "") -> Any:
    """The payload with every text a person wrote escaped for Discord; codes, numbers,
    dates and our own URLs unchanged."""
    if isinstance(data, dict):
        return {name: _escaped(value, name) for name, value in data.items()}
    if isinstance(data, list):
        return [_escaped(item, key) for item in data]
    if isinstance(data, str) and key in USER_TEXT_KEYS:
        return discord_text(data)
    return data


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _lines(lines: list[str], empty: str = "\u2014") -> str:
    return "\n".join(lines) or empty


def _signed(number: int | None) -> str:
    return "" if number is None else f" ({number:+d})"


def _injury(code: str) -> str:
    return gettext(INJURY_NAMES[code]) if code in INJURY_NAMES else code


def _row(row: dict[str, Any]) -> dict[str, Any]:
    """A table row's values for its line's placeholders."""
    return {"position": row["position"], "team": row["team"], "points": row["points"]}


def _match_embed(data: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    match = data["match"]
    home, away = match["home"], match["away"]
    title = f"{home['name']} {home['score']} \u2013 {away['score']} {away['name']}"
    where = (
        gettext("Friendly")
        if match["friendly"]
        else (gettext("Round %(number)s", number=match["round"]) if match["round"] else "")
    )
    fields = []
    for side in (home, away):
        scorers = [
            f"{s['player']}" + (f" \u00d7{s['td']}" if s["td"] > 1 else "") for s in side["scorers"]
        ]
        fields.append((gettext("%(team)s scorers", team=side["name"]), _lines(scorers)))
    casualties = [f"{c['player']} ({_injury(c['injury'])})" for c in data["casualties"]]
    fields.append((gettext("Casualties"), _lines(casualties)))
    if data["standings"]:
        table = [
            gettext("%(position)s. %(team)s \u2013 %(points)s pts", **_row(r))
            + _signed(r["points_change"])
            for r in data["standings"]
        ]
        fields.append((gettext("Standings"), _lines(table)))
    return title, where, match["url"], fields


def _reminder_embed(data: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    match = data["match"]
    names = {"home": match["home"]["name"], "away": match["away"]["name"]}
    if match["kickoff"]:
        when = gettext(
            "Kick-off %(moment)s (UTC)",
            moment=format_datetime(match["kickoff"]),
        )
    elif match["date"]:
        when = gettext(
            "To be played by %(date)s", date=format_date(date.fromisoformat(match["date"]))
        )
    else:
        when = ""
    title = REMINDER_TITLES[data["kind"]]  # marked with N_ where the titles are listed
    return gettext(title, **names), when, match["url"], []


def _fixtures_embed(data: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    lines = [
        gettext(
            "Round %(number)s: %(home)s v %(away)s (%(date)s)",
            number=f["round"],
            home=f["home"]["name"],
            away=f["away"]["name"],
            date=format_date(date.fromisoformat(f["date"])),
        )
        if f["date"]
        else gettext(
            "Round %(number)s: %(home)s v %(away)s",
            number=f["round"],
            home=f["home"]["name"],
            away=f["away"]["name"],
        )
        for f in data["fixtures"]
    ]
    title = ngettext(
        "%(season)s: %(num)d fixture",
        "%(season)s: %(num)d fixtures",
        len(lines),
        season=season_name(data["season"] or ""),
    )
    return title, "\n".join(lines), data["url"], []


def _embed_parts(envelope: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    """(title, description, url, fields) of the event's embed."""
    event, data = envelope["event"], envelope["data"]
    if event.startswith("match."):
        return _match_embed(data)
    if event == TEST_EVENT:
        return (
            gettext("Test message"),
            gettext(
                "This webhook works: events of %(league)s will be posted here.",
                league=discord_text(envelope["league"]["name"]),
            ),
            data["url"],
            [],
        )
    if event == "fixture.reminder":
        return _reminder_embed(data)
    if event == "player.died":
        match = data["match"]
        return (
            gettext(
                "%(player)s (%(team)s) died",
                player=data["player"]["name"],
                team=data["team"]["name"],
            ),
            gettext("%(home)s v %(away)s", home=match["home"]["name"], away=match["away"]["name"]),
            match["url"],
            [],
        )
    if event == "fixtures.generated":
        return _fixtures_embed(data)
    if event == "advancement.bought":
        gained = data["skill"] or (
            gettext("+1 %(characteristic)s", characteristic=stat_label(data["characteristic"]))
            if data["characteristic"]
            else data["kind"]
        )
        return (
            gettext("%(player)s gains %(gained)s", player=data["player"]["name"], gained=gained),
            gettext("%(team)s \u00b7 %(spp)s SPP", team=data["team"]["name"], spp=data["spp"]),
            data["player"]["url"],
            [],
        )
    if event in ("team.created", "team.redrafted"):
        team = data["team"]
        if team["coach"] is None:
            description = gettext("%(team_type)s \u00b7 no coach", team_type=team["team_type"])
        else:
            description = gettext(
                "%(team_type)s \u00b7 coach %(coach)s",
                team_type=team["team_type"],
                coach=team["coach"],
            )
        return team["name"], description, team["url"], []
    # season.closed
    table = [
        gettext("%(position)s. %(team)s \u2013 %(points)s pts", **_row(r)) for r in data["table"]
    ]
    return (
        gettext("%(season)s is over", season=season_name(data["name"])),
        gettext("Final table:") + "\n" + _lines(table),
        data["url"],
        [],
    )


def _featured_team(envelope: dict[str, Any]) -> dict[str, Any] | None:
    """The team an event is about, whose colour and logo the embed wears: a match's
    winner (the home team on a draw), the team of a player, a new or re-drafted team;
    None for events about the whole league."""
    event, data = envelope["event"], envelope["data"]
    if event.startswith("match."):
        home: dict[str, Any] = data["match"]["home"]
        away: dict[str, Any] = data["match"]["away"]
        return away if away["score"] > home["score"] else home
    team = data.get("team")
    return team if isinstance(team, dict) else None


def _team_colour(team: dict[str, Any] | None, default: int) -> int:
    """The team's main colour as Discord's embed colour (0xRRGGBB), else `default`."""
    colours = (team or {}).get("colours")
    return int(colours[0][1:], 16) if colours else default


def discord_message(envelope: dict[str, Any]) -> dict[str, Any]:
    """The event as a Discord webhook message: one embed, within Discord's limits."""
    envelope = {**envelope, "data": _escaped(envelope["data"])}
    title, description, url, fields = _embed_parts(envelope)
    limits = DISCORD_LIMITS
    team = _featured_team(envelope)
    embed: dict[str, Any] = {
        "title": _clip(title, limits["title"]),
        "url": url,
        "color": _team_colour(team, COLOURS[envelope["event"]]),
        "author": {
            "name": _clip(
                discord_text(envelope["league"]["name"], markdown=False), limits["author"]
            )
        },
        "footer": {"text": gettext(EVENT_TITLES[envelope["event"]])},
        "timestamp": envelope["occurred_at"],
        "fields": [
            {
                "name": _clip(name, limits["field_name"]),
                "value": _clip(value, limits["field_value"]),
                "inline": False,
            }
            for name, value in fields[: limits["fields"]]
        ],
    }
    if team and team.get("logo_url"):
        embed["thumbnail"] = {"url": team["logo_url"]}
    if description:
        embed["description"] = _clip(description, limits["description"])
    # The whole embed's text stays under the total: the description gives way first.
    over = embed_length(embed) - limits["total"]
    if over > 0 and "description" in embed:
        keep = max(1, len(embed["description"]) - over)
        embed["description"] = _clip(embed["description"], keep)
    while embed_length(embed) > limits["total"] and embed["fields"]:
        embed["fields"].pop()
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}


def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6000."""
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
        + len(embed.get("footer", {}).get("text", ""))
        + len(embed.get("author", {}).get("name", ""))
    )


def discord_problems(message: dict[str, Any]) -> list[str]:
    """Where a message breaks Discord's documented embed limits (empty: it does not)."""
    limits, problems = DISCORD_LIMITS, []
    embeds = message.get("embeds", [])
    if len(embeds) > limits["embeds"]:
        problems.append("too many embeds")
    for embed in embeds:
        checks = [
            ("title", len(embed.get("title", ""))),
            ("description", len(embed.get("description", ""))),
            ("fields", len(embed.get("fields", []))),
            ("footer", len(embed.get("footer", {}).get("text", ""))),
            ("author", len(embed.get("author", {}).get("name", ""))),
            ("total", embed_length(embed)),
        ]
        problems += [f"{name} over {limits[name]}" for name, size in checks if size > limits[name]]
        for field in embed.get("fields", []):
            if not 0 < len(field["name"]) <= limits["field_name"]:
                problems.append("a field name is empty or too long")
            if not 0 < len(field["value"]) <= limits["field_value"]:
                problems.append("a field value is empty or too long")
    return problems
