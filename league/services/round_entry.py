"""Tournament day: the organiser enters a whole round's results at once, table by table.

A tournament result is the two teams' touchdowns and casualties, not a match report
player by player. The match service (`matches.record_result`) records a result only
from its players' lines: every touchdown must be some player's, and casualties are
counted from the players who caused them. So each side's totals are written on one
line, its first available player's (the lowest shirt number of an active player): the
score and the bonus points come out as entered, and that player is credited with the
touchdowns' and casualties' SPP (docs/tournaments.md, "Fast result entry").

Every table goes through `matches.record_result` in the caller's one transaction: a
table refused refuses the round, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import League, MatchPlayer, Team, User
from league.rules.competitions import SideResult, bonus_points
from league.rules.model import Tournament
from league.services.access import get_league, get_team, league_ruleset, may_commission
from league.services.errors import DomainError, NotFound, Problem, RuleViolation
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_result
from league.services.tournament import RoundSheet, SheetTable, round_sheet

__all__ = [
    "FIELDS",
    "MAX_ENTRY",
    "RoundEntry",
    "TableResult",
    "enter_round",
    "field_name",
    "round_entry",
    "side_bonus",
]

#: The largest number a field takes (far beyond any match).
MAX_ENTRY = 99
#: The fields of a table, in the order the screen's keyboard visits them.
FIELDS = ("home_td", "home_cas", "away_td", "away_cas")


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result as typed: each side's touchdowns (the score) and casualties."""

    table: int
    home_td: int
    home_cas: int
    away_td: int
    away_cas: int


@dataclass(frozen=True, slots=True)
class RoundEntry:
    league: League
    sheet: RoundSheet
    tournament: Tournament
    #: The league's points for a win, a draw and a loss (when the tournament sets none).
    league_points: tuple[int, int, int]
    #: The casualties each side of a played table caused: (match id, team id) -> count.
    casualties: dict[tuple[int, int], int]


def field_name(table: int, name: str) -> str:
    """A field of the entry screen: ``t3_home_td``."""
    return f"t{table}_{name}"


def round_entry(session: Session, actor: User, league_id: int, number: int) -> RoundEntry:
    """What the organiser's entry screen shows for round ``number`` of the current season."""
    league = get_league(session, league_id, collections=("members", "seasons"))
    may_commission(league, actor, "enter_round").require()
    sheet = round_sheet(session, league, number, with_standings=False)
    if sheet is None:
        raise NotFound(gettext("This season has no round %(number)s.", number=number))
    played = [t.match_id for t in sheet.tables if t.played]
    caused = session.execute(
        select(MatchPlayer.match_id, MatchPlayer.team_id, func.sum(MatchPlayer.cas))
        .where(MatchPlayer.match_id.in_(played))
        .group_by(MatchPlayer.match_id, MatchPlayer.team_id)
    ).tuples()
    return RoundEntry(
        league,
        sheet,
        league_ruleset(league).season.tournament,
        (league.points_win, league.points_draw, league.points_loss),
        {(match_id, team_id): int(cas or 0) for match_id, team_id, cas in caused},
    )


def side_bonus(tournament: Tournament, own: tuple[int, int], other: tuple[int, int]) -> int:
    """The bonus points a side earns with (touchdowns, casualties) against the other's."""
    return bonus_points(
        tournament, SideResult(own[0], False, own[1]), SideResult(other[0], False, other[1])
    )


def _scorer(team: Team) -> int | None:
    """The player whose line carries the side's totals: the lowest-numbered active player."""
    able = [p for p in team.players if p.status == "active" and not p.match_day_only]
    return min(able, key=lambda p: p.number).id if able else None


def _report(
    session: Session, table: SheetTable, result: TableResult
) -> tuple[MatchReport, dict[str, str]] | Problem:
    """The table's result as a match report, and the side of each line (by the report's
    field name of the line, ``player_12``)."""
    lines = []
    sides = {}
    for side, own, td, cas in (
        ("home", table.home, result.home_td, result.home_cas),
        ("away", table.away, result.away_td, result.away_cas),
    ):
        if td == 0 and cas == 0:
            continue
        scorer = _scorer(get_team(session, own.team_id, history=False))
        if scorer is None:
            return Problem(
                field_name(table.table, f"{side}_td"),
                gettext("%(team)s has no active player to credit.", team=own.name),
            )
        lines.append(PlayerEvents(scorer, td=td, cas=cas))
        sides[f"player_{scorer}"] = side
    report = MatchReport(
        SideReport(score=result.home_td), SideReport(score=result.away_td), tuple(lines)
    )
    return report, sides


def _table_problems(table: int, sides: dict[str, str], error: DomainError) -> list[Problem]:
    """A table's refusal, each problem on the screen's field it is about: a side's own
    (``home_score``), or the line carrying a side's totals (``player_12``)."""
    problems = []
    for problem in error.problems:
        side = sides.get(problem.path) or next(
            (s for s in ("home", "away") if problem.path.startswith(s)), "home"
        )
        problems.append(Problem(field_name(table, f"{side}_td"), problem.message))
    return problems


def _check_numbers(results: Sequence[TableResult]) -> list[Problem]:
    problems = []
    for result in results:
        for name in FIELDS:
            value = getattr(result, name)
            if not 0 <= value <= MAX_ENTRY:
                problems.append(
                    Problem(
                        field_name(result.table, name),
                        gettext("Enter a number from 0 to %(max)s.", max=MAX_ENTRY),
                    )
                )
    return problems


def enter_round(
    session: Session, actor: User, league_id: int, number: int, results: Sequence[TableResult]
) -> list[int]:
    """Record each table's result (organiser); the ids of the matches recorded.

    Every table is checked and recorded in the caller's transaction; any refusal raises
    one RuleViolation naming each field at fault, and the caller's unit of work then
    writes nothing at all.
    """
    entry = round_entry(session, actor, league_id, number)
    tables = {t.table: t for t in entry.sheet.tables}
    problems = _check_numbers(results)
    for result in results:
        if result.table not in tables:
            problems.append(
                Problem(
                    "",
                    gettext(
                        "Round %(number)s has no table %(table)s.",
                        number=number,
                        table=result.table,
                    ),
                )
            )
    if problems:
        raise RuleViolation(problems=problems, code="invalid_round_entry")
    recorded = []
    for result in results:
        table = tables[result.table]
        built = _report(session, table, result)
        if isinstance(built, Problem):
            problems.append(built)
            continue
        report, sides = built
        try:
            recorded.append(record_result(session, actor, table.match_id, report).id)
        except DomainError as error:
            problems.extend(_table_problems(result.table, sides, error))
    if problems:
        raise RuleViolation(problems=problems, code="invalid_round_entry")
    return recorded
