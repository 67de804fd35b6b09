"""Schemas of the live match log (`/api/v1/matches/{id}/log`), beside `league.api.schemas`:
the OpenAPI document takes its components from both modules."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import Length, OneOf

from league.api.schemas.base import (
    NO_NUL,
    STRING,
    Bounded,
    RequestSchema,
    ResponseSchema,
    doc,
    integer,
    row_id,
    timestamp,
)
from league.api.schemas.matches import choice_field
from league.models import MatchLogEvent
from league.models.match import INJURY_CODES, SIDES
from league.rules import CHARACTERISTICS
from league.rules.live_log import HALVES, LOG_KINDS, TURNS_PER_HALF
from league.services.live_log import LogView

#: Widths of the id a phone makes for an event.
CLIENT_ID_LENGTH = (8, 64)
CLIENT_ID = f"must be a string of {CLIENT_ID_LENGTH[0]} to {CLIENT_ID_LENGTH[1]} characters."


def _side(description: str) -> fields.String:
    return fields.String(
        required=True,
        validate=OneOf(SIDES, error="must be one of: {choices}."),
        metadata=doc(description),
        error_messages=STRING,
    )


class LogEventRequestSchema(RequestSchema):
    """An event to log; the same `id` and body again gives the stored event back."""

    id = fields.String(
        required=True,
        validate=[Length(*CLIENT_ID_LENGTH, error=CLIENT_ID), NO_NUL],
        metadata=doc("The id the phone made for the event (a retry sends the same one)."),
        error_messages={"required": "is required.", "invalid": CLIENT_ID},
    )
    side = _side("The side whose event it is (its coach, or a commissioner, logs it).")
    kind = fields.String(
        required=True,
        validate=OneOf(LOG_KINDS, error="must be one of: {choices}."),
        metadata=doc("The kind of event; an edition lacking it refuses it (422, `kind`)."),
        error_messages=STRING,
    )
    player_id = integer(
        "The side's player (every kind but a concession); for an injury, the injured.",
        allow_none=True,
        validate=row_id(),
    )
    victim_id = integer(
        "A casualty's victim, of the other side.", allow_none=True, validate=row_id()
    )
    injury = choice_field(
        INJURY_CODES,
        metadata=doc(
            "Table dice only: the casualty result rolled at the table (else the server rolls it)."
        ),
    )
    lasting = choice_field(
        CHARACTERISTICS, metadata=doc("With a lasting injury at the table: the characteristic.")
    )
    half = integer(
        "1, 2, or 3 for overtime.", required=True, validate=Bounded(HALVES[0], HALVES[-1])
    )
    turn = integer(f"1 to {TURNS_PER_HALF}.", required=True, validate=Bounded(1, TURNS_PER_HALF))


class LogEventSchema(ResponseSchema):
    """One logged event."""

    id = fields.Integer(required=True, metadata=doc("The event's number on the server."))
    client_id = fields.String(required=True, metadata=doc("The id the phone made."))
    side = fields.String(required=True, validate=OneOf(SIDES))
    kind = fields.String(required=True, validate=OneOf(LOG_KINDS))
    player_id = fields.Integer(required=True, allow_none=True)
    victim_id = fields.Integer(allow_none=True)
    injury = fields.String(allow_none=True, validate=OneOf(INJURY_CODES))
    lasting = fields.String(allow_none=True, validate=OneOf(CHARACTERISTICS))
    dice = fields.List(
        fields.Integer(), allow_none=True, metadata=doc("The dice the server rolled, if it did.")
    )
    half = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    disputed = fields.Boolean(required=True)
    by = fields.Integer(required=True, metadata=doc("The id of the user who logged it."))
    created_at = fields.String(required=True, metadata=doc("ISO 8601 date and time."))

    @pre_dump
    def _of_event(self, event: MatchLogEvent, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": event.id,
            "client_id": event.client_id,
            "side": event.side,
            "kind": event.kind,
            "player_id": event.player_id,
            "victim_id": event.victim_id,
            "injury": event.injury,
            "lasting": event.lasting,
            "dice": event.dice,
            "half": event.half,
            "turn": event.turn,
            "disputed": event.disputed,
            "by": event.logged_by_id,
            "created_at": timestamp(event.created_at),
        }


class LogScoreSchema(ResponseSchema):
    """Touchdowns logged per side."""

    home = fields.Integer(required=True)
    away = fields.Integer(required=True)


class LogConfirmedSchema(ResponseSchema):
    """Which sides confirmed the log."""

    home = fields.Boolean(required=True)
    away = fields.Boolean(required=True)


class LogReportPlayerSchema(ResponseSchema):
    """A player's line of the report draft."""

    player_id = fields.Integer(required=True)
    td = fields.Integer(required=True)
    cas = fields.Integer(required=True)
    comp = fields.Integer(required=True)
    int = fields.Integer(required=True)
    deflection = fields.Integer(required=True)
    throw_completion = fields.Integer(required=True)
    safe_landing = fields.Integer(required=True)
    mvp = fields.Boolean(required=True)
    injury = fields.String(required=True, allow_none=True, validate=OneOf(INJURY_CODES))
    lasting = fields.String(required=True, allow_none=True, validate=OneOf(CHARACTERISTICS))


class LogReportSchema(ResponseSchema):
    """The report draft the log gives: a body `POST /matches/{id}/result` takes."""

    home_score = fields.Integer(required=True)
    away_score = fields.Integer(required=True)
    conceded = fields.String(validate=OneOf(SIDES))
    stalled = fields.Nested(
        LogConfirmedSchema, metadata=doc("BB2025: the sides that stalled, when one did.")
    )
    players = fields.List(fields.Nested(LogReportPlayerSchema), required=True)


class MatchLogSchema(ResponseSchema):
    """A match's live log: its events in match order, the score, each side's confirmation."""

    match_id = fields.Integer(required=True)
    state = fields.String(required=True, validate=OneOf(("open", "confirmed", "final")))
    score = fields.Nested(LogScoreSchema, required=True)
    confirmed = fields.Nested(LogConfirmedSchema, required=True)
    stalled = fields.Nested(
        LogConfirmedSchema, required=True, metadata=doc("BB2025: which sides stalled.")
    )
    kinds = fields.List(
        fields.String(validate=OneOf(LOG_KINDS)),
        required=True,
        metadata=doc("The kinds of event the league's edition has."),
    )
    events = fields.List(fields.Nested(LogEventSchema), required=True)
    report = fields.Nested(
        LogReportSchema, metadata=doc("Once both sides confirmed: the report draft.")
    )

    @pre_dump
    def _of_view(self, view: LogView, **kwargs: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "match_id": view.match.id,
            "state": view.state,
            "score": view.score,
            "confirmed": view.confirmed,
            "stalled": view.stalled,
            "kinds": list(view.kinds),
            "events": view.events,
        }
        if view.report is not None:
            body["report"] = view.report
        return body


class LogConfirmSchema(RequestSchema):
    """The side confirming the log."""

    side = _side("The side confirming (its coach, or a commissioner).")
