"""Discord messages show the names people wrote as typed: Discord's markdown in them
(masked links, bare links, mentions, formatting) is escaped, as a page escapes HTML.

The expected texts are written out by hand: a backslash before each character Discord's
markdown reads as syntax, and a zero-width space (U+200B) after each @.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from league.models import League, Team, User
from league.services import access, leagues, matches, teams, webhooks
from league.services.fixtures import generate_fixtures
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Received, Receiver, receiver

ZWSP = "\u200b"
HUMANS = (("human-blitzer", 2), ("human-lineman", 9))

#: The issue's player: a masked link in a death's title and the casualties.
VICTIM = "[Click me](https://evil.example/phish)"
VICTIM_SHOWN = r"\[Click me\]\(https\://evil\.example/phish\)"
SCORER = "-# small ||spoiler|| `code`"
SCORER_SHOWN = r"\-\# small \|\|spoiler\|\| \`code\`"
HOME = "**Reavers** @everyone"
HOME_SHOWN = r"\*\*Reavers\*\* @" + ZWSP + "everyone"
AWAY = "<@&123456789012345678> ~~Bruisers~~"
AWAY_SHOWN = r"\<@" + ZWSP + r"&123456789012345678\> \~\~Bruisers\~\~"
COACH = "__grim__"  # a username may hold _ (underline in Discord)
COACH_SHOWN = r"\_\_grim\_\_"
LEAGUE = "# Old World @here <https://evil.example>"


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (VICTIM, VICTIM_SHOWN),
        ("https://evil.example/x", r"https\://evil\.example/x"),  # no bare link
        ("<https://evil.example>", r"\<https\://evil\.example\>"),
        ("@here and @everyone", f"@{ZWSP}here and @{ZWSP}everyone"),
        ("<@123456789012345678>", r"\<@" + ZWSP + r"123456789012345678\>"),
        ("> quoted", r"\> quoted"),
        ("1. listed", r"1\. listed"),
        ("*a* _b_ ~~c~~ `d` ||e||", r"\*a\* \_b\_ \~\~c\~\~ \`d\` \|\|e\|\|"),
        (r"back\slash", r"back\\slash"),
        ("Griff Oberwald", "Griff Oberwald"),  # nothing to escape: unchanged
    ],
)
def test_discord_text_shows_what_was_typed(written: str, shown: str) -> None:
    assert webhooks.discord_text(written) == shown


def test_plain_text_places_only_lose_their_mentions() -> None:
    # An embed's author is plain text in Discord: a backslash there would show.
    assert webhooks.discord_text(LEAGUE, markdown=False) == (
        f"# Old World @{ZWSP}here <https://evil.example>"
    )


@pytest.fixture
def listening(app: Flask) -> Iterator[Receiver]:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    with receiver() as found:
        yield found


def _rename(coach: User, team: Team, number: int, name: str) -> int:
    with unit_of_work() as session:
        player = next(p for p in access.get_team(session, team.id).players if p.number == number)
        teams.rename_player(session, coach, player.id, name, number)
        return player.id


def _at(listening: Receiver, shape: str) -> list[Received]:
    return [r for r in listening.received if r.path == f"/hook/{shape}"]


def _texts(message: dict[str, Any]) -> list[str]:
    """Every text of the embed Discord reads as markdown."""
    [embed] = message["embeds"]
    fields = [text for f in embed["fields"] for text in (f["name"], f["value"])]
    return [embed["title"], embed.get("description", ""), *fields]


def test_names_in_discord_messages_carry_no_markdown(listening: Receiver) -> None:
    boss, coach = make_user("boss"), make_user(COACH)
    league = make_league(boss, "bb2025", coach)
    with unit_of_work() as session:
        settings = replace(leagues.current_settings(league), name=LEAGUE)
        leagues.update_settings(session, boss, league.id, settings)
    every = ("team.created", "fixtures.generated", "match.finalised", "player.died")
    for shape in ("json", "discord"):
        with unit_of_work() as session:
            url = f"{listening.url}/{shape}"
            webhooks.create_webhook(session, boss, league.id, WebhookSettings(url, every, shape))
    home = make_active_team(coach, league, "human", HOME, HUMANS)
    away = make_active_team(coach, league, "human", AWAY, HUMANS)
    scorer, victim = _rename(coach, home, 1, SCORER), _rename(coach, away, 3, VICTIM)
    with unit_of_work() as session:
        generate_fixtures(session, boss, league.id, double=False, shuffle=False)
    with unit_of_work() as session:
        fixture = matches.league_matches(session, session.get(League, league.id))[0]
        home_first = fixture.home.team_id == home.id
        report = MatchReport(
            home=SideReport(score=2 if home_first else 1, mistake_d6=6),
            away=SideReport(score=1 if home_first else 2, mistake_d6=6),
            players=(
                PlayerEvents(scorer, td=2),
                PlayerEvents(victim, td=1, injury="dead"),
            ),
        )
        matches.record_result(session, boss, fixture.id, report)

    discord = {r.event + r.json["embeds"][0]["title"]: r.json for r in _at(listening, "discord")}
    assert len(discord) == 5
    for message in discord.values():
        # The league's name is the embed's author, shown by Discord as plain text.
        assert message["embeds"][0]["author"]["name"] == (
            f"# Old World @{ZWSP}here <https://evil.example>"
        )
        assert message["allowed_mentions"] == {"parse": []}
        for text in _texts(message):
            for written in (VICTIM, SCORER, HOME, AWAY, COACH):
                assert written not in text

    created = discord[f"team.created{HOME_SHOWN}"]["embeds"][0]
    assert created["description"] == f"human \u00b7 coach {COACH_SHOWN}"
    assert f"team.created{AWAY_SHOWN}" in discord
    [fixtures] = [m["embeds"][0] for k, m in discord.items() if k.startswith("fixtures")]
    assert fixtures["description"] in (
        f"Round 1: {HOME_SHOWN} v {AWAY_SHOWN}",
        f"Round 1: {AWAY_SHOWN} v {HOME_SHOWN}",
    )
    [result] = [m["embeds"][0] for k, m in discord.items() if k.startswith("match.finalised")]
    first, second = (HOME_SHOWN, AWAY_SHOWN) if home_first else (AWAY_SHOWN, HOME_SHOWN)
    assert result["title"] == f"{first} {2 if home_first else 1} \u2013 " + (
        f"{1 if home_first else 2} {second}"
    )
    fields = {f["name"]: f["value"] for f in result["fields"]}
    assert fields[f"{HOME_SHOWN} scorers"] == f"{SCORER_SHOWN} \u00d72"
    assert fields[f"{AWAY_SHOWN} scorers"] == VICTIM_SHOWN
    assert fields["Casualties"] == f"{VICTIM_SHOWN} (Dead)"
    # A win is 3 points, a loss 0 (the league's defaults).
    assert fields["Standings"] == (
        f"1. {HOME_SHOWN} \u2013 3 pts (+3)\n2. {AWAY_SHOWN} \u2013 0 pts (+0)"
    )
    died = discord[f"player.died{VICTIM_SHOWN} ({AWAY_SHOWN}) died"]["embeds"][0]
    assert died["description"] in (
        f"{HOME_SHOWN} v {AWAY_SHOWN}",
        f"{AWAY_SHOWN} v {HOME_SHOWN}",
    )
    for message in discord.values():
        assert webhooks.discord_problems(message) == []

    # The JSON format carries data, not markdown: the names as written.
    plain = {r.event: r.json["data"] for r in _at(listening, "json")}
    assert plain["player.died"]["player"]["name"] == VICTIM
    assert plain["player.died"]["team"]["name"] == AWAY


def test_season_names_and_tables_are_escaped(app: Flask) -> None:
    # A season name given by hand (an imported league's) and the table's team names.
    envelope = {
        "event": "season.closed",
        "league": {"name": "Old World"},
        "occurred_at": "2026-11-28T12:00:00+00:00",
        "data": {
            "season": 3,
            "name": "Season *Three*",
            "url": "https://league.example.org/leagues/1/standings?season=3",
            "table": [{"position": 1, "team_id": 4, "team": HOME, "played": 2, "points": 6}],
        },
    }
    [embed] = webhooks.discord_message(envelope)["embeds"]
    assert embed["title"] == r"Season \*Three\* is over"
    assert embed["description"] == f"Final table:\n1. {HOME_SHOWN} \u2013 6 pts"
    assert embed["url"] == envelope["data"]["url"]  # our own address, untouched
