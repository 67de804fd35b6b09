"""Each slash command's answer for the seeded league (tests/discord/conftest.py): Reavers
(Humans, anna) beat Gouged Eye (Orcs, bram) 2-1 in round 1, Reavers #1 scoring twice;
round 2 (Gouged Eye v Reavers, 12 December 2026) is still to play."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.extensions import db
from league.models import Team
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import (
    Seeded,
    command,
    embed_of,
    fields_of,
    interaction,
    post_signed,
)

#: The Reavers' primary colour in these tests, and Discord's integer for it.
CRIMSON, CRIMSON_INT = "#8b0000", 0x8B0000
LEAGUE_BLUE = 0x1565C0


def _colour(team: Team, colour: str) -> None:
    with unit_of_work() as session:
        session.get(Team, team.id).primary_colour = colour  # type: ignore[union-attr]


def test_standings(client: FlaskClient, connected: Seeded, key) -> None:
    response = post_signed(client, key, command("standings"))
    body = response.get_json()
    assert body["data"]["allowed_mentions"] == {"parse": [], "users": []}
    embed = embed_of(response)
    assert embed["title"] == "Standings \u00b7 Season 1"
    # A win is 3 points, a loss 0 (the league's default points).
    assert embed["description"] == (
        "1. Reavers \u2013 3 pts (1/0/0)\n2. Gouged Eye \u2013 0 pts (0/0/1)"
    )
    assert embed["url"] == f"http://127.0.0.1:5000/leagues/{connected.league.id}/standings"
    assert embed["color"] == LEAGUE_BLUE
    assert embed["author"] == {"name": "bb2025 league"}


def test_fixtures_show_the_round_in_play_with_the_pre_games(
    client: FlaskClient, connected: Seeded, key
) -> None:
    embed = embed_of(post_signed(client, key, command("fixtures")))
    # Round 1 is played: round 2 is in play, a week after the first (5 + 7 December).
    assert embed["title"] == "Round 2"
    assert embed["description"] == (
        "Gouged Eye v Reavers (Dec 12, 2026)\n"
        "Pre-game \u2013 Gouged Eye: not filled, Reavers: not filled"
    )


def test_a_teams_next_match_in_its_colours(client: FlaskClient, connected: Seeded, key) -> None:
    _colour(connected.humans, CRIMSON)
    embed = embed_of(post_signed(client, key, command("fixtures", team="reavers")))
    assert embed["title"] == "Next match of Reavers"
    assert embed["description"].startswith("Gouged Eye v Reavers (Dec 12, 2026)")
    assert embed["color"] == CRIMSON_INT


def test_team(client: FlaskClient, connected: Seeded, key) -> None:
    _colour(connected.humans, CRIMSON)
    embed = embed_of(post_signed(client, key, command("team", name=str(connected.humans.id))))
    assert embed["title"] == "Reavers"
    assert embed["description"] == "Human \u00b7 coach anna"
    assert embed["color"] == CRIMSON_INT
    treasury = db.session.get(Team, connected.humans.id).treasury  # type: ignore[union-attr]
    assert fields_of(embed) == {
        # BB2025 Humans: 7 linemen x 50,000 + 2 catchers x 75,000 + 2 throwers x 75,000
        # + 2 blitzers x 85,000 = 820,000; nobody misses the next game, so CTV = TV.
        "TV": "820,000",
        "CTV": "820,000",
        "Treasury": f"{treasury:,}",
        "Players": "13",
        # Only #1 has SPP: 2 touchdowns x 3 SPP = 6, and a random primary skill costs 3.
        "May advance": "#1 Player 1",
    }


def test_player(client: FlaskClient, connected: Seeded, key) -> None:
    scorer = next(p for p in connected.humans.players if p.number == 1)
    embed = embed_of(post_signed(client, key, command("player", name=str(scorer.id))))
    assert embed["title"] == "#1 Player 1"
    assert embed["description"] == "Human Lineman \u00b7 Reavers"
    assert fields_of(embed) == {
        # The BB2025 Human Lineman's profile, unchanged.
        "Characteristics": "MA 6 \u00b7 ST 3 \u00b7 AG 3+ \u00b7 PA 4+ \u00b7 AV 9+",
        "Skills": "\u2014",
        "SPP": "6 to spend, 6 earned",
        # First advancement (BB2025): random primary 3 SPP, chosen primary 6; a chosen
        # secondary (10) is out of reach.
        "Can buy now": "random primary (3 SPP)\nchosen primary (6 SPP)",
    }


def test_a_player_found_by_a_name_that_is_not_unique_is_refused(
    client: FlaskClient, connected: Seeded, key
) -> None:
    # Every drafted player is "Player N": "Player 1" names one on each team.
    body = post_signed(client, key, command("player", name="Player 1")).get_json()
    assert body["data"]["flags"] == 64  # only the asker sees it
    assert body["data"]["content"] == "No player of the league is called Player 1\\."


def test_rules_skill(client: FlaskClient, connected: Seeded, key) -> None:
    payload = interaction(
        2,
        {
            "name": "rules",
            "type": 1,
            "options": [
                {
                    "name": "skill",
                    "type": 1,
                    "options": [{"name": "name", "type": 3, "value": "block"}],
                }
            ],
        },
    )
    embed = embed_of(post_signed(client, key, payload))
    assert embed["title"] == "Block"
    assert embed["description"] == (
        "When both players are knocked down on a block result, this player stays standing."
    )
    assert fields_of(embed) == {"Category": "General"}
    assert embed["url"] == "http://127.0.0.1:5000/rules/bb2025/skills"


def test_a_league_in_french_answers_in_french(client: FlaskClient, connected: Seeded, key) -> None:
    with unit_of_work() as session:
        session.get(type(connected.league), connected.league.id).default_language = "fr"  # type: ignore[union-attr]
    embed = embed_of(post_signed(client, key, command("standings")))
    assert embed["title"] == "Classement \u00b7 Saison 1"
    assert embed["description"].startswith("1. Reavers \u2013 3 pts")


def test_team_and_player_options_autocomplete(client: FlaskClient, connected: Seeded, key) -> None:
    typed = interaction(
        4,
        {
            "name": "team",
            "type": 1,
            "options": [{"name": "name", "type": 3, "value": "ea", "focused": True}],
        },
    )
    body = post_signed(client, key, typed).get_json()
    assert body == {
        "type": 8,
        "data": {"choices": [{"name": "Reavers", "value": str(connected.humans.id)}]},
    }
    typed = interaction(
        4,
        {
            "name": "player",
            "type": 1,
            "options": [{"name": "name", "type": 3, "value": "player 1", "focused": True}],
        },
    )
    choices = post_signed(client, key, typed).get_json()["data"]["choices"]
    # "Player 1" and "Player 10" to "Player 13" of each team contain "player 1"; Gouged
    # Eye has 11 players (1, 10, 11), the Reavers 13 (1, 10, 11, 12, 13).
    assert len(choices) == 8
    assert {
        "name": "Player 1 (#1, Reavers)",
        "value": str(next(p.id for p in connected.humans.players if p.number == 1)),
    } in choices


def test_skill_option_autocompletes(client: FlaskClient, connected: Seeded, key) -> None:
    typed = interaction(
        4,
        {
            "name": "rules",
            "type": 1,
            "options": [
                {
                    "name": "skill",
                    "type": 1,
                    "options": [{"name": "name", "type": 3, "value": "dodg", "focused": True}],
                }
            ],
        },
    )
    choices = post_signed(client, key, typed).get_json()["data"]["choices"]
    assert {"name": "Dodge", "value": "Dodge"} in choices
    assert all("dodg" in c["name"].casefold() for c in choices)
