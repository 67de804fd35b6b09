"""The NAF results report of an event (a league's season): who can be reported, and
the XML document the organiser uploads to the NAF.

What the NAF counts is decided in `league.rules.naf` (race names from data, ratings in
thousands, only coaches with a NAF number). This module gathers the season's played
games and writes the document with the standard library's ElementTree, which escapes
every text.

- The event is a season: the one asked for, else the latest season with a played
  match (an organiser often closes the season before uploading).
- Coaches are the coaches of the league's teams that played a game of the season.
- A game is reported when both its coaches have a NAF number; the others are listed
  on the confirmation page before the download, and left out.
- ``teamRating`` is the team's value as it stands when the report is written (a
  tournament's rosters do not change between games), in thousands.
- ``touchDowns`` is the score as played; ``badlyHurt``, ``seriouslyInjured`` and
  ``dead`` are the casualties the team caused: its opponents' players' injuries in the
  match (badly hurt; seriously hurt, serious or lasting injury; dead).
  ``winnings`` the gold the team earned from the match.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session, joinedload, selectinload

from league.i18n import gettext
from league.models import League, Match, MatchTeam, Season, Team, User
from league.rules.naf import NAMESPACE, TIME_STAMP, naf_race, reportable, team_rating
from league.services.access import get_league, may_commission
from league.services.errors import Conflict, NotFound
from league.services.rosters import team_values

#: Injury codes (MatchPlayer.injury) -> the report's casualty element.
CASUALTY_ELEMENTS = {
    "badly_hurt": "badlyHurt",
    "seriously_hurt": "seriouslyInjured",
    "serious_injury": "seriouslyInjured",
    "lasting_injury": "seriouslyInjured",
    "dead": "dead",
}


@dataclass(frozen=True, slots=True)
class NafCoach:
    """A coach of the event, with the team they played."""

    user_id: int
    username: str
    naf_name: str | None
    naf_number: int | None
    team_id: int
    team_name: str
    race: str | None

    @property
    def reportable(self) -> bool:
        return reportable(self.naf_number)


@dataclass(frozen=True, slots=True)
class NafSide:
    coach: NafCoach
    rating: int
    touchdowns: int
    #: The report's casualty element -> casualties the team caused of that kind.
    casualties: dict[str, int]
    winnings: int


@dataclass(frozen=True, slots=True)
class NafGame:
    match_id: int
    played_at: datetime
    home: NafSide
    away: NafSide

    @property
    def reportable(self) -> bool:
        return self.home.coach.reportable and self.away.coach.reportable

    @property
    def time_stamp(self) -> str:
        played = self.played_at
        if played.tzinfo is None:  # stored as UTC; SQLite gives it back without a zone
            played = played.replace(tzinfo=UTC)
        return played.astimezone(UTC).strftime(TIME_STAMP)


@dataclass(frozen=True, slots=True)
class NafReport:
    league_id: int
    league_name: str
    season_number: int
    #: The organiser's NAF name (None: not on their profile).
    organiser: str | None
    #: Every coach who played, reportable or not (by NAF name, else username).
    coaches: tuple[NafCoach, ...]
    games: tuple[NafGame, ...]

    @property
    def reported_coaches(self) -> tuple[NafCoach, ...]:
        return tuple(coach for coach in self.coaches if coach.reportable)

    @property
    def left_out(self) -> tuple[NafCoach, ...]:
        """Coaches without a NAF number: neither they nor their games are reported."""
        return tuple(coach for coach in self.coaches if not coach.reportable)

    @property
    def reported_games(self) -> tuple[NafGame, ...]:
        return tuple(game for game in self.games if game.reportable)

    @property
    def unmapped(self) -> tuple[NafCoach, ...]:
        """Reported coaches whose team type has no NAF race name."""
        return tuple(coach for coach in self.reported_coaches if coach.race is None)

    @property
    def problem(self) -> str | None:
        """Why the document cannot be written, or None."""
        if not self.organiser:
            return gettext(
                "Add your NAF name to your profile first: the report names its organiser."
            )
        if not self.reported_games:
            return gettext(
                "No game of this season has two coaches with a NAF number: there is "
                "nothing to report."
            )
        if self.unmapped:
            return gettext(
                "No NAF race name is known for %(team)s's team type.",
                team=self.unmapped[0].team_name,
            )
        return None


def _season_filter(league: League, number: int | None) -> ColumnElement[bool]:
    """The event's matches: the season numbered ``number``, else the latest season with a
    played league match (an organiser often closes the season before uploading)."""
    if number is not None:
        found = next((s for s in league.seasons if s.number == number), None)
        if found is None:
            raise NotFound(
                gettext("%(league)s has no season %(number)s.", league=league.name, number=number)
            )
        return Match.season_id == found.id
    latest = (
        select(func.max(Match.season_id))
        .where(Match.league_id == league.id, Match.state == "played", Match.friendly.is_(False))
        .scalar_subquery()
    )
    return Match.season_id == latest


def naf_report(
    session: Session, actor: User, league_id: int, season_number: int | None = None
) -> NafReport:
    """The event's report as the organiser (a commissioner) sees it before the download."""
    league = get_league(session, league_id, collections=("members", "seasons"))
    may_commission(league, actor).require()
    return naf_report_of(session, league, actor, season_number)


