"""League records, the hall of fame, famous teams and memorable matches (read side).

Everything is worked out from the stored results every time it is asked for (the page
caches the rendering by the league's data revision, like the other league pages): the
players' match lines (MatchPlayer), the two sides of each match (MatchTeam), the live log's
casualties, the pre-game's team values, the prizes a closed season paid and the playoff
finals. So correcting or voiding a result changes the records at once, and nothing here
is stored beside the results for `flask recompute --check` to miss.

What counts: the league's played matches that are not friendlies (league fixtures and
playoff matches); voided matches do not count. Each list is the top `SHOWN`, equal values
sharing a rank, so the page stays the same size however long the league runs.

Three statements: every top list in one UNION ALL and the results in the league's order
for the unbeaten runs (`league.services.record_queries`), and the rosters for today's
team values.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import N_, current_language, gettext
from league.models import League, Player, Season, Team
from league.models.player import ON_ROSTER
from league.rules import RulesError
from league.rules.advancement import top_level
from league.rules.competitions import SideResult
from league.rules.team_value import RosterPlayer, current_team_value
from league.services.access import LeagueCollection, league_ruleset
from league.services.record_queries import (
    COUNTERS,
    SCOPES,
    SHOWN,
    Scope,
    boards_query,
    results_query,
)
from league.services.standings import outcome_of, season_of

__all__ = [
    "COUNTERS",
    "SCOPES",
    "SHOWN",
    "Board",
    "Champion",
    "Entry",
    "HallOfFame",
    "Records",
    "Scope",
    "Trophies",
    "league_records",
]

#: Closed seasons listed among the champions (the latest first).
CHAMPION_SEASONS = 10
#: What the records need of the league beside it: its seasons (names, closed or not).
LEAGUE_COLLECTIONS: tuple[LeagueCollection, ...] = ("seasons",)

COUNTER_TITLES = {
    "td": N_("Touchdowns"),
    "cas": N_("Casualties caused"),
    "spp": N_("Star Player Points"),
    "comp": N_("Completions"),
}
SPANS = {
    "match": N_("in a match"),
    "season": N_("in a season"),
    "career": N_("in a career"),
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a record list: the value and who or what holds it.

    A player's line names the player and his team; a match's names the match, the team
    (the winner, or the home side) and the opponent with the score; a team's names the
    team and, for a team value, the match it was taken to (None: today's).
    """

    rank: int
    value: int
    team_id: int
    team_name: str
    player_id: int | None = None
    player_name: str | None = None
    match_id: int | None = None
    season_name: str | None = None
    opponent_id: int | None = None
    opponent_name: str | None = None
    score_for: int | None = None
    score_against: int | None = None
    #: An unbeaten run: the match it began with, and whether it goes on today.
    since_match_id: int | None = None
    ongoing: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    code: str
    title: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Champion:
    """A closed season: its champion (the first place of its prizes; None where the
    edition pays none: the season's final table names it) and its playoff winner."""

    season_number: int
    season_name: str
    team_id: int | None
    team_name: str | None
    playoff_team_id: int | None = None
    playoff_team_name: str | None = None
    final_match_id: int | None = None


@dataclass(frozen=True, slots=True)
class Trophies:
    team_id: int
    team_name: str
    titles: int
    playoff_wins: int

    @property
    def total(self) -> int:
        return self.titles + self.playoff_wins


@dataclass(frozen=True, slots=True)
class HallOfFame:
    top_level: str
    #: Players who reached it (the list shows the `SHOWN` with most SPP).
    top_level_total: int
    top_level_players: tuple[Entry, ...]
    legends: tuple[Entry, ...]
    mvps: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Records:
    league_id: int
    scope: Scope
    #: The season of a season's records (None: all time).
    season_number: int | None
    season_name: str | None
    matches_played: int
    player_records: tuple[Board, ...]
    team_records: tuple[Board, ...]
    memorable_matches: tuple[Board, ...]
    hall_of_fame: HallOfFame
    champions: tuple[Champion, ...]
    trophies: tuple[Trophies, ...]

    @property
    def empty(self) -> bool:
        return self.matches_played == 0


