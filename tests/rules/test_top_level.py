"""The ruleset's highest level, where the hall of fame reads it (ruleset.toml, [advancement])."""

from __future__ import annotations

from league.rules import Ruleset
from league.rules.advancement import TopLevel, player_level, top_level


def test_spend_mode_reaches_the_top_level_with_the_last_advancement(bb2025: Ruleset) -> None:
    # BB2025: max_advancements = 6; levels Rookie ... Legend (7 names).
    assert top_level(bb2025) == TopLevel("Legend", "advancements", 6)
    assert player_level(bb2025, 6) == "Legend"
    assert player_level(bb2025, 5) == "Superstar"


def test_roll_mode_reaches_it_with_the_last_spp_threshold(classic: Ruleset) -> None:
    # Classic: thresholds 6, 16, 31, 51, 76, 176; the sixth crossed is Legend.
    assert top_level(classic) == TopLevel("Legend", "spp", 176)
    assert player_level(classic, 0, 176) == "Legend"
    assert player_level(classic, 0, 175) == "Super Star"
