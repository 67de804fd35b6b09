from collections.abc import Iterator

import pytest
from flask import Flask

from league.models import User
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Receiver, receiver

#: A BB2025 draft each: Humans 7 linemen, 2 catchers, 2 throwers, 2 blitzers; Orcs 7
#: linemen, 2 throwers, 2 blitzers.
HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))


@pytest.fixture(autouse=True)
def _app_context(app):
    """Every service test runs inside the app with a fresh database."""
    return app


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def league_2025(commissioner):
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
    return league, humans, orcs


@pytest.fixture
def hooks_app(app: Flask) -> Flask:
    # The receiver listens on 127.0.0.1, which only this setting lets a webhook reach.
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    return app


@pytest.fixture
def listening(hooks_app: Flask) -> Iterator[Receiver]:
    """Webhook deliveries, received by a real HTTP server on 127.0.0.1."""
    with receiver() as found:
        yield found
