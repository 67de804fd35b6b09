"""Divisions: a league's teams split into named groups.

A division is a name on the team (``Team.division``). Fixtures are generated
inside each division (``fixtures.generate_fixtures``), the standings are shown
for each division and for the whole league, and the playoffs seed from them
where the edition shares places out between divisions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import League, Team, User
from league.rules.model import BonusRule
from league.services import audit
from league.services.access import get_league, require_commissioner
from league.services.errors import Problem, RuleViolation
from league.services.standings import StandingRow, Standings
from league.services.text import is_one_line

MAX_NAME = 40


def clean_name(name: str | None) -> str | None:
    """A division name as stored: spaces trimmed and collapsed; empty means none."""
    cleaned = " ".join((name or "").split())
    return cleaned or None


def division_names(league: League) -> tuple[str, ...]:
    """The league's divisions, by name."""
    return tuple(sorted({t.division for t in league.teams if t.division}))


def assign_divisions(
    session: Session, actor: User, league_id: int, assignments: Mapping[int, str | None]
) -> League:
    """Place teams in divisions ({team id: name, or None for no division}; commissioner).

    Teams not named keep their division. A team of another league or a name
    that is too long is refused, and nothing changes.
    """
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    teams = {team.id: team for team in league.teams}
    problems: list[Problem] = []
    cleaned: dict[int, str | None] = {}
    for team_id, name in assignments.items():
        field = f"team_{team_id}"
        if team_id not in teams:
            problems.append(
                Problem(
                    field,
                    gettext(
                        "%(league)s has no team number %(id)s.", league=league.name, id=team_id
                    ),
                )
            )
            continue
        value = clean_name(name)
        if value is not None and ("\x00" in value or not is_one_line(value)):
            problems.append(
                Problem(
                    field,
                    gettext(
                        "A division's name is one line of text, without line breaks or "
                        "text-direction controls."
                    ),
                )
            )
            continue
        if value is not None and len(value) > MAX_NAME:
            problems.append(
                Problem(
                    field,
                    gettext("A division's name is at most %(max)s characters.", max=MAX_NAME),
                )
            )
            continue
        cleaned[team_id] = value
    if problems:
        raise RuleViolation(
            problems[0].message, field=problems[0].path, problems=problems, code="invalid_division"
        )
    changed = {
        team_id: value for team_id, value in cleaned.items() if teams[team_id].division != value
    }
    for team_id, value in changed.items():
        teams[team_id].division = value
    if changed:
        audit.record(
            session,
            actor,
            "league.divisions",
            "league",
            league.id,
            teams={str(k): v for k, v in sorted(changed.items())},
        )
    return league


def groups(teams: Sequence[Team]) -> list[list[Team]]:
    """Teams grouped by division (by name; teams without one form a group of their own)."""
    by_name: dict[str, list[Team]] = {}
    for team in teams:
        by_name.setdefault(team.division or "", []).append(team)
    return [by_name[name] for name in sorted(by_name)]


@dataclass(frozen=True, slots=True)
class DivisionTable:
    #: None: the teams without a division.
    name: str | None
    rows: tuple[StandingRow, ...]
    #: What the table's caption names (the season, as the league table's does).
    season_name: str = ""
    #: The league table's bonus rules (a bonus-points column when there are some).
    bonus_rules: tuple[BonusRule, ...] = ()


def division_tables(league: League, table: Standings) -> tuple[DivisionTable, ...]:
    """Each division's part of the league table, in the league's order, places renumbered
    (empty when the league has no divisions)."""
    division = {team.id: team.division for team in league.teams}
    names = division_names(league)
    if not names:
        return ()
    tables = []
    for name in (*names, None):
        rows = [row for row in table.rows if division.get(row.team_id) == name]
        if rows:
            tables.append(
                DivisionTable(
                    name,
                    tuple(replace(row, position=place) for place, row in enumerate(rows, start=1)),
                    table.season_name,
                    table.bonus_rules,
                )
            )
    return tuple(tables)
