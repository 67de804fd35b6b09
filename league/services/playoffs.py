"""Playoffs: a knock-out bracket seeded from the season's table, round after round.

The first round is drawn by the rules (``league.rules.competitions``) from the
current season's standings. Each later match is scheduled when both matches
feeding it have a winner: the commissioner advances the bracket after a round.
A drawn knock-out match goes to extra time at the table; the commissioner then
records who went through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import N_, gettext, ngettext
from league.models import League, Match, PlayoffBracket, Season, User
from league.rules.competitions import Ranked, first_round, playoff_decision
from league.rules.refusals import refusal_text
from league.services import audit
from league.services.access import get_league, league_ruleset, require_commissioner
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.labels import season_name
from league.services.matches import require_open_season, schedule_match
from league.services.standings import match_outcomes, standings


def rounds_in(size: int) -> int:
    return int(math.log2(size))


def round_name(size: int, number: int) -> str:
    left = size // 2 ** (number - 1)
    named = {2: N_("Final"), 4: N_("Semi-finals"), 8: N_("Quarter-finals")}.get(left)
    if named is not None:
        return gettext(named)
    return ngettext("Round of %(num)d", "Round of %(num)d", left)


@dataclass(frozen=True, slots=True)
class Slot:
    """A place in the bracket: its match once scheduled, else the teams known so far."""

    round: int
    slot: int
    match: Match | None
    home_team_id: int | None
    away_team_id: int | None
    winner_team_id: int | None
    third_place: bool = False

    @property
    def needs_winner(self) -> bool:
        """A drawn match waiting for the commissioner to record who went through."""
        return self.match is not None and self.match.state == "played" and not self.winner_team_id


@dataclass(frozen=True, slots=True)
class Bracket:
    bracket: PlayoffBracket
    #: Round by round; the last round holds the final (slot 0) and the third-place match.
    rounds: tuple[tuple[Slot, ...], ...]

    def round_name(self, number: int) -> str:
        return round_name(self.bracket.size, number)


def winner_of(match: Match) -> int | None:
    """Who went through: the higher score, the side that did not concede, or the recorded
    winner of a draw; None while unplayed or undecided."""
    if match.state != "played":
        return None
    home = match_outcomes(match.league, match)["home"]
    if home.drawn:
        return match.winner_team_id
    return match.side("home" if home.won else "away").team_id


def loser_of(match: Match) -> int | None:
    winner = winner_of(match)
    if winner is None:
        return None
    return next(side.team_id for side in match.sides if side.team_id != winner)


def _bracket_of(session: Session, season: Season) -> PlayoffBracket | None:
    return session.scalar(select(PlayoffBracket).where(PlayoffBracket.season_id == season.id))


def _matches(session: Session, bracket: PlayoffBracket) -> dict[tuple[int, int], Match]:
    found = session.scalars(
        select(Match).where(Match.bracket_id == bracket.id, Match.voided_at.is_(None))
    )
    return {(m.bracket_round or 0, m.bracket_slot or 0): m for m in found}


def create_bracket(session: Session, actor: User, league_id: int, size: int) -> PlayoffBracket:
    """Seed a bracket of `size` from the current season's table and schedule its first round."""
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    season = league.current_season
    if season is None:
        raise Conflict(gettext("%(league)s has no open season.", league=league.name))
    if _bracket_of(session, season) is not None:
        raise Conflict(
            gettext("%(season)s has its playoffs already.", season=season_name(season.name))
        )
    ruleset = league_ruleset(league)
    division = {team.id: team.division for team in league.teams}
    table = [
        Ranked(row.team_id, division.get(row.team_id))
        for row in standings(session, league, season.number).rows
    ]
    decision = playoff_decision(ruleset, size, table)
    if not decision:
        reason = decision.reasons[0]
        raise RuleViolation(refusal_text(reason), field="size", code=reason.code)
    bracket = PlayoffBracket(
        league_id=league.id,
        season_id=season.id,
        size=size,
        third_place_match=ruleset.season.playoffs.third_place_match,
        created_by_id=actor.id,
    )
    session.add(bracket)
    session.flush()
    for slot, (home, away) in enumerate(first_round(ruleset, size, table)):
        _schedule(session, actor, bracket, 1, slot, home.team_id, away.team_id)
    audit.record(session, actor, "league.playoffs", "league", league.id, size=size)
    return bracket


