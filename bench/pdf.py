"""Roster PDF timings: a 16-player sheet rendered, fetched from the cache, and a baseline.

Prints the median render time of a 16-player roster (context, HTML, WeasyPrint
layout and PDF), the median of an uncached and of a cached
`GET /teams/<id>/roster.pdf`, and, in the same run, the median of WeasyPrint
rendering a minimal one-table page, with the ratio. Then the font options:
subsetting (the default) against `full_fonts` (whole fonts embedded), with the
file sizes, for DejaVu and for the compact Liberation Sans Narrow.
Then where a fresh render's time goes (CPU time, so other processes on the machine count
less): parsing the HTML, the CSS cascade, building the boxes, the layout, writing the PDF,
with the sheet's own user-agent stylesheet (static/css/print-ua.css) and, for comparison
in the same run, with WeasyPrint's HTML5 one, and with the sheet read by WeasyPrint's
HTML5 parser instead of Python's XML parser (render.sheet_document). Last, the match sheet
of two 16-player teams (both line-ups on each team's page), in CPU time from the pre-game
to the PDF, read as XML and by the HTML5 parser, the rounds taking turns.
Measures only: nothing is asserted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import weasyprint.document
from flask import current_app
from weasyprint import CSS, HTML, Document

from bench._common import summary
from league import create_app
from league.extensions import db
from league.pdf import render
from league.pdf.context import roster_context
from league.pdf.match_sheet import match_sheet_pdf
from league.services.matches import get_match, schedule_match
from league.services.pregame import pregame_view
from league.services.unit_of_work import unit_of_work
from tests.pdf import sample

ROUNDS = 9
OPTION_ROUNDS = 3
MINIMAL = (
    "<!doctype html><html><head><style>@page { size: A4 landscape }</style></head><body>"
    "<table><tr><th>#</th><th>Name</th></tr><tr><td>1</td><td>Griff</td></tr></table>"
    "</body></html>"
)


def median_ms(action: Callable[[], object], rounds: int = ROUNDS) -> tuple[float, object]:
    action()  # warm up (fonts, templates, parsed CSS)
    times = []
    result: object = None
    for _ in range(rounds):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, result


def median_cpu_ms(action: Callable[[], object], rounds: int = ROUNDS) -> float:
    """Median CPU milliseconds of `action` (other processes on the machine count less)."""
    action()  # warm up
    times = []
    for _ in range(rounds):
        started = time.process_time()
        action()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000


def median_cpu_pair(
    first: Callable[[], object], second: Callable[[], object], rounds: int = ROUNDS
) -> tuple[float, float]:
    """Median CPU milliseconds of two actions, their rounds taking turns (a busy machine
    slows both alike)."""
    first(), second()  # warm up
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for action, spent in ((first, times[0]), (second, times[1])):
            started = time.process_time()
            action()
            spent.append(time.process_time() - started)
    return statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000


@contextmanager
def html5_parser() -> Iterator[None]:
    """Every sheet read by WeasyPrint's HTML5 parser, as before the sheets were read as XML."""
    own = render.sheet_document
    render.sheet_document = lambda html, base_url, fetcher: render.SheetHTML(  # type: ignore[assignment]
        string=html, base_url=base_url, url_fetcher=fetcher
    )
    try:
        yield
    finally:
        render.sheet_document = own  # type: ignore[assignment]


