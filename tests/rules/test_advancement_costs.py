"""Cost tables, value tables and levels, number by number (RULES-FACTS §1, §2)."""

from __future__ import annotations

import pytest

from league.rules import (
    RulesError,
    advancement_cost,
    advancement_decision,
    advancement_kinds,
    level_for_spp,
    level_name,
    load_ruleset,
    must_spend,
    player_level,
    rolls_earned,
    value_increase,
)

COSTS = {
    "bb2020": {
        "random_primary": [3, 4, 6, 8, 10, 15],
        "chosen_primary": [6, 8, 12, 16, 20, 30],
        "random_secondary": [6, 8, 12, 16, 20, 30],
        "chosen_secondary": [12, 14, 18, 22, 26, 40],
        "random_characteristic": [18, 20, 24, 28, 32, 50],
    },
    "bb2025": {
        "random_primary": [3, 4, 6, 8, 10, 15],
        "chosen_primary": [6, 8, 12, 16, 20, 30],
        "chosen_secondary": [10, 12, 16, 20, 24, 34],
        "random_characteristic": [14, 16, 20, 24, 28, 38],
    },
    # BB2020 costs (the random kinds included) on classic skills.
    "classic-spend": {
        "random_primary": [3, 4, 6, 8, 10, 15],
        "chosen_primary": [6, 8, 12, 16, 20, 30],
        "random_secondary": [6, 8, 12, 16, 20, 30],
        "chosen_secondary": [12, 14, 18, 22, 26, 40],
        "random_characteristic": [18, 20, 24, 28, 32, 50],
    },
}

COST_CASES = [
    (ruleset_id, kind, number, cost)
    for ruleset_id, table in COSTS.items()
    for kind, row in table.items()
    for number, cost in enumerate(row, start=1)
]


@pytest.mark.parametrize(("ruleset_id", "kind", "number", "cost"), COST_CASES)
def test_advancement_cost(ruleset_id: str, kind: str, number: int, cost: int) -> None:
    assert advancement_cost(load_ruleset(ruleset_id), kind, number) == cost


