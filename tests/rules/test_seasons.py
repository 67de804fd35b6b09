"""Prizes and the re-draft budget, worked out by hand from the rules numbers.

RULES-FACTS 6b: "Glittering prizes" (BB2025) and "Re-draft" (BB2020, BB2025).
"""

from __future__ import annotations

import pytest

from league.rules import Ruleset
from league.rules.model import RulesError
from league.rules.seasons import (
    Prize,
    niggling_healed,
    recovery_rolls_needed,
    redraft_budget,
    redraft_decision,
    rehire_cost,
    season_prizes,
)


def test_bb2025_budget_with_the_recommended_cap(bb2025: Ruleset) -> None:
    # 1,000,000 + 85,000 treasury + 12 fixtures x 20,000 + 7 wins x 20,000
    # + 2 draws x 10,000 = 1,000,000 + 85,000 + 240,000 + 140,000 + 20,000
    # = 1,485,000, capped at 1,300,000: 185,000 lost to the cap.
    budget = redraft_budget(
        bb2025, treasury=85_000, league_fixtures=12, friendlies=0, wins=7, draws=2
    )
    assert (budget.fixtures, budget.wins, budget.draws) == (240_000, 140_000, 20_000)
    assert budget.uncapped == 1_485_000
    assert budget.total == 1_300_000
    assert budget.lost_to_cap == 185_000


def test_bb2025_budget_when_the_league_lifts_the_cap(bb2025: Ruleset) -> None:
    budget = redraft_budget(
        bb2025, treasury=85_000, league_fixtures=12, friendlies=0, wins=7, draws=2, capped=False
    )
    assert budget.cap is None
    assert budget.total == 1_485_000
    assert budget.lost_to_cap == 0


def test_budget_under_the_cap_is_not_touched(bb2025: Ruleset) -> None:
    # 1,000,000 + 0 + 5 x 20,000 + 1 x 20,000 + 1 x 10,000 = 1,130,000.
    budget = redraft_budget(bb2025, treasury=0, league_fixtures=5, friendlies=0, wins=1, draws=1)
    assert budget.total == 1_130_000
    assert budget.lost_to_cap == 0


def test_friendlies_count_in_bb2020_only(bb2020: Ruleset, bb2025: Ruleset) -> None:
    # BB2020 pays 20,000 for every game played, friendlies included: 14 games.
    # BB2025 pays for league fixtures only: 12 games.
    args = {"treasury": 0, "league_fixtures": 12, "friendlies": 2, "wins": 0, "draws": 0}
    assert redraft_budget(bb2020, **args).fixtures == 280_000
    assert redraft_budget(bb2025, **args).fixtures == 240_000


def test_rehire_adds_the_agent_fee_per_season(bb2025: Ruleset, bb2020: Ruleset) -> None:
    # A 110,000 player with two seasons behind him: 110,000 + 2 x 20,000.
    assert rehire_cost(bb2025, 110_000, 2) == 150_000
    assert rehire_cost(bb2020, 110_000, 2) == 150_000
    # A rookie of his first season pays no fee.
    assert rehire_cost(bb2025, 50_000, 0) == 50_000


def test_classic_has_no_redraft(classic: Ruleset, classic_spend: Ruleset) -> None:
    for ruleset in (classic, classic_spend):
        decision = redraft_decision(ruleset)
        assert not decision
        assert decision.codes == ("no_redraft",)
        with pytest.raises(RulesError):
            rehire_cost(ruleset, 50_000, 1)


def test_impossible_counts_are_refused(bb2025: Ruleset) -> None:
    with pytest.raises(RulesError):
        redraft_budget(bb2025, treasury=0, league_fixtures=3, friendlies=0, wins=3, draws=1)
    with pytest.raises(RulesError):
        redraft_budget(bb2025, treasury=-5, league_fixtures=3, friendlies=0, wins=0, draws=0)


def test_bb2025_glittering_prizes(bb2025: Ruleset) -> None:
    # 1st 100,000 and the League Trophy, 2nd 60,000, 3rd 30,000; 4th nothing.
    assert season_prizes(bb2025, [11, 12, 13, 14]) == (
        Prize(11, 1, 100_000, trophy=True),
        Prize(12, 2, 60_000, trophy=False),
        Prize(13, 3, 30_000, trophy=False),
    )
    assert bb2025.season.prizes is not None
    assert bb2025.season.prizes.after_expensive_mistakes


def test_a_two_team_league_pays_two_prizes(bb2025: Ruleset) -> None:
    assert [p.gold for p in season_prizes(bb2025, [1, 2])] == [100_000, 60_000]


def test_editions_without_prizes_pay_none(bb2020: Ruleset, classic: Ruleset) -> None:
    assert season_prizes(bb2020, [1, 2, 3]) == ()
    assert season_prizes(classic, [1, 2, 3]) == ()


def test_a_league_may_lift_or_move_the_cap(bb2025: Ruleset, classic: Ruleset) -> None:
    from league.rules import merge_house_rules
    from league.rules.model import RulesetError

    args = {"treasury": 85_000, "league_fixtures": 12, "friendlies": 0, "wins": 7, "draws": 2}
    lifted = merge_house_rules(bb2025, {"redraft_cap": 0})
    assert redraft_budget(lifted, **args).total == 1_485_000
    moved = merge_house_rules(bb2025, {"redraft_cap": 1_400_000})
    assert redraft_budget(moved, **args).total == 1_400_000
    with pytest.raises(RulesetError, match="below the base budget"):
        merge_house_rules(bb2025, {"redraft_cap": 900_000})
    with pytest.raises(RulesetError, match="no off-season re-draft"):
        merge_house_rules(classic, {"redraft_cap": 1_400_000})


# Rest and recovery, RULES-FACTS 5b "Off-season" (BB2025): each niggling injury
# heals on a D6 roll of 4+, +1 with an apothecary.


def test_bb2025_niggling_heals_on_four_or_more(bb2025: Ruleset) -> None:
    # Two niggling injuries, rolls 3 and 4: only the 4 heals.
    assert recovery_rolls_needed(bb2025, 2) == 2
    assert niggling_healed(bb2025, 2, [3, 4], apothecary=False) == 1


def test_bb2025_apothecary_adds_one_to_each_roll(bb2025: Ruleset) -> None:
    # 3 + 1 = 4 heals, 4 + 1 = 5 heals; a 2 + 1 = 3 still does not.
    assert niggling_healed(bb2025, 2, [3, 4], apothecary=True) == 2
    assert niggling_healed(bb2025, 1, [2], apothecary=True) == 0


def test_one_die_per_niggling_injury(bb2025: Ruleset) -> None:
    with pytest.raises(RulesError, match="2 dice expected"):
        niggling_healed(bb2025, 2, [6], apothecary=False)
    with pytest.raises(RulesError, match="1 to 6"):
        niggling_healed(bb2025, 1, [7], apothecary=False)


def test_bb2020_makes_no_recovery_roll(bb2020: Ruleset) -> None:
    # RULES-FACTS documents no off-season niggling roll for BB2020.
    assert recovery_rolls_needed(bb2020, 3) == 0
    assert niggling_healed(bb2020, 3, [], apothecary=True) == 0
