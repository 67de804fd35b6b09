"""The team's colours and logo on its roster sheet and on the match sheet."""

from __future__ import annotations

import shutil
import subprocess
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from PIL import Image
from pypdf import PdfReader

from league.extensions import db
from league.models import Team
from league.pdf.match_sheet import match_sheet_pdf
from league.pdf.roster import team_roster_pdf
from league.services import identity
from league.services.matches import get_match, schedule_match
from league.services.pregame import pregame_view
from league.services.unit_of_work import unit_of_work
from tests import logo_files
from tests.pdf import sample


@pytest.fixture
def logo_dir(app: Flask, tmp_path: Path) -> Path:
    folder = tmp_path / "logos"
    app.config["LOGO_DIR"] = str(folder)
    return folder


def images_on(data: bytes, page: int = 0) -> list[tuple[int, int]]:
    """The sizes of the raster images drawn on a page."""
    return [
        (image.image.width, image.image.height)
        for image in PdfReader(BytesIO(data)).pages[page].images
    ]


def picture(data: bytes, path: Path) -> Image.Image:
    """Page 1 as a PNG (pdftoppm), kept under build/test-artifacts/ to look at."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:  # `make browser-deps` installs poppler-utils
        pytest.skip("pdftoppm is not installed")
    stem = path.with_suffix("")
    command = [pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", "-", str(stem)]
    subprocess.run(command, input=data, check=True)  # noqa: S603 (the test's own PDF)
    return Image.open(f"{stem}.png").convert("RGB")


def _has(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> bool:
    """Some pixel within `tolerance` of `colour` in each channel (the rasteriser's
    colour conversion and smoothing move it a little)."""
    pixels = {pixel for _count, pixel in image.getcolors(maxcolors=1 << 20) or ()}
    return any(
        all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True)) for pixel in pixels
    )


def test_the_roster_sheet_prints_the_colours_then_the_logo(
    app: Flask, logo_dir: Path, artifacts: Path
) -> None:
    built = sample.build()
    team = built.team
    with app.test_request_context():
        plain = team_roster_pdf(team, paper="a4")
    assert images_on(plain.data) == []
    plain_picture = picture(plain.data, artifacts / "roster-plain.png")
    assert not _has(plain_picture, (200, 30, 30))
    assert not _has(plain_picture, (31, 78, 156))
    with unit_of_work() as session:
        identity.set_colours(session, built.coach, team.id, ["#c81e1e", "#ffffff"])
    db.session.expire_all()
    team = db.session.get(Team, team.id)
    with app.test_request_context():
        coloured = team_roster_pdf(team, paper="a4")
    assert coloured.key != plain.key  # the colours are part of what the sheet prints
    assert _has(picture(coloured.data, artifacts / "roster-colours.png"), (200, 30, 30))

    with unit_of_work() as session:
        identity.set_logo(
            session,
            built.coach,
            team.id,
            logo_files.image_bytes((300, 300), colour="#1f4e9c"),
            "l.png",
        )
    db.session.expire_all()
    team = db.session.get(Team, team.id)
    with app.test_request_context():
        with_logo = team_roster_pdf(team, paper="a4")
    assert with_logo.key != coloured.key
    assert images_on(with_logo.data) == [(256, 256)]  # the stored 256-pixel logo
    assert _has(picture(with_logo.data, artifacts / "roster-logo.png"), (31, 78, 156))


def test_a_logo_whose_file_is_gone_prints_the_colours(app: Flask, logo_dir: Path) -> None:
    built = sample.build()
    with unit_of_work() as session:
        identity.set_colours(session, built.coach, built.team.id, ["#c81e1e", "#ffffff"])
        identity.set_logo(
            session, built.coach, built.team.id, logo_files.image_bytes((64, 64)), "a.png"
        )
    for file in logo_dir.iterdir():
        file.unlink()
    db.session.expire_all()
    with app.test_request_context():
        data = team_roster_pdf(db.session.get(Team, built.team.id), paper="a4").data
    assert images_on(data) == []


def test_the_match_sheet_shows_each_teams_look_on_its_page(
    app: Flask, logo_dir: Path, artifacts: Path
) -> None:
    built = sample.build()
    rivals = sample.make_sample_team(built.coach, built.league, "Reikland Reavers")
    with unit_of_work() as session:
        identity.set_colours(session, built.coach, built.team.id, ["#c81e1e", "#ffffff"])
        identity.set_logo(
            session, built.coach, rivals.id, logo_files.image_bytes((64, 64)), "a.png"
        )
        match_id = schedule_match(
            session, built.commissioner, built.league.id, built.team.id, rivals.id
        ).id
    match = get_match(db.session, match_id)
    with app.test_request_context():
        data = match_sheet_pdf(match, pregame_view(db.session, match)).data
    # The home team's page: its colours; the away team's page: its logo.
    assert (256, 256) in images_on(data, 1)
    home_page = picture(data, artifacts / "match-sheet-colours.png")
    assert _has(home_page, (200, 30, 30))
