"""Standings, season statistics, league leaders and the graveyard (read side).

Everything is computed from the played matches' rows (MatchTeam for results,
MatchPlayer for what each player did) and returned as plain dataclasses, so a
template never touches the database. Friendlies and voided matches do not count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from league.models import League, Match, MatchPlayer, MatchTeam, Player, Season, Team
from league.models.league import TIE_BREAKERS
from league.rules import RulesError
from league.services.errors import NotFound
from league.services.leagues import league_ruleset

TIE_BREAKER_EXPLANATIONS = {
    "points": "Points: {win} for a win, {draw} for a draw, {loss} for a loss.",
    "head_to_head": (
        "Head-to-head: the points the tied teams took from their matches against each "
        "other only (worked out again for every group of teams still tied)."
    ),
    "td_difference": "Touchdown difference: touchdowns scored minus touchdowns conceded.",
    "cas_difference": "Casualty difference: casualties caused minus casualties suffered.",
    "td_scored": "Touchdowns scored.",
    "fewest_conceded": "Fewest matches conceded (given up before the end).",
    "coin_toss": (
        "Coin toss: the commissioner's choice; until then tied teams are listed by name."
    ),
}
TIE_BREAKER_NAMES = {
    "points": "points",
    "head_to_head": "head-to-head",
    "td_difference": "touchdown difference",
    "cas_difference": "casualty difference",
    "td_scored": "touchdowns scored",
    "fewest_conceded": "fewest matches conceded",
    "coin_toss": "commissioner's choice",
    "name": "name (still level on every tie-breaker)",
}


def season_of(league: League, number: int | None = None) -> Season:
    """The season with that number, else the current (or latest) one."""
    if number is not None:
        season = next((s for s in league.seasons if s.number == number), None)
        if season is None:
            raise NotFound(f"{league.name} has no season {number}.")
        return season
    season = league.current_season or (league.seasons[-1] if league.seasons else None)
    if season is None:
        raise NotFound(f"{league.name} has no season yet.")
    return season


def _season_matches(session: Session, season: Season) -> list[Match]:
    """Played league matches (no friendlies) of the season."""
    return list(
        session.scalars(
            select(Match)
            .where(
                Match.season_id == season.id,
                Match.state == "played",
                Match.friendly.is_(False),
            )
            .order_by(Match.played_at, Match.id)
            .options(selectinload(Match.sides))
        )
    )


def _casualties(session: Session, season: Season) -> dict[tuple[int, int], int]:
    """(match id, team id) -> casualties that team's players caused in that match."""
    rows = session.execute(
        select(MatchPlayer.match_id, MatchPlayer.team_id, func.sum(MatchPlayer.cas))
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(
            Match.season_id == season.id,
            Match.state == "played",
            Match.friendly.is_(False),
        )
        .group_by(MatchPlayer.match_id, MatchPlayer.team_id)
    )
    return {(match_id, team_id): int(total or 0) for match_id, team_id, total in rows}


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
    points: int
    #: Matches this team conceded (gave up).
    concessions: int = 0
    #: The tie-breaker that put this team above the next one when their points are level.
    ahead_by: str | None = None

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

    @property
    def reason(self) -> str:
        return TIE_BREAKER_NAMES.get(self.tie_breaker, self.tie_breaker)


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


def _outcome(own: MatchTeam, other: MatchTeam) -> str:
    """'won', 'drawn' or 'lost'; a team that concedes loses whatever the score."""
    if own.conceded:
        return "lost"
    if other.conceded:
        return "won"
    if own.score == other.score:
        return "drawn"
    return "won" if own.score > other.score else "lost"


def _points(league: League, outcome: str) -> int:
    return {"won": league.points_win, "drawn": league.points_draw, "lost": league.points_loss}[
        outcome
    ]


def tie_breaker_order(league: League) -> tuple[str, ...]:
    """The league's tie-breakers, with points first when the list leaves it out."""
    codes = tuple(code for code in (league.tie_breakers or TIE_BREAKERS) if code in TIE_BREAKERS)
    return codes if "points" in codes else ("points", *codes)


