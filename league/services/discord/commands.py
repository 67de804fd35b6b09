"""The slash commands the league's application registers, as Discord's API takes them."""

from __future__ import annotations

from typing import Any

from league.i18n import N_, gettext, in_language

#: Discord's option types.
SUB_COMMAND, STRING = 1, 3
#: Discord's locale for each of the site's languages (English is the default text).
DISCORD_LOCALES = {"fr": "fr", "de": "de", "es": "es-ES", "it": "it"}

_DESCRIPTIONS = {
    "standings": N_("The top of the league table"),
    "fixtures": N_("The next round, or a team's next match"),
    "team": N_("A team's roster: TV, CTV, treasury, who may advance"),
    "player": N_("A player's characteristics, skills, SPP and what they can buy"),
    "result": N_("A match's result and the SPP it gave"),
    "rules": N_("The league's rules"),
    "link": N_("Tie your Discord user to your account on the site"),
    "my": N_("Your teams and their next matches"),
    "team_option": N_("Team"),
    "player_option": N_("Player"),
    "match_option": N_("Match"),
    "skill": N_("A skill's summary"),
    "skill_option": N_("Skill"),
    "offer": N_("Offer up to three times to play a fixture"),
    "time_option": N_("A time, UTC: 2026-12-10 20:00"),
}


def _described(key: str) -> dict[str, Any]:
    """Discord's description and its translations."""
    english = _DESCRIPTIONS[key]
    localized = {}
    for language, locale in DISCORD_LOCALES.items():
        with in_language(language):
            localized[locale] = gettext(english)
    return {"description": english, "description_localizations": localized}


def _option(name: str, key: str, *, required: bool, autocomplete: bool = True) -> dict[str, Any]:
    return {
        "type": STRING,
        "name": name,
        **_described(key),
        "required": required,
        "autocomplete": autocomplete,
    }


def command_definitions() -> list[dict[str, Any]]:
    """Every command, for Discord's bulk overwrite of the guild's commands."""
    return [
        {"name": "standings", **_described("standings")},
        {
            "name": "fixtures",
            **_described("fixtures"),
            "options": [_option("team", "team_option", required=False)],
        },
        {
            "name": "team",
            **_described("team"),
            "options": [_option("name", "team_option", required=True)],
        },
        {
            "name": "player",
            **_described("player"),
            "options": [_option("name", "player_option", required=True)],
        },
        {
            "name": "result",
            **_described("result"),
            "options": [_option("match", "match_option", required=True)],
        },
        {
            "name": "rules",
            **_described("rules"),
            "options": [
                {
                    "type": SUB_COMMAND,
                    "name": "skill",
                    **_described("skill"),
                    "options": [_option("name", "skill_option", required=True)],
                }
            ],
        },
        {
            "name": "offer",
            **_described("offer"),
            "options": [
                _option("match", "match_option", required=True),
                _option("time1", "time_option", required=True, autocomplete=False),
                _option("time2", "time_option", required=False, autocomplete=False),
                _option("time3", "time_option", required=False, autocomplete=False),
            ],
        },
        {"name": "link", **_described("link")},
        {"name": "my", **_described("my")},
    ]
