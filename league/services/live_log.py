"""The live match log: the two coaches log the match as it is played, and the report
writes itself.

Each coach logs their own side's events (a commissioner either side); each event
carries the id its phone made, so a retry after a lost answer stores it once (the
unique constraint on match and client id settles two copies sent at the same moment:
the unit of work turns the loser's violation into ConcurrentChange, and the caller
reads the winner's event). A coach undoes their own event, disputes one of the other
side's; each side confirms; both confirmed, the log is the report draft
(`report_draft`), which a commissioner finalises (`finalise`) exactly as a report sent
to `matches.record_result`, or, where the league lets it, the second confirmation does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import gettext
from league.models import Match, MatchLogEvent, MatchTeam, Player, User
from league.models.match import SIDES
from league.rules import Ruleset
from league.rules.injuries import injury_entry_decision
from league.rules.live_log import (
    COUNTER_OF_KIND,
    INJURY_KINDS,
    PLAYERLESS_KINDS,
    log_kinds,
    roll_casualty,
)
from league.rules.refusals import refusal_text
from league.services import audit
from league.services.access import (
    can_manage,
    get_league,
    league_ruleset,
    require_commissioner,
    role_in,
)
from league.services.errors import Conflict, Forbidden, NotFound, RuleViolation
from league.services.matches import (
    API_COUNTERS,
    MatchReport,
    PlayerEvents,
    SideReport,
    get_match,
    record_result,
)
from league.services.postgame import missing_this_match

#: Match states whose log may still change.
OPEN_STATES = ("scheduled", "draft")
#: Report counters (PlayerEvents field) of each counter kind's API name.
_FIELD_OF_COUNTER = {**API_COUNTERS, "mvp": "mvp"}


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One event as a phone sends it."""

    client_id: str
    side: str
    kind: str
    half: int
    turn: int
    player_id: int | None = None
    victim_id: int | None = None
    injury: str | None = None
    lasting: str | None = None


@dataclass(frozen=True, slots=True)
class LogView:
    """The log of a match, as the page and the API show it."""

    match: Match
    state: str
    score: dict[str, int]
    confirmed: dict[str, bool]
    events: list[MatchLogEvent]
    kinds: tuple[str, ...]
    #: Both sides confirmed (or final): the report body the log gives.
    report: dict[str, Any] | None = None
    stalled: dict[str, bool] = field(default_factory=dict)


def other(side: str) -> str:
    return "away" if side == "home" else "home"


# ---------------------------------------------------------------------------
# Reading


def _events(session: Session, match_id: int) -> list[MatchLogEvent]:
    """The match's events, in match order (half, turn), then in the order they were logged."""
    return list(
        session.scalars(
            select(MatchLogEvent)
            .where(MatchLogEvent.match_id == match_id)
            .options(selectinload(MatchLogEvent.player), selectinload(MatchLogEvent.victim))
            .order_by(
                MatchLogEvent.half, MatchLogEvent.turn, MatchLogEvent.created_at, MatchLogEvent.id
            )
        )
    )


def log_state(match: Match) -> str:
    if match.state not in OPEN_STATES:
        return "final"
    if all(side.log_confirmed_at is not None for side in match.sides):
        return "confirmed"
    return "open"


def _view(session: Session, match: Match) -> LogView:
    events = _events(session, match.id)
    ruleset = league_ruleset(match.league)
    state = log_state(match)
    report = report_draft(events) if state != "open" else None
    return LogView(
        match=match,
        state=state,
        score=_scores(events),
        confirmed={side.side: side.log_confirmed_at is not None for side in match.sides},
        events=events,
        kinds=log_kinds(ruleset),
        report=report,
        stalled=_stalled(events),
    )