def _schedule(
    session: Session,
    actor: User,
    bracket: PlayoffBracket,
    number: int,
    slot: int,
    home_team_id: int,
    away_team_id: int,
) -> Match:
    match = schedule_match(
        session,
        actor,
        bracket.league_id,
        home_team_id,
        away_team_id,
        round_number=None,
        add_another=True,
    )
    match.bracket_id = bracket.id
    match.bracket_round = number
    match.bracket_slot = slot
    return match


def bracket_view(session: Session, league: League, season: Season | None = None) -> Bracket | None:
    """The season's bracket (the current one by default), or None when it has none."""
    season = season or league.current_season
    if season is None:
        return None
    bracket = _bracket_of(session, season)
    if bracket is None:
        return None
    matches = _matches(session, bracket)
    total = rounds_in(bracket.size)
    rounds: list[tuple[Slot, ...]] = []
    for number in range(1, total + 1):
        slots = []
        count = bracket.size // 2**number
        for slot in range(count):
            match = matches.get((number, slot))
            home: int | None
            away: int | None
            if match is not None:
                home, away = match.side("home").team_id, match.side("away").team_id
            elif number > 1:
                home, away = _feeders(matches, number, slot, winners=True)
            else:
                home = away = None
            slots.append(Slot(number, slot, match, home, away, winner_of(match) if match else None))
        if number == total and bracket.third_place_match:
            match = matches.get((number, 1))
            home, away = (
                (match.side("home").team_id, match.side("away").team_id)
                if match
                else _feeders(matches, number, 0, winners=False)
            )
            winner = winner_of(match) if match else None
            slots.append(Slot(number, 1, match, home, away, winner, third_place=True))
        rounds.append(tuple(slots))
    return Bracket(bracket, tuple(rounds))


def match_label(session: Session, match: Match) -> str | None:
    """A bracket match's round ("Semi-finals", "Third place"), whatever its season's state;
    None for any other match."""
    if match.bracket_id is None or match.bracket_round is None:
        return None
    bracket = session.get(PlayoffBracket, match.bracket_id)
    if bracket is None:
        return None
    last = match.bracket_round == rounds_in(bracket.size)
    if last and bracket.third_place_match and match.bracket_slot == 1:
        return gettext("Third place")
    return round_name(bracket.size, match.bracket_round)


def _feeders(
    matches: dict[tuple[int, int], Match], number: int, slot: int, *, winners: bool
) -> tuple[int | None, int | None]:
    """The teams a slot waits for: the winners (or, for third place, the losers) of the
    two matches of the round before that feed it."""
    pick = winner_of if winners else loser_of
    feeding = (matches.get((number - 1, 2 * slot)), matches.get((number - 1, 2 * slot + 1)))
    first, second = (pick(m) if m is not None else None for m in feeding)
    return first, second


def advance(session: Session, actor: User, league_id: int) -> list[Match]:
    """Schedule every bracket match whose two teams are now known."""
    session.execute(select(League.id).where(League.id == league_id).with_for_update())
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    view = bracket_view(session, league)
    if view is None:
        raise NotFound(gettext("%(league)s has no playoffs this season.", league=league.name))
    created = []
    for slots in view.rounds[1:]:
        for slot in slots:
            if slot.match is None and slot.home_team_id and slot.away_team_id:
                created.append(
                    _schedule(
                        session,
                        actor,
                        view.bracket,
                        slot.round,
                        slot.slot,
                        slot.home_team_id,
                        slot.away_team_id,
                    )
                )
    if not created:
        raise Conflict(gettext("No bracket match is ready: each waits for both matches before it."))
    audit.record(session, actor, "league.playoffs_advance", "league", league.id, n=len(created))
    return created


def record_winner(session: Session, actor: User, match_id: int, team_id: int) -> Match:
    """Who went through from a drawn knock-out match (after extra time at the table)."""
    match = session.get(Match, match_id, with_for_update=True)
    if match is None:
        raise NotFound(gettext("There is no match number %(id)s.", id=match_id))
    require_commissioner(match.league, actor)
    if match.bracket_id is None:
        raise Conflict(gettext("Only a knock-out match has a winner to record."))
    require_open_season(match)
    home, away = match.side("home"), match.side("away")
    if match.state != "played" or not match_outcomes(match.league, match)["home"].drawn:
        raise Conflict(gettext("Only a drawn knock-out match needs its winner recorded."))
    if team_id not in (home.team_id, away.team_id):
        raise RuleViolation(
            gettext("The winner is one of the two teams of the match."), field="team_id"
        )
    match.winner_team_id = team_id
    audit.record(session, actor, "match.winner", "match", match.id, team_id=team_id)
    return match
