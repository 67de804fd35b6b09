"""Swiss tournaments: the next round's pairings in one step.

The pairing itself is pure (``league.rules.competitions.swiss_round``): this
module reads the current standings (tournament points and bonus points as the
ruleset's ``[season.tournament]`` and the league's house rule say, else the
league's win, draw and loss points; ties are broken in the league's order), the
pairs that have already met this season and the byes handed out, then schedules
the round's matches as ordinary fixtures and stores the bye, which the standings
count as ``[season.tournament]`` (or the house rule) says.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select, union_all
from sqlalchemy.orm import Session, selectinload

from league.i18n import format_list, gettext, ngettext
from league.models import League, Match, Season, SwissBye, Team, User
from league.models.match import MatchTeam
from league.rules.competitions import swiss_round
from league.rules.pairing import DEFAULT_SEED_RATING, Entry
from league.services import audit
from league.services import events as domain_events
from league.services.access import get_league, league_ruleset, require_commissioner
from league.services.errors import Conflict, RuleViolation
from league.services.fixtures import active_teams
from league.services.matches import schedule_match
from league.services.ratings import Ratings, site_ratings
from league.services.roster_approval import unapproved_teams, uses_approval
from league.services.standings import Standings, season_of, standings


@dataclass(frozen=True, slots=True)
class SwissPairing:
    number: int
    matches: tuple[Match, ...]
    #: The team that sits out (an odd number of teams), else None.
    bye_team_id: int | None
    #: True only when every possible pairing repeated a match: some teams meet again.
    rematches: bool = False
    #: The constraints the round could not keep (league.rules.pairing.CONSTRAINTS order:
    #: "rematch", "same_club", "same_coach"); empty when it kept them all.
    broken: tuple[str, ...] = ()


def season_league_matches(session: Session, season: Season) -> list[Match]:
    """The season's league matches that are not voided (playoff matches left out)."""
    return list(
        session.scalars(
            select(Match)
            .where(
                Match.season_id == season.id,
                Match.friendly.is_(False),
                Match.bracket_id.is_(None),
                Match.state != "voided",
            )
            .options(selectinload(Match.sides))
        )
    )


def season_byes(session: Session, season: Season) -> dict[int, int]:
    """{round: team id} of the byes handed out in the season."""
    return dict(
        session.execute(
            select(SwissBye.round, SwissBye.team_id).where(SwissBye.season_id == season.id)
        )
        .tuples()
        .all()
    )


def last_round_number(session: Session, season: Season) -> int:
    """The season's latest round with a match or a bye (0: none yet), in one query."""
    rounds = union_all(
        select(Match.round.label("number")).where(
            Match.season_id == season.id, Match.friendly.is_(False), Match.state != "voided"
        ),
        select(SwissBye.round.label("number")).where(SwissBye.season_id == season.id),
    ).subquery()
    return session.scalar(select(func.max(rounds.c.number))) or 0


def next_round_number(session: Session, season: Season) -> int:
    last_match = session.scalar(
        select(func.max(Match.round)).where(
            Match.season_id == season.id, Match.friendly.is_(False), Match.state != "voided"
        )
    )
    last_bye = session.scalar(
        select(func.max(SwissBye.round)).where(SwissBye.season_id == season.id)
    )
    return max(last_match or 0, last_bye or 0) + 1


