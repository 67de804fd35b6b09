"""The team page's colours and logo forms, and the logo files served with caching headers."""

from __future__ import annotations

import io

import pytest
from flask.testing import FlaskClient
from PIL import Image
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from league.extensions import db
from league.models import Team
from league.services import identity, matches
from league.services.unit_of_work import unit_of_work
from tests import logo_files
from tests.factories import make_active_team, make_league, make_team, make_user
from tests.pages import field_errors, flashes, login


@pytest.fixture
def logo_dir(app, tmp_path):
    folder = tmp_path / "logos"
    app.config["LOGO_DIR"] = str(folder)
    return folder


@pytest.fixture
def team() -> Team:
    commish, anna = make_user("commish"), make_user("anna")
    make_user("bram")
    league = make_league(commish, "bb2025", anna, make_user("cleo"))
    return make_team(anna, league, "human", "Reikland Reavers")


def upload(client: FlaskClient, url: str, data: bytes, filename: str, **kwargs):
    """POST a file as the logo form does. The body is encoded in memory: the test client
    spools one over 500 KB to a temporary file it never closes."""
    boundary, body = encode_multipart({"logo": FileStorage(io.BytesIO(data), filename)})
    return client.post(
        url, data=body, content_type=f"multipart/form-data; boundary={boundary}", **kwargs
    )


def _team(team_id: int) -> Team:
    db.session.expire_all()
    return db.session.get(Team, team_id)


def test_the_coach_picks_colours_on_the_team_page(client: FlaskClient, team: Team) -> None:
    login(client, "anna")
    page = client.get(f"/teams/{team.id}").text
    assert 'type="color"' in page
    assert 'name="primary_text"' in page
    # The typed text wins over the picker; it is stored in lower case.
    response = client.post(
        f"/teams/{team.id}/colours",
        data={"primary": "#000000", "primary_text": "#C81E1E", "secondary": "#FFFFFF"},
        follow_redirects=True,
    )
    assert "Colours saved." in flashes(response.text)
    assert (_team(team.id).primary_colour, _team(team.id).secondary_colour) == (
        "#c81e1e",
        "#ffffff",
    )
    # The crest: initials "RR" in the second colour on the main one.
    page = client.get(f"/teams/{team.id}").text
    assert 'fill="#c81e1e"' in page
    assert 'fill="#ffffff">RR</text>' in page


def test_unreadable_colours_are_refused_next_to_the_field(client: FlaskClient, team) -> None:
    login(client, "anna")
    # #ff0000 and #00ff00: (0.7152 + 0.05) / (0.2126 + 0.05) = 2.9:1, under 3:1.
    response = client.post(
        f"/teams/{team.id}/colours", data={"primary": "#ff0000", "secondary": "#00ff00"}
    )
    assert response.status_code == 400
    errors = field_errors(response.text, "colours")
    assert len(errors) == 1
    assert "2.9:1" in errors[0]
    assert _team(team.id).primary_colour is None
    response = client.post(
        f"/teams/{team.id}/colours", data={"primary": "#ff0000", "secondary_text": "white"}
    )
    assert response.status_code == 400
    assert "'white' is not a colour" in field_errors(response.text, "colours")[0]


def test_another_coach_gets_the_403_page(client: FlaskClient, team, logo_dir) -> None:
    login(client, "cleo")
    response = client.post(
        f"/teams/{team.id}/colours", data={"primary": "#000000", "secondary": "#ffffff"}
    )
    assert response.status_code == 403
    response = upload(client, f"/teams/{team.id}/logo", logo_files.image_bytes((32, 32)), "a.png")
    assert response.status_code == 403
    assert _team(team.id).primary_colour is None
    assert _team(team.id).logo_key is None
    assert not logo_dir.exists()
    assert 'id="identity"' not in client.get(f"/teams/{team.id}").text


