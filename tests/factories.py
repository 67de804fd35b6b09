"""Small typed helpers that build test data through the services."""

from __future__ import annotations

from dataclasses import replace

from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.services import access, leagues, teams
from league.services.matches import MatchReport, PlayerEvents
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user

DEFAULT_PASSWORD = "correct horse battery"


def make_user(username: str = "grim", *, admin: bool = False) -> User:
    with unit_of_work() as session:
        user = create_user(session, NewUser(username, DEFAULT_PASSWORD, admin))
    return db.session.get(User, user.id)  # type: ignore[return-value]


def make_league(
    commissioner: User, ruleset_id: str = "bb2025", *coaches: User, **settings: object
) -> League:
    with unit_of_work() as session:
        league = leagues.create_league(
            session,
            commissioner,
            leagues.LeagueSettings(f"{ruleset_id} league", ruleset_id, **settings),  # type: ignore[arg-type]
        )
        for coach in coaches:
            leagues.add_member(session, commissioner, league, coach, "coach")
    return league


def make_team(
    coach: User, league: League, team_type_id: str = "human", name: str = "Reikland Reavers"
) -> Team:
    with unit_of_work() as session:
        team = teams.create_team(session, coach, teams.NewTeam(league.id, name, team_type_id))
    return team


def hire(coach: User, team: Team, position_id: str, count: int = 1) -> list[Player]:
    hired: list[Player] = []
    with unit_of_work() as session:
        # The team is read once: each hire adds its player to the same loaded roster.
        roster = access.get_team(session, team.id)
        for _ in range(count):
            number = teams.next_free_number(roster)
            hired.append(
                teams.hire_player(
                    session,
                    coach,
                    team.id,
                    teams.HirePlayer(position_id, f"Player {number}", number),
                )
            )
    return hired


def buy(coach: User, team: Team, item: str, count: int = 1) -> None:
    with unit_of_work() as session:
        for _ in range(count):
            teams.buy_team_item(session, coach, team.id, item)


def make_active_team(
    coach: User,
    league: League,
    team_type_id: str,
    name: str,
    hires: tuple[tuple[str, int], ...],
) -> Team:
    """A drafted and confirmed team with the given (position, count) hires."""
    team = make_team(coach, league, team_type_id, name)
    for position_id, count in hires:
        hire(coach, team, position_id, count)
    with unit_of_work() as session:
        teams.confirm_draft(session, coach, team.id)
    return team


def give_scorers(coach: User, league: League, position_id: str = "human-lineman") -> None:
    """One player (`position_id`) for each active team of the league with an empty roster,
    so results with touchdowns have someone to credit them to."""
    for team in access.get_league(db.session, league.id).teams:
        if team.status == "active" and not team.players:
            hire(coach, team, position_id)


def with_touchdowns(report: MatchReport, home: Team, away: Team) -> MatchReport:
    """`report` with the touchdowns its player events leave out credited to each team's
    first active player (lowest number).

    Every touchdown is some player's: the services refuse a score the players' touchdowns
    do not add up to. Most tests care about the score, not who scored it.
    """
    events = list(report.players)
    for team, side in ((home, report.home), (away, report.away)):
        players = db.session.get(Team, team.id).players  # type: ignore[union-attr]
        ids = {p.id for p in players}  # journeymen and stars of the match too
        missing = side.score - sum(e.td for e in events if e.player_id in ids)
        if missing <= 0:
            continue
        roster = [p for p in players if p.status == "active" and not p.match_day_only]
        scorer = min(roster, key=lambda p: p.number).id
        line = next((e for e in events if e.player_id == scorer), None)
        if line is None:
            events.append(PlayerEvents(scorer, td=missing))
        else:
            events[events.index(line)] = replace(line, td=line.td + missing)
    return replace(report, players=tuple(events))


def with_match_touchdowns(report: MatchReport, match_id: int) -> MatchReport:
    """`with_touchdowns` for the two teams of a scheduled match."""
    match = db.session.get(Match, match_id)
    assert match is not None
    return with_touchdowns(report, match.side("home").team, match.side("away").team)
