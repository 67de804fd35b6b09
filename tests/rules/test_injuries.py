"""Casualty tables and their effects (RULES-FACTS §5)."""

from __future__ import annotations

import pytest

from league.rules import (
    RulesError,
    casualty_outcome,
    casualty_result_for_code,
    injury_effect,
    lasting_injury,
    lasting_injury_result,
    load_ruleset,
)

BB2020 = {
    **dict.fromkeys(range(1, 7), ("Badly Hurt", "badly_hurt", "badly_hurt")),
    **dict.fromkeys(range(7, 10), ("Seriously Hurt", "seriously_hurt", "mng")),
    **dict.fromkeys(range(10, 13), ("Serious Injury", "serious_injury", "niggling")),
    **dict.fromkeys(range(13, 15), ("Lasting Injury", "lasting_injury", "lasting")),
    **dict.fromkeys(range(15, 17), ("Dead", "dead", "dead")),
}
BB2025 = {
    **dict.fromkeys(range(1, 9), ("Badly Hurt", "badly_hurt", "badly_hurt")),
    **dict.fromkeys(range(9, 11), ("Seriously Hurt", "seriously_hurt", "mng")),
    **dict.fromkeys(range(11, 13), ("Serious Injury", "serious_injury", "niggling")),
    **dict.fromkeys(range(13, 15), ("Lasting Injury", "lasting_injury", "lasting")),
    **dict.fromkeys(range(15, 17), ("Dead", "dead", "dead")),
}
D16_CASES = [("bb2020", roll, *row) for roll, row in BB2020.items()] + [
    ("bb2025", roll, *row) for roll, row in BB2025.items()
]


@pytest.mark.parametrize(("ruleset_id", "roll", "name", "code", "effect"), D16_CASES)
def test_d16_casualty_table(ruleset_id: str, roll: int, name: str, code: str, effect: str) -> None:
    result = casualty_outcome(load_ruleset(ruleset_id), roll)
    assert (result.name, result.code, result.effect) == (name, code, effect)
    assert result.characteristic is None


D68_CASES = [
    (11, "Badly Hurt", "badly_hurt", None),
    (26, "Badly Hurt", "badly_hurt", None),
    (38, "Badly Hurt", "badly_hurt", None),
    (41, "Broken Ribs", "mng", None),
    (44, "Broken Jaw", "mng", None),
    (48, "Pinched Nerve", "mng", None),
    (51, "Damaged Back", "niggling", None),
    (52, "Smashed Knee", "niggling", None),
    (53, "Smashed Hip", "lasting", "ma"),
    (54, "Smashed Ankle", "lasting", "ma"),
    (55, "Serious Concussion", "lasting", "av"),
    (56, "Fractured Skull", "lasting", "av"),
    (57, "Broken Neck", "lasting", "ag"),
    (58, "Smashed Collar Bone", "lasting", "st"),
    (61, "Dead", "dead", None),
    (68, "Dead", "dead", None),
]


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-spend"])
@pytest.mark.parametrize(("roll", "name", "effect", "characteristic"), D68_CASES)
def test_d68_casualty_table(
    ruleset_id: str, roll: int, name: str, effect: str, characteristic: str | None
) -> None:
    result = casualty_outcome(load_ruleset(ruleset_id), roll)
    assert (result.name, result.effect, result.characteristic) == (name, effect, characteristic)


@pytest.mark.parametrize(
    ("ruleset_id", "roll"),
    [("bb2025", 0), ("bb2025", 17), ("bb2020", -1), ("classic", 10), ("classic", 19),
     ("classic", 59), ("classic", 69), ("classic", 71), ("classic", 1)],
)  # fmt: skip
def test_impossible_rolls(ruleset_id: str, roll: int) -> None:
    with pytest.raises(RulesError, match="is not a"):
        casualty_outcome(load_ruleset(ruleset_id), roll)


@pytest.mark.parametrize(
    ("ruleset_id", "roll", "niggles", "name"),
    [
        ("bb2020", 6, 1, "Seriously Hurt"),
        ("bb2020", 14, 1, "Dead"),
        ("bb2020", 16, 3, "Dead"),
        ("bb2020", 9, 0, "Seriously Hurt"),
        ("bb2025", 8, 1, "Seriously Hurt"),
        ("classic", 38, 2, "Badly Hurt"),  # niggles modify the injury roll, not the D68
    ],
)
def test_niggling_injuries_modify_the_roll(
    ruleset_id: str, roll: int, niggles: int, name: str
) -> None:
    assert casualty_outcome(load_ruleset(ruleset_id), roll, niggles).name == name


