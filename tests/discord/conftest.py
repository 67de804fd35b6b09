"""A seeded league connected to a Discord application whose key pair the tests hold, and a
client that signs interactions as Discord does (Ed25519 over timestamp + body)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from league.extensions import db
from league.models import League, Match, Team, User
from league.services import matches
from league.services.discord.connections import DiscordSettings, connect
from league.services.fixtures import generate_fixtures
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Receiver, receiver

APPLICATION_ID = "112233445566778899"
GUILD_ID = "998877665544332211"
CHANNEL_ID = "123456789012345678"
BOT_TOKEN = "MTEy.bot-token-for-tests.abcdefghijklmnop"
#: Anna's Discord user (she coaches the Reavers).
ANNA_DISCORD = "400000000000000001"
#: A Discord user linked to nobody.
STRANGER_DISCORD = "400000000000000009"

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))


@dataclass
class Seeded:
    league: League
    commissioner: User
    anna: User
    bram: User
    humans: Team
    orcs: Team
    #: Round 1's result (Reavers 2-1 Gouged Eye) and round 2's fixture, still to play.
    played: Match
    fixture: Match


def _player(team: Team, number: int) -> int:
    return next(p.id for p in db.session.get(Team, team.id).players if p.number == number)


@pytest.fixture
def seeded(app: Flask) -> Seeded:
    boss, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
    with unit_of_work() as session:
        first, second = generate_fixtures(
            session, boss, league.id, double=True, start_date=date(2026, 12, 5), shuffle=False
        )
    home_first = first.home.team_id == humans.id
    reavers, eye = SideReport(score=2, mistake_d6=6), SideReport(score=1, mistake_d6=6)
    report = MatchReport(
        home=reavers if home_first else eye,
        away=eye if home_first else reavers,
        # Reavers #1 scores both touchdowns (BB2025: 3 SPP each, 6 SPP); Gouged Eye #1
        # scores one (2 SPP: the Orcs are Brawlin' Brutes).
        players=(PlayerEvents(_player(humans, 1), td=2), PlayerEvents(_player(orcs, 1), td=1)),
    )
    with unit_of_work() as session:
        played = matches.record_result(session, boss, first.id, report)
        fixture = second
    return Seeded(
        db.session.get(League, league.id),  # type: ignore[arg-type]
        boss,
        anna,
        bram,
        humans,
        orcs,
        db.session.get(Match, played.id),  # type: ignore[arg-type]
        db.session.get(Match, fixture.id),  # type: ignore[arg-type]
    )


@pytest.fixture
def key() -> Ed25519PrivateKey:
    """The application's key pair, made for the test (Discord keeps the private half)."""
    return Ed25519PrivateKey.generate()


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes_raw().hex()


@pytest.fixture
def connected(seeded: Seeded, key: Ed25519PrivateKey) -> Seeded:
    with unit_of_work() as session:
        connect(
            session,
            seeded.commissioner,
            seeded.league.id,
            DiscordSettings(APPLICATION_ID, public_hex(key), GUILD_ID, CHANNEL_ID, BOT_TOKEN),
        )
    return seeded


@pytest.fixture
def discord_api(app: Flask) -> Iterator[Receiver]:
    """A local stand-in for Discord's HTTP API that records each call (no test reaches the
    internet)."""
    with receiver() as found:
        app.config["DISCORD_API_URL"] = found.url.removesuffix("/hook") + "/api/v10"
        yield found


_ids = itertools.count(1)


def interaction(
    kind: int, data: dict[str, Any] | None = None, *, user: str = ANNA_DISCORD
) -> dict[str, Any]:
    """An interaction as Discord sends it from a server (a fresh id and token each)."""
    number = next(_ids)
    payload: dict[str, Any] = {
        "id": str(700000000000000000 + number),
        "application_id": APPLICATION_ID,
        "type": kind,
        "token": f"interaction-token-{number}",
        "version": 1,
        "guild_id": GUILD_ID,
        "channel_id": CHANNEL_ID,
        "member": {"user": {"id": user, "username": f"user{user[-2:]}", "global_name": None}},
    }
    if data is not None:
        payload["data"] = data
    return payload


def command(command_name: str, /, **options: str) -> dict[str, Any]:
    return interaction(
        2,
        {
            "id": "1",
            "name": command_name,
            "type": 1,
            "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()],
        },
    )


def post_signed(
    client: FlaskClient,
    key: Ed25519PrivateKey,
    payload: dict[str, Any] | bytes,
    *,
    timestamp: str | None = None,
    signature: str | None = None,
) -> TestResponse:
    """POST the interaction signed with `key` as Discord signs: timestamp + raw body."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    stamp = str(int(time.time())) if timestamp is None else timestamp
    signed = key.sign(stamp.encode() + body).hex() if signature is None else signature
    return client.post(
        "/discord/interactions",
        data=body,
        headers={
            "Content-Type": "application/json",
            "X-Signature-Ed25519": signed,
            "X-Signature-Timestamp": stamp,
        },
    )


def embed_of(response: TestResponse) -> dict[str, Any]:
    body = response.get_json()
    assert body["type"] == 4, body
    return body["data"]["embeds"][0]  # type: ignore[no-any-return]


def fields_of(embed: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed["fields"]}
