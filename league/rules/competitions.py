"""Knock-out brackets, Swiss pairings and tournament points.

Pure functions over a ranking (team ids, best first) that the standings
service works out; the services turn their answers into fixtures. What a
result is worth in the table (points, bonus points, a bye) is decided here too,
and so is the order of the table: the tie-breakers a league may pick and how
they rank teams level on points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from league.rules.model import PLAYOFF_SIZES, Decision, RulesError, Ruleset, Tournament
from league.rules.pairing import Entry, pair_round, seeded_order

# ---------------------------------------------------------------------------
# Playoffs


@dataclass(frozen=True, slots=True)
class Ranked:
    """A team in the final table, with its division (None: no divisions)."""

    team_id: int
    division: str | None = None


def playoff_entrants(
    ruleset: Ruleset, size: int, table: Sequence[Ranked], *, by_division: bool | None = None
) -> tuple[Ranked, ...]:
    """The teams that enter a bracket of ``size``, best seed first.

    From the overall table, or, where the edition shares the places out
    between divisions (or ``by_division`` asks for it), the best teams of each
    division in equal numbers, any places left over going to the best teams
    not yet in. Seeds then run through the division winners first (ranked by
    the overall table), then the runners-up, and so on.
    """
    if by_division is None:
        by_division = ruleset.season.playoffs.seeding == "divisions"
    divisions = list(dict.fromkeys(t.division for t in table))
    if not by_division or len(divisions) < 2:
        return tuple(table[:size])
    share = size // len(divisions)
    rank_in_division: dict[int, int] = {}
    counts: dict[str | None, int] = {}
    for team in table:
        counts[team.division] = counts.get(team.division, 0) + 1
        rank_in_division[team.team_id] = counts[team.division]
    chosen = [t for t in table if rank_in_division[t.team_id] <= share]
    rest = [t for t in table if rank_in_division[t.team_id] > share]
    chosen += rest[: size - len(chosen)]
    overall = {t.team_id: i for i, t in enumerate(table)}
    return tuple(sorted(chosen, key=lambda t: (rank_in_division[t.team_id], overall[t.team_id])))


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers in bracket order, so that seeds 1 and 2 can only meet in the final.

    8 teams: 1, 8, 4, 5, 2, 7, 3, 6 (matches 1v8, 4v5, 2v7, 3v6).
    """
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return tuple(order)


def playoff_decision(
    ruleset: Ruleset, size: int, table: Sequence[Ranked], *, by_division: bool | None = None
) -> Decision:
    """Whether a bracket of ``size`` can be seeded from ``table``."""
    if size not in PLAYOFF_SIZES:
        return Decision.deny("competitions.bracket_size", size=size, sizes=PLAYOFF_SIZES)
    if len(table) < size:
        return Decision.deny("competitions.not_enough_teams", size=size, teams=len(table))
    entrants = playoff_entrants(ruleset, size, table, by_division=by_division)
    if _first_round(ruleset, entrants) is None:
        return Decision.deny("competitions.same_division_pairing", size=size)
    return Decision.allow()


def first_round(
    ruleset: Ruleset, size: int, table: Sequence[Ranked], *, by_division: bool | None = None
) -> tuple[tuple[Ranked, Ranked], ...]:
    """The first round's matches in bracket order (higher seed first).

    Seed 1 meets the last seed, 2 the second last, and so on; where the
    edition forbids a first-round match inside a division, the lower seeds
    are swapped as little as possible to avoid one.
    """
    decision = playoff_decision(ruleset, size, table, by_division=by_division)
    entrants = playoff_entrants(ruleset, size, table, by_division=by_division)
    pairs = _first_round(ruleset, entrants) if decision else None
    if pairs is None:
        raise RulesError(f"cannot seed this bracket: {decision.reasons[0]}")
    return pairs