LASTING = [
    ("bb2020", 1, "Head Injury", "av"),
    ("bb2020", 2, "Head Injury", "av"),
    ("bb2020", 3, "Smashed Knee", "ma"),
    ("bb2020", 4, "Broken Arm", "pa"),
    ("bb2020", 5, "Neck Injury", "ag"),
    ("bb2020", 6, "Dislocated Shoulder", "st"),
    ("bb2025", 1, "Head Injury", "av"),
    ("bb2025", 2, "Head Injury", "av"),
    ("bb2025", 3, "Smashed Knee", "ma"),
    ("bb2025", 4, "Broken Arm", "pa"),
    ("bb2025", 5, "Dislocated Hip", "ag"),
    ("bb2025", 6, "Broken Shoulder", "st"),
]


@pytest.mark.parametrize(("ruleset_id", "d6", "name", "characteristic"), LASTING)
def test_lasting_injury_table(ruleset_id: str, d6: int, name: str, characteristic: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert lasting_injury(ruleset, d6) == characteristic
    assert lasting_injury_result(ruleset, d6).name == name


def test_lasting_injury_errors() -> None:
    with pytest.raises(RulesError, match="not a D6"):
        lasting_injury(load_ruleset("bb2025"), 7)
    with pytest.raises(RulesError, match="no lasting-injury"):
        lasting_injury(load_ruleset("classic"), 3)


STATS = {"ma": 6, "st": 3, "ag": 3, "pa": 4, "av": 9}


@pytest.mark.parametrize(
    ("roll", "mng", "niggles", "dead"),
    [(1, False, 0, False), (9, True, 0, False), (11, True, 1, False), (15, False, 0, True)],
)
def test_effects(roll: int, mng: bool, niggles: int, dead: bool) -> None:
    ruleset = load_ruleset("bb2025")
    effect = injury_effect(ruleset, casualty_outcome(ruleset, roll), STATS)
    assert effect.miss_next_game is mng
    assert effect.niggling_injuries == niggles
    assert effect.dead is dead
    assert effect.characteristic is None


@pytest.mark.parametrize(
    ("characteristic", "value", "new_value"),
    [("ma", 6, 5), ("st", 3, 2), ("ag", 3, 4), ("pa", 4, 5), ("av", 9, 8)],
)
def test_lasting_reduction(characteristic: str, value: int, new_value: int) -> None:
    ruleset = load_ruleset("bb2025")
    effect = injury_effect(
        ruleset, casualty_outcome(ruleset, 13), {**STATS, characteristic: value}, characteristic
    )
    assert effect.miss_next_game
    assert (effect.characteristic, effect.new_value) == (characteristic, new_value)
    assert not effect.reduction_blocked


@pytest.mark.parametrize(
    ("characteristic", "value"),
    [("ma", 1), ("st", 1), ("ag", 6), ("pa", 6), ("pa", None), ("av", 3)],
)
def test_reduction_never_passes_the_minimum(characteristic: str, value: int | None) -> None:
    ruleset = load_ruleset("bb2020")
    effect = injury_effect(
        ruleset, casualty_outcome(ruleset, 14), {**STATS, characteristic: value}, characteristic
    )
    assert effect.miss_next_game
    assert effect.reduction_blocked
    assert effect.characteristic is None


def test_classic_lasting_injury_has_its_own_characteristic() -> None:
    classic = load_ruleset("classic")
    stats = {"ma": 6, "st": 3, "ag": 3, "av": 8}
    effect = injury_effect(classic, casualty_outcome(classic, 57), stats, start=stats)
    assert (effect.characteristic, effect.new_value, effect.miss_next_game) == ("ag", 2, True)
    with pytest.raises(RulesError, match="always reduces"):
        injury_effect(classic, casualty_outcome(classic, 57), stats, "st")


def test_lasting_needs_the_d6_characteristic_and_stats() -> None:
    ruleset = load_ruleset("bb2025")
    lasting = casualty_outcome(ruleset, 13)
    with pytest.raises(RulesError, match="lasting-injury roll"):
        injury_effect(ruleset, lasting, STATS)
    with pytest.raises(RulesError, match="current characteristics"):
        injury_effect(ruleset, lasting, None, "ma")


@pytest.mark.parametrize(
    ("ruleset_id", "code", "effect"),
    [
        ("bb2025", "badly_hurt", "badly_hurt"),
        ("bb2025", "seriously_hurt", "mng"),
        ("bb2025", "serious_injury", "niggling"),
        ("bb2025", "lasting_injury", "lasting"),
        ("bb2025", "dead", "dead"),
        ("classic", "seriously_hurt", "mng"),
        ("classic", "dead", "dead"),
    ],
)
def test_result_for_api_code(ruleset_id: str, code: str, effect: str) -> None:
    assert casualty_result_for_code(load_ruleset(ruleset_id), code).effect == effect


def test_unknown_api_code() -> None:
    with pytest.raises(RulesError, match="unknown injury"):
        casualty_result_for_code(load_ruleset("bb2025"), "ko")
