"""A match report and its checks: what one match's result says, and whether it may stand.

The report (`MatchReport`, a `SideReport` per side, a `PlayerEvents` per player) is what
the pages, the API and the seeders hand to `matches.record_result`; `validate` finds every
problem of it at once (`ReportErrors`, keyed by form field) before anything is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext, ngettext
from league.models import League, Match, MatchPlayer, Player, PlayerOpening, Team
from league.models.match import SIDES
from league.rules import Ruleset
from league.rules.competitions import SideResult
from league.rules.injuries import injury_entry_decision
from league.rules.refusals import refusal_text
from league.rules.team_building import fans_change_decision
from league.services.errors import RuleViolation
from league.services.labels import player_status_label
from league.services.postgame import missing_this_match
from league.services.standings import outcome_of

COUNTERS = (
    "td",
    "cas",
    "comp",
    "interceptions",
    "deflection",
    "throw_completion",
    "safe_landing",
    "mvp",
)


#: A report's per-player counters: API name -> PlayerEvents field.
API_COUNTERS = {
    "td": "td",
    "cas": "cas",
    "comp": "comp",
    "int": "interceptions",
    "deflection": "deflection",
    "throw_completion": "throw_completion",
    "safe_landing": "safe_landing",
}


@dataclass(frozen=True, slots=True)
class PlayerEvents:
    """What one player did in the match, as entered."""

    player_id: int
    td: int = 0
    cas: int = 0
    comp: int = 0
    interceptions: int = 0
    deflection: int = 0
    throw_completion: int = 0
    safe_landing: int = 0
    mvp: int = 0
    injury: str | None = None
    lasting: str | None = None
    apothecary_used: bool = False


@dataclass(frozen=True, slots=True)
class SideReport:
    """One team's side of the result and of the post-game sequence."""

    score: int = 0
    conceded: bool = False
    #: Gold won; None: the edition's formula (or 0 when its inputs are missing).
    winnings: int | None = None
    #: Dedicated Fans: -1, 0 or +1; a conceding team's loss of D3 as rolled at the
    #: table (0: the server rolls it, or the league's server dice do).
    fans_change: int = 0
    #: BB2025: a player of this team stalled (no +1 winnings).
    stalled: bool = False
    #: Classic winnings: the D6 and the team's FAME.
    winnings_d6: int | None = None
    fame: int = 0
    #: Expensive Mistakes dice when the treasury triggers them (None: the server rolls).
    mistake_d6: int | None = None
    mistake_dice: int | None = None


@dataclass(frozen=True, slots=True)
class MatchReport:
    home: SideReport
    away: SideReport
    players: tuple[PlayerEvents, ...] = ()
    fan_attendance: int | None = None

    def side(self, side: str) -> SideReport:
        return self.home if side == "home" else self.away


class ReportErrors(RuleViolation):
    """Every problem of a report at once, keyed by form field (empty key: whole report)."""

    code = "invalid_report"


def team_of(teams: dict[str, Team], player_id: int) -> int:
    for team in teams.values():
        if any(p.id == player_id for p in team.players):
            return team.id
    raise RuleViolation(gettext("Player %(id)s plays for neither team.", id=player_id))


def validate(
    session: Session,
    ruleset: Ruleset,
    league: League,
    match: Match,
    teams: dict[str, Team],
    report: MatchReport,
    fans_before: dict[str, int],
) -> None:
    """Check a report against the match, its teams and the rules: every problem at once."""
    errors = ReportErrors()
    _check_sides(report, errors)
    tds, mvps = _check_players(session, ruleset, match, teams, report, errors)
    _check_totals(ruleset, teams, report, tds, mvps, errors)
    _validate_fans(ruleset, league, match, report, fans_before, errors)
    if errors.problems:
        raise errors


def _check_sides(report: MatchReport, errors: ReportErrors) -> None:
    """The scores, winnings, concession and attendance, as numbers."""
    for side in SIDES:
        if report.side(side).score < 0:
            errors.add(f"{side}_score", gettext("A score cannot be negative."))
        winnings = report.side(side).winnings
        if winnings is not None and winnings < 0:
            errors.add(f"{side}_winnings", gettext("Winnings cannot be negative."))
    if report.home.conceded and report.away.conceded:
        errors.add("home_conceded", gettext("Only one team can concede."))
    if report.fan_attendance is not None and report.fan_attendance < 0:
        errors.add("fan_attendance", gettext("Fan attendance cannot be negative."))