@pytest.mark.parametrize("ruleset_id", list(COSTS))
def test_cost_table_has_exactly_these_kinds(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert {k: list(v) for k, v in ruleset.advancement.costs.items()} == COSTS[ruleset_id]


def test_spot_checks_from_the_brief() -> None:
    assert advancement_cost(load_ruleset("bb2020"), "chosen_secondary", 2) == 14
    assert advancement_cost(load_ruleset("bb2025"), "random_characteristic", 6) == 38


@pytest.mark.parametrize("ruleset_id", list(COSTS))
@pytest.mark.parametrize("number", [0, 7, -1])
def test_cost_outside_the_table_is_an_error(ruleset_id: str, number: int) -> None:
    with pytest.raises(RulesError, match="outside 1-6"):
        advancement_cost(load_ruleset(ruleset_id), "chosen_primary", number)


@pytest.mark.parametrize(
    ("ruleset_id", "kind"),
    [("bb2025", "random_secondary"), ("classic-spend", "characteristic"), ("bb2020", "nonsense")],
)
def test_cost_of_a_kind_not_offered_is_an_error(ruleset_id: str, kind: str) -> None:
    with pytest.raises(RulesError, match="no advancement kind"):
        advancement_cost(load_ruleset(ruleset_id), kind, 1)


def test_classic_has_no_costs() -> None:
    with pytest.raises(RulesError, match="does not spend"):
        advancement_cost(load_ruleset("classic"), "chosen_primary", 1)


# --- value increases (RULES-FACTS §2) -----------------------------------------

VALUES = {
    "bb2020": {
        "random_primary": 10000,
        "chosen_primary": 20000,
        "random_secondary": 20000,
        "chosen_secondary": 40000,
        "ma": 20000,
        "st": 80000,
        "ag": 40000,
        "pa": 20000,
        "av": 10000,
    },
    "bb2025": {
        "random_primary": 20000,
        "chosen_primary": 20000,
        "random_secondary": None,
        "chosen_secondary": 40000,
        "ma": 20000,
        "st": 60000,
        "ag": 30000,
        "pa": 20000,
        "av": 10000,
    },
    "classic": {
        "random_primary": 20000,
        "chosen_primary": 20000,
        "random_secondary": 30000,
        "chosen_secondary": 30000,
        "ma": 30000,
        "st": 50000,
        "ag": 40000,
        "pa": None,
        "av": 30000,
    },
    # Classic values: primary = classic new skill, secondary = classic doubles skill.
    "classic-spend": {
        "random_primary": 20000,
        "chosen_primary": 20000,
        "random_secondary": 30000,
        "chosen_secondary": 30000,
        "ma": 30000,
        "st": 50000,
        "ag": 40000,
        "pa": None,
        "av": 30000,
    },
}
ELITE = {"bb2020": 0, "bb2025": 10000, "classic": 0, "classic-spend": 0}


@pytest.mark.parametrize("ruleset_id", list(VALUES))
def test_value_table(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.value_increase.as_dict() == VALUES[ruleset_id]
    assert ruleset.value_increase.elite_surcharge == ELITE[ruleset_id]


SKILL_VALUE_CASES = [
    (ruleset_id, kind, value)
    for ruleset_id, table in VALUES.items()
    for kind, value in table.items()
    if kind.endswith(("_primary", "_secondary")) and value is not None
]


@pytest.mark.parametrize(("ruleset_id", "kind", "value"), SKILL_VALUE_CASES)
def test_value_increase_of_a_skill(ruleset_id: str, kind: str, value: int) -> None:
    assert value_increase(load_ruleset(ruleset_id), kind) == value


CHAR_VALUE_CASES = [
    (ruleset_id, char, value)
    for ruleset_id, table in VALUES.items()
    for char, value in table.items()
    if char in ("ma", "st", "ag", "pa", "av") and value is not None
]


@pytest.mark.parametrize(("ruleset_id", "characteristic", "value"), CHAR_VALUE_CASES)
def test_value_increase_of_a_characteristic(
    ruleset_id: str, characteristic: str, value: int
) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert value_increase(ruleset, "random_characteristic", characteristic=characteristic) == value


@pytest.mark.parametrize(
    ("ruleset_id", "kind", "skill", "value"),
    [
        ("bb2025", "chosen_primary", "Block", 30000),
        ("bb2025", "random_primary", "Dodge", 30000),
        ("bb2025", "chosen_secondary", "Guard", 50000),
        ("bb2025", "chosen_secondary", "Mighty Blow", 50000),
        ("bb2025", "chosen_primary", "Tackle", 20000),
        ("bb2025", "chosen_secondary", "Sidestep", 40000),
        ("bb2020", "chosen_primary", "Block", 20000),
        ("bb2020", "random_primary", "Block", 10000),
        ("classic", "chosen_primary", "Block", 20000),
    ],
)
def test_value_increase_elite_surcharge(ruleset_id: str, kind: str, skill: str, value: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert value_increase(ruleset, kind, skill=skill) == value
    assert value_increase(ruleset, kind, skill=ruleset.skill(skill)) == value


def test_value_increase_errors() -> None:
    bb2025 = load_ruleset("bb2025")
    with pytest.raises(RulesError, match="no random_secondary"):
        value_increase(bb2025, "random_secondary")
    with pytest.raises(RulesError, match="needs one of"):
        value_increase(bb2025, "random_characteristic")
    with pytest.raises(RulesError, match="needs one of"):
        value_increase(load_ruleset("classic"), "random_characteristic", characteristic="pa")
    with pytest.raises(RulesError, match="unknown advancement kind"):
        value_increase(bb2025, "extraordinary")


# --- levels (RULES-FACTS §1) ---------------------------------------------------

LEVELS_2020 = ["Rookie", "Experienced", "Veteran", "Emerging Star", "Star", "Super Star", "Legend"]
LEVELS_2025 = ["Rookie", "Experienced", "Veteran", "Emerging Star", "Star", "Superstar", "Legend"]
LEVEL_CASES = [
    (ruleset_id, taken, name)
    for ruleset_id, names in (
        ("bb2020", LEVELS_2020),
        ("bb2025", LEVELS_2025),
        ("classic-spend", LEVELS_2020),
        ("classic", LEVELS_2020),
    )
    for taken, name in enumerate(names)
]


@pytest.mark.parametrize(("ruleset_id", "taken", "name"), LEVEL_CASES)
def test_level_name(ruleset_id: str, taken: int, name: str) -> None:
    assert level_name(load_ruleset(ruleset_id), taken) == name


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025", "classic", "classic-spend"])
def test_max_six_advancements(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.advancement.max_advancements == 6
    with pytest.raises(RulesError):
        level_name(ruleset, 7)


@pytest.mark.parametrize(
    ("spp", "rolls", "level"),
    [
        (0, 0, "Rookie"),
        (5, 0, "Rookie"),
        (6, 1, "Experienced"),
        (15, 1, "Experienced"),
        (16, 2, "Veteran"),
        (30, 2, "Veteran"),
        (31, 3, "Emerging Star"),
        (50, 3, "Emerging Star"),
        (51, 4, "Star"),
        (75, 4, "Star"),
        (76, 5, "Super Star"),
        (175, 5, "Super Star"),
        (176, 6, "Legend"),
        (500, 6, "Legend"),
    ],
)
def test_classic_thresholds(spp: int, rolls: int, level: str) -> None:
    classic = load_ruleset("classic")
    assert classic.advancement.thresholds == (6, 16, 31, 51, 76, 176)
    assert rolls_earned(classic, spp) == rolls
    assert level_for_spp(classic, spp) == level


def test_thresholds_only_in_roll_mode() -> None:
    with pytest.raises(RulesError, match="no SPP thresholds"):
        rolls_earned(load_ruleset("bb2025"), 10)


# --- must spend, may advance ---------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset_id", "spp", "taken", "expected"),
    [
        ("bb2025", 13, 0, False),
        ("bb2025", 14, 0, True),
        ("bb2025", 37, 5, False),
        ("bb2025", 38, 5, True),
        ("bb2025", 100, 6, False),
        ("bb2020", 17, 0, False),
        ("bb2020", 18, 0, True),
        ("bb2020", 50, 5, True),
        ("classic-spend", 18, 0, True),
        ("classic", 500, 0, False),
    ],
)
def test_must_spend(ruleset_id: str, spp: int, taken: int, expected: bool) -> None:
    assert must_spend(load_ruleset(ruleset_id), spp, taken) is expected


@pytest.mark.parametrize(
    ("ruleset_id", "kind", "taken", "spp", "codes"),
    [
        ("bb2025", "chosen_primary", 1, 8, ()),
        ("bb2025", "chosen_primary", 1, 7, ("not_enough_spp",)),
        ("bb2025", "chosen_secondary", 0, 10, ()),
        ("bb2025", "random_secondary", 0, 99, ("kind_not_available",)),
        ("bb2025", "chosen_primary", 6, 99, ("max_advancements",)),
        ("bb2025", "bogus", 0, 99, ("unknown_kind",)),
        ("bb2020", "random_secondary", 0, 6, ()),
        ("classic", "chosen_primary", 0, 5, ("no_roll_pending",)),
        ("classic", "chosen_primary", 0, 6, ()),
        ("classic", "random_characteristic", 1, 16, ()),
        ("classic", "chosen_secondary", 2, 16, ("no_roll_pending",)),
        ("classic", "random_primary", 0, 99, ("kind_not_available",)),
    ],
)
def test_advancement_decision(
    ruleset_id: str, kind: str, taken: int, spp: int, codes: tuple[str, ...]
) -> None:
    decision = advancement_decision(load_ruleset(ruleset_id), kind, taken, spp)
    assert decision.codes == codes
    assert decision.allowed is (codes == ())


def test_not_enough_spp_reason_params() -> None:
    decision = advancement_decision(load_ruleset("bb2020"), "chosen_primary", 1, 5)
    reason = decision.reason("not_enough_spp")
    assert reason is not None
    assert dict(reason.params) == {"needed": 8, "have": 5}


@pytest.mark.parametrize(
    ("ruleset_id", "kinds"),
    [
        (
            "bb2020",
            (
                "random_primary",
                "chosen_primary",
                "random_secondary",
                "chosen_secondary",
                "random_characteristic",
            ),
        ),
        (
            "bb2025",
            ("random_primary", "chosen_primary", "chosen_secondary", "random_characteristic"),
        ),
        ("classic", ("chosen_primary", "chosen_secondary", "random_characteristic")),
        (
            "classic-spend",
            (
                "random_primary",
                "chosen_primary",
                "random_secondary",
                "chosen_secondary",
                "random_characteristic",
            ),
        ),
    ],
)
def test_advancement_kinds(ruleset_id: str, kinds: tuple[str, ...]) -> None:
    assert advancement_kinds(load_ruleset(ruleset_id)) == kinds


@pytest.mark.parametrize(
    ("ruleset_id", "taken", "spp", "level"),
    [
        ("bb2025", 0, 100, "Rookie"),
        ("bb2025", 5, 0, "Superstar"),
        ("bb2020", 5, 0, "Super Star"),
        ("classic", 0, 31, "Emerging Star"),
        ("classic", 3, 5, "Rookie"),
    ],
)
def test_player_level(ruleset_id: str, taken: int, spp: int, level: str) -> None:
    assert player_level(load_ruleset(ruleset_id), taken, spp) == level
