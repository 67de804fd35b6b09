"""A commissioner connects the league to a Discord application (the bot token encrypted at
rest, never shown again) and registers the slash commands through Discord's API (a local
stand-in here), from the settings page or `flask discord register-commands`."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from league import create_app
from league.extensions import db
from league.models import DiscordConnection
from league.services.discord.vault import decrypt_token
from tests.discord.conftest import (
    APPLICATION_ID,
    BOT_TOKEN,
    CHANNEL_ID,
    GUILD_ID,
    Seeded,
    public_hex,
)
from tests.factories import DEFAULT_PASSWORD
from tests.receiver import Receiver


def _log_in(client: FlaskClient, username: str) -> None:
    response = client.post("/login", data={"username": username, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302


def _form(key, **changes: str) -> dict[str, str]:
    return {
        "application_id": APPLICATION_ID,
        "public_key": public_hex(key),
        "bot_token": BOT_TOKEN,
        "guild_id": GUILD_ID,
        "channel_id": CHANNEL_ID,
    } | changes


def test_connecting_stores_the_token_encrypted_and_never_shows_it(
    client: FlaskClient, seeded: Seeded, key
) -> None:
    _log_in(client, "commish")
    url = f"/leagues/{seeded.league.id}/discord"
    response = client.post(url, data=_form(key))
    assert response.status_code == 302
    connection = db.session.scalar(select(DiscordConnection))
    assert connection is not None
    assert BOT_TOKEN not in connection.bot_token_encrypted
    assert decrypt_token(connection.bot_token_encrypted) == BOT_TOKEN
    page = client.get(url).get_data(as_text=True)
    assert BOT_TOKEN not in page
    assert "A token is set (it is never shown again)" in page
    assert "http://127.0.0.1:5000/discord/interactions" in page  # PUBLIC_URL
    # Saved again without a token: the stored one stays.
    stored = connection.bot_token_encrypted
    assert client.post(url, data=_form(key, bot_token="", channel_id="11111111")).status_code == 302
    db.session.expire_all()
    connection = db.session.scalar(select(DiscordConnection))
    assert connection is not None
    assert (connection.channel_id, connection.bot_token_encrypted) == ("11111111", stored)


def test_bad_ids_and_keys_are_refused_next_to_their_field(
    client: FlaskClient, seeded: Seeded, key
) -> None:
    _log_in(client, "commish")
    response = client.post(
        f"/leagues/{seeded.league.id}/discord",
        data=_form(key, public_key="abc", guild_id="not-a-number", bot_token=""),
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Paste the public key: 64 hexadecimal digits." in page
    assert "Paste the id Discord shows: a number of 5 to 25 digits." in page
    assert "Paste the bot token." in page
    assert db.session.scalar(select(DiscordConnection)) is None


def test_only_a_commissioner_connects(client: FlaskClient, seeded: Seeded, key) -> None:
    _log_in(client, "anna")
    url = f"/leagues/{seeded.league.id}/discord"
    assert client.get(url).status_code == 403
    assert client.post(url, data=_form(key)).status_code == 403
    assert db.session.scalar(select(DiscordConnection)) is None


def _check_registration(discord_api: Receiver) -> None:
    assert len(discord_api.received) == 1
    call = discord_api.received[0]
    assert call.method == "PUT"
    assert call.path == f"/api/v10/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands"
    assert call.headers["Authorization"] == f"Bot {BOT_TOKEN}"
    commands = call.json
    assert [c["name"] for c in commands] == [
        "standings",
        "fixtures",
        "team",
        "player",
        "result",
        "rules",
        "offer",
        "link",
        "my",
    ]
    team = next(c for c in commands if c["name"] == "team")
    assert team["options"][0] | {"description_localizations": None} == {
        "type": 3,
        "name": "name",
        "description": "Team",
        "description_localizations": None,
        "required": True,
        "autocomplete": True,
    }
    assert team["description_localizations"]["fr"] != team["description"]


def test_the_settings_button_registers_the_commands(
    client: FlaskClient, connected: Seeded, discord_api: Receiver
) -> None:
    _log_in(client, "commish")
    response = client.post(f"/leagues/{connected.league.id}/discord/register")
    assert response.status_code == 302
    _check_registration(discord_api)
    connection = db.session.scalar(select(DiscordConnection))
    assert connection is not None
    assert connection.commands_registered_at is not None


def test_a_refusal_from_discord_is_shown(
    client: FlaskClient, connected: Seeded, discord_api: Receiver
) -> None:
    discord_api.statuses.append(401)
    _log_in(client, "commish")
    response = client.post(
        f"/leagues/{connected.league.id}/discord/register", follow_redirects=True
    )
    assert "Discord refused the commands (401)" in response.get_data(as_text=True)
    connection = db.session.scalar(select(DiscordConnection))
    assert connection is not None
    assert connection.commands_registered_at is None


def test_the_cli_registers_the_commands(
    app: Flask, connected: Seeded, discord_api: Receiver
) -> None:
    result = app.test_cli_runner().invoke(
        args=["discord", "register-commands", "--league", str(connected.league.id)]
    )
    assert result.exit_code == 0, result.output
    assert result.output == f"League {connected.league.id}: commands registered.\n"
    _check_registration(discord_api)
    assert BOT_TOKEN not in result.output


def test_the_cli_says_when_no_league_is_connected(app: Flask, seeded: Seeded) -> None:
    result = app.test_cli_runner().invoke(args=["discord", "register-commands"])
    assert result.exit_code == 1
    assert "No league is connected to Discord." in result.output


def test_production_refuses_to_start_without_a_token_key(monkeypatch, database_url: str) -> None:
    monkeypatch.delenv("DISCORD_TOKEN_KEY", raising=False)
    settings = {
        "SECRET_KEY": "s" * 32,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "LEAGUE_ENV": "production",
        "PUBLIC_URL": "https://league.example.org",
        "RATELIMIT_SINGLE_PROCESS": True,
    }
    with pytest.raises(RuntimeError, match="DISCORD_TOKEN_KEY is not set"):
        create_app(settings)
    with pytest.raises(RuntimeError, match="not a Fernet key"):
        create_app(settings | {"DISCORD_TOKEN_KEY": "short"})