def pair_next_round(
    session: Session,
    actor: User,
    league_id: int,
    rng: random.Random | None = None,
    *,
    start_anyway: bool = False,
) -> SwissPairing:
    """Pair and schedule the next Swiss round of the league's current season (commissioner).

    Refused while a match of the season waits for its result: a round is paired
    from the standings after the one before it. ``rng`` draws the first round
    (the server's random source unless a test passes a seeded one).
    """
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    season = open_swiss_season(league)
    played = season_league_matches(session, season)
    _require_round_played(season, played)
    if not start_anyway and not played and not season_byes(session, season):
        _require_rosters_approved(league)
    active = {team.id: team for team in paired_entries(league)}
    ranking = [row.team_id for row in standings(session, league, season.number).rows]
    met = {frozenset(side.team_id for side in match.sides) for match in played}
    if not met:
        _refuse_a_first_round_by_hand(league)
    byes = season_byes(session, season)
    pairing = swiss_round(
        [entry_of(active[team_id]) for team_id in ranking if team_id in active],
        met,
        set(byes.values()),
        rng if rng is not None else secrets.SystemRandom(),
        avoid_same_club=league.pairing_avoid_same_club,
        first_round=league.pairing_first_round,
        ratings=_seed_ratings(session, league, active.values(), first_round=not met),
    )
    number = next_round_number(session, season)
    created = tuple(
        schedule_match(
            session,
            actor,
            league.id,
            home_id,
            away_id,
            round_number=number,
            # A Swiss round pairs each team once (checked by the rules): no duplicate query.
            add_another=True,
        )
        for home_id, away_id in pairing.pairs
    )
    if pairing.bye is not None:
        session.add(
            SwissBye(
                league_id=league.id,
                season_id=season.id,
                round=number,
                team_id=pairing.bye,
                created_by_id=actor.id,
            )
        )
    session.flush()
    season.schedule = season.schedule or "swiss"
    audit.record(
        session,
        actor,
        "league.swiss_round",
        "league",
        league.id,
        season=season.number,
        round=number,
        matches=len(created),
        bye=pairing.bye,
    )
    domain_events.record(
        session, domain_events.FixturesGenerated(league.id, tuple(m.id for m in created))
    )
    return SwissPairing(number, created, pairing.bye, pairing.rematches, pairing.broken)


def _refuse_a_first_round_by_hand(league: League) -> None:
    """A league whose first round is paired by hand is not paired by the server."""
    if league.pairing_first_round == "manual":
        raise Conflict(
            gettext(
                "%(league)s pairs its first round by hand: enter the pairings on the "
                "tournament's entries page.",
                league=league.name,
            ),
            code="manual_first_round",
        )


def paired_entries(league: League) -> list[Team]:
    """The teams a round pairs: active and not dropped (RuleViolation when under two)."""
    entries = [team for team in active_teams(league, pairing="round") if team.dropped_at is None]
    if len(entries) < 2:
        raise RuleViolation(
            gettext(
                "%(league)s needs at least two active teams for a round; it has %(count)s.",
                league=league.name,
                count=len(entries),
            ),
            code="not_enough_teams",
        )
    return entries


def entry_of(team: Team) -> Entry:
    """The team as the pairing sees it: its coach and club or nation."""
    return Entry(team.id, team.coach_id, team.club)


def _seed_ratings(
    session: Session, league: League, teams: Iterable[Team], *, first_round: bool
) -> dict[int, int]:
    """The entries' seed ratings, when a first round is seeded by them (else none needed)."""
    if not (first_round and league.pairing_first_round == "rating"):
        return {}
    site = site_ratings(session)
    return {team.id: entry_seed_rating(team, site) for team in teams}


def entry_seed_rating(team: Team, ratings: Ratings | None = None) -> int:
    """The rating a seeded first round ranks the entry by: the organiser's (a coach's NAF
    ranking, say), else the coach's rating on this site (`ratings`), else the default."""
    if team.seed_rating is not None:
        return team.seed_rating
    if ratings is not None:
        return round(ratings.of(team.coach_id))
    return DEFAULT_SEED_RATING


def open_swiss_season(league: League) -> Season:
    """The league's open season, when it pairs Swiss rounds."""
    season = league.current_season
    if season is None:
        raise Conflict(
            gettext("%(league)s has no open season; start one first.", league=league.name),
            code="no_open_season",
        )
    if season.schedule == "round_robin":
        raise Conflict(
            gettext(
                "%(season)s is a round robin: its fixtures were generated. Swiss rounds are "
                "paired in a season that starts with a Swiss round.",
                season=season.name,
            ),
            code="not_swiss",
        )
    return season


