"""A team's colours and logo through the services: checks, storage, permissions."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from league.extensions import db
from league.models import AuditEntry, Team
from league.services import identity, logos
from league.services.errors import Forbidden, RuleViolation
from league.services.unit_of_work import unit_of_work
from tests import logo_files
from tests.factories import make_league, make_team, make_user


@pytest.fixture
def logo_dir(app, tmp_path):
    folder = tmp_path / "logos"
    app.config["LOGO_DIR"] = str(folder)
    return folder


@pytest.fixture
def people():
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2025", anna, bram)
    return commish, anna, bram, make_team(anna, league, "human", "Reikland Reavers")


def test_colours_are_stored_in_lower_case_and_cleared(people) -> None:
    _, anna, _, team = people
    with unit_of_work() as session:
        identity.set_colours(session, anna, team.id, ["#C81E1E", "#FFFFFF"])
    db.session.expire_all()
    team = db.session.get(Team, team.id)
    assert (team.primary_colour, team.secondary_colour) == ("#c81e1e", "#ffffff")
    assert identity.team_colours(team) == ("#c81e1e", "#ffffff")
    with unit_of_work() as session:
        identity.set_colours(session, anna, team.id, [])
    db.session.expire_all()
    assert identity.team_colours(db.session.get(Team, team.id)) is None


@pytest.mark.parametrize(
    ("colours", "code", "words"),
    [
        (["#c81e1e"], "colours_invalid", "two colours"),
        (["#c81e1e", "#fff", "#000000"], "colours_invalid", "two colours"),
        (["red", "#ffffff"], "colours_invalid", "'red' is not a colour"),
        (["#c81e1e", 12], "colours_invalid", "12 is not a colour"),
        # #ff0000 on #00ff00: 0.7652 / 0.2626 = 2.9:1, under 3:1.
        (["#ff0000", "#00ff00"], "colours_unreadable", "2.9:1"),
    ],
)
def test_bad_colours_are_refused_and_nothing_changes(people, colours, code, words) -> None:
    _, anna, _, team = people
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        identity.set_colours(session, anna, team.id, colours)
    assert refused.value.code == code
    assert refused.value.field == "colours"
    assert words in refused.value.message
    db.session.expire_all()
    assert db.session.get(Team, team.id).primary_colour is None


def test_another_coach_may_not_change_the_colours_or_logo(people, logo_dir) -> None:
    _, _, bram, team = people
    with pytest.raises(Forbidden), unit_of_work() as session:
        identity.set_colours(session, bram, team.id, ["#000000", "#ffffff"])
    with pytest.raises(Forbidden), unit_of_work() as session:
        identity.set_logo(session, bram, team.id, logo_files.image_bytes((64, 64)), "a.png")
    assert not logo_dir.exists() or not list(logo_dir.iterdir())


def test_a_commissioner_may(people, logo_dir) -> None:
    commish, _, _, team = people
    with unit_of_work() as session:
        identity.set_colours(session, commish, team.id, ["#000000", "#ffffff"])
        identity.set_logo(session, commish, team.id, logo_files.image_bytes((64, 64)), "a.png")
    db.session.expire_all()
    assert db.session.get(Team, team.id).logo_key.startswith(f"{team.id}-")


def _stored(logo_dir, key: str, size: int) -> Image.Image:
    return Image.open(io.BytesIO((logo_dir / f"{key}-{size}.png").read_bytes()))


def test_logo_round_trip_resized_square_without_metadata(people, logo_dir) -> None:
    _, anna, _, team = people
    upload = logo_files.jpeg_with_exif((400, 200))
    assert logo_files.SECRET.encode() in upload  # the test's own file does carry it
    with unit_of_work() as session:
        identity.set_logo(session, anna, team.id, upload, "Crest.JPG")
    db.session.expire_all()
    key = db.session.get(Team, team.id).logo_key
    assert logos.valid_key(key)
    assert sorted(p.name for p in logo_dir.iterdir()) == [f"{key}-256.png", f"{key}-64.png"]
    for size in (256, 64):
        raw = (logo_dir / f"{key}-{size}.png").read_bytes()
        assert b"Secret" not in raw
        assert b"Exif" not in raw
        image = _stored(logo_dir, key, size)
        assert image.format == "PNG"
        assert image.size == (size, size)
        assert not image.getexif()
        assert set(image.info) <= {"dpi", "gamma", "srgb", "aspect"}, image.info
    # 400 x 200 fitted in 256: 256 x 128, centred (64 px transparent above and below).
    big = _stored(logo_dir, key, 256)
    assert big.getpixel((128, 10))[3] == 0
    red = big.getpixel((128, 128))
    assert red[3] == 255
    assert red[0] > 180
    assert red[1] < 60


def test_a_new_logo_replaces_the_old_files_once_committed(people, logo_dir) -> None:
    _, anna, _, team = people
    with unit_of_work() as session:
        identity.set_logo(session, anna, team.id, logo_files.image_bytes((64, 64)), "a.png")
    first = db.session.get(Team, team.id).logo_key
    with unit_of_work() as session:
        identity.set_logo(
            session, anna, team.id, logo_files.image_bytes((80, 80), "WEBP", "#22aa22"), "b.webp"
        )
    db.session.expire_all()
    second = db.session.get(Team, team.id).logo_key
    assert second != first
    assert sorted(p.name for p in logo_dir.iterdir()) == [f"{second}-256.png", f"{second}-64.png"]
    with unit_of_work() as session:
        identity.remove_logo(session, anna, team.id)
    db.session.expire_all()
    assert db.session.get(Team, team.id).logo_key is None
    assert list(logo_dir.iterdir()) == []
    actions = db.session.scalars(db.select(AuditEntry.action)).all()
    assert actions.count("team.logo") == 2
    assert "team.logo_removed" in actions


REFUSED = [
    ("svg named .svg", lambda: logo_files.SVG, "crest.svg", "logo_format"),
    ("svg named .png", lambda: logo_files.SVG, "crest.png", "logo_unreadable"),
    ("bomb", logo_files.bomb_png, "bomb.png", "logo_bomb"),
    ("81 million pixels", logo_files.many_pixels_png, "big.png", "logo_bomb"),
    ("png named .jpg", lambda: logo_files.image_bytes((64, 64)), "crest.jpg", "logo_mismatch"),
    (
        "jpeg named .webp",
        lambda: logo_files.image_bytes((64, 64), "JPEG"),
        "crest.webp",
        "logo_mismatch",
    ),
    ("20,000 px wide", logo_files.wide_png, "wide.png", "logo_dimensions"),
    ("over 2 MB", logo_files.noise_png, "noise.png", "logo_too_large"),
    ("garbage", lambda: logo_files.GARBAGE, "crest.png", "logo_unreadable"),
    ("gif", lambda: logo_files.image_bytes((64, 64), "GIF"), "crest.gif", "logo_format"),
    ("no extension", lambda: logo_files.image_bytes((64, 64)), "crest", "logo_format"),
]


@pytest.mark.parametrize(
    ("label", "make", "filename", "code"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_refused_files_store_nothing(people, logo_dir, label, make, filename, code) -> None:
    _, anna, _, team = people
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        identity.set_logo(session, anna, team.id, make(), filename)
    assert refused.value.code == code, refused.value.message
    assert refused.value.field == "logo"
    db.session.expire_all()
    assert db.session.get(Team, team.id).logo_key is None
    assert not logo_dir.exists() or list(logo_dir.iterdir()) == []


def test_the_refusals_say_why() -> None:
    with pytest.raises(RuleViolation, match=r"at most 10,000 pixels on a side.*20,000"):
        logos.prepare_logo(1, logo_files.wide_png(), "wide.png")
    with pytest.raises(RuleViolation, match="name says JPEG but it holds a PNG"):
        logos.prepare_logo(1, logo_files.image_bytes((8, 8)), "a.jpeg")
    with pytest.raises(RuleViolation, match="at most 2 MB"):
        logos.prepare_logo(1, b"x" * (2 * 1024 * 1024 + 1), "a.png")
