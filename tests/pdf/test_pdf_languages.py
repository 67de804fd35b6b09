"""Roster sheets per language: the reader's for a sheet, the league's for the pack and the
sheets rendered ahead; each language is a cache entry of its own."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from pypdf import PdfWriter

from league import jobs
from league.extensions import db
from league.i18n import current_language
from league.models import League, Team
from league.pdf import roster
from league.pdf.cache import PdfCache
from league.pdf.roster import build_league_pack, entry_name, team_roster_pdf
from league.services import leagues, teams
from league.services.unit_of_work import unit_of_work
from tests.pdf import sample


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language of every sheet rendered (a blank page stands for the sheet)."""
    languages: list[str] = []

    def render(_sheet: object) -> bytes:
        languages.append(current_language())
        writer = PdfWriter()
        writer.add_blank_page(width=595, height=842)
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    monkeypatch.setattr(roster, "render_sheet", render)
    return languages


def _league_in(league: League, language: str) -> None:
    with unit_of_work() as session:
        fresh = session.get(League, league.id)
        assert fresh is not None
        settings = replace(leagues.current_settings(fresh), default_language=language)
        leagues.update_settings(session, fresh.members[0].user, league.id, settings)


def test_entry_names() -> None:
    assert entry_name("team", 12, "a4") == "team-12"
    assert entry_name("team", 12, "letter") == "team-12-letter"
    assert entry_name("team", 12, "a4", "fr") == "team-12-fr"
    assert entry_name("league", 3, "letter", "de") == "league-3-letter-de"


def test_a_sheet_prints_in_the_readers_language_each_kept_apart(
    app: Flask, pdf_cache: Path, rendered: list[str]
) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = sample.make_sample_team(coach, league, "Polyglots", players=1)
    for header in ("de", "en", "de", "fr"):
        with app.test_request_context("/", headers={"Accept-Language": header}):
            app.preprocess_request()  # as a request does: the language chosen afresh
            team_roster_pdf(db.session.get(Team, team.id), paper="a4", cache=PdfCache())
    # German, English, (German from the cache), French.
    assert rendered == ["de", "en", "fr"]
    names = sorted(path.name.rsplit("-", 1)[0] for path in pdf_cache.glob("*.pdf"))
    assert names == [f"team-{team.id}", f"team-{team.id}-de", f"team-{team.id}-fr"]


def test_the_pack_and_the_sheets_ahead_print_in_the_leagues_language(
    app: Flask, pdf_cache: Path, rendered: list[str]
) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    with unit_of_work() as session:
        team = teams.create_team(
            session, coach, teams.NewTeam(league.id, "Polyglots", "human", active=True)
        )
        session.flush()
        teams.hire_player(session, coach, team.id, teams.HirePlayer("human-lineman", "Babel"))
    _league_in(league, "it")
    # A German reader asks for the pack: it prints in Italian.
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        app.preprocess_request()
        fresh = db.session.get(League, league.id)
        assert fresh is not None
        pack = build_league_pack(db.session(), fresh, paper="a4")
        assert pack is not None
        assert current_language() == "de"  # the page itself stays German
    assert rendered == ["it"]
    assert sorted(p.name.rsplit("-", 1)[0] for p in pdf_cache.glob("league-*.pdf")) == [
        f"league-{league.id}-it"
    ]
    # Rendering ahead (a job: its own app context, no reader): in the league's language.
    rendered.clear()
    _league_in(league, "es")
    assert jobs.render_roster.call_local(team.id) is True
    assert rendered == ["es"]
