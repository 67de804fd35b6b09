"""A replayed interaction is refused by another web process too: the signatures seen are
kept in the database the processes share, not in one process's memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from league.extensions import db
from league.services.discord.connections import DiscordSettings, connect
from league.services.unit_of_work import unit_of_work
from tests.conftest import make_app
from tests.discord.conftest import (
    APPLICATION_ID,
    BOT_TOKEN,
    CHANNEL_ID,
    GUILD_ID,
    interaction,
    public_hex,
)
from tests.factories import make_league, make_user

ROOT = Path(__file__).resolve().parents[2]

#: One web process: its own app on the shared database, posting the request it is given.
PROCESS = """
import json, sys
from league import create_app
url, body, signature, stamp = sys.argv[1:5]
app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "processes", "TESTING": True,
                  "LEAGUE_ENV": "testing"})
response = app.test_client().post("/discord/interactions", data=body.encode(), headers={
    "Content-Type": "application/json", "X-Signature-Ed25519": signature,
    "X-Signature-Timestamp": stamp})
print(response.status_code)
"""


def _serve_once(url: str, body: bytes, signature: str, stamp: str) -> int:
    done = subprocess.run(  # noqa: S603  (our own interpreter and script)
        [sys.executable, "-c", PROCESS, url, body.decode(), signature, stamp],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ | {"SECRET_KEY": "processes"},
        timeout=120,
        check=True,
    )
    return int(done.stdout.strip().splitlines()[-1])


def test_a_request_answered_by_one_process_is_refused_by_another(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    key = Ed25519PrivateKey.generate()
    app = make_app(url)
    with app.app_context():
        db.create_all()
        boss = make_user("commish")
        league = make_league(boss)
        with unit_of_work() as session:
            settings = DiscordSettings(
                APPLICATION_ID, public_hex(key), GUILD_ID, CHANNEL_ID, BOT_TOKEN
            )
            connect(session, boss, league.id, settings)
        db.session.remove()
        db.engine.dispose()
    body = json.dumps(interaction(1)).encode()
    stamp = str(int(time.time()))
    signature = key.sign(stamp.encode() + body).hex()
    assert _serve_once(url, body, signature, stamp) == 200
    assert _serve_once(url, body, signature, stamp) == 401
