"""The match sheet of two full rosters: one landscape page per team, both line-ups on it."""

from __future__ import annotations

from io import BytesIO

import pytest
from flask import Flask
from pypdf import PdfReader

from league.extensions import db
from league.i18n import in_language
from league.pdf.match_sheet import match_sheet_pdf
from league.services.matches import get_match, schedule_match
from league.services.pregame import pregame_view
from league.services.unit_of_work import unit_of_work
from tests.pdf import sample

#: The page footer of page 2 in each language (league.pdf.render: translated words,
#: WeasyPrint's page counters).
LAST_PAGE = {
    "en": "Page 2 of 2",
    "de": "Seite 2 von 2",
    "es": "Página 2 de 2",
    "fr": "Page 2 sur 2",
    "it": "Pagina 2 di 2",
}


@pytest.mark.parametrize("language", sorted(LAST_PAGE))
def test_two_sixteen_player_line_ups_fit_one_page_per_team(app: Flask, language: str) -> None:
    built = sample.build()
    rivals = sample.make_sample_team(built.coach, built.league, "Reikland Reavers")
    with unit_of_work() as session:
        match_id = schedule_match(
            session, built.commissioner, built.league.id, built.team.id, rivals.id
        ).id
    match = get_match(db.session, match_id)
    # The sample rosters have 16 players, two of them missing the game: their note is the
    # widest cell, and once it wrapped the last line ("Inducements") spilled onto a page
    # of its own.
    with app.test_request_context(), in_language(language):
        data = match_sheet_pdf(match, pregame_view(db.session, match)).data
    pages = [page.extract_text() for page in PdfReader(BytesIO(data)).pages]
    assert len(pages) == 2
    assert all(text.count("Franz Kessel") == 2 for text in pages)  # the 16th of each line-up
    assert LAST_PAGE[language] in pages[1]
