"""The printed roster sheet, read back from the PDF with pypdf.

Few renders on purpose (each takes a few hundred milliseconds): one full
16-player sheet carries most assertions, smaller teams the rest.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from datetime import date
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from league.extensions import db
from league.models import League, Team
from league.pdf import render
from league.pdf.context import MINUS, TIMES, roster_context
from league.pdf.roster import sheet_key
from league.rules import Ruleset, Skill
from league.services import access, leagues, teams
from league.services.errors import RuleViolation
from league.services.rosters import team_values
from league.services.unit_of_work import unit_of_work
from tests.pdf import pdf_text, record_fetches, sample

A4_LANDSCAPE = (842, 595)  # points, rounded
LETTER_LANDSCAPE = (792, 612)
CJK_FONT = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"


def bold_text(data: bytes, page: int = 0) -> str:
    """Everything drawn in a bold font on one page."""
    chunks: list[str] = []

    def visit(text: str, _cm: object, _tm: object, font: dict | None, _size: float) -> None:
        if font and "Bold" in str(font.get("/BaseFont")):
            chunks.append(text)

    PdfReader(BytesIO(data)).pages[page].extract_text(visitor_text=visit)
    return " ".join(chunks)


def fonts(data: bytes) -> set[str]:
    reader = PdfReader(BytesIO(data))
    return {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }


def page_size(data: bytes) -> tuple[int, int]:
    box = PdfReader(BytesIO(data)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def gold(value: int) -> str:
    return f"{value:,}"


def small_team(coach, league, name: str, players: int = 2) -> Team:
    return sample.make_sample_team(coach, league, name, players=players)


@pytest.fixture
def full(app: Flask) -> sample.Sample:
    return sample.build()


# ---------------------------------------------------------------------------
# The sheet


def test_the_sheet_prints_the_whole_team(
    client: FlaskClient, full: sample.Sample, artifacts: Path
) -> None:
    team = full.team
    response = client.get(f"/teams/{team.id}/roster.pdf")

    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="altdorf-ubermachtige-roster.pdf"' in response.headers["Content-Disposition"]
    data = response.data
    first, second = pdf_text(data)  # two pages: the roster, then the skills
    flat = " ".join(first.split())

    # Header
    for fact in ("Altdorf Übermächtige", "Human", "coach_zoe", "Ünïcode League", "Season 1"):
        assert fact in flat
    assert "Blood Bowl 2025" in flat
    assert f"http://127.0.0.1:5000/teams/{team.id}" in flat  # the team page, at PUBLIC_URL
    assert "Page 1 of 2" in flat
    # Every player, with every skill (starting and gained) and the Unicode names intact
    for _position, name in sample.HIRES:
        assert name in flat
    for player in access.roster(team):
        position = access.team_type_of(team).position(player.position_id)
        for skill in [str(ref) for ref in position.skills]:
            assert skill in flat, (player.name, skill)
        for advancement in player.active_advancements:
            if advancement.skill:
                assert advancement.skill in flat
    # Gained skills are bold, starting ones are not
    bold = bold_text(data)
    assert "Wrestle" in bold
    assert "Accurate" in bold
    assert "Catch" not in bold
    assert "Sure Hands" not in bold
    # Improved and injured characteristics are marked; MNG and niggles shown
    assert "7▲" in flat  # Karl's MA 6 -> 7
    assert "8+▼" in flat  # Otto's AV 9+ -> 8+
    assert f"MNG NI {TIMES}2 {MINUS}AV" in flat
    assert "8 / 14" in flat  # SPP available / earned
    # The team block: staff at roster price, treasury, TV and CTV with the right numbers
    values = team_values(team)
    assert values.team_value == 1_350_000
    assert values.current_team_value == 1_225_000  # minus the two players missing the game
    assert "Team Value 1,350,000" in flat
    assert "Current Team Value 1,225,000" in flat
    assert "Team re-rolls 3 50,000 150,000" in flat
    assert "Apothecary yes 50,000 50,000" in flat
    assert f"Treasury {gold(team.treasury)}" in flat
    # Second page: the skills and traits, alphabetical, with their summaries
    skills_page = " ".join(second.split())
    assert "Skills and traits · Altdorf Übermächtige" in skills_page
    assert "Page 2 of 2" in skills_page
    ruleset = access.team_ruleset(team)
    for name in ("Accurate", "Block", "Loner", "Mighty Blow", "Wrestle"):
        summary = " ".join(ruleset.skill(name).summary.split())
        assert summary[:40] in skills_page, name
    positions = [skills_page.index(f"{name} ") for name in ("Accurate", "Block", "Wrestle")]
    assert positions == sorted(positions)
    # Fonts: DejaVu, with the CJK fallback for 王小明, embedded (subset) in the file
    embedded = fonts(data)
    assert any("DejaVu-Sans" in font for font in embedded), embedded
    if Path(CJK_FONT).exists():  # `make browser-deps` installs it (fonts-droid-fallback)
        assert any("Droid-Sans-Fallback" in font for font in embedded), embedded
    assert page_size(data) == A4_LANDSCAPE

    (artifacts / "roster.pdf").write_bytes(data)
    if shutil.which("pdftoppm"):  # a picture of the first page, to look at
        command = ["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile"]
        command += [str(artifacts / "roster.pdf"), str(artifacts / "roster-page1")]
        subprocess.run(command, check=True)  # noqa: S603
        assert (artifacts / "roster-page1.png").stat().st_size > 10_000


def test_players_who_left_are_not_printed_and_names_are_text(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = sample.make_sample_team(coach, league, sample.INJECTION, players=16)
    gone = sample.dead_and_gone(coach, team)
    with unit_of_work():
        sample.player_by_name(team, "Hans Müller").name = f"{sample.INJECTION} Hans"
    asked = record_fetches(monkeypatch)

    data = client.get(f"/teams/{team.id}/roster.pdf").data

    flat = " ".join(" ".join(pdf_text(data)).split())
    squeezed = "".join(flat.split())  # a long name may wrap inside its cell
    injection = "".join(sample.INJECTION.split())
    assert squeezed.count(injection) == 3  # header, skills page title, a player
    assert f"{injection}Hans" in squeezed
    for player in gone:
        assert player.name not in flat
    assert "Dieter Vogt" not in flat  # #14 died
    assert asked == []  # nothing was fetched at all: no image, no file
    for page in PdfReader(BytesIO(data)).pages:  # no image of any kind in the file
        assert not page["/Resources"].get("/XObject")


def test_the_fetcher_serves_static_files_only(app: Flask, tmp_path: Path) -> None:
    fetcher = render.StaticOnlyFetcher(render.static_root())
    css = render.static_root() / "css" / "print.css"
    assert fetcher.resolve(css.as_uri()) == css
    for url in (
        "file:///etc/passwd",
        f"{render.static_root().as_uri()}/../league/config.py",
        f"{render.static_root().as_uri()}/%2e%2e/app.py",
        "http://127.0.0.1:5000/",
        "https://example.com/logo.png",
        "data:text/plain,hello",
        "ftp://example.com/x",
        f"file://evil.example{css}",
    ):
        assert fetcher.resolve(url) is None, url
        with pytest.raises(render.FetchRefused):
            fetcher.fetch(url)
    # Even markup that reached WeasyPrint unescaped could not read a file.
    document = render.layout('<p>x</p><img src="file:///etc/passwd"><img src="/etc/hostname">')
    assert document.pages  # rendered, without the images
    assert render.write_pdf([document]).startswith(b"%PDF")


# ---------------------------------------------------------------------------
# The cache


def test_the_cache_serves_the_same_bytes_until_the_team_changes(
    client: FlaskClient, app: Flask, pdf_cache: Path
) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = small_team(coach, league, "Cache Crushers", players=3)
    url = f"/teams/{team.id}/roster.pdf"

    first = client.get(url)
    again = client.get(url)

    assert first.headers["X-PDF-Cache"] == "miss"
    assert again.headers["X-PDF-Cache"] == "hit"
    assert again.data == first.data
    assert [p.name for p in pdf_cache.iterdir() if p.suffix == ".pdf"] == [
        f"team-{team.id}-{first.headers['ETag'].strip(chr(34))}.pdf"
    ]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304

    with unit_of_work() as session:
        teams.hire_player(session, coach, team.id, teams.HirePlayer("human-lineman", "New Niklas"))
    db.session.expire_all()
    after_hire = client.get(url)

    assert after_hire.headers["X-PDF-Cache"] == "miss"
    assert after_hire.data != first.data
    assert "New Niklas" in " ".join(pdf_text(after_hire.data))
    assert len([p for p in pdf_cache.iterdir() if p.suffix == ".pdf"]) == 1  # the old one went


def test_the_cache_key_follows_what_the_sheet_prints(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rendering: the key changes with a purchase, an injury, the ruleset, the day."""
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = small_team(coach, league, "Key Keepers", players=2)

    def key(day: date = date(2025, 5, 1), paper: str = "a4") -> str:
        db.session.expire_all()
        fresh = access.get_team(db.session, team.id)
        sheet = roster_context(fresh, url="http://x/teams/1", printed_on=day, paper=paper)
        return sheet_key(sheet, "design-1")

    before = key()
    assert key() == before
    assert key(date(2025, 5, 2)) != before
    assert key(paper="letter") != before
    with unit_of_work() as session:
        teams.buy_team_item(session, coach, team.id, "cheerleader")
    after_purchase = key()
    assert after_purchase != before
    with unit_of_work():
        access.get_team(db.session, team.id).players[0].niggling_injuries = 1
    after_injury = key()
    assert after_injury != after_purchase
    # The ruleset's data (here: a skill's summary) is part of what is printed, so of the key.
    find_skill = Ruleset.find_skill

    def reworded(self: Ruleset, name: str) -> Skill | None:
        skill = find_skill(self, name)
        return skill and dataclasses.replace(skill, summary=skill.summary + " (reworded)")

    monkeypatch.setattr(Ruleset, "find_skill", reworded)
    assert key() != after_injury


