"""Fixtures: round-robin schedules, the season's fixture list and its iCalendar export.

`round_robin` is pure (team ids in, rounds of (home, away) pairs out); the
services around it schedule every match through `matches.schedule_match`, so a
generated fixture is exactly what a commissioner would have added by hand.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload, selectinload

from league.i18n import gettext, in_language, ngettext
from league.models import League, Match, MatchTeam, Season, SwissBye, Team, User
from league.services import audit
from league.services import events as domain_events
from league.services.access import get_league, require_commissioner
from league.services.errors import Conflict, RuleViolation
from league.services.labels import season_name
from league.services.logos import TeamLook, look_of
from league.services.matches import schedule_match
from league.services.standings import season_of

T = TypeVar("T")

MAX_DAYS_BETWEEN = 365


# ---------------------------------------------------------------------------
# The schedule (pure)


def round_robin(team_ids: Sequence[T], double: bool = False) -> list[list[tuple[T, T]]]:
    """Rounds of (home, away) pairs in which every team meets every other once (twice).

    The circle method: one team (or, for an odd count, the bye) sits in the
    centre and the others turn around it, so with an odd count every team sits
    out exactly once per cycle (the round it would have met the bye). A pair
    that is k places apart around the circle is oriented by the parity of k;
    every team meets each distance once from either side, so its home and away
    games balance except for its one game against the centre: the counts
    differ by at most one in a single round robin. A double round robin
    repeats the rounds with home and away swapped, so they are exactly equal.
    """
    teams = list(team_ids)
    if len(set(teams)) != len(teams):
        raise ValueError("round_robin: a team is listed twice")
    if len(teams) < 2:
        return []
    slots: list[T | None] = [*teams, None] if len(teams) % 2 else list(teams)
    circle, centre = slots[:-1], slots[-1]
    size = len(circle)  # odd
    rounds: list[list[tuple[T, T]]] = []
    for r in range(size):
        pairs: list[tuple[T, T]] = []
        opponent = circle[r]
        if centre is not None and opponent is not None:
            pairs.append((centre, opponent) if r % 2 == 0 else (opponent, centre))
        for k in range(1, size // 2 + 1):
            ahead, behind = circle[(r + k) % size], circle[(r - k) % size]
            if ahead is None or behind is None:
                continue
            pairs.append((ahead, behind) if k % 2 else (behind, ahead))
        rounds.append(pairs)
    if double:
        rounds += [[(away, home) for home, away in pairs] for pairs in rounds]
    return rounds


def division_rounds(teams: Sequence[Team], double: bool = False) -> list[list[tuple[int, int]]]:
    """A round robin inside each division (teams without one form a group of their own),
    played side by side: round n holds every division's round n. Without divisions this
    is the league's round robin."""
    by_division: dict[str, list[int]] = {}
    for team in teams:
        by_division.setdefault(team.division or "", []).append(team.id)
    schedules = [round_robin(by_division[name], double) for name in sorted(by_division)]
    count = max((len(rounds) for rounds in schedules), default=0)
    return [
        [pair for rounds in schedules if number < len(rounds) for pair in rounds[number]]
        for number in range(count)
    ]


def division_schedule_size(teams: Sequence[Team], double: bool = False) -> tuple[int, int]:
    """(rounds, matches) of the schedule `generate_fixtures` makes for these teams."""
    rounds = division_rounds(teams, double)
    return len(rounds), sum(len(pairs) for pairs in rounds)


def schedule_size(team_count: int, double: bool = False) -> tuple[int, int]:
    """(rounds, matches) of a round robin between `team_count` teams."""
    if team_count < 2:
        return 0, 0
    rounds = team_count - 1 if team_count % 2 == 0 else team_count
    matches = team_count * (team_count - 1) // 2
    return (rounds * 2, matches * 2) if double else (rounds, matches)


# ---------------------------------------------------------------------------
# Generating a season's fixtures


