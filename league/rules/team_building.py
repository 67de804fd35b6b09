"""Hiring players, buying team items, and the money side of the post-game sequence."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict, Unpack

from league.i18n import N_, gettext
from league.rules.model import (
    Decision,
    Dice,
    ExpensiveMistakes,
    Reason,
    RulesError,
    Ruleset,
    TeamType,
    Winnings,
    make_reason,
)

__all__ = [
    "PURCHASE_ITEMS",
    "PURCHASE_ITEM_NAMES",
    "SHIRT_NUMBERS",
    "MatchIncome",
    "PurchaseQuote",
    "TeamCounts",
    "concession_fans_change",
    "concession_fans_changes",
    "expensive_mistake",
    "expensive_mistake_column",
    "expensive_mistake_loss",
    "fans_change_decision",
    "give_back_decision",
    "hire_decision",
    "purchase_cost",
    "purchase_decision",
    "purchase_item_name",
    "purchase_quote",
    "roll",
    "roll_each",
    "winnings",
    "winnings_terms",
]

#: The shirt numbers a roster hands out (the app's convention, not a rule of the game):
#: the forms, the pages and the services all take them from here.
SHIRT_NUMBERS = range(1, 100)

PURCHASE_ITEMS = ("reroll", "apothecary", "assistant_coach", "cheerleader", "dedicated_fan")
#: Each item's name (English; `purchase_item_name` gives it in the reader's language).
PURCHASE_ITEM_NAMES = {
    # Translators: a team item, as a table row ("Team re-roll") and inside "Buy %(item)s".
    "reroll": N_("team re-roll"),
    # Translators: a team item, as a table row ("Apothecary") and inside "Buy %(item)s".
    "apothecary": N_("apothecary"),
    # Translators: a team item, as a table row ("Assistant coach") and inside "Buy %(item)s".
    "assistant_coach": N_("assistant coach"),
    # Translators: a team item, as a table row ("Cheerleader") and inside "Buy %(item)s".
    "cheerleader": N_("cheerleader"),
    # Translators: a team item, as a table row ("Dedicated fan") and inside "Buy %(item)s".
    "dedicated_fan": N_("dedicated fan"),
}
BIG_GUY_KEYWORD = "Big Guy"


def purchase_item_name(item: str, *, title: bool = False) -> str:
    """ "team re-roll" in the reader's language; ``title``: with a capital first letter,
    as a table row names it ("Team re-roll"). An unknown code reads as is."""
    name = PURCHASE_ITEM_NAMES.get(item)
    text = gettext(name) if name is not None else item.replace("_", " ")
    return text[:1].upper() + text[1:] if title else text


@dataclass(frozen=True, slots=True)
class TeamCounts:
    """What a team holds now (for purchase limits)."""

    rerolls: int = 0
    apothecary: bool = False
    assistant_coaches: int = 0
    cheerleaders: int = 0
    dedicated_fans: int = 0


def purchase_cost(
    ruleset: Ruleset, team_type: TeamType, item: str, during_draft: bool = False
) -> int:
    """Gold one ``item`` costs. Re-rolls cost double after the draft."""
    building = ruleset.team_building
    if item == "reroll":
        multiplier = 1 if during_draft else building.reroll_after_draft_multiplier
        return team_type.reroll_cost * multiplier
    if item == "apothecary":
        return building.apothecary_cost
    if item == "assistant_coach":
        return building.assistant_coaches.cost
    if item == "cheerleader":
        return building.cheerleaders.cost
    if item == "dedicated_fan":
        return building.dedicated_fans.cost
    raise RulesError(f"unknown item {item!r} (known: {', '.join(PURCHASE_ITEMS)})")


def purchase_decision(
    ruleset: Ruleset,
    team_type: TeamType,
    item: str,
    counts: TeamCounts,
    treasury: int | None,
    during_draft: bool = False,
) -> Decision:
    """May the team buy one more ``item``?

    Codes: ``unknown_item``, ``not_allowed`` (no apothecary on this roster),
    ``draft_only`` (Dedicated Fans after the draft), ``limit_reached``,
    ``not_enough_gold``. ``treasury`` None leaves the gold out (the ledger checks it
    when the money moves).
    """
    if item not in PURCHASE_ITEMS:
        return Decision.deny("team_building.unknown_item", item=item)
    building = ruleset.team_building
    reasons: list[Reason] = []
    limits = {
        "reroll": (counts.rerolls, building.max_rerolls),
        "apothecary": (int(counts.apothecary), 1),
        "assistant_coach": (counts.assistant_coaches, building.assistant_coaches.max),
        "cheerleader": (counts.cheerleaders, building.cheerleaders.max),
        "dedicated_fan": (counts.dedicated_fans, building.dedicated_fans.max_at_draft),
    }
    if item == "apothecary" and not team_type.apothecary:
        reasons.append(
            make_reason(
                "team_building.not_allowed",
                item=item,
                team_type=team_type.id,
                team_type_name=team_type.name,
            )
        )
    if item == "dedicated_fan" and not during_draft:
        reasons.append(make_reason("team_building.draft_only", item=item))
    have, maximum = limits[item]
    if maximum is not None and have >= maximum:
        reasons.append(make_reason("team_building.limit_reached", item=item, max=maximum))
    cost = purchase_cost(ruleset, team_type, item, during_draft)
    if treasury is not None and treasury < cost:
        reasons.append(make_reason("team_building.not_enough_gold", needed=cost, have=treasury))
    return Decision.from_reasons(reasons)


@dataclass(frozen=True, slots=True)
class PurchaseQuote:
    """One item as the team could buy it now: its price and whether the rules allow it."""

    item: str
    price: int
    decision: Decision


def purchase_quote(
    ruleset: Ruleset,
    team_type: TeamType,
    item: str,
    counts: TeamCounts,
    treasury: int | None,
    during_draft: bool = False,
) -> PurchaseQuote:
    """`purchase_cost` and `purchase_decision` together, for a known ``item``."""
    return PurchaseQuote(
        item,
        purchase_cost(ruleset, team_type, item, during_draft),
        purchase_decision(ruleset, team_type, item, counts, treasury, during_draft),
    )


def give_back_decision(
    ruleset: Ruleset, item: str, counts: TeamCounts, during_draft: bool
) -> Decision:
    """May the team give one ``item`` back for its full price?

    Only during the draft, and only what was bought: the Dedicated Fans a team
    starts with are not for sale. Codes, first that applies: ``draft_over``,
    ``unknown_item``, ``nothing_to_give_back``.
    """
    if not during_draft:
        return Decision.deny("team_building.draft_over")
    if item not in PURCHASE_ITEMS:
        return Decision.deny("team_building.unknown_item", item=item)
    bought = {
        "reroll": counts.rerolls,
        "apothecary": int(counts.apothecary),
        "assistant_coach": counts.assistant_coaches,
        "cheerleader": counts.cheerleaders,
        "dedicated_fan": counts.dedicated_fans - ruleset.team_building.dedicated_fans.start,
    }
    if bought[item] <= 0:
        return Decision.deny("team_building.nothing_to_give_back", item=item)
    return Decision.allow()


def hire_decision(
    ruleset: Ruleset,
    team_type: TeamType,
    position_id: str,
    counts_by_position: Mapping[str, int],
    treasury: int | None,
) -> Decision:
    """May the team hire one more player of ``position_id``?

    ``counts_by_position`` counts the players now on the roster per position
    id. Codes: ``unknown_position``, ``position_full``, ``roster_full``,
    ``big_guys_full``, ``not_enough_gold``. ``treasury`` None leaves the gold out
    (the ledger checks it when the money moves).
    """
    try:
        position = team_type.position(position_id)
    except RulesError:
        return Decision.deny(
            "team_building.unknown_position",
            position=position_id,
            team_type=team_type.id,
            team_type_name=team_type.name,
        )
    reasons: list[Reason] = []
    have = counts_by_position.get(position_id, 0)
    if have >= position.max:
        reasons.append(
            make_reason(
                "team_building.position_full", position=position.name, max=position.max, have=have
            )
        )
    roster = sum(counts_by_position.values())
    if roster >= ruleset.team_building.max_players:
        reasons.append(
            make_reason("team_building.roster_full", max=ruleset.team_building.max_players)
        )
    if team_type.max_big_guys is not None and BIG_GUY_KEYWORD in position.keywords:
        big_guys = sum(
            count
            for pid, count in counts_by_position.items()
            if any(p.id == pid and BIG_GUY_KEYWORD in p.keywords for p in team_type.positions)
        )
        if big_guys >= team_type.max_big_guys:
            reasons.append(
                make_reason(
                    "team_building.big_guys_full",
                    max=team_type.max_big_guys,
                    team_type_name=team_type.name,
                )
            )
    if treasury is not None and treasury < position.cost:
        reasons.append(
            make_reason("team_building.not_enough_gold", needed=position.cost, have=treasury)
        )
    return Decision.from_reasons(reasons)


def concession_fans_changes(ruleset: Ruleset, fans_before: int) -> tuple[int, ...]:
    """The changes a conceding team's Dedicated Fans may take, one per roll of the
    edition's dice (BB2020/BB2025: -D3), never below the number a team starts with;
    () where the edition takes nothing."""
    fans = ruleset.team_building.dedicated_fans
    dice = fans.concession_loss
    if dice is None:
        return ()
    room = max(0, fans_before - fans.start)
    return tuple(
        sorted({-min(roll, room) for roll in range(dice.lowest, dice.highest + 1)}, reverse=True)
    )


def concession_fans_change(ruleset: Ruleset, fans_before: int, roll: int) -> int:
    """What a conceding team's Dedicated Fans change by on ``roll`` of the edition's dice."""
    fans = ruleset.team_building.dedicated_fans
    dice = fans.concession_loss
    if dice is None:
        return 0
    if not dice.lowest <= roll <= dice.highest:
        raise RulesError(f"{roll!r} is not a roll of {dice.count}D{dice.sides}")
    return -min(roll, max(0, fans_before - fans.start))


def fans_change_decision(
    ruleset: Ruleset,
    change: int,
    fans_before: int,
    *,
    result: str,
    conceded: bool = False,
) -> Decision:
    """May a team's Dedicated Fans move by ``change`` after a match?

    ``result`` is the team's outcome of the match ('won', 'drawn', 'lost': see
    `league.rules.competitions.match_outcome`, by which a conceding team lost). They
    rise by one only after a win and fall by one only after a loss, never past the
    ruleset's maximum nor below the number a team starts with. A team that
    ``conceded`` loses the edition's dice instead (`concession_fans_changes`).
    ``fans_before``: the team's Dedicated Fans before this match. Codes, in order:
    ``fans_step``, ``concession_fans``, ``rise_needs_win``, ``fall_needs_loss``,
    ``fans_at_max``, ``fans_at_start``.
    """
    fans = ruleset.team_building.dedicated_fans
    reasons: list[Reason] = []
    losses = concession_fans_changes(ruleset, fans_before) if conceded else ()
    if losses:
        if change not in losses:
            reasons.append(
                make_reason(
                    "team_building.concession_fans",
                    dice=fans.concession_loss.name if fans.concession_loss else "",
                    start=fans.start,
                    changes=", ".join(str(c) for c in losses),
                )
            )
        return Decision.from_reasons(reasons)
    if change not in (-1, 0, 1):
        reasons.append(make_reason("team_building.fans_step"))
        return Decision.from_reasons(reasons)
    if change > 0 and result != "won":
        reasons.append(make_reason("team_building.rise_needs_win"))
    if change < 0 and result != "lost":
        reasons.append(make_reason("team_building.fall_needs_loss"))
    if fans.max is not None and change > 0 and fans_before >= fans.max:
        reasons.append(make_reason("team_building.fans_at_max", max=fans.max))
    if change < 0 and fans_before <= fans.start:
        reasons.append(make_reason("team_building.fans_at_start", start=fans.start))
    return Decision.from_reasons(reasons)


class MatchIncome(TypedDict, total=False):
    """What a team's winnings are worked out from (left out: 0, None, False)."""

    touchdowns: int
    #: BB2020/BB2025.
    fan_attendance: int | None
    #: BB2025: did a player of the team stall?
    stalled: bool
    #: The team conceded (no winnings), or its opponent did (the edition's concession terms).
    conceded: bool
    opponent_conceded: bool
    #: Classic: the D6, the team's FAME and whether it won.
    d6: int | None
    fame: int
    won: bool


