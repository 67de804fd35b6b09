"""Team-building numbers, purchases and the post-game money (RULES-FACTS §6b)."""

from __future__ import annotations

import pytest

from league.rules import (
    RulesError,
    TeamCounts,
    expensive_mistake,
    expensive_mistake_loss,
    hire_decision,
    load_ruleset,
    purchase_cost,
    purchase_decision,
    roll,
    winnings,
)

# (ruleset, cheerleaders max, dedicated fans cost, DF max at draft, DF start)
BUILDING = [
    ("bb2020", 6, 12, 10000, 6, 1),
    ("bb2025", 6, 6, 5000, 3, 1),
    ("classic", None, None, 10000, 9, 0),
]


@pytest.mark.parametrize(
    ("ruleset_id", "coaches_max", "cheer_max", "df_cost", "df_max", "df_start"), BUILDING
)
def test_team_building_numbers(
    ruleset_id: str,
    coaches_max: int | None,
    cheer_max: int | None,
    df_cost: int,
    df_max: int,
    df_start: int,
) -> None:
    building = load_ruleset(ruleset_id).team_building
    assert building.starting_treasury == 1_000_000
    assert (building.min_players, building.max_players) == (11, 16)
    assert building.max_rerolls == 8
    assert building.reroll_after_draft_multiplier == 2
    assert building.assistant_coaches.cost == 10000
    assert building.assistant_coaches.max == coaches_max
    assert building.cheerleaders.cost == 10000
    assert building.cheerleaders.max == cheer_max
    assert building.apothecary_cost == 50000
    fans = building.dedicated_fans
    assert (fans.cost, fans.max_at_draft, fans.start) == (df_cost, df_max, df_start)


@pytest.mark.parametrize(
    ("item", "during_draft", "cost"),
    [
        ("reroll", True, 60000),
        ("reroll", False, 120000),
        ("apothecary", False, 50000),
        ("assistant_coach", False, 10000),
        ("cheerleader", True, 10000),
        ("dedicated_fan", True, 5000),
    ],
)
def test_purchase_cost(item: str, during_draft: bool, cost: int) -> None:
    ruleset = load_ruleset("bb2025")
    assert purchase_cost(ruleset, ruleset.team_type("orc"), item, during_draft) == cost


def test_purchase_cost_unknown_item() -> None:
    ruleset = load_ruleset("bb2025")
    with pytest.raises(RulesError, match="unknown item"):
        purchase_cost(ruleset, ruleset.team_type("orc"), "bribe")


@pytest.mark.parametrize(
    ("team", "item", "counts", "treasury", "draft", "codes"),
    [
        ("orc", "reroll", TeamCounts(rerolls=7), 120000, False, ()),
        ("orc", "reroll", TeamCounts(rerolls=8), 999999, False, ("limit_reached",)),
        ("orc", "reroll", TeamCounts(), 119999, False, ("not_enough_gold",)),
        ("orc", "apothecary", TeamCounts(apothecary=True), 50000, False, ("limit_reached",)),
        ("shambling-undead", "apothecary", TeamCounts(), 50000, False, ("not_allowed",)),
        ("orc", "cheerleader", TeamCounts(cheerleaders=6), 10000, False, ("limit_reached",)),
        ("orc", "assistant_coach", TeamCounts(assistant_coaches=5), 10000, False, ()),
        ("orc", "dedicated_fan", TeamCounts(dedicated_fans=2), 5000, True, ()),
        ("orc", "dedicated_fan", TeamCounts(dedicated_fans=3), 5000, True, ("limit_reached",)),
        ("orc", "dedicated_fan", TeamCounts(dedicated_fans=1), 5000, False, ("draft_only",)),
        ("orc", "bribe", TeamCounts(), 5000, False, ("unknown_item",)),
    ],
)
def test_purchase_decision(
    team: str,
    item: str,
    counts: TeamCounts,
    treasury: int,
    draft: bool,
    codes: tuple[str, ...],
) -> None:
    ruleset = load_ruleset("bb2025")
    decision = purchase_decision(ruleset, ruleset.team_type(team), item, counts, treasury, draft)
    assert decision.codes == codes


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-spend"])
def test_classic_nurgle_may_not_buy_an_apothecary(ruleset_id: str) -> None:
    # LRB6: Nurgle teams have no apothecary (they may induce Igor instead); a Human team may.
    ruleset = load_ruleset(ruleset_id)
    for team, codes in (("nurgle", ("not_allowed",)), ("human", ())):
        team_type = ruleset.team_type(team)
        decision = purchase_decision(ruleset, team_type, "apothecary", TeamCounts(), 50000, True)
        assert decision.codes == codes, team


@pytest.mark.parametrize(
    ("position", "counts", "treasury", "codes"),
    [
        ("orc-blitzer", {"orc-blitzer": 1}, 85000, ()),
        ("orc-blitzer", {"orc-blitzer": 2}, 85000, ("position_full",)),
        ("orc-lineman", {"orc-lineman": 16}, 50000, ("position_full", "roster_full")),
        ("orc-lineman", {"orc-lineman": 15, "troll": 1}, 50000, ("roster_full",)),
        ("orc-lineman", {}, 49999, ("not_enough_gold",)),
        ("gnoblar", {}, 99999, ("unknown_position",)),
    ],
)
def test_hire_decision(
    position: str, counts: dict[str, int], treasury: int, codes: tuple[str, ...]
) -> None:
    ruleset = load_ruleset("bb2025")
    decision = hire_decision(ruleset, ruleset.team_type("orc"), position, counts, treasury)
    assert decision.codes == codes


