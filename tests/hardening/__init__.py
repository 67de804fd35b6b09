"""Hardening: the permission matrix, escaping of hostile text, form fuzzing.

Helpers the three modules share live here; their worlds are database snapshots
(`tests.snapshots`), seeded once per module and restored for every case.
"""

from __future__ import annotations

from flask import g
from flask.testing import FlaskClient

from league.extensions import db
from league.models import User
from tests.snapshots import Snapshot, snapshot

__all__ = ["Snapshot", "log_in", "log_out", "session_user", "snapshot"]


def log_in(client: FlaskClient, user_id: int) -> None:
    """Flask-Login's session keys, set directly (no password round trip per case)."""
    secret = db.session.get(User, user_id).session_secret  # what the cookie carries
    with client.session_transaction() as session:
        session["_user_id"] = secret
        session["_fresh"] = True
    # The tests' app context outlives each request, and Flask-Login caches the user in `g`.
    g.pop("_login_user", None)


def log_out(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session.clear()
    g.pop("_login_user", None)


def session_user(client: FlaskClient) -> str | None:
    with client.session_transaction() as session:
        return session.get("_user_id")