def winnings(
    ruleset: Ruleset,
    **match: Unpack[MatchIncome],
) -> int:
    """Gold a team earns from a match by the ruleset's formula.

    ``fan_attendance`` (BB2020/BB2025): (attendance / 2 + own TDs [+ 1 if no player of
    the team stalled, BB2025]) x 10,000, the half kept: attendance 7 and 2 TD without
    stalling is (3.5 + 2 + 1) x 10,000 = 65,000 (RULES-FACTS 6b, the rulebook's
    example). The team whose opponent conceded takes the whole attendance plus its
    TDs, without the stalling bonus; the team that conceded gets nothing.
    ``d6_fame`` (classic): (D6 + FAME [+ 1 for a win]) x 10,000.
    """
    terms = winnings_terms(ruleset, **match)
    return math.floor(
        sum((units for _, units in terms), Fraction(0)) * _winnings_rule(ruleset).unit
    )


def winnings_terms(
    ruleset: Ruleset,
    **match: Unpack[MatchIncome],
) -> tuple[tuple[str, Fraction], ...]:
    """The formula's terms, (what, units), that `winnings` adds up and multiplies by the unit.

    Terms worth nothing are left out, so the list reads as the working a coach
    would write down: ("fan attendance 7 / 2", 3.5), ("2 TD", 2), ("no stalling", 1).
    """
    if match.get("conceded", False):
        return ()
    touchdowns, fan_attendance = match.get("touchdowns", 0), match.get("fan_attendance")
    d6, fame = match.get("d6"), match.get("fame", 0)
    rule = _winnings_rule(ruleset)
    terms: list[tuple[str, Fraction]]
    if rule.formula == "fan_attendance":
        if fan_attendance is None or fan_attendance < 0:
            raise RulesError("winnings need the fan attendance")
        divisor, bonus = rule.fan_attendance_divisor, rule.no_stalling_bonus
        conceded_to = match.get("opponent_conceded", False)
        if conceded_to and rule.concession_fan_attendance_divisor is not None:
            divisor, bonus = (
                rule.concession_fan_attendance_divisor,
                rule.concession_no_stalling_bonus,
            )
        attendance = f"fan attendance {fan_attendance}"
        terms = [
            (
                f"{attendance} / {divisor}" if divisor > 1 else attendance,
                Fraction(fan_attendance, divisor),
            ),
            (f"{touchdowns} TD", Fraction(touchdowns * rule.per_touchdown)),
        ]
        if not match.get("stalled", False):
            terms.append(("no stalling", Fraction(bonus)))
    else:
        if d6 is None or not 1 <= d6 <= 6:
            raise RulesError("winnings need a D6 roll")
        terms = [(f"D6 {d6}", Fraction(d6)), ("FAME", Fraction(fame))]
        if match.get("won", False):
            terms.append(("win", Fraction(rule.win_bonus)))
    return tuple((what, units) for what, units in terms if units)