def _first_round(
    ruleset: Ruleset, entrants: Sequence[Ranked]
) -> tuple[tuple[Ranked, Ranked], ...] | None:
    size = len(entrants)
    half = size // 2
    # The separation only means something when the bracket spans divisions.
    separate = (
        ruleset.season.playoffs.no_same_division_first_round
        and len({e.division for e in entrants}) > 1
    )
    top, bottom = entrants[:half], list(entrants[half:])
    opponents: dict[int, Ranked] = {}

    def place(index: int, free: list[Ranked]) -> bool:
        if index == half:
            return True
        seed = top[index]
        # The usual opponent (seed 1 meets the last) first, then the nearest.
        usual = size - 1 - index - half
        for j in sorted(range(len(free)), key=lambda j: abs(bottom.index(free[j]) - usual)):
            candidate = free[j]
            if separate and seed.division is not None and candidate.division == seed.division:
                continue
            opponents[index] = candidate
            if place(index + 1, free[:j] + free[j + 1 :]):
                return True
        return False

    if not place(0, bottom):
        return None
    return tuple((top[seed - 1], opponents[seed - 1]) for seed in bracket_order(size)[::2])


# ---------------------------------------------------------------------------
# Swiss rounds


@dataclass(frozen=True, slots=True)
class SwissRound:
    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    #: True only when no pairing without a rematch exists.
    rematches: bool = False
    #: The constraints the round could not keep (league.rules.pairing.CONSTRAINTS order).
    broken: tuple[str, ...] = ()


def swiss_round(
    ranking: Sequence[int | Entry],
    played: Collection[frozenset[int]],
    byes: Collection[int],
    rng: random.Random,
    *,
    avoid_same_club: bool = True,
    first_round: str = "random",
    ratings: Mapping[int, int] | None = None,
) -> SwissRound:
    """Pairings for the next round of a Swiss tournament.

    ``ranking`` is every entry (or bare team id: each its own coach, no club), best
    first; ``played`` the pairs that have met; ``byes`` the teams that already had a
    bye. The first round (nothing played) is drawn at random, or seeded by
    ``ratings`` (``first_round="rating"``: the top half meets the bottom half).
    Later rounds pair from the top of the ranking, each team with the best-placed
    team it may meet, swapping down when a rematch (then two of one club, then a
    coach's own two entries) would follow; see league.rules.pairing. With an odd
    number of teams the lowest-placed team without a bye sits out.
    """
    entries = [e if isinstance(e, Entry) else Entry(e, -e) for e in ranking]
    fold = False
    if not played:
        if first_round == "rating":
            order = seeded_order(
                {e.team_id: (ratings or {}).get(e.team_id, 0) for e in entries}, rng
            )
            by_id = {e.team_id: e for e in entries}
            entries = [by_id[team] for team in order]
            fold = True
        else:
            rng.shuffle(entries)
    pairing = pair_round(entries, played, byes, avoid_same_club=avoid_same_club, fold=fold)
    return SwissRound(pairing.pairs, pairing.bye, pairing.rematches, pairing.broken)


# ---------------------------------------------------------------------------
# Points in the table


@dataclass(frozen=True, slots=True)
class SideResult:
    """One team's side of a played match: its score, whether it conceded, the
    casualties its players caused."""

    score: int
    conceded: bool = False
    casualties: int = 0


#: The outcomes of a match for one team, and the order the table counts them in.
OUTCOMES = ("won", "drawn", "lost")

#: Who won, one test after the other: the first that holds decides, and a match none
#: holds for is drawn. A team that concedes loses whatever the score (RULES-FACTS 6b:
#: the conceding team gets nothing). `outcome` reads these tests; the standings query
#: builds its SQL from the same table, so the two cannot drift apart.
OUTCOME_TESTS: tuple[tuple[str, str], ...] = (
    ("conceded", "lost"),
    ("opponent_conceded", "won"),
    ("scored_more", "won"),
    ("scored_less", "lost"),
)
#: The outcome when no test holds.
NO_TEST_HOLDS = "drawn"


