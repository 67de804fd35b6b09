"""Swiss pairings with constraints: who may meet whom, in order of what matters most.

A round pairs entries (a team, its coach, the club or nation the coach plays for)
from a ranking, best first. Three constraints are kept where a pairing can keep
them, in this order (:data:`CONSTRAINTS`): no rematch, no two entries of one club
or nation (when the event asks for it), no coach against their own second entry.
When no pairing keeps all three, the least important one is given up first: every
pairing keeping the first two is tried before one that breaks the second, and so
on (the constraints kept compare like a binary number, the first the highest bit).
The answer says which constraints the round could not keep.

Within what the constraints allow, each entry meets the best-placed entry still
free, swapping down only where the entries below could not be paired otherwise
(the first round, drawn at random or seeded by rating, uses an order of its own).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from league.rules.model import RulesError

#: How a first round is paired: drawn at random, seeded by the entries' ratings
#: (the top half meets the bottom half: 1 v n/2+1, 2 v n/2+2...), or by hand.
FIRST_ROUNDS = ("random", "rating", "manual")
#: The constraints, most important first.
CONSTRAINTS = ("rematch", "same_club", "same_coach")
#: The rating an entry is seeded with when none is known (the NAF ranking's start).
DEFAULT_SEED_RATING = 150
#: Pairing attempts per try before a try counts as failed (a bound for huge fields;
#: a dozen or a hundred entries never come near it).
SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry in the round: its team, its coach, and its club or nation (None: none)."""

    team_id: int
    coach_id: int
    club: str | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    pairs: tuple[tuple[int, int], ...]
    #: The entry that sits out (an odd number of entries), else None.
    bye: int | None
    #: The constraints some pair of the round breaks, in CONSTRAINTS order (empty: none).
    broken: tuple[str, ...] = ()

    @property
    def rematches(self) -> bool:
        return "rematch" in self.broken


def _same_club(a: Entry, b: Entry) -> bool:
    return a.club is not None and b.club is not None and a.club.casefold() == b.club.casefold()


def pair_breaks(
    a: Entry, b: Entry, played: Collection[frozenset[int]], *, avoid_same_club: bool = True
) -> tuple[str, ...]:
    """The constraints pairing ``a`` with ``b`` breaks, in CONSTRAINTS order."""
    broken = {
        "rematch": frozenset((a.team_id, b.team_id)) in played,
        "same_club": avoid_same_club and _same_club(a, b),
        "same_coach": a.coach_id == b.coach_id,
    }
    return tuple(name for name in CONSTRAINTS if broken[name])


def round_breaks(
    entries: Sequence[Entry],
    pairs: Sequence[tuple[int, int]],
    played: Collection[frozenset[int]],
    *,
    avoid_same_club: bool = True,
) -> tuple[str, ...]:
    """The constraints any pair of ``pairs`` breaks, in CONSTRAINTS order."""
    by_id = {entry.team_id: entry for entry in entries}
    found: set[str] = set()
    for home, away in pairs:
        found.update(pair_breaks(by_id[home], by_id[away], played, avoid_same_club=avoid_same_club))
    return tuple(name for name in CONSTRAINTS if name in found)


def swap(pairs: Sequence[tuple[int, int]], one: int, other: int) -> tuple[tuple[int, int], ...]:
    """``pairs`` with the entries ``one`` and ``other`` (of two different pairs) exchanged."""
    where = {team: i for i, pair in enumerate(pairs) for team in pair}
    if one not in where or other not in where:
        raise RulesError("both entries must be paired in the round")
    if where[one] == where[other]:
        raise RulesError("the two entries play each other: swap entries of two pairings")
    exchange = {one: other, other: one}
    return tuple((exchange.get(home, home), exchange.get(away, away)) for home, away in pairs)


def seeded_order(ratings: dict[int, int], rng: random.Random) -> list[int]:
    """Team ids by rating, highest first (equal ratings in a random order)."""
    teams = list(ratings)
    rng.shuffle(teams)
    return sorted(teams, key=lambda team: -ratings[team])


def pair_round(
    ranking: Sequence[Entry],
    played: Collection[frozenset[int]],
    byes: Collection[int],
    *,
    avoid_same_club: bool = True,
    fold: bool = False,
) -> Pairing:
    """Pairings for a round from ``ranking`` (every entry to pair, best first).

    ``played``: the pairs that have met; ``byes``: the entries that had a bye. With
    an odd number of entries the lowest-placed entry without a bye sits out (the
    next one up where that alone lets the round keep a constraint). ``fold`` pairs
    the top half against the bottom half (a seeded first round) rather than each
    entry with the next one down.
    """
    teams = [entry.team_id for entry in ranking]
    if len(set(teams)) != len(teams):
        raise RulesError("a team appears twice in the ranking")
    by_id = {entry.team_id: entry for entry in ranking}
    byes_to_try: list[int | None] = [None]
    if len(teams) % 2:
        without = [t for t in reversed(teams) if t not in byes]
        byes_to_try = list(without or reversed(teams))
    every = range(2 ** len(CONSTRAINTS) - 1, -1, -1)
    relevant = _relevant(ranking, played, avoid_same_club)
    for kept in dict.fromkeys(kept & relevant for kept in every):
        for bye in byes_to_try:
            rest = [by_id[t] for t in teams if t != bye]
            if fold:
                half = len(rest) // 2
                rest = [e for pair in zip(rest[:half], rest[half:], strict=True) for e in pair]
            pairs = _Search(played, kept, avoid_same_club).pair(rest)
            if pairs is not None:
                broken = round_breaks(ranking, pairs, played, avoid_same_club=avoid_same_club)
                return Pairing(tuple(pairs), bye, broken)
    raise RulesError("no pairing found")  # pragma: no cover: keeping nothing always pairs


def _relevant(
    ranking: Sequence[Entry], played: Collection[frozenset[int]], avoid_same_club: bool
) -> int:
    """The constraints some pair could break (as bits): the others need no search."""
    clubs = [e.club.casefold() for e in ranking if e.club is not None]
    coaches = [e.coach_id for e in ranking]
    return (
        (0b100 if played else 0)
        | (0b010 if avoid_same_club and len(set(clubs)) < len(clubs) else 0)
        | (0b001 if len(set(coaches)) < len(coaches) else 0)
    )


class _Search:
    """Pair down from the top, each entry with the best-placed entry it may meet."""

    def __init__(
        self, played: Collection[frozenset[int]], kept: int, avoid_same_club: bool
    ) -> None:
        self.played = played
        self.kept = {name for bit, name in zip((4, 2, 1), CONSTRAINTS, strict=True) if kept & bit}
        self.avoid_same_club = avoid_same_club
        self.failed: set[frozenset[int]] = set()
        self.budget = SEARCH_BUDGET

    def allowed(self, a: Entry, b: Entry) -> bool:
        broken = pair_breaks(a, b, self.played, avoid_same_club=self.avoid_same_club)
        return not self.kept.intersection(broken)

    def pair(self, entries: list[Entry]) -> list[tuple[int, int]] | None:
        if not entries:
            return []
        key = frozenset(e.team_id for e in entries)
        if key in self.failed or self.budget <= 0:
            return None
        self.budget -= 1
        first, rest = entries[0], entries[1:]
        for i, opponent in enumerate(rest):
            if not self.allowed(first, opponent):
                continue
            tail = self.pair(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(first.team_id, opponent.team_id), *tail]
        self.failed.add(key)
        return None
