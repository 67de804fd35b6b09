"""Season statistics, league leaders and the graveyard (read side).

Summed from the played matches' MatchPlayer rows, counted as the standings count them
(`league.services.standings`: friendlies and voided matches do not count), and returned
as plain dataclasses, so a template never touches the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Select, and_, case, func, select
from sqlalchemy.orm import Session, aliased

from league.i18n import N_, current_language, gettext
from league.models import League, Match, MatchPlayer, MatchTeam, Player, Season, Team
from league.rules import RulesError
from league.rules.competitions import SideResult
from league.services.access import league_ruleset
from league.services.paging import Page, page_in_sql
from league.services.standings import counted_matches, matches_played, outcome_of, season_of

# ---------------------------------------------------------------------------
# Statistics and leaders

LEADER_BOARDS = (
    ("td", N_("Touchdowns")),
    ("cas", N_("Casualties caused")),
    ("comp", N_("Completions")),
    ("interceptions", N_("Interceptions")),
    ("spp", N_("Star Player Points")),
    ("mvp", N_("Most Valuable Player awards")),
)
LEADERS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: int
    name: str
    number: int
    position: str
    team_id: int
    team_name: str
    status: str
    td: int = 0
    cas: int = 0
    comp: int = 0
    interceptions: int = 0
    mvp: int = 0
    spp: int = 0


@dataclass(frozen=True, slots=True)
class TeamStats:
    team_id: int
    team_name: str
    played: int = 0
    td: int = 0
    cas: int = 0
    comp: int = 0
    interceptions: int = 0
    mvp: int = 0
    spp: int = 0
    #: Casualties the team's players suffered, and how many of them died.
    injuries: int = 0
    deaths: int = 0


@dataclass(frozen=True, slots=True)
class Leader:
    rank: int
    player_id: int
    name: str
    team_id: int
    team_name: str
    value: int


@dataclass(frozen=True, slots=True)
class LeaderBoard:
    code: str
    title: str
    leaders: tuple[Leader, ...]


@dataclass(frozen=True, slots=True)
class SeasonStats:
    season_id: int
    season_name: str
    players: tuple[PlayerStats, ...]
    teams: tuple[TeamStats, ...]
    leaders: tuple[LeaderBoard, ...]
    matches_played: int

    @property
    def empty(self) -> bool:
        return self.matches_played == 0


def _position_name(league: League, team: Team | None, position_id: str) -> str:
    if team is None:
        return position_id
    try:
        ruleset = league_ruleset(league)
        name = ruleset.team_type(team.team_type_id).position(position_id).name
    except RulesError:
        return position_id
    return ruleset.text(current_language()).position_name(name)


def leaders(players: Iterable[PlayerStats], code: str, title: str) -> LeaderBoard:
    """The top players by one counter (zeros left out); equal values share a rank."""
    ranked = sorted(
        (p for p in players if getattr(p, code) > 0),
        key=lambda p: (-getattr(p, code), p.name, p.player_id),
    )[:LEADERS_SHOWN]
    entries: list[Leader] = []
    for index, p in enumerate(ranked):
        value = getattr(p, code)
        rank = entries[-1].rank if entries and entries[-1].value == value else index + 1
        entries.append(Leader(rank, p.player_id, p.name, p.team_id, p.team_name, value))
    return LeaderBoard(code, title, tuple(entries))


_COUNTERS = ("td", "cas", "comp", "interceptions", "mvp", "spp")


def season_stats(session: Session, league: League, season_number: int | None = None) -> SeasonStats:
    """Per-player and per-team totals of a season's league matches, and the leaders.

    Summed in SQL: one row per (player, team) and one per team, never a row per match.
    """
    season = season_of(league, season_number)
    teams = {team.id: team for team in league.teams}
    per_player: dict[int, dict[str, int]] = {}
    per_team: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    # A player's row names the team of his first appearance of the season.
    first: dict[int, tuple[int, str, int, str, str]] = {}
    for (
        player_id,
        team_id,
        _first_line,
        name,
        number,
        position_id,
        status,
        *totals,
    ) in session.execute(_player_totals_query(season.id)):
        *sums, injuries, deaths = (int(v or 0) for v in totals)
        first.setdefault(player_id, (team_id, name, number, position_id, status))
        mine = per_player.setdefault(player_id, dict.fromkeys(_COUNTERS, 0))
        for key, value in zip(_COUNTERS, sums, strict=True):
            mine[key] += value
            per_team[team_id][key] += value
        per_team[team_id]["injuries"] += injuries
        per_team[team_id]["deaths"] += deaths
    side = aliased(MatchTeam)
    sides_played = 0
    for team_id, played_count in session.execute(
        select(side.team_id, func.count())
        .join(Match, Match.id == side.match_id)
        .where(*counted_matches(season.id))
        .group_by(side.team_id)
    ):
        per_team[team_id]["played"] += played_count
        sides_played += played_count

    players = _player_stats(league, teams, first, per_player)
    boards = tuple(leaders(players, code, gettext(title)) for code, title in LEADER_BOARDS)
    return SeasonStats(
        season.id,
        season.name,
        tuple(players),
        _team_stats(league, teams, per_team),
        boards,
        matches_played(sides_played),
    )


def _player_totals_query(season_id: int) -> Select[Any]:
    """One row per (player, team) of the season's counted matches, in the order of their
    first appearance: the counters summed, the casualties suffered and the deaths."""
    counters = [func.sum(getattr(MatchPlayer, name)) for name in _COUNTERS]
    return (
        select(
            MatchPlayer.player_id,
            MatchPlayer.team_id,
            func.min(MatchPlayer.id),
            Player.name,
            Player.number,
            Player.position_id,
            Player.status,
            *counters,
            func.count(MatchPlayer.injury),
            func.sum(case((MatchPlayer.injury == "dead", 1), else_=0)),
        )
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(Player, Player.id == MatchPlayer.player_id)
        .where(*counted_matches(season_id))
        .group_by(
            MatchPlayer.player_id,
            MatchPlayer.team_id,
            Player.name,
            Player.number,
            Player.position_id,
            Player.status,
        )
        .order_by(func.min(MatchPlayer.id))
    )


def _player_stats(
    league: League,
    teams: dict[int, Team],
    first: dict[int, tuple[int, str, int, str, str]],
    per_player: dict[int, dict[str, int]],
) -> list[PlayerStats]:
    """Each player's totals under the team of his first appearance, most SPP first."""
    players = []
    for player_id, (team_id, name, number, position_id, status) in first.items():
        team = teams.get(team_id)
        players.append(
            PlayerStats(
                player_id=player_id,
                name=name,
                number=number,
                position=_position_name(league, team, position_id),
                team_id=team_id,
                team_name=team.name if team else f"#{team_id}",
                status=status,
                **per_player[player_id],
            )
        )
    players.sort(key=lambda p: (-p.spp, p.name, p.player_id))
    return players


