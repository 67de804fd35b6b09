"""A match's winnings by the edition's formula, from a stored side, and the formula's
terms behind them (what the match page shows as the working)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from league.models import Match, MatchTeam
from league.rules import Ruleset, winnings, winnings_terms
from league.services.standings import match_outcomes


def formula_winnings(ruleset: Ruleset, match: Match, side: MatchTeam) -> int:
    """The edition's formula on a stored side: 0 for a team that conceded, where the
    winnings were typed, or where the formula's inputs were left out."""
    inputs = _formula_inputs(ruleset, match, side)
    return 0 if inputs is None else winnings(ruleset, **inputs)


def winnings_working(
    ruleset: Ruleset, match: Match, side: MatchTeam
) -> tuple[tuple[str, Fraction], ...]:
    """The formula's terms behind a side's stored winnings (empty: no formula applied)."""
    inputs = _formula_inputs(ruleset, match, side)
    return () if inputs is None else winnings_terms(ruleset, **inputs)


def _formula_inputs(ruleset: Ruleset, match: Match, side: MatchTeam) -> dict[str, Any] | None:
    """What the winnings formula takes, from the stored side; None when it does not apply.

    It does not when the team conceded, the winnings were typed, the ruleset
    has no formula, or its inputs (attendance, the classic D6) were left out.
    """
    formula = ruleset.winnings
    if formula is None or side.conceded or side.winnings_entered:
        return None
    if formula.formula == "fan_attendance" and match.fan_attendance is None:
        return None
    if formula.formula != "fan_attendance" and side.winnings_d6 is None:
        return None
    result = match_outcomes(match.league, match)[side.side]
    return {
        "touchdowns": side.score,
        "fan_attendance": match.fan_attendance,
        "stalled": side.stalled,
        "conceded": result.conceded,
        "opponent_conceded": result.opponent_conceded,
        "d6": side.winnings_d6,
        "fame": side.fame,
        "won": result.won,
    }