def naf_report_of(
    session: Session, league: League, organiser: User, season_number: int | None = None
) -> NafReport:
    """`naf_report` for a league whose commissioner the caller checked ``organiser`` is
    (its members and seasons loaded)."""
    matches = list(
        session.scalars(
            select(Match)
            .where(
                _season_filter(league, season_number),
                Match.state == "played",
                Match.friendly.is_(False),
            )
            .order_by(Match.played_at, Match.id)
            .options(
                selectinload(Match.sides)
                .joinedload(MatchTeam.team)
                .options(joinedload(Team.coach), selectinload(Team.players)),
                selectinload(Match.players),
            )
        )
    )
    season = _season(league, season_number, matches)
    coaches: dict[int, NafCoach] = {}
    ratings: dict[int, int] = {}
    games = []
    for match in matches:
        sides = []
        for side in (match.home, match.away):
            team = side.team
            if team.id not in coaches:
                coaches[team.id] = _coach(team)
                ratings[team.id] = team_rating(team_values(team).team_value)
            sides.append(_side(match, side, coaches[team.id], ratings[team.id]))
        games.append(NafGame(match.id, match.played_at or match.created_at, sides[0], sides[1]))
    return NafReport(
        league.id,
        league.name,
        season.number,
        (organiser.naf_name or "").strip() or None,
        tuple(sorted(coaches.values(), key=lambda c: (c.naf_name or c.username).lower())),
        tuple(games),
    )


def _season(league: League, number: int | None, matches: list[Match]) -> Season:
    """The season reported: the one asked for, the one of the games, else the current."""
    if number is not None:
        return next(s for s in league.seasons if s.number == number)
    found = next((s for s in league.seasons if matches and s.id == matches[0].season_id), None)
    season = found or league.current_season or (league.seasons[-1] if league.seasons else None)
    if season is None:
        raise NotFound(gettext("%(league)s has no season yet.", league=league.name))
    return season


def _coach(team: Team) -> NafCoach:
    coach = team.coach
    return NafCoach(
        user_id=coach.id,
        username=coach.username,
        naf_name=coach.naf_name or None,
        naf_number=coach.naf_number,
        team_id=team.id,
        team_name=team.name,
        race=naf_race(team.team_type_id),
    )


def _side(match: Match, side: MatchTeam, coach: NafCoach, rating: int) -> NafSide:
    casualties = dict.fromkeys(("badlyHurt", "seriouslyInjured", "dead"), 0)
    for line in match.players:
        element = CASUALTY_ELEMENTS.get(line.injury or "")
        # The opponents' players' injuries: the casualties this side caused.
        if element is not None and line.team_id != side.team_id:
            casualties[element] += 1
    return NafSide(coach, rating, side.score, casualties, side.winnings)


def naf_report_xml(report: NafReport) -> bytes:
    """The report as the NAF's XML document (UTF-8); a Conflict when it cannot be
    written (`NafReport.problem`)."""
    problem = report.problem
    if problem is not None:
        raise Conflict(problem, code="naf_report_incomplete")
    ns = f"{{{NAMESPACE}}}"
    ET.register_namespace("", NAMESPACE)
    root = ET.Element(f"{ns}nafReport")

    def add(parent: ET.Element, tag: str, text: object) -> ET.Element:
        element = ET.SubElement(parent, f"{ns}{tag}")
        element.text = str(text)
        return element

    add(root, "organiser", report.organiser)
    coaches = ET.SubElement(root, f"{ns}coaches")
    for coach in report.reported_coaches:
        element = ET.SubElement(coaches, f"{ns}coach")
        add(element, "name", coach.naf_name or coach.username)
        add(element, "number", coach.naf_number)
        add(element, "team", coach.race)
    for game in report.reported_games:
        element = ET.SubElement(root, f"{ns}game")
        add(element, "timeStamp", game.time_stamp)
        for side in (game.home, game.away):
            record = ET.SubElement(element, f"{ns}playerRecord")
            add(record, "name", side.coach.naf_name or side.coach.username)
            add(record, "number", side.coach.naf_number)
            add(record, "teamRating", side.rating)
            add(record, "touchDowns", side.touchdowns)
            for tag in ("badlyHurt", "seriouslyInjured", "dead"):
                add(record, tag, side.casualties[tag])
            add(record, "winnings", side.winnings)
    ET.indent(root)
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document