def next_open_match(session: Session, team_id: int) -> int | None:
    """The team's next match still to be played (the one whose log its coach keeps on
    match day): the earliest by date, undated fixtures last."""
    return session.scalar(
        select(Match.id)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .where(MatchTeam.team_id == team_id, Match.state.in_(OPEN_STATES))
        .order_by(Match.scheduled_for.is_(None), Match.scheduled_for, Match.id)
        .limit(1)
    )


def logged_events(session: Session, match: Match) -> list[MatchLogEvent]:
    """The match's log for its page: no query when nothing was logged."""
    return _events(session, match.id) if match.log_events else []


def get_log(session: Session, match_id: int) -> LogView:
    """The log of a match (anyone who may see the match may read it)."""
    return _view(session, get_match(session, match_id))


def log_version(session: Session, match_id: int) -> str:
    """A fingerprint of the log and its confirmations (an ETag: polling phones ask with it)."""
    state = session.scalar(select(Match.state).where(Match.id == match_id))
    if state is None:
        raise NotFound(gettext("There is no match number %(id)s.", id=match_id))
    confirmed = session.execute(
        select(MatchTeam.side, MatchTeam.log_confirmed_at)
        .where(MatchTeam.match_id == match_id)
        .order_by(MatchTeam.side)
    )
    events = session.execute(
        select(MatchLogEvent.id, MatchLogEvent.disputed)
        .where(MatchLogEvent.match_id == match_id)
        .order_by(MatchLogEvent.id)
    )
    parts = [state, *(f"{side}:{at}" for side, at in confirmed)]
    parts += [f"{event_id}:{int(disputed)}" for event_id, disputed in events]
    return "|".join(parts)


# ---------------------------------------------------------------------------
# The report the log gives


def _tally(events: Iterable[MatchLogEvent]) -> dict[int, dict[str, Any]]:
    """Per player: the report's counters, injury and lasting characteristic."""
    players: dict[int, dict[str, Any]] = {}

    def line(player_id: int) -> dict[str, Any]:
        return players.setdefault(
            player_id, {**dict.fromkeys(_FIELD_OF_COUNTER.values(), 0), "injury": None}
        )

    for event in events:
        counter = COUNTER_OF_KIND.get(event.kind)
        if counter is not None and event.player_id is not None:
            line(event.player_id)[_FIELD_OF_COUNTER[counter]] += 1
        if event.kind in INJURY_KINDS:
            injured = event.victim_id if event.kind == "cas" else event.player_id
            if injured is not None and event.injury is not None:
                # The log's last injury of a player is the one the report keeps.
                line(injured).update(injury=event.injury, lasting=event.lasting)
    return players


def _player_events(events: Iterable[MatchLogEvent]) -> tuple[PlayerEvents, ...]:
    return tuple(
        PlayerEvents(
            player_id=player_id,
            **{name: counters[name] for name in _FIELD_OF_COUNTER.values()},
            injury=counters["injury"],
            lasting=counters.get("lasting"),
        )
        for player_id, counters in sorted(_tally(events).items())
    )


def _scores(events: Iterable[MatchLogEvent]) -> dict[str, int]:
    """Each side's score: its logged touchdowns."""
    tds = [e.side for e in events if e.kind == "td"]
    return {side: tds.count(side) for side in SIDES}


def _conceded(events: Iterable[MatchLogEvent]) -> str | None:
    return next((e.side for e in events if e.kind == "concession"), None)


def _stalled(events: Iterable[MatchLogEvent]) -> dict[str, bool]:
    kinds = {(e.side, e.kind) for e in events}
    return {side: (side, "stalling") in kinds for side in SIDES}


def report_draft(events: list[MatchLogEvent]) -> dict[str, Any]:
    """The report body (as `POST /matches/{id}/result` takes it) the log gives."""
    scores = _scores(events)
    body: dict[str, Any] = {
        "home_score": scores["home"],
        "away_score": scores["away"],
        "players": [
            {
                "player_id": line.player_id,
                **{counter: getattr(line, name) for counter, name in _FIELD_OF_COUNTER.items()},
                "mvp": line.mvp > 0,
                "injury": line.injury,
                "lasting": line.lasting,
            }
            for line in _player_events(events)
        ],
    }
    conceded = _conceded(events)
    if conceded is not None:
        body["conceded"] = conceded
    stalled = _stalled(events)
    if any(stalled.values()):
        body["stalled"] = stalled
    return body


