"""Playoff brackets and Swiss pairings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.rules import Ruleset
from league.rules.base import RulesetError
from league.rules.competitions import (
    Ranked,
    SideResult,
    bonus_points,
    bracket_order,
    bye_match_outcome,
    bye_outcome,
    first_round,
    match_outcome,
    outcome,
    playoff_decision,
    playoff_entrants,
    result_points,
    swiss_round,
)
from league.rules.loader.season import merged_tournament
from league.rules.loader.tables import Table
from league.rules.model import BonusRule, Tournament


def ids(pairs: tuple[tuple[Ranked, Ranked], ...]) -> list[tuple[int, int]]:
    return [(home.team_id, away.team_id) for home, away in pairs]


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(16)[:4] == (1, 16, 8, 9)


# Two divisions: A teams are 1xx, B teams 2xx; the overall table interleaves them.
TWO_DIVISIONS = [
    Ranked(101, "A"),
    Ranked(102, "A"),
    Ranked(201, "B"),
    Ranked(103, "A"),
    Ranked(104, "A"),
    Ranked(202, "B"),
    Ranked(105, "A"),
    Ranked(203, "B"),
    Ranked(204, "B"),
    Ranked(205, "B"),
]


def test_bb2025_eight_team_bracket_from_two_divisions(bb2025: Ruleset) -> None:
    # BB2025: four places per division. Seeds: division winners (101, 201),
    # runners-up (102, 202), thirds (103, 203), fourths (104, 204). Seed 1
    # meets seed 8 and so on; every first-round match crosses divisions.
    entrants = playoff_entrants(bb2025, 8, TWO_DIVISIONS)
    assert [e.team_id for e in entrants] == [101, 201, 102, 202, 103, 203, 104, 204]
    pairs = first_round(bb2025, 8, TWO_DIVISIONS)
    assert ids(pairs) == [(101, 204), (202, 103), (201, 104), (102, 203)]
    assert all(home.division != away.division for home, away in pairs)


def test_bb2020_takes_the_top_of_the_table(bb2020: Ruleset) -> None:
    # BB2020: the top four of the overall table, 1v4 and 2v3, divisions or not.
    pairs = first_round(bb2020, 4, TWO_DIVISIONS)
    assert ids(pairs) == [(101, 103), (102, 201)]


def test_lower_seeds_are_swapped_to_avoid_a_same_division_match(bb2025: Ruleset) -> None:
    # Three divisions X (1xx), Y (2xx), Z (3xx); two places each, then the two
    # best teams left (103, 104). Seeds: 101, 201, 301, 102, 202, 302, 103, 104.
    # 1v8 would be 101 v 104 (both X): 101 takes 302 (seed 6), 201 takes 103,
    # 301 takes 104 and 102 takes 202 - every match crosses divisions.
    table = [
        Ranked(101, "X"),
        Ranked(102, "X"),
        Ranked(201, "Y"),
        Ranked(103, "X"),
        Ranked(301, "Z"),
        Ranked(202, "Y"),
        Ranked(104, "X"),
        Ranked(302, "Z"),
        Ranked(203, "Y"),
        Ranked(303, "Z"),
    ]
    entrants = playoff_entrants(bb2025, 8, table)
    assert [e.team_id for e in entrants] == [101, 201, 301, 102, 202, 302, 103, 104]
    assert ids(first_round(bb2025, 8, table)) == [(101, 302), (102, 202), (201, 103), (301, 104)]


def test_a_bracket_that_cannot_avoid_same_division_matches_is_refused(bb2025: Ruleset) -> None:
    # Y and Z hold one team each: six of the eight places go to X, and only
    # two X teams can meet a non-X team in the first round.
    table = [Ranked(100 + i, "X") for i in range(1, 9)] + [Ranked(201, "Y"), Ranked(301, "Z")]
    decision = playoff_decision(bb2025, 8, table)
    assert decision.codes == ("same_division_pairing",)


def test_bracket_size_and_field_are_checked(bb2025: Ruleset) -> None:
    assert playoff_decision(bb2025, 6, TWO_DIVISIONS).codes == ("bracket_size",)
    assert playoff_decision(bb2025, 16, TWO_DIVISIONS).codes == ("not_enough_teams",)
    assert playoff_decision(bb2025, 4, TWO_DIVISIONS)


def test_one_division_is_seeded_from_the_table(bb2025: Ruleset) -> None:
    table = [Ranked(i, "A") for i in range(1, 6)]
    assert ids(first_round(bb2025, 4, table)) == [(1, 4), (2, 3)]


# ---------------------------------------------------------------------------
# Swiss


def test_swiss_pairs_down_the_ranking() -> None:
    # After round 1 (1 beat 2, 3 beat 4) the ranking is 1, 3, 2, 4.
    played = {frozenset((1, 2)), frozenset((3, 4))}
    assert swiss_round([1, 3, 2, 4], played, (), random.Random(0)).pairs == ((1, 3), (2, 4))


def test_swiss_swaps_down_to_avoid_a_rematch() -> None:
    # 1 and 2 top the ranking but have met: 1 meets 3, then 2 meets 4.
    played = {frozenset((1, 2)), frozenset((3, 4))}
    assert swiss_round([1, 2, 3, 4], played, (), random.Random(0)).pairs == ((1, 3), (2, 4))
    # Round 3: 1 has met 2 and 3, so 1 v 4 and 2 v 3.
    played |= {frozenset((1, 3)), frozenset((2, 4))}
    assert swiss_round([1, 2, 3, 4], played, (), random.Random(0)).pairs == ((1, 4), (2, 3))


def test_the_bye_goes_to_the_lowest_team_without_one() -> None:
    played = {frozenset((1, 2)), frozenset((3, 4))}
    assert swiss_round([1, 2, 3, 4, 5], played, (5,), random.Random(0)).bye == 4


def test_first_round_is_drawn_at_random() -> None:
    draws = {swiss_round(range(1, 9), (), (), random.Random(seed)).pairs for seed in range(20)}
    assert len(draws) > 1


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.lists(st.integers(0, 2), min_size=20, max_size=20))
def test_nine_teams_over_four_rounds(rng: random.Random, results: list[int]) -> None:
    # 9 teams, 4 rounds, any results: nobody meets the same team twice, every
    # team plays or sits out once a round, and four different teams sit out.
    teams = list(range(1, 10))
    points = dict.fromkeys(teams, 0)
    played: set[frozenset[int]] = set()
    byes: list[int] = []
    outcomes = iter(results)
    for _ in range(4):
        ranking = sorted(teams, key=lambda t: (-points[t], t))
        round_ = swiss_round(ranking, played, byes, rng)
        assert not round_.rematches
        seen = [t for pair in round_.pairs for t in pair] + [round_.bye]
        assert sorted(seen) == teams
        assert round_.bye not in byes
        byes.append(round_.bye)
        points[round_.bye] += 3  # a bye counts as a win here
        for home, away in round_.pairs:
            assert frozenset((home, away)) not in played
            played.add(frozenset((home, away)))
            outcome = next(outcomes)  # 0 home wins, 1 draw, 2 away wins
            points[home] += (3, 1, 0)[outcome]
            points[away] += (0, 1, 3)[outcome]
    assert len(set(byes)) == 4


# ---------------------------------------------------------------------------
# Tournament points: an organiser's scheme (the guide leaves them to the organiser).

SCHEME = Tournament(
    points=(3, 1, 0),
    bonus=(
        BonusRule("touchdowns", 3, 1),  # +1 for scoring 3 or more touchdowns
        BonusRule("casualties", 3, 1),  # +1 for causing 3 or more casualties
        BonusRule("close_loss", 1, 1),  # +1 for losing by exactly one touchdown
    ),
)


def test_result_points_are_the_tournaments_else_the_leagues() -> None:
    # The scheme's 3/1/0 replace the league's 2/1/0; without its own, the league's count.
    assert result_points(SCHEME, (2, 1, 0)) == {"won": 3, "drawn": 1, "lost": 0}
    assert result_points(Tournament(), (2, 1, 0)) == {"won": 2, "drawn": 1, "lost": 0}


def test_outcome_a_concession_is_a_loss_whatever_the_score() -> None:
    assert outcome(SideResult(2), SideResult(1)) == "won"
    assert outcome(SideResult(1), SideResult(1)) == "drawn"
    assert outcome(SideResult(2, conceded=True), SideResult(0)) == "lost"
    assert outcome(SideResult(0), SideResult(2, conceded=True)) == "won"


@pytest.mark.parametrize(
    ("own", "other", "bonus"),
    [
        # 3-1 with 2 casualties: 3 touchdowns (+1); 2 casualties are under 3; a win.
        (SideResult(3, casualties=2), SideResult(1), 1),
        # 3-0 with 4 casualties: touchdowns (+1) and casualties (+1).
        (SideResult(3, casualties=4), SideResult(0), 2),
        # 1-2: lost by exactly one touchdown (+1).
        (SideResult(1), SideResult(2), 1),
        # 3-4 with 3 casualties: touchdowns, casualties and the close loss (+3).
        (SideResult(3, casualties=3), SideResult(4), 3),
        # 0-2: lost by two, more than the close-loss threshold of one; nothing else.
        (SideResult(0, casualties=1), SideResult(2), 0),
        # 1-1: a draw is no close loss.
        (SideResult(1), SideResult(1), 0),
        # Conceded at 3-4 with 3 casualties: a team that gives up earns no bonus.
        (SideResult(3, conceded=True, casualties=3), SideResult(4), 0),
        # 0-1 against a team that conceded: a win, so no close loss.
        (SideResult(0), SideResult(1, conceded=True), 0),
    ],
)
def test_bonus_points_add_every_rule_met(own: SideResult, other: SideResult, bonus: int) -> None:
    assert bonus_points(SCHEME, own, other) == bonus


def test_a_wider_close_loss_and_bigger_bonuses() -> None:
    # close_loss 2 gives +2 for losing by one or two touchdowns, not by three.
    scheme = Tournament(bonus=(BonusRule("close_loss", 2, 2),))
    assert [bonus_points(scheme, SideResult(0), SideResult(n)) for n in (1, 2, 3)] == [2, 2, 0]


def test_the_match_outcome_of_a_concession_at_1_0_for_the_conceding_team() -> None:
    # The scheme scores 3/1/0 with bonuses (3+ TD, 3+ CAS, a loss by one). The home team
    # led 1-0 with 3 casualties and conceded: it lost (a concession is a loss whatever the
    # score), earns the loss's 0 points and no bonus (it gave the match up). The other team
    # won: 3 points; 0 TD and no casualties earn no bonus, and a win is no close loss.
    home = SideResult(1, conceded=True, casualties=3)
    away = SideResult(0)
    conceding = match_outcome(SCHEME, (2, 1, 0), home, away)
    assert (conceding.result, conceding.conceded, conceding.points) == ("lost", True, 0)
    assert (conceding.bonus_points, conceding.tournament_points) == (0, 0)
    other = match_outcome(SCHEME, (2, 1, 0), away, home)
    assert (other.result, other.opponent_conceded, other.points, other.bonus_points) == (
        "won",
        True,
        3,
        0,
    )
    assert other.won
    assert not other.lost
    assert other.tournament_points == 3


def test_the_match_outcome_adds_the_bonus_to_the_points() -> None:
    # 3-4 with 3 casualties under the scheme: a loss (0) plus touchdowns, casualties and
    # the close loss (+3); with the league's 2/1/0 and no bonus rules, a loss is 0.
    found = match_outcome(SCHEME, (2, 1, 0), SideResult(3, casualties=3), SideResult(4))
    assert (found.result, found.points, found.bonus_points, found.tournament_points) == (
        "lost",
        0,
        3,
        3,
    )
    drawn = match_outcome(Tournament(), (2, 1, 0), SideResult(1), SideResult(1))
    assert (drawn.result, drawn.tournament_points) == ("drawn", 1)


def test_a_bye_counts_as_the_data_or_house_rule_says() -> None:
    # A bye: the tournament's result, its points, never a bonus.
    assert bye_match_outcome(SCHEME, (2, 1, 0)).tournament_points == 3
    assert bye_match_outcome(Tournament(bye_result="draw"), (2, 1, 0)).tournament_points == 1
    assert bye_outcome(Tournament()) == "won"
    assert bye_outcome(Tournament(bye_result="draw")) == "drawn"


def test_the_event_scores_a_concession_as_its_settings_say() -> None:
    # The event: 3/1/0, a conceding coach gets -1, a conceded match counts as 2-0, and a
    # bonus point for 2+ touchdowns. Home led 1-0 and conceded.
    event = Tournament(
        points=(3, 1, 0),
        concession_points=-1,
        concession_score=(2, 0),
        bonus=(BonusRule("touchdowns", 2, 1),),
    )
    home, away = SideResult(1, conceded=True), SideResult(0)
    conceding = match_outcome(event, (2, 1, 0), home, away)
    # Lost, -1 point (the setting, not the loss's 0), counted 0-2, no bonus: -1 in all.
    assert (conceding.result, conceding.points, conceding.score) == ("lost", -1, (0, 2))
    assert conceding.tournament_points == -1
    winner = match_outcome(event, (2, 1, 0), away, home)
    # Won: 3 points, credited 2-0, so the 2-touchdown bonus is met: 3 + 1 = 4.
    assert (winner.result, winner.points, winner.score, winner.bonus_points) == (
        "won",
        3,
        (2, 0),
        1,
    )
    # Without the settings: a loss's points and the score as played.
    plain = match_outcome(Tournament(), (2, 1, 0), home, away)
    assert (plain.points, plain.score) == (0, (1, 0))
    # A match nobody conceded keeps its score under the event's settings.
    assert match_outcome(event, (2, 1, 0), SideResult(3), SideResult(1)).score == (3, 1)


def test_the_concession_settings_load_and_refuse_bad_values() -> None:
    def load(data: dict) -> Tournament:
        return merged_tournament(Table("house rules", data, "tournament"), Tournament())

    loaded = load({"concession_points": -1, "concession_score": [2, 0]})
    assert (loaded.concession_points, loaded.concession_score) == (-1, (2, 0))
    for bad in ({"concession_score": [0, 2]}, {"concession_score": [2]}):
        with pytest.raises(RulesetError):
            load(bad)
