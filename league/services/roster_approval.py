"""Tournament day: coaches submit their rosters, the organiser approves them or sends them back.

A roster is ``open`` until its coach submits it (or the event's roster deadline passes: it
then counts as submitted as it stands). The organiser (a commissioner) sees each roster
with its matched-play check, approves it (it is then locked: `access.may_change_roster`
refuses every change, the organiser's too, until the organiser unlocks it) or sends it
back with a note the coach reads on the team page. The first round is paired only when
every active team's roster is approved, unless the organiser starts anyway
(`league.services.tournament.pair_next_round`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import gettext
from league.models import League, Player, Team, User
from league.models.types import utcnow
from league.services import audit
from league.services.access import (
    aware,
    corrections_closed,
    get_team,
    may_commission,
    may_manage_team,
)
from league.services.errors import Conflict, RuleViolation
from league.services.matched_play import RosterProblem, matched_play_settings, roster_problems

__all__ = [
    "MAX_NOTE",
    "RosterApproval",
    "RosterRow",
    "approval_of",
    "event_rosters",
    "review_roster",
    "submit_roster",
    "unapproved_teams",
    "uses_approval",
]

#: The longest note the organiser may leave (the column's width).
MAX_NOTE = 500


@dataclass(frozen=True, slots=True)
class RosterApproval:
    """Where a team's roster stands for the event."""

    #: "open", "submitted", "approved" or "returned"; an open roster counts as submitted
    #: once the roster deadline has passed.
    state: str
    note: str | None
    changed_at: datetime | None
    #: Approved: nobody changes it until the organiser unlocks it.
    locked: bool
    #: The correction deadline has passed: only the organiser changes it.
    corrections_closed: bool


def uses_approval(league: League) -> bool:
    """Does the league's event collect rosters (a roster or correction deadline is set)?"""
    return league.roster_deadline is not None or league.correction_deadline is not None


def approval_of(team: Team, now: datetime | None = None) -> RosterApproval:
    now = now or utcnow()
    state = team.roster_state
    deadline = aware(team.league.roster_deadline)
    if state == "open" and deadline is not None and now >= deadline:
        state = "submitted"  # the deadline passed: the roster counts as it stands
    return RosterApproval(
        state,
        team.roster_note,
        aware(team.roster_state_at),
        state == "approved",
        corrections_closed(team.league, now),
    )


def submit_roster(session: Session, actor: User, team_id: int) -> Team:
    """The coach (or a commissioner) submits the roster for the organiser's approval."""
    team = get_team(session, team_id, for_update=True, history=False)
    may_manage_team(team, actor, "any", session).require()
    if team.roster_state == "approved":
        raise Conflict(
            gettext("The roster of %(team)s is already approved.", team=team.name),
            code="roster_locked",
        )
    team.roster_state = "submitted"
    team.roster_note = None
    team.roster_state_at = utcnow()
    audit.record(session, actor, "team.roster_submit", "team", team.id)
    return team


def review_roster(
    session: Session, actor: User, team_id: int, *, approved: bool, note: str | None = None
) -> Team:
    """The organiser approves the roster (locking it), or not: with a note it goes back
    to the coach, who reads the note; without one it is unlocked and stays submitted."""
    team = get_team(session, team_id, for_update=True, history=False)
    may_commission(team.league, actor, "approve_rosters", session).require()
    note = (note or "").strip() or None
    if note is not None and len(note) > MAX_NOTE:
        raise RuleViolation(
            gettext("A note is at most %(max)s characters.", max=MAX_NOTE),
            code="note_too_long",
            field="note",
        )
    if approved:
        team.roster_state = "approved"
    else:
        team.roster_state = "returned" if note is not None else "submitted"
    team.roster_note = note
    team.roster_state_at = utcnow()
    audit.record(session, actor, "team.roster_review", "team", team.id, state=team.roster_state)
    return team


@dataclass(frozen=True, slots=True)
class RosterRow:
    team: Team
    approval: RosterApproval
    #: The matched-play check's findings; None: the league does not check rosters.
    problems: tuple[RosterProblem, ...] | None


def event_rosters(session: Session, league: League) -> list[RosterRow]:
    """Every active team's roster with its approval and matched-play check (the organiser's
    page): the teams, their players and advancements in three queries."""
    teams = session.scalars(
        select(Team)
        .where(Team.league_id == league.id, Team.status == "active")
        .order_by(Team.name, Team.id)
        .options(selectinload(Team.players).selectinload(Player.advancements))
    ).all()
    settings = matched_play_settings(league)
    now = utcnow()
    return [
        RosterRow(
            team,
            approval_of(team, now),
            roster_problems(team, settings) if settings is not None else None,
        )
        for team in teams
    ]


def unapproved_teams(league: League) -> list[Team]:
    """The league's active teams whose roster is not approved (by name)."""
    return sorted(
        (t for t in league.teams if t.status == "active" and t.roster_state != "approved"),
        key=lambda t: (t.name.lower(), t.id),
    )