def test_logo_upload_served_with_caching_headers_then_removed(
    client: FlaskClient, team, logo_dir
) -> None:
    login(client, "anna")
    response = upload(
        client,
        f"/teams/{team.id}/logo",
        logo_files.jpeg_with_exif((300, 600)),
        "crest.jpg",
        follow_redirects=True,
    )
    assert "Logo saved." in flashes(response.text)
    key = _team(team.id).logo_key
    assert f'src="/logos/{key}-256.png"' in response.text
    client.post("/logout")  # a logo is public, like the team page
    for size in (256, 64):
        served = client.get(f"/logos/{key}-{size}.png")
        assert served.status_code == 200
        assert served.mimetype == "image/png"
        assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert served.headers["ETag"] == f'"{key}-{size}"'
        image = Image.open(io.BytesIO(served.data))
        assert image.size == (size, size)
        assert not image.getexif()
        assert b"Secret" not in served.data
        again = client.get(f"/logos/{key}-{size}.png", headers={"If-None-Match": f'"{key}-{size}"'})
        assert again.status_code == 304
    assert client.get(f"/logos/{key}-128.png").status_code == 404
    assert client.get("/logos/..-256.png").status_code == 404

    login(client, "anna")
    asked = client.get(f"/teams/{team.id}/logo/remove")
    assert "Remove the logo of Reikland Reavers?" in asked.text
    assert _team(team.id).logo_key == key  # asking removes nothing
    done = client.post(
        f"/teams/{team.id}/logo/remove", data={"confirmed": "yes"}, follow_redirects=True
    )
    assert "Logo removed." in flashes(done.text)
    assert _team(team.id).logo_key is None
    assert list(logo_dir.iterdir()) == []
    assert client.get(f"/logos/{key}-256.png").status_code == 404


@pytest.mark.parametrize(
    ("make", "filename", "words"),
    [
        (lambda: logo_files.SVG, "crest.svg", "must be a PNG, JPEG or WebP"),
        (logo_files.bomb_png, "bomb.png", "far more pixels"),
        (lambda: logo_files.image_bytes((64, 64)), "crest.webp", "holds a PNG"),
        (logo_files.wide_png, "wide.png", "at most 10,000 pixels"),
        (logo_files.noise_png, "noise.png", "at most 2 MB"),
        (lambda: logo_files.GARBAGE, "crest.png", "not an image"),
    ],
)
def test_refused_uploads_say_why_next_to_the_field(
    client: FlaskClient, team, logo_dir, make, filename, words
) -> None:
    login(client, "anna")
    response = upload(client, f"/teams/{team.id}/logo", make(), filename)
    assert response.status_code == 400
    errors = field_errors(response.text, "logo")
    assert len(errors) == 1, errors
    assert words in errors[0]
    assert _team(team.id).logo_key is None
    assert not logo_dir.exists() or list(logo_dir.iterdir()) == []


def test_no_file_chosen(client: FlaskClient, team) -> None:
    login(client, "anna")
    response = client.post(f"/teams/{team.id}/logo", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert field_errors(response.text, "logo") == ["Choose an image file to upload."]


def test_every_page_showing_the_teams_wears_their_badges(client: FlaskClient, logo_dir) -> None:
    """The league's team list and table, the fixtures, the match page and its live log."""
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    linemen = (("human-lineman", 11),)
    reds = make_active_team(anna, league, "human", "Reds", linemen)
    crests = make_active_team(bram, league, "human", "Crests", linemen)
    with unit_of_work() as session:
        identity.set_colours(session, anna, reds.id, ["#c81e1e", "#ffffff"])
        identity.set_logo(session, bram, crests.id, logo_files.image_bytes((64, 64)), "c.png")
        match_id = matches.schedule_match(session, boss, league.id, reds.id, crests.id).id
    key = _team(crests.id).logo_key
    swatch = 'fill="#c81e1e"/><path d="M10 .75a9.25 9.25 0 0 1 0 18.5z" fill="#ffffff"/>'
    logo = f'src="/logos/{key}-64.png"'
    login(client, "anna")
    for path in (
        f"/leagues/{league.id}",
        f"/leagues/{league.id}/standings",
        f"/leagues/{league.id}/fixtures",
        f"/matches/{match_id}",
        f"/matches/{match_id}/live",
    ):
        page = client.get(path).text
        assert swatch in page, path
        assert logo in page, path


def test_the_remove_button_clears_the_colours(client: FlaskClient, team: Team) -> None:
    login(client, "anna")
    client.post(f"/teams/{team.id}/colours", data={"primary": "#000000", "secondary": "#ffffff"})
    assert _team(team.id).primary_colour == "#000000"
    page = client.get(f"/teams/{team.id}").text
    assert 'value="#000000"' in page  # the picker shows the team's colour
    response = client.post(
        f"/teams/{team.id}/colours",
        data={"primary": "#000000", "secondary": "#ffffff", "clear": "Remove the colours"},
        follow_redirects=True,
    )
    assert "Colours removed." in flashes(response.text)
    assert (_team(team.id).primary_colour, _team(team.id).secondary_colour) == (None, None)
    assert 'data-testid="team-colours"' not in response.text
