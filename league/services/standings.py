"""Standings: the table of a season and who won each match (read side).

Everything is computed from the played matches' rows (MatchTeam for results) and
returned as plain dataclasses, so a template never touches the database. Friendlies
and voided matches do not count. Season statistics, leaders and the graveyard are in
`league.services.stats`.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field, replace
from itertools import pairwise
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Integer,
    Select,
    and_,
    bindparam,
    case,
    func,
    literal,
    select,
    union_all,
)
from sqlalchemy.orm import Session, aliased

from league.i18n import N_, gettext, ngettext
from league.models import League, Match, MatchPlayer, MatchTeam, Season, SwissBye, Team
from league.rules.competitions import (
    NO_TEST_HOLDS,
    OUTCOME_TESTS,
    OUTCOMES,
    MatchOutcome,
    SideResult,
    bye_match_outcome,
    conceded_points,
    match_outcome,
    opponents_points,
    rank_table,
    result_points,
    tie_breaker_values,
)
from league.rules.competitions import tie_breaker_order as rules_tie_breaker_order
from league.rules.model import BonusRule, Tournament
from league.services.access import league_ruleset
from league.services.errors import NotFound
from league.services.logos import TeamLook, look_of

TIE_BREAKER_EXPLANATIONS = {
    "points": N_("Points: %(win)s for a win, %(draw)s for a draw, %(loss)s for a loss."),
    "head_to_head": N_(
        "Head-to-head: the points the tied teams took from their matches against each "
        "other only (worked out again for every group of teams still tied)."
    ),
    "td_difference": N_("Touchdown difference: touchdowns scored minus touchdowns conceded."),
    "cas_difference": N_("Casualty difference: casualties caused minus casualties suffered."),
    "td_scored": N_("Touchdowns scored."),
    "fewest_conceded": N_("Fewest matches conceded (given up before the end)."),
    "opponents_points": N_(
        "Opponents' points (strength of schedule): the points in the table of every "
        "opponent played, once per match; a bye adds nothing."
    ),
    "cas_caused": N_("Casualties caused by the team's players."),
    "coin_toss": N_(
        "Coin toss: a number the server drew for each team and kept; the bigger number "
        "wins, and teams level even on it are listed by name."
    ),
}
TIE_BREAKER_NAMES = {
    "points": N_("points"),
    "head_to_head": N_("head-to-head"),
    "td_difference": N_("touchdown difference"),
    "cas_difference": N_("casualty difference"),
    "td_scored": N_("touchdowns scored"),
    "fewest_conceded": N_("fewest matches conceded"),
    "opponents_points": N_("opponents' points"),
    "cas_caused": N_("casualties caused"),
    "coin_toss": N_("coin toss"),
    "name": N_("name (still level on every tie-breaker)"),
}


def season_of(league: League, number: int | None = None) -> Season:
    """The season with that number, else the current (or latest) one."""
    if number is not None:
        season = next((s for s in league.seasons if s.number == number), None)
        if season is None:
            raise NotFound(
                gettext("%(league)s has no season %(number)s.", league=league.name, number=number)
            )
        return season
    season = league.current_season or (league.seasons[-1] if league.seasons else None)
    if season is None:
        raise NotFound(gettext("%(league)s has no season yet.", league=league.name))
    return season


def counted_matches(season_id: int | BindParameter[int]) -> tuple[ColumnElement[bool], ...]:
    """Played league matches of the season (its id, or a bound parameter): no friendlies,
    and no playoff matches, which come after the table is final."""
    return (
        Match.season_id == season_id,
        Match.state == "played",
        Match.friendly.is_(False),
        Match.bracket_id.is_(None),
    )


def matches_played(sides_played: int) -> int:
    """Counted matches from the sides that played them: every match has two sides."""
    return sides_played // 2


@dataclass(frozen=True, slots=True)
class _Pair:
    """What one team did against one opponent over the season (summed in SQL)."""

    team_id: int
    opponent_id: int
    played: int
    won: int
    drawn: int
    lost: int
    td_for: int
    td_against: int
    concessions: int
    # The totals above come positionally from one SQL row; these two from another query.
    _: KW_ONLY
    cas_for: int = 0
    cas_against: int = 0


#: The opponent id the casualty query gives a Swiss bye's rows (no team has id 0).
_BYE = 0


def _pairs(
    session: Session, season: Season, rules: Tournament
) -> tuple[list[_Pair], dict[int, int]]:
    """Results per (team, opponent), from both sides of every counted match; and the
    number of Swiss byes per team. One statement: the result rows, then the casualty
    and bye rows (`_pairs_query`)."""
    pairs: dict[tuple[int, int], list[int]] = {}
    # Casualties the team's players caused against that opponent.
    cas: dict[tuple[int, int], int] = {}
    byes: dict[int, int] = {}
    for kind, team_id, opponent_id, *totals in session.execute(
        _pairs_query(), {"season_id": season.id, **_credit_params(rules)}
    ):
        if kind == _RESULTS:
            pairs[(team_id, opponent_id)] = [team_id, opponent_id, *(int(v or 0) for v in totals)]
        elif opponent_id == _BYE:
            byes[team_id] = int(totals[0] or 0)
        else:
            cas[(team_id, opponent_id)] = int(totals[0] or 0)
    return [
        _Pair(
            *values,
            cas_for=cas.get((values[0], values[1]), 0),
            cas_against=cas.get((values[1], values[0]), 0),
        )
        for values in pairs.values()
    ], byes


def league_points(league: League) -> tuple[int, int, int]:
    """The league's points for a win, a draw and a loss."""
    return (league.points_win, league.points_draw, league.points_loss)