def _team_stats(
    league: League, teams: dict[int, Team], per_team: dict[int, dict[str, int]]
) -> tuple[TeamStats, ...]:
    """Each active team's totals (and those of any other team that played), by name."""
    team_ids = {t.id for t in league.teams if t.status == "active"} | set(per_team)
    return tuple(
        sorted(
            (
                TeamStats(
                    team_id=team_id,
                    team_name=teams[team_id].name if team_id in teams else f"#{team_id}",
                    **per_team.get(team_id, {}),
                )
                for team_id in team_ids
            ),
            key=lambda t: t.team_name,
        )
    )


# ---------------------------------------------------------------------------
# The graveyard


@dataclass(frozen=True, slots=True)
class Grave:
    player_id: int
    name: str
    number: int
    position: str
    team_id: int
    team_name: str
    spp: int
    match_id: int
    season_name: str
    round: int | None
    day: date | None
    opponent: str
    #: The result from the dead player's team's side: "lost", 1, 2.
    outcome: str
    score_for: int
    score_against: int
    friendly: bool


def graveyard(session: Session, league: League) -> list[Grave]:
    """Every player who died in a played match of the league, latest first."""
    teams = {team.id: team for team in league.teams}
    return [_grave(league, teams, row) for row in session.execute(_graves_query(league))]


def graveyard_page(session: Session, league: League, number: int | None) -> Page[Grave]:
    """Page `number` of the graveyard, read a page at a time (`page_in_sql`)."""
    teams = {team.id: team for team in league.teams}
    page = page_in_sql(session, _graves_query(league), number)
    return page.map(lambda row: _grave(league, teams, row))


def _graves_query(league: League) -> Select[Any]:
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    own_team, other_team = aliased(Team), aliased(Team)
    return (
        select(
            MatchPlayer.player_id,
            MatchPlayer.team_id,
            Player.name,
            Player.number,
            Player.position_id,
            Player.spp_earned,
            Match.id,
            Match.round,
            Match.played_at,
            Match.friendly,
            Season.name,
            own_team.name,
            own.score,
            own.conceded,
            other_team.name,
            other.score,
            other.conceded,
        )
        .select_from(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(Player, Player.id == MatchPlayer.player_id)
        .join(own, and_(own.match_id == Match.id, own.team_id == MatchPlayer.team_id))
        .join(own_team, own_team.id == own.team_id)
        .join(other, and_(other.match_id == Match.id, other.team_id != MatchPlayer.team_id))
        .join(other_team, other_team.id == other.team_id)
        .outerjoin(Season, Season.id == Match.season_id)
        .where(
            Match.league_id == league.id,
            Match.state == "played",
            MatchPlayer.injury == "dead",
        )
        .order_by(Match.played_at.desc(), Match.id.desc(), MatchPlayer.id)
    )


def _grave(league: League, teams: dict[int, Team], row: Sequence[Any]) -> Grave:
    (
        player_id,
        team_id,
        name,
        number,
        position_id,
        spp,
        match_id,
        round_number,
        played_at,
        friendly,
        season_name,
        team_name,
        score_for,
        conceded,
        opponent,
        score_against,
        opponent_conceded,
    ) = row
    return Grave(
        player_id=player_id,
        name=name,
        number=number,
        position=_position_name(league, teams.get(team_id), position_id),
        team_id=team_id,
        team_name=team_name,
        spp=spp,
        match_id=match_id,
        season_name=season_name or "",
        round=round_number,
        day=played_at.date() if played_at else None,
        opponent=opponent,
        outcome=outcome_of(
            league,
            SideResult(score_for, conceded),
            SideResult(score_against, opponent_conceded),
        ).result,
        score_for=score_for,
        score_against=score_against,
        friendly=friendly,
    )
