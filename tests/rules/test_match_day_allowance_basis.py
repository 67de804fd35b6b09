"""Why a side may spend what it may of its treasury (league.rules.treasury_allowance_basis)."""

from __future__ import annotations

import pytest

from league.rules import load_ruleset, treasury_allowance, treasury_allowance_basis


@pytest.mark.parametrize(
    ("ruleset_id", "own", "other", "standing", "allowed", "cap", "allowance"),
    [
        # BB2025 match_day.toml: the lower team adds at most 50,000 of treasury to petty
        # cash; equal CTVs spend no treasury; the higher team spends all of it.
        ("bb2025", 1_000_000, 1_150_000, "lower", True, 50_000, 50_000),
        ("bb2025", 1_150_000, 1_000_000, "higher", True, None, 180_000),
        ("bb2025", 1_000_000, 1_000_000, "equal", False, None, 0),
        # BB2020: the lower team spends its petty cash only.
        ("bb2020", 1_000_000, 1_150_000, "lower", False, 0, 0),
        # Classic: equal CTVs may spend the treasury.
        ("classic", 1_000_000, 1_000_000, "equal", True, None, 180_000),
    ],
)
def test_the_basis_matches_the_allowance(
    ruleset_id: str, own: int, other: int, standing: str, allowed: bool, cap, allowance: int
) -> None:
    ruleset = load_ruleset(ruleset_id)
    basis = treasury_allowance_basis(ruleset, own, other)
    assert (basis.standing, basis.allowed, basis.cap) == (standing, allowed, cap)
    assert treasury_allowance(ruleset, own, other, 180_000) == allowance
