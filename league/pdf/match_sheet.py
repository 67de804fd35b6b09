"""The match sheet: one page per team, for coaches who play on paper.

Each team's page has its roster (characteristics, skills), its journeymen,
star players and mercenaries, its inducements, and below it the opponent's
line-up the same way. Built from the pre-game the services return; not cached
(the pre-game changes until kick-off, and the sheet is small).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from flask import current_app
from weasyprint import CSS

from league.i18n import current_language, format_number, gettext
from league.models import Match
from league.pdf.context import (
    PlayerRow,
    PrintedLook,
    SkillItem,
    StatCell,
    _player_row,
    _stat_text,
    printed_look,
)
from league.pdf.render import layout, write_pdf
from league.pdf.roster import RenderedPdf, slug
from league.rules import Position, RulesText, match_day_rules, star_hire
from league.services.access import team_type_of
from league.services.pregame import PregameView, SideView, chosen_stars, item_lines
from league.services.rosters import team_sheet
from league.services.text import coach_name

TEMPLATE = "pdf/match_sheet.html"
#: After print.css: smaller type and rows, so two line-ups fit one landscape page.
SHEET_CSS = """
html { font-size: 7pt; }
.match-page { break-after: page; }
.match-page:last-child { break-after: auto; }
.players th, .players td { padding: 0.45mm 1mm; }
.players td.skills { font-size: 6.6pt; }
.players thead th { font-size: 6.6pt; }
.c-name { width: 34mm; }
.c-pos { width: 38mm; }  /* "Halbling-Hoffnungsträger" on one line */
.c-kind { width: 27mm; }  /* "Misses the game" on one line: two line-ups fill a page */
h1 { font-size: 14pt; }
h2 { font-size: 10pt; margin: 1.5mm 0 1mm; padding-bottom: 0.6mm; border-bottom-width: 1pt; }
.sub { font-size: 8.5pt; }
.buys { margin: 1mm 0 0; font-size: 7.4pt; }
.opponent .players td { color: #222; }
"""


@cache
def _sheet_css() -> CSS:
    """SHEET_CSS parsed once per process."""
    return CSS(string=SHEET_CSS)


@dataclass(frozen=True, slots=True)
class SheetRow:
    row: PlayerRow
    #: "" (rostered) | "Journeyman" | "Star player" | "Mercenary" | "Misses the game"
    kind: str


@dataclass(frozen=True, slots=True)
class LineUp:
    team_name: str
    team_type: str
    coach: str
    side: str
    ctv: int
    petty_cash: int
    treasury_spent: int
    total: int
    rows: tuple[SheetRow, ...]
    #: "2 x Bribes: 200,000", ... (with a multiplication sign)
    buys: tuple[str, ...]
    #: The team's colours and logo, printed beside its name.
    look: PrintedLook | None = None


@dataclass(frozen=True, slots=True)
class MatchSheet:
    title: str
    league: str
    ruleset: str
    characteristics: tuple[str, ...]
    #: Each page: (the team's line-up, the opponent's).
    pages: tuple[tuple[LineUp, LineUp], ...]


def _extra_row(
    text: RulesText,
    name: str,
    position: str,
    stats: dict[str, int | None],
    skills: list[str],
) -> PlayerRow:
    ruleset = text.ruleset
    return PlayerRow(
        number=0,
        name=name,
        position=position,
        stats=tuple(
            StatCell(_stat_text(ruleset, c, stats.get(c))) for c in ruleset.characteristics
        ),
        skills=tuple(SkillItem(text.skill_name(s)) for s in skills),
        injuries=(),
        misses_next_game=False,
        spp_available=0,
        spp_earned=0,
        level="",
        value=0,
    )


def _position_row(text: RulesText, position: Position, trait: str, extra: str | None) -> PlayerRow:
    skills = [str(s) for s in position.skills] + [trait] + ([extra] if extra else [])
    return _extra_row(text, "", text.position_name(position.name), dict(position.stats), skills)


def line_up(view: PregameView, side: SideView) -> LineUp:
    team = side.facts.team
    sheet = team_sheet(team)
    ruleset = sheet.ruleset
    md = match_day_rules(ruleset)
    team_type = team_type_of(team)
    text = ruleset.text(current_language())
    rows = [
        SheetRow(
            _player_row(ruleset, line, text),
            gettext("Misses the game") if line.player.status == "mng" else "",
        )
        for line in sheet.lines
    ]
    lines = item_lines(side)
    journeymen = [line.ref for line in lines if line.kind == "journeyman"]
    if side.saved is None and len(side.journeyman_positions) == 1:
        journeymen = [side.journeyman_positions[0].id] * side.facts.journeymen_needed
    for position_id in journeymen:
        position = team_type.position(position_id)
        rows.append(
            SheetRow(
                _position_row(text, position, str(md.journeymen.trait), None),
                gettext("Journeyman"),
            )
        )
    playing = {chosen.hire.id: chosen.plays for chosen in chosen_stars(view, side.side)}
    for line in lines:
        if line.kind == "star":
            kind = gettext("Star player") if playing.get(line.ref, True) else gettext("Not playing")
            for star in star_hire(ruleset, line.ref).members:
                rows.append(
                    SheetRow(
                        _extra_row(
                            text, star.name, "", dict(star.stats), [str(s) for s in star.skills]
                        ),
                        kind,
                    )
                )
        elif line.kind == "mercenary":
            position = team_type.position(line.ref)
            rows.append(
                SheetRow(
                    _position_row(text, position, str(md.mercenaries.trait), line.skill),
                    gettext("Mercenary"),
                )
            )
    buys = tuple(
        gettext(
            "%(count)d \u00d7 %(name)s: %(gold)s",
            count=line.count,
            name=line.name,
            gold=format_number(line.cost),
        )
        for line in lines
        if line.kind == "inducement"
    )
    saved = side.saved
    return LineUp(
        team_name=team.name,
        team_type=text.team_type_name(team_type.id),
        coach=coach_name(team),
        side=side.side,
        ctv=side.ctv,
        petty_cash=side.petty_cash,
        treasury_spent=saved.treasury_spent if saved else 0,
        total=saved.total if saved else 0,
        rows=tuple(rows),
        buys=buys,
        look=printed_look(team),
    )


def match_sheet(match: Match, view: PregameView) -> MatchSheet:
    home, away = line_up(view, view.home), line_up(view, view.away)
    ruleset = view.home.facts.ruleset
    return MatchSheet(
        title=gettext("%(home)s v %(away)s", home=home.team_name, away=away.team_name),
        league=match.league.name,
        ruleset=ruleset.name,
        characteristics=tuple(c.upper() for c in ruleset.characteristics),
        pages=((home, away), (away, home)),
    )


def match_sheet_pdf(match: Match, view: PregameView) -> RenderedPdf:
    sheet = match_sheet(match, view)
    html = current_app.jinja_env.get_template(TEMPLATE).render(sheet=sheet, match=match)
    data = write_pdf([layout(html, extra_css=[_sheet_css()])])
    filename = f"{slug(sheet.title, f'match-{match.id}')}-match-{match.id}.pdf"
    return RenderedPdf(data, "", False, 0.0, filename)