def side_result(match: Match, side: MatchTeam, *, casualties: bool = True) -> SideResult:
    """One side of a played match as the rules read it, with the casualties its players
    caused unless ``casualties`` is False (then the match's players are not loaded)."""
    if not casualties:
        return SideResult(side.score, side.conceded)
    caused = sum(line.cas for line in match.players if line.team_id == side.team_id)
    return SideResult(side.score, side.conceded, caused)


def outcome_of(league: League, own: SideResult, other: SideResult) -> MatchOutcome:
    """The outcome of a match for one side in this league: `match_outcome` with the
    league's ruleset and points."""
    tournament = league_ruleset(league).season.tournament
    return match_outcome(tournament, league_points(league), own, other)


def match_outcomes(league: League, match: Match) -> dict[str, MatchOutcome]:
    """Each side's outcome of a played match, by side ('home', 'away')."""
    bonus = league_ruleset(league).season.tournament.bonus
    # Only a casualty bonus needs the players' lines.
    counted = any(rule.kind == "casualties" for rule in bonus)
    home = side_result(match, match.home, casualties=counted)
    away = side_result(match, match.away, casualties=counted)
    return {"home": outcome_of(league, home, away), "away": outcome_of(league, away, home)}


def _outcome_sql(own: Any, other: Any) -> dict[str, ColumnElement[int]]:
    """1 or 0 per outcome ('won', 'drawn', 'lost') for the side ``own``, built from the
    rules' `OUTCOME_TESTS` (the tests `league.rules.competitions.outcome` reads), so the
    table and the outcome function decide alike."""
    tests: dict[str, ColumnElement[bool]] = {
        "conceded": own.conceded.is_(True),
        "opponent_conceded": other.conceded.is_(True),
        "scored_more": own.score > other.score,
        "scored_less": own.score < other.score,
    }
    return {
        result: case(
            *((tests[test], literal(int(decided == result))) for test, decided in OUTCOME_TESTS),
            else_=literal(int(result == NO_TEST_HOLDS)),
        )
        for result in OUTCOMES
    }


def _credit_params(rules: Tournament) -> dict[str, int]:
    """The bound values of `_scores_sql`: the event's credited score for a conceded match."""
    win, lose = rules.concession_score or (0, 0)
    return {"credit": int(rules.concession_score is not None), "win": win, "lose": lose}