# ---------------------------------------------------------------------------
# From rows to records


def league_records(
    session: Session, league: League, scope: Scope = "all", season_number: int | None = None
) -> Records:
    """The league's records for `scope`: one season (`season_number`, by default the
    current one) or all time. The hall of fame and the famous teams are always all time."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    season = season_of(league, season_number) if scope == "season" or season_number else None
    if scope == "all":
        season = None
    seasons = {s.id: s for s in league.seasons}
    kinds: dict[str, list[Any]] = defaultdict(list)
    for row in session.execute(boards_query(league, season.id if season else None, scope)):
        kinds[row.kind].append(row)

    def name_of(season_id: int | None) -> str | None:
        found = seasons.get(season_id) if season_id is not None else None
        return found.name if found is not None else None

    runs = _unbeaten_runs(session, league, season, name_of)
    today = season is None or season.closed_at is None
    values = _team_values(session, league, kinds["kickoff_tv"], name_of, today=today)
    played = kinds["played"][0].value if kinds["played"] else 0
    spans = ("match", "season", "career") if scope == "all" else ("match", "season")
    player_boards = [
        _board(f"{counter}_{span}", _span_title(counter, span), kinds[f"{counter}_{span}"], name_of)
        for counter in COUNTERS
        for span in spans
    ]
    player_boards.append(
        _board("deaths_caused", gettext("Deaths caused"), kinds["deaths_caused"], name_of)
    )
    champions, trophies = _famous(league, kinds["prize"], kinds["final"])
    return Records(
        league_id=league.id,
        scope=scope,
        season_number=season.number if season else None,
        season_name=season.name if season else None,
        matches_played=int(played or 0),
        player_records=tuple(player_boards),
        team_records=(
            _board("biggest_win", gettext("Biggest win"), kinds["biggest_win"], name_of),
            Board("highest_tv", gettext("Highest team value"), values),
            Board("unbeaten_run", gettext("Longest unbeaten run"), runs),
        ),
        memorable_matches=(
            _board(
                "highest_scoring",
                gettext("Highest scoring matches"),
                kinds["highest_scoring"],
                name_of,
            ),
            _board(
                "most_casualties",
                gettext("Most casualties in a match"),
                kinds["most_casualties"],
                name_of,
            ),
        ),
        hall_of_fame=_hall_of_fame(league, kinds, name_of),
        champions=champions,
        trophies=trophies,
    )


def _span_title(counter: str, span: str) -> str:
    return gettext(
        "%(record)s %(span)s", record=gettext(COUNTER_TITLES[counter]), span=gettext(SPANS[span])
    )


def _ranked(values: Sequence[int]) -> list[int]:
    """Competition ranks ("1, 2, 2, 4"): equal values share the better rank."""
    ranks: list[int] = []
    for index, value in enumerate(values):
        ranks.append(ranks[-1] if index and values[index - 1] == value else index + 1)
    return ranks


def _entries(rows: Sequence[Any], name_of: Any) -> tuple[Entry, ...]:
    rows = rows[:SHOWN]
    ranks = _ranked([row.value for row in rows])
    return tuple(
        Entry(
            rank=rank,
            value=int(row.value),
            team_id=row.team_id,
            team_name=row.team_name,
            player_id=row.player_id,
            player_name=row.player_name,
            match_id=row.match_id,
            season_name=name_of(row.season_id),
            opponent_id=row.other_id,
            opponent_name=row.other_name,
            score_for=row.score_for,
            score_against=row.score_against,
        )
        for rank, row in zip(ranks, rows, strict=True)
    )


def _sorted(rows: Iterable[Any]) -> list[Any]:
    """A part's rows in its own order (a UNION ALL keeps none)."""
    return sorted(rows, key=lambda r: r.ordinal)


def _board(code: str, title: str, rows: Sequence[Any], name_of: Any) -> Board:
    return Board(code, title, _entries(_sorted(rows), name_of))


