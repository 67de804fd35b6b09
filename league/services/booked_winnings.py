"""Winnings booked by an earlier formula, and booking the difference (`flask recompute winnings`).

A match's winnings are worked out when its result is recorded and stay as booked: a
league with history keeps them when the formula is corrected (the half of an odd
attendance kept, a concession paying the whole attendance) until its commissioner
applies the corrected ones. `winnings_corrections` lists which treasuries change and
by how much; `apply_winnings_corrections` stores the corrected winnings and books each
difference as a ledger row, so a second run finds nothing left to book.

Typed winnings stand as typed, and the Expensive Mistakes rolled on the treasury of
the day stay as they were rolled.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import N_
from league.models import Match, MatchTeam
from league.services import audit
from league.services.access import get_team, league_ruleset
from league.services.match_winnings import formula_winnings
from league.services.teams import post_entry, unless_spent


@dataclass(frozen=True, slots=True)
class WinningsCorrection:
    """One side of a played match whose booked winnings differ from the formula's."""

    league_id: int
    match_id: int
    team_id: int
    team_name: str
    booked: int
    corrected: int

    @property
    def difference(self) -> int:
        return self.corrected - self.booked

    def __str__(self) -> str:
        return (
            f"{self.team_name} (team #{self.team_id}), match #{self.match_id}: "
            f"booked {self.booked:,}, the rules give {self.corrected:,} "
            f"({self.difference:+,})"
        )


def _played(session: Session, league_id: int | None) -> list[Match]:
    query = (
        select(Match)
        .where(Match.state == "played")
        .order_by(Match.id)
        .options(
            selectinload(Match.sides).selectinload(MatchTeam.team),
            selectinload(Match.league),
        )
    )
    if league_id is not None:
        query = query.where(Match.league_id == league_id)
    return list(session.scalars(query))


def _corrections(session: Session, league_id: int | None) -> list[tuple[MatchTeam, int]]:
    found = []
    for match in _played(session, league_id):
        ruleset = league_ruleset(match.league)
        for side in match.sides:
            if side.winnings_entered:
                continue  # typed by hand: they stand
            corrected = formula_winnings(ruleset, match, side)
            if corrected != side.winnings:
                found.append((side, corrected))
    return found


def winnings_corrections(
    session: Session, league_id: int | None = None
) -> list[WinningsCorrection]:
    """Every played match side (of one league, or all) whose booked winnings the
    current formula would change, in match order."""
    return [_correction(side, corrected) for side, corrected in _corrections(session, league_id)]


def _correction(side: MatchTeam, corrected: int) -> WinningsCorrection:
    return WinningsCorrection(
        side.match.league_id,
        side.match_id,
        side.team_id,
        side.team.name,
        side.winnings,
        corrected,
    )


def apply_winnings_corrections(
    session: Session, league_id: int | None = None
) -> list[WinningsCorrection]:
    """Store the corrected winnings and book each difference on the team's ledger.

    All or nothing: a treasury that cannot pay back winnings it was overpaid refuses
    the whole run (Conflict), and nothing is booked.
    """
    applied = []
    for side, corrected in _corrections(session, league_id):
        change = _correction(side, corrected)
        team = get_team(session, side.team_id, for_update=True, history=False)
        with unless_spent(
            "winnings_spent",
            N_("%(team)s cannot give back winnings it was overpaid: %(reason)s"),
            team=team.name,
        ):
            post_entry(
                session,
                team,
                None,
                change.difference,
                "correction",
                f"Winnings corrected, match #{side.match_id}",
                match_id=side.match_id,
            )
        side.winnings = corrected
        audit.record(
            session,
            None,
            "match.winnings_corrected",
            "match",
            side.match_id,
            team=side.team_id,
            booked=change.booked,
            corrected=corrected,
        )
        applied.append(change)
    session.flush()
    return applied