def _scores_sql(own: Any, other: Any) -> tuple[ColumnElement[int], ColumnElement[int]]:
    """The score the table counts for ``own`` and for ``other``: as the rules'
    `credited_sides` says, the event's credited score (``concession_score``) where one
    side alone conceded and the event credits one, else the score as played."""
    credit = bindparam("credit", type_=Integer) == 1
    win, lose = bindparam("win", type_=Integer), bindparam("lose", type_=Integer)
    own_gave_up = and_(credit, own.conceded.is_(True), other.conceded.is_(False))
    other_gave_up = and_(credit, other.conceded.is_(True), own.conceded.is_(False))
    return (
        case((own_gave_up, lose), (other_gave_up, win), else_=own.score),
        case((own_gave_up, win), (other_gave_up, lose), else_=other.score),
    )


#: The first column of `_pairs_query`'s rows: a result row, or a casualty or bye row.
_RESULTS, _CASUALTIES = 0, 1


@functools.cache
def _pairs_query() -> Select[Any]:
    """The statement of `_pairs`, built once (the league home runs it every time): the
    result rows by team and opponent, then the casualty rows padded to their width.

    The outcome is the rules' (`_outcome_sql`): a team that concedes loses whatever the score.
    """
    counted = counted_matches(bindparam("season_id", type_=Integer))
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    conceded = own.conceded.is_(True)
    outcomes = _outcome_sql(own, other)
    won, drawn, lost = outcomes["won"], outcomes["drawn"], outcomes["lost"]
    score_for, score_against = _scores_sql(own, other)
    results = (
        select(
            literal(_RESULTS, Integer),
            own.team_id,
            other.team_id,
            func.count(),
            func.sum(won),
            func.sum(drawn),
            func.sum(lost),
            func.sum(score_for),
            func.sum(score_against),
            func.sum(case((conceded, 1), else_=0)),
        )
        .select_from(Match)
        .join(own, own.match_id == Match.id)
        .join(other, and_(other.match_id == Match.id, other.id != own.id))
        .where(*counted)
        .group_by(own.team_id, other.team_id)
    )
    line_side, opponent_side = aliased(MatchTeam), aliased(MatchTeam)
    casualty_rows = (
        select(
            line_side.team_id.label("team_id"),
            opponent_side.team_id.label("opponent_id"),
            func.sum(MatchPlayer.cas).label("total"),
        )
        .select_from(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(
            line_side,
            and_(line_side.match_id == Match.id, line_side.team_id == MatchPlayer.team_id),
        )
        .join(
            opponent_side,
            and_(opponent_side.match_id == Match.id, opponent_side.id != line_side.id),
        )
        .where(*counted)
        .group_by(line_side.team_id, opponent_side.team_id)
    )
    bye_rows = (
        select(SwissBye.team_id, literal(_BYE, Integer), func.count())
        .where(SwissBye.season_id == bindparam("season_id", type_=Integer))
        .group_by(SwissBye.team_id)
    )
    casualties = union_all(casualty_rows, bye_rows).subquery()
    padding = [literal(0, Integer)] * (len(results.selected_columns) - 4)
    both = union_all(
        results,
        select(literal(_CASUALTIES, Integer), *casualties.c, *padding),
    ).subquery()
    return select(both).order_by(*list(both.c)[:3])


@functools.cache
def _sides_query() -> Select[Any]:
    """Both sides of every counted match, one row each, with the casualties each side's
    players caused: what bonus points are worked out from, match by match."""
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    # Summed match by match (the match_player index), not grouped over the whole table
    # first: the season's matches are a small part of a league's history.
    caused = (
        select(func.coalesce(func.sum(MatchPlayer.cas), 0))
        .where(MatchPlayer.match_id == Match.id, MatchPlayer.team_id == own.team_id)
        .scalar_subquery()
    )
    return (
        select(
            own.team_id,
            other.team_id,
            own.score,
            own.conceded,
            caused,
            other.score,
            other.conceded,
        )
        .select_from(Match)
        .join(own, own.match_id == Match.id)
        .join(other, and_(other.match_id == Match.id, other.id != own.id))
        .where(*counted_matches(bindparam("season_id", type_=Integer)))
    )


def _bonus(
    session: Session, season: Season, rules: Tournament, points: tuple[int, int, int]
) -> dict[tuple[int, int], int]:
    """Bonus points per (team, opponent) over the season, as the match outcomes give them."""
    bonus: dict[tuple[int, int], int] = defaultdict(int)
    rows = session.execute(_sides_query(), {"season_id": season.id})
    for team_id, opponent_id, score, conceded, cas, other_score, other_conceded in rows:
        bonus[(team_id, opponent_id)] += match_outcome(
            rules,
            points,
            SideResult(score, bool(conceded), int(cas or 0)),
            SideResult(other_score, bool(other_conceded)),
        ).bonus_points
    return bonus


# ---------------------------------------------------------------------------
# Standings


@dataclass(frozen=True, slots=True)
class StandingRow:
    position: int
    team_id: int
    team_name: str
    played: int
    won: int
    drawn: int
    lost: int
    td_for: int
    td_against: int
    cas_for: int
    cas_against: int
    #: Bonus points included (a league scored as a tournament).
    points: int
    #: Matches this team conceded (gave up).
    concessions: int = 0
    #: The tie-breaker that put this team above the next one when their points are level.
    ahead_by: str | None = None
    #: Swiss rounds this team sat out; each is counted in played and in the results
    #: as the ruleset's ``[season.tournament]`` says (a 1-0 win by default).
    byes: int = 0
    #: Tournament bonus points earned, already counted in ``points``.
    bonus_points: int = 0
    #: Strength of schedule: the points of every opponent played, once per match.
    opponents_points: int = 0
    #: The team's stored coin toss (None: never drawn, ranks last).
    coin_toss: int | None = None
    #: Each of the league's tie-breakers' value for this team, in the league's order.
    tie_breaker_values: dict[str, int] = field(default_factory=dict)
    #: The next team in the table has the same points.
    level_with_next: bool = False

    @property
    def separated_by(self) -> str | None:
        """The tie-breaker that put this team above the next one, level with it on
        points (``name``: level on every tie-breaker); None when the points differ."""
        return self.ahead_by if self.level_with_next else None

    #: The team's colours and logo, for its badge in the table (None: not known here).
    look: TeamLook | None = None

    @property
    def td_difference(self) -> int:
        return self.td_for - self.td_against

    @property
    def cas_difference(self) -> int:
        return self.cas_for - self.cas_against


@dataclass(frozen=True, slots=True)
class TieNote:
    """Two teams level on points, and what separated them."""

    upper: str
    lower: str
    tie_breaker: str
    #: The two teams' values of that tie-breaker (upper, lower); None for ``name``.
    values: tuple[int, int] | None = None

    @property
    def reason(self) -> str:
        name = TIE_BREAKER_NAMES.get(self.tie_breaker)
        return gettext(name) if name is not None else self.tie_breaker


@dataclass(frozen=True, slots=True)
class Standings:
    season_id: int
    season_name: str
    rows: tuple[StandingRow, ...]
    #: The order the league applies, "points" first.
    tie_breakers: tuple[str, ...]
    explanations: tuple[str, ...]
    notes: tuple[TieNote, ...]
    matches_played: int
    #: The bonus rules the points include (a league scored as a tournament), so the
    #: table shows a bonus-points column.
    bonus_rules: tuple[BonusRule, ...] = ()

    @property
    def empty(self) -> bool:
        return self.matches_played == 0


@dataclass(slots=True)
class _Tally:
    team_id: int
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0
    points: int = 0
    concessions: int = 0
    byes: int = 0
    bonus_points: int = 0
    opponents_points: int = 0
    #: The stored coin toss; a team never drawn ranks last (-1).
    coin_toss: int = -1


def tie_breaker_order(league: League) -> tuple[str, ...]:
    """The league's tie-breakers, with points first when the list leaves it out
    (`league.rules.competitions.tie_breaker_order`)."""
    return rules_tie_breaker_order(league.tie_breakers)


def standings(session: Session, league: League, season_number: int | None = None) -> Standings:
    """The table of a season (the current one by default)."""
    season = season_of(league, season_number)
    rules = league_ruleset(league).season.tournament
    pairs, byes = _pairs(session, season, rules)
    worth = result_points(rules, league_points(league))
    worth["conceded"] = conceded_points(rules, league_points(league))
    bonus = _bonus(session, season, rules, league_points(league)) if rules.bonus else {}
    tallies: dict[int, _Tally] = {
        team.id: _Tally(team.id, team.name) for team in league.teams if team.status == "active"
    }
    names = {team.id: team.name for team in league.teams}
    mutual = _tally_pairs(pairs, worth, bonus, tallies, names)
    if byes:
        _count_byes(rules, league_points(league), tallies, names, byes)
    _schedule_and_toss(league, pairs, tallies)

    order = tie_breaker_order(league)
    # Before the first result every team is level: listed by name, not by coin toss.
    ranking = order if pairs or byes else tuple(c for c in order if c != "coin_toss")
    ranked, gaps = rank_table(sorted(tallies.values(), key=lambda t: t.name), ranking, mutual)
    looks = {team.id: look_of(team) for team in league.teams}
    rows = tuple(
        replace(row, look=looks.get(row.team_id))
        for row in _standing_rows(ranked, gaps, tie_breaker_values(ranked, order, mutual))
    )
    notes = tuple(
        TieNote(
            upper.team_name,
            lower.team_name,
            upper.ahead_by or "name",
            _note_values(upper, lower),
        )
        for upper, lower in pairwise(rows)
        if upper.points == lower.points and lower.played + upper.played > 0
    )
    return Standings(
        season.id,
        season.name,
        rows,
        order,
        _explanations(order, worth, rules),
        notes,
        matches_played=matches_played(sum(pair.played for pair in pairs)),
        bonus_rules=rules.bonus,
    )


def _note_values(upper: StandingRow, lower: StandingRow) -> tuple[int, int] | None:
    code = upper.ahead_by
    if code is None or code not in upper.tie_breaker_values:
        return None
    return upper.tie_breaker_values[code], lower.tie_breaker_values.get(code, 0)


def _tally_pairs(
    pairs: list[_Pair],
    worth: dict[str, int],
    bonus: dict[tuple[int, int], int],
    tallies: dict[int, _Tally],
    names: dict[int, str],
) -> dict[tuple[int, int], int]:
    """Add each (team, opponent) pair's results to the team's tally; return the points
    each team took from each opponent, for head-to-head."""
    mutual: dict[tuple[int, int], int] = {}  # (team, opponent) -> points, for head-to-head
    for pair in pairs:
        tally = tallies.setdefault(
            pair.team_id, _Tally(pair.team_id, names.get(pair.team_id, f"#{pair.team_id}"))
        )
        tally.played += pair.played
        tally.won += pair.won
        tally.drawn += pair.drawn
        tally.lost += pair.lost
        extra = bonus.get((pair.team_id, pair.opponent_id), 0)
        # A conceding team lost (the rules' first outcome test), and scores the event's
        # points for a concession (`conceded_points`) instead of a loss's.
        points = (
            pair.won * worth["won"]
            + pair.drawn * worth["drawn"]
            + (pair.lost - pair.concessions) * worth["lost"]
            + pair.concessions * worth["conceded"]
        ) + extra
        tally.points += points
        tally.bonus_points += extra
        tally.td_for += pair.td_for
        tally.td_against += pair.td_against
        tally.cas_for += pair.cas_for
        tally.cas_against += pair.cas_against
        tally.concessions += pair.concessions
        mutual[(pair.team_id, pair.opponent_id)] = points
    return mutual


#: The coin toss of a team that never drew one: below every draw (0 to 999,999).
NO_COIN_TOSS = -1


def coin_toss_of(team: Team) -> int:
    """The team's stored coin toss, as the tie-breaker compares it."""
    return team.coin_toss if team.coin_toss is not None else NO_COIN_TOSS


def _schedule_and_toss(league: League, pairs: list[_Pair], tallies: dict[int, _Tally]) -> None:
    """Each team's opponents' points (`league.rules.competitions.opponents_points`) and
    stored coin toss."""
    schedule = opponents_points(
        {team_id: t.points for team_id, t in tallies.items()},
        ((pair.team_id, pair.opponent_id, pair.played) for pair in pairs),
    )
    tosses = {team.id: coin_toss_of(team) for team in league.teams}
    for team_id, tally in tallies.items():
        tally.opponents_points = schedule.get(team_id, 0)
        tally.coin_toss = tosses.get(team_id, NO_COIN_TOSS)


def _standing_rows(
    ranked: Sequence[_Tally], gaps: Sequence[str], values: dict[int, dict[str, int]]
) -> tuple[StandingRow, ...]:
    """The ranked tallies as the table's rows, each with why it is ahead of the next."""
    return tuple(
        StandingRow(
            position=index + 1,
            team_id=t.team_id,
            team_name=t.name,
            played=t.played,
            won=t.won,
            drawn=t.drawn,
            lost=t.lost,
            td_for=t.td_for,
            td_against=t.td_against,
            cas_for=t.cas_for,
            cas_against=t.cas_against,
            points=t.points,
            concessions=t.concessions,
            byes=t.byes,
            bonus_points=t.bonus_points,
            ahead_by=gaps[index] if index < len(gaps) else None,
            opponents_points=t.opponents_points,
            coin_toss=t.coin_toss if t.coin_toss != NO_COIN_TOSS else None,
            tie_breaker_values=values.get(t.team_id, {}),
            level_with_next=index + 1 < len(ranked) and ranked[index + 1].points == t.points,
        )
        for index, t in enumerate(ranked)
    )


def _explanations(
    order: tuple[str, ...], worth: dict[str, int], rules: Tournament
) -> tuple[str, ...]:
    """The tie-breakers in words, in their order (points with the bonus rules)."""
    points_text = " ".join(
        [
            gettext(
                TIE_BREAKER_EXPLANATIONS["points"],
                win=worth["won"],
                draw=worth["drawn"],
                loss=worth["lost"],
            ),
            *(bonus_rule_text(rule) for rule in rules.bonus),
        ]
    )
    explanations = tuple(
        points_text if code == "points" else gettext(TIE_BREAKER_EXPLANATIONS[code])
        for code in order
    )
    if "coin_toss" not in order:
        explanations += (
            gettext(
                "Teams still level after these are listed by name (the commissioner's choice)."
            ),
        )
    return explanations


def bonus_rule_text(rule: BonusRule) -> str:
    """One bonus rule in words, for the standings' explanation and the settings page."""
    if rule.kind == "touchdowns":
        return ngettext(
            "Bonus: +%(points)s for scoring at least %(num)d touchdown in a match.",
            "Bonus: +%(points)s for scoring at least %(num)d touchdowns in a match.",
            rule.threshold,
            points=rule.points,
        )
    if rule.kind == "casualties":
        return ngettext(
            "Bonus: +%(points)s for causing at least %(num)d casualty in a match.",
            "Bonus: +%(points)s for causing at least %(num)d casualties in a match.",
            rule.threshold,
            points=rule.points,
        )
    return ngettext(
        "Bonus: +%(points)s for losing a match by %(num)d touchdown.",
        "Bonus: +%(points)s for losing a match by %(num)d touchdowns or fewer.",
        rule.threshold,
        points=rule.points,
    )


def _count_byes(
    rules: Tournament,
    points: tuple[int, int, int],
    tallies: dict[int, _Tally],
    names: dict[int, str],
    byes: dict[int, int],
) -> None:
    """Count each team's Swiss byes as the ruleset says: a result without an opponent
    (so no head-to-head points, and no bonus points), and the score it is given."""
    td_for, td_against = rules.bye_touchdowns
    bye = bye_match_outcome(rules, points)
    for team_id, count in byes.items():
        tally = tallies.setdefault(team_id, _Tally(team_id, names.get(team_id, f"#{team_id}")))
        tally.byes += count
        tally.played += count
        setattr(tally, bye.result, getattr(tally, bye.result) + count)
        tally.points += count * bye.tournament_points
        tally.td_for += count * td_for
        tally.td_against += count * td_against
