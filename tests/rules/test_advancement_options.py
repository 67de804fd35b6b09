"""Everything GET /players/{id}/advancement-options needs, in one call."""

from __future__ import annotations

import pytest

from league.rules import (
    AdvancementOption,
    advancement_options,
    can_advance,
    load_ruleset,
    request_fields,
    roll_serves,
)


def by_kind(options: tuple[AdvancementOption, ...]) -> dict[str, AdvancementOption]:
    return {option.kind: option for option in options}


def test_bb2025_rookie_with_seven_spp() -> None:
    ruleset = load_ruleset("bb2025")
    blitzer = ruleset.team_type("orc").position("orc-blitzer")
    result = advancement_options(ruleset, blitzer, [], 0, 7)
    assert (result.available_spp, result.next_advancement, result.level) == (7, 1, "Rookie")
    assert result.must_spend is False
    options = by_kind(result.options)
    assert list(options) == [
        "random_primary",
        "chosen_primary",
        "chosen_secondary",
        "random_characteristic",
    ]
    expected = {
        "random_primary": (3, 20000, True),
        "chosen_primary": (6, 20000, True),
        "chosen_secondary": (10, 40000, False),
        "random_characteristic": (14, None, False),
    }
    for kind, (cost, value, affordable) in expected.items():
        option = options[kind]
        assert (option.cost, option.value_increase, option.affordable) == (cost, value, affordable)
    assert options["chosen_secondary"].decision.codes == ("not_enough_spp",)
    # BB2025 ruleset.toml [value_increase]: an elite skill adds 10,000 more.
    assert [options[k].elite_value_increase for k in expected] == [30000, 30000, 50000, None]
    assert options["chosen_primary"].categories == ("G", "S")
    assert "Block" not in options["chosen_primary"].skills  # already held
    assert "Dodge" in options["chosen_secondary"].skills
    assert "Tackle" not in options["chosen_secondary"].skills
    assert dict(options["random_characteristic"].characteristic_value_increases) == {
        "ma": 20000,
        "st": 60000,
        "ag": 30000,
        "pa": 20000,
        "av": 10000,
    }


def test_bb2020_third_advancement_and_must_spend() -> None:
    ruleset = load_ruleset("bb2020")
    lineman = ruleset.team_type("human").position("human-lineman")
    result = advancement_options(ruleset, lineman, ["Block", "Tackle"], 2, 24)
    assert (result.next_advancement, result.level, result.must_spend) == (3, "Veteran", True)
    options = by_kind(result.options)
    assert [options[k].cost for k in options] == [6, 12, 12, 18, 24]
    assert all(option.affordable for option in options.values())
    assert options["random_primary"].value_increase == 10000
    assert options["random_secondary"].categories == ("A", "S")


def test_maxed_out_player() -> None:
    ruleset = load_ruleset("bb2025")
    lineman = ruleset.team_type("orc").position("orc-lineman")
    result = advancement_options(ruleset, lineman, [], 6, 200)
    assert result.next_advancement is None
    assert result.level == "Legend"
    assert result.must_spend is False
    for option in result.options:
        assert option.cost is None
        assert not option.affordable
        assert option.decision.codes == ("max_advancements",)


@pytest.mark.parametrize(
    ("spp", "taken", "pending", "affordable"),
    [(5, 0, 0, False), (6, 0, 1, True), (16, 0, 2, True), (16, 2, 0, False), (176, 5, 1, True)],
)
def test_classic_pending_rolls(spp: int, taken: int, pending: int, affordable: bool) -> None:
    ruleset = load_ruleset("classic")
    blitzer = ruleset.team_type("human").position("blitzer")
    result = advancement_options(ruleset, blitzer, [], taken, spp)
    assert result.pending_rolls == pending
    options = by_kind(result.options)
    assert list(options) == ["chosen_primary", "chosen_secondary", "random_characteristic"]
    assert all(option.cost is None for option in result.options)
    assert all(option.affordable is affordable for option in result.options)
    assert options["chosen_primary"].value_increase == 20000
    assert options["chosen_secondary"].value_increase == 30000
    assert options["chosen_secondary"].categories == ("A", "P")


# classic-spend, Human Lineman (G primary; A, S, P secondary), 1st advancement:
# kind -> (SPP cost, value increase, categories)
CLASSIC_SPEND_LINEMAN = {
    "random_primary": (3, 20000, ("G",)),
    "chosen_primary": (6, 20000, ("G",)),
    "random_secondary": (6, 30000, ("A", "S", "P")),
    "chosen_secondary": (12, 30000, ("A", "S", "P")),
    "random_characteristic": (18, None, ()),
}