def _winnings_rule(ruleset: Ruleset) -> Winnings:
    if ruleset.winnings is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no winnings formula")
    return ruleset.winnings


def expensive_mistake(ruleset: Ruleset, treasury: int, d6: int) -> str:
    """Outcome code for the Expensive Mistakes roll (``crisis_averted`` below the trigger)."""
    table = _mistakes_table(ruleset)
    if not 1 <= d6 <= 6:
        raise RulesError(f"{d6!r} is not a D6 result")
    column = expensive_mistake_column(ruleset, treasury)
    if column is None:
        return "crisis_averted"
    return table.rows[d6 - 1][table.columns.index(column)]


def expensive_mistake_column(ruleset: Ruleset, treasury: int) -> int | None:
    """The treasury column the D6 is read in (its lower bound); None below the trigger."""
    table = _mistakes_table(ruleset)
    if treasury < table.min_treasury:
        return None
    return max(floor for floor in table.columns if treasury >= floor)


def _mistakes_table(ruleset: Ruleset) -> ExpensiveMistakes:
    if ruleset.expensive_mistakes is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no Expensive Mistakes table")
    return ruleset.expensive_mistakes


def roll(dice: Dice | None, randint: Callable[[int, int], int]) -> int:
    """Roll and add up `dice` with `randint` (e.g. `random.randint`); 0 for no dice."""
    return sum(roll_each(dice, randint))


