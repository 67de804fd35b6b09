"""Log-in and registration limits (issue 14, point 7; issue 33, point 6).

Failed log-ins lock one username out for one address (a guesser there), count
more loosely per address (trying many accounts), and slow every attempt at the
username down once it has had many failures from anywhere (guessing from many
addresses) without ever locking its owner out; sign-ups count per address; an
unknown username costs a password check like a known one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug import security

from league.extensions import db
from league.security import (
    LOGIN_LIMIT_PER_ADDRESS,
    LOGIN_LIMIT_PER_PAIR,
    LOGIN_SLOWDOWN_FREE_FAILURES,
    REGISTER_LIMIT,
)
from league.services import users
from tests.conftest import make_app
from tests.factories import DEFAULT_PASSWORD, make_user

PER_PAIR = int(LOGIN_LIMIT_PER_PAIR.split()[0])  # 10 per minute
PER_ADDRESS = int(LOGIN_LIMIT_PER_ADDRESS.split()[0])  # 30 per minute
REGISTRATIONS = int(REGISTER_LIMIT.split()[0])  # 10 per hour


def log_in(client: FlaskClient, username: str, password: str, address: str):
    return client.post(
        "/login",
        data={"username": username, "password": password},
        environ_base={"REMOTE_ADDR": address},
    )


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Moves `time.time` on, which the limit store and the slowdown read: waits cost nothing."""
    real_time = time.time
    offset = [0.0]
    monkeypatch.setattr(time, "time", lambda: real_time() + offset[0])

    def advance(seconds: float) -> None:
        offset[0] += seconds

    return advance


def test_a_guessers_failures_lock_his_address_out_not_the_owner(client: FlaskClient) -> None:
    """Ten wrong passwords used to lock the account from everywhere for a minute."""
    make_user("grim")
    for attempt in range(PER_PAIR):
        assert log_in(client, "grim", f"guess {attempt}", "10.6.6.6").status_code == 200
    # The guesser's address is locked out of grim, even with the right password; case and
    # spaces do not make a new username.
    locked = log_in(client, " GRIM ", DEFAULT_PASSWORD, "10.6.6.6")
    assert locked.status_code == 429
    assert "Too many failed log-ins from your address" in locked.text
    assert int(locked.headers["Retry-After"]) <= 60
    # The owner, at home, gets in at once.
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 302


def test_guessing_from_many_addresses_is_slowed_down_more_and_more_never_locked(
    client: FlaskClient, clock: Callable[[float], None]
) -> None:
    make_user("grim")
    # One new address per guess: no address reaches its own lock.
    addresses = (f"10.1.{n // 250}.{n % 250}" for n in range(1000))
    for attempt in range(LOGIN_SLOWDOWN_FREE_FAILURES):
        assert log_in(client, "grim", f"guess {attempt}", next(addresses)).status_code == 200
    # From the tenth failure each attempt holds the account for the next: 1 s (2**0),
    # then 2, 4, 8, 16 s, and 30 s at most however many more (league.security).
    waits = []
    for attempt in range(7):
        assert log_in(client, "grim", f"more {attempt}", next(addresses)).status_code == 200
        paused = log_in(client, "grim", f"paused {attempt}", next(addresses))
        assert paused.status_code == 429
        wait = int(paused.headers["Retry-After"])
        assert f"try again in {wait} second" in paused.text
        waits.append(wait)
        clock(wait)
    assert waits == [1, 2, 4, 8, 16, 30, 30]

    # The owner, elsewhere, is paused too, and no password is checked in a pause...
    assert log_in(client, "grim", "more 7", next(addresses)).status_code == 200
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 429
    # ... but once it is over he gets in: a slowdown, not a lock.
    clock(30)
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 302


def test_the_failures_behind_the_slowdown_are_forgotten_after_an_hour(
    client: FlaskClient, clock: Callable[[float], None]
) -> None:
    make_user("grim")
    for attempt in range(LOGIN_SLOWDOWN_FREE_FAILURES + 1):
        assert log_in(client, "grim", f"guess {attempt}", f"10.1.0.{attempt}").status_code == 200
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 429
    clock(3600)
    assert log_in(client, "grim", "guess", "10.1.1.1").status_code == 200
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 302


