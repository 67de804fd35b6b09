"""League settings: house rules are checked entry by entry, every fault named."""

from __future__ import annotations

import pytest

from league.services.errors import RuleViolation
from league.services.leagues import LeagueSettings, create_league, house_rules_problems
from league.services.unit_of_work import unit_of_work
from tests.factories import make_user


def test_every_faulty_house_rule_is_named() -> None:
    problems = house_rules_problems(
        "bb2025",
        {
            # BB2025 has 6 advancements, so a cost row has 6 numbers.
            "costs": {"chosen_primary": [1, 2], "chosen_secondary": [5_000] * 6},
            "spp_awards": {"td": 500, "mvp": 4},
        },
    )
    assert [(p.field, p.message) for p in problems] == [
        (
            "house_rules.costs.chosen_primary",
            "House rules: expected 6 costs (one per advancement), got 2",
        ),
        (
            "house_rules.costs.chosen_secondary",
            "House rules: costs chosen_secondary must be at most 1,000.",
        ),
        ("house_rules.spp_awards.td", "House rules: spp awards td must be at most 100."),
    ]


def test_a_fault_of_a_whole_table_is_named_once() -> None:
    # Classic rolls for skills: no SPP costs to override, however many rows are given.
    problems = house_rules_problems(
        "classic", {"costs": {"chosen_primary": [1] * 6, "random_primary": [2] * 6}}
    )
    assert [(p.field, p.message) for p in problems] == [
        ("house_rules.costs", "House rules: ruleset 'classic' does not spend SPP (mode = roll)")
    ]


def test_sound_house_rules_have_no_problem_and_the_service_refuses_the_first_fault() -> None:
    assert house_rules_problems("bb2025", {"spp_awards": {"td": 2, "mvp": 5}}) == []
    comm = make_user("comm")
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        create_league(
            session,
            comm,
            LeagueSettings("Old World Cup", "bb2025", house_rules={"spp_awards": {"td": 500}}),
        )
    assert refused.value.field == "house_rules.spp_awards.td"
