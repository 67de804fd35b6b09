"""Every shipped ruleset loads, validates and hangs together."""

from __future__ import annotations

import pytest

from league.rules import (
    DEFAULT_RULESET_ID,
    SPP_EVENTS,
    Ruleset,
    advancement_kinds,
    load_ruleset,
    ruleset_ids,
)

SHIPPED = ("bb2020", "bb2025", "classic", "classic-spend")


def test_ruleset_ids_lists_the_shipped_rulesets() -> None:
    assert ruleset_ids() == SHIPPED
    assert DEFAULT_RULESET_ID == "bb2025"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_loads(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.id == ruleset_id
    assert ruleset.skills
    assert ruleset.team_types
    assert load_ruleset(ruleset_id) is ruleset  # cached


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_position_is_buildable(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    for team_type in ruleset.team_types:
        assert team_type.reroll_cost > 0, team_type.id
        for position in team_type.positions:
            assert position.cost >= 0
            for ref in position.skills:
                assert ruleset.find_skill(ref.name) is not None
            for code in (*position.primary, *position.secondary):
                assert ruleset.has_category(code)
            if ruleset.stat_style == "value":
                assert position.pa is None


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_api_fields_are_available(ruleset_id: str) -> None:
    """Everything GET /api/v1/rulesets/{id} needs is on the object."""
    ruleset = load_ruleset(ruleset_id)
    adv = ruleset.advancement
    assert adv.mode in ("spend", "roll")
    assert adv.levels[0] == "Rookie"
    assert len(adv.levels) == adv.max_advancements + 1
    if adv.mode == "spend":
        assert all(len(row) == adv.max_advancements for row in adv.costs.values())
        assert adv.thresholds == ()
    else:
        assert len(adv.thresholds) == adv.max_advancements
        assert dict(adv.costs) == {}
    assert set(ruleset.value_increase.as_dict()) == {
        "random_primary", "chosen_primary", "random_secondary", "chosen_secondary",
        "ma", "st", "ag", "pa", "av",
    }  # fmt: skip
    assert set(ruleset.spp.awards) == set(SPP_EVENTS)
    assert [c.code for c in ruleset.skill_categories]
    assert advancement_kinds(ruleset)


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
def test_random_tables_are_complete(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    learnable = [c for c in ruleset.skill_categories if c.learnable]
    assert learnable
    for category in learnable:
        assert len(category.table) == 12, category.code


def test_classic_spend_reuses_classic_rosters_with_its_own_skills() -> None:
    classic = load_ruleset("classic")
    spend = load_ruleset("classic-spend")
    assert spend.based_on == "classic"
    assert spend.team_types == classic.team_types
    # The skill list is seed 000's, not classic's (tests/rules/test_classic_spend_skills.py).
    assert spend.find_skill("Piledriver") is not None
    assert classic.find_skill("Piledriver") is None
    assert classic.advancement.mode == "roll"
    assert spend.advancement.mode == "spend"


def test_classic_extraordinary_skills_are_never_bought() -> None:
    for ruleset_id in ("classic", "classic-spend"):
        ruleset = load_ruleset(ruleset_id)
        for category in ruleset.skill_categories:
            if not category.learnable:
                assert not any(s.buyable for s in ruleset.skills if s.category == category.code)


def test_bb2025_elite_skills() -> None:
    ruleset = load_ruleset("bb2025")
    assert sorted(s.name for s in ruleset.skills if s.elite) == [
        "Block",
        "Dodge",
        "Guard",
        "Mighty Blow",
    ]
    for ruleset_id in ("bb2020", "classic"):
        assert not any(s.elite for s in load_ruleset(ruleset_id).skills)


def test_bb2025_dwarf_tier_follows_the_may_2026_errata() -> None:
    # The book prints tier 1; GW's May-2026 list (the errata the positions follow) says 2.
    ruleset = load_ruleset("bb2025")
    assert ruleset.team_type("dwarf").tier == 2
    assert ruleset.team_type("chaos-dwarf").tier == 1  # unchanged by that list
