"""Tournament rosters against the matched-play rules, worked out by hand.

BB2025 data (ruleset.toml [matched_play]): elite skills (Block, Dodge, Guard, Mighty
Blow) at most 4 times per team (matched-play FAQ, May 2026); organiser defaults:
budget 1,150,000, skill points 6/7/8/9 by tier 1-4, a primary skill 1 point, a
secondary 2, at most 4 secondary skills. Humans are tier 2: 7 skill points.
Human prices (BB2025 roster): lineman 50,000, catcher 75,000, thrower 75,000,
blitzer 85,000, ogre 140,000, team re-roll 50,000; apothecary 50,000.
"""

from __future__ import annotations

import dataclasses

import pytest

from league.rules import Ruleset, merge_house_rules
from league.rules.matched_play import (
    AddedSkill,
    TournamentPlayer,
    TournamentRoster,
    check_tournament_roster,
)
from league.rules.model import RulesError, RulesetError
from league.rules.refusals import refusal_text

PRIMARY = False
SECONDARY = True


def human_roster(*skills: tuple[str, bool], ogre: bool = False) -> TournamentRoster:
    """7 linemen, 2 catchers, 2 throwers, 2 blitzers (820,000), 3 re-rolls (150,000) and
    an apothecary (50,000): 1,020,000. Skills go one per player, linemen first."""
    positions = (
        ["human-lineman"] * 7
        + ["human-catcher"] * 2
        + ["human-thrower"] * 2
        + ["human-blitzer"] * 2
    )
    if ogre:
        positions.append("ogre")
    players = [
        TournamentPlayer(
            position,
            (AddedSkill(skills[i][0], skills[i][1]),) if i < len(skills) else (),
        )
        for i, position in enumerate(positions)
    ]
    return TournamentRoster("human", tuple(players), rerolls=3, apothecary=True)


def test_a_legal_roster_is_allowed(bb2025: Ruleset) -> None:
    # Block x2 and Sure Hands, primary: 3 points; Dodge, secondary: 2 points. 5 of 7.
    roster = human_roster(
        ("Block", PRIMARY), ("Block", PRIMARY), ("Sure Hands", PRIMARY), ("Dodge", SECONDARY)
    )
    check = check_tournament_roster(bb2025, roster)
    assert check.allowed
    assert check.decision.reasons == ()
    assert (check.budget, check.cost) == (1_150_000, 1_020_000)
    assert (check.skill_points_used, check.skill_points_allowed) == (5, 7)


def test_skills_added_do_not_change_the_roster_cost(bb2025: Ruleset) -> None:
    bare = check_tournament_roster(bb2025, human_roster())
    skilled = check_tournament_roster(
        bb2025, human_roster(("Block", PRIMARY), ("Dodge", SECONDARY))
    )
    assert bare.cost == skilled.cost == 1_020_000


def test_a_roster_over_its_skill_points_is_refused_with_the_reason(bb2025: Ruleset) -> None:
    # Block x4 primary (4 points) + Dodge x2 secondary (4 points) = 8 > 7 for tier 2.
    roster = human_roster(
        ("Block", PRIMARY),
        ("Block", PRIMARY),
        ("Block", PRIMARY),
        ("Block", PRIMARY),
        ("Dodge", SECONDARY),
        ("Dodge", SECONDARY),
    )
    check = check_tournament_roster(bb2025, roster)
    assert not check.allowed
    assert check.decision.codes == ("over_skill_points",)
    assert (check.skill_points_used, check.skill_points_allowed) == (8, 7)
    assert refusal_text(check.decision.reasons[0]) == (
        "The skills added cost 8 skill points; a tier 2 team has 7."
    )


def test_the_tier_gives_the_skill_points(bb2025: Ruleset) -> None:
    # Halflings are tier 4: 9 points. 11 hopefuls at 30,000 (330,000), no skills.
    roster = TournamentRoster("halfling", (TournamentPlayer("halfling-hopeful"),) * 11)
    check = check_tournament_roster(bb2025, roster)
    assert (check.skill_points_allowed, check.cost) == (9, 330_000)


