"""What happened, told to the league's webhooks: the domain events of a transaction
(`league.services.events`) turned into outbox rows just before it commits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from sqlalchemy.orm import Session

from league.models import Advancement, League, Match, Season, Team
from league.services import events
from league.services.webhooks.outbox import emit
from league.services.webhooks.payloads import (
    advancement_payload,
    death_payload,
    fixtures_payload,
    match_payload,
    reminder_payload,
    season_payload,
    team_payload,
)

#: The webhook event each domain event is sent as (`player.died` comes with a result).
WEBHOOK_EVENT: dict[type[events.DomainEvent], str] = {
    events.MatchFinalised: "match.finalised",
    events.MatchCorrected: "match.corrected",
    events.MatchVoided: "match.voided",
    events.FixturesGenerated: "fixtures.generated",
    events.PlayerAdvanced: "advancement.bought",
    events.TeamCreated: "team.created",
    events.TeamRedrafted: "team.redrafted",
    events.SeasonClosed: "season.closed",
    events.FixtureReminder: "fixture.reminder",
}


def subscribe() -> None:
    """At app start: the league's webhooks hear of every committed change."""
    events.subscribe(before_commit=tell_webhooks)


def tell_webhooks(session: Session, happened: Sequence[events.DomainEvent]) -> None:
    """Outbox rows for the events, in their order, in the transaction that made them."""
    for event in happened:
        try:
            _emit_event(session, event)
        except _Gone:
            continue  # deleted later in the same transaction: nothing of it was saved


def _emit_event(session: Session, event: events.DomainEvent) -> None:
    name = WEBHOOK_EVENT.get(type(event))
    if name is None:
        return  # an event no webhook announces
    if isinstance(event, events.MatchFinalised | events.MatchCorrected | events.MatchVoided):
        emit_match(session, _get(session, Match, event.match_id), name)
    elif isinstance(event, events.TeamCreated | events.TeamRedrafted):
        emit(session, event.league_id, name, team_payload(_get(session, Team, event.team_id)))
    elif isinstance(event, events.PlayerAdvanced):
        advancement = _get(session, Advancement, event.advancement_id)
        emit(session, event.league_id, name, lambda: advancement_payload(advancement))
    elif isinstance(event, events.FixturesGenerated):
        league = _get(session, League, event.league_id)
        created = [_get(session, Match, match_id) for match_id in event.match_ids]
        emit(session, league.id, name, lambda: fixtures_payload(league, created))
    elif isinstance(event, events.FixtureReminder):
        reminded = _get(session, Match, event.match_id)
        emit(session, event.league_id, name, lambda: reminder_payload(reminded, event.kind))
    elif isinstance(event, events.SeasonClosed):
        league = _get(session, League, event.league_id)
        closed = _get(session, Season, event.season_id)
        emit(session, league.id, name, lambda: season_payload(session, league, closed))


Row = TypeVar("Row", Team, Advancement, League, Match, Season)


def _get(session: Session, kind: type[Row], row_id: int) -> Row:
    found = session.get(kind, row_id)
    if found is None:
        raise _Gone
    return found


class _Gone(Exception):
    """A row an event names was deleted after the event was recorded."""


def emit_match(session: Session, match: Match, event: str) -> None:
    """A result finalised, corrected or voided; each death of a new result as well."""
    if match.played_at is None:
        return  # a fixture cancelled before it was played had no result to void
    emit(session, match.league_id, event, lambda: match_payload(session, match, event))
    if event == "match.finalised":
        for line in match.players:
            if line.injury == "dead":
                emit(session, match.league_id, "player.died", death_payload(match, line.player))