def test_a_browser_that_logged_in_before_is_never_paused(app: Flask, client: FlaskClient) -> None:
    """A guesser who takes every turn the moment it comes still cannot keep the owner out."""
    make_user("grim")
    make_user("zug")
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 302
    client.post("/logout")
    zugs_browser = app.test_client()
    assert log_in(zugs_browser, "zug", DEFAULT_PASSWORD, "10.0.0.9").status_code == 302
    zugs_browser.post("/logout")
    attacker = app.test_client()
    for attempt in range(LOGIN_SLOWDOWN_FREE_FAILURES + 1):
        assert log_in(attacker, "grim", f"guess {attempt}", f"10.1.0.{attempt}").status_code == 200

    assert log_in(app.test_client(), "grim", DEFAULT_PASSWORD, "10.0.0.2").status_code == 429
    assert log_in(zugs_browser, "grim", DEFAULT_PASSWORD, "10.0.0.9").status_code == 429
    # The cookie is signed: changed, it counts for nothing.
    known = client.get_cookie("known_browser")
    assert known is not None
    assert known.http_only
    assert known.same_site == "Lax"
    forged = app.test_client()
    forged.set_cookie(
        "known_browser", known.value[:-2] + ("AA" if known.value[-2:] != "AA" else "BB")
    )
    assert log_in(forged, "grim", DEFAULT_PASSWORD, "10.0.0.2").status_code == 429
    # grim's own browser gets in at once, from anywhere.
    assert log_in(client, " Grim", DEFAULT_PASSWORD, "10.0.0.3").status_code == 302


def test_someone_elses_failures_at_a_shared_address_do_not_lock_a_coach_out(
    client: FlaskClient,
) -> None:
    make_user("grim")
    make_user("zug")
    for attempt in range(PER_PAIR):
        assert log_in(client, "grim", f"guess {attempt}", "10.0.0.1").status_code == 200
    assert log_in(client, "zug", DEFAULT_PASSWORD, "10.0.0.1").status_code == 302


def test_trying_many_accounts_from_one_address_is_throttled(client: FlaskClient) -> None:
    make_user("grim")
    for attempt in range(PER_ADDRESS):
        assert log_in(client, f"coach{attempt}", "guess", "10.0.0.1").status_code == 200
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 429
    assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.2").status_code == 302


def test_registration_is_throttled_per_address(client: FlaskClient) -> None:
    def register(name: str, address: str):
        password = "mighty zug smashes"
        return client.post(
            "/register",
            data={"username": name, "password": password, "confirm": password},
            environ_base={"REMOTE_ADDR": address},
        )

    for attempt in range(REGISTRATIONS):
        assert register(f"coach{attempt}", "10.0.0.1").status_code == 302
        client.post("/logout", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    refused = register("one_more", "10.0.0.1")
    assert refused.status_code == 429
    assert users.find_user(db.session, "one_more") is None
    assert register("one_more", "10.0.0.2").status_code == 302


def test_an_unknown_username_costs_a_password_check(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time taken must not tell whether an account exists: both hash once."""
    make_user("grim")
    # The dummy hash is made once per process: a test that swapped in fast hashes may
    # have made it, so make it again with the real method.
    users._dummy_password_hash.cache_clear()
    checks: list[str] = []

    def counted(pwhash: str, password: str) -> bool:
        checks.append(pwhash.split("$", 1)[0])
        return security.check_password_hash(pwhash, password)

    monkeypatch.setattr(users, "check_password_hash", counted)
    assert users.authenticate(db.session, "grim", "wrong password") is None
    assert users.authenticate(db.session, "nobody", "wrong password") is None
    assert len(checks) == 2
    assert checks[0].split(":")[0] == checks[1].split(":")[0] == "scrypt"


PRODUCTION = {"LEAGUE_ENV": "production", "PUBLIC_URL": "https://league.example.org"}


def test_production_refuses_per_process_limit_counts(database_url: str) -> None:
    with pytest.raises(RuntimeError, match="RATELIMIT_STORAGE_URI is memory://"):
        make_app(database_url, **PRODUCTION, RATELIMIT_STORAGE_URI="memory://")
    # Chosen on purpose for a single process; or a store every process shares.
    make_app(database_url, **PRODUCTION, RATELIMIT_SINGLE_PROCESS=True)
    make_app(database_url, **PRODUCTION, RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379")


def test_log_in_still_answers_and_throttles_when_the_limit_store_is_down(
    app: Flask, database_url: str
) -> None:
    """Nothing listens on port 1: the counts fall back to the process, never a 500.

    A second app on the same database (the `app` fixture makes the schema and cleans up).
    """
    store_down = make_app(database_url, RATELIMIT_STORAGE_URI="redis://127.0.0.1:1")
    with store_down.app_context():
        db.create_all()  # the tables are there already: the test database's engine is shared
        make_user("grim")
        client = store_down.test_client()
        for attempt in range(PER_PAIR):
            assert log_in(client, "grim", f"guess {attempt}", "10.0.0.1").status_code == 200
        assert log_in(client, "grim", DEFAULT_PASSWORD, "10.0.0.1").status_code == 429
        db.session.remove()
        db.engine.dispose()
