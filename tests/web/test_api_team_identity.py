"""API v1: a team's colours (PATCH /teams/{id}) and logo (PUT and DELETE /teams/{id}/logo)."""

from __future__ import annotations

import io

import pytest
from flask.testing import FlaskClient
from PIL import Image
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from league.extensions import db
from league.models import Team, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests import logo_files
from tests.factories import make_league, make_team, make_user

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def put_logo(client: FlaskClient, team_id: int, headers, data: bytes, filename: str):
    boundary, body = encode_multipart({"logo": FileStorage(io.BytesIO(data), filename)})
    return client.put(
        f"{API}/teams/{team_id}/logo",
        data=body,
        content_type=f"multipart/form-data; boundary={boundary}",
        headers=headers,
    )


@pytest.fixture
def logo_dir(app, tmp_path):
    folder = tmp_path / "logos"
    app.config["LOGO_DIR"] = str(folder)
    return folder


@pytest.fixture
def people():
    commish, anna, cleo = make_user("commish"), make_user("anna"), make_user("cleo")
    league = make_league(commish, "bb2025", anna, cleo)
    return commish, anna, cleo, make_team(anna, league, "human", "Reikland Reavers")


def _team(team_id: int) -> Team:
    db.session.expire_all()
    return db.session.get(Team, team_id)


def test_the_team_json_carries_colours_and_logo_url(client, people) -> None:
    _, _, _, team = people
    body = client.get(f"{API}/teams/{team.id}").json
    assert body["colours"] is None
    assert body["logo_url"] is None


def test_patch_sets_and_clears_the_colours(client, people) -> None:
    _, anna, _, team = people
    response = client.patch(
        f"{API}/teams/{team.id}", json={"colours": ["#C81E1E", "#ffffff"]}, headers=auth(anna)
    )
    assert response.status_code == 200, response.json
    assert response.json["colours"] == ["#c81e1e", "#ffffff"]
    assert client.get(f"{API}/teams/{team.id}").json["colours"] == ["#c81e1e", "#ffffff"]
    for cleared in (None, []):
        client.patch(
            f"{API}/teams/{team.id}", json={"colours": ["#000000", "#ffffff"]}, headers=auth(anna)
        )
        response = client.patch(
            f"{API}/teams/{team.id}", json={"colours": cleared}, headers=auth(anna)
        )
        assert response.status_code == 200
        assert response.json["colours"] is None
    # Nothing named: nothing changes.
    client.patch(
        f"{API}/teams/{team.id}", json={"colours": ["#000000", "#ffffff"]}, headers=auth(anna)
    )
    response = client.patch(f"{API}/teams/{team.id}", json={"name": "x"}, headers=auth(anna))
    assert response.json["colours"] == ["#000000", "#ffffff"]


@pytest.mark.parametrize(
    ("colours", "status", "code"),
    [
        ("#c81e1e", 400, "invalid_field"),  # not a list
        ([1, 2], 400, "invalid_field"),  # not strings
        (["#c81e1e"], 422, "colours_invalid"),
        (["#c81e1e", "#fff"], 422, "colours_invalid"),
        # #ff0000 on #00ff00: (0.7152 + 0.05) / (0.2126 + 0.05) = 2.9:1, under 3:1.
        (["#ff0000", "#00ff00"], 422, "colours_unreadable"),
    ],
)
def test_bad_colours_name_the_field_and_change_nothing(client, people, colours, status, code):
    _, anna, _, team = people
    response = client.patch(f"{API}/teams/{team.id}", json={"colours": colours}, headers=auth(anna))
    assert response.status_code == status, response.json
    error = response.json["error"]
    assert error["code"] == code
    if status == 400:
        assert error["message"].startswith("'colours")  # the field, then what is wrong
    else:
        assert list(error["fields"]) == ["colours"]
    assert _team(team.id).primary_colour is None


def test_another_coach_is_refused(client, people, logo_dir) -> None:
    _, _, cleo, team = people
    response = client.patch(
        f"{API}/teams/{team.id}", json={"colours": ["#000000", "#ffffff"]}, headers=auth(cleo)
    )
    assert response.status_code == 403
    response = put_logo(client, team.id, auth(cleo), logo_files.image_bytes((32, 32)), "a.png")
    assert response.status_code == 403
    assert client.delete(f"{API}/teams/{team.id}/logo", headers=auth(cleo)).status_code == 403
    assert _team(team.id).primary_colour is None
    assert _team(team.id).logo_key is None
    assert not logo_dir.exists()
    assert client.patch(f"{API}/teams/{team.id}", json={"colours": None}).status_code == 401


def test_logo_put_then_delete(client, people, logo_dir) -> None:
    commish, anna, _, team = people
    response = put_logo(client, team.id, auth(anna), logo_files.jpeg_with_exif(), "crest.jpeg")
    assert response.status_code == 200, response.json
    key = _team(team.id).logo_key
    # PUBLIC_URL is the development address outside production: an absolute URL.
    assert response.json["logo_url"] == f"http://127.0.0.1:5000/logos/{key}-256.png"
    assert response.json["id"] == team.id
    assert response.json["name"] == "Reikland Reavers"
    served = client.get(f"/logos/{key}-256.png")
    assert Image.open(io.BytesIO(served.data)).size == (256, 256)
    assert b"Secret" not in served.data
    assert client.get(f"{API}/teams/{team.id}").json["logo_url"].endswith(f"/logos/{key}-256.png")
    response = client.delete(f"{API}/teams/{team.id}/logo", headers=auth(commish))
    assert response.status_code == 200
    assert response.json["logo_url"] is None
    assert list(logo_dir.iterdir()) == []
    # Again: nothing to remove, the same answer.
    assert client.delete(f"{API}/teams/{team.id}/logo", headers=auth(anna)).status_code == 200


@pytest.mark.parametrize(
    ("make", "filename", "code"),
    [
        (lambda: logo_files.SVG, "crest.svg", "logo_format"),
        (logo_files.bomb_png, "bomb.png", "logo_bomb"),
        (lambda: logo_files.image_bytes((64, 64)), "crest.jpg", "logo_mismatch"),
        (logo_files.wide_png, "wide.png", "logo_dimensions"),
        (logo_files.noise_png, "noise.png", "logo_too_large"),
        (lambda: logo_files.GARBAGE, "crest.png", "logo_unreadable"),
    ],
)
def test_refused_logos_are_422_and_store_nothing(client, people, logo_dir, make, filename, code):
    _, anna, _, team = people
    response = put_logo(client, team.id, auth(anna), make(), filename)
    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == code
    assert list(response.json["error"]["fields"]) == ["logo"]
    assert _team(team.id).logo_key is None
    assert not logo_dir.exists() or list(logo_dir.iterdir()) == []


def test_a_put_without_the_file_names_the_field(client, people) -> None:
    _, anna, _, team = people
    response = client.put(f"{API}/teams/{team.id}/logo", data={}, headers=auth(anna))
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_field"
    assert "'logo'" in response.json["error"]["message"]
    response = client.put(f"{API}/teams/999/logo", data={}, headers=auth(anna))
    assert response.status_code in (400, 404)


def test_an_unknown_team_is_404_before_the_body_is_read(client, people) -> None:
    _, anna, _, _ = people
    response = client.patch(f"{API}/teams/999", json={"colours": "bad"}, headers=auth(anna))
    assert response.status_code == 404
    assert client.delete(f"{API}/teams/999/logo", headers=auth(anna)).status_code == 404
