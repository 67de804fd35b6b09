"""Characteristic improvements: whether a characteristic may improve once more (its
caps), and what a roll on the characteristic table (spend mode) or a 2D6 improvement
roll (roll mode, classic) allows.

Reason codes: ``unknown_characteristic`` ``max_improvements`` ``at_maximum``
``max_increase_from_start``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from league.i18n import gettext
from league.rules.base import RulesError, check_die
from league.rules.characteristics import improved_value, is_at_best, lower_is_better
from league.rules.model import Decision, Reason, Ruleset, make_reason

__all__ = [
    "CharacteristicOptions",
    "characteristic_decision",
    "characteristic_options",
    "improvement_roll_options",
]


def characteristic_decision(
    ruleset: Ruleset,
    characteristic: str,
    improvements: Mapping[str, int],
    current: Mapping[str, int | None],
    start: Mapping[str, int | None] | None = None,
) -> Decision:
    """May this characteristic improve once more (caps only, not the roll)?

    ``improvements`` counts improvements taken per characteristic; ``current``
    holds today's values; ``start`` the position's starting values (needed
    where the ruleset caps the increase over the start, i.e. classic).
    """
    if characteristic not in ruleset.characteristics:
        return Decision.deny("advancement.unknown_characteristic", characteristic=characteristic)
    limits = ruleset.limits
    reasons: list[Reason] = []
    taken = improvements.get(characteristic, 0)
    if limits.max_improvements is not None and taken >= limits.max_improvements:
        reasons.append(
            make_reason(
                "advancement.max_improvements",
                characteristic=characteristic,
                max=limits.max_improvements,
            )
        )
    value = current.get(characteristic)
    if is_at_best(ruleset, characteristic, value):
        reasons.append(
            make_reason(
                "advancement.at_maximum",
                characteristic=characteristic,
                maximum=limits.best[characteristic],
            )
        )
    elif limits.max_increase_from_start is not None:
        if start is None or start.get(characteristic) is None:
            raise RulesError(f"ruleset {ruleset.id!r} needs the starting value of {characteristic}")
        start_value = start[characteristic]
        assert start_value is not None  # noqa: S101 - checked just above
        new = improved_value(ruleset, characteristic, value)
        sign = -1 if lower_is_better(ruleset, characteristic) else 1
        if (new - start_value) * sign > limits.max_increase_from_start:
            reasons.append(
                make_reason(
                    "advancement.max_increase_from_start",
                    characteristic=characteristic,
                    limit=limits.max_increase_from_start,
                )
            )
    return Decision.from_reasons(reasons)


@dataclass(frozen=True, slots=True)
class CharacteristicOptions:
    """What a characteristic roll allows."""

    roll: int
    #: Characteristics the table row names.
    offered: tuple[str, ...]
    #: Those the player may actually improve (caps applied).
    characteristics: tuple[str, ...]
    #: Offered but capped, with the reason.
    refused: tuple[tuple[str, Decision], ...]
    #: Skill kinds the coach may take instead.
    skill_kinds: tuple[str, ...]
    #: Roll mode: the two dice were a double.
    doubles: bool = False


def _options(
    ruleset: Ruleset,
    roll: int,
    offered: tuple[str, ...],
    improvements: Mapping[str, int],
    current: Mapping[str, int | None],
    start: Mapping[str, int | None] | None,
    skill_kinds: tuple[str, ...],
    doubles: bool = False,
) -> CharacteristicOptions:
    allowed: list[str] = []
    refused: list[tuple[str, Decision]] = []
    for char in offered:
        decision = characteristic_decision(ruleset, char, improvements, current, start)
        if decision.allowed:
            allowed.append(char)
        else:
            refused.append((char, decision))
    return CharacteristicOptions(
        roll, offered, tuple(allowed), tuple(refused), skill_kinds, doubles
    )


def characteristic_options(
    ruleset: Ruleset,
    roll: int,
    improvements: Mapping[str, int],
    current: Mapping[str, int | None],
    start: Mapping[str, int | None] | None = None,
) -> CharacteristicOptions:
    """Spend mode: what a roll on the characteristic table (D16 / D8) allows."""
    table = ruleset.characteristic_table
    if table is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no characteristic table")
    check_die(roll, table.die, gettext("D%(sides)s roll", sides=table.die))
    band = next(b for b in table.bands if b.covers(roll))
    return _options(
        ruleset, roll, band.characteristics, improvements, current, start, table.fallback
    )


def improvement_roll_options(
    ruleset: Ruleset,
    d6_first: int,
    d6_second: int,
    improvements: Mapping[str, int],
    current: Mapping[str, int | None],
    start: Mapping[str, int | None] | None = None,
) -> CharacteristicOptions:
    """Roll mode (classic): what a 2D6 improvement roll allows.

    Every result may take a normal skill instead; a double also opens the
    doubles categories (``skill_kinds`` then holds both kinds).
    """
    roll_table = ruleset.improvement_roll
    if roll_table is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no 2D6 improvement roll")
    check_die(d6_first, 6, gettext("first die"))
    check_die(d6_second, 6, gettext("second die"))
    total = d6_first + d6_second
    doubles = d6_first == d6_second
    band = next(b for b in roll_table.bands if b.covers(total))
    kinds: tuple[str, ...] = (roll_table.skill_kind,)
    if doubles and roll_table.doubles_kind is not None:
        kinds = (*kinds, roll_table.doubles_kind)
    return _options(
        ruleset, total, band.characteristics, improvements, current, start, kinds, doubles
    )