def roll_each(dice: Dice | None, randint: Callable[[int, int], int]) -> tuple[int, ...]:
    """Roll `dice` with `randint`, each die apart (so the result can show them); () for none."""
    if dice is None:
        return ()
    return tuple(randint(1, dice.sides) for _ in range(dice.count))


def expensive_mistake_loss(
    ruleset: Ruleset, outcome: str, treasury: int, dice_total: int = 0
) -> int:
    """Gold lost to an Expensive Mistakes outcome, by the ruleset's table.

    ``minor``: the minor dice x the loss per pip (``dice_total`` = that roll).
    ``major``: the treasury divided by the divisor, the loss rounded down to a
    multiple (RULES-FACTS 6b reads "lose half the Treasury (round down to
    nearest 5,000)"; that the rounding applies to the loss is our reading).
    ``catastrophe``: all but the catastrophe dice x the gold kept per pip.
    """
    table = _mistakes_table(ruleset)
    if outcome == "crisis_averted":
        return 0
    dice = table.dice_for(outcome)
    if dice is not None and not dice.lowest <= dice_total <= dice.highest:
        raise RulesError(
            f"{outcome!r} needs a roll of {dice.lowest}-{dice.highest}, got {dice_total!r}"
        )
    if outcome == "minor":
        return min(treasury, dice_total * table.minor_loss_per_pip)
    if outcome == "major":
        share = treasury // table.major_divisor
        return share // table.major_round_down_to * table.major_round_down_to
    if outcome == "catastrophe":
        return max(0, treasury - dice_total * table.catastrophe_kept_per_pip)
    raise RulesError(f"unknown Expensive Mistakes outcome {outcome!r}")
