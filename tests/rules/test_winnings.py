"""Winnings worked out by hand from the rules (RULES-FACTS 6b).

BB2020: (Fan Attendance / 2 + own TDs) x 10,000. BB2025: the same + 1 if none of the
team's players was Stalling. The half is kept: the rulebook's worked example gives
attendance 7 -> 3.5, with 2 TD and no stalling (3.5 + 2 + 1) x 10,000 = 65,000, so
winnings move in steps of 5,000. A concession: the team that did not concede takes the
whole Fan Attendance (not halved) plus its TDs, with no stalling bonus in BB2025; the
conceding team gets no winnings.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from league.rules import load_ruleset, winnings, winnings_terms

# (attendance, TD, stalled) -> gold, each worked out by hand.
BB2025 = [
    # 7 / 2 = 3.5; no stalling +1.
    (7, 0, False, 45_000),  # 3.5 + 0 + 1
    (7, 1, False, 55_000),  # 3.5 + 1 + 1
    (7, 2, False, 65_000),  # 3.5 + 2 + 1: the rulebook's example
    (7, 3, False, 75_000),  # 3.5 + 3 + 1
    (7, 0, True, 35_000),  # 3.5 + 0
    (7, 1, True, 45_000),  # 3.5 + 1
    (7, 2, True, 55_000),  # 3.5 + 2
    (7, 3, True, 65_000),  # 3.5 + 3
    # 13 / 2 = 6.5.
    (13, 0, False, 75_000),  # 6.5 + 0 + 1
    (13, 1, False, 85_000),  # 6.5 + 1 + 1
    (13, 2, False, 95_000),  # 6.5 + 2 + 1
    (13, 3, False, 105_000),  # 6.5 + 3 + 1
    (13, 0, True, 65_000),  # 6.5 + 0
    (13, 1, True, 75_000),  # 6.5 + 1
    (13, 2, True, 85_000),  # 6.5 + 2
    (13, 3, True, 95_000),  # 6.5 + 3
]

BB2020 = [
    # No stalling bonus in BB2020, so stalling changes nothing.
    (7, 0, 35_000),  # 3.5 + 0
    (7, 1, 45_000),  # 3.5 + 1
    (7, 2, 55_000),  # 3.5 + 2
    (7, 3, 65_000),  # 3.5 + 3
    (13, 0, 65_000),  # 6.5 + 0
    (13, 1, 75_000),  # 6.5 + 1
    (13, 2, 85_000),  # 6.5 + 2
    (13, 3, 95_000),  # 6.5 + 3
]


@pytest.mark.parametrize(("attendance", "touchdowns", "stalled", "gold"), BB2025)
def test_bb2025_winnings(attendance: int, touchdowns: int, stalled: bool, gold: int) -> None:
    ruleset = load_ruleset("bb2025")
    found = winnings(ruleset, fan_attendance=attendance, touchdowns=touchdowns, stalled=stalled)
    assert found == gold


@pytest.mark.parametrize(("attendance", "touchdowns", "gold"), BB2020)
@pytest.mark.parametrize("stalled", [False, True])
def test_bb2020_winnings(attendance: int, touchdowns: int, stalled: bool, gold: int) -> None:
    ruleset = load_ruleset("bb2020")
    found = winnings(ruleset, fan_attendance=attendance, touchdowns=touchdowns, stalled=stalled)
    assert found == gold


def test_the_working_keeps_the_half() -> None:
    # The match page shows the terms: 3.5 units from the attendance, not 3.
    terms = winnings_terms(load_ruleset("bb2025"), fan_attendance=7, touchdowns=2)
    assert terms == (
        ("fan attendance 7 / 2", Fraction(7, 2)),
        ("2 TD", Fraction(2)),
        ("no stalling", Fraction(1)),
    )


# The team whose opponent conceded: (attendance + TDs) x 10,000, stalling or not.
CONCESSION = [
    (7, 0, 70_000),
    (7, 1, 80_000),
    (7, 2, 90_000),
    (7, 3, 100_000),
    (13, 0, 130_000),
    (13, 1, 140_000),
    (13, 2, 150_000),
    (13, 3, 160_000),
]


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020"])
@pytest.mark.parametrize(("attendance", "touchdowns", "gold"), CONCESSION)
@pytest.mark.parametrize("stalled", [False, True])
def test_winnings_when_the_opponent_conceded(
    ruleset_id: str, attendance: int, touchdowns: int, gold: int, stalled: bool
) -> None:
    ruleset = load_ruleset(ruleset_id)
    found = winnings(
        ruleset,
        fan_attendance=attendance,
        touchdowns=touchdowns,
        stalled=stalled,
        opponent_conceded=True,
    )
    assert found == gold


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020"])
def test_the_conceding_team_wins_nothing(ruleset_id: str) -> None:
    # Even leading 3-0 when it gave up.
    ruleset = load_ruleset(ruleset_id)
    assert winnings(ruleset, fan_attendance=13, touchdowns=3, conceded=True) == 0
    assert winnings_terms(ruleset, fan_attendance=13, touchdowns=3, conceded=True) == ()
