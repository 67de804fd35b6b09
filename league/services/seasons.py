"""Seasons: closing one (final table, prizes, the League Trophy) and opening the next,
and reopening the last one closed (its prizes taken back) to change a result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, selectinload

from league.i18n import DEFAULT_LANGUAGE, N_, gettext, in_language
from league.models import (
    League,
    Match,
    MatchTeam,
    PlayoffBracket,
    Redraft,
    Season,
    SwissBye,
    Team,
    TreasuryEntry,
    User,
)
from league.rules import Ruleset
from league.rules.seasons import season_prizes
from league.services import audit
from league.services import events as domain_events
from league.services.access import get_league, league_ruleset, require_commissioner
from league.services.errors import Conflict, NotFound
from league.services.labels import season_name
from league.services.standings import standings
from league.services.teams import post_entry, unless_spent
from league.services.text import place_name

#: Matches not played yet: a closing season lists them, and may mark them unplayed.
WAITING_STATES = ("scheduled", "draft")


@dataclass(frozen=True, slots=True)
class PaidPrize:
    team_id: int
    team_name: str
    place: int
    gold: int
    trophy: bool

    @property
    def place_name(self) -> str:
        return place_name(self.place)


@dataclass(frozen=True, slots=True)
class PrizeTable:
    """What closing a season will pay: (place name, gold) and whether there is a trophy."""

    places: tuple[tuple[str, int], ...]
    trophy: bool


def prize_table(ruleset: Ruleset) -> PrizeTable | None:
    prizes = ruleset.season.prizes
    if prizes is None:
        return None
    places = tuple((place_name(place), gold) for place, gold in enumerate(prizes.gold, 1))
    return PrizeTable(places, prizes.trophy_reroll)


@dataclass(frozen=True, slots=True)
class ClosedSeason:
    closed: Season | None
    opened: Season
    prizes: tuple[PaidPrize, ...]


def unplayed_matches(session: Session, season: Season) -> tuple[Match, ...]:
    """The season's matches still waiting for a result (fixtures, friendlies, playoff
    matches), in the order they were scheduled."""
    return tuple(
        session.scalars(
            select(Match)
            .where(Match.season_id == season.id, Match.state.in_(WAITING_STATES))
            .order_by(Match.round.is_(None), Match.round, Match.scheduled_for, Match.id)
            .options(selectinload(Match.sides).selectinload(MatchTeam.team))
        )
    )


def close_season(
    session: Session,
    actor: User,
    league_id: int,
    number: int | None = None,
    *,
    mark_unplayed: bool = False,
) -> ClosedSeason:
    """Close the current season, pay its prizes and open the next one; teams carry over.

    `number` is the season the caller means to close (the API names it): any other
    than the current one is refused, so a repeated request cannot close the next one too.
    The prizes go by the final table into the treasuries, as ledger rows naming the
    season; the last match's Expensive Mistakes were rolled when its result was
    entered, so the prizes always come after them. `mark_unplayed`: the matches
    still waiting for a result are marked unplayed (otherwise they stay scheduled;
    either way no result can be entered once the season is closed).
    """
    # Two closes at once must not both open "the next" season: the league row serialises them.
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    current = league.current_season
    if number is not None:
        meant = next((s for s in league.seasons if s.number == number), None)
        if meant is None:
            raise NotFound(
                gettext("%(league)s has no season %(number)s.", league=league.name, number=number)
            )
        if meant is not current:
            raise Conflict(gettext("%(season)s is already closed.", season=meant.name))
    prizes: tuple[PaidPrize, ...] = ()
    if current is not None:
        if mark_unplayed:
            for match in unplayed_matches(session, current):
                match.state = "unplayed"
                match.draft_report = None
        prizes = _pay_prizes(session, actor, league, current)
        current.closed_at = datetime.now(UTC)
        ranked = standings(session, league, current.number).rows
        current.champion_team_id = ranked[0].team_id if ranked and ranked[0].played else None
    number = (league.seasons[-1].number + 1) if league.seasons else 1
    season = Season(number=number, name=f"Season {number}")
    league.seasons.append(season)
    session.flush()
    audit.record(session, actor, "league.new_season", "league", league.id, number=number)
    if current is not None:
        domain_events.record(session, domain_events.SeasonClosed(league.id, current.id))
    return ClosedSeason(current, season, prizes)


def _pay_prizes(
    session: Session, actor: User, league: League, season: Season
) -> tuple[PaidPrize, ...]:
    table = standings(session, league, season.number)
    if table.empty:
        return ()
    ruleset = league_ruleset(league)
    teams = {team.id: team for team in league.teams}
    paid = []
    for prize in season_prizes(ruleset, [row.team_id for row in table.rows]):
        team = teams[prize.team_id]
        if prize.gold:
            # Ledger descriptions are kept in English, as all the others are.
            with in_language(DEFAULT_LANGUAGE):
                description = f"{place_name(prize.place)} place, {season.name}"
            post_entry(
                session,
                team,
                actor,
                prize.gold,
                "prize",
                description,
                season_id=season.id,
            )
        paid.append(PaidPrize(team.id, team.name, prize.place, prize.gold, prize.trophy))
    if ruleset.season.prizes is not None and ruleset.season.prizes.trophy_reroll:
        # The trophy is held until the next season closes: it passes on here.
        for team in league.teams:
            team.league_trophy = any(p.trophy and p.team_id == team.id for p in paid)
    return tuple(paid)


def prizes_paid(session: Session, league: League, season: Season) -> tuple[PaidPrize, ...]:
    """The prizes a closed season paid, best place first (they were booked in that order).

    A season reopened took its prizes back with negative prize rows: only the rows
    booked after the last of those, by its latest closing, stand.
    """
    rows = session.execute(
        select(TreasuryEntry.team_id, TreasuryEntry.amount, Team.name)
        .join(Team, TreasuryEntry.team_id == Team.id)
        .where(TreasuryEntry.season_id == season.id, TreasuryEntry.kind == "prize")
        .order_by(TreasuryEntry.id)
    ).all()
    taken_back = [i for i, (_, amount, _) in enumerate(rows) if amount < 0]
    if taken_back:
        rows = rows[taken_back[-1] + 1 :]
    prizes = league_ruleset(league).season.prizes
    trophy = prizes is not None and prizes.trophy_reroll
    return tuple(
        PaidPrize(team_id, name, place, amount, trophy=trophy and place == 1)
        for place, (team_id, amount, name) in enumerate(rows, 1)
    )


def reopenable(session: Session, league: League, season: Season) -> str | None:
    """Why `season` cannot be reopened, or None when it can.

    Only the last season closed, and only while the season its closing opened has
    nothing in it yet (that empty season is removed again) and no team has
    re-drafted after it (a re-draft is built on the final table).
    """
    if season.closed_at is None:
        return gettext("%(season)s is not closed.", season=season_name(season.name))
    later = [s for s in league.seasons if s.number > season.number]
    if any(s.closed_at is not None for s in later):
        return gettext(
            "Only the last season closed can be reopened; %(season)s is not.",
            season=season_name(season.name),
        )
    for opened in later:
        if _has_anything(session, opened):
            return gettext(
                "%(season)s has begun (it has matches); %(closed)s can no longer be reopened.",
                season=season_name(opened.name),
                closed=season_name(season.name),
            )
    redrafted = session.scalar(select(exists().where(Redraft.season_id == season.id)))
    if redrafted:
        return gettext(
            "Teams have re-drafted after %(season)s; it can no longer be reopened.",
            season=season_name(season.name),
        )
    return None


def _has_anything(session: Session, season: Season) -> bool:
    """Does a season hold matches, a bracket, Swiss byes or ledger rows?"""
    return any(
        session.scalar(select(exists().where(column == season.id)))
        for column in (
            Match.season_id,
            PlayoffBracket.season_id,
            SwissBye.season_id,
            TreasuryEntry.season_id,
        )
    )


def reopen_season(session: Session, actor: User, league_id: int, number: int) -> Season:
    """Reopen the last closed season so its results can change again.

    Its prizes are taken back (a negative prize row per prize, so the ledger
    keeps both), the League Trophy returns to the season before's champion, the
    matches its closing marked unplayed are scheduled again, and the empty season
    its closing opened is removed. Closing it again pays the prizes of the table
    as it then stands.
    """
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    season = next((s for s in league.seasons if s.number == number), None)
    if season is None:
        raise NotFound(
            gettext("%(league)s has no season %(number)s.", league=league.name, number=number)
        )
    why = reopenable(session, league, season)
    if why is not None:
        raise Conflict(why, code="season_not_reopenable")
    teams = {team.id: team for team in league.teams}
    for prize in prizes_paid(session, league, season):
        with in_language(DEFAULT_LANGUAGE):
            description = f"{place_name(prize.place)} place, {season.name}, taken back: reopened"
        with unless_spent(
            "prize_spent",
            N_("%(team)s has already spent the prize of %(season)s: %(reason)s"),
            team=prize.team_name,
            season=season_name(season.name),
        ):
            post_entry(
                session,
                teams[prize.team_id],
                actor,
                -prize.gold,
                "prize",
                description,
                season_id=season.id,
            )
    _return_trophy(session, league, season)
    for match in session.scalars(
        select(Match).where(Match.season_id == season.id, Match.state == "unplayed")
    ):
        match.state = "scheduled"
    for opened in [s for s in league.seasons if s.number > season.number]:
        league.seasons.remove(opened)  # delete-orphan: the empty season goes
    season.closed_at = None
    season.champion_team_id = None
    session.flush()
    audit.record(session, actor, "league.reopen_season", "league", league.id, number=number)
    return season


def _return_trophy(session: Session, league: League, season: Season) -> None:
    """The League Trophy goes back to the champion of the season closed before this one."""
    prizes = league_ruleset(league).season.prizes
    if prizes is None or not prizes.trophy_reroll:
        return
    before = [s for s in league.seasons if s.number < season.number and s.closed_at is not None]
    holder = None
    if before:
        paid = prizes_paid(session, league, before[-1])
        holder = next((p.team_id for p in paid if p.trophy), None)
    for team in league.teams:
        team.league_trophy = team.id == holder
