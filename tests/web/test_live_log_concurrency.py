"""The same logged event sent twice at once is stored once (issue 27), on SQLite and on
PostgreSQL (TEST_DATABASE=postgresql).

A phone that lost an answer sends the event again, perhaps while the first is still being
handled: the served app (its own `flask run` process, threaded) gets both from two
threads released together. The twin that slips past the check meets the unique
constraint on (match, client id); the unit of work turns that into ConcurrentChange, and
the API answers it with the stored event.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import MatchLogEvent, User
from league.services import live_log
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.served import all_at_once, app_on, post_json, serve, served_database
from tests.web.test_live_log_pages import log_match


def _fixture() -> tuple[int, int, str]:
    """A scheduled match between two Human teams: its id, a home player, Anna's token."""
    made = log_match("bb2020")
    with unit_of_work() as session:
        anna = session.scalar(select(User).where(User.username == "anna"))
        token = issue_token(session, anna)
    return made.match_id, made.home[0], token


def _event(player_id: int) -> dict[str, Any]:
    return {"id": "phone-a-0001", "side": "home", "kind": "td", "player_id": player_id,
            "half": 1, "turn": 2}  # fmt: skip


def _stored(match_id: int) -> int:
    return db.session.scalar(
        select(func.count()).select_from(MatchLogEvent).where(MatchLogEvent.match_id == match_id)
    )


def test_two_threads_post_the_same_event_and_one_is_stored(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with served_database(tmp_path_factory.mktemp("log")) as url:
        with app_on(url):
            match_id, player_id, token = _fixture()
        path = f"/api/v1/matches/{match_id}/log"
        with serve(url) as base:
            answers = all_at_once([lambda: post_json(base, token, path, _event(player_id))] * 2)
        assert Counter(a.status_code for a in answers) == {201: 1, 200: 1}, [
            a.text for a in answers
        ]
        assert answers[0].json() == answers[1].json()
        with app_on(url):
            assert _stored(match_id) == 1


def test_a_twin_past_the_check_meets_the_constraint(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race's loser, forced: the check misses the twin once, the constraint refuses the
    insert, and the answer is the stored event (200), not an error."""
    match_id, player_id, token = _fixture()
    headers = {"Authorization": f"Bearer {token}"}
    path = f"/api/v1/matches/{match_id}/log"
    first = client.post(path, json=_event(player_id), headers=headers)
    assert first.status_code == 201
    original = live_log._stored
    missed: list[bool] = []

    def blind_once(*args: Any) -> MatchLogEvent | None:
        if not missed:
            missed.append(True)
            return None
        return original(*args)

    monkeypatch.setattr(live_log, "_stored", blind_once)
    again = client.post(path, json=_event(player_id), headers=headers)
    assert again.status_code == 200, again.json
    assert again.json == first.json
    assert missed == [True]
    assert _stored(match_id) == 1
