"""Tournament entries: who plays in a league run as Swiss rounds, and the organiser's
hand on the pairings.

An entry is one of the league's teams: it names its coach (with the coach's NAF
name and number from their profile), and may name a club or nation (pairings keep
two of one club apart where the league says so) and a seed rating (a first round
seeded by rating ranks by it). The organiser (a commissioner) adds entries, late
ones too (a team entered after the first round starts on 0 points and is paired
from the next round), drops an entry between rounds (it is no longer paired; its
games stand) and takes a drop back. Before a round starts the organiser may swap
two entries of two pairings, told first which constraint the swap breaks, and a
league that pairs its first round by hand enters it here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, joinedload

from league.i18n import gettext
from league.models import League, Match, SwissBye, Team, User
from league.models.live_log import MatchLogEvent
from league.models.match import MatchTeam
from league.models.pregame import PregameSide
from league.rules.model import RulesError
from league.rules.pairing import round_breaks, swap
from league.services import audit, teams
from league.services import events as domain_events
from league.services.access import get_league, get_team, require_commissioner
from league.services.errors import Conflict, NotFound, Problem, RuleViolation
from league.services.matches import schedule_match
from league.services.text import checked_name
from league.services.tournament import (
    SwissPairing,
    entry_of,
    next_round_number,
    open_swiss_season,
    paired_entries,
    round_matches,
    season_league_matches,
)

#: The longest club or nation name (the column's width); the highest seed rating.
MAX_CLUB = 60
MAX_RATING = 10_000


@dataclass(frozen=True, slots=True)
class NewEntry:
    """An entry: an existing team of the league (``team_id``), or a new team (``name``,
    ``team_type_id`` and the ``coach``'s username, active at once)."""

    league_id: int
    team_id: int | None = None
    name: str | None = None
    team_type_id: str | None = None
    coach: str | None = None
    club: str | None = None
    seed_rating: int | None = None


def entries_of(session: Session, league: League) -> list[Team]:
    """The league's teams that are not retired, with their coaches, by name."""
    return list(
        session.scalars(
            select(Team)
            .where(Team.league_id == league.id, Team.status != "retired")
            .order_by(Team.name, Team.id)
            .options(joinedload(Team.coach))
        )
    )


def rounds_paired(session: Session, league: League) -> int:
    """How many Swiss rounds the league's open season has paired (0: none yet), in one
    query: its last round's number, of a match or a bye."""
    season = league.current_season
    if season is None:
        return 0
    last_match = (
        select(func.max(Match.round))
        .where(Match.season_id == season.id, Match.friendly.is_(False), Match.state != "voided")
        .scalar_subquery()
    )
    last_bye = (
        select(func.max(SwissBye.round)).where(SwissBye.season_id == season.id).scalar_subquery()
    )
    found = session.execute(select(last_match, last_bye)).one()
    return max(found[0] or 0, found[1] or 0)


def _club(club: str | None) -> str | None:
    if club is None or not club.strip():
        return None
    return checked_name(club, field="club", what=gettext("A club or nation"), length=(1, MAX_CLUB))


def _rating(rating: int | None) -> int | None:
    if rating is not None and not 0 <= rating <= MAX_RATING:
        raise RuleViolation(
            gettext("A seed rating is a whole number from 0 to %(max)s.", max=MAX_RATING),
            code="invalid_seed_rating",
            field="seed_rating",
        )
    return rating


def add_entry(session: Session, actor: User, command: NewEntry) -> Team:
    """Enter a team (organiser): an existing team of the league, or a new active one.

    Entered after the first round is paired, it is a late entry: 0 points, paired
    from the next round on.
    """
    league = get_league(session, command.league_id)
    require_commissioner(league, actor)
    club, rating = _club(command.club), _rating(command.seed_rating)
    if command.team_id is not None:
        team = next((t for t in league.teams if t.id == command.team_id), None)
        if team is None or team.status == "retired":
            raise NotFound(
                gettext("%(league)s has no such team to enter.", league=league.name),
                field="team_id",
            )
    else:
        missing = [
            Problem(field, gettext("Enter it for a new team."))
            for field in ("name", "team_type_id", "coach")
            if not getattr(command, field)
        ]
        if missing:
            raise RuleViolation(problems=missing)
        team = teams.create_team(
            session,
            actor,
            teams.NewTeam(
                league.id,
                command.name or "",
                command.team_type_id or "",
                coach=command.coach,
                active=True,
            ),
        )
    team.club, team.seed_rating = club, rating
    team.dropped_at = team.dropped_after_round = None
    paired = rounds_paired(session, league)
    if paired and not _has_played(session, team):
        team.entered_round = paired + 1
    session.flush()
    audit.record(session, actor, "team.enter", "team", team.id, round=team.entered_round)
    return team


def _has_played(session: Session, team: Team) -> bool:
    season = team.league.current_season
    if season is None:
        return False
    count = session.scalar(
        select(func.count())
        .select_from(MatchTeam)
        .join(Match)
        .where(MatchTeam.team_id == team.id, Match.season_id == season.id)
    )
    return bool(count)


def _entry(session: Session, actor: User, league_id: int, team_id: int) -> Team:
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    team = next((t for t in league.teams if t.id == team_id), None)
    if team is None:
        raise NotFound(gettext("%(league)s has no such entry.", league=league.name))
    return get_team(session, team.id, for_update=True, history=False, ledger=False)


def update_entry(
    session: Session,
    actor: User,
    league_id: int,
    team_id: int,
    club: str | None,
    seed_rating: int | None,
) -> Team:
    """An entry's club or nation and seed rating (organiser)."""
    team = _entry(session, actor, league_id, team_id)
    team.club, team.seed_rating = _club(club), _rating(seed_rating)
    audit.record(session, actor, "team.update_entry", "team", team.id)
    return team


def drop_entry(session: Session, actor: User, league_id: int, team_id: int) -> Team:
    """Drop an entry between rounds (before the first: a withdrawal). Its games stand."""
    team = _entry(session, actor, league_id, team_id)
    if team.dropped_at is not None:
        raise Conflict(gettext("%(team)s has already dropped.", team=team.name), code="dropped")
    season = team.league.current_season
    if season is not None:
        waiting = [
            m
            for m in season_league_matches(session, season)
            if m.state in ("scheduled", "draft") and team.id in {s.team_id for s in m.sides}
        ]
        if waiting:
            raise Conflict(
                gettext(
                    "%(team)s still has a match to play in round %(round)s: record it (or "
                    "its concession) first; an entry drops between rounds.",
                    team=team.name,
                    round=waiting[0].round,
                ),
                code="match_waiting",
            )
    team.dropped_at = datetime.now(UTC)
    team.dropped_after_round = rounds_paired(session, team.league)
    audit.record(session, actor, "team.drop", "team", team.id, after_round=team.dropped_after_round)
    return team


def undrop_entry(session: Session, actor: User, league_id: int, team_id: int) -> Team:
    """Take a drop back: the entry is paired again from the next round."""
    team = _entry(session, actor, league_id, team_id)
    if team.dropped_at is None:
        raise Conflict(gettext("%(team)s has not dropped.", team=team.name), code="not_dropped")
    team.dropped_at = team.dropped_after_round = None
    audit.record(session, actor, "team.undrop", "team", team.id)
    return team


# ---------------------------------------------------------------------------
# The organiser's hand on a round's pairings


@dataclass(frozen=True, slots=True)
class OpenRound:
    """The last paired round, while no result is entered in it."""

    number: int
    matches: tuple[Match, ...]
    #: Whether a swap may still change it: no match has a result, a pre-game or a log.
    open: bool


def last_round(
    session: Session, league: League, number: int | None = None, *, sides: bool = True
) -> OpenRound | None:
    """The season's last paired round with its matches (None: no round yet). ``number``:
    the rounds paired, when the caller knows; ``sides``: load each match's two teams."""
    season = league.current_season
    if season is None:
        return None
    number = rounds_paired(session, league) if number is None else number
    if number < 1:
        return None
    found = round_matches(session, season, number, sides=sides)
    ids = [m.id for m in found]
    started = any(m.state != "scheduled" for m in found) or bool(
        ids
        and session.scalar(
            select(
                exists().where(PregameSide.match_id.in_(ids))
                | exists().where(MatchLogEvent.match_id.in_(ids))
            )
        )
    )
    return OpenRound(number, found, bool(found) and not started)


def _met_before(session: Session, league: League, number: int) -> set[frozenset[int]]:
    season = league.current_season
    if season is None:
        return set()
    return {
        frozenset(side.team_id for side in m.sides)
        for m in season_league_matches(session, season)
        if m.round != number
    }


def _pairs(matches: Sequence[Match]) -> list[tuple[int, int]]:
    return [(m.home.team_id, m.away.team_id) for m in matches]


def swap_breaks(session: Session, league: League, one: int, other: int) -> tuple[str, ...]:
    """The constraints the last round would break once ``one`` and ``other`` swap places
    ("rematch", "same_club", "same_coach"; only those the two new pairings break)."""
    current = last_round(session, league)
    if current is None:
        return ()
    try:
        swapped = swap(_pairs(current.matches), one, other)
    except RulesError:
        return ()
    touched = [pair for pair in swapped if one in pair or other in pair]
    entries = [entry_of(t) for t in league.teams]
    met = _met_before(session, league, current.number)
    return round_breaks(entries, touched, met, avoid_same_club=league.pairing_avoid_same_club)


def swap_entries(
    session: Session, actor: User, league_id: int, one: int, other: int
) -> tuple[str, ...]:
    """Exchange two entries of two pairings of the last round, before it starts
    (organiser). Returns the constraints the swap breaks (the caller showed them)."""
    # One change to a round's pairings at a time (a result, a swap, the next round).
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    current = last_round(session, league)
    if current is None or not current.open:
        raise Conflict(
            gettext("The round has started: its pairings can no longer be swapped."),
            code="round_started",
        )
    try:
        swapped = swap(_pairs(current.matches), one, other)
    except RulesError:
        raise RuleViolation(
            gettext(
                "Choose two entries of two different pairings of round %(round)s.",
                round=current.number,
            ),
            code="invalid_swap",
            field="other",
        ) from None
    broken = swap_breaks(session, league, one, other)
    for match, (home, away) in zip(current.matches, swapped, strict=True):
        match.home.team_id, match.away.team_id = home, away
    audit.record(
        session,
        actor,
        "league.swap_pairings",
        "league",
        league.id,
        round=current.number,
        teams=[one, other],
        broken=list(broken),
    )
    return broken


def first_round_open(session: Session, league: League) -> bool:
    """Whether the league's open season may still have its first round paired: no league
    match and no bye yet."""
    season = league.current_season
    return (
        season is not None
        and season.schedule != "round_robin"
        and not season_league_matches(session, season)
        and rounds_paired(session, league) == 0
    )


def pair_by_hand(
    session: Session,
    actor: User,
    league_id: int,
    pairs: Sequence[tuple[int, int]],
) -> SwissPairing:
    """The first round as the organiser pairs it (a league whose first round is
    ``manual``). Every entry is paired once; with an odd number, the one left out
    sits out (a bye, as the rules count it)."""
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    season = open_swiss_season(league)
    if season_league_matches(session, season) or next_round_number(session, season) != 1:
        raise Conflict(
            gettext("Only the first round is paired by hand; later rounds follow the standings."),
            code="not_first_round",
        )
    entries = {team.id for team in paired_entries(league)}
    named = [team for pair in pairs for team in pair]
    if (
        len(set(named)) != len(named)
        or not set(named) <= entries
        or len(entries) - len(named) > 1
        or any(home == away for home, away in pairs)
    ):
        raise RuleViolation(
            gettext(
                "Pair every entry once: each in one pairing, with at most one left out "
                "(the bye) when their number is odd."
            ),
            code="invalid_pairing",
            field="pairs",
        )
    left = sorted(entries - set(named))
    return _schedule_round(session, actor, league, pairs, left[0] if left else None)


def _schedule_round(
    session: Session,
    actor: User,
    league: League,
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
) -> SwissPairing:
    season = open_swiss_season(league)
    created = tuple(
        schedule_match(session, actor, league.id, home, away, round_number=1, add_another=True)
        for home, away in pairs
    )
    if bye is not None:
        session.add(
            SwissBye(
                league_id=league.id,
                season_id=season.id,
                round=1,
                team_id=bye,
                created_by_id=actor.id,
            )
        )
    session.flush()
    season.schedule = season.schedule or "swiss"
    entries = [entry_of(t) for t in league.teams]
    broken = round_breaks(entries, pairs, set(), avoid_same_club=league.pairing_avoid_same_club)
    audit.record(
        session,
        actor,
        "league.swiss_round",
        "league",
        league.id,
        season=season.number,
        round=1,
        matches=len(created),
        bye=bye,
        manual=True,
    )
    domain_events.record(
        session, domain_events.FixturesGenerated(league.id, tuple(m.id for m in created))
    )
    return SwissPairing(1, created, bye, False, broken)
