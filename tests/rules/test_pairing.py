"""Swiss pairings with ordered constraints (league.rules.pairing): rematches first, then
two entries of one club or nation, then a coach's own two entries."""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.rules.competitions import swiss_round
from league.rules.model import RulesError
from league.rules.pairing import Entry, pair_breaks, pair_round, swap

CLUBS = ("North", "South", "East")


def _matchings(teams: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every way to pair ``teams`` (brute force: the test's own check, not the code's)."""
    if not teams:
        return [[]]
    first, rest = teams[0], list(teams[1:])
    found = []
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1 :]):
            found.append([(first, other), *tail])
    return found


def _could_avoid_clubs(
    entries: Sequence[Entry], played: Collection[frozenset[int]], bye_candidates: Sequence[int]
) -> bool:
    """Whether some pairing (with some allowed bye) has no rematch and no same-club pair."""
    club = {e.team_id: e.club for e in entries}
    options = bye_candidates or [None]
    for bye in options:
        rest = [e.team_id for e in entries if e.team_id != bye]
        for pairs in _matchings(rest):
            if all(frozenset(p) not in played and club[p[0]] != club[p[1]] for p in pairs):
                return True
    return False


# The test: a 12-coach event over 5 rounds, 3 clubs of 4 coaches. Coach 12 enters
# late (before round 2: 0 points, paired from round 2); one coach drops after round 2 (no
# longer paired; its games stand). Any results: no rematch ever, no same-club pairing
# while one could be avoided, every playing entry paired once or given the bye, and (odd
# rounds 1, 3, 4, 5) the bye to the lowest-placed entry without one: nobody twice.
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    results=st.lists(st.sampled_from((3, 1, 0)), min_size=30, max_size=30),
    dropped_index=st.integers(0, 11),
)
def test_twelve_coaches_three_clubs_five_rounds(
    seed: int, results: list[int], dropped_index: int
) -> None:
    everyone = [Entry(team, team, CLUBS[team % 3]) for team in range(1, 13)]
    late, dropped = everyone[11], everyone[dropped_index]
    points = {e.team_id: 0 for e in everyone}
    played: set[frozenset[int]] = set()
    byes: list[int] = []
    scores = iter(results)
    rng = random.Random(seed)
    games_of_dropped = 0
    for number in range(1, 6):
        playing = [
            e
            for e in everyone
            if (e is not late or number >= 2) and (e is not dropped or number <= 2)
        ]
        if dropped is late and number > 2:
            playing = [e for e in playing if e is not late]
        # The standings: points, then the team id (any fixed order will do here).
        ranking = sorted(playing, key=lambda e: (-points[e.team_id], e.team_id))
        candidates = [e.team_id for e in reversed(ranking) if e.team_id not in byes]
        pairing = swiss_round(ranking, played, set(byes), rng)
        assert "rematch" not in pairing.broken
        assert not pairing.rematches
        club = {e.team_id: e.club for e in playing}
        same_club = [p for p in pairing.pairs if club[p[0]] == club[p[1]]]
        if same_club:
            assert not _could_avoid_clubs(ranking, played, candidates if len(ranking) % 2 else [])
        assert ("same_club" in pairing.broken) == bool(same_club)
        seen = [t for pair in pairing.pairs for t in pair]
        if len(playing) % 2:
            assert pairing.bye is not None
            assert pairing.bye not in byes
            # The lowest-placed without a bye, unless only a higher one lets the round
            # keep its constraints.
            assert pairing.bye in candidates
            byes.append(pairing.bye)
            points[pairing.bye] += 3
            seen.append(pairing.bye)
        else:
            assert pairing.bye is None
        assert sorted(seen) == sorted(e.team_id for e in playing)
        if number == 1:
            assert late.team_id not in seen
        if number > 2:
            assert dropped.team_id not in seen
        for home, away in pairing.pairs:
            pair = frozenset((home, away))
            assert pair not in played
            played.add(pair)
            result = next(scores)
            points[home] += result
            points[away] += {3: 0, 1: 1, 0: 3}[result]
            games_of_dropped += dropped.team_id in pair
    # The dropped coach's games stand (nothing here takes them back): at most two rounds.
    assert games_of_dropped <= 2


def test_a_coachs_second_entry_is_avoided() -> None:
    # A and B are coach 1's, C and D coach 2's: pairing from the top, A would meet B.
    a, b, c, d = Entry(1, 1), Entry(2, 1), Entry(3, 2), Entry(4, 2)
    assert pair_round([a, b, c, d], set(), ()).pairs == ((1, 3), (2, 4))
    # Both other pairings are rematches: a rematch is worse than a coach's own entry.
    played = {frozenset((1, 3)), frozenset((2, 4)), frozenset((1, 4)), frozenset((2, 3))}
    pairing = pair_round([a, b, c, d], played, ())
    assert pairing.pairs == ((1, 2), (3, 4))
    assert pairing.broken == ("same_coach",)
    assert not pairing.rematches


def test_same_club_is_avoided_before_a_coachs_own_entries() -> None:
    # A, B: coach 1 (clubs X, Y); C: coach 2, club X; D: coach 3, club Y. A-D and B-C
    # are rematches. Left: {A-B, C-D} (a coach's own entries) or {A-C, B-D} (two clubs):
    # the club rule comes first, so A meets B.
    a, b = Entry(1, 1, "X"), Entry(2, 1, "Y")
    c, d = Entry(3, 2, "X"), Entry(4, 3, "y")  # clubs compare without case
    played = {frozenset((1, 4)), frozenset((2, 3))}
    pairing = pair_round([a, b, c, d], played, ())
    assert pairing.pairs == ((1, 2), (3, 4))
    assert pairing.broken == ("same_coach",)
    # Without the club rule, A meets C: nothing is broken.
    loose = pair_round([a, b, c, d], played, (), avoid_same_club=False)
    assert loose.pairs == ((1, 3), (2, 4))
    assert loose.broken == ()


def test_a_seeded_first_round_meets_the_top_half_with_the_bottom_half() -> None:
    # Ratings 200, 190, ... 130 for teams 1..8: 1 v 5, 2 v 6, 3 v 7, 4 v 8.
    ratings = {team: 210 - 10 * team for team in range(1, 9)}
    pairing = swiss_round(
        list(range(8, 0, -1)), set(), set(), random.Random(1), first_round="rating", ratings=ratings
    )
    assert pairing.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))


def test_a_seeded_first_round_still_keeps_clubs_apart() -> None:
    # Teams 1 and 3 share a club: 1 would meet 3 (1 v n/2+1 with four entries); it
    # meets the next one down instead.
    entries = [Entry(1, 1, "X"), Entry(2, 2, "Y"), Entry(3, 3, "X"), Entry(4, 4, "Z")]
    ratings = {1: 200, 2: 190, 3: 180, 4: 170}
    pairing = swiss_round(
        entries, set(), set(), random.Random(1), first_round="rating", ratings=ratings
    )
    assert pairing.pairs == ((1, 2), (3, 4))
    assert pairing.broken == ()


def test_swap_exchanges_two_entries_of_two_pairings() -> None:
    assert swap(((1, 2), (3, 4), (5, 6)), 2, 5) == ((1, 5), (3, 4), (2, 6))
    with pytest.raises(RulesError):
        swap(((1, 2), (3, 4)), 1, 2)
    with pytest.raises(RulesError):
        swap(((1, 2), (3, 4)), 1, 9)


def test_what_a_pair_breaks() -> None:
    a, b = Entry(1, 7, "Lustria"), Entry(2, 7, "lustria")
    assert pair_breaks(a, b, {frozenset((1, 2))}) == ("rematch", "same_club", "same_coach")
    assert pair_breaks(a, b, set(), avoid_same_club=False) == ("same_coach",)
    assert pair_breaks(Entry(1, 1), Entry(2, 2), set()) == ()


def test_a_large_field_pairs_quickly_enough_to_finish() -> None:
    # 64 entries in 8 clubs, 6 rounds by rank: each round is found (no exhaustive search).
    entries = [Entry(t, t, str(t % 8)) for t in range(1, 65)]
    played: set[frozenset[int]] = set()
    for _ in range(6):
        pairing = pair_round(entries, played, ())
        assert pairing.broken == ()
        played |= {frozenset(p) for p in pairing.pairs}
        entries = entries[1:] + entries[:1]


def test_all_permutations_of_four_keep_the_order_of_constraints() -> None:
    # Whatever the order, a pairing without rematches is found when one exists.
    played = {frozenset((1, 2)), frozenset((3, 4))}
    for order in itertools.permutations(range(1, 5)):
        pairing = pair_round([Entry(t, t) for t in order], played, ())
        assert not pairing.rematches