def active_teams(league: League, *, pairing: Literal["schedule", "round"]) -> list[Team]:
    """The league's active teams, or RuleViolation ``not_enough_teams`` when fewer than
    two are left to pair for a schedule (round robin) or a round (Swiss)."""
    teams = [team for team in league.teams if team.status == "active"]
    if len(teams) >= 2:
        return teams
    args = {"league": league.name, "count": len(teams)}
    message = (
        gettext(
            "%(league)s needs at least two active teams for a schedule; it has %(count)s.", **args
        )
        if pairing == "schedule"
        else gettext(
            "%(league)s needs at least two active teams for a round; it has %(count)s.", **args
        )
    )
    raise RuleViolation(message, code="not_enough_teams")


def season_match_count(session: Session, season: Season) -> int:
    """League matches (scheduled or played, not voided, not friendlies) of the season."""
    return (
        session.scalar(
            select(func.count())
            .select_from(Match)
            .where(
                Match.season_id == season.id,
                Match.friendly.is_(False),
                Match.state != "voided",
            )
        )
        or 0
    )


def generate_fixtures(
    session: Session,
    actor: User,
    league_id: int,
    double: bool,
    start_date: date | None = None,
    days_between: int = 7,
    *,
    shuffle: bool = True,
) -> list[Match]:
    """Schedule a (double) round robin between the league's active teams this season.

    Round n is dated start_date + (n - 1) x days_between when a start date is
    given. The draw (who takes which place on the circle) is random unless
    `shuffle` is False, when the teams keep their alphabetical order.
    """
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    # Lock the league row so two commissioners cannot generate the schedule twice at once.
    session.scalar(select(League.id).where(League.id == league.id).with_for_update())
    season = league.current_season
    if season is None:
        raise Conflict(
            gettext("%(league)s has no open season; start one first.", league=league.name)
        )
    existing = season_match_count(session, season)
    if existing:
        raise Conflict(
            ngettext(
                "%(season)s already has %(num)d league match; fixtures can only be generated "
                "for a season without any. Add further fixtures one at a time.",
                "%(season)s already has %(num)d league matches; fixtures can only be generated "
                "for a season without any. Add further fixtures one at a time.",
                existing,
                season=season_name(season.name),
            ),
            code="season_has_fixtures",
        )
    if not 1 <= days_between <= MAX_DAYS_BETWEEN:
        raise RuleViolation(
            gettext("Rounds are 1 to %(max)s days apart.", max=MAX_DAYS_BETWEEN),
            field="days_between",
        )
    teams = active_teams(league, pairing="schedule")
    if shuffle:
        secrets.SystemRandom().shuffle(teams)
    created: list[Match] = []
    for number, pairs in enumerate(division_rounds(teams, double), start=1):
        day = start_date + timedelta(days=days_between * (number - 1)) if start_date else None
        for home_id, away_id in pairs:
            created.append(
                schedule_match(
                    session,
                    actor,
                    league.id,
                    home_id,
                    away_id,
                    round_number=number,
                    scheduled_for=day,
                    # A round robin pairs two teams once a round, in a season without
                    # fixtures (checked above): no query per match for a duplicate.
                    add_another=True,
                )
            )
    season.schedule = season.schedule or "round_robin"
    audit.record(
        session,
        actor,
        "fixtures.generate",
        "league",
        league.id,
        season=season.number,
        double=double,
        matches=len(created),
    )
    domain_events.record(
        session, domain_events.FixturesGenerated(league.id, tuple(m.id for m in created))
    )
    return created


# ---------------------------------------------------------------------------
# Reading: the fixture list


@dataclass(frozen=True, slots=True)
class FixtureSide:
    team_id: int
    team_name: str
    #: None: the team was left without a coach (`Team.coachless_since`).
    coach_id: int | None
    score: int
    conceded: bool
    #: The team's colours and logo, for its badge.
    look: TeamLook | None = None


