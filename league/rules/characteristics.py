"""Characteristic arithmetic that works for both stat styles.

``target`` rulesets (BB2020, BB2025) store AG, PA and AV as target numbers:
a better AG or PA is a *lower* number (3+ -> 2+), a better AV a higher one
(9+ -> 10+). ``value`` rulesets (classic) store plain values: better is
always higher. Improvements and reductions go one step at a time.
"""

from __future__ import annotations

from collections.abc import Mapping

from league.i18n import pgettext
from league.rules.model import RulesError, Ruleset

__all__ = [
    "current_characteristics",
    "improved_value",
    "is_at_best",
    "is_at_worst",
    "lower_is_better",
    "reduced_value",
    "stat_label",
]


def stat_label(characteristic: str) -> str:
    """The abbreviation a roster prints for ``characteristic`` ("ma" -> "MA"), in the
    reader's language: the one place the column headers of the tables, the rules browser,
    the advancement pages and the PDF sheet come from."""
    labels = {
        # Translators: abbreviation of Movement Allowance, a roster's column header.
        "ma": pgettext("characteristic", "MA"),
        # Translators: abbreviation of Strength, a roster's column header.
        "st": pgettext("characteristic", "ST"),
        # Translators: abbreviation of Agility, a roster's column header.
        "ag": pgettext("characteristic", "AG"),
        # Translators: abbreviation of Passing Ability, a roster's column header.
        "pa": pgettext("characteristic", "PA"),
        # Translators: abbreviation of Armour Value, a roster's column header.
        "av": pgettext("characteristic", "AV"),
    }
    return labels.get(characteristic, characteristic.upper())


def _check(ruleset: Ruleset, characteristic: str) -> None:
    if characteristic not in ruleset.characteristics:
        raise RulesError(
            f"unknown characteristic {characteristic!r} "
            f"(ruleset {ruleset.id!r} has {', '.join(ruleset.characteristics)})"
        )


def lower_is_better(ruleset: Ruleset, characteristic: str) -> bool:
    """True for target-number AG and PA (2+ beats 3+)."""
    _check(ruleset, characteristic)
    return ruleset.stat_style == "target" and characteristic in ("ag", "pa")


def _step(ruleset: Ruleset, characteristic: str) -> int:
    """+1 or -1: the direction of one improvement."""
    return -1 if lower_is_better(ruleset, characteristic) else 1


def is_at_best(ruleset: Ruleset, characteristic: str, value: int | None) -> bool:
    """The value cannot improve further (the ruleset's absolute cap)."""
    if value is None:
        return False
    best = ruleset.limits.best[characteristic]
    return value <= best if lower_is_better(ruleset, characteristic) else value >= best


def is_at_worst(ruleset: Ruleset, characteristic: str, value: int | None) -> bool:
    """The value cannot be reduced further (None: the player has no such stat)."""
    if value is None:
        return True
    worst = ruleset.limits.worst[characteristic]
    return value >= worst if lower_is_better(ruleset, characteristic) else value <= worst


def improved_value(ruleset: Ruleset, characteristic: str, value: int | None) -> int:
    """The value after one improvement (a missing PA becomes ``pa_from_none``)."""
    _check(ruleset, characteristic)
    if value is None:
        if ruleset.limits.pa_from_none is None:
            raise RulesError(f"{characteristic} has no value to improve")
        return ruleset.limits.pa_from_none
    return value + _step(ruleset, characteristic)


def reduced_value(
    ruleset: Ruleset,
    characteristic: str,
    value: int | None,
    start: int | None = None,
) -> int | None:
    """The value after one reduction, or None when it may not be reduced.

    Reductions stop at the ruleset's worst value and, where the ruleset
    limits it (classic), ``max_decrease_from_start`` below ``start``.
    """
    _check(ruleset, characteristic)
    if value is None or is_at_worst(ruleset, characteristic, value):
        return None
    new = value - _step(ruleset, characteristic)
    limit = ruleset.limits.max_decrease_from_start
    if limit is not None and start is not None:
        worse_by = (new - start) * -_step(ruleset, characteristic)
        if worse_by > limit:
            return None
    return new


def current_characteristics(
    ruleset: Ruleset,
    start: Mapping[str, int | None],
    improvements: Mapping[str, int],
    reductions: Mapping[str, int],
) -> dict[str, int | None]:
    """Today's characteristics: the position's ``start`` values, improved
    ``improvements[c]`` times, then reduced ``reductions[c]`` times by lasting
    injuries (each reduction limited as :func:`reduced_value` says, counting
    from the improved value)."""
    stats = dict(start)
    for characteristic, times in improvements.items():
        for _ in range(times):
            stats[characteristic] = improved_value(ruleset, characteristic, stats[characteristic])
    for characteristic in ruleset.characteristics:
        base = stats[characteristic]
        for _ in range(reductions.get(characteristic, 0)):
            reduced = reduced_value(ruleset, characteristic, stats[characteristic], base)
            if reduced is None:
                break
            stats[characteristic] = reduced
    return stats
