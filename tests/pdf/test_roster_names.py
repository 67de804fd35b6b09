"""Names as typed on the printed roster: the longest player name wraps inside its column,
emoji print from the emoji font (and nothing else does)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from league.services import teams
from league.services.unit_of_work import unit_of_work
from tests.pdf import pdf_text, sample

EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
# The longest name the hire form takes (60 characters), with a word too long for the column.
LONG_NAME = "Griffith Oberwald Übermächtigeschwarzwaldmeisterschaftsmanns"
EMOJI_NAME = "Grøm \U0001f480 Ironhide \U0001f3c8"


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float


def first_page_words(pdf: Path) -> list[Word]:
    """The words of page 1 with their boxes (points, from the top left), by `pdftotext -bbox`."""
    command = ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout  # noqa: S603
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
    return [
        Word(html.unescape(text), float(x0), float(y0), float(x1), float(y1))
        for x0, y0, x1, y1, text in re.findall(pattern, out)
    ]


@pytest.fixture
def roster_pdf(client: FlaskClient, app, tmp_path: Path) -> bytes:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    with unit_of_work() as session:
        team = teams.create_team(session, coach, teams.NewTeam(league.id, "Name Checkers", "human"))
        for name, number in ((LONG_NAME, 1), (EMOJI_NAME, 2)):
            hire = teams.HirePlayer("human-lineman", name, number)
            teams.hire_player(session, coach, team.id, hire)
    response = client.get(f"/teams/{team.id}/roster.pdf")
    assert response.status_code == 200
    return response.data


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_a_long_name_wraps_inside_the_name_column(
    roster_pdf: bytes, tmp_path: Path, artifacts: Path
) -> None:
    assert len(LONG_NAME) == 60  # the form's limit
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(roster_pdf)
    words = first_page_words(pdf)
    player_head = next(w for w in words if w.text == "Player")
    position_head = next(w for w in words if w.text == "Position")
    second_row = next(  # player 2's shirt number, in the # column
        w
        for w in words
        if w.text == "2" and w.x_max < player_head.x_min and w.y_min > player_head.y_max
    )
    # Player 1's row: below the header, above player 2; the name column starts at "Player".
    name_words = sorted(
        (
            w
            for w in words
            if player_head.y_max < w.y_min
            and w.y_max < second_row.y_min
            and player_head.x_min - 1 <= w.x_min < position_head.x_min - 1
        ),
        key=lambda w: (round(w.y_min), w.x_min),
    )

    assert "".join(w.text for w in name_words) == LONG_NAME.replace(" ", "")  # all of it printed
    assert len({round(w.y_min) for w in name_words}) >= 2  # on more than one line
    for word in name_words:  # the cell's padding (1.2 mm, 3.4 pt) lies between name and position
        assert word.x_max <= position_head.x_min - 2, word

    if shutil.which("pdftoppm"):  # a picture to look at
        command = ["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile"]
        subprocess.run([*command, str(pdf), str(artifacts / "roster-long-names")], check=True)  # noqa: S603


@pytest.mark.skipif(not Path(EMOJI_FONT).exists(), reason="needs fonts-noto-color-emoji")
def test_emoji_print_from_the_emoji_font_and_nothing_else_does(roster_pdf: bytes) -> None:
    assert EMOJI_NAME in " ".join(pdf_text(roster_pdf))
    drawn: dict[str, list[str]] = {"emoji": [], "other": []}

    def visit(text: str, _cm: object, _tm: object, font: dict | None, _size: float) -> None:
        if text.strip():
            emoji_font = font is not None and "Emoji" in str(font.get("/BaseFont"))
            drawn["emoji" if emoji_font else "other"].append(text)

    PdfReader(BytesIO(roster_pdf)).pages[0].extract_text(visitor_text=visit)
    # Only the two emoji: the emoji font also has digits, which must stay in DejaVu.
    assert "".join("".join(drawn["emoji"]).split()) == "\U0001f480\U0001f3c8"
    assert "Ironhide" in "".join(drawn["other"])
