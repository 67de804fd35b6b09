"""Seasons: closing one (final table, prizes, the League Trophy) and opening the next."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import League, Season, Team, TreasuryEntry, User
from league.rules import Ruleset
from league.rules.seasons import season_prizes
from league.services import audit, webhooks
from league.services.errors import Conflict, NotFound
from league.services.labels import english_ordinal
from league.services.leagues import get_league, league_ruleset, require_commissioner
from league.services.standings import standings
from league.services.teams import post_entry
from league.services.text import ordinal


def place_name(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... (prizes go to the first few places only)."""
    return ordinal(place)


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


def close_season(
    session: Session, actor: User, league_id: int, number: int | None = None
) -> ClosedSeason:
    """Close the current season, pay its prizes and open the next one; teams carry over.

    `number` is the season the caller means to close (the API names it): any other
    than the current one is refused, so a repeated request cannot close the next one too.
    The prizes go by the final table into the treasuries, as ledger rows naming the
    season; the last match's Expensive Mistakes were rolled when its result was
    entered, so the prizes always come after them.
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
        prizes = _pay_prizes(session, actor, league, current)
        current.closed_at = datetime.now(UTC)
    number = (league.seasons[-1].number + 1) if league.seasons else 1
    season = Season(number=number, name=f"Season {number}")
    league.seasons.append(season)
    session.flush()
    audit.record(session, actor, "league.new_season", "league", league.id, number=number)
    if current is not None:
        webhooks.emit(
            session,
            league.id,
            "season.closed",
            lambda: webhooks.season_payload(session, league, current),
        )
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
            post_entry(
                session,
                team,
                actor,
                prize.gold,
                "prize",
                # Stored in English, whoever closes the season (labels.ledger_text).
                f"{english_ordinal(prize.place)} place, {season.name}",
                season_id=season.id,
            )
        paid.append(PaidPrize(team.id, team.name, prize.place, prize.gold, prize.trophy))
    if ruleset.season.prizes is not None and ruleset.season.prizes.trophy_reroll:
        # The trophy is held until the next season closes: it passes on here.
        for team in league.teams:
            team.league_trophy = any(p.trophy and p.team_id == team.id for p in paid)
    return tuple(paid)


def prizes_paid(session: Session, league: League, season: Season) -> tuple[PaidPrize, ...]:
    """The prizes a closed season paid, best place first (they were booked in that order)."""
    rows = session.execute(
        select(TreasuryEntry.team_id, TreasuryEntry.amount, Team.name)
        .join(Team, TreasuryEntry.team_id == Team.id)
        .where(TreasuryEntry.season_id == season.id, TreasuryEntry.kind == "prize")
        .order_by(TreasuryEntry.id)
    ).all()
    prizes = league_ruleset(league).season.prizes
    trophy = prizes is not None and prizes.trophy_reroll
    return tuple(
        PaidPrize(team_id, name, place, amount, trophy=trophy and place == 1)
        for place, (team_id, amount, name) in enumerate(rows, 1)
    )
