"""Coach ratings: the NAF ranking formula (an Elo rating), as pure functions.

The NAF (the international Blood Bowl players' association) publishes how it ranks
coaches; this is that formula ("NAF ranking formula"), with its numbers in one place
below. Every coach starts at `STARTING_RATING`; before a match each side's expected
result is

    expected = 1 / (10 ** ((opponent - you) / SCALE) + 1)

a win scores 1, a draw 0.5, a loss 0, and the rating moves by

    new = old + K * (score - expected),   K = K_FACTOR * sqrt(min(coaches, MAX_COACHES))

where `coaches` is the number of coaches in the competition. The NAF caps that
number at 32 for ordinary events (60 for its majors, which this site has none of).

Which matches count, in which order, and what "the competition" is here is the
service's business (`league.services.ratings`); docs/ratings.md explains both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# The NAF ranking formula's numbers, decided here and nowhere else:
#: Every coach's rating before their first match.
STARTING_RATING = 150.0
#: The rating difference at which the stronger coach is expected to score 10 to 1
#: (the divisor of the exponent in the expected result).
SCALE = 150.0
#: The most coaches the K factor counts (the NAF's cap for an ordinary event).
MAX_COACHES = 32
#: K = K_FACTOR x sqrt(coaches counted).
K_FACTOR = 2.0

#: What each outcome of `league.rules.competitions.outcome` scores.
SCORES = {"won": 1.0, "drawn": 0.5, "lost": 0.0}


def expected_score(rating: float, opponent: float) -> float:
    """The share of the points a coach rated `rating` is expected to take against one
    rated `opponent` (NAF ranking formula): 0.5 between equals."""
    return 1.0 / (math.pow(10.0, (opponent - rating) / SCALE) + 1.0)


def k_factor(coaches: int) -> float:
    """How far one match moves a rating in a competition of `coaches` coaches
    (NAF ranking formula: 2 x sqrt(min(coaches, 32)); at least one coach counts)."""
    return K_FACTOR * math.sqrt(min(max(coaches, 1), MAX_COACHES))


def new_rating(rating: float, opponent: float, result: str, k: float) -> float:
    """A coach's rating after one match with `result` ('won', 'drawn' or 'lost')
    against a coach rated `opponent`, moved by `k` (NAF ranking formula)."""
    return rating + k * (SCORES[result] - expected_score(rating, opponent))


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One match between two coaches, as the rating reads it: who, how it went for the
    first coach ('won', 'drawn', 'lost'), and the K of its competition."""

    coach: int
    opponent: int
    result: str
    k: float


def rate(games: Iterable[RatedGame]) -> dict[int, float]:
    """Every coach's rating after `games`, played in that order (both coaches' ratings
    move at once, each from the rating they had before the match)."""
    ratings: dict[int, float] = {}
    for game in games:
        own = ratings.get(game.coach, STARTING_RATING)
        other = ratings.get(game.opponent, STARTING_RATING)
        ratings[game.coach] = new_rating(own, other, game.result, game.k)
        ratings[game.opponent] = new_rating(other, own, _REVERSED[game.result], game.k)
    return ratings


_REVERSED = {"won": "lost", "drawn": "drawn", "lost": "won"}
