"""Which events an edition's live log has, and the server's casualty roll (issue 27)."""

from __future__ import annotations

import pytest

from league.rules import load_ruleset
from league.rules.live_log import HALVES, LOG_KINDS, TURNS_PER_HALF, log_kinds, roll_casualty


@pytest.mark.parametrize(
    ("ruleset_id", "lacks"),
    [
        # BB2025: no SPP for a deflection (ruleset data), stalling costs the +1 winnings.
        ("bb2025", {"deflection"}),
        # BB2020: no SPP for a safe landing, no stalling bonus in its winnings.
        ("bb2020", {"safe_landing", "stalling"}),
        # LRB6: no deflections, throw team-mate completions or safe landings award SPP.
        ("classic", {"deflection", "throw_completion", "safe_landing", "stalling"}),
    ],
)
def test_an_edition_logs_the_events_it_knows(ruleset_id: str, lacks: set[str]) -> None:
    kinds = log_kinds(load_ruleset(ruleset_id))
    assert set(LOG_KINDS) - set(kinds) == lacks
    assert list(kinds) == [k for k in LOG_KINDS if k in kinds]  # the page's order


def _dice(*rolls: int):
    given = iter(rolls)
    return lambda low, high: next(given)


@pytest.mark.parametrize(
    ("ruleset_id", "rolls", "expected"),
    [
        # BB2025 casualty table, D16: 1-8 badly hurt, 16 dead (RULES-FACTS 5b).
        ("bb2025", (1,), ((1,), "badly_hurt", None)),
        ("bb2025", (16,), ((16,), "dead", None)),
        # A lasting injury rolls the D6 table: 1-2 is AV in BB2020/BB2025 (RULES-FACTS 5a).
        ("bb2020", (13, 1), ((13, 1), "lasting_injury", "av")),
        # Classic D68: 11-38 badly hurt.
        ("classic", (1, 1), ((11,), "badly_hurt", None)),
    ],
)
def test_the_server_rolls_the_casualty_table(ruleset_id, rolls, expected) -> None:
    rolled = roll_casualty(load_ruleset(ruleset_id), _dice(*rolls))
    assert (rolled.dice, rolled.injury, rolled.lasting) == expected


def test_a_half_has_eight_turns_and_overtime_is_the_third() -> None:
    # The rulebook's sequence of play, every shipped edition: two halves of eight turns
    # a coach; a match that must have a winner goes on into overtime.
    assert TURNS_PER_HALF == 8
    assert HALVES == (1, 2, 3)
