"""The order of the league table: the tie-breakers a league may pick and how they rank
teams level on points, worked out by hand.

Tie-breakers are a league setting, not an edition rule: the commissioner picks them and
their order from `TIE_BREAKERS` (whose order is the default); points always come first.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from league.rules.competitions import BY_NAME, TIE_BREAKERS, rank_table, tie_breaker_order


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    team_id: int
    points: int
    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0
    concessions: int = 0


def names(lines: list[Line]) -> list[str]:
    return [line.name for line in lines]


def test_the_default_order_starts_with_points_then_head_to_head() -> None:
    assert TIE_BREAKERS[:2] == ("points", "head_to_head")
    assert tie_breaker_order(None) == TIE_BREAKERS
    assert tie_breaker_order([]) == TIE_BREAKERS


@pytest.mark.parametrize(
    ("picked", "order"),
    [
        (["td_difference"], ("points", "td_difference")),
        (["td_scored", "points"], ("td_scored", "points")),
        (["no_such_rule", "cas_difference"], ("points", "cas_difference")),
    ],
)
def test_points_come_first_unless_picked_and_unknown_codes_are_dropped(
    picked: list[str], order: tuple[str, ...]
) -> None:
    assert tie_breaker_order(picked) == order


def test_points_rank_before_any_tie_breaker() -> None:
    # 7 points beat 6 whatever the touchdowns: 7 > 6, so nothing else is read.
    lines = [Line("Aces", 1, 6, td_for=9), Line("Kings", 2, 7)]
    ranked, gaps = rank_table(lines, TIE_BREAKERS, {})
    assert names(ranked) == ["Kings", "Aces"]
    assert gaps == ["points"]


def test_head_to_head_beats_a_better_touchdown_difference() -> None:
    # Both on 6 points. Aces beat Kings 1-0 (3 points to 0 between them), so Aces go
    # ahead although Kings' touchdown difference (+5) is far better than theirs (+1).
    aces = Line("Aces", 1, 6, td_for=3, td_against=2)
    kings = Line("Kings", 2, 6, td_for=7, td_against=2)
    mutual = {(1, 2): 3, (2, 1): 0}
    ranked, gaps = rank_table([aces, kings], TIE_BREAKERS, mutual)
    assert names(ranked) == ["Aces", "Kings"]
    assert gaps == ["head_to_head"]
    # Without head-to-head the touchdown difference decides: +5 > +1.
    ranked, gaps = rank_table([aces, kings], ("points", "td_difference"), mutual)
    assert names(ranked) == ["Kings", "Aces"]
    assert gaps == ["td_difference"]


def test_head_to_head_is_worked_out_again_among_the_teams_still_level() -> None:
    # Four teams on 9 points. Between them: A beat B, C and D (9); B beat C (3); C beat D
    # (3); D won none (0). So A first, D last, and B and C level on 3 among the four.
    # Between B and C alone, B won (3 to 0): B goes ahead although C has the better
    # touchdown difference (+4 against 0), which is never read.
    lines = [
        Line("A", 1, 9),
        Line("B", 2, 9),
        Line("C", 3, 9, td_for=4),
        Line("D", 4, 9),
    ]
    mutual = {(1, 2): 3, (1, 3): 3, (1, 4): 3, (2, 3): 3, (3, 4): 3}
    ranked, gaps = rank_table(lines, TIE_BREAKERS, mutual)
    assert names(ranked) == ["A", "B", "C", "D"]
    assert gaps == ["head_to_head", "head_to_head", "head_to_head"]


def test_a_three_way_circle_falls_through_to_the_next_tie_breaker() -> None:
    # A beat B, B beat C, C beat A: 3 points each between them, so head-to-head separates
    # no one; the touchdown differences (+2, +1, 0) then do.
    lines = [
        Line("A", 1, 3, td_for=2),
        Line("B", 2, 3, td_for=1),
        Line("C", 3, 3),
    ]
    mutual = {(1, 2): 3, (2, 3): 3, (3, 1): 3}
    ranked, gaps = rank_table(lines, TIE_BREAKERS, mutual)
    assert names(ranked) == ["A", "B", "C"]
    assert gaps == ["td_difference", "td_difference"]


@pytest.mark.parametrize(
    ("code", "first"),
    [
        # Casualties caused minus suffered: Aces 5 - 1 = +4 against Kings 3 - 3 = 0.
        ("cas_difference", "Aces"),
        # Touchdowns scored: Kings 6 against Aces 4 (their difference is level, +2).
        ("td_scored", "Kings"),
        # Fewest matches given up: Kings 0 against Aces 1.
        ("fewest_conceded", "Kings"),
    ],
)
def test_each_tie_breaker_reads_its_own_figure(code: str, first: str) -> None:
    aces = Line("Aces", 1, 4, td_for=4, td_against=2, cas_for=5, cas_against=1, concessions=1)
    kings = Line("Kings", 2, 4, td_for=6, td_against=4, cas_for=3, cas_against=3)
    ranked, gaps = rank_table([aces, kings], ("points", code), {})
    assert names(ranked)[0] == first
    assert gaps == [code]


def test_the_coin_toss_and_the_name_leave_level_teams_in_the_order_given() -> None:
    # The table passes teams sorted by name: "Aces" before "Kings". Level on every figure,
    # they stay in that order; what separates them is the commissioner's coin toss where
    # the league picked it, else only the name.
    lines = [Line("Aces", 2, 3), Line("Kings", 1, 3)]
    ranked, gaps = rank_table(lines, ("points", "td_difference", "coin_toss"), {})
    assert names(ranked) == ["Aces", "Kings"]
    assert gaps == ["coin_toss"]
    ranked, gaps = rank_table(lines, ("points", "td_difference"), {})
    assert names(ranked) == ["Aces", "Kings"]
    assert gaps == [BY_NAME]


def test_one_team_and_no_team_need_no_tie_breaker() -> None:
    assert rank_table([], TIE_BREAKERS, {}) == ([], [])
    only = Line("Aces", 1, 0)
    assert rank_table([only], TIE_BREAKERS, {}) == ([only], [])