def _require_rosters_approved(league: League) -> None:
    """The event starts (its first round is paired) once every roster is approved, where
    the league collects rosters; the organiser may start anyway (`start_anyway`)."""
    if not uses_approval(league):
        return
    waiting = unapproved_teams(league)
    if waiting:
        raise Conflict(
            ngettext(
                "%(num)d roster is not approved yet: %(teams)s.",
                "%(num)d rosters are not approved yet: %(teams)s.",
                len(waiting),
                teams=format_list([team.name for team in waiting]),
            ),
            code="rosters_unapproved",
        )


def _require_round_played(season: Season, played: list[Match]) -> None:
    """Refused while a match of the season waits for its result."""
    waiting = [m for m in played if m.state in ("scheduled", "draft")]
    if waiting:
        raise Conflict(
            ngettext(
                "%(num)d match of %(season)s is still waiting for its result; "
                "the next round is paired once every match is played.",
                "%(num)d matches of %(season)s are still waiting for their results; "
                "the next round is paired once every match is played.",
                len(waiting),
                season=season.name,
            ),
            code="round_unplayed",
        )


# ---------------------------------------------------------------------------
# The printed round


@dataclass(frozen=True, slots=True)
class SheetSide:
    team_id: int
    name: str
    #: Place and points in the standings as they are now.
    position: int | None
    points: int
    score: int


@dataclass(frozen=True, slots=True)
class SheetTable:
    table: int
    match_id: int
    state: str
    home: SheetSide
    away: SheetSide

    @property
    def played(self) -> bool:
        return self.state == "played"


@dataclass(frozen=True, slots=True)
class RoundSheet:
    season_name: str
    season_number: int
    number: int
    tables: tuple[SheetTable, ...]
    bye: str | None
    #: How the bye counts (the ruleset's [season.tournament]): "win" or "draw", and its score.
    bye_result: str
    bye_touchdowns: tuple[int, int]
    #: None when the sheet was read without them (the result entry needs none).
    standings: Standings | None


def round_matches(
    session: Session, season: Season, number: int, *, sides: bool = True
) -> tuple[Match, ...]:
    """The matches of a season's round, in their pairing order (the order they were
    scheduled in: the tables' numbers); ``sides``: with each match's two teams."""
    query = (
        select(Match)
        .where(
            Match.season_id == season.id,
            Match.round == number,
            Match.friendly.is_(False),
            Match.state != "voided",
        )
        .order_by(Match.id)
    )
    if sides:
        query = query.options(selectinload(Match.sides).joinedload(MatchTeam.team))
    return tuple(session.scalars(query))


def round_sheet(
    session: Session,
    league: League,
    number: int,
    season_number: int | None = None,
    *,
    with_standings: bool = True,
) -> RoundSheet | None:
    """A round's pairings, one table each, with the bye and the standings (None: no such round).

    Table numbers are decided here and only here: the round's pairing order (the order
    its matches were scheduled in), from 1; the printed pairings, the big screen and the
    organiser's result entry all number the tables from this sheet. ``with_standings``
    False: no standings (positions None, points 0), one query less.
    """
    season = season_of(league, season_number)
    found = list(round_matches(session, season, number))
    bye = session.scalar(
        select(SwissBye).where(SwissBye.season_id == season.id, SwissBye.round == number)
    )
    if not found and bye is None:
        return None
    table = standings(session, league, season.number) if with_standings else None
    rows = {row.team_id: row for row in table.rows} if table is not None else {}

    def side(match: Match, which: str) -> SheetSide:
        own = match.side(which)
        row = rows.get(own.team_id)
        return SheetSide(
            own.team_id,
            own.team.name,
            row.position if row else None,
            row.points if row else 0,
            own.score,
        )

    rules = league_ruleset(league).season.tournament
    return RoundSheet(
        season.name,
        season.number,
        number,
        tuple(
            SheetTable(index, m.id, m.state, side(m, "home"), side(m, "away"))
            for index, m in enumerate(found, start=1)
        ),
        bye.team.name if bye is not None else None,
        rules.bye_result,
        rules.bye_touchdowns,
        table,
    )