def outcome_test(test: str, own: SideResult, other: SideResult) -> bool:
    """Does ``test`` (one of `OUTCOME_TESTS`) hold for ``own`` against ``other``?"""
    if test == "conceded":
        return own.conceded
    if test == "opponent_conceded":
        return other.conceded
    if test == "scored_more":
        return own.score > other.score
    if test == "scored_less":
        return own.score < other.score
    raise RulesError(f"unknown outcome test {test!r}")


def outcome(own: SideResult, other: SideResult) -> str:
    """'won', 'drawn' or 'lost'; a team that concedes loses whatever the score."""
    return next(
        (result for test, result in OUTCOME_TESTS if outcome_test(test, own, other)),
        NO_TEST_HOLDS,
    )


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """What one played match means for one team: the one answer every page, the
    standings, the webhooks, the Dedicated Fans, the winnings and the brackets ask."""

    #: 'won', 'drawn' or 'lost'.
    result: str
    #: The team gave the match up.
    conceded: bool
    #: The opponent gave the match up.
    opponent_conceded: bool
    #: Points for the result (the tournament's where its rules score them, else the league's).
    points: int
    #: Tournament bonus points earned on top.
    bonus_points: int
    #: The score the table counts (the event's credited score for a conceded match,
    #: else the score as played): this team's, the opponent's.
    score: tuple[int, int] = (0, 0)

    @property
    def won(self) -> bool:
        return self.result == "won"

    @property
    def drawn(self) -> bool:
        return self.result == "drawn"

    @property
    def lost(self) -> bool:
        return self.result == "lost"

    @property
    def tournament_points(self) -> int:
        """What the match adds to the team's points in the table."""
        return self.points + self.bonus_points


def match_outcome(
    tournament: Tournament,
    league_points: tuple[int, int, int],
    own: SideResult,
    other: SideResult,
) -> MatchOutcome:
    """The outcome of a played match for the team of ``own`` (``league_points``: the
    league's win, draw and loss points).

    A conceded match scores as the event says: the conceding team gets
    ``concession_points`` (`conceded_points`), and the match counts as
    ``concession_score`` where the event credits one (`credited_sides`); bonus points
    are worked out from the score counted.
    """
    result = outcome(own, other)
    own, other = credited_sides(tournament, own, other)
    points = (
        conceded_points(tournament, league_points)
        if own.conceded
        else result_points(tournament, league_points)[result]
    )
    return MatchOutcome(
        result=result,
        conceded=own.conceded,
        opponent_conceded=other.conceded,
        points=points,
        bonus_points=bonus_points(tournament, own, other),
        score=(own.score, other.score),
    )


def conceded_points(tournament: Tournament, league_points: tuple[int, int, int]) -> int:
    """The points a team gets for a match it conceded: the event's ``concession_points``,
    else a loss's (a conceding team loses whatever the score)."""
    if tournament.concession_points is not None:
        return tournament.concession_points
    return result_points(tournament, league_points)["lost"]


def credited_sides(
    tournament: Tournament, own: SideResult, other: SideResult
) -> tuple[SideResult, SideResult]:
    """Both sides with the score the table counts: where exactly one side conceded and
    the event credits a score (``concession_score``: winner's, conceding team's), that
    score; else the score as played."""
    credited = tournament.concession_score
    if credited is None or own.conceded == other.conceded:
        return own, other
    win, lose = credited
    if other.conceded:
        return replace(own, score=win), replace(other, score=lose)
    return replace(own, score=lose), replace(other, score=win)


def bye_match_outcome(tournament: Tournament, league_points: tuple[int, int, int]) -> MatchOutcome:
    """A Swiss bye as the table counts it: the tournament's result, no bonus points."""
    result = bye_outcome(tournament)
    return MatchOutcome(
        result=result,
        conceded=False,
        opponent_conceded=False,
        points=result_points(tournament, league_points)[result],
        bonus_points=0,
        score=tournament.bye_touchdowns,
    )


