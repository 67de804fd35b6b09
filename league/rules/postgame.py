"""After the game: keeping a journeyman, drawing the MVP, a conceding team's departures.

The MVP draw and the departures follow ``[spp]`` of the ruleset (BB2025: six
nominees and a D6; players with three or more advancements leave a conceding
team on a 1-3); editions without those keys have neither.

Keeping a journeyman follows the edition's ``match_day.toml``.

``[journeymen.hire]`` says what he costs (``price``: the position's hiring fee,
or his current value: the fee plus the value of what he gained), whether the
roster must have room for him (``needs_room``), and that he loses the
journeyman's trait and keeps his SPP. Refusals are reasons that
:func:`league.rules.refusals.refusal_text` words.
"""

from __future__ import annotations

from dataclasses import dataclass

from league.rules.match_day import journeyman_hire_price, match_day_rules
from league.rules.model import Decision, Position, Reason, Ruleset, make_reason

__all__ = [
    "JourneymanHireTerms",
    "journeyman_hire_terms",
    "leaves_on_concession",
    "mvp_draw_decision",
    "mvp_nominees_needed",
    "rolls_to_leave",
]


@dataclass(frozen=True, slots=True)
class JourneymanHireTerms:
    """What keeping one journeyman costs, and whether the team may."""

    price: int
    #: The player loses the journeyman's trait (Loner) once hired.
    loses_trait: bool
    keeps_spp: bool
    decision: Decision


def journeyman_hire_terms(
    ruleset: Ruleset,
    position: Position,
    *,
    value: int,
    cost: int,
    treasury: int,
    roster_size: int,
) -> JourneymanHireTerms:
    """Price and verdict for hiring a journeyman of ``position`` worth ``value``.

    ``cost`` is the fee he was valued at when taken on, so ``value - cost`` is
    what he gained since; ``roster_size`` counts the roster without him.
    """
    hire = match_day_rules(ruleset).journeymen.hire
    price = journeyman_hire_price(ruleset, position, max(0, value - cost))
    reasons: list[Reason] = []
    most = ruleset.team_building.max_players
    if hire.needs_room and roster_size >= most:
        reasons.append(make_reason("postgame.roster_full", max=most))
    if price > treasury:
        reasons.append(make_reason("postgame.not_enough_gold", needed=price, have=treasury))
    return JourneymanHireTerms(
        price=price,
        loses_trait=hire.loses_trait,
        keeps_spp=hire.keeps_spp,
        decision=Decision.from_reasons(reasons),
    )


# ---------------------------------------------------------------------------
# The MVP drawn among nominees (BB2025)


def mvp_nominees_needed(ruleset: Ruleset, eligible: int) -> int:
    """How many players the coach nominates: the edition's number, or all when fewer."""
    return min(ruleset.spp.mvp_nominees, eligible)


def mvp_draw_decision(ruleset: Ruleset, nominated: int, eligible: int, die: int | None) -> Decision:
    """May an MVP be drawn from ``nominated`` players (``die``: a table roll, 1 to 6)?

    The die names the nominee in that place; a roll above the number of nominees
    names nobody and is rolled again, so a table roll must name one.
    """
    reasons: list[Reason] = []
    if ruleset.spp.mvp_nominees == 0:
        reasons.append(make_reason("postgame.no_mvp_draw", ruleset=ruleset.name))
        return Decision.from_reasons(reasons)
    needed = mvp_nominees_needed(ruleset, eligible)
    if nominated != needed:
        reasons.append(make_reason("postgame.mvp_nominees", needed=needed, count=nominated))
    elif die is not None and not 1 <= die <= nominated:
        reasons.append(make_reason("postgame.mvp_die", count=nominated, die=die))
    return Decision.from_reasons(reasons)


# ---------------------------------------------------------------------------
# A conceding team's departures (BB2025)


def rolls_to_leave(ruleset: Ruleset, advancements: int) -> bool:
    """Does a player of a conceding team with ``advancements`` roll to leave?"""
    least = ruleset.spp.concession_departure_advancements
    return least > 0 and advancements >= least


def leaves_on_concession(ruleset: Ruleset, advancements: int, d6: int) -> bool:
    """Does he leave on this D6?"""
    return rolls_to_leave(ruleset, advancements) and d6 <= ruleset.spp.concession_departure_on