def standings(session: Session, league: League, season_number: int | None = None) -> Standings:
    """The table of a season (the current one by default)."""
    season = season_of(league, season_number)
    played = _season_matches(session, season)
    cas = _casualties(session, season)
    tallies: dict[int, _Tally] = {
        team.id: _Tally(team.id, team.name) for team in league.teams if team.status == "active"
    }
    names = {team.id: team.name for team in league.teams}
    results: list[tuple[int, int, str]] = []  # (team, opponent, outcome) for head-to-head
    for match in played:
        for own in match.sides:
            other = next(s for s in match.sides if s is not own)
            tally = tallies.setdefault(
                own.team_id, _Tally(own.team_id, names.get(own.team_id, f"#{own.team_id}"))
            )
            outcome = _outcome(own, other)
            tally.played += 1
            setattr(tally, outcome, getattr(tally, outcome) + 1)
            tally.points += _points(league, outcome)
            tally.td_for += own.score
            tally.td_against += other.score
            tally.cas_for += cas.get((match.id, own.team_id), 0)
            tally.cas_against += cas.get((match.id, other.team_id), 0)
            tally.concessions += int(own.conceded)
            results.append((own.team_id, other.team_id, outcome))

    def head_to_head(group: Sequence[_Tally]) -> dict[int, int]:
        ids = {t.team_id for t in group}
        points = dict.fromkeys(ids, 0)
        for team_id, opponent_id, outcome in results:
            if team_id in ids and opponent_id in ids:
                points[team_id] += _points(league, outcome)
        return points

    keys: dict[str, Callable[[_Tally], int]] = {
        "points": lambda t: t.points,
        "td_difference": lambda t: t.td_for - t.td_against,
        "cas_difference": lambda t: t.cas_for - t.cas_against,
        "td_scored": lambda t: t.td_for,
        "fewest_conceded": lambda t: -t.concessions,
    }
    order = tie_breaker_order(league)
    ranked, gaps = _rank(sorted(tallies.values(), key=lambda t: t.name), order, keys, head_to_head)
    rows = tuple(
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
            ahead_by=gaps[index] if index < len(gaps) else None,
        )
        for index, t in enumerate(ranked)
    )
    notes = tuple(
        TieNote(upper.team_name, lower.team_name, upper.ahead_by or "name")
        for upper, lower in pairwise(rows)
        if upper.points == lower.points and lower.played + upper.played > 0
    )
    points_text = TIE_BREAKER_EXPLANATIONS["points"].format(
        win=league.points_win, draw=league.points_draw, loss=league.points_loss
    )
    explanations = tuple(
        points_text if code == "points" else TIE_BREAKER_EXPLANATIONS[code] for code in order
    )
    if "coin_toss" not in order:
        explanations += (
            "Teams still level after these are listed by name (the commissioner's choice).",
        )
    return Standings(
        season.id, season.name, rows, order, explanations, notes, matches_played=len(played)
    )


def _rank(
    group: list[_Tally],
    criteria: Sequence[str],
    keys: dict[str, Callable[[_Tally], int]],
    head_to_head: Callable[[Sequence[_Tally]], dict[int, int]],
) -> tuple[list[_Tally], list[str]]:
    """Order `group` by the criteria; also what separated each neighbour from the next.

    `group` comes sorted by name, and every split keeps that order inside a
    level group, so teams level on everything stay in name order.
    """
    if len(group) < 2:
        return list(group), []
    if not criteria:
        return list(group), ["name"] * (len(group) - 1)
    code, rest = criteria[0], criteria[1:]
    if code == "coin_toss":
        return list(group), ["coin_toss"] * (len(group) - 1)
    if code == "head_to_head":
        mutual = head_to_head(group)
        value: Callable[[_Tally], int] = lambda t: mutual[t.team_id]  # noqa: E731
    else:
        value = keys[code]
    levels = sorted({value(t) for t in group}, reverse=True)
    if len(levels) == 1:
        return _rank(group, rest, keys, head_to_head)
    # Head-to-head is worked out again for each smaller group still level.
    then = criteria if code == "head_to_head" else rest
    ordered: list[_Tally] = []
    gaps: list[str] = []
    for level in levels:
        subgroup = [t for t in group if value(t) == level]
        sub_order, sub_gaps = _rank(subgroup, then, keys, head_to_head)
        if ordered:
            gaps.append(code)
        ordered += sub_order
        gaps += sub_gaps
    return ordered, gaps


