"""Roster PDFs for one team and for a whole league, through the on-disk cache."""

from __future__ import annotations

import io
import re
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime

from pypdf import PdfReader, PdfWriter
from sqlalchemy.orm import Session

from league.i18n import DEFAULT_LANGUAGE, current_language, in_language
from league.models import League, Team
from league.pdf.cache import PdfCache
from league.pdf.context import (
    DEFAULT_PAPER,
    RosterContext,
    fingerprint,
    pack_teams,
    paper_of,
    roster_context,
)
from league.pdf.render import design_version, render_sheet
from league.urls import public_url


@dataclass(frozen=True, slots=True)
class RenderedPdf:
    data: bytes
    #: The cache key: a hash of everything printed (usable as an ETag).
    key: str
    cached: bool
    #: Time spent building (or fetching) the PDF.
    seconds: float
    filename: str


@dataclass(frozen=True, slots=True)
class PackStatus:
    teams: list[Team]
    #: The pack for the league as it stands, when it is on disk (the download is instant).
    pdf: RenderedPdf | None
    #: The latest build: {"seconds", "built_at", "teams", "pages", "bytes"}, or None.
    last_build: dict[str, object] | None


def slug(text: str, fallback: str) -> str:
    """An ASCII file-name part: 'Altdorf Übermächtige' -> 'altdorf-ubermachtige'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return cleaned[:60].strip("-") or fallback


def entry_name(kind: str, id_: int, paper: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The cache entry: 'team-12' for A4, 'team-12-letter' for US Letter; a language
    other than English is an entry of its own ('team-12-fr', 'team-12-letter-de')."""
    paper = paper_of(paper)
    name = f"{kind}-{id_}" if paper == DEFAULT_PAPER else f"{kind}-{id_}-{paper}"
    return name if language == DEFAULT_LANGUAGE else f"{name}-{language}"


def sheet_key(sheet: RosterContext, design: str) -> str:
    """The hash of everything a sheet prints, in the language it prints in now."""
    return fingerprint({"design": design, "language": current_language(), "sheet": asdict(sheet)})


def team_url(team: Team) -> str:
    """The team page printed on its sheet: from configuration, never the request's Host
    header (it is part of the sheet, so of its cache key)."""
    return public_url("teams.show", team_id=team.id)


def _sheet_pdf(team: Team, sheet: RosterContext, cache: PdfCache) -> tuple[bytes, str, bool]:
    """(PDF, cache key, from the cache?) of one team's sheet in the current language; a
    render is stored."""
    key = sheet_key(sheet, design_version())
    name = entry_name("team", team.id, sheet.paper, current_language())
    data = cache.get(name, key)
    if data is not None:
        return data, key, True
    data = render_sheet(sheet)
    cache.put(name, key, data)
    return data, key, False


def team_roster_pdf(
    team: Team,
    *,
    paper: str,
    today: date | None = None,
    cache: PdfCache | None = None,
    language: str | None = None,
) -> RenderedPdf:
    """The team's roster sheet, from the cache when nothing printed has changed.

    ``language``: of the sheet's texts and of the skill names and summaries (None: the
    current language); they are part of the sheet, so of its cache key.
    """
    started = time.perf_counter()
    sheet = roster_context(
        team,
        url=team_url(team),
        printed_on=today or date.today(),
        paper=paper,
        language=language,
    )
    data, key, cached = _sheet_pdf(team, sheet, cache or PdfCache())
    filename = f"{slug(team.name, entry_name('team', team.id, sheet.paper))}-roster.pdf"
    return RenderedPdf(data, key, cached, time.perf_counter() - started, filename)


def _pack_sheets(
    session: Session, league: League, paper: str, today: date
) -> tuple[list[Team], list[RosterContext], str]:
    teams = pack_teams(session, league)
    sheets = [roster_context(t, url=team_url(t), printed_on=today, paper=paper) for t in teams]
    design = design_version()
    key = fingerprint([sheet_key(sheet, design) for sheet in sheets])
    return teams, sheets, key


def pack_status(
    session: Session,
    league: League,
    *,
    paper: str,
    today: date | None = None,
    cache: PdfCache | None = None,
) -> PackStatus:
    """The league's teams and whether the pack for the league as it stands (in the league's
    language) is built."""
    cache = cache or PdfCache()
    language = league.default_language
    name = entry_name("league", league.id, paper, language)
    with in_language(language):
        teams, _, key = _pack_sheets(session, league, paper, today or date.today())
    data = cache.get(name, key) if teams else None
    pdf = None
    if data is not None:
        pdf = RenderedPdf(data, key, True, 0.0, f"{slug(league.name, name)}-rosters.pdf")
    return PackStatus(teams, pdf, cache.get_meta(name))


def merge_pdfs(parts: Sequence[bytes]) -> bytes:
    """One PDF of every page of `parts`, in order (each sheet keeps its own page numbers)."""
    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def build_league_pack(
    session: Session,
    league: League,
    *,
    paper: str,
    today: date | None = None,
    cache: PdfCache | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> RenderedPdf | None:
    """Every active team's sheet in standings order, in one PDF; None without active teams.

    Each sheet comes from the team's cache entry when it is there (a round changes a few
    teams: only those render again), and `progress(done, total)` is told after every team.
    The pack is stored only once complete (the cache writes by renaming a whole file).
    It prints in the league's default language, whoever asks for it.
    """
    with in_language(league.default_language):
        return _build_league_pack(session, league, paper, today, cache, progress)


def _build_league_pack(
    session: Session,
    league: League,
    paper: str,
    today: date | None,
    cache: PdfCache | None,
    progress: Callable[[int, int], None],
) -> RenderedPdf | None:
    started = time.perf_counter()
    cache = cache or PdfCache()
    name = entry_name("league", league.id, paper, current_language())
    teams, sheets, key = _pack_sheets(session, league, paper, today or date.today())
    if not sheets:
        return None
    filename = f"{slug(league.name, name)}-rosters.pdf"
    data = cache.get(name, key)
    if data is not None:
        progress(len(sheets), len(sheets))
        return RenderedPdf(data, key, True, time.perf_counter() - started, filename)
    parts: list[bytes] = []
    rendered = 0
    progress(0, len(sheets))
    for team, sheet in zip(teams, sheets, strict=True):
        part, _, hit = _sheet_pdf(team, sheet, cache)
        parts.append(part)
        rendered += not hit
        progress(len(parts), len(sheets))
    data = merge_pdfs(parts)
    seconds = time.perf_counter() - started
    cache.put(name, key, data)
    cache.put_meta(
        name,
        {
            "seconds": round(seconds, 3),
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "teams": len(teams),
            "rendered": rendered,
            "pages": len(PdfReader(io.BytesIO(data)).pages),
            "bytes": len(data),
            "paper": paper,
        },
    )
    return RenderedPdf(data, key, False, seconds, filename)