def result_points(tournament: Tournament, league_points: tuple[int, int, int]) -> dict[str, int]:
    """Points for each outcome ('won', 'drawn', 'lost'): the tournament's own where its
    data or the league's house rule sets them, else the league's win, draw and loss points."""
    win, draw, loss = tournament.points if tournament.points is not None else league_points
    return {"won": win, "drawn": draw, "lost": loss}


def bonus_points(tournament: Tournament, own: SideResult, other: SideResult) -> int:
    """The bonus points one side earns in one match: the points of every bonus rule it meets.

    A team that conceded earns none: it gave the match up. A close loss is a loss on the
    pitch by at least one and at most ``threshold`` touchdowns.
    """
    if own.conceded:
        return 0
    earned = 0
    for rule in tournament.bonus:
        if rule.kind == "touchdowns":
            met = own.score >= rule.threshold
        elif rule.kind == "casualties":
            met = own.casualties >= rule.threshold
        else:  # close_loss
            met = not other.conceded and 0 < other.score - own.score <= rule.threshold
        earned += rule.points if met else 0
    return earned


def bye_outcome(tournament: Tournament) -> str:
    """The outcome a Swiss bye counts as ('won' or 'drawn'); its score is ``bye_touchdowns``."""
    return "won" if tournament.bye_result == "win" else "drawn"


# ---------------------------------------------------------------------------
# The order of the table

#: The tie-breakers a league may pick. ``points`` ranks by the points in the table;
#: ``head_to_head`` by the points earned in the matches between the teams still level;
#: ``fewest_conceded`` by the fewest matches given up; ``opponents_points`` (strength of
#: schedule) by the sum of the points of every opponent played, once per meeting (a
#: Swiss bye has no opponent and adds nothing); ``cas_caused`` by the casualties the
#: team's players caused; ``coin_toss`` by a number the server drew for each team once
#: and stored (bigger first), so the toss is the same on every page.
TIE_BREAKERS = (
    "points",
    "head_to_head",
    "td_difference",
    "cas_difference",
    "td_scored",
    "fewest_conceded",
    "opponents_points",
    "cas_caused",
    "coin_toss",
)
#: A league's order when it picked none (new leagues start with it): teams level on all
#: of these are listed by name; an organiser who wants the coin toss picks it.
DEFAULT_TIE_BREAKERS = (
    "points",
    "head_to_head",
    "td_difference",
    "cas_difference",
    "td_scored",
    "fewest_conceded",
)
#: The largest coin-toss number the server draws (a team's ``coin_toss``: 0 to this).
COIN_TOSS_MAX = 999_999
#: What separates two neighbours level on every tie-breaker picked: the table lists
#: them by name.
BY_NAME = "name"


def draw_coin_toss(rng: random.Random) -> int:
    """A team's coin-toss number, drawn once and stored: bigger wins the toss."""
    return rng.randint(0, COIN_TOSS_MAX)


def opponents_points(
    points: Mapping[int, int], meetings: Iterable[tuple[int, int, int]]
) -> dict[int, int]:
    """Strength of schedule: for each team, the sum of its opponents' points in the
    table, an opponent counted once per match played against it.

    ``meetings`` are (team, opponent, matches played); a Swiss bye is no meeting, so it
    adds nothing. A team that played nobody has 0.
    """
    totals: dict[int, int] = dict.fromkeys(points, 0)
    for team_id, opponent_id, played in meetings:
        totals[team_id] = totals.get(team_id, 0) + played * points.get(opponent_id, 0)
    return totals


