"""Roster PDFs for one team and for a whole league, through the on-disk cache."""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session

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
from league.pdf.render import design_version, layout, sheet_html, write_pdf


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
    #: The pack for the league as it stands is on disk: the next download is instant.
    ready: bool
    #: The latest build: {"seconds", "built_at", "teams", "pages", "bytes"}, or None.
    last_build: dict[str, object] | None


def slug(text: str, fallback: str) -> str:
    """An ASCII file-name part: 'Altdorf Übermächtige' -> 'altdorf-ubermachtige'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return cleaned[:60].strip("-") or fallback


def entry_name(kind: str, id_: int, paper: str) -> str:
    """The cache entry: 'team-12' for A4, 'team-12-letter' for US Letter."""
    paper = paper_of(paper)
    return f"{kind}-{id_}" if paper == DEFAULT_PAPER else f"{kind}-{id_}-{paper}"


def sheet_key(sheet: RosterContext, design: str) -> str:
    return fingerprint({"design": design, "sheet": asdict(sheet)})


def team_roster_pdf(
    team: Team, *, url: str, paper: str, today: date | None = None, cache: PdfCache | None = None
) -> RenderedPdf:
    """The team's roster sheet, from the cache when nothing printed has changed."""
    started = time.perf_counter()
    cache = cache or PdfCache()
    sheet = roster_context(team, url=url, printed_on=today or date.today(), paper=paper)
    key = sheet_key(sheet, design_version())
    name = entry_name("team", team.id, sheet.paper)
    filename = f"{slug(team.name, name)}-roster.pdf"
    data = cache.get(name, key)
    cached = data is not None
    if data is None:
        data = write_pdf([layout(sheet_html(sheet), sheet.paper)])
        cache.put(name, key, data)
    return RenderedPdf(data, key, cached, time.perf_counter() - started, filename)


def _pack_sheets(
    session: Session, league: League, team_url: Callable[[Team], str], paper: str, today: date
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
    team_url: Callable[[Team], str],
    paper: str,
    today: date | None = None,
    cache: PdfCache | None = None,
) -> PackStatus:
    cache = cache or PdfCache()
    name = entry_name("league", league.id, paper)
    teams, _, key = _pack_sheets(session, league, team_url, paper, today or date.today())
    return PackStatus(teams, cache.get(name, key) is not None, cache.get_meta(name))


def league_pack_pdf(
    session: Session,
    league: League,
    *,
    team_url: Callable[[Team], str],
    paper: str,
    today: date | None = None,
    cache: PdfCache | None = None,
) -> RenderedPdf | None:
    """Every active team's sheet in standings order, in one PDF; None without active teams."""
    started = time.perf_counter()
    cache = cache or PdfCache()
    name = entry_name("league", league.id, paper)
    teams, sheets, key = _pack_sheets(session, league, team_url, paper, today or date.today())
    if not sheets:
        return None
    filename = f"{slug(league.name, name)}-rosters.pdf"
    data = cache.get(name, key)
    if data is not None:
        return RenderedPdf(data, key, True, time.perf_counter() - started, filename)
    documents = [layout(sheet_html(sheet), sheet.paper) for sheet in sheets]
    data = write_pdf(documents)
    seconds = time.perf_counter() - started
    cache.put(name, key, data)
    cache.put_meta(
        name,
        {
            "seconds": round(seconds, 3),
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "teams": len(teams),
            "pages": sum(len(document.pages) for document in documents),
            "bytes": len(data),
            "paper": paper,
        },
    )
    return RenderedPdf(data, key, False, seconds, filename)
