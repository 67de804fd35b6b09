"""Characteristic tables, caps and arithmetic (RULES-FACTS §3)."""

from __future__ import annotations

import pytest

from league.rules import (
    RulesError,
    characteristic_decision,
    characteristic_options,
    improved_value,
    improvement_roll_options,
    load_ruleset,
    reduced_value,
)

ALL = ("ma", "st", "ag", "pa", "av")
AVERAGE = {"ma": 6, "st": 3, "ag": 3, "pa": 4, "av": 9}  # target style: AG 3+, PA 4+, AV 9+
CLASSIC_AVERAGE = {"ma": 6, "st": 3, "ag": 3, "av": 8}

D16 = {
    **{roll: {"ma", "av"} for roll in range(1, 8)},
    **{roll: {"ma", "pa", "av"} for roll in range(8, 14)},
    14: {"ag", "pa"},
    15: {"st", "ag"},
    16: set(ALL),
}
D8 = {
    1: {"av"},
    2: {"av", "pa"},
    3: {"av", "ma", "pa"},
    4: {"av", "ma", "pa"},
    5: {"ma", "pa"},
    6: {"ag", "ma"},
    7: {"ag", "st"},
    8: set(ALL),
}


@pytest.mark.parametrize(("roll", "allowed"), sorted(D16.items()))
def test_bb2020_d16_table(roll: int, allowed: set[str]) -> None:
    options = characteristic_options(load_ruleset("bb2020"), roll, {}, AVERAGE)
    assert set(options.offered) == allowed
    assert set(options.characteristics) == allowed
    assert options.refused == ()
    assert options.skill_kinds == ("chosen_secondary",)


@pytest.mark.parametrize(("roll", "allowed"), sorted(D8.items()))
def test_bb2025_d8_table(roll: int, allowed: set[str]) -> None:
    options = characteristic_options(load_ruleset("bb2025"), roll, {}, AVERAGE)
    assert set(options.characteristics) == allowed
    assert options.skill_kinds == ("chosen_primary", "chosen_secondary")


@pytest.mark.parametrize(("ruleset_id", "roll"), [("bb2020", 0), ("bb2020", 17), ("bb2025", 9)])
def test_roll_outside_the_die(ruleset_id: str, roll: int) -> None:
    with pytest.raises(RulesError, match="roll"):
        characteristic_options(load_ruleset(ruleset_id), roll, {}, AVERAGE)


def test_classic_has_no_characteristic_table() -> None:
    with pytest.raises(RulesError, match="no characteristic table"):
        characteristic_options(load_ruleset("classic"), 3, {}, CLASSIC_AVERAGE)


@pytest.mark.parametrize(
    ("roll", "allowed"),
    [
        (1, {"ma", "av"}),
        (13, {"ma", "av"}),
        (14, {"ag"}),
        (15, {"st", "ag"}),
        (16, {"ma", "st", "ag", "av"}),
    ],
)
def test_classic_spend_d16_without_pa(roll: int, allowed: set[str]) -> None:
    ruleset = load_ruleset("classic-spend")
    options = characteristic_options(ruleset, roll, {}, CLASSIC_AVERAGE, CLASSIC_AVERAGE)
    assert set(options.characteristics) == allowed


# --- caps (RULES-FACTS §3c) ----------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
@pytest.mark.parametrize(
    ("characteristic", "value", "code"),
    [
        ("ma", 9, "at_maximum"),
        ("ma", 8, None),
        ("st", 8, "at_maximum"),
        ("st", 7, None),
        ("ag", 1, "at_maximum"),
        ("ag", 2, None),
        ("pa", 1, "at_maximum"),
        ("pa", 2, None),
        ("pa", None, None),
        ("av", 11, "at_maximum"),
        ("av", 10, None),
    ],
)
def test_absolute_caps(
    ruleset_id: str, characteristic: str, value: int | None, code: str | None
) -> None:
    current = {**AVERAGE, characteristic: value}
    decision = characteristic_decision(load_ruleset(ruleset_id), characteristic, {}, current)
    assert decision.codes == ((code,) if code else ())


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
@pytest.mark.parametrize(("taken", "allowed"), [(0, True), (1, True), (2, False)])
def test_max_two_improvements_per_characteristic(
    ruleset_id: str, taken: int, allowed: bool
) -> None:
    decision = characteristic_decision(load_ruleset(ruleset_id), "ma", {"ma": taken}, AVERAGE)
    assert decision.allowed is allowed
    if not allowed:
        assert decision.codes == ("max_improvements",)
        assert dict(decision.reasons[0].params) == {"characteristic": "ma", "max": 2}