class TableLine(Protocol):
    """A team's line in the table, as the tie-breakers read it."""

    @property
    def team_id(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def td_for(self) -> int: ...
    @property
    def td_against(self) -> int: ...
    @property
    def cas_for(self) -> int: ...
    @property
    def cas_against(self) -> int: ...
    @property
    def concessions(self) -> int: ...
    @property
    def opponents_points(self) -> int: ...
    @property
    def coin_toss(self) -> int: ...


Line = TypeVar("Line", bound=TableLine)

#: The tie-breakers read from a line alone, bigger first.
_LINE_VALUES: dict[str, Callable[[TableLine], int]] = {
    "points": lambda line: line.points,
    "td_difference": lambda line: line.td_for - line.td_against,
    "cas_difference": lambda line: line.cas_for - line.cas_against,
    "td_scored": lambda line: line.td_for,
    "fewest_conceded": lambda line: -line.concessions,
    "opponents_points": lambda line: line.opponents_points,
    "cas_caused": lambda line: line.cas_for,
    "coin_toss": lambda line: line.coin_toss,
}


def tie_breaker_order(codes: Sequence[str] | None) -> tuple[str, ...]:
    """A league's tie-breakers (the default order when it has none), codes it does not
    know dropped, with ``points`` first when the list leaves it out."""
    known = tuple(code for code in (codes or DEFAULT_TIE_BREAKERS) if code in TIE_BREAKERS)
    return known if "points" in known else ("points", *known)


def rank_table(
    lines: Sequence[Line],
    order: Sequence[str],
    mutual: Mapping[tuple[int, int], int],
) -> tuple[list[Line], list[str]]:
    """The lines best first, and what put each one above the next (a code of `order`,
    or `BY_NAME`).

    ``order`` is the league's tie-breakers (see `tie_breaker_order`); ``mutual`` the
    points each team earned against each opponent ((team, opponent) -> points), read by
    ``head_to_head``. Teams level on everything keep the order they come in (the table
    passes them by name).
    """
    return _rank(list(lines), tuple(order), mutual)


def tie_breaker_values(
    lines: Sequence[Line], order: Sequence[str], mutual: Mapping[tuple[int, int], int]
) -> dict[int, dict[str, int]]:
    """Each team's value for each tie-breaker of ``order``, in that order (bigger ranks
    first; ``fewest_conceded`` is the number of matches conceded, fewer first).

    ``head_to_head`` is the points the team took from the teams level with it on
    points (the first group the tie-breaker is worked out for).
    """
    by_points: dict[int, list[Line]] = {}
    for line in lines:
        by_points.setdefault(line.points, []).append(line)
    among: dict[int, int] = {}
    for group in by_points.values():
        among.update(_head_to_head(group, mutual))
    values: dict[int, dict[str, int]] = {}
    for line in lines:
        row: dict[str, int] = {}
        for code in order:
            if code == "head_to_head":
                row[code] = among.get(line.team_id, 0)
            elif code == "fewest_conceded":
                row[code] = line.concessions
            else:
                row[code] = _LINE_VALUES[code](line)
        values[line.team_id] = row
    return values


def _head_to_head(
    group: Sequence[TableLine], mutual: Mapping[tuple[int, int], int]
) -> dict[int, int]:
    """Each team's points in the matches between the teams of ``group``."""
    ids = {line.team_id for line in group}
    points = dict.fromkeys(ids, 0)
    for (team_id, opponent_id), won in mutual.items():
        if team_id in ids and opponent_id in ids:
            points[team_id] += won
    return points


def _rank(
    group: list[Line], criteria: tuple[str, ...], mutual: Mapping[tuple[int, int], int]
) -> tuple[list[Line], list[str]]:
    if len(group) < 2:
        return list(group), []
    if not criteria:
        return list(group), [BY_NAME] * (len(group) - 1)
    code, rest = criteria[0], criteria[1:]
    if code == "head_to_head":
        among = _head_to_head(group, mutual)
        value: Callable[[TableLine], int] = lambda line: among[line.team_id]  # noqa: E731
    else:
        value = _LINE_VALUES[code]
    levels = sorted({value(line) for line in group}, reverse=True)
    if len(levels) == 1:
        return _rank(group, rest, mutual)
    # Head-to-head is worked out again for each smaller group still level.
    then = criteria if code == "head_to_head" else rest
    ordered: list[Line] = []
    gaps: list[str] = []
    for level in levels:
        sub_order, sub_gaps = _rank([t for t in group if value(t) == level], then, mutual)
        if ordered:
            gaps.append(code)
        ordered += sub_order
        gaps += sub_gaps
    return ordered, gaps
