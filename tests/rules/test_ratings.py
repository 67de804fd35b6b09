"""The NAF ranking formula (league.rules.ratings), worked by hand.

NAF ranking formula: expected = 1 / (10^((opponent - you) / 150) + 1); a win scores 1,
a draw 0.5, a loss 0; new = old + K x (score - expected); K = 2 x sqrt(min(coaches, 32)).
"""

from __future__ import annotations

import math

import pytest

from league.rules.ratings import (
    STARTING_RATING,
    RatedGame,
    expected_score,
    k_factor,
    new_rating,
    rate,
)

# A league of two coaches: K = 2 x sqrt(2) = 2.828427...
K_TWO = 2 * math.sqrt(2)


def test_the_naf_numbers() -> None:
    assert STARTING_RATING == 150
    # Equal ratings: 1 / (10^0 + 1) = 0.5 each.
    assert expected_score(150, 150) == 0.5
    assert k_factor(2) == pytest.approx(2.828427, abs=1e-6)
    # Capped at 32 coaches: 2 x sqrt(32) = 11.313708 for 32 and for 40 alike.
    assert k_factor(32) == pytest.approx(11.313708, abs=1e-6)
    assert k_factor(40) == k_factor(32)


def test_game_one_a_win_between_two_new_coaches() -> None:
    # Both at 150, expected 0.5 each. The winner: 150 + 2.828427 x (1 - 0.5) = 151.414214;
    # the loser: 150 + 2.828427 x (0 - 0.5) = 148.585786.
    ratings = rate([RatedGame(1, 2, "won", K_TWO)])
    assert ratings[1] == pytest.approx(151.414214, abs=1e-6)
    assert ratings[2] == pytest.approx(148.585786, abs=1e-6)


def test_game_two_a_draw_after_it() -> None:
    # Coach 1 at 151.414214 against coach 2 at 148.585786: the difference is 2.828427,
    # 10^(-2.828427 / 150) = 10^(-0.018856) = 0.957511, expected 1 / 1.957511 = 0.510853.
    # A draw: 151.414214 + 2.828427 x (0.5 - 0.510853) = 151.414214 - 0.030697 = 151.383517;
    # coach 2 gains what coach 1 loses: 148.585786 + 0.030697 = 148.616483.
    ratings = rate([RatedGame(1, 2, "won", K_TWO), RatedGame(2, 1, "drawn", K_TWO)])
    assert ratings[1] == pytest.approx(151.383517, abs=1e-5)
    assert ratings[2] == pytest.approx(148.616483, abs=1e-5)


def test_game_three_an_upset_in_a_big_league() -> None:
    # Forty coaches: K = 2 x sqrt(min(40, 32)) = 11.313708. The favourite at 200 loses to a
    # coach at 150: 10^(-50 / 150) = 0.464159, so expected 1 / 1.464159 = 0.682986.
    # 200 + 11.313708 x (0 - 0.682986) = 200 - 7.727104 = 192.272896; the winner expected
    # 0.317014: 150 + 11.313708 x (1 - 0.317014) = 157.727104.
    k = k_factor(40)
    assert expected_score(200, 150) == pytest.approx(0.682986, abs=1e-6)
    assert new_rating(200, 150, "lost", k) == pytest.approx(192.272896, abs=1e-5)
    assert new_rating(150, 200, "won", k) == pytest.approx(157.727104, abs=1e-5)


def test_the_points_are_zero_sum_between_two_coaches() -> None:
    ratings = rate([RatedGame(1, 2, "lost", K_TWO), RatedGame(1, 2, "won", 5.0)])
    assert ratings[1] + ratings[2] == pytest.approx(300)
