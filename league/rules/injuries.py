"""Casualty outcomes and what they do to a player."""

from __future__ import annotations

from collections.abc import Mapping

from league.rules.characteristics import reduced_value
from league.rules.model import (
    CasualtyResult,
    Decision,
    InjuryEffect,
    LastingInjury,
    RulesError,
    Ruleset,
)

__all__ = [
    "casualty_outcome",
    "casualty_result_for_code",
    "injury_effect",
    "injury_entry_decision",
    "lasting_characteristics",
    "lasting_injury",
    "lasting_injury_result",
]

_DIE_VALUES = {
    "d16": tuple(range(1, 17)),
    "d68": tuple(10 * t + u for t in range(1, 7) for u in range(1, 9)),
}


def casualty_outcome(ruleset: Ruleset, roll: int, niggling_injuries: int = 0) -> CasualtyResult:
    """The casualty-table result for a die roll.

    ``roll`` is the natural result (D16: 1-16; classic D68: 11-68 with a unit
    digit 1-8). Where the ruleset adds a modifier per Niggling Injury
    (BB2020), ``niggling_injuries`` raises the roll; anything past the table
    is its last row (Dead).
    """
    table = ruleset.casualty_table
    valid = _DIE_VALUES[table.die]
    if isinstance(roll, bool) or not isinstance(roll, int) or roll not in valid:
        raise RulesError(f"{roll!r} is not a {table.die.upper()} result")
    if niggling_injuries < 0:
        raise RulesError(f"niggling injuries cannot be negative ({niggling_injuries})")
    modified = min(roll + niggling_injuries * table.niggling_modifier, valid[-1])
    return next(result for result in table.results if result.covers(modified))


def casualty_result_for_code(ruleset: Ruleset, code: str) -> CasualtyResult:
    """The first casualty result with an API injury ``code`` (e.g. ``"dead"``)."""
    for result in ruleset.casualty_table.results:
        if result.code == code:
            return result
    known = sorted({r.code for r in ruleset.casualty_table.results})
    raise RulesError(f"unknown injury {code!r} (known: {', '.join(known)})")


def lasting_characteristics(ruleset: Ruleset, injury_code: str) -> tuple[str, ...]:
    """Characteristics a lasting injury may reduce: classic rows fix one each, D6 tables any."""
    fixed = tuple(
        r.characteristic
        for r in ruleset.casualty_table.results
        if r.code == injury_code and r.characteristic
    )
    return fixed or ruleset.characteristics


def injury_entry_decision(ruleset: Ruleset, injury: str | None, lasting: str | None) -> Decision:
    """May a match report give a player this casualty result and lasting characteristic?

    Only a lasting injury reduces a characteristic, and it must say which one the
    table allows (`lasting_characteristics`). Codes: ``lasting_without_injury``,
    ``unknown_injury``, ``lasting_characteristic_needed``, ``not_lasting``.
    """
    if injury is None:
        if lasting is not None:
            return Decision.deny("injuries.lasting_without_injury")
        return Decision.allow()
    try:
        result = casualty_result_for_code(ruleset, injury)
    except RulesError:
        return Decision.deny("injuries.unknown_injury", injury=injury)
    if result.effect == "lasting":
        if lasting not in lasting_characteristics(ruleset, injury):
            return Decision.deny("injuries.lasting_characteristic_needed", injury=injury)
    elif lasting is not None:
        return Decision.deny("injuries.not_lasting", injury=injury)
    return Decision.allow()


def lasting_injury_result(ruleset: Ruleset, d6: int) -> LastingInjury:
    """The lasting-injury D6 row (name and characteristic)."""
    if not ruleset.lasting_injuries:
        raise RulesError(f"ruleset {ruleset.id!r} has no lasting-injury D6 table")
    if isinstance(d6, bool) or not isinstance(d6, int) or not 1 <= d6 <= 6:
        raise RulesError(f"{d6!r} is not a D6 result")
    return next(row for row in ruleset.lasting_injuries if row.min <= d6 <= row.max)


def lasting_injury(ruleset: Ruleset, d6: int) -> str:
    """The characteristic a lasting-injury D6 reduces (``"av"``, ``"ma"``, ...)."""
    return lasting_injury_result(ruleset, d6).characteristic


def injury_effect(
    ruleset: Ruleset,
    result: CasualtyResult,
    current: Mapping[str, int | None] | None = None,
    lasting_characteristic: str | None = None,
    start: Mapping[str, int | None] | None = None,
) -> InjuryEffect:
    """What ``result`` does to a player.

    - badly_hurt: nothing after the game.
    - mng: misses the next game.
    - niggling: one more Niggling Injury, misses the next game.
    - lasting: one characteristic drops by one step (never past the worst
      value; where that is impossible only the missed game remains),
      misses the next game. The characteristic is the result's own
      (classic) or ``lasting_characteristic`` (from the D6 table).
      ``current`` holds the player's values (needed for a lasting effect);
      ``start`` the starting values where the ruleset limits reductions
      below the start (classic).
    - dead: the player is dead.
    """
    if result.effect == "dead":
        return InjuryEffect(result, miss_next_game=False, dead=True)
    if result.effect == "badly_hurt":
        return InjuryEffect(result, miss_next_game=False)
    if result.effect == "mng":
        return InjuryEffect(result, miss_next_game=True)
    if result.effect == "niggling":
        return InjuryEffect(result, miss_next_game=True, niggling_injuries=1)
    characteristic = result.characteristic or lasting_characteristic
    if characteristic is None:
        raise RulesError(f"{result.name} needs the characteristic from the lasting-injury roll")
    if result.characteristic is not None and lasting_characteristic not in (None, characteristic):
        raise RulesError(f"{result.name} always reduces {result.characteristic}")
    if characteristic not in ruleset.characteristics:
        raise RulesError(f"ruleset {ruleset.id!r} has no characteristic {characteristic!r}")
    if current is None:
        raise RulesError("a lasting injury needs the player's current characteristics")
    start_value = start.get(characteristic) if start is not None else None
    new_value = reduced_value(ruleset, characteristic, current.get(characteristic), start_value)
    if new_value is None:
        return InjuryEffect(
            result, miss_next_game=True, characteristic=None, reduction_blocked=True
        )
    return InjuryEffect(
        result, miss_next_game=True, characteristic=characteristic, new_value=new_value
    )