def _hall_of_fame(league: League, kinds: dict[str, list[Any]], name_of: Any) -> HallOfFame:
    reached = _sorted(kinds["top_level"])
    ruleset = league_ruleset(league)
    return HallOfFame(
        top_level=ruleset.text(current_language()).level_name(top_level(ruleset).name),
        top_level_total=int(reached[0].extra) if reached else 0,
        top_level_players=_entries(reached, name_of),
        legends=_entries(_sorted(kinds["legend"]), name_of),
        mvps=_entries(_sorted(kinds["mvp"]), name_of),
    )


@dataclass(slots=True)
class _Run:
    length: int = 0
    first: int | None = None
    last: int | None = None
    season_id: int | None = None


def _unbeaten_runs(
    session: Session, league: League, season: Season | None, name_of: Any
) -> tuple[Entry, ...]:
    """Each team's longest run of matches without a loss (the rules' outcome: a team
    that concedes loses), longest first; one line per team."""
    current: dict[int, _Run] = {}
    best: dict[int, tuple[_Run, bool]] = {}
    names: dict[int, str] = {}
    rows = session.execute(results_query(league.id, season.id if season else None))
    for match_id, season_id, team_id, name, score, conceded, other_score, other_conceded in rows:
        names[team_id] = name
        outcome = outcome_of(
            league,
            SideResult(score, bool(conceded)),
            SideResult(other_score, bool(other_conceded)),
        )
        run = current.setdefault(team_id, _Run())
        if outcome.result == "lost":
            current[team_id] = _Run()
            continue
        if run.length == 0:
            run.first, run.season_id = match_id, season_id
        run.length += 1
        run.last = match_id
        held = best.get(team_id)
        if held is None or run.length > held[0].length:
            best[team_id] = (_Run(run.length, run.first, run.last, run.season_id), False)
    lines = []
    for team_id, (run, _) in best.items():
        going_on = current[team_id].first == run.first and current[team_id].length == run.length
        lines.append((run, going_on, team_id))
    lines.sort(key=lambda line: (-line[0].length, line[0].first or 0))
    lines = lines[:SHOWN]
    ranks = _ranked([run.length for run, _, _ in lines])
    return tuple(
        Entry(
            rank=rank,
            value=run.length,
            team_id=team_id,
            team_name=names[team_id],
            match_id=run.last,
            since_match_id=run.first,
            season_name=name_of(run.season_id),
            ongoing=going_on,
        )
        for rank, (run, going_on, team_id) in zip(ranks, lines, strict=True)
    )


def _team_values(
    session: Session, league: League, kickoff: Sequence[Any], name_of: Any, *, today: bool
) -> tuple[Entry, ...]:
    """The highest team values: each team at its highest, from the CTV its pre-games
    recorded at kick-off and (`today`) the CTV of its roster now."""
    best: dict[int, tuple[int, str, int | None, int | None]] = {}
    for row in kickoff:
        held = best.get(row.team_id)
        if held is None or row.value > held[0]:
            best[row.team_id] = (int(row.value), row.team_name, row.match_id, row.season_id)
    if today:
        current = league.current_season
        for team_id, (value, name) in _values_today(session, league).items():
            held = best.get(team_id)
            if held is None or value > held[0]:
                best[team_id] = (value, name, None, current.id if current else None)
    lines = sorted(best.items(), key=lambda item: (-item[1][0], item[1][1]))[:SHOWN]
    ranks = _ranked([value for _, (value, _, _, _) in lines])
    return tuple(
        Entry(
            rank=rank,
            value=value,
            team_id=team_id,
            team_name=name,
            match_id=match_id,
            season_name=name_of(season_id),
        )
        for rank, (team_id, (value, name, match_id, season_id)) in zip(ranks, lines, strict=True)
    )


