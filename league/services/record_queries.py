"""The statements behind the league records (`league.services.records`): every top list in
one UNION ALL (`boards_query`), each part cut to its first `SHOWN` rows, and the results
in the league's order (`results_query`) for the unbeaten runs.

What counts: the league's played matches that are not friendlies (league fixtures and
playoff matches); voided matches do not count (`counted`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from sqlalchemy import (
    CTE,
    ColumnElement,
    Integer,
    Select,
    String,
    and_,
    case,
    cast,
    func,
    literal_column,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.orm import aliased

from league.models import (
    Advancement,
    League,
    Match,
    MatchPlayer,
    MatchTeam,
    Player,
    PlayoffBracket,
    PregameSide,
    Team,
    TreasuryEntry,
)
from league.models.live_log import MatchLogEvent
from league.models.player import MATCH_DAY_STATUSES
from league.rules.advancement import top_level
from league.services.access import league_ruleset

#: Entries shown in each list.
SHOWN = 5
Scope = Literal["season", "all"]
SCOPES: tuple[Scope, ...] = ("season", "all")
#: The player counters with records in a match, a season and a career.
COUNTERS = ("td", "cas", "spp", "comp")
#: The bracket's last round (the final is its slot 0), by the bracket's size.
_FINAL_ROUND = {4: 2, 8: 3, 16: 4}

#: The columns every part of the UNION ALL gives, in this order, with their types.
_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("value", Integer),
    ("extra", Integer),
    ("player_id", Integer),
    ("player_name", String),
    ("team_id", Integer),
    ("team_name", String),
    ("other_id", Integer),
    ("other_name", String),
    ("match_id", Integer),
    ("season_id", Integer),
    ("score_for", Integer),
    ("score_against", Integer),
    ("conceded_for", Integer),
    ("conceded_against", Integer),
    #: A part's own order (its rows' place in it): a UNION ALL keeps none.
    ("ordinal", Integer),
)


def _shape(kind: str, **columns: Any) -> list[ColumnElement[Any]]:
    """The select list of one part: its kind, then every column (NULL where it has none)."""
    shaped: list[ColumnElement[Any]] = [literal_column(f"'{kind}'", String).label("kind")]
    for name, type_ in _COLUMNS:
        column = columns.pop(name, None)
        shaped.append((cast(null(), type_) if column is None else column).label(name))
    if columns:
        raise TypeError(f"unknown columns {sorted(columns)}")
    return shaped


def _top(query: Select[Any], *order: Any, limit: int = SHOWN) -> Select[Any]:
    """A part cut to its first `limit` rows (wrapped: a UNION's parts cannot order)."""
    inner = (
        query.add_columns(func.row_number().over(order_by=order).label("place"))
        .order_by(*order)
        .limit(limit)
        .subquery()
    )
    ordinal = inner.c.place.label("ordinal")
    return select(*(ordinal if c.name == "ordinal" else c for c in inner.c if c.name != "place"))


def counted(league_id: int, season_id: int | None) -> list[ColumnElement[bool]]:
    """The matches records count: played (not voided), not friendlies, in the scope."""
    where = [Match.league_id == league_id, Match.state == "played", Match.friendly.is_(False)]
    if season_id is not None:
        where.append(Match.season_id == season_id)
    return where


def _match_lines(counted: list[ColumnElement[bool]]) -> list[Select[Any]]:
    """The best single-match line of each counter."""
    parts = []
    for counter in COUNTERS:
        value = getattr(MatchPlayer, counter)
        query = (
            select(
                *_shape(
                    f"{counter}_match",
                    value=value,
                    player_id=MatchPlayer.player_id,
                    player_name=Player.name,
                    team_id=MatchPlayer.team_id,
                    team_name=Team.name,
                    match_id=Match.id,
                    season_id=Match.season_id,
                )
            )
            .select_from(MatchPlayer)
            .join(Match, Match.id == MatchPlayer.match_id)
            .join(Player, Player.id == MatchPlayer.player_id)
            .join(Team, Team.id == MatchPlayer.team_id)
            .where(*counted, value > 0)
        )
        parts.append(_top(query, value.desc(), Match.played_at, Match.id, MatchPlayer.id))
    return parts


def _player_sums(
    kind: str,
    total: Any,
    counted: Iterable[ColumnElement[bool]],
    *,
    per_season: bool = False,
    also: Iterable[ColumnElement[bool]] = (),
) -> Select[Any]:
    """The players with the highest `total` over the counted matches (per season: each
    player's best season)."""
    group = [MatchPlayer.player_id, Player.name, Player.team_id, Team.name]
    if per_season:
        group.append(Match.season_id)
    query = (
        select(
            *_shape(
                kind,
                value=total,
                player_id=MatchPlayer.player_id,
                player_name=Player.name,
                team_id=Player.team_id,
                team_name=Team.name,
                season_id=Match.season_id if per_season else None,
            )
        )
        .select_from(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(Player, Player.id == MatchPlayer.player_id)
        .join(Team, Team.id == Player.team_id)
        .where(*counted, *also)
        .group_by(*group)
        .having(total > 0)
    )
    return _top(query, total.desc(), Player.name, MatchPlayer.player_id)


def _sums(name: str, counted: list[ColumnElement[bool]], *, per_season: bool) -> CTE:
    """Every player's totals of the counters over the counted matches (per season: one
    row per player and season), summed once for all the lists that read them."""
    group: list[Any] = [MatchPlayer.player_id, Player.name, Player.team_id, Team.name]
    if per_season:
        group.append(Match.season_id)
    return (
        select(
            MatchPlayer.player_id.label("player_id"),
            Player.name.label("player_name"),
            Player.team_id.label("team_id"),
            Team.name.label("team_name"),
            (Match.season_id if per_season else cast(null(), Integer)).label("season_id"),
            *(func.sum(getattr(MatchPlayer, c)).label(c) for c in COUNTERS),
        )
        .select_from(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(Player, Player.id == MatchPlayer.player_id)
        .join(Team, Team.id == Player.team_id)
        .where(*counted)
        .group_by(*group)
        .cte(name)
    )


def _best(kind: str, sums: CTE, counter: str) -> Select[Any]:
    """The players (or player seasons) with the highest total of `counter`."""
    total = sums.c[counter]
    query = select(
        *_shape(
            kind,
            value=total,
            player_id=sums.c.player_id,
            player_name=sums.c.player_name,
            team_id=sums.c.team_id,
            team_name=sums.c.team_name,
            season_id=sums.c.season_id,
        )
    ).where(total > 0)
    return _top(query, total.desc(), sums.c.player_name, sums.c.player_id)


def _player_parts(
    league_id: int, counted: list[ColumnElement[bool]], scope: Scope
) -> list[Select[Any]]:
    """Match, season and career records of the counters, and the deaths caused."""
    parts = _match_lines(counted)
    seasons = _sums("season_sums", counted, per_season=scope == "all")
    careers = _sums("career_sums", counted, per_season=False) if scope == "all" else None
    for counter in COUNTERS:
        parts.append(_best(f"{counter}_season", seasons, counter))
        if careers is not None:
            parts.append(_best(f"{counter}_career", careers, counter))
    parts.append(_deaths_caused(counted))
    return parts


def _deaths_caused(counted: list[ColumnElement[bool]]) -> Select[Any]:
    """Players by the deaths they caused: the live log's casualties whose victim the
    match's report still has dead (a corrected report counts as corrected)."""
    victim = aliased(MatchPlayer)
    deaths = func.count(MatchLogEvent.victim_id.distinct())
    query = (
        select(
            *_shape(
                "deaths_caused",
                value=deaths,
                player_id=MatchLogEvent.player_id,
                player_name=Player.name,
                team_id=Player.team_id,
                team_name=Team.name,
            )
        )
        .select_from(MatchLogEvent)
        .join(Match, Match.id == MatchLogEvent.match_id)
        .join(
            victim,
            and_(
                victim.match_id == MatchLogEvent.match_id,
                victim.player_id == MatchLogEvent.victim_id,
                victim.injury == "dead",
            ),
        )
        .join(Player, Player.id == MatchLogEvent.player_id)
        .join(Team, Team.id == Player.team_id)
        .where(*counted, MatchLogEvent.kind == "cas", MatchLogEvent.injury == "dead")
        .group_by(MatchLogEvent.player_id, Player.name, Player.team_id, Team.name)
    )
    return _top(query, deaths.desc(), Player.name, MatchLogEvent.player_id)


def _sides() -> tuple[Any, Any, Any, Any]:
    return aliased(MatchTeam), aliased(MatchTeam), aliased(Team), aliased(Team)


def _match_shape(kind: str, value: Any, own: Any, other: Any, team: Any, opponent: Any) -> Any:
    return _shape(
        kind,
        value=value,
        team_id=own.team_id,
        team_name=team.name,
        other_id=other.team_id,
        other_name=opponent.name,
        match_id=Match.id,
        season_id=Match.season_id,
        score_for=own.score,
        score_against=other.score,
        conceded_for=case((own.conceded.is_(True), 1), else_=0),
        conceded_against=case((other.conceded.is_(True), 1), else_=0),
    )


def _both_sides(query: Select[Any], own: Any, other: Any, team: Any, opponent: Any) -> Any:
    return (
        query.select_from(Match)
        .join(own, own.match_id == Match.id)
        .join(other, and_(other.match_id == Match.id, other.id != own.id))
        .join(team, team.id == own.team_id)
        .join(opponent, opponent.id == other.team_id)
    )


def _match_parts(counted: list[ColumnElement[bool]]) -> list[Select[Any]]:
    """Biggest wins, highest scoring matches, most casualties in a match, the count."""
    own, other, team, opponent = _sides()
    margin = own.score - other.score
    wins = _both_sides(
        select(*_match_shape("biggest_win", margin, own, other, team, opponent)),
        own,
        other,
        team,
        opponent,
    ).where(*counted, own.score > other.score)
    goals = own.score + other.score
    scoring = _both_sides(
        select(*_match_shape("highest_scoring", goals, own, other, team, opponent)),
        own,
        other,
        team,
        opponent,
    ).where(*counted, own.side == "home", goals > 0)
    caused = (
        select(func.coalesce(func.sum(MatchPlayer.cas), 0))
        .where(MatchPlayer.match_id == Match.id)
        .scalar_subquery()
    )
    casualties = _both_sides(
        select(*_match_shape("most_casualties", caused, own, other, team, opponent)),
        own,
        other,
        team,
        opponent,
    ).where(*counted, own.side == "home", caused > 0)
    played = select(*_shape("played", value=func.count(Match.id))).where(*counted)
    order = (Match.played_at, Match.id)
    return [
        _top(wins, margin.desc(), own.score.desc(), *order),
        _top(scoring, goals.desc(), *order),
        _top(casualties, caused.desc(), *order),
        played,
    ]


def _kickoff_values(counted: list[ColumnElement[bool]]) -> Select[Any]:
    """The highest team values taken to a counted match (the pre-game's CTV); a few more
    than shown, as one team may hold several."""
    query = (
        select(
            *_shape(
                "kickoff_tv",
                value=PregameSide.ctv,
                team_id=PregameSide.team_id,
                team_name=Team.name,
                match_id=Match.id,
                season_id=Match.season_id,
            )
        )
        .select_from(PregameSide)
        .join(Match, Match.id == PregameSide.match_id)
        .join(Team, Team.id == PregameSide.team_id)
        .where(*counted, PregameSide.ctv > 0)
    )
    return _top(query, PregameSide.ctv.desc(), Match.played_at, Match.id, limit=SHOWN * SHOWN)


def _hall_parts(league: League, everything: list[ColumnElement[bool]]) -> list[Select[Any]]:
    """The players at the ruleset's top level, the legends no longer playing, the MVPs."""
    level = top_level(league_ruleset(league))
    in_league = [Team.league_id == league.id, Player.status.not_in(MATCH_DAY_STATUSES)]
    if level.by == "advancements":
        taken = (
            select(Advancement.player_id, func.count().label("taken"))
            .where(Advancement.undone_at.is_(None))
            .group_by(Advancement.player_id)
            .subquery()
        )
        reached: Select[Any] = (
            select(*_top_level_shape())
            .select_from(Player)
            .join(taken, taken.c.player_id == Player.id)
            .where(taken.c.taken >= level.at_least)
        )
    else:
        reached = (
            select(*_top_level_shape())
            .select_from(Player)
            .where(Player.spp_earned >= level.at_least)
        )
    reached = reached.join(Team, Team.id == Player.team_id).where(*in_league)
    gone = or_(Player.status.in_(("dead", "retired")), Team.status == "retired")
    spp = func.sum(MatchPlayer.spp)
    return [
        _top(reached, Player.spp_earned.desc(), Player.name, Player.id),
        _player_sums("legend", spp, everything, also=(gone, Team.league_id == league.id)),
        _player_sums("mvp", func.sum(MatchPlayer.mvp), everything),
    ]


def _top_level_shape() -> list[ColumnElement[Any]]:
    return _shape(
        "top_level",
        value=Player.spp_earned,
        extra=func.count().over(),
        player_id=Player.id,
        player_name=Player.name,
        team_id=Player.team_id,
        team_name=Team.name,
    )


def _famous_parts(league_id: int) -> list[Select[Any]]:
    """Every prize a season paid (the champion is the first place of its latest closing)
    and every playoff final played."""
    prizes = (
        select(
            *_shape(
                "prize",
                value=TreasuryEntry.amount,
                extra=TreasuryEntry.id,
                team_id=TreasuryEntry.team_id,
                team_name=Team.name,
                season_id=TreasuryEntry.season_id,
            )
        )
        .select_from(TreasuryEntry)
        .join(Team, Team.id == TreasuryEntry.team_id)
        .where(
            Team.league_id == league_id,
            TreasuryEntry.kind == "prize",
            TreasuryEntry.season_id.is_not(None),
        )
    )
    own, other, team, opponent = _sides()
    final_round = case(
        *((PlayoffBracket.size == size, rounds) for size, rounds in _FINAL_ROUND.items()),
        else_=0,
    )
    shape = _match_shape("final", Match.winner_team_id, own, other, team, opponent)
    finals = (
        _both_sides(select(*shape), own, other, team, opponent)
        .join(PlayoffBracket, PlayoffBracket.id == Match.bracket_id)
        .where(
            Match.league_id == league_id,
            Match.state == "played",
            own.side == "home",
            Match.bracket_slot == 0,
            Match.bracket_round == final_round,
        )
    )
    return [prizes, finals]


def boards_query(league: League, season_id: int | None, scope: Scope) -> Select[Any]:
    scoped = counted(league.id, season_id)
    everything = counted(league.id, None)
    parts = [
        *_player_parts(league.id, scoped, scope),
        *_match_parts(scoped),
        _kickoff_values(scoped),
        *_hall_parts(league, everything),
        *_famous_parts(league.id),
    ]
    return select(union_all(*parts).subquery())


def results_query(league_id: int, season_id: int | None) -> Select[Any]:
    """Each team's results in the league's order (by the time they were played)."""
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    return (
        select(
            Match.id,
            Match.season_id,
            own.team_id,
            Team.name,
            own.score,
            own.conceded,
            other.score,
            other.conceded,
        )
        .select_from(Match)
        .join(own, own.match_id == Match.id)
        .join(other, and_(other.match_id == Match.id, other.id != own.id))
        .join(Team, Team.id == own.team_id)
        .where(*counted(league_id, season_id))
        .order_by(Match.played_at, Match.id, own.team_id)
    )