@dataclass(frozen=True, slots=True)
class Fixture:
    match_id: int
    round: int | None
    scheduled_for: date | None
    state: str
    friendly: bool
    home: FixtureSide
    away: FixtureSide

    @property
    def played(self) -> bool:
        return self.state == "played"

    @property
    def open(self) -> bool:
        """Still waiting for its result."""
        return self.state in ("scheduled", "draft")


@dataclass(frozen=True, slots=True)
class FixtureRound:
    number: int | None
    fixtures: tuple[Fixture, ...]
    #: Teams of the schedule without a match this round (odd team counts).
    byes: tuple[str, ...] = ()

    @property
    def dates(self) -> tuple[date, ...]:
        return tuple(sorted({f.scheduled_for for f in self.fixtures if f.scheduled_for}))


@dataclass(frozen=True, slots=True)
class FixtureList:
    season_id: int
    season_name: str
    rounds: tuple[FixtureRound, ...]
    #: Matches without a round: single fixtures, friendlies, results entered directly.
    others: tuple[Fixture, ...]

    @property
    def empty(self) -> bool:
        return not self.rounds and not self.others

    @property
    def count(self) -> int:
        return sum(len(r.fixtures) for r in self.rounds) + len(self.others)

    @property
    def round_in_play(self) -> int:
        """Where the season stands: the place (from 0) of its first round with a match
        still waiting for its result, else of its last round."""
        waiting = (i for i, r in enumerate(self.rounds) if any(f.open for f in r.fixtures))
        return next(waiting, max(len(self.rounds) - 1, 0))


def _side(side: MatchTeam) -> FixtureSide:
    team = side.team
    coach_id = team.coach_id if team.coachless_since is None else None
    return FixtureSide(team.id, team.name, coach_id, side.score, side.conceded, look_of(team))


def fixture_of(match: Match) -> Fixture:
    return Fixture(
        match.id,
        match.round,
        match.scheduled_for,
        match.state,
        match.friendly,
        _side(match.home),
        _side(match.away),
    )


def season_fixtures(
    session: Session, league: League, season_number: int | None = None
) -> FixtureList:
    """The season's matches (voided ones left out), by round then date."""
    season = season_of(league, season_number)
    found = session.scalars(
        select(Match)
        .where(Match.season_id == season.id, Match.state != "voided")
        .order_by(Match.round.is_(None), Match.round, Match.scheduled_for, Match.id)
        # Both sides with their teams in the same query: two rows a match.
        .options(joinedload(Match.sides).joinedload(MatchTeam.team))
    ).unique()
    fixtures = [fixture_of(m) for m in found]
    # Swiss byes are stored (a team may sit out before it has played a round).
    swiss = dict(
        session.execute(
            select(SwissBye.round, Team.name)
            .join(Team, Team.id == SwissBye.team_id)
            .where(SwissBye.season_id == season.id)
        )
        .tuples()
        .all()
    )
    numbers = sorted({f.round for f in fixtures if f.round is not None} | set(swiss))
    scheduled = {
        side.team_id: side.team_name
        for f in fixtures
        if f.round is not None
        for side in (f.home, f.away)
    }
    rounds = []
    for number in numbers:
        in_round = tuple(f for f in fixtures if f.round == number)
        playing = {side.team_id for f in in_round for side in (f.home, f.away)}
        byes = {name for tid, name in scheduled.items() if tid not in playing}
        if number in swiss:
            byes.add(swiss[number])
        rounds.append(FixtureRound(number, in_round, tuple(sorted(byes))))
    others = tuple(f for f in fixtures if f.round is None)
    return FixtureList(season.id, season.name, tuple(rounds), others)


# ---------------------------------------------------------------------------
# iCalendar (RFC 5545), written by hand: a few lines do not need a dependency


@dataclass(frozen=True, slots=True)
class CalendarEvent:
    uid: str
    day: date
    summary: str
    description: str = ""
    url: str | None = None
    #: The kick-off both coaches agreed (UTC): a timed event; None: an all-day one.
    starts_at: datetime | None = None