def test_caps_filter_the_rolled_options() -> None:
    current = {**AVERAGE, "av": 11}
    options = characteristic_options(load_ruleset("bb2025"), 3, {"ma": 2}, current)
    assert options.offered == ("av", "ma", "pa")
    assert options.characteristics == ("pa",)
    assert [(c, d.codes) for c, d in options.refused] == [
        ("av", ("at_maximum",)),
        ("ma", ("max_improvements",)),
    ]
    assert options.skill_kinds == ("chosen_primary", "chosen_secondary")


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-spend"])
@pytest.mark.parametrize(
    ("start", "value", "allowed", "code"),
    [
        (6, 6, True, None),
        (6, 7, True, None),
        (6, 8, False, "max_increase_from_start"),
        (8, 9, True, None),
        (9, 10, False, "at_maximum"),
        (6, 5, True, None),  # injured: still below the +2 limit
    ],
)
def test_classic_caps(
    ruleset_id: str, start: int, value: int, allowed: bool, code: str | None
) -> None:
    ruleset = load_ruleset(ruleset_id)
    decision = characteristic_decision(
        ruleset, "ma", {}, {**CLASSIC_AVERAGE, "ma": value}, {**CLASSIC_AVERAGE, "ma": start}
    )
    assert decision.allowed is allowed
    assert decision.codes == ((code,) if code else ())


def test_classic_caps_need_the_start() -> None:
    with pytest.raises(RulesError, match="starting value"):
        characteristic_decision(load_ruleset("classic"), "ma", {}, CLASSIC_AVERAGE)


def test_unknown_characteristic() -> None:
    decision = characteristic_decision(load_ruleset("classic"), "pa", {}, CLASSIC_AVERAGE)
    assert decision.codes == ("unknown_characteristic",)


# --- classic 2D6 improvement roll (RULES-FACTS §3d) ------------------------------------


@pytest.mark.parametrize(
    ("dice", "characteristics", "kinds"),
    [
        ((1, 1), (), ("chosen_primary", "chosen_secondary")),
        ((1, 2), (), ("chosen_primary",)),
        ((4, 5), (), ("chosen_primary",)),
        ((3, 6), (), ("chosen_primary",)),
        ((4, 6), ("ma", "av"), ("chosen_primary",)),
        ((5, 5), ("ma", "av"), ("chosen_primary", "chosen_secondary")),
        ((5, 6), ("ag",), ("chosen_primary",)),
        ((6, 6), ("st",), ("chosen_primary", "chosen_secondary")),
    ],
)
def test_classic_improvement_roll(
    dice: tuple[int, int], characteristics: tuple[str, ...], kinds: tuple[str, ...]
) -> None:
    classic = load_ruleset("classic")
    options = improvement_roll_options(classic, *dice, {}, CLASSIC_AVERAGE, CLASSIC_AVERAGE)
    assert options.roll == sum(dice)
    assert options.characteristics == characteristics
    assert options.skill_kinds == kinds
    assert options.doubles is (dice[0] == dice[1])


def test_classic_improvement_roll_respects_caps() -> None:
    classic = load_ruleset("classic")
    current = {**CLASSIC_AVERAGE, "st": 5}
    options = improvement_roll_options(classic, 6, 6, {}, current, CLASSIC_AVERAGE)
    assert options.characteristics == ()
    assert options.refused[0][1].codes == ("max_increase_from_start",)


# --- arithmetic ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset_id", "characteristic", "value", "improved", "reduced"),
    [
        ("bb2025", "ma", 6, 7, 5),
        ("bb2025", "st", 3, 4, 2),
        ("bb2025", "ag", 3, 2, 4),
        ("bb2025", "pa", 4, 3, 5),
        ("bb2025", "pa", None, 6, None),
        ("bb2025", "av", 9, 10, 8),
        ("bb2025", "ag", 6, 5, None),
        ("bb2025", "av", 3, 4, None),
        ("bb2025", "ma", 1, 2, None),
        ("bb2020", "pa", 6, 5, None),
        ("classic", "ag", 3, 4, 2),
        ("classic", "av", 8, 9, 7),
        ("classic", "st", 1, 2, None),
    ],
)
def test_improve_and_reduce(
    ruleset_id: str, characteristic: str, value: int | None, improved: int, reduced: int | None
) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert improved_value(ruleset, characteristic, value) == improved
    assert reduced_value(ruleset, characteristic, value) == reduced


@pytest.mark.parametrize(("value", "reduced"), [(8, 7), (7, 6), (6, None)])
def test_classic_reduction_stops_two_below_start(value: int, reduced: int | None) -> None:
    assert reduced_value(load_ruleset("classic"), "av", value, start=8) == reduced