def test_letter_paper_on_request(client: FlaskClient, app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = small_team(coach, league, "Letter Lads", players=1)

    data = client.get(f"/teams/{team.id}/roster.pdf?paper=letter").data

    assert page_size(data) == LETTER_LANDSCAPE
    assert len(PdfReader(BytesIO(data)).pages) == 2


def test_a_league_set_to_letter_prints_on_letter(client: FlaskClient, app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = small_team(coach, league, "Letter Lads", players=1)
    settings = leagues.LeagueSettings(league.name, "bb2025", 1_500_000, paper_size="letter")
    with unit_of_work() as session:
        leagues.update_settings(session, commissioner, league.id, settings)

    assert page_size(client.get(f"/teams/{team.id}/roster.pdf").data) == LETTER_LANDSCAPE
    a4 = client.get(f"/teams/{team.id}/roster.pdf?paper=a4").data
    assert page_size(a4) == A4_LANDSCAPE  # a print may still ask for the other


def test_a_league_paper_size_must_be_known(app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    settings = leagues.LeagueSettings(league.name, "bb2025", 1_500_000, paper_size="a3")
    with pytest.raises(RuleViolation, match="A4 or US Letter") as caught, unit_of_work() as session:
        leagues.update_settings(session, commissioner, league.id, settings)
    assert caught.value.field == "paper_size"
    db.session.expire_all()
    assert db.session.get(League, league.id).paper_size == "a4"


def test_an_unknown_team_is_404(client: FlaskClient) -> None:
    assert client.get("/teams/999/roster.pdf").status_code == 404


def test_the_sheet_says_its_language_and_prints_its_day_in_it(app: Flask) -> None:
    from league.i18n import in_language
    from league.pdf.render import sheet_html

    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = small_team(coach, league, "Polyglots", players=1)
    with app.test_request_context("/"):
        sheet = roster_context(
            team, url="http://x/teams/1", printed_on=date(2026, 11, 24), paper="a4"
        )
        html = sheet_html(sheet)
        assert '<html lang="en">' in html
        assert "Nov 24, 2026" in html
        with in_language("de"):
            sheet = roster_context(
                team, url="http://x/teams/1", printed_on=date(2026, 11, 24), paper="a4"
            )
            html = sheet_html(sheet)
            assert '<html lang="de">' in html
            assert "24.11.2026" in html
