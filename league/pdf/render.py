"""HTML to PDF with WeasyPrint: the print stylesheet, the fonts, a fetcher limited to static/
and the team logos.

Jinja renders `templates/pdf/*.html` (autoescaped: a team called
``<img src="file:///etc/passwd">`` prints as text), and WeasyPrint lays it
out with `static/css/print.css`. WeasyPrint may fetch nothing but files under
`static/` and the logos' folder (`LOGO_DIR`, PNGs the site drew itself):
:class:`StaticOnlyFetcher` refuses every other URL, so even markup
that slipped through could not read a file or reach the network.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import mimetypes
import re
import threading
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import cssselect2
import weasyprint
from flask import current_app
from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from league.i18n import current_language, gettext
from league.pdf.context import RosterContext
from league.services.logos import logo_dir

TEMPLATE = "pdf/roster.html"
STYLESHEET = "css/print.css"
#: In place of WeasyPrint's HTML5 user-agent stylesheet: only the rules the sheet uses.
UA_STYLESHEET = "css/print-ua.css"
PAPER_CSS = {"a4": "", "letter": "@page { size: letter landscape; }"}

#: Options of `write_pdf`. Font subsetting (the default) keeps a sheet near 35 KB and
#: costs about 100 ms; `full_fonts=True` embeds whole fonts (3.7 MB with the CJK fallback)
#: and is slower, see bench/pdf.py and the README's "Performance" section.
PDF_OPTIONS: dict[str, Any] = {}


class FetchRefused(ValueError):
    """WeasyPrint asked for a URL outside static/."""


class StaticOnlyFetcher(URLFetcher):
    """Serves files under `root` (the app's static folder) and the `others` (the team
    logos' folder), and refuses every other URL."""

    def __init__(self, root: Path, *others: Path) -> None:
        super().__init__(allowed_protocols=("file",))
        self.root = root.resolve()
        self.roots = (self.root, *(other.resolve() for other in others))
        #: URLs asked for and refused (for tests and logs).
        self.refused: list[str] = []

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        path = self.resolve(url)
        if path is None:
            self.refused.append(url)
            current_app.logger.warning("PDF: refused to fetch %s", url[:200])
            raise FetchRefused(f"Only files under static/ may be used in a PDF: {url[:200]}")
        mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            path.as_uri(), path.read_bytes(), headers={"Content-Type": mime_type}
        )

    def resolve(self, url: str) -> Path | None:
        """The file `url` names when it is a file: URL of a file under root, else None."""
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return None
        path = Path(unquote(parts.path)).resolve()
        if not any(path.is_relative_to(root) for root in self.roots) or not path.is_file():
            return None
        return path


class SheetHTML(HTML):
    """WeasyPrint's HTML with the sheet's own short user-agent stylesheet.

    Every element is matched against every user-agent rule: the HTML5 stylesheet has
    hundreds of rules for elements a roster never uses, and matching them took a quarter
    of a render. (`_ua_stylesheets` is WeasyPrint's hook for it; its version is part of
    `design_version`, so an upgrade re-renders every sheet, and the tests compare the
    pictures of the sheet.)
    """

    user_agent_sheets: Sequence[CSS] = ()

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return list(self.user_agent_sheets)

    @classmethod
    def from_tree(
        cls, root: ElementTree.Element, base_url: str, url_fetcher: URLFetcher
    ) -> SheetHTML:
        """The document of a tree already parsed: what `HTML.__init__` keeps once it has
        parsed a string (no `<base>` in the sheets, so `base_url` stands)."""
        document = cls.__new__(cls)
        document.base_url = base_url
        document.url_fetcher = url_fetcher
        document.media_type = "print"
        document.wrapper_element = cssselect2.ElementWrapper.from_html_root(
            root, content_language=None
        )
        document.etree_element = document.wrapper_element.etree_element
        return document


#: The doctype the sheets start with (HTML's, which XML does not know).
_DOCTYPE = re.compile(r"\A\s*<!doctype html>", re.IGNORECASE)


def sheet_document(html: str, base_url: str, fetcher: URLFetcher) -> SheetHTML:
    """The sheet's HTML as a WeasyPrint document, parsed as XML when it is well-formed.

    The sheets' templates are written as XHTML (void elements closed): Python's XML parser
    (expat, in C) reads them in a fraction of a millisecond, where WeasyPrint's HTML5
    parser, in Python, took a tenth of a match sheet's render; the trees lay out the same
    (tests/pdf/test_sheet_parsing.py compares every box). Any other markup goes to the
    HTML5 parser, and so does markup declaring anything (``<!``: a DTD's entities are
    never expanded; stored text is escaped, so only a template could write one).
    """
    markup = _DOCTYPE.sub("", html, count=1)
    if "<!" not in markup:
        try:
            # No "<!" means no DTD: nothing for expat to expand or fetch (what defusedxml
            # forbids); the stored texts in the markup are escaped by the templates.
            root = ElementTree.fromstring(markup)  # noqa: S314
        except ElementTree.ParseError:
            pass
        else:
            return SheetHTML.from_tree(root, base_url, fetcher)
    return SheetHTML(string=html, base_url=base_url, url_fetcher=fetcher)


