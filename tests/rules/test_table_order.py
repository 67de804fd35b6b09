"""The order of the league table: the tie-breakers a league may pick and how they rank
teams level on points, worked out by hand.

Tie-breakers are a league setting, not an edition rule: the commissioner picks them and
their order from `TIE_BREAKERS` (whose order is the default); points always come first.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from league.rules.competitions import (
    BY_NAME,
    DEFAULT_TIE_BREAKERS,
    TIE_BREAKERS,
    opponents_points,
    rank_table,
    tie_breaker_order,
    tie_breaker_values,
)


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
    opponents_points: int = 0
    coin_toss: int = 0


def names(lines: list[Line]) -> list[str]:
    return [line.name for line in lines]


def test_the_default_order_starts_with_points_then_head_to_head() -> None:
    assert TIE_BREAKERS[:2] == ("points", "head_to_head")
    assert tie_breaker_order(None) == DEFAULT_TIE_BREAKERS
    assert tie_breaker_order([]) == DEFAULT_TIE_BREAKERS


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
        # Casualties caused: Aces 5 against Kings 3.
        ("cas_caused", "Aces"),
        # Opponents' points: Kings 9 against Aces 7.
        ("opponents_points", "Kings"),
    ],
)
def test_each_tie_breaker_reads_its_own_figure(code: str, first: str) -> None:
    aces = Line(
        "Aces",
        1,
        4,
        td_for=4,
        td_against=2,
        cas_for=5,
        cas_against=1,
        concessions=1,
        opponents_points=7,
    )
    kings = Line(
        "Kings", 2, 4, td_for=6, td_against=4, cas_for=3, cas_against=3, opponents_points=9
    )
    ranked, gaps = rank_table([aces, kings], ("points", code), {})
    assert names(ranked)[0] == first
    assert gaps == [code]


def test_the_coin_toss_ranks_by_the_stored_draw_and_the_name_comes_last() -> None:
    # The table passes teams sorted by name: "Aces" before "Kings". Level on every figure,
    # the stored coin toss decides where the league picked it (Kings drew 812 > 95);
    # without it, or with equal draws, only the name separates them.
    lines = [Line("Aces", 2, 3, coin_toss=95), Line("Kings", 1, 3, coin_toss=812)]
    ranked, gaps = rank_table(lines, ("points", "td_difference", "coin_toss"), {})
    assert names(ranked) == ["Kings", "Aces"]
    assert gaps == ["coin_toss"]
    ranked, gaps = rank_table(lines, ("points", "td_difference"), {})
    assert names(ranked) == ["Aces", "Kings"]
    assert gaps == [BY_NAME]
    same = [Line("Aces", 2, 3, coin_toss=7), Line("Kings", 1, 3, coin_toss=7)]
    ranked, gaps = rank_table(same, ("points", "coin_toss"), {})
    assert names(ranked) == ["Aces", "Kings"]
    assert gaps == [BY_NAME]


def test_one_team_and_no_team_need_no_tie_breaker() -> None:
    assert rank_table([], TIE_BREAKERS, {}) == ([], [])
    only = Line("Aces", 1, 0)
    assert rank_table([only], TIE_BREAKERS, {}) == ([only], [])


def test_a_circular_three_way_tie_goes_to_the_next_tie_breaker_by_hand() -> None:
    # Three teams, 2 points for a win: Aces beat Bulls, Bulls beat Crows, Crows beat
    # Aces; each also beat Dregs. Aces, Bulls, Crows: 2 wins each = 4 points.
    # Head-to-head among the three: each took 2 points from one win = 2, 2, 2 (circular),
    # so it separates nobody and the next tie-breaker decides: opponents' points.
    # Aces met Bulls (4), Crows (4), Dregs (0) = 8; so did Bulls and Crows: 8 each, level
    # again. Then casualties caused: Aces 3, Bulls 6, Crows 4: Bulls, Crows, Aces.
    mutual = {(1, 2): 2, (2, 3): 2, (3, 1): 2, (1, 4): 2, (2, 4): 2, (3, 4): 2}
    lines = [
        Line("Aces", 1, 4, cas_for=3, opponents_points=8),
        Line("Bulls", 2, 4, cas_for=6, opponents_points=8),
        Line("Crows", 3, 4, cas_for=4, opponents_points=8),
        Line("Dregs", 4, 0, cas_for=9),
    ]
    order = ("points", "head_to_head", "opponents_points", "cas_caused", "coin_toss")
    ranked, gaps = rank_table(lines, order, mutual)
    assert names(ranked) == ["Bulls", "Crows", "Aces", "Dregs"]
    assert gaps == ["cas_caused", "cas_caused", "points"]
    values = tie_breaker_values(ranked, order, mutual)
    # In the league's order; head-to-head among the teams level on points only
    # (Dregs, alone on 0 points, has 0).
    assert list(values[2]) == list(order)
    assert values[2] == {
        "points": 4,
        "head_to_head": 2,
        "opponents_points": 8,
        "cas_caused": 6,
        "coin_toss": 0,
    }
    assert values[4]["head_to_head"] == 0


def test_opponents_points_sum_each_opponent_once_per_match_and_byes_add_nothing() -> None:
    # Points in the table: 1 has 6, 2 has 3, 3 has 1, 4 has 4 (its bye's points included).
    # Team 1 met 2 twice and 3 once: 3 + 3 + 1 = 7. Team 4 met only 3 (and had a bye,
    # which is no meeting): 1. Team 2 met 1 twice: 12. Team 3 met 1 and 4: 6 + 4 = 10.
    points = {1: 6, 2: 3, 3: 1, 4: 4}
    meetings = [(1, 2, 2), (1, 3, 1), (2, 1, 2), (3, 1, 1), (3, 4, 1), (4, 3, 1)]
    assert opponents_points(points, meetings) == {1: 7, 2: 12, 3: 10, 4: 1}
    assert opponents_points({5: 3}, []) == {5: 0}
