"""POST /discord/interactions believes only what Discord signed: Ed25519 over timestamp +
body with the league's public key, a fresh timestamp, never the same request twice."""

from __future__ import annotations

import json
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask.testing import FlaskClient

from tests.discord.conftest import APPLICATION_ID, Seeded, interaction, post_signed


def test_a_signed_ping_gets_a_pong(client: FlaskClient, connected: Seeded, key) -> None:
    response = post_signed(client, key, interaction(1))
    assert response.status_code == 200
    assert response.get_json() == {"type": 1}


def test_a_ping_signed_with_another_key_is_refused(client: FlaskClient, connected: Seeded) -> None:
    response = post_signed(client, Ed25519PrivateKey.generate(), interaction(1))
    assert response.status_code == 401


def test_a_body_changed_after_signing_is_refused(
    client: FlaskClient, connected: Seeded, key
) -> None:
    body = json.dumps(interaction(1)).encode()
    stamp = str(int(time.time()))
    signature = key.sign(stamp.encode() + body).hex()
    tampered = body.replace(b'"type": 1', b'"type": 2')
    response = post_signed(client, key, tampered, timestamp=stamp, signature=signature)
    assert response.status_code == 401


def test_missing_or_malformed_signatures_are_refused(
    client: FlaskClient, connected: Seeded, key
) -> None:
    body = json.dumps(interaction(1)).encode()
    assert (
        client.post("/discord/interactions", data=body, content_type="application/json").status_code
        == 401
    )
    assert post_signed(client, key, interaction(1), signature="zz-not-hex").status_code == 401
    assert post_signed(client, key, b"not json").status_code == 401


def test_an_unknown_application_is_refused(client: FlaskClient, connected: Seeded, key) -> None:
    payload = interaction(1) | {"application_id": "555555555555555555"}
    assert post_signed(client, key, payload).status_code == 401


def test_a_stale_timestamp_is_refused(client: FlaskClient, connected: Seeded, key) -> None:
    # Six minutes old: past the five minutes a request may take to arrive.
    old = str(int(time.time()) - 6 * 60)
    assert post_signed(client, key, interaction(1), timestamp=old).status_code == 401
    future = str(int(time.time()) + 6 * 60)
    assert post_signed(client, key, interaction(1), timestamp=future).status_code == 401
    # Four minutes old is still accepted.
    recent = str(int(time.time()) - 4 * 60)
    assert post_signed(client, key, interaction(1), timestamp=recent).status_code == 200


def test_a_replayed_request_is_refused(client: FlaskClient, connected: Seeded, key) -> None:
    body = json.dumps(interaction(1)).encode()
    stamp = str(int(time.time()))
    signature = key.sign(stamp.encode() + body).hex()
    first = post_signed(client, key, body, timestamp=stamp, signature=signature)
    again = post_signed(client, key, body, timestamp=stamp, signature=signature)
    assert (first.status_code, again.status_code) == (200, 401)


def test_the_endpoint_needs_no_csrf_token(app, connected: Seeded, key) -> None:
    # The site's forms need one; this endpoint is signed instead.
    app.config["WTF_CSRF_ENABLED"] = True
    response = post_signed(app.test_client(), key, interaction(1))
    assert response.status_code == 200
    assert APPLICATION_ID  # the connection the signature was checked against
