"""Plain values for the printed roster sheet, built from the services' team sheet.

Everything the template prints is here as strings and integers, so the
template does no arithmetic and the sheet's state can be hashed: the PDF
cache keys on :func:`fingerprint` of these values, which changes whenever the
team, its players, their advancements and injuries, a match result or the
ruleset (house rules included) changes anything the sheet shows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import N_, format_date, gettext
from league.models import League, Player, Team
from league.rules import Ruleset, RulesText, staff_value, stat_label
from league.services.errors import NotFound
from league.services.labels import season_name
from league.services.logos import SIZES, logo_path
from league.services.rosters import PlayerLine, team_sheet
from league.services.standings import standings
from league.services.text import coach_name

#: Paper sizes and their labels (marked: translate them where shown).
PAPER_SIZES = {"a4": N_("A4 landscape"), "letter": N_("letter landscape")}
DEFAULT_PAPER = "a4"

TIMES = "\u00d7"
MINUS = "\u2212"

#: Shown in the sheet's legend and on the team block; BB2020+ call them "X+".
TARGET_STATS = ("ag", "pa", "av")


@dataclass(frozen=True, slots=True)
class StatCell:
    text: str
    #: "" | "improved" | "reduced" | "improved reduced"
    mark: str = ""


@dataclass(frozen=True, slots=True)
class SkillItem:
    name: str
    #: Gained by an advancement (printed in bold), else a starting skill or trait.
    gained: bool = False


@dataclass(frozen=True, slots=True)
class PlayerRow:
    number: int
    name: str
    position: str
    stats: tuple[StatCell, ...]
    skills: tuple[SkillItem, ...]
    #: "MNG", "NI x2", "-MA" (with a multiplication and a minus sign) in the order printed.
    injuries: tuple[str, ...]
    misses_next_game: bool
    spp_available: int
    spp_earned: int
    level: str
    value: int


@dataclass(frozen=True, slots=True)
class StaffLine:
    label: str
    count: str
    #: Unit price at roster price (None: not bought with gold, e.g. dedicated fans).
    price: int | None
    #: What the line adds to TV (None: counts nothing).
    value: int | None


@dataclass(frozen=True, slots=True)
class SkillNote:
    name: str
    kind: str  # "Skill (Agility)" / "Trait"
    summary: str


@dataclass(frozen=True, slots=True)
class PrintedLook:
    """A team's colours and logo as a sheet prints them, under the names the crest macro
    (templates/_macros/team.html) reads from a team."""

    name: str
    primary_colour: str | None
    secondary_colour: str | None
    logo_key: str | None
    #: The 256-pixel logo as a file: URL (league.pdf.render's fetcher may read the logos).
    logo_src: str | None


def printed_look(team: Team) -> PrintedLook:
    """The team's look for a sheet; a logo whose file is missing prints as none."""
    key = team.logo_key
    path = logo_path(key, SIZES[0]) if key else None
    if path is None or not path.is_file():
        key, path = None, None
    return PrintedLook(
        team.name,
        team.primary_colour,
        team.secondary_colour,
        key,
        path.as_uri() if path else None,
    )


@dataclass(frozen=True, slots=True)
class RosterContext:
    """One team's sheet: header, player rows, the team block and the skills page."""

    team_id: int
    team_name: str
    team_type: str
    coach: str
    league: str
    season: str
    ruleset: str
    printed_on: str
    url: str
    paper: str
    characteristics: tuple[str, ...]
    players: tuple[PlayerRow, ...]
    #: Empty lines under the players, up to the roster's maximum, for writing in new hires.
    blank_rows: int
    staff: tuple[StaffLine, ...]
    treasury: int
    team_value: int
    current_team_value: int
    skills: tuple[SkillNote, ...]
    #: The team's colours and logo, printed beside its name.
    look: PrintedLook | None = None

    def fingerprint(self) -> str:
        """A hash of every printed value: equal hashes print identical sheets."""
        return fingerprint(asdict(self))