def test_hire_decision_big_guy_cap() -> None:
    ruleset = load_ruleset("bb2025")
    team = next(t for t in ruleset.team_types if t.max_big_guys == 1)
    big_guys = [p for p in team.positions if "Big Guy" in p.keywords]
    assert len(big_guys) >= 2
    first, second = big_guys[:2]
    decision = hire_decision(ruleset, team, second.id, {first.id: 1}, 1_000_000)
    assert decision.codes == ("big_guys_full",)


@pytest.mark.parametrize(
    ("ruleset_id", "kwargs", "gold"),
    [
        # RULES-FACTS 6b: the half of an odd attendance is kept (9 / 2 = 4.5 units).
        ("bb2020", {"fan_attendance": 9, "touchdowns": 2}, 65000),
        ("bb2020", {"fan_attendance": 8, "touchdowns": 0, "stalled": False}, 40000),
        ("bb2025", {"fan_attendance": 9, "touchdowns": 2}, 75000),
        ("bb2025", {"fan_attendance": 9, "touchdowns": 2, "stalled": True}, 65000),
        ("classic", {"d6": 4, "fame": 1, "won": True}, 60000),
        ("classic", {"d6": 4}, 40000),
    ],
)
def test_winnings(ruleset_id: str, kwargs: dict[str, object], gold: int) -> None:
    assert winnings(load_ruleset(ruleset_id), **kwargs) == gold  # type: ignore[arg-type]


EXPENSIVE = [
    (99999, 1, "crisis_averted"),
    (100000, 1, "minor"),
    (195000, 2, "crisis_averted"),
    (200000, 2, "minor"),
    (300000, 1, "major"),
    (450000, 2, "major"),
    (450000, 4, "minor"),
    (500000, 1, "catastrophe"),
    (550000, 3, "major"),
    (600000, 2, "catastrophe"),
    (900000, 5, "minor"),
    (900000, 6, "minor"),
    (595000, 6, "crisis_averted"),
]


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
@pytest.mark.parametrize(("treasury", "d6", "outcome"), EXPENSIVE)
def test_expensive_mistakes(ruleset_id: str, treasury: int, d6: int, outcome: str) -> None:
    assert expensive_mistake(load_ruleset(ruleset_id), treasury, d6) == outcome


@pytest.mark.parametrize(
    ("outcome", "treasury", "dice", "loss"),
    [
        ("crisis_averted", 150000, 0, 0),
        ("minor", 150000, 2, 20000),
        ("major", 150000, 0, 75000),
        ("major", 155000, 0, 75000),
        ("catastrophe", 600000, 7, 530000),
    ],
)
@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
def test_expensive_mistake_loss(
    ruleset_id: str, outcome: str, treasury: int, dice: int, loss: int
) -> None:
    assert expensive_mistake_loss(load_ruleset(ruleset_id), outcome, treasury, dice) == loss


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
def test_expensive_mistake_amounts_come_from_the_data(ruleset_id: str) -> None:
    table = load_ruleset(ruleset_id).expensive_mistakes
    assert table is not None
    # RULES-FACTS: lose D3 x 10,000; lose half, rounded down to 5,000; keep 2D6 x 10,000.
    assert (table.minor_dice.count, table.minor_dice.sides) == (1, 3)
    assert table.minor_loss_per_pip == 10_000
    assert (table.major_divisor, table.major_round_down_to) == (2, 5_000)
    assert (table.catastrophe_dice.count, table.catastrophe_dice.sides) == (2, 6)
    assert table.catastrophe_kept_per_pip == 10_000
    assert table.dice_for("major") is None


@pytest.mark.parametrize(("outcome", "dice"), [("minor", 0), ("minor", 4), ("catastrophe", 1)])
def test_expensive_mistake_rolls_out_of_range_are_refused(outcome: str, dice: int) -> None:
    with pytest.raises(RulesError, match="needs a roll of"):
        expensive_mistake_loss(load_ruleset("bb2025"), outcome, 300_000, dice)


def test_a_catastrophe_rolls_two_dice_not_one_number_from_2_to_12() -> None:
    table = load_ruleset("bb2025").expensive_mistakes
    assert table is not None
    calls: list[tuple[int, int]] = []

    def randint(low: int, high: int) -> int:
        calls.append((low, high))
        return high

    assert roll(table.dice_for("catastrophe"), randint) == 12
    assert calls == [(1, 6), (1, 6)]
    assert roll(table.dice_for("crisis_averted"), randint) == 0


def test_classic_has_no_expensive_mistakes() -> None:
    with pytest.raises(RulesError, match="no Expensive Mistakes"):
        expensive_mistake(load_ruleset("classic"), 500000, 1)