_lock = threading.Lock()
_stylesheets: dict[tuple[str, str, float], list[CSS]] = {}
_user_agent: dict[tuple[str, float], list[CSS]] = {}
_per_thread = threading.local()
#: A line break, with its indentation, between two tags: the templates' own layout, which
#: prints nothing but which WeasyPrint would parse and make boxes of. (Values are escaped,
#: so "<" and ">" are the templates' own; a space that must print between two inline tags
#: stays on one line in the templates.)
_BETWEEN_TAGS = re.compile(r">\s*\n\s*<")


def font_config() -> FontConfiguration:
    """This thread's font configuration, shared by every render in it.

    WeasyPrint makes a new one per document unless given one, and a new one loads
    fontconfig's configuration and then every font again (DejaVu in four styles, the CJK
    fallback) and starts its font metric caches empty: a tenth of a sheet's render. Pango's
    font map is not thread-safe, hence one per thread.
    """
    config: FontConfiguration | None = getattr(_per_thread, "font_config", None)
    if config is None:
        config = _per_thread.font_config = FontConfiguration()
    return config


def static_root() -> Path:
    return Path(current_app.static_folder or "static").resolve()


def _stylesheets_for(paper: str, fetcher: StaticOnlyFetcher) -> list[CSS]:
    """The parsed print stylesheet (parsed once per process and file version)."""
    path = fetcher.root / STYLESHEET
    key = (str(path), paper, path.stat().st_mtime)
    with _lock:
        sheets = _stylesheets.get(key)
        if sheets is None:
            sheets = [CSS(filename=str(path), url_fetcher=fetcher)]
            if PAPER_CSS.get(paper):
                sheets.append(CSS(string=PAPER_CSS[paper]))
            _stylesheets[key] = sheets
    return sheets


def _user_agent_sheets(fetcher: StaticOnlyFetcher) -> list[CSS]:
    path = fetcher.root / UA_STYLESHEET
    key = (str(path), path.stat().st_mtime)
    with _lock:
        sheets = _user_agent.get(key)
        if sheets is None:
            sheets = _user_agent[key] = [CSS(filename=str(path), url_fetcher=fetcher)]
    return sheets


def design_version() -> str:
    """Changes when the template, the stylesheet, WeasyPrint or the options change.

    Part of every cache key, so a new design never serves an old PDF.
    """
    digest = hashlib.sha256()
    loader = current_app.jinja_env.loader
    if loader is None:
        raise RuntimeError("the app has no template loader")
    source, _, _ = loader.get_source(current_app.jinja_env, TEMPLATE)
    digest.update(source.encode())
    digest.update((static_root() / STYLESHEET).read_bytes())
    digest.update((static_root() / UA_STYLESHEET).read_bytes())
    digest.update(f"{weasyprint.__version__} {sorted(PDF_OPTIONS.items())}".encode())
    return digest.hexdigest()[:16]


def sheet_html(sheet: RosterContext) -> str:
    """The sheet's HTML (the app's Jinja environment: autoescaped, no context processors),
    in the language texts are looked up in now (its ``<html lang>``)."""
    template = current_app.jinja_env.get_template(TEMPLATE)
    return template.render(sheet=sheet, language=current_language())


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while WeasyPrint works.

    A layout allocates hundreds of thousands of short-lived objects, which set off
    full collections that walk the whole process heap (the app, its ORM objects):
    about a third of a sheet's CPU (bench/pdf.py). The collector runs again after,
    so whatever cycles the render left are freed as usual.
    """
    if not gc.isenabled():  # paused already (a render inside a render)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


#: Stand-ins for the page numbers in the footer's translated words.
_PAGE, _PAGES = "\x00", "\x01"


def _footer_css() -> CSS:
    """The page footer ("Page 1 of 2") in the language the sheet is printed in."""
    return _footer_css_for(gettext("Page %(page)s of %(pages)s", page=_PAGE, pages=_PAGES))


@lru_cache(maxsize=16)
def _footer_css_for(words: str) -> CSS:
    """CSS content for `words`: the text as quoted strings, the numbers as counters."""
    counters = {_PAGE: "counter(page)", _PAGES: "counter(pages)"}
    parts = [
        counters.get(part) or '"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"'
        for part in re.split(f"({_PAGE}|{_PAGES})", words)
        if part
    ]
    return CSS(string=f"@page {{ @bottom-right {{ content: {' '.join(parts)}; }} }}")


def layout(html: str, paper: str = "a4", extra_css: Sequence[CSS] = ()) -> Document:
    """Lay out one HTML document (no PDF written yet); `extra_css` goes after print.css."""
    fetcher = StaticOnlyFetcher(static_root(), logo_dir())
    base_url = fetcher.root.as_uri() + "/"
    stylesheets = [*_stylesheets_for(paper, fetcher), _footer_css(), *extra_css]
    html = _BETWEEN_TAGS.sub("><", html)
    document = sheet_document(html, base_url, fetcher)
    document.user_agent_sheets = _user_agent_sheets(fetcher)
    with collector_paused():
        return document.render(stylesheets=stylesheets, font_config=font_config())


def write_pdf(documents: Sequence[Document], **options: Any) -> bytes:
    """One PDF of every page of `documents`, in order (each keeps its own page numbers)."""
    first, *rest = documents
    if rest:
        first = first.copy([page for document in documents for page in document.pages])
    with collector_paused():
        pdf: bytes = first.write_pdf(**{**PDF_OPTIONS, **options})
    return pdf


def render_sheet(sheet: RosterContext, **options: Any) -> bytes:
    return write_pdf([layout(sheet_html(sheet), sheet.paper)], **options)
