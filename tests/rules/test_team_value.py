"""Player value, TV and CTV (RULES-FACTS §6c)."""

from __future__ import annotations

import pytest

from league.rules import (
    RosterPlayer,
    RulesError,
    current_team_value,
    is_low_cost_lineman,
    load_ruleset,
    player_value,
    team_value,
)


def test_player_value() -> None:
    ruleset = load_ruleset("bb2025")
    blitzer = ruleset.team_type("orc").position("orc-blitzer")
    assert player_value(ruleset, blitzer) == 85000
    assert player_value(ruleset, blitzer, 30000) == 115000
    assert player_value(ruleset, blitzer, [20000, 10000]) == 115000
    with pytest.raises(RulesError, match="negative"):
        player_value(ruleset, blitzer, -10000)


ORC_TEAM = [
    RosterPlayer("orc-blitzer", value_increases=20000),
    RosterPlayer("orc-blitzer"),
    *[RosterPlayer("orc-lineman") for _ in range(7)],
    RosterPlayer("orc-thrower"),
    RosterPlayer("big-un-blocker", miss_next_game=True),
]
STAFF = {"rerolls": 3, "assistant_coaches": 2, "cheerleaders": 2, "apothecary": True}


def test_team_value_of_a_small_orc_team() -> None:
    ruleset = load_ruleset("bb2025")
    orc = ruleset.team_type("orc")
    # players 2x85k + 20k + 7x50k + 75k + 95k = 710k; staff 3x60k + 20k + 20k + 50k = 270k
    assert team_value(ruleset, orc, ORC_TEAM, **STAFF) == 980000
    # the Big Un misses the next game
    assert current_team_value(ruleset, orc, ORC_TEAM, **STAFF) == 885000


def test_dedicated_fans_do_not_count_in_bb2025() -> None:
    ruleset = load_ruleset("bb2025")
    orc = ruleset.team_type("orc")
    assert team_value(ruleset, orc, ORC_TEAM, **STAFF, dedicated_fans=4) == 980000


def test_temporarily_retired_players_leave_ctv_only() -> None:
    ruleset = load_ruleset("bb2025")
    orc = ruleset.team_type("orc")
    players = [RosterPlayer("orc-lineman"), RosterPlayer("orc-lineman", temporarily_retired=True)]
    assert team_value(ruleset, orc, players) == 100000
    assert current_team_value(ruleset, orc, players) == 50000


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
def test_low_cost_linemen_count_zero_in_ctv(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    ogre = ruleset.team_type("ogre")
    players = [
        *[RosterPlayer("gnoblar-lineman") for _ in range(5)],
        RosterPlayer("gnoblar-lineman", value_increases=20000),
        RosterPlayer("ogre-blocker"),
        RosterPlayer("ogre-blocker"),
    ]
    # 6x15k + 20k + 2x140k + 2 re-rolls x 70k
    assert team_value(ruleset, ogre, players, rerolls=2) == 530000
    # the gnoblars' fees drop out of CTV; the value increase stays
    assert current_team_value(ruleset, ogre, players, rerolls=2) == 440000


def test_low_cost_linemen_only_for_linemen_of_teams_with_the_rule() -> None:
    ruleset = load_ruleset("bb2025")
    ogre = ruleset.team_type("ogre")
    snotling = ruleset.team_type("snotling")
    human = ruleset.team_type("human")
    assert is_low_cost_lineman(ruleset, ogre, ogre.position("gnoblar-lineman"))
    assert not is_low_cost_lineman(ruleset, ogre, ogre.position("ogre-blocker"))
    assert is_low_cost_lineman(ruleset, snotling, snotling.positions[0])
    assert not any(is_low_cost_lineman(ruleset, human, p) for p in human.positions)


def test_classic_fan_factor_counts_in_tv() -> None:
    ruleset = load_ruleset("classic")
    human = ruleset.team_type("human")
    lineman = human.position("lineman")
    players = [RosterPlayer("lineman") for _ in range(11)]
    base = 11 * lineman.cost + 2 * human.reroll_cost
    assert team_value(ruleset, human, players, rerolls=2) == base
    assert team_value(ruleset, human, players, rerolls=2, dedicated_fans=5) == base + 50000


def test_position_objects_are_accepted() -> None:
    ruleset = load_ruleset("bb2025")
    orc = ruleset.team_type("orc")
    players = [RosterPlayer(orc.position("orc-lineman"), 10000)]
    assert team_value(ruleset, orc, players) == 60000


@pytest.mark.parametrize(
    ("staff", "match"),
    [
        ({"rerolls": 9}, "rerolls"),
        ({"assistant_coaches": 7}, "assistant_coaches"),
        ({"cheerleaders": 7}, "cheerleaders"),
        ({"rerolls": -1}, "rerolls"),
    ],
)
def test_staff_limits(staff: dict[str, int], match: str) -> None:
    ruleset = load_ruleset("bb2025")
    with pytest.raises(RulesError, match=match):
        team_value(ruleset, ruleset.team_type("orc"), [], **staff)


def test_no_apothecary_for_undead() -> None:
    ruleset = load_ruleset("bb2025")
    with pytest.raises(RulesError, match="apothecary"):
        team_value(ruleset, ruleset.team_type("shambling-undead"), [], apothecary=True)


def test_unknown_position() -> None:
    ruleset = load_ruleset("bb2025")
    with pytest.raises(RulesError, match="no position"):
        team_value(ruleset, ruleset.team_type("orc"), [RosterPlayer("gnoblar-lineman")])