def _report(events: list[MatchLogEvent]) -> MatchReport:
    """The service's command for the draft `report_draft` gives (and who stalled)."""
    conceded, stalled = _conceded(events), _stalled(events)
    tds = _scores(events)
    sides = {
        side: SideReport(score=tds[side], conceded=conceded == side, stalled=stalled[side])
        for side in SIDES
    }
    return MatchReport(home=sides["home"], away=sides["away"], players=_player_events(events))


# ---------------------------------------------------------------------------
# Writing


def _open_match(session: Session, match_id: int) -> Match:
    match = get_match(session, match_id, for_update=True)
    get_league(session, match.league_id)  # with its members, whom can_manage asks about
    return match


def _require_open(match: Match) -> None:
    if match.state not in OPEN_STATES:
        raise Conflict(gettext("This match already has a final result; its log is read-only."))


def _require_side(match: Match, side: str, actor: User) -> MatchTeam:
    played = match.side(side)
    if not can_manage(played.team, actor):
        raise Forbidden(
            gettext(
                "Only %(team)s's coach or a commissioner can log its events.",
                team=played.team.name,
            )
        )
    return played


def _unconfirm(match: Match) -> None:
    """A changed log needs both confirmations again."""
    for side in match.sides:
        side.log_confirmed_at = None


def _same(event: MatchLogEvent, entry: LogEntry) -> bool:
    stored = (event.side, event.kind, event.player_id, event.victim_id, event.half, event.turn)
    sent = (entry.side, entry.kind, entry.player_id, entry.victim_id, entry.half, entry.turn)
    if stored != sent:
        return False
    if event.rolled:  # the phone sent no injury; the server rolled it
        return entry.injury is None and entry.lasting is None
    return (event.injury, event.lasting) == (entry.injury, entry.lasting)


def _stored(session: Session, match_id: int, client_id: str) -> MatchLogEvent | None:
    return session.scalar(
        select(MatchLogEvent).where(
            MatchLogEvent.match_id == match_id, MatchLogEvent.client_id == client_id
        )
    )


def repeated_event(session: Session, match_id: int, entry: LogEntry) -> MatchLogEvent | None:
    """The event stored earlier with this client id, if its body is the same one; a
    different body under the same id is a Conflict."""
    event = _stored(session, match_id, entry.client_id)
    if event is None:
        return None
    if not _same(event, entry):
        raise Conflict(
            gettext("An event with this id was logged already, with other details."),
            field="id",
            code="event_id_taken",
        )
    return event


def side_players(session: Session, match: Match, side: str) -> list[Player]:
    """Who plays for a side in this match, by shirt number: its roster less those who must
    miss it, and the match's journeymen, mercenaries and star players (the pre-game made
    them, `postgame.sync_match_day_players`)."""
    team = match.side(side).team
    missing = missing_this_match(session, match, team)
    return sorted(
        (
            p
            for p in team.players
            if (p.on_roster and p.id not in missing)
            or (p.match_day_only and p.match_day_match_id == match.id)
        ),
        key=lambda p: (p.number, p.id),
    )


class EventRefused(RuleViolation):
    """The rules refuse a member of a logged event (named by `field`)."""

    code = "invalid_event"


def _refuse(field_name: str, message: str) -> EventRefused:
    return EventRefused(message, field=field_name)