def test_a_fifth_block_is_refused(bb2025: Ruleset) -> None:
    # Block x5 primary: 5 points of 7, but Block is elite: at most 4 per team.
    roster = human_roster(*[("Block", PRIMARY)] * 5)
    check = check_tournament_roster(bb2025, roster)
    assert check.decision.codes == ("elite_skill_over_cap",)
    assert dict(check.decision.reasons[0].params) == {"skill": "Block", "count": 5, "max": 4}
    assert refusal_text(check.decision.reasons[0]) == (
        "Block is added 5 times; an elite skill may be added at most 4 times."
    )
    # Four are fine.
    assert check_tournament_roster(bb2025, human_roster(*[("Block", PRIMARY)] * 4)).allowed


def test_over_budget_names_the_excess(bb2025: Ruleset) -> None:
    # 1,020,000 + an ogre at 140,000 = 1,160,000: 10,000 over 1,150,000.
    check = check_tournament_roster(bb2025, human_roster(ogre=True))
    assert check.decision.codes == ("roster_over_budget",)
    assert check.cost == 1_160_000
    assert refusal_text(check.decision.reasons[0]) == (
        "The roster costs 1,160,000, 10,000 over the budget of 1,150,000."
    )


def test_too_many_secondary_skills(bb2025: Ruleset) -> None:
    # Five secondary skills with 20 points to spend: only the count of 4 is broken.
    assert bb2025.matched_play is not None
    roomy = dataclasses.replace(bb2025.matched_play, skill_points=(20, 20, 20, 20))
    skills = [("Dodge", SECONDARY)] * 4 + [("Sure Feet", SECONDARY)]
    check = check_tournament_roster(bb2025, human_roster(*skills), roomy)
    assert check.decision.codes == ("too_many_secondary_skills",)
    assert check.skill_points_used == 10
    assert refusal_text(check.decision.reasons[0]) == (
        "5 secondary skills added; at most 4 are allowed."
    )


def test_elite_skills_may_cost_one_point_more(bb2025: Ruleset) -> None:
    # House rule: an elite skill costs +1. Block x3 (2 each) + Sure Hands (1) = 7 of 7;
    # a Dodge secondary (3) on top makes 10.
    merged = merge_house_rules(bb2025, {"matched_play": {"elite_costs_extra": True}})
    skills = [("Block", PRIMARY)] * 3 + [("Sure Hands", PRIMARY)]
    assert check_tournament_roster(merged, human_roster(*skills)).skill_points_used == 7
    check = check_tournament_roster(merged, human_roster(*skills, ("Dodge", SECONDARY)))
    assert (check.skill_points_used, check.decision.codes) == (10, ("over_skill_points",))


def test_every_fault_is_given(bb2025: Ruleset) -> None:
    check = check_tournament_roster(bb2025, human_roster(*[("Block", PRIMARY)] * 8, ogre=True))
    assert check.decision.codes == (
        "roster_over_budget",
        "over_skill_points",
        "elite_skill_over_cap",
    )


def test_house_rule_overrides_the_defaults(bb2025: Ruleset) -> None:
    merged = merge_house_rules(
        bb2025, {"matched_play": {"budget": 1_000_000, "skill_points": [1, 2, 3, 4]}}
    )
    assert merged.matched_play is not None
    assert (merged.matched_play.budget, merged.matched_play.skill_points) == (
        1_000_000,
        (1, 2, 3, 4),
    )
    assert merged.matched_play.elite_cap == 4  # the edition's rule stays


@pytest.mark.parametrize(
    ("override", "key", "detail"),
    [
        ({"skill_points": [6, 7]}, "matched_play.skill_points", "expected 4 numbers"),
        ({"budget": -5}, "matched_play.budget", "must be at least 0"),
        ({"budget": 20_000_000}, "matched_play.budget", "must be at most 10000000"),
        ({"primary_cost": 0}, "matched_play.primary_cost", "must be at least 1"),
        ({"elite_cap": 9}, "matched_play.elite_cap", "unknown key"),
        ({"elite_costs_extra": "yes"}, "matched_play.elite_costs_extra", "true or false"),
    ],
)
def test_bad_house_rule_values_are_refused(
    bb2025: Ruleset, override: dict[str, object], key: str, detail: str
) -> None:
    with pytest.raises(RulesetError) as caught:
        merge_house_rules(bb2025, {"matched_play": override})
    assert caught.value.key == key
    assert detail in caught.value.detail


def test_rulesets_without_matched_play(bb2020: Ruleset) -> None:
    assert bb2020.matched_play is None
    with pytest.raises(RulesetError, match="no matched-play rules"):
        merge_house_rules(bb2020, {"matched_play": {}})
    with pytest.raises(RulesError):
        check_tournament_roster(bb2020, TournamentRoster("human", ()))
