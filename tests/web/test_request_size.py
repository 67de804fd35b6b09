"""Request bodies over the limits are refused (413) before they are read (issue 33, point 7).

MAX_CONTENT_LENGTH caps every body (4 MB by default: a logo and its form); a JSON body,
parsed whole in memory, has the smaller MAX_JSON_LENGTH (1 MB by default).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from league import config
from league.models import User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_user
from tests.pages import text_of

MB = 1024 * 1024


class UnreadBody(io.RawIOBase):
    """A body of `size` bytes that fails the test if anything reads it."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        # The test client measures the body by seeking to its end and back.
        self.position = self.size + offset if whence == io.SEEK_END else offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer: object) -> int:
        raise AssertionError("the body was read")


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def test_the_limits_default_to_four_and_one_megabytes_and_read_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = config.from_environment(Path("instance"))
    assert (settings["MAX_CONTENT_LENGTH"], settings["MAX_JSON_LENGTH"]) == (4 * MB, 1 * MB)
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "8388608")
    monkeypatch.setenv("MAX_JSON_LENGTH", "65536")
    settings = config.from_environment(Path("instance"))
    assert (settings["MAX_CONTENT_LENGTH"], settings["MAX_JSON_LENGTH"]) == (8 * MB, 65536)
    monkeypatch.setenv("MAX_JSON_LENGTH", "1MB")
    with pytest.raises(RuntimeError, match="MAX_JSON_LENGTH must be a positive number of bytes"):
        config.from_environment(Path("instance"))


def test_a_200_mb_json_body_is_refused_unread(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    response = client.post(
        f"/api/v1/leagues/{league.id}/teams",
        headers=auth(boss),
        content_type="application/json",
        input_stream=UnreadBody(200 * MB),
    )
    assert response.status_code == 413
    assert response.json == {
        "error": {
            "code": "request_entity_too_large",
            # 200 MB = 204,800 KB; the limit is 1 MB = 1,024 KB.
            "message": "The JSON body is too large: 204,800 KB, at most 1,024 KB are accepted.",
        }
    }


def test_a_json_body_without_a_length_stops_at_the_limit(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_JSON_LENGTH"] = 1024
    boss = make_user("boss")
    league = make_league(boss)
    body = b'{"name": "' + b"x" * 2000 + b'", "team_type": "human"}'
    response = client.post(
        f"/api/v1/leagues/{league.id}/teams",
        headers=auth(boss),
        content_type="application/json",
        input_stream=io.BytesIO(body),
        # A server that ends the body itself (chunked uploads): no Content-Length.
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert response.json["error"]["code"] == "request_entity_too_large"
    # Under the limit, the same request goes through.
    app.config["MAX_JSON_LENGTH"] = 4096
    response = client.post(
        f"/api/v1/leagues/{league.id}/teams",
        headers=auth(boss),
        content_type="application/json",
        input_stream=io.BytesIO(b'{"name": "Reikland Reavers", "team_type": "human"}'),
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 201, response.json


def test_a_form_over_the_request_limit_is_a_413_page(client: FlaskClient) -> None:
    response = client.post(
        "/login",
        content_type="application/x-www-form-urlencoded",
        input_stream=UnreadBody(5 * MB),
    )
    assert response.status_code == 413
    assert "Request Entity Too Large" in text_of(response.text)
    assert "Traceback" not in response.text
