"""A name a coach typed reaches Discord inert: no @everyone ping, no markdown, no link."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.models import Team
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import Seeded, command, embed_of, post_signed

NASTY = "@everyone **Champs** [win](https://evil.example)"
#: The same, as Discord shows it: each markdown character escaped, a zero-width space
#: after the @ so no mention is read.
INERT = "@\u200beveryone \\*\\*Champs\\*\\* \\[win\\]\\(https\\://evil\\.example\\)"


def _rename(team: Team) -> None:
    with unit_of_work() as session:
        session.get(Team, team.id).name = NASTY  # type: ignore[union-attr]


def test_a_team_name_with_everyone_and_markdown_is_inert(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _rename(connected.humans)
    for payload in (command("standings"), command("team", name=str(connected.humans.id))):
        body = post_signed(client, key, payload).get_json()
        data = body["data"]
        # Nothing in the message may ping anybody, whatever its text says.
        assert data["allowed_mentions"] == {"parse": [], "users": []}
        embed = embed_of_body(body)
        texts = [embed["title"], embed.get("description", "")] + [
            f["value"] for f in embed["fields"]
        ]
        assert NASTY not in "".join(texts)
        assert "@everyone" not in "".join(texts)
        assert any(INERT in text for text in texts)
    standings = embed_of(post_signed(client, key, command("standings")))
    assert standings["description"].startswith(f"1. {INERT} \u2013 3 pts")
    team = embed_of(post_signed(client, key, command("team", name=str(connected.humans.id))))
    assert team["title"] == INERT


def embed_of_body(body: dict) -> dict:
    return body["data"]["embeds"][0]
