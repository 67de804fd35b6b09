"""Season statistics, league leaders and the graveyard (read side).

Summed from the played matches' MatchPlayer rows, counted as the standings count them
(`league.services.standings`: friendlies and voided matches do not count), and returned
as plain dataclasses, so a template never touches the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Select, and_, case, func, or_, select
from sqlalchemy.orm import Session, aliased

from league.i18n import N_, current_language, gettext
from league.models import League, Match, MatchPlayer, MatchTeam, Player, Season, Team
from league.rules import RulesError
from league.rules.competitions import SideResult
from league.services import paging
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
    #: One page of the players, most SPP first.
    players: Page[PlayerStats]
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


def season_stats(
    session: Session,
    league: League,
    season_number: int | None = None,
    players_page: int | None = None,
) -> SeasonStats:
    """Per-team totals of a season's league matches, the leaders, and one page of the
    per-player totals (`players_page`, from 1; past the end gives the last page).

    Summed in SQL, and the players paged there too: one statement for the teams and one
    for the players, never a row per match nor every player of a long season.
    """
    season = season_of(league, season_number)
    teams = {team.id: team for team in league.teams}
    per_team: dict[int, dict[str, int]] = {}
    sides_played = 0
    for team_id, played, *totals in session.execute(_team_totals_query(season.id)):
        sums = [int(v or 0) for v in totals]
        per_team[team_id] = dict(zip((*_COUNTERS, "injuries", "deaths"), sums, strict=True))
        per_team[team_id]["played"] = int(played)
        sides_played += int(played)
    page, candidates = _player_rows(session, league, teams, season.id, players_page)
    boards = tuple(leaders(candidates, code, gettext(title)) for code, title in LEADER_BOARDS)
    return SeasonStats(
        season.id,
        season.name,
        page,
        _team_stats(league, teams, per_team),
        boards,
        matches_played(sides_played),
    )


def _team_totals_query(season_id: int) -> Select[Any]:
    """One row per team that played a counted match of the season: the matches it played,
    its players' counters summed, the casualties they suffered and their deaths."""
    side = aliased(MatchTeam)
    played = (
        select(side.team_id.label("team_id"), func.count().label("played"))
        .join(Match, Match.id == side.match_id)
        .where(*counted_matches(season_id))
        .group_by(side.team_id)
        .subquery()
    )
    totals = (
        select(
            MatchPlayer.team_id.label("team_id"),
            *(func.sum(getattr(MatchPlayer, name)).label(name) for name in _COUNTERS),
            func.count(MatchPlayer.injury).label("injuries"),
            func.sum(case((MatchPlayer.injury == "dead", 1), else_=0)).label("deaths"),
        )
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(*counted_matches(season_id))
        .group_by(MatchPlayer.team_id)
        .subquery()
    )
    return select(
        played.c.team_id,
        played.c.played,
        *(totals.c[name] for name in (*_COUNTERS, "injuries", "deaths")),
    ).outerjoin(totals, totals.c.team_id == played.c.team_id)


def _by_name(session: Session, column: Any) -> Any:
    """`column` in code point order, as Python sorts strings (SQLite's BINARY collation;
    PostgreSQL's "C" whatever the database's collation is)."""
    return column.collate("C") if session.get_bind().dialect.name == "postgresql" else column


def _player_rows(
    session: Session,
    league: League,
    teams: dict[int, Team],
    season_id: int,
    number: int | None,
) -> tuple[Page[PlayerStats], list[PlayerStats]]:
    """Page `number` of the season's players, most SPP first, and the candidates for the
    leader boards (each board's first LEADERS_SHOWN with more than zero), in one statement:
    every player's totals are numbered in SQL (the list's order and each board's), and only
    the rows of the page and of the boards come back, with the count of all players."""
    size = paging.LIST_PAGE
    ranked = _ranked_players(session, season_id).subquery()
    on_board = [
        and_(ranked.c[f"{code}_place"] <= LEADERS_SHOWN, ranked.c[code] > 0)
        for code, _ in LEADER_BOARDS
    ]
    columns = [c for c in ranked.c if not c.name.endswith("_place") or c.name == "list_place"]

    def read(page: int) -> list[Any]:
        first = (page - 1) * size + 1
        in_page = ranked.c.list_place.between(first, first + size - 1)
        query = select(*columns).where(or_(in_page, *on_board)).order_by(ranked.c.list_place)
        return list(session.execute(query))

    number = max(number or 1, 1)
    rows = read(number)
    total = int(rows[0].total) if rows else 0
    pages = max(1, -(-total // size))
    if number > pages:  # past the end: the last page (a second statement, only then)
        number = pages
        rows = read(number)
    start = (number - 1) * size
    made = [(row.list_place, _player(league, teams, row)) for row in rows]
    items = [player for place, player in made if start < place <= start + size]
    page = Page(items, number, pages, total, start + 1 if items else 0)
    return page, [player for _, player in made]


def _ranked_players(session: Session, season_id: int) -> Select[Any]:
    """Every player of the season's counted matches with his totals, under the team of his
    first appearance; numbered by SPP (the list) and by each board's counter."""
    first_line = aliased(MatchPlayer)
    sums = (
        select(
            MatchPlayer.player_id.label("player_id"),
            func.min(MatchPlayer.id).label("first_line"),
            *(func.sum(getattr(MatchPlayer, name)).label(name) for name in _COUNTERS),
        )
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(*counted_matches(season_id))
        .group_by(MatchPlayer.player_id)
        .subquery()
    )
    name = _by_name(session, Player.name)
    values = {code: func.coalesce(sums.c[code], 0) for code in _COUNTERS}

    def place(code: str) -> Any:
        return func.row_number().over(order_by=(values[code].desc(), name, Player.id))

    return (
        select(
            Player.id.label("player_id"),
            first_line.team_id.label("team_id"),
            Player.name.label("name"),
            Player.number.label("number"),
            Player.position_id.label("position_id"),
            Player.status.label("status"),
            *(values[code].label(code) for code in _COUNTERS),
            place("spp").label("list_place"),
            func.count().over().label("total"),
            *(place(code).label(f"{code}_place") for code, _ in LEADER_BOARDS),
        )
        .select_from(sums)
        .join(first_line, first_line.id == sums.c.first_line)
        .join(Player, Player.id == sums.c.player_id)
    )


def _player(league: League, teams: dict[int, Team], row: Any) -> PlayerStats:
    team = teams.get(row.team_id)
    return PlayerStats(
        player_id=row.player_id,
        name=row.name,
        number=row.number,
        position=_position_name(league, team, row.position_id),
        team_id=row.team_id,
        team_name=team.name if team else f"#{row.team_id}",
        status=row.status,
        **{code: int(row._mapping[code]) for code in _COUNTERS},
    )


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
