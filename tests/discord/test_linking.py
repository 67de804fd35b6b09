"""`/link` hands out a one-time link; the signed-in user who confirms it is tied to the
Discord user. `/my` then lists their teams, and its buttons act as that user with the
site's checks; an unlinked Discord user's button is refused."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import DiscordLink, DiscordLinkToken, PregameSide
from league.services.discord import linking
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import (
    ANNA_DISCORD,
    STRANGER_DISCORD,
    Seeded,
    command,
    interaction,
    post_signed,
)
from tests.factories import DEFAULT_PASSWORD


def _log_in(client: FlaskClient, username: str) -> None:
    response = client.post("/login", data={"username": username, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302


def _link_anna(client: FlaskClient, key) -> str:
    answer = post_signed(client, key, command("link")).get_json()["data"]
    assert answer["flags"] == 64  # only she sees the link
    url = re.search(r"http://127\.0\.0\.1:5000(/discord/link/\S+)", answer["content"])
    assert url is not None
    _log_in(client, "anna")
    page = client.get(url[1])
    assert page.status_code == 200
    assert "Link the Discord user user01 to your account anna?" in page.get_data(as_text=True)
    assert db.session.scalar(select(DiscordLink)) is None  # opening the link ties nothing
    done = client.post(url[1])
    assert done.status_code == 200
    # The link works once.
    assert client.post(url[1]).status_code == 404
    return url[1].rsplit("/", 1)[1]


def test_link_ties_the_discord_user_once(client: FlaskClient, connected: Seeded, key) -> None:
    token = _link_anna(client, key)
    link = db.session.scalar(select(DiscordLink))
    assert link is not None
    assert (link.user_id, link.discord_user_id) == (connected.anna.id, ANNA_DISCORD)
    # Only the token's digest was stored.
    stored = db.session.scalar(select(DiscordLinkToken))
    assert stored is not None
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert stored.used_at is not None


def test_an_expired_link_ties_nothing(app, connected: Seeded) -> None:
    now = datetime.now(UTC)
    with unit_of_work() as session:
        token = linking.new_link_token(session, ANNA_DISCORD, "anna_d", now - timedelta(minutes=16))
    client = app.test_client()
    _log_in(client, "anna")
    assert client.post(f"/discord/link/{token}").status_code == 404
    assert db.session.scalar(select(DiscordLink)) is None


def test_my_lists_the_coachs_teams_with_a_pregame_button(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _link_anna(client, key)
    data = post_signed(client, key, command("my")).get_json()["data"]
    assert data["flags"] == 64
    embed = data["embeds"][0]
    assert embed["title"] == "Your teams"
    fixture = connected.fixture
    assert embed["fields"] == [
        {
            "name": "Reavers",
            "value": "Gouged Eye v Reavers (Dec 12, 2026)\n"
            "Pre-game \u2013 Gouged Eye: not filled, Reavers: not filled\n"
            f"http://127.0.0.1:5000/matches/{fixture.id}",
            "inline": False,
        }
    ]
    assert data["components"] == [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 1,
                    "custom_id": f"pregame:{fixture.id}:away",
                    "label": "Reavers: pre-game, no inducements",
                }
            ],
        }
    ]


def _press(client: FlaskClient, key, custom_id: str, user: str):
    payload = interaction(3, {"custom_id": custom_id, "component_type": 2}, user=user)
    return post_signed(client, key, payload).get_json()


def test_a_linked_coachs_button_saves_the_pregame(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _link_anna(client, key)
    fixture = connected.fixture
    answer = _press(client, key, f"pregame:{fixture.id}:away", ANNA_DISCORD)
    assert answer == {
        "type": 4,
        "data": {
            "content": "Pre-game saved for Reavers: no inducements.",
            "embeds": [],
            "allowed_mentions": {"parse": [], "users": []},
            "flags": 64,
        },
    }
    saved = db.session.scalars(select(PregameSide).where(PregameSide.match_id == fixture.id)).all()
    assert [(s.side, s.updated_by_id, s.total) for s in saved] == [("away", connected.anna.id, 0)]
    # /fixtures now says so.
    embed = post_signed(client, key, command("fixtures")).get_json()["data"]["embeds"][0]
    assert embed["description"].endswith("Gouged Eye: not filled, Reavers: filled")


def test_a_linked_coach_cannot_fill_the_other_teams_pregame(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _link_anna(client, key)
    answer = _press(client, key, f"pregame:{connected.fixture.id}:home", ANNA_DISCORD)
    # The site's own refusal (league.services.access), only for her eyes.
    assert answer["data"]["flags"] == 64
    assert answer["data"]["content"] == (
        # Escaped as Discord reads markdown (it shows "pre-game."): nothing in it formats.
        "Only Gouged Eye's coach or a commissioner chooses its pre\\-game\\."
    )
    assert db.session.scalar(select(PregameSide)) is None


def test_an_unlinked_users_button_is_refused(client: FlaskClient, connected: Seeded, key) -> None:
    answer = _press(client, key, f"pregame:{connected.fixture.id}:away", STRANGER_DISCORD)
    assert answer["data"]["flags"] == 64
    assert answer["data"]["content"] == (
        "Your Discord user is not linked to an account of the site: run /link first."
    )
    assert db.session.scalar(select(PregameSide)) is None


def test_a_coach_unlinks_and_their_buttons_act_as_nobody(
    client: FlaskClient, connected: Seeded, key
) -> None:
    _link_anna(client, key)
    page = client.get("/discord/account").get_data(as_text=True)
    assert "Your account is linked to the Discord user user01" in page
    assert client.post("/discord/unlink").status_code == 302
    assert db.session.scalar(select(DiscordLink)) is None
    answer = _press(client, key, f"pregame:{connected.fixture.id}:away", ANNA_DISCORD)
    assert answer["data"]["content"].startswith("Your Discord user is not linked")