# ---------------------------------------------------------------------------
# Statistics and leaders

LEADER_BOARDS = (
    ("td", "Touchdowns"),
    ("cas", "Casualties caused"),
    ("comp", "Completions"),
    ("interceptions", "Interceptions"),
    ("spp", "Star Player Points"),
    ("mvp", "Most Valuable Player awards"),
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


def _position_name(league: League, team: Team | None, player: Player) -> str:
    if team is None:
        return player.position_id
    try:
        return league_ruleset(league).team_type(team.team_type_id).position(player.position_id).name
    except RulesError:
        return player.position_id


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


def season_stats(session: Session, league: League, season_number: int | None = None) -> SeasonStats:
    """Per-player and per-team totals of a season's league matches, and the leaders."""
    season = season_of(league, season_number)
    played = _season_matches(session, season)
    lines = list(
        session.scalars(
            select(MatchPlayer)
            .join(Match, Match.id == MatchPlayer.match_id)
            .where(
                Match.season_id == season.id,
                Match.state == "played",
                Match.friendly.is_(False),
            )
            .order_by(MatchPlayer.id)
            .options(selectinload(MatchPlayer.player))
        )
    )
    teams = {team.id: team for team in league.teams}
    per_player: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    per_team: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    player_rows: dict[int, MatchPlayer] = {}
    for line in lines:
        player_rows.setdefault(line.player_id, line)
        for target in (per_player[line.player_id], per_team[line.team_id]):
            target["td"] += line.td
            target["cas"] += line.cas
            target["comp"] += line.comp
            target["interceptions"] += line.interceptions
            target["mvp"] += line.mvp
            target["spp"] += line.spp
        if line.injury is not None:
            per_team[line.team_id]["injuries"] += 1
            per_team[line.team_id]["deaths"] += int(line.injury == "dead")
    for match in played:
        for side in match.sides:
            per_team[side.team_id]["played"] += 1

    players = []
    for player_id, line in player_rows.items():
        team = teams.get(line.team_id)
        players.append(
            PlayerStats(
                player_id=player_id,
                name=line.player.name,
                number=line.player.number,
                position=_position_name(league, team, line.player),
                team_id=line.team_id,
                team_name=team.name if team else f"#{line.team_id}",
                status=line.player.status,
                **per_player[player_id],
            )
        )
    players.sort(key=lambda p: (-p.spp, p.name, p.player_id))
    team_ids = {t.id for t in league.teams if t.status == "active"} | set(per_team)
    team_stats = sorted(
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
    boards = tuple(leaders(players, code, title) for code, title in LEADER_BOARDS)
    return SeasonStats(
        season.id, season.name, tuple(players), tuple(team_stats), boards, len(played)
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
    lines = session.scalars(
        select(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(
            Match.league_id == league.id,
            Match.state == "played",
            MatchPlayer.injury == "dead",
        )
        .order_by(Match.played_at.desc(), Match.id.desc(), MatchPlayer.id)
        .options(
            selectinload(MatchPlayer.player),
            selectinload(MatchPlayer.match).selectinload(Match.sides).selectinload(MatchTeam.team),
            selectinload(MatchPlayer.match).selectinload(Match.season),
        )
    )
    teams = {team.id: team for team in league.teams}
    graves = []
    for line in lines:
        match = line.match
        own = next(s for s in match.sides if s.team_id == line.team_id)
        other = next(s for s in match.sides if s.team_id != line.team_id)
        played_on = match.scheduled_for or (match.played_at.date() if match.played_at else None)
        team = teams.get(line.team_id)
        graves.append(
            Grave(
                player_id=line.player_id,
                name=line.player.name,
                number=line.player.number,
                position=_position_name(league, team, line.player),
                team_id=line.team_id,
                team_name=own.team.name,
                spp=line.player.spp_earned,
                match_id=match.id,
                season_name=match.season.name if match.season else "",
                round=match.round,
                day=played_on,
                opponent=other.team.name,
                outcome=_outcome(own, other),
                score_for=own.score,
                score_against=other.score,
                friendly=match.friendly,
            )
        )
    return graves
