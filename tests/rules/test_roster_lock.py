"""Issue 31: who may still change a tournament roster (league.rules.matched_play.roster_change)."""

from __future__ import annotations

import pytest

from league.rules.matched_play import roster_change


@pytest.mark.parametrize(
    ("state", "organiser", "closed", "refused"),
    [
        # Before the correction deadline: anything but an approved roster may change.
        ("open", False, False, None),
        ("submitted", False, False, None),
        ("returned", False, False, None),
        # Approved: locked for everybody, the organiser too (he unlocks it first).
        ("approved", False, False, "matched_play.roster_locked"),
        ("approved", True, False, "matched_play.roster_locked"),
        ("approved", True, True, "matched_play.roster_locked"),
        # After the correction deadline: the coach no longer, the organiser still.
        ("returned", False, True, "matched_play.corrections_closed"),
        ("open", False, True, "matched_play.corrections_closed"),
        ("submitted", True, True, None),
    ],
)
def test_who_may_change_a_roster(
    state: str, organiser: bool, closed: bool, refused: str | None
) -> None:
    decision = roster_change(state=state, organiser=organiser, corrections_closed=closed)
    assert decision.allowed is (refused is None)
    assert [reason.key for reason in decision.reasons] == ([refused] if refused else [])