def ics_escape(text: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped; controls dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch in "\n\t" or (ord(ch) >= 32 and ord(ch) != 127))
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def ics_fold(line: str) -> str:
    """Fold a content line at 75 octets (continuations start with a space)."""
    parts: list[str] = []
    current, size, limit = "", 0, 75
    for ch in line:
        width = len(ch.encode())
        if size + width > limit:
            parts.append(current)
            current, size, limit = "", 0, 74  # the leading space takes one octet
        current += ch
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def _utc_stamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


#: How long a calendar blocks for an agreed match (a league game takes a couple of hours).
MATCH_LENGTH = timedelta(hours=2)


def _event_times(event: CalendarEvent) -> list[str]:
    if event.starts_at is None:
        return [
            f"DTSTART;VALUE=DATE:{event.day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{event.day + timedelta(days=1):%Y%m%d}",
        ]
    return [
        f"DTSTART:{_utc_stamp(event.starts_at)}",
        f"DTEND:{_utc_stamp(event.starts_at + MATCH_LENGTH)}",
    ]


def ics_calendar(name: str, events: Sequence[CalendarEvent], *, now: datetime) -> str:
    """A VCALENDAR of all-day events (timed where a kick-off was agreed); lines end with
    CRLF as the RFC requires.

    With METHOD:PUBLISH, DTSTAMP is when this calendar was produced: `now`.
    """
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Blood Bowl League Manager//Fixtures//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{_utc_stamp(now)}",
            *_event_times(event),
            f"SUMMARY:{ics_escape(event.summary)}",
        ]
        if event.description:
            lines.append(f"DESCRIPTION:{ics_escape(event.description)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(ics_fold(line) + "\r\n" for line in lines)


def calendar_events(
    session: Session,
    league: League,
    *,
    uid_domain: str,
    url_for_match: Callable[[int], str] | None = None,
    team_id: int | None = None,
) -> list[CalendarEvent]:
    """One event per dated, not voided match of the league (every season).

    With `team_id`, only that team's matches: a coach's own calendar. The UID
    depends on the match alone, so an event is the same in both calendars and
    across downloads, and calendar applications update it instead of adding a copy.
    The texts are in the league's default language (a calendar is shared, not read
    on this site).
    """
    with in_language(league.default_language):
        return _calendar_events(session, league, uid_domain, url_for_match, team_id)


def _calendar_events(
    session: Session,
    league: League,
    uid_domain: str,
    url_for_match: Callable[[int], str] | None,
    team_id: int | None,
) -> list[CalendarEvent]:
    conditions = [
        Match.league_id == league.id,
        Match.state != "voided",
        Match.scheduled_for.is_not(None),
    ]
    if team_id is not None:
        conditions.append(Match.sides.any(MatchTeam.team_id == team_id))
    found = session.scalars(
        select(Match)
        .where(*conditions)
        .order_by(Match.scheduled_for, Match.round, Match.id)
        .options(selectinload(Match.sides).selectinload(MatchTeam.team), selectinload(Match.season))
    )
    events = []
    for match in found:
        home, away = match.home, match.away
        if match.state == "played":
            summary = f"{home.team.name} {home.score}-{away.score} {away.team.name}"
        else:
            summary = gettext("%(home)s vs %(away)s", home=home.team.name, away=away.team.name)
        where = [league.name]
        if match.season is not None:
            where.append(season_name(match.season.name))
        if match.round is not None:
            where.append(gettext("round %(number)s", number=match.round))
        if match.friendly:
            where.append(gettext("friendly"))
        if match.scheduled_for is None:  # filtered out above; this tells the type checker
            continue
        events.append(
            CalendarEvent(
                uid=f"match-{match.id}@{uid_domain}",
                day=match.scheduled_for,
                summary=summary,
                description=", ".join(where),
                url=url_for_match(match.id) if url_for_match else None,
                starts_at=match.kickoff_at,
            )
        )
    return events