def fingerprint(values: object) -> str:
    text = json.dumps(values, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def paper_of(value: str | None) -> str:
    """'a4' or 'letter' from a query-string value; anything else is A4."""
    value = (value or "").strip().lower()
    return value if value in PAPER_SIZES else DEFAULT_PAPER


def _stat_text(ruleset: Ruleset, characteristic: str, value: int | None) -> str:
    if value is None:
        return "-"
    if ruleset.stat_style == "target" and characteristic in TARGET_STATS:
        return f"{value}+"
    return str(value)


def _injuries(ruleset: Ruleset, line: PlayerLine) -> tuple[str, ...]:
    player = line.player
    marks: list[str] = []
    if player.status == "mng":
        # "Miss next game", as the printed sheets abbreviate it.
        marks.append(gettext("MNG"))
    if player.niggling_injuries:
        count = player.niggling_injuries
        # "Niggling injury", abbreviated; "NI x2" (with a multiplication sign) for two.
        marks.append(
            gettext("NI")
            if count == 1
            else gettext("NI %(times)s%(count)s", times=TIMES, count=count)
        )
    for characteristic in ruleset.characteristics:
        steps = player.reduction(characteristic)
        if steps:
            label = f"{MINUS}{stat_label(characteristic)}"
            marks.append(label if steps == 1 else f"{label} {TIMES}{steps}")
    return tuple(marks)


def _player_row(ruleset: Ruleset, line: PlayerLine, text: RulesText) -> PlayerRow:
    player = line.player
    stats = []
    for characteristic in ruleset.characteristics:
        marks = [
            mark
            for mark, hit in (
                ("improved", characteristic in line.improved),
                ("reduced", characteristic in line.injured),
            )
            if hit
        ]
        stats.append(
            StatCell(
                _stat_text(ruleset, characteristic, line.stats[characteristic]), " ".join(marks)
            )
        )
    skills = tuple(SkillItem(text.skill_name(name)) for name in line.skills) + tuple(
        SkillItem(text.skill_name(name), gained=True) for name in line.gained_skills
    )
    return PlayerRow(
        number=player.number,
        name=player.name,
        position=text.position_name(line.position.name),
        stats=tuple(stats),
        skills=skills,
        injuries=_injuries(ruleset, line),
        misses_next_game=player.status == "mng",
        spp_available=player.spp_available,
        spp_earned=player.spp_earned,
        level=text.level_name(line.level),
        value=player.value,
    )


def _skill_notes(
    ruleset: Ruleset, lines: Iterable[PlayerLine], text: RulesText
) -> tuple[SkillNote, ...]:
    """Every skill and trait on the team once, alphabetical, with the ruleset's summary
    (names, categories and summaries in ``text``'s language, English where untranslated)."""
    notes: dict[str, SkillNote] = {}
    for line in lines:
        for name in (*line.skills, *line.gained_skills):
            skill = ruleset.find_skill(name)
            if skill is None:
                notes.setdefault(name, SkillNote(name, "", gettext("No summary in this ruleset.")))
                continue
            if skill.name in notes:
                continue
            if skill.trait:
                kind = gettext("Trait")
            elif ruleset.has_category(skill.category):
                kind = text.category_name(skill.category)
            else:
                kind = skill.category
            notes[skill.name] = SkillNote(
                text.skill_name(skill.name), kind, text.skill_summary(skill.name)
            )
    return tuple(sorted(notes.values(), key=lambda note: note.name.casefold()))


def roster_context(
    team: Team, *, url: str, printed_on: date, paper: str, language: str | None = None
) -> RosterContext:
    """The sheet of `team` as plain values (players on the roster only).

    ``language``: rules names (skills, team type, positions, levels) and summaries in
    that language (None: English).
    """
    sheet = team_sheet(team)
    ruleset = sheet.ruleset
    team_type = sheet.team_type
    building = ruleset.team_building
    text = ruleset.text(language)
    rows = tuple(_player_row(ruleset, line, text) for line in sheet.lines)
    fans = building.dedicated_fans
    staff = (
        StaffLine(
            gettext("Team re-rolls"),
            str(team.rerolls),
            team_type.reroll_cost,
            staff_value(ruleset, team_type, rerolls=team.rerolls),
        ),
        StaffLine(
            gettext("Apothecary"),
            (gettext("yes") if team.apothecary else gettext("no"))
            if team_type.apothecary
            else gettext("not allowed"),
            building.apothecary_cost if team_type.apothecary else None,
            staff_value(ruleset, team_type, apothecary=team.apothecary),
        ),
        StaffLine(
            gettext("Assistant coaches"),
            str(team.assistant_coaches),
            building.assistant_coaches.cost,
            staff_value(ruleset, team_type, assistant_coaches=team.assistant_coaches),
        ),
        StaffLine(
            gettext("Cheerleaders"),
            str(team.cheerleaders),
            building.cheerleaders.cost,
            staff_value(ruleset, team_type, cheerleaders=team.cheerleaders),
        ),
        StaffLine(
            gettext("Dedicated fans"),
            str(team.dedicated_fans),
            fans.cost,
            staff_value(ruleset, team_type, dedicated_fans=team.dedicated_fans)
            if fans.counts_in_team_value
            else None,
        ),
    )
    league = team.league
    season = league.current_season or (league.seasons[-1] if league.seasons else None)
    return RosterContext(
        team_id=team.id,
        team_name=team.name,
        team_type=text.team_type_name(team_type.id),
        coach=coach_name(team),
        league=league.name,
        season=season_name(season.name) if season else "",
        ruleset=ruleset.name,
        printed_on=format_date(printed_on),
        url=url,
        paper=paper_of(paper),
        characteristics=tuple(stat_label(c) for c in ruleset.characteristics),
        players=rows,
        blank_rows=max(0, building.max_players - len(rows)),
        staff=staff,
        treasury=team.treasury,
        team_value=sheet.values.team_value,
        current_team_value=sheet.values.current_team_value,
        skills=_skill_notes(ruleset, sheet.lines, text),
        look=printed_look(team),
    )


def pack_teams(session: Session, league: League) -> list[Team]:
    """The league's active teams in standings order (teams not in the table last, by name)."""
    active = list(
        session.scalars(
            select(Team)
            .where(Team.league_id == league.id, Team.status == "active")
            .options(
                selectinload(Team.players).selectinload(Player.advancements),
                selectinload(Team.coach),
            )
        )
    )
    try:
        order = [row.team_id for row in standings(session, league).rows]
    except NotFound:  # a league without a season has no table yet
        order = []
    rank = {team_id: index for index, team_id in enumerate(order)}
    return sorted(active, key=lambda team: (rank.get(team.id, len(rank)), team.name.casefold()))
