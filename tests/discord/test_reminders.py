"""Reminders in the league's channel, each posted once: round 2's fixture (Gouged Eye v
Reavers) is dated 12 December 2026 in the seeded league."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

from flask import Flask

from league.extensions import db
from league.services import scheduling
from league.services.discord import linking, reminders
from league.services.discord.connections import DiscordSettings, connect
from league.services.fixtures import generate_fixtures
from league.services.unit_of_work import unit_of_work
from tests.conftest import make_app
from tests.discord.conftest import (
    ANNA_DISCORD,
    APPLICATION_ID,
    BOT_TOKEN,
    CHANNEL_ID,
    GUILD_ID,
    HUMANS,
    ORCS,
    Seeded,
    public_hex,
)
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Receiver, receiver

NOW = datetime(2026, 12, 11, 9, 0, tzinfo=UTC)
CHANNEL_PATH = f"/api/v10/channels/{CHANNEL_ID}/messages"


def _link(seeded: Seeded) -> None:
    with unit_of_work() as session:
        token = linking.new_link_token(session, ANNA_DISCORD, "anna_d", NOW)
    with unit_of_work() as session:
        linking.redeem(session, seeded.anna, token, NOW)


def _send(now: datetime) -> int:
    """What a worker's hourly job does: claim the reminders due, then post them."""
    with unit_of_work() as session:
        due = scheduling.send_due_reminders(session, now)
    return reminders.post_reminders(db.session(), due)


def test_reminders_go_to_the_channel_once(connected: Seeded, discord_api: Receiver) -> None:
    _link(connected)
    # 11 December: the fixture is tomorrow, with no agreed time and no pre-game filled.
    assert _send(NOW) == 2
    assert _send(NOW) == 0  # once each
    assert [r.path for r in discord_api.received] == [CHANNEL_PATH, CHANNEL_PATH]
    first = discord_api.received[0]
    assert first.headers["Authorization"] == f"Bot {BOT_TOKEN}"
    body = first.json
    # Anna linked her Discord user: she is mentioned, and only she may be.
    assert body["content"] == f"<@{ANNA_DISCORD}>"
    assert body["allowed_mentions"] == {"parse": [], "users": [ANNA_DISCORD]}
    assert body["embeds"][0]["description"] == (
        "Gouged Eye v Reavers is due on Dec 12, 2026 with no agreed time: offer times with /offer."
    )
    assert discord_api.received[1].json["embeds"][0]["description"] == (
        "Gouged Eye v Reavers is tomorrow: its pre-game is not filled yet."
    )
    # 13 December, still no result: one more, about the result.
    assert _send(datetime(2026, 12, 13, 9, 0, tzinfo=UTC)) == 1
    assert discord_api.received[2].json["embeds"][0]["description"] == (
        "Gouged Eye v Reavers was due on Dec 12, 2026: its result is not recorded yet."
    )


def test_nothing_is_due_a_week_before(connected: Seeded, discord_api: Receiver) -> None:
    # 5 December: seven days before, past the three days' notice.
    assert _send(datetime(2026, 12, 5, 9, 0, tzinfo=UTC)) == 0
    assert discord_api.received == []


def test_a_reminder_discord_refused_is_not_posted_twice(
    connected: Seeded, discord_api: Receiver
) -> None:
    # 10 December: only the time is due (the pre-game waits for the day before). Discord
    # refuses the post; the reminder was claimed, so the next run does not post it again.
    discord_api.statuses.append(500)
    assert _send(datetime(2026, 12, 10, 9, 0, tzinfo=UTC)) == 0
    assert _send(datetime(2026, 12, 10, 10, 0, tzinfo=UTC)) == 0
    assert len(discord_api.received) == 1
    assert discord_api.received[0].json["allowed_mentions"] == {"parse": [], "users": []}


#: One worker process: its own app on the shared database, sending what is due.
WORKER = """
import sys
from datetime import UTC, date, datetime
from league import create_app
from league.extensions import db
from league.services import scheduling
from league.services.discord import reminders
from league.services.unit_of_work import unit_of_work
url, api = sys.argv[1:3]
app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "workers", "TESTING": True,
                  "LEAGUE_ENV": "testing", "DISCORD_API_URL": api})
with app.app_context():
    with unit_of_work() as session:
        due = scheduling.send_due_reminders(session, datetime(2026, 12, 11, tzinfo=UTC))
    print(reminders.post_reminders(db.session(), due))
"""


def _seed_shared(url: str) -> None:
    app: Flask = make_app(url)
    with app.app_context():
        db.create_all()
        boss, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
        league = make_league(boss, "bb2025", anna, bram)
        make_active_team(anna, league, "human", "Reavers", HUMANS)
        make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
        with unit_of_work() as session:
            generate_fixtures(
                session, boss, league.id, double=False, start_date=date(2026, 12, 12), shuffle=False
            )
            key = public_hex(
                __import__(
                    "cryptography.hazmat.primitives.asymmetric.ed25519", fromlist=["x"]
                ).Ed25519PrivateKey.generate()
            )
            connect(
                session,
                boss,
                league.id,
                DiscordSettings(APPLICATION_ID, key, GUILD_ID, CHANNEL_ID, BOT_TOKEN),
            )
        db.session.remove()
        db.engine.dispose()


def test_two_workers_post_each_reminder_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    _seed_shared(url)
    with receiver() as api:
        base = api.url.removesuffix("/hook") + "/api/v10"
        workers = [
            subprocess.Popen(  # noqa: S603  (our own interpreter and script)
                [sys.executable, "-c", WORKER, url, base],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).resolve().parents[2],
                env=os.environ | {"SECRET_KEY": "workers"},
            )
            for _ in range(2)
        ]
        counts = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            counts.append(int(out.strip().splitlines()[-1]))
    # 11 December, the fixture tomorrow: its time and its pre-game, posted by one worker
    # or the other, never both.
    assert sum(counts) == 2
    assert len(api.received) == 2
    assert sorted(r.json["embeds"][0]["description"].split(":")[0] for r in api.received) == [
        # A single round robin: the Reavers play at home.
        "Reavers v Gouged Eye is due on Dec 12, 2026 with no agreed time",
        "Reavers v Gouged Eye is tomorrow",
    ]
