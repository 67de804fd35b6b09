"""What the charts show (read side): a team's value and treasury match by match, the
league's race (points and positions round by round), a player's SPP over a career.

Each is one SQL statement over the stored results, worked out again on every read, so
a void or a correction shows at once. The drawing is the web layer's
(`league.web.charts`); these return plain dataclasses of numbers and names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session, aliased

from league.models import (
    Advancement,
    League,
    Match,
    MatchPlayer,
    MatchTeam,
    Player,
    PregameSide,
    TreasuryEntry,
)
from league.rules.competitions import SideResult, match_outcome, opponents_points, rank_table
from league.services.access import league_ruleset
from league.services.standings import (
    coin_toss_of,
    counted_matches,
    league_points,
    season_of,
    tie_breaker_order,
)

#: How many teams the league's race draws (the top of the table at the last round).
RACE_TEAMS = 5


# ---------------------------------------------------------------------------
# A team's value and treasury


@dataclass(frozen=True, slots=True)
class ValuePoint:
    """One played match of a team: its team value as it took the field and its treasury
    as the ledger stood after the match's last entry (or, if it booked none, when it was
    played).

    The team value is the TV stored with the result (`MatchTeam.team_value`: the rules'
    team value, as the roster page shows it, before the match's effects), whether or not
    the match had a pre-game. Results recorded before it was stored fall back to their
    pre-game's CTV, and have none (None) without a pre-game: their past value cannot be
    rebuilt."""

    match_id: int
    played_at: datetime | None
    team_value: int | None
    treasury: int | None


def team_values(session: Session, team_id: int) -> list[ValuePoint]:
    """The team's played matches in order, with its value and treasury at each."""
    own, entry = aliased(MatchTeam), aliased(TreasuryEntry)
    # The match's own last entry (its winnings); a match that booked none: the last
    # entry made by the time it was played.
    by_match = (
        select(func.max(entry.id))
        .where(entry.team_id == team_id, entry.match_id == Match.id)
        .correlate(Match)
        .scalar_subquery()
    )
    by_time = (
        select(func.max(entry.id))
        .where(entry.team_id == team_id, entry.created_at <= Match.played_at)
        .correlate(Match)
        .scalar_subquery()
    )
    last_entry = func.coalesce(by_match, by_time)
    treasury = (
        select(func.sum(TreasuryEntry.amount))
        .where(TreasuryEntry.team_id == team_id, TreasuryEntry.id <= last_entry)
        .scalar_subquery()
    )
    pregame_ctv = (
        select(func.max(PregameSide.ctv))
        .where(PregameSide.match_id == Match.id, PregameSide.team_id == team_id)
        .scalar_subquery()
    )
    value = func.coalesce(own.team_value, pregame_ctv)
    rows = session.execute(
        select(Match.id, Match.played_at, value, treasury)
        .join(own, and_(own.match_id == Match.id, own.team_id == team_id))
        .where(Match.state == "played")
        .order_by(func.coalesce(Match.played_at, Match.created_at), Match.id)
    )
    return [
        ValuePoint(
            match_id,
            played_at,
            int(tv) if tv else None,  # 0: a pre-game whose CTV was never worked out
            int(gold) if gold is not None else None,
        )
        for match_id, played_at, tv, gold in rows
    ]


# ---------------------------------------------------------------------------
# The league's race


@dataclass(slots=True)
class _Line:
    """A team's running total, as the tie-breakers read it (`TableLine`)."""

    team_id: int
    name: str
    points: int = 0
    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0
    concessions: int = 0
    #: The opponents' points so far (strength of schedule), and the team's stored coin toss.
    opponents_points: int = 0
    coin_toss: int = 0


@dataclass(frozen=True, slots=True)
class RaceLine:
    team_id: int
    team_name: str
    colour: str | None
    #: Points after each round of `Race.rounds`.
    points: tuple[int, ...]
    #: Position in the table after each round.
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Race:
    season_name: str
    #: The rounds with a counted result, in order (0: matches without a round).
    rounds: tuple[int, ...]
    #: Every team's line, in the order of the table after the last round.
    lines: tuple[RaceLine, ...] = field(default_factory=tuple)
    teams: int = 0

    def top(self, count: int = RACE_TEAMS) -> tuple[RaceLine, ...]:
        return self.lines[:count]

    def line_of(self, team_id: int) -> RaceLine | None:
        return next((line for line in self.lines if line.team_id == team_id), None)


def _race_rows(session: Session, season_id: int) -> list[tuple[int, ...]]:
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    caused = (
        select(func.coalesce(func.sum(MatchPlayer.cas), 0))
        .where(MatchPlayer.match_id == Match.id, MatchPlayer.team_id == own.team_id)
        .scalar_subquery()
    )
    return [
        tuple(row)
        for row in session.execute(
            select(
                func.coalesce(Match.round, 0),
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
            .where(*counted_matches(season_id))
        )
    ]


def league_race(session: Session, league: League, season_number: int | None = None) -> Race:
    """Points and positions round by round for every team of a season (the current
    one by default), ranked as the standings rank (the league's tie-breakers; Swiss
    byes are left out). One statement."""
    season = season_of(league, season_number)
    rules = league_ruleset(league).season.tournament
    points = league_points(league)
    by_round: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for row in _race_rows(session, season.id):
        by_round[int(row[0])].append(row)
    teams = [team for team in league.teams if team.status == "active"]
    lines = {team.id: _Line(team.id, team.name, coin_toss=coin_toss_of(team)) for team in teams}
    meetings: dict[tuple[int, int], int] = defaultdict(int)
    colours = {team.id: team.primary_colour for team in teams}
    order = tie_breaker_order(league)
    mutual: dict[tuple[int, int], int] = defaultdict(int)
    history: dict[int, list[tuple[int, int]]] = defaultdict(list)  # team -> (points, position)
    rounds = tuple(sorted(by_round))
    for number in rounds:
        for _, team_id, opponent_id, score, conceded, cas, other_score, other_conceded in by_round[
            number
        ]:
            line = lines.get(team_id)
            if line is None:
                continue
            got = match_outcome(
                rules,
                points,
                SideResult(score, bool(conceded), int(cas or 0)),
                SideResult(other_score, bool(other_conceded)),
            ).tournament_points
            line.points += got
            line.td_for += score
            line.td_against += other_score
            line.cas_for += int(cas or 0)
            line.concessions += int(bool(conceded))
            mutual[(team_id, opponent_id)] += got
            meetings[(team_id, opponent_id)] += 1
            if opponent_id in lines:
                lines[opponent_id].cas_against += int(cas or 0)
        schedule = opponents_points(
            {team_id: line.points for team_id, line in lines.items()},
            [(team_id, opponent_id, n) for (team_id, opponent_id), n in meetings.items()],
        )
        for team_id, line in lines.items():
            line.opponents_points = schedule.get(team_id, 0)
        ranked, _gaps = rank_table(
            sorted(lines.values(), key=lambda line: line.name), order, mutual
        )
        for position, line in enumerate(ranked, start=1):
            history[line.team_id].append((line.points, position))
    final = sorted(lines.values(), key=lambda line: history[line.team_id][-1][1] if rounds else 0)
    return Race(
        season.name,
        rounds,
        tuple(
            RaceLine(
                line.team_id,
                line.name,
                colours.get(line.team_id),
                tuple(points for points, _ in history[line.team_id]),
                tuple(position for _, position in history[line.team_id]),
            )
            for line in final
        ),
        teams=len(lines),
    )


# ---------------------------------------------------------------------------
# A player's SPP


@dataclass(frozen=True, slots=True)
class SppPoint:
    match_id: int
    played_at: datetime | None
    #: SPP earned in the match, and in the career up to and including it.
    earned: int
    total: int


@dataclass(frozen=True, slots=True)
class AdvancementMark:
    """An advancement bought after `after_match` matches (0: before the first)."""

    number: int
    after_match: int
    label: str
    spp_cost: int


@dataclass(frozen=True, slots=True)
class SppHistory:
    points: tuple[SppPoint, ...]
    marks: tuple[AdvancementMark, ...]


def player_spp(session: Session, player: Player) -> SppHistory:
    """The SPP a player earned match by match (played matches only), with the
    advancements bought placed after the last match played before each (the player's
    advancements are those already loaded with the roster)."""
    rows = session.execute(
        select(Match.id, Match.played_at, Match.created_at, MatchPlayer.spp)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(MatchPlayer.player_id == player.id, Match.state == "played")
        .order_by(func.coalesce(Match.played_at, Match.created_at), Match.id)
    ).all()
    total = 0
    points = []
    times: list[datetime] = []
    for match_id, played_at, created_at, spp in rows:
        total += int(spp or 0)
        points.append(SppPoint(match_id, played_at, int(spp or 0), total))
        times.append(_aware(played_at or created_at))
    marks = tuple(
        AdvancementMark(
            advancement.number,
            sum(1 for moment in times if moment <= _aware(advancement.created_at)),
            _advancement_label(advancement),
            advancement.spp_cost,
        )
        for advancement in sorted(player.advancements, key=lambda a: a.number)
        if advancement.undone_at is None
    )
    return SppHistory(tuple(points), marks)


def _aware(moment: datetime) -> datetime:
    """Datetimes compared as UTC (SQLite hands them back without a zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _advancement_label(advancement: Advancement) -> str:
    return advancement.skill or advancement.characteristic or advancement.kind
