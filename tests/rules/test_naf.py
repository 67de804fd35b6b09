"""The NAF's race names: every team type of every shipped ruleset has one (the mapping
is data, league/rules/data/naf_races.toml), and ratings are reported in thousands."""

from __future__ import annotations

import pytest

from league.rules import load_ruleset, ruleset_ids
from league.rules.naf import naf_race, naf_races, reportable, team_rating


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_team_type_of_every_ruleset_has_a_naf_race(ruleset_id: str) -> None:
    team_types = [team_type.id for team_type in load_ruleset(ruleset_id).team_types]
    assert len(team_types) >= 20
    missing = [team_type for team_type in team_types if naf_race(team_type) is None]
    assert not missing, f"{ruleset_id}: no NAF race for {missing}"


def test_the_mapping_holds_no_team_type_no_ruleset_has() -> None:
    known = {t.id for ruleset_id in ruleset_ids() for t in load_ruleset(ruleset_id).team_types}
    assert set(naf_races()) <= known
    # The NAF's current names for the BB2020 team lists, e.g.
    assert naf_race("underworld-denizens") == "Underworld Denizens"
    assert naf_race("old-world-alliance") == "Old World Alliance"


def test_ratings_are_thousands_and_only_members_are_reported() -> None:
    assert team_rating(1_150_000) == 1150
    assert team_rating(1_000_000) == 1000
    assert team_rating(995_000) == 995
    assert reportable(12345)
    assert not reportable(None)