def test_classic_spend_offers_all_five_kinds() -> None:
    ruleset = load_ruleset("classic-spend")
    lineman = ruleset.team_type("human").position("lineman")
    result = advancement_options(ruleset, lineman, [], 0, 12)
    options = by_kind(result.options)
    assert list(options) == list(CLASSIC_SPEND_LINEMAN)
    assert [o.cost for o in options.values()] == [3, 6, 6, 12, 18]
    for kind, (cost, value, categories) in CLASSIC_SPEND_LINEMAN.items():
        option = options[kind]
        assert (option.cost, option.value_increase, option.categories) == (
            cost,
            value,
            categories,
        ), kind
        assert option.affordable is (cost <= 12), kind
    assert dict(options["random_characteristic"].characteristic_value_increases) == {
        "ma": 30000,
        "st": 50000,
        "ag": 40000,
        "av": 30000,
    }
    # Random kinds may give any skill of the accessible categories (no 2D6 table needed).
    assert options["random_primary"].skills == tuple(
        s.name for s in ruleset.skills if s.category == "G"
    )
    assert set(options["random_secondary"].skills) == set(options["chosen_secondary"].skills)
    assert all(
        ruleset.category(ruleset.skill(name).category).learnable
        for option in options.values()
        for name in option.skills
    )


def test_classic_spend_random_kinds_leave_out_held_skills() -> None:
    ruleset = load_ruleset("classic-spend")
    blitzer = ruleset.team_type("human").position("blitzer")
    options = by_kind(advancement_options(ruleset, blitzer, ["Tackle"], 0, 12).options)
    assert options["random_primary"].categories == ("G", "S")
    assert "Block" not in options["random_primary"].skills  # starting skill
    assert "Tackle" not in options["random_primary"].skills  # gained
    assert "Mighty Blow" in options["random_primary"].skills


@pytest.mark.parametrize(
    ("ruleset_id", "taken", "spp", "expected"),
    [
        ("bb2025", 0, 2, False),  # cheapest 1st advancement: random primary, 3 SPP
        ("bb2025", 0, 3, True),
        ("bb2025", 1, 3, False),  # 2nd random primary costs 4
        ("bb2025", 6, 100, False),  # Legend: no more advancements
        ("bb2020", 0, 3, True),
        ("classic", 0, 5, False),  # roll mode: first roll at 6 SPP
        ("classic", 0, 6, True),
        ("classic", 1, 15, False),  # second roll at 16
    ],
)
def test_can_advance(ruleset_id, taken, spp, expected) -> None:
    assert can_advance(load_ruleset(ruleset_id), taken, spp) is expected


@pytest.mark.parametrize(
    ("ruleset_id", "rolled_for", "wanted", "serves"),
    [
        # Spend mode: dice belong to the kind and category they were rolled for.
        ("bb2025", ("random_characteristic", None), ("random_characteristic", None), True),
        ("bb2025", ("random_primary", "G"), ("random_primary", "G"), True),
        ("bb2025", ("random_primary", "G"), ("random_primary", "S"), False),
        ("bb2020", ("random_characteristic", None), ("random_primary", "G"), False),
        # Classic: one Star Player Roll serves whatever the coach takes from it.
        ("classic", ("chosen_primary", None), ("random_characteristic", None), True),
    ],
)
def test_which_request_kept_dice_serve(
    ruleset_id: str,
    rolled_for: tuple[str, str | None],
    wanted: tuple[str, str | None],
    serves: bool,
) -> None:
    assert roll_serves(load_ruleset(ruleset_id), rolled_for, wanted) is serves


@pytest.mark.parametrize(
    ("ruleset_id", "kind", "fields"),
    [
        # Spend mode: a chosen skill is named; a random one rolls dice on a category; the
        # characteristic roll's dice leave a characteristic (or a skill instead) to pick.
        ("bb2025", "chosen_primary", {"skill"}),
        ("bb2025", "chosen_secondary", {"skill"}),
        ("bb2025", "random_primary", {"skill", "category", "dice"}),
        ("bb2020", "random_secondary", {"skill", "category", "dice"}),
        ("bb2020", "random_characteristic", {"skill", "dice", "characteristic"}),
        # Classic rolls: every improvement is a 2D6 roll that may give a characteristic.
        ("classic", "chosen_primary", {"skill", "dice", "characteristic"}),
        ("classic", "chosen_secondary", {"skill", "dice", "characteristic"}),
        ("classic", "random_characteristic", {"skill", "dice", "characteristic"}),
    ],
)
def test_what_a_request_for_each_kind_may_name(
    ruleset_id: str, kind: str, fields: set[str]
) -> None:
    assert request_fields(load_ruleset(ruleset_id), kind) == fields


def test_bb2020_adds_nothing_for_an_elite_skill() -> None:
    ruleset = load_ruleset("bb2020")
    lineman = ruleset.team_type("human").position("human-lineman")
    result = advancement_options(ruleset, lineman, [], 0, 24)
    assert {o.elite_value_increase for o in result.options} == {None}