def _values_today(session: Session, league: League) -> dict[int, tuple[int, str]]:
    """Each active team's CTV now, from its roster rows (one statement)."""
    ruleset = league_ruleset(league)
    rosters: dict[int, list[RosterPlayer]] = defaultdict(list)
    teams: dict[int, Team] = {}
    rows = session.execute(
        select(Team, Player.position_id, Player.value, Player.cost, Player.status)
        .join(Player, Player.team_id == Team.id)
        .where(
            Team.league_id == league.id,
            Team.status == "active",
            Player.status.in_(ON_ROSTER),
        )
    )
    for team, position_id, value, cost, status in rows:
        teams[team.id] = team
        rosters[team.id].append(
            RosterPlayer(position_id, value_increases=value - cost, miss_next_game=status == "mng")
        )
    values = {}
    for team_id, players in rosters.items():
        team = teams[team_id]
        try:
            team_type = ruleset.team_type(team.team_type_id)
            ctv = current_team_value(
                ruleset,
                team_type,
                players,
                rerolls=team.rerolls,
                assistant_coaches=team.assistant_coaches,
                cheerleaders=team.cheerleaders,
                apothecary=team.apothecary,
                dedicated_fans=team.dedicated_fans,
                league_trophy=team.league_trophy,
            )
        except RulesError:
            continue  # a roster the rules cannot price is left out, not a failed page
        values[team_id] = (ctv, team.name)
    return values


@dataclass(frozen=True, slots=True)
class _Title:
    """A season's champion as the prize rows name it."""

    team_id: int
    team_name: str


def _team_name(league: League, team_id: int) -> str:
    return next((team.name for team in league.teams if team.id == team_id), "")


def _famous(
    league: League, prizes: Sequence[Any], finals: Sequence[Any]
) -> tuple[tuple[Champion, ...], tuple[Trophies, ...]]:
    """Champions of the closed seasons (first place of each season's latest prize-giving:
    a reopened season took its prizes back with negative rows) and the playoff winners;
    and the teams with most of those titles."""
    by_season: dict[int, list[Any]] = defaultdict(list)
    for row in sorted(prizes, key=lambda r: r.extra):
        by_season[row.season_id].append(row)
    titles: dict[int, Any] = {}
    for season_id, rows in by_season.items():
        taken_back = [i for i, row in enumerate(rows) if row.value < 0]
        standing = rows[taken_back[-1] + 1 :] if taken_back else rows
        if standing:
            titles[season_id] = standing[0]
    playoff: dict[int, tuple[int, str, int]] = {}
    for row in finals:
        winner = _final_winner(league, row)
        if winner is not None:
            playoff[row.season_id] = (*winner, row.match_id)
    champions = []
    counts: dict[int, list[Any]] = defaultdict(lambda: [None, 0, 0])
    for season in sorted(league.seasons, key=lambda s: -s.number):
        title, won = titles.get(season.id), playoff.get(season.id)
        if season.closed_at is None:
            continue
        if title is None and season.champion_team_id is not None:
            # An edition that pays no prizes: the first of the final table, kept at closing.
            title = _Title(season.champion_team_id, _team_name(league, season.champion_team_id))
        if title is not None:
            counts[title.team_id][0] = title.team_name
            counts[title.team_id][1] += 1
        if won is not None:
            counts[won[0]][0] = won[1]
            counts[won[0]][2] += 1
        champions.append(
            Champion(
                season.number,
                season.name,
                title.team_id if title else None,
                title.team_name if title else None,
                won[0] if won else None,
                won[1] if won else None,
                won[2] if won else None,
            )
        )
    trophies = sorted(
        (Trophies(team_id, name, won, cups) for team_id, (name, won, cups) in counts.items()),
        key=lambda t: (-t.total, -t.titles, t.team_name),
    )
    return tuple(champions[:CHAMPION_SEASONS]), tuple(trophies[:SHOWN])


def _final_winner(league: League, row: Any) -> tuple[int, str] | None:
    """Who won a playoff final: the rules' outcome, or the recorded winner of a draw."""
    home = outcome_of(
        league,
        SideResult(row.score_for, bool(row.conceded_for)),
        SideResult(row.score_against, bool(row.conceded_against)),
    )
    if home.result == "won":
        return row.team_id, row.team_name
    if home.result == "lost":
        return row.other_id, row.other_name
    if row.value == row.team_id:
        return row.team_id, row.team_name
    if row.value == row.other_id:
        return row.other_id, row.other_name
    return None
