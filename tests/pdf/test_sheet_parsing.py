"""The sheets' HTML is well-formed XML, read by Python's XML parser (render.sheet_document),
and lays out exactly as WeasyPrint's HTML5 parser's tree of the same markup: every box on
every page in the same place, with the same size and text."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from flask import Flask, current_app
from weasyprint import HTML

from league.extensions import db
from league.i18n import in_language
from league.pdf import match_sheet, render
from league.pdf.context import roster_context
from league.services.matches import get_match, schedule_match
from league.services.pregame import pregame_view
from league.services.unit_of_work import unit_of_work
from tests.pdf import sample

LANGUAGES = ("en", "de", "es", "fr", "it")


def _sheets(language: str) -> dict[str, str]:
    """The HTML of the sample roster and of the match sheet of two sample teams."""
    built = sample.build()
    rivals = sample.make_sample_team(built.coach, built.league, "Reikland Reavers")
    with unit_of_work() as session:
        match_id = schedule_match(
            session, built.commissioner, built.league.id, built.team.id, rivals.id
        ).id
    match = get_match(db.session, match_id)
    with in_language(language):
        roster = roster_context(
            built.team, url="http://x/r.pdf", printed_on=date(2026, 11, 28), paper="a4"
        )
        sheet = match_sheet.match_sheet(match, pregame_view(db.session, match))
        template = current_app.jinja_env.get_template(match_sheet.TEMPLATE)
        return {
            "roster": render.sheet_html(roster),
            "match sheet": template.render(sheet=sheet, match=match),
        }


def _boxes(document: Any) -> list[tuple[object, ...]]:
    """Every box of every page: its kind, place, size and text."""
    found = []
    for page in document.pages:
        for box in page._page_box.descendants():
            found.append(
                (
                    type(box).__name__,
                    round(box.position_x, 3),
                    round(box.position_y, 3),
                    round(box.width or 0, 3),
                    round(box.height or 0, 3),
                    getattr(box, "text", None),
                )
            )
    return found


def _from_tree_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the root tag of each document built from an XML tree (the fast path)."""
    calls: list[str] = []
    original = render.SheetHTML.from_tree.__func__  # type: ignore[attr-defined]

    def spy(cls: type[render.SheetHTML], root: Any, *args: Any) -> render.SheetHTML:
        calls.append(root.tag)
        return original(cls, root, *args)

    monkeypatch.setattr(render.SheetHTML, "from_tree", classmethod(spy))
    return calls


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheets_are_read_as_xml(
    app: Flask, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _from_tree_calls(monkeypatch)
    with app.test_request_context():
        fetcher = render.StaticOnlyFetcher(render.static_root())
        for name, html in _sheets(language).items():
            document = render.sheet_document(html, "file:///", fetcher)
            assert document.etree_element.tag == "html", name
    assert calls == ["html", "html"]  # the roster and the match sheet, both as XML


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_xml_tree_lays_out_as_the_html5_one(
    app: Flask, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app.test_request_context():
        sheets = _sheets(language)
        for name, html in sheets.items():
            extra = [match_sheet._sheet_css()] if name == "match sheet" else []
            with in_language(language):
                as_xml = render.layout(html, extra_css=extra)
                with monkeypatch.context() as patched:
                    # Every document through WeasyPrint's own HTML5 parser.
                    patched.setattr(
                        render,
                        "sheet_document",
                        lambda markup, base_url, fetcher: render.SheetHTML(
                            string=markup, base_url=base_url, url_fetcher=fetcher
                        ),
                    )
                    as_html5 = render.layout(html, extra_css=extra)
            assert len(as_xml.pages) == len(as_html5.pages) == 2, name
            assert _boxes(as_xml) == _boxes(as_html5), name


def test_markup_that_is_not_xml_goes_to_the_html5_parser(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _from_tree_calls(monkeypatch)
    with app.test_request_context():
        fetcher = render.StaticOnlyFetcher(render.static_root())
        unclosed = render.sheet_document(
            "<!doctype html><html><body><p>Open<br>line</p></body></html>", "file:///", fetcher
        )
        declared = render.sheet_document(
            '<!DOCTYPE x [<!ENTITY e "boom">]><html><body><p>&e;</p></body></html>',
            "file:///",
            fetcher,
        )
    assert calls == []  # neither went to the XML parser
    assert isinstance(unclosed, HTML)
    assert unclosed.etree_element.find("body/p/br") is not None  # the HTML5 parser's tree
    # The DTD is not read: its entity prints as written, never as what it declares.
    assert "boom" not in "".join(declared.etree_element.itertext())