def _check_players(session: Session, match: Match, entry: LogEntry) -> dict[str, Player]:
    """The entry's player (of its side) and victim (of the other), refused by field."""
    found: dict[str, Player] = {}
    wanted = {"player_id": (entry.player_id, entry.side)}
    if entry.kind == "cas":
        if entry.victim_id is None:
            raise _refuse("victim_id", gettext("Say which player was hurt."))
        wanted["victim_id"] = (entry.victim_id, other(entry.side))
    elif entry.victim_id is not None:
        raise _refuse("victim_id", gettext("Only a casualty names a victim."))
    if entry.kind in PLAYERLESS_KINDS:
        if entry.player_id is not None:
            raise _refuse("player_id", gettext("A concession names no player."))
        return found
    if entry.player_id is None:
        raise _refuse("player_id", gettext("Say which player."))
    for name, (player_id, side) in wanted.items():
        team = match.side(side).team
        player = next((p for p in side_players(session, match, side) if p.id == player_id), None)
        if player is None:
            raise _refuse(
                name,
                gettext(
                    "Player %(id)s does not play for %(team)s in this match.",
                    id=player_id,
                    team=team.name,
                ),
            )
        found[name] = player
    if entry.kind == "mvp" and found["player_id"].status == "star":
        raise _refuse(
            "player_id",
            gettext("%(name)s is a star player: no MVP.", name=found["player_id"].name),
        )
    return found


def _injury(
    ruleset: Ruleset,
    table_dice: bool,
    entry: LogEntry,
    injured: Player | None,
    randint: Callable[[int, int], int],
) -> tuple[str | None, str | None, list[int] | None]:
    """The event's injury, lasting characteristic and the server's dice (None: entered)."""
    if entry.kind not in INJURY_KINDS or injured is None:
        if entry.injury is not None or entry.lasting is not None:
            raise _refuse("injury", gettext("Only a casualty or an injury carries an injury."))
        return None, None, None
    if entry.injury is None:
        if entry.lasting is not None:
            decision = injury_entry_decision(ruleset, None, entry.lasting)
            raise _refuse("lasting", refusal_text(decision.reasons[0]))
        rolled = roll_casualty(ruleset, randint, injured.niggling_injuries)
        return rolled.injury, rolled.lasting, list(rolled.dice)
    if not table_dice:
        raise _refuse(
            "injury",
            gettext("This league's server rolls the injuries: leave the injury out."),
        )
    decision = injury_entry_decision(ruleset, entry.injury, entry.lasting)
    if not decision:
        reason = decision.reasons[0]
        raise _refuse(
            "injury" if reason.code == "unknown_injury" else "lasting", refusal_text(reason)
        )
    return entry.injury, entry.lasting, None


def log_event(
    session: Session,
    actor: User,
    match_id: int,
    entry: LogEntry,
    *,
    randint: Callable[[int, int], int] | None = None,
) -> tuple[MatchLogEvent, bool]:
    """Log one event; (the event, whether it is new). The same id with the same body gives
    the stored event back; with another body, Conflict."""
    match = _open_match(session, match_id)
    _require_side(match, entry.side, actor)
    earlier = repeated_event(session, match.id, entry)
    if earlier is not None:
        return earlier, False
    _require_open(match)
    ruleset = league_ruleset(match.league)
    if entry.kind not in log_kinds(ruleset):
        raise _refuse(
            "kind",
            gettext(
                "%(ruleset)s has no such event: %(kind)s.", ruleset=ruleset.name, kind=entry.kind
            ),
        )
    found = _check_players(session, match, entry)
    injured = found.get("victim_id" if entry.kind == "cas" else "player_id")
    injury, lasting, dice = _injury(
        ruleset,
        match.league.table_dice_allowed,
        entry,
        injured,
        randint or random.SystemRandom().randint,
    )
    event = MatchLogEvent(
        match_id=match.id,
        client_id=entry.client_id,
        side=entry.side,
        kind=entry.kind,
        player_id=entry.player_id,
        victim_id=entry.victim_id,
        injury=injury,
        lasting=lasting,
        dice=dice,
        half=entry.half,
        turn=entry.turn,
        logged_by_id=actor.id,
    )
    session.add(event)
    match.log_events += 1
    _unconfirm(match)
    session.flush()
    audit.record(session, actor, "match.log", "match", match.id, event=event.id, kind=entry.kind)
    return event, True


