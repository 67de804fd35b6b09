"""Match results: scheduling, recording, correcting and voiding, and the caches they drive.

A played match's rows (MatchTeam, MatchPlayer) are the events; everything they
cause on players and teams (SPP, injuries, missed games, dedicated fans, the
treasury) is recomputed from the events by `recompute.recompute_team`, so a result can be
corrected or voided and everything follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session, aliased, joinedload, selectinload

from league.i18n import N_, gettext
from league.models import (
    League,
    Match,
    MatchPlayer,
    MatchTeam,
    Player,
    PregameSide,
    Team,
    TreasuryEntry,
    User,
)
from league.models.match import SIDES
from league.rules import (
    Ruleset,
    expensive_mistake,
    expensive_mistake_loss,
    roll,
    roll_each,
)
from league.rules.team_building import concession_fans_change
from league.services import audit, submissions
from league.services import events as domain_events
from league.services.access import (
    get_league,
    get_team,
    league_ruleset,
    may_commission,
    may_report,
)
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.labels import season_name, team_status_label

# The report's types stay importable from here: the pages, the API, the seeders and the
# tests hand a result to `record_result` with them.
from league.services.match_report import API_COUNTERS as API_COUNTERS
from league.services.match_report import COUNTERS as COUNTERS
from league.services.match_report import MatchReport as MatchReport
from league.services.match_report import PlayerEvents as PlayerEvents
from league.services.match_report import ReportErrors as ReportErrors
from league.services.match_report import SideReport as SideReport
from league.services.match_report import dedicated_fans_before, team_of, validate
from league.services.match_winnings import formula_winnings
from league.services.paging import Page, page_in_sql
from league.services.postgame import sync_match_day_players, undo_departures
from league.services.recompute import ResultScope, recompute_team
from league.services.rosters import team_values
from league.services.teams import post_entry, unless_spent

# ---------------------------------------------------------------------------
# Reading


def get_match(session: Session, match_id: int, *, for_update: bool = False) -> Match:
    query = select(Match).where(Match.id == match_id)
    if for_update:
        # FOR NO KEY UPDATE: rows that merely reference this one (a new match, ledger entry or
        # player) take KEY SHARE locks, which must not deadlock with it. Locked, the row is
        # read again: what this session loaded earlier must not stay stale.
        query = query.with_for_update(key_share=True).execution_options(populate_existing=True)
    options = [
        selectinload(Match.sides).selectinload(MatchTeam.team),
        selectinload(Match.players).selectinload(MatchPlayer.player),
    ]
    if not for_update:
        # A page's read (the report form lists both rosters): the league with the match,
        # the teams with their sides, both rosters in one query.
        options = [
            joinedload(Match.league),
            joinedload(Match.season),  # closed or not: may the result change?
            selectinload(Match.sides).joinedload(MatchTeam.team).selectinload(Team.players),
            selectinload(Match.players).selectinload(MatchPlayer.player),
        ]
    match = session.scalar(query.options(*options))
    if match is None:
        raise NotFound(gettext("There is no match number %(id)s.", id=match_id))
    return match


def league_matches(session: Session, league: League) -> list[Match]:
    return list(
        session.scalars(
            select(Match)
            .where(Match.league_id == league.id)
            .order_by(Match.round.is_(None), Match.round, Match.scheduled_for, Match.id)
            .options(selectinload(Match.sides).selectinload(MatchTeam.team))
        )
    )


def require_open_season(match: Match) -> None:
    """A closed season's results are final: its table paid the prizes.

    Recording, correcting or voiding a result in it is refused; a commissioner
    reopens the season first (`seasons.reopen_season`), which takes the prizes back.
    """
    season = match.season
    if season is not None and season.closed_at is not None:
        raise Conflict(
            gettext(
                "%(season)s is closed: its results are final. A commissioner may reopen it "
                "to change them.",
                season=season_name(season.name),
            ),
            code="season_closed",
        )


# ---------------------------------------------------------------------------
# Scheduling


def schedule_match(
    session: Session,
    actor: User,
    league_id: int,
    home_team_id: int,
    away_team_id: int,
    *,
    round_number: int | None = None,
    scheduled_for: date | None = None,
    friendly: bool = False,
    add_another: bool = False,
    idempotency_key: str | None = None,
    form_token: str | None = None,
) -> Match:
    """A fixture (or friendly) between two active teams of the league.

    The same two teams twice in one round is refused unless `add_another` says
    the commissioner means it (a fixture added twice by mistake is the usual case).
    `idempotency_key` (the API's) is claimed by the new match: a simultaneous twin with
    the same key waits on the unique key, then fails with an IntegrityError and writes
    nothing. `form_token` is a scheduling form's one-time token (see submissions).
    """
    league = get_league(session, league_id)
    may_commission(league, actor, "record_results").require()
    claimed = submissions.claim(
        session,
        actor,
        form_token,
        "match.schedule",
        league_id,
        home_team_id,
        away_team_id,
        round_number,
        scheduled_for,
        friendly,
    )
    teams = _match_teams(league, home_team_id, away_team_id)
    season_id = league.current_season.id if league.current_season else None
    if round_number is not None and not add_another:
        earlier = _fixture_in_round(session, season_id, round_number, teams)
        if earlier is not None:
            raise RuleViolation(
                gettext(
                    "%(home)s and %(away)s already meet in round %(round)s (match #%(match)s). "
                    "Tick \u201cadd another\u201d to add a second match.",
                    home=teams[0].name,
                    away=teams[1].name,
                    round=round_number,
                    match=earlier,
                ),
                code="fixture_exists",
                field="add_another",
            )
    match = Match(
        league_id=league.id,
        season_id=season_id,
        round=round_number,
        scheduled_for=scheduled_for,
        friendly=friendly,
        state="scheduled",
        idempotency_key=idempotency_key,
    )
    for side, team in zip(SIDES, teams, strict=True):
        match.sides.append(MatchTeam(team_id=team.id, side=side))
    session.add(match)
    submissions.done(
        claimed,
        gettext("Scheduled %(home)s v %(away)s.", home=teams[0].name, away=teams[1].name),
    )
    session.flush()
    audit.record(session, actor, "match.schedule", "match", match.id)
    return match


def _fixture_in_round(
    session: Session, season_id: int | None, round_number: int, teams: tuple[Team, Team]
) -> int | None:
    """The id of a (not voided) match of the round between these two teams, either way round."""
    return session.scalar(
        select(Match.id)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .where(
            Match.season_id == season_id if season_id is not None else Match.season_id.is_(None),
            Match.round == round_number,
            Match.state != "voided",
            MatchTeam.team_id.in_([team.id for team in teams]),
        )
        .group_by(Match.id)
        .having(func.count() == 2)
        .limit(1)
    )


def _match_teams(league: League, home_team_id: int, away_team_id: int) -> tuple[Team, Team]:
    if home_team_id == away_team_id:
        raise RuleViolation(gettext("A team cannot play itself."), field="away_team")
    by_id = {team.id: team for team in league.teams}
    found = []
    for field_name, team_id in (("home_team", home_team_id), ("away_team", away_team_id)):
        team = by_id.get(team_id)
        if team is None:
            raise RuleViolation(
                gettext("Team %(id)s does not play in %(league)s.", id=team_id, league=league.name),
                field=field_name,
            )
        if team.status != "active":
            raise RuleViolation(
                gettext(
                    "%(team)s is %(status)s; only active teams play.",
                    team=team.name,
                    status=team_status_label(team.status),
                ),
                field=field_name,
            )
        found.append(team)
    return found[0], found[1]


# ---------------------------------------------------------------------------
# Recording


def save_unfinished_report(
    session: Session, actor: User, match_id: int, form_data: Mapping[str, object]
) -> Match:
    """Keep an unfinished report; nothing it says takes effect yet."""
    match = get_match(session, match_id, for_update=True)
    get_league(session, match.league_id)  # with its members, whom can_manage asks about
    may_report(match, actor, "edit_report").require()
    if match.state not in ("scheduled", "draft"):
        raise Conflict(gettext("This match already has a final result."))
    require_open_season(match)
    match.state = "draft"
    match.draft_report = dict(form_data)
    audit.record(session, actor, "match.draft", "match", match.id)
    return match


def record_new_match(
    session: Session,
    actor: User,
    league_id: int,
    home_team_id: int,
    away_team_id: int,
    report: MatchReport,
    *,
    idempotency_key: str | None = None,
    friendly: bool = False,
) -> Match:
    """Schedule and finalise in one step (unscheduled matches, the API).

    The key is claimed when the match is created, in this transaction: a key used before
    (or by a repeat being recorded at this moment) fails on it, a ConcurrentChange that
    writes nothing, and the caller answers with the first match. So a repeat never leaves
    an empty fixture behind, nor passes for a new match. A repeat sent after the first
    was recorded gets that first match back.
    """
    return record_new_match_once(
        session,
        actor,
        league_id,
        home_team_id,
        away_team_id,
        report,
        idempotency_key=idempotency_key,
        friendly=friendly,
    )[0]


def record_new_match_once(
    session: Session,
    actor: User,
    league_id: int,
    home_team_id: int,
    away_team_id: int,
    report: MatchReport,
    *,
    idempotency_key: str | None = None,
    friendly: bool = False,
) -> tuple[Match, bool]:
    """`record_new_match`, and whether it created the match (False: the key's first
    match, committed by a twin request since the caller looked)."""
    earlier = _already_recorded(session, league_id, idempotency_key)
    if earlier is not None:
        return earlier, False
    match = schedule_match(
        session,
        actor,
        league_id,
        home_team_id,
        away_team_id,
        friendly=friendly,
        idempotency_key=idempotency_key,
    )
    return record_result(session, actor, match.id, report), True


def _already_recorded(session: Session, league_id: int, key: str | None) -> Match | None:
    """The match a form with this one-time key already recorded (a double submit)."""
    if not key:
        return None
    earlier = session.scalar(select(Match).where(Match.idempotency_key == key))
    if earlier is None:
        return None
    if earlier.league_id != league_id:
        raise Conflict(gettext("This idempotency key was used for another league's match."))
    return get_match(session, earlier.id)


def record_result(
    session: Session,
    actor: User,
    match_id: int,
    report: MatchReport,
    *,
    idempotency_key: str | None = None,
    form_token: str | None = None,
    confirmed_by_both: bool = False,
) -> Match:
    """Finalise a result (or correct a played one): store the events, recompute both teams.

    `form_token` is the report form's one-time token, kept as the match's idempotency
    key: the same form sent again is refused with Resubmitted and changes nothing.
    `confirmed_by_both`: the report is the live log both coaches confirmed, in a league
    that lets such a log finalise without a commissioner (services.live_log decides).
    """
    match = get_match(session, match_id, for_update=True)
    league = get_league(session, match.league_id, collections=False, lock="share")
    if not confirmed_by_both:
        may_commission(league, actor, "record_results", session).require()
    earlier = _already_recorded(session, league.id, idempotency_key or form_token)
    if earlier is not None:
        if form_token:
            raise submissions.Resubmitted(
                gettext("This result was already recorded; the form was sent twice.")
            )
        return earlier
    if match.state == "voided":
        raise Conflict(_voided_message(session, match))
    require_open_season(match)
    correcting = match.state == "played"
    ruleset = league_ruleset(league)
    # Both teams are locked in id order, whoever plays at home: two results between the
    # same teams at once must wait for each other, not deadlock.
    locked = {
        team_id: get_team(session, team_id, for_update=True, history=False)
        for team_id in sorted(side.team_id for side in match.sides)
    }
    teams = {side.side: locked[side.team_id] for side in match.sides}
    # The pre-game's journeymen, mercenaries and stars exist before the report names them.
    sync_match_day_players(session, match)
    fans_before = dedicated_fans_before(match, teams)
    validate(session, ruleset, league, match, teams, report, fans_before)
    # Whom the result being corrected named: their caches may change with it.
    named_before = {a.player_id for a in match.players}
    ledger = match_ledger(session, match)
    if not correcting:
        _keep_team_values(match, teams)
    _store_report(
        session,
        actor,
        ruleset,
        league,
        match,
        teams,
        report,
        fans_before,
        idempotency_key or form_token,
        ledger,
    )
    session.flush()
    scope = ResultScope(match.id, frozenset(named_before | {a.player_id for a in match.players}))
    for team in teams.values():
        recompute_team(session, team, scope=scope)
        _book_match_money(session, actor, team, match, ledger)
    audit.record(
        session,
        actor,
        "match.correct" if correcting else "match.record",
        "match",
        match.id,
        score=f"{report.home.score}-{report.away.score}",
    )
    happened = domain_events.MatchCorrected if correcting else domain_events.MatchFinalised
    domain_events.record(session, happened(match.league_id, match.id))
    return match


def _store_report(
    session: Session,
    actor: User,
    ruleset: Ruleset,
    league: League,
    match: Match,
    teams: dict[str, Team],
    report: MatchReport,
    fans_before: dict[str, int],
    key: str | None,
    ledger: MatchLedger,
) -> None:
    """The report's events on the match, in place of those of a result being corrected."""
    _clear_events(session, match)
    match.state = "played"
    match.draft_report = None
    match.fan_attendance = report.fan_attendance
    match.played_at = match.played_at or datetime.now(UTC)
    match.recorded_by_id = actor.id
    if key:
        match.idempotency_key = key
    for events in report.players:
        team_id = team_of(teams, events.player_id)
        match.players.append(
            MatchPlayer(
                player_id=events.player_id,
                team_id=team_id,
                **{name: getattr(events, name) for name in COUNTERS},
                injury=events.injury,
                lasting=events.lasting,
                apothecary_used=events.apothecary_used,
            )
        )
    session.flush()
    for side in match.sides:
        _store_side(side, report.side(side.side))
        _settle_concession_fans(
            ruleset, side, report.side(side.side), fans_before[side.side], league.table_dice_allowed
        )
        _keep_drawn_mvp(match, side)
    _settle_winnings(ledger, ruleset, match, teams, report)


def _keep_team_values(match: Match, teams: dict[str, Team]) -> None:
    """Each side's team value as it takes the field: the roster page's TV
    (`rosters.team_values`, the rules' sum of the players' current values, re-rolls and
    staff) before the match's events change the roster. Only when the result is first
    recorded: a correction keeps the value the team played with (the roster already holds
    the result's effects by then), and a result recorded before the value was kept stays
    without one. The pre-game's CTV is not used: the chart shows one measure, TV, for every
    match, with or without a pre-game."""
    for side in match.sides:
        side.team_value = team_values(teams[side.side]).team_value


def _settle_winnings(
    ledger: MatchLedger, ruleset: Ruleset, match: Match, teams: dict[str, Team], report: MatchReport
) -> None:
    """Each side's winnings, and the Expensive Mistakes of the treasury they arrive in."""
    for side in match.sides:
        team = teams[side.side]
        side.winnings = _winnings(ruleset, match, side, report.side(side.side).winnings)
        # Expensive Mistakes hit the treasury the winnings arrive in, which is the
        # team's without what this match booked before (a correction), less what the
        # pre-game spent from it.
        arriving = (
            team.treasury - ledger.booked.get(team.id, 0) - ledger.spent.get(team.id, 0)
        ) + side.winnings
        _roll_mistakes(ruleset, side, report.side(side.side), arriving)


def void_match(session: Session, actor: User, match_id: int) -> Match:
    """Undo everything a result caused; the match stays in history as voided.

    A fixture (a match with a round or a date) whose result is voided is still
    to be played: it is scheduled again, in the same round between the same
    teams, as a new match that `replaces` the voided one. Voiding a fixture
    that has no result yet cancels it.
    """
    match = get_match(session, match_id, for_update=True)
    league = get_league(session, match.league_id, collections=False, lock="share")
    may_commission(league, actor, "record_results", session).require()
    if match.state == "voided":
        raise Conflict(gettext("This match is already voided."))
    require_open_season(match)
    teams = [  # in id order, like record_result: no deadlock
        get_team(session, team_id, for_update=True, history=False)
        for team_id in sorted(side.team_id for side in match.sides)
    ]
    replay = match.state == "played" and (
        match.round is not None or match.scheduled_for is not None
    )
    match.state = "voided"
    match.voided_at = datetime.now(UTC)
    match.voided_by_id = actor.id
    undo_departures(match)
    session.flush()
    scope = ResultScope(match.id, frozenset(a.player_id for a in match.players))
    ledger = match_ledger(session, match)
    for team in teams:
        recompute_team(session, team, scope=scope)
        _book_match_money(session, actor, team, match, ledger)
    if replay:
        again = Match(
            league_id=match.league_id,
            season_id=match.season_id,
            round=match.round,
            scheduled_for=match.scheduled_for,
            friendly=match.friendly,
            state="scheduled",
            replaces_id=match.id,
        )
        again.sides = [MatchTeam(team_id=side.team_id, side=side.side) for side in match.sides]
        session.add(again)
        session.flush()
    audit.record(session, actor, "match.void", "match", match.id)
    domain_events.record(session, domain_events.MatchVoided(match.league_id, match.id))
    return match


def replacement_of(session: Session, match: Match) -> Match | None:
    """The match that plays a voided fixture again, if there is one."""
    return session.scalar(select(Match).where(Match.replaces_id == match.id))


def voided_before(match: Match) -> list[Match]:
    """The voided matches this fixture replays, latest first."""
    earlier: list[Match] = []
    current = match.replaces
    while current is not None:
        earlier.append(current)
        current = current.replaces
    return earlier


def _voided_message(session: Session, match: Match) -> str:
    again = replacement_of(session, match)
    if again is not None:
        return gettext(
            "This result was voided; the fixture is played again as match #%(id)s.", id=again.id
        )
    return gettext("This match was voided; schedule a new one instead.")


def _clear_events(session: Session, match: Match) -> None:
    """Remove the player events of a result being corrected."""
    for appearance in list(match.players):
        match.players.remove(appearance)
        session.delete(appearance)
    session.flush()  # the new rows reuse (match, player) pairs: delete first


def _keep_drawn_mvp(match: Match, side: MatchTeam) -> None:
    """A correction keeps the MVP drawn after the result (BB2025) unless it names one itself."""
    if side.mvp_draw is None:
        return
    lines = [a for a in match.players if a.team_id == side.team_id]
    if any(a.mvp for a in lines):
        return
    drawn = side.mvp_draw["nominees"][side.mvp_draw["die"] - 1]
    line = next((a for a in lines if a.player_id == drawn), None)
    if line is None:
        match.players.append(MatchPlayer(player_id=drawn, team_id=side.team_id, mvp=1))
    else:
        line.mvp = 1


def _store_side(side: MatchTeam, entered: SideReport) -> None:
    """One side of the report as entered: the score and the post-game inputs."""
    side.score = entered.score
    side.conceded = entered.conceded
    side.fans_change = entered.fans_change
    side.winnings_d6 = entered.winnings_d6
    side.fame = entered.fame
    side.stalled = entered.stalled
    # Typed winnings stand; otherwise they are the formula's, worked out again on a correction.
    side.winnings_entered = entered.winnings is not None and not entered.conceded


def _settle_concession_fans(
    ruleset: Ruleset, side: MatchTeam, entered: SideReport, fans_before: int, table_dice: bool
) -> None:
    """A conceding team's Dedicated Fans loss: the table's, entered as the change where the
    league lets coaches enter dice, else the server's roll, made once and kept through
    corrections (worked out again from the fans the team had before the match)."""
    dice = ruleset.team_building.dedicated_fans.concession_loss
    if not side.conceded or dice is None:
        side.concession_fans_roll = None
        return
    kept = side.concession_fans_roll
    if kept is not None and entered.fans_change == concession_fans_change(
        ruleset, fans_before, kept
    ):
        return  # a correction sending the server's loss back as it was
    if table_dice and entered.fans_change:
        side.concession_fans_roll = None
        return
    if side.concession_fans_roll is None:
        side.concession_fans_roll = roll(dice, random.randint)
    side.fans_change = concession_fans_change(ruleset, fans_before, side.concession_fans_roll)


def _roll_mistakes(ruleset: Ruleset, side: MatchTeam, entered: SideReport, treasury: int) -> None:
    """Expensive Mistakes on `treasury`, the outcome and loss worked out again each time.

    The dice of record stay (a correction does not roll again) unless the
    commissioner types new ones; the server rolls only what was never rolled.
    """
    rules = ruleset.expensive_mistakes
    if side.mistake is not None and side.mistake_d6 is None and entered.mistake_d6 is None:
        return  # recorded before the dice were kept: nothing to recompute it from
    if rules is None or treasury < rules.min_treasury:
        side.mistake, side.mistake_loss, side.mistake_treasury = None, 0, None
        side.mistake_d6, side.mistake_rolled = None, False
        side.mistake_roll, side.mistake_dice = None, None
        return
    if entered.mistake_d6 is not None:
        side.mistake_d6, side.mistake_rolled = entered.mistake_d6, False
    elif side.mistake_d6 is None:
        side.mistake_d6, side.mistake_rolled = random.randint(1, rules.row_die), True  # noqa: S311
    outcome = expensive_mistake(ruleset, treasury, side.mistake_d6)
    dice = rules.dice_for(outcome)
    kept = side.mistake is not None and rules.dice_for(side.mistake) == dice
    if dice is None:
        side.mistake_roll, side.mistake_dice = None, None
    elif entered.mistake_dice is not None:
        side.mistake_roll, side.mistake_dice = entered.mistake_dice, None
    elif not (kept and side.mistake_roll is not None):
        each = roll_each(dice, random.randint)
        side.mistake_roll, side.mistake_dice = sum(each), list(each)
    side.mistake = outcome
    side.mistake_treasury = treasury
    side.mistake_loss = expensive_mistake_loss(ruleset, outcome, treasury, side.mistake_roll or 0)


def _winnings(ruleset: Ruleset, match: Match, side: MatchTeam, typed: int | None) -> int:
    """Gold won: typed, else the formula's (0 without a formula or with its inputs missing)."""
    if side.conceded:
        return 0
    if typed is not None:
        return typed
    return formula_winnings(ruleset, match, side)


@dataclass(frozen=True, slots=True)
class MatchLedger:
    """Per team of a match: what its ledger holds for the match so far (`booked`), and what
    its pre-game spends from the treasury (`spent`, petty cash aside). Read once per write,
    two statements for both teams: a write books only the match's own rows, team by team."""

    booked: Mapping[int, int]
    spent: Mapping[int, int]


def match_ledger(session: Session, match: Match) -> MatchLedger:
    booked = session.execute(
        select(TreasuryEntry.team_id, func.sum(TreasuryEntry.amount))
        .where(TreasuryEntry.match_id == match.id)
        .group_by(TreasuryEntry.team_id)
    )
    spent = session.execute(
        select(PregameSide.team_id, func.sum(PregameSide.treasury_spent))
        .where(PregameSide.match_id == match.id)
        .group_by(PregameSide.team_id)
    )
    return MatchLedger(
        {team_id: int(total or 0) for team_id, total in booked},
        {team_id: int(total or 0) for team_id, total in spent},
    )


def match_money(ledger: MatchLedger, team: Team, match: Match) -> int:
    """What the ledger must hold for this match: winnings less mistakes and inducements.

    Nothing for a match that is not played (a voided one gives everything back).
    """
    if match.state != "played":
        return 0
    side = next(s for s in match.sides if s.team_id == team.id)
    return side.winnings - side.mistake_loss - ledger.spent.get(team.id, 0)


def _book_match_money(
    session: Session, actor: User, team: Team, match: Match, ledger: MatchLedger
) -> None:
    """Make the ledger's rows for this match add up to what the result says now.

    The first booking writes one row per cause (winnings, expensive mistakes, the
    treasury the pre-game spent on inducements, stars and mercenaries: petty cash
    is never booked); a correction or a void books the difference.
    """
    side = next(s for s in match.sides if s.team_id == team.id)
    wanted = match_money(ledger, team, match)
    booked = ledger.booked.get(team.id, 0)
    if wanted == booked:
        return
    if booked == 0 and match.state == "played":
        spent = ledger.spent.get(team.id, 0)
        if spent:
            # Bought before the kick-off; the winnings arrive in what is left.
            with unless_spent(
                "inducements_unpaid",
                N_("%(team)s no longer has the gold its pre-game spent: %(reason)s"),
                team=team.name,
            ):
                post_entry(
                    session,
                    team,
                    actor,
                    -spent,
                    "inducements",
                    f"Inducements, star players and mercenaries, match #{match.id}",
                    match_id=match.id,
                )
        if side.winnings:
            post_entry(
                session,
                team,
                actor,
                side.winnings,
                "winnings",
                f"Winnings, match #{match.id}",
                match_id=match.id,
            )
        if side.mistake_loss:
            post_entry(
                session,
                team,
                actor,
                -side.mistake_loss,
                "mistake",
                f"Expensive mistakes ({side.mistake}), match #{match.id}",
                match_id=match.id,
            )
        return
    what = "voided" if match.state == "voided" else "corrected"
    with unless_spent(
        "winnings_spent",
        N_("%(team)s has already spent gold this match brought in: %(reason)s"),
        team=team.name,
    ):
        post_entry(
            session,
            team,
            actor,
            wanted - booked,
            "correction",
            f"Match #{match.id} {what}",
            match_id=match.id,
        )


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One match in a player's history."""

    match: Match
    opponent: Team
    score: str
    events: MatchPlayer


def player_history(session: Session, player: Player, number: int | None) -> Page[HistoryLine]:
    """Page `number` of the played matches a player took part in, newest first: one
    statement, the line with its match, both scores and the opponent (`page_in_sql`)."""
    own, other = aliased(MatchTeam), aliased(MatchTeam)
    appearances = (
        select(MatchPlayer, Match, own.score, other.score, Team)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(own, and_(own.match_id == Match.id, own.team_id == MatchPlayer.team_id))
        .join(other, and_(other.match_id == Match.id, other.team_id != MatchPlayer.team_id))
        .join(Team, Team.id == other.team_id)
        .where(MatchPlayer.player_id == player.id, Match.state == "played")
        .order_by(Match.played_at.desc(), Match.id.desc())
    )
    return page_in_sql(session, appearances, number).map(
        lambda row: HistoryLine(row[1], row[4], f"{row[2]}-{row[3]}", row[0])
    )