def _check_players(
    session: Session,
    ruleset: Ruleset,
    match: Match,
    teams: dict[str, Team],
    report: MatchReport,
    errors: ReportErrors,
) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's line; the touchdowns and MVPs each side's players add up to."""
    seen: set[int] = set()
    tds = dict.fromkeys(SIDES, 0)
    mvps = dict.fromkeys(SIDES, 0)
    by_player = {p.id: (side, p) for side, team in teams.items() for p in team.players}
    dead_elsewhere = _dead_before(session, match, [events.player_id for events in report.players])
    missing = set().union(*(missing_this_match(session, match, team) for team in teams.values()))
    # A correction may keep players who were fired or retired after this match.
    played_before = (
        {appearance.player_id for appearance in match.players} if match.state == "played" else set()
    )
    for events in report.players:
        key = f"player_{events.player_id}"
        if events.player_id in seen:
            errors.add(key, gettext("This player is listed twice."))
            continue
        seen.add(events.player_id)
        found = by_player.get(events.player_id)
        if found is None:
            errors.add(
                key,
                gettext("Player %(id)s plays for neither team in this match.", id=events.player_id),
            )
            continue
        side, player = found
        left_later = player.status in ("fired", "retired") and events.player_id not in played_before
        _check_player(
            match,
            player,
            events,
            key,
            errors,
            unable=left_later or events.player_id in dead_elsewhere,
            missing=events.player_id in missing,
        )
        tds[side] += max(events.td, 0)
        mvps[side] += max(events.mvp, 0)
        _validate_injury(ruleset, player, events, key, errors)
    return tds, mvps


def _check_player(
    match: Match,
    player: Player,
    events: PlayerEvents,
    key: str,
    errors: ReportErrors,
    *,
    unable: bool,
    missing: bool,
) -> None:
    """One player's line: whether the player may play, the counters, MVP."""
    if unable:
        errors.add(
            key,
            gettext(
                "%(name)s is %(status)s and cannot play.",
                name=player.name,
                status=player_status_label(player.status),
            ),
        )
    elif missing:
        errors.add(
            key,
            gettext("%(name)s misses this match (injured in the one before).", name=player.name),
        )
    for name in COUNTERS:
        if getattr(events, name) < 0:
            errors.add(
                key,
                gettext(
                    "%(name)s: %(counter)s cannot be negative.", name=player.name, counter=name
                ),
            )
    if player.match_day_only and player.match_day_match_id != match.id:
        errors.add(
            key,
            gettext(
                "%(name)s was taken on for match #%(match)d only.",
                name=player.name,
                match=player.match_day_match_id or 0,
            ),
        )
    if player.status == "star" and events.mvp > 0:
        errors.add(key, gettext("%(name)s is a star player: no MVP.", name=player.name))


def _check_totals(
    ruleset: Ruleset,
    teams: dict[str, Team],
    report: MatchReport,
    tds: dict[str, int],
    mvps: dict[str, int],
    errors: ReportErrors,
) -> None:
    """Each side's score against its players' touchdowns, its MVPs against the rules."""
    for side in SIDES:
        team = teams[side]
        # Every touchdown is some player's (rostered, journeyman, mercenary or star): a score
        # the players' touchdowns do not add up to would pay winnings nobody scored.
        if tds[side] != report.side(side).score:
            errors.add(
                f"{side}_score",
                ngettext(
                    "The players of %(team)s scored %(num)d touchdown but the score says "
                    "%(score)s.",
                    "The players of %(team)s scored %(num)d touchdowns but the score says "
                    "%(score)s.",
                    tds[side],
                    team=team.name,
                    score=report.side(side).score,
                ),
            )
        allowed = ruleset.spp.mvps_per_team
        other = "away" if side == "home" else "home"
        if report.side(other).conceded:
            allowed += ruleset.spp.extra_mvps_on_concession
        if mvps[side] > allowed:
            errors.add(
                f"{side}_mvp",
                ngettext(
                    "%(team)s has %(num)d MVP; %(ruleset)s allows %(allowed)s.",
                    "%(team)s has %(num)d MVPs; %(ruleset)s allows %(allowed)s.",
                    mvps[side],
                    team=team.name,
                    ruleset=ruleset.name,
                    allowed=allowed,
                ),
            )


def _validate_injury(
    ruleset: Ruleset, player: Player, events: PlayerEvents, key: str, errors: ReportErrors
) -> None:
    decision = injury_entry_decision(ruleset, events.injury, events.lasting)
    if not decision:
        errors.add(
            key,
            gettext(
                "%(name)s: %(reason)s",
                name=player.name,
                reason=refusal_text(decision.reasons[0]),
            ),
        )


def dedicated_fans_before(match: Match, teams: dict[str, Team]) -> dict[str, int]:
    """Each side's Dedicated Fans before this match (a correction takes its change back)."""
    played = match.state == "played"
    return {
        side: teams[side].dedicated_fans - (match.side(side).fans_change if played else 0)
        for side in SIDES
    }


def _validate_fans(
    ruleset: Ruleset,
    league: League,
    match: Match,
    report: MatchReport,
    fans_before: dict[str, int],
    errors: ReportErrors,
) -> None:
    """Each side's change of Dedicated Fans against its outcome of the match."""
    concession_dice = ruleset.team_building.dedicated_fans.concession_loss
    for side in SIDES:
        other = "away" if side == "home" else "home"
        entered = report.side(side)
        result = outcome_of(
            league,
            SideResult(entered.score, entered.conceded),
            SideResult(report.side(other).score, report.side(other).conceded),
        )
        change = entered.fans_change
        if result.conceded and concession_dice is not None:
            if change == 0:
                continue  # the server rolls the loss
            recorded = match.state == "played" and match.side(side).fans_change == change
            if not league.table_dice_allowed and not recorded:
                errors.add(
                    f"{side}_fans_change",
                    gettext(
                        "This league's dice are rolled by the server: leave the change at 0 "
                        "and the server rolls the conceding team's loss."
                    ),
                )
                continue
        decision = fans_change_decision(
            ruleset, change, fans_before[side], result=result.result, conceded=result.conceded
        )
        for reason in decision.reasons:
            errors.add(f"{side}_fans_change", refusal_text(reason))


def _dead_before(session: Session, match: Match, player_ids: Iterable[int]) -> set[int]:
    """Players killed in another played match that came before this one."""
    ids = list(player_ids)
    if not ids:
        return set()
    query = (
        select(MatchPlayer.player_id)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(
            MatchPlayer.player_id.in_(ids),
            MatchPlayer.injury == "dead",
            Match.state == "played",
            Match.id != match.id,
        )
    )
    if match.played_at is not None:
        query = query.where(Match.played_at < match.played_at)
    # Imported players who died in their previous league.
    imported = select(PlayerOpening.player_id).where(
        PlayerOpening.player_id.in_(ids), PlayerOpening.status == "dead"
    )
    return set(session.scalars(query)) | set(session.scalars(imported))
