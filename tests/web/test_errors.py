from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient


def test_not_found_is_themed(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "Back to the leagues" in response.text


def test_api_not_found_is_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.json == {
        "error": {"code": "not_found", "message": response.json["error"]["message"]}
    }


def test_unexpected_errors_never_show_a_traceback(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "secret internals" not in response.text
    assert "Traceback" not in response.text
