"""`/result` answers "thinking..." at once (type 5) and a job edits that answer into the
result: PATCH /webhooks/{application}/{token}/messages/@original on Discord's API (a local
stand-in here), on the immediate queue and through a worker's queue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from huey.storage import SqliteStorage

from league import jobs
from league.models import Team
from league.services.unit_of_work import unit_of_work
from tests.discord.conftest import APPLICATION_ID, Seeded, command, post_signed
from tests.receiver import Receiver

CRIMSON_INT = 0x8B0000


def _expected_embed_parts(connected: Seeded) -> tuple[str, dict[str, str]]:
    # Round 1: Reavers 2-1 Gouged Eye. BB2025: a touchdown is 3 SPP, but 2 for a Brawlin'
    # Brutes team such as the Orcs; nobody got a casualty or the MVP.
    return (
        "Reavers 2\u20131 Gouged Eye",
        {"SPP of Reavers": "Player 1: 6 SPP", "SPP of Gouged Eye": "Player 1: 2 SPP"},
    )


def _check_patch(discord_api: Receiver, token: str, connected: Seeded) -> None:
    assert len(discord_api.received) == 1
    sent = discord_api.received[0]
    assert sent.method == "PATCH"
    assert sent.path == f"/api/v10/webhooks/{APPLICATION_ID}/{token}/messages/@original"
    assert "Authorization" not in sent.headers  # the interaction's token is the authority
    body = sent.json
    assert body["allowed_mentions"] == {"parse": [], "users": []}
    embed = body["embeds"][0]
    title, fields = _expected_embed_parts(connected)
    # The match page's order (home first): round 1 was played at the Reavers' or away.
    home_first = connected.played.home.team_id == connected.humans.id
    assert embed["title"] == (title if home_first else "Gouged Eye 1\u20132 Reavers")
    assert {f["name"]: f["value"] for f in embed["fields"]} == fields
    assert embed["color"] == CRIMSON_INT  # the winner's colour
    assert embed["description"] == "Round 1"


@pytest.fixture
def crimson(connected: Seeded) -> Seeded:
    with unit_of_work() as session:
        session.get(Team, connected.humans.id).primary_colour = "#8b0000"  # type: ignore[union-attr]
    return connected


def test_result_is_deferred_and_followed_up_on_the_immediate_queue(
    client: FlaskClient, crimson: Seeded, key, discord_api: Receiver
) -> None:
    payload = command("result", match=str(crimson.played.id))
    response = post_signed(client, key, payload)
    assert response.get_json() == {"type": 5}
    _check_patch(discord_api, payload["token"], crimson)


@pytest.fixture
def queued(app: Flask, tmp_path) -> Iterator[None]:
    """The queue a worker reads (a SQLite file), instead of the tests' immediate one."""
    immediate, storage = jobs.huey.immediate, jobs.huey.storage
    jobs.huey.immediate = False
    jobs.huey.storage = SqliteStorage("league-test", filename=str(tmp_path / "jobs.sqlite3"))
    try:
        yield
    finally:
        jobs.huey.immediate, jobs.huey.storage = immediate, storage


def test_result_is_followed_up_by_a_worker(
    client: FlaskClient, crimson: Seeded, key, discord_api: Receiver, queued: None
) -> None:
    payload = command("result", match=str(crimson.played.id))
    assert post_signed(client, key, payload).get_json() == {"type": 5}
    assert discord_api.received == []  # nothing yet: the job waits for a worker
    # What `flask jobs worker` does with each job: take it off the queue and run it.
    task = jobs.huey.dequeue()
    assert task is not None
    jobs.huey.execute(task)
    _check_patch(discord_api, payload["token"], crimson)
    assert jobs.huey.dequeue() is None


def test_an_unknown_match_is_said_in_the_follow_up(
    client: FlaskClient, connected: Seeded, key, discord_api: Receiver
) -> None:
    payload = command("result", match="Nobody v Nothing")
    assert post_signed(client, key, payload).get_json() == {"type": 5}
    body = discord_api.received[0].json
    assert body["content"] == "No result of the league matches Nobody v Nothing\\."
    assert body["embeds"] == []