def with_html5_parser(action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        with html5_parser():
            return action()

    return run


def print_match_sheet(sample_league: sample.Sample) -> None:
    """The match sheet of two 16-player teams: its CPU time against the goal."""
    rivals = sample.make_sample_team(sample_league.coach, sample_league.league, "Reikland Reavers")
    with unit_of_work() as session:
        match_id = schedule_match(
            session,
            sample_league.commissioner,
            sample_league.league.id,
            sample_league.team.id,
            rivals.id,
        ).id
    match = get_match(db.session, match_id)
    with current_app.test_request_context():

        def render_match_sheet() -> bytes:
            return match_sheet_pdf(match, pregame_view(db.session, match)).data

        cpu_ms, html5_ms = median_cpu_pair(
            render_match_sheet, with_html5_parser(render_match_sheet)
        )
        size = len(render_match_sheet())
    print(
        f"match sheet, 2 x 16 players: {cpu_ms:.0f} ms CPU median ({size:,} bytes); "
        f"with WeasyPrint's HTML5 parser {html5_ms:.0f} ms"
    )
    summary(
        "pdf.py",
        "match sheet, 2 x 16 players, CPU (goal < 400 ms)",
        f"{cpu_ms:.0f} ms (HTML5 parser: {html5_ms:.0f} ms)",
    )


def median_write_ms(
    make_document: Callable[[], Document], rounds: int = OPTION_ROUNDS, **options: object
) -> tuple[float, bytes]:
    """write_pdf alone, each time on a freshly laid-out document.

    (A document remembers the font files it embedded, so writing the same one
    again would not measure the subsetting or embedding.)
    """
    times = []
    data = b""
    for _ in range(rounds):
        document = make_document()
        started = time.perf_counter()
        data = document.write_pdf(**options)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, data


STAGES = {
    "get_all_computed_styles": "CSS cascade",
    "build_formatting_structure": "boxes",
    "layout_document": "layout",
    "generate_pdf": "writing the PDF",
}


def stage_breakdown(html: str, rounds: int = ROUNDS) -> dict[str, float]:
    """Median CPU milliseconds of each stage of render.layout + write_pdf."""
    spent: dict[str, float] = {}
    originals = {name: getattr(weasyprint.document, name) for name in STAGES}

    def timed_stage(name: str) -> Callable[..., object]:
        def run(*args: object, **kwargs: object) -> object:
            started = time.process_time()
            result = originals[name](*args, **kwargs)
            if name == "layout_document":  # a generator: lay out every page now
                result = list(result)  # type: ignore[call-overload]
            spent[STAGES[name]] = spent.get(STAGES[name], 0) + time.process_time() - started
            return result

        return run

    samples: dict[str, list[float]] = {}
    try:
        for name in STAGES:
            setattr(weasyprint.document, name, timed_stage(name))
        for _ in range(rounds):
            spent.clear()
            started = time.process_time()
            render.write_pdf([render.layout(html)])
            total = time.process_time() - started
            spent["parsing the HTML and the rest"] = total - sum(spent.values())
            spent["total"] = total
            for stage, seconds in spent.items():
                samples.setdefault(stage, []).append(seconds)
    finally:
        for name, original in originals.items():
            setattr(weasyprint.document, name, original)
    return {stage: statistics.median(values) * 1000 for stage, values in samples.items()}


def print_stages(html: str) -> None:
    ours = stage_breakdown(html)
    own_user_agent = render.SheetHTML._ua_stylesheets
    render.SheetHTML._ua_stylesheets = HTML._ua_stylesheets  # type: ignore[method-assign]
    try:
        html5 = stage_breakdown(html)
    finally:
        render.SheetHTML._ua_stylesheets = own_user_agent  # type: ignore[method-assign]
    with html5_parser():
        parsed_as_html5 = stage_breakdown(html)
    print(
        "where a fresh render goes (CPU ms, median): own UA sheet / WeasyPrint's HTML5 one"
        " / own UA sheet, read by the HTML5 parser instead of as XML"
    )
    for stage in ours:
        figures = (ours[stage], html5[stage], parsed_as_html5[stage])
        print(f"  {stage:32s} " + " / ".join(f"{ms:6.0f}" for ms in figures))
    summary(
        "pdf.py",
        "fresh 16-player sheet, CPU (goal < 250 ms)",
        f"{ours['total']:.0f} ms (HTML5 UA sheet: {html5['total']:.0f} ms,"
        f" HTML5 parser: {parsed_as_html5['total']:.0f} ms)",
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
                "SECRET_KEY": "bench",
                "PDF_CACHE_DIR": f"{tmp}/pdf-cache",
            }
        )
        with app.app_context():
            db.create_all()
            built = sample.build()
            team = built.team
            url = f"/teams/{team.id}/roster.pdf"
            sheet = roster_context(
                team, url=f"http://localhost{url}", printed_on=date.today(), paper="a4"
            )
            html = render.sheet_html(sheet)
            print(f"roster: {len(sheet.players)} players, {len(sheet.skills)} skills on page 2")

            render_ms, pdf = median_ms(lambda: render.render_sheet(sheet))
            layout_ms, _ = median_ms(lambda: render.layout(html))
            write_ms, _ = median_write_ms(lambda: render.layout(html), ROUNDS)
            minimal_ms, minimal = median_ms(lambda: HTML(string=MINIMAL).write_pdf())
            print(f"render 16-player roster: {render_ms:.0f} ms median ({len(pdf):,} bytes)")  # type: ignore[arg-type]
            print(f"  of which layout: {layout_ms:.0f} ms, writing the PDF: {write_ms:.0f} ms")
            print(f"minimal one-table page: {minimal_ms:.1f} ms median ({len(minimal):,} bytes)")  # type: ignore[arg-type]
            print(f"ratio roster / minimal: {render_ms / minimal_ms:.1f}x")
            print_stages(html)

            client = app.test_client()
            cache = Path(tmp) / "pdf-cache"

            def uncached() -> bytes:
                for path in cache.glob("*.pdf"):
                    path.unlink()
                return client.get(url).data

            uncached_ms, _ = median_ms(uncached)
            cached_ms, data = median_ms(lambda: client.get(url).data)
            print(f"GET {url} uncached: {uncached_ms:.0f} ms median")
            summary(
                "pdf.py",
                "roster PDF, rendered / from the cache",
                f"{uncached_ms:.0f} ms / {cached_ms:.1f} ms",
            )
            print(
                f"GET {url} cached: {cached_ms:.1f} ms median "
                f"({uncached_ms / cached_ms:.0f}x faster, {len(data):,} bytes)"  # type: ignore[arg-type]
            )

            print("font options (write_pdf of the laid-out sheet, fresh layout each time):")
            narrow = [CSS(string='html { font-family: "Liberation Sans Narrow", sans-serif; }')]
            fonts = {
                "DejaVu Sans Condensed": lambda: render.layout(html),
                "Liberation Sans Narrow": lambda: render.layout(html, extra_css=narrow),
                # Without the CJK name, no fallback font is needed: only the compact one.
                "Liberation Sans Narrow, Latin names only": lambda: render.layout(
                    html.replace("王小明", "Wang Xiaoming"), extra_css=narrow
                ),
            }
            for label, make_document in fonts.items():
                for name, options in (("subset", {}), ("full_fonts", {"full_fonts": True})):
                    ms, out = median_write_ms(make_document, **options)
                    print(f"  {label}, {name}: {ms:.0f} ms, {len(out):,} bytes")
            print_match_sheet(built)
            db.engine.dispose()


if __name__ == "__main__":
    main()
