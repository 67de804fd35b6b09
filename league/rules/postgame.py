"""After the game: keeping a journeyman, as the edition's ``match_day.toml`` prices it.

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

__all__ = ["JourneymanHireTerms", "journeyman_hire_terms"]


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
        reasons.append(make_reason("roster_full", max=most))
    if price > treasury:
        reasons.append(make_reason("not_enough_gold", needed=price, have=treasury))
    return JourneymanHireTerms(
        price=price,
        loses_trait=hire.loses_trait,
        keeps_spp=hire.keeps_spp,
        decision=Decision.from_reasons(reasons),
    )