def _event_of(session: Session, match: Match, event_id: int) -> MatchLogEvent:
    event = session.get(MatchLogEvent, event_id)
    if event is None or event.match_id != match.id:
        raise NotFound(gettext("This match has no logged event number %(id)s.", id=event_id))
    return event


def _commissioner(match: Match, actor: User) -> bool:
    return role_in(match.league, actor) == "commissioner"


def delete_event(session: Session, actor: User, match_id: int, event_id: int) -> None:
    """Take an event back (who logged it, or a commissioner)."""
    match = _open_match(session, match_id)
    event = _event_of(session, match, event_id)
    if event.logged_by_id != actor.id and not _commissioner(match, actor):
        raise Forbidden(gettext("Only who logged this event or a commissioner can take it back."))
    _require_open(match)
    session.delete(event)
    match.log_events -= 1
    _unconfirm(match)
    audit.record(session, actor, "match.log_delete", "match", match.id, event=event_id)


def dispute_event(session: Session, actor: User, match_id: int, event_id: int) -> MatchLogEvent:
    """Flag one of the other side's events (its coach, or a commissioner) until who logged
    it takes it back or a commissioner keeps it."""
    match = _open_match(session, match_id)
    event = _event_of(session, match, event_id)
    if not can_manage(match.side(other(event.side)).team, actor):
        raise Forbidden(gettext("Only the other side's coach or a commissioner can dispute it."))
    _require_open(match)
    event.disputed = True
    _unconfirm(match)
    audit.record(session, actor, "match.log_dispute", "match", match.id, event=event_id)
    return event


def keep_event(session: Session, actor: User, match_id: int, event_id: int) -> MatchLogEvent:
    """A commissioner decides a disputed event stands."""
    match = _open_match(session, match_id)
    event = _event_of(session, match, event_id)
    if not _commissioner(match, actor):
        raise Forbidden(gettext("Only a commissioner can settle a dispute."))
    _require_open(match)
    event.disputed = False
    audit.record(session, actor, "match.log_keep", "match", match.id, event=event_id)
    return event


def confirm_side(session: Session, actor: User, match_id: int, side: str) -> LogView:
    """A coach confirms their side of the log; once both have, the log is the report draft,
    which finalises the result at once where the league lets two confirmed logs do so."""
    match = _open_match(session, match_id)
    played = _require_side(match, side, actor)
    _require_open(match)
    events = _events(session, match.id)
    if any(e.disputed for e in events):
        raise Conflict(
            gettext("A disputed event must be settled before the log is confirmed."),
            field="side",
        )
    if played.log_confirmed_at is None:
        played.log_confirmed_at = datetime.now(UTC)
        audit.record(session, actor, "match.log_confirm", "match", match.id, side=side)
    if log_state(match) == "confirmed" and match.league.log_finalises:
        _finalise(session, actor, match, events, confirmed_by_both=True)
    session.flush()
    return _view(session, match)


def _finalise(
    session: Session,
    actor: User,
    match: Match,
    events: list[MatchLogEvent],
    *,
    confirmed_by_both: bool = False,
) -> Match:
    return record_result(
        session, actor, match.id, _report(events), confirmed_by_both=confirmed_by_both
    )


def finalise(session: Session, actor: User, match_id: int) -> Match:
    """Record the result the confirmed log gives (a commissioner), exactly as if its report
    draft had been posted."""
    match = _open_match(session, match_id)
    require_commissioner(match.league, actor)
    _require_open(match)
    if log_state(match) != "confirmed":
        raise Conflict(gettext("Both coaches must confirm the log first."))
    return _finalise(session, actor, match, _events(session, match.id))
