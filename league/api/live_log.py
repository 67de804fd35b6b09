"""The live match log: GET/POST /api/v1/matches/<id>/log, DELETE .../log/<event_id>,
POST .../log/<event_id>/dispute, .../log/<event_id>/keep, .../log/confirm, .../log/finalise.

Phones poll `GET .../log` with `If-None-Match`: an unchanged log is a 304 from one small
query, so an open log page never holds a worker (see bench/live_log.py).
"""

from __future__ import annotations

import json
from typing import Any

from flask import g
from werkzeug.wrappers import Response

from league import caching
from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import MatchSchema
from league.api.schemas.live_log import (
    LogConfirmSchema,
    LogEventRequestSchema,
    LogEventSchema,
    MatchLogSchema,
)
from league.extensions import db
from league.services import live_log
from league.services.errors import ConcurrentChange
from league.services.live_log import LogEntry
from league.services.unit_of_work import unit_of_work

LOG = "/matches/<id:match_id>/log"


def _entry(body: dict[str, Any]) -> LogEntry:
    return LogEntry(
        client_id=body["id"],
        side=body["side"],
        kind=body["kind"],
        half=body["half"],
        turn=body["turn"],
        player_id=body.get("player_id"),
        victim_id=body.get("victim_id"),
        injury=body.get("injury"),
        lasting=body.get("lasting"),
    )


@bp.get(LOG)
def get_log(match_id: int) -> Response:
    """A match's live log: its events in match order, the score and the confirmations.

    Readable by anyone who may see the match. It carries an ETag: a phone polling with
    `If-None-Match` gets 304 until the log changes.
    ---
    get:
      tags: [Matches]
      responses:
        200: MatchLog
      errors:
        404: No such match.
    """
    session = db.session()
    version = live_log.log_version(session, match_id)
    return caching.cached_response(
        f"log:{match_id}",
        version,
        lambda: json.dumps(MatchLogSchema.body(live_log.get_log(session, match_id))),
        mimetype="application/json",
    )


@bp.post(LOG)
@token_required
def post_log_event(match_id: int) -> tuple[dict[str, Any], int]:
    """Log an event (the side's coach, or a commissioner).

    With the league's server dice, a casualty or injury sent without its result is rolled
    here; with table dice the coach may send the result. The same `id` and body again
    answers 200 with the stored event; the same `id` with another body is a 409.
    ---
    post:
      tags: [Matches]
      requestBody: LogEventRequest
      responses:
        201: LogEvent
        200:
          schema: LogEvent
          description: The event logged earlier with the same `id` and body.
      errors:
        400: Malformed event (`invalid_field` naming the field).
        403: The caller neither coaches the side nor is a commissioner of the league.
        404: No such match.
        409: The match is final, or the `id` was logged with another body.
        422: >-
          A player not in this match (`player_id`, `victim_id`), a kind the edition lacks
          (`kind`), an injury the league's dice or the rules refuse (`injury`, `lasting`).
    """
    entry = _entry(LogEventRequestSchema().load(json_object()))
    try:
        with unit_of_work() as session:
            event, created = live_log.log_event(session, g.api_user, match_id, entry)
            result = LogEventSchema.body(event)
    except ConcurrentChange:
        # The same id posted twice at once: the loser answers with the winner's event.
        with unit_of_work() as session:
            event, created = live_log.log_event(session, g.api_user, match_id, entry)
            result = LogEventSchema.body(event)
    return result, 201 if created else 200


@bp.delete(f"{LOG}/<id:event_id>")
@token_required
def delete_log_event(match_id: int, event_id: int) -> tuple[str, int]:
    """Take a logged event back (who logged it, or a commissioner).
    ---
    delete:
      tags: [Matches]
      responses:
        204:
          description: Taken back.
      errors:
        403: The caller neither logged it nor is a commissioner of the league.
        404: No such match or event.
        409: The match is final.
    """
    with unit_of_work() as session:
        live_log.delete_event(session, g.api_user, match_id, event_id)
    return "", 204


@bp.post(f"{LOG}/<id:event_id>/dispute")
@token_required
def dispute_log_event(match_id: int, event_id: int) -> dict[str, Any]:
    """Dispute one of the other side's events (its opponent's coach, or a commissioner).

    The event stays flagged until who logged it takes it back or a commissioner keeps it;
    while one is disputed neither side can confirm.
    ---
    post:
      tags: [Matches]
      responses:
        200: LogEvent
      errors:
        403: The caller neither coaches the other side nor is a commissioner of the league.
        404: No such match or event.
        409: The match is final.
    """
    with unit_of_work() as session:
        return LogEventSchema.body(live_log.dispute_event(session, g.api_user, match_id, event_id))


@bp.post(f"{LOG}/<id:event_id>/keep")
@token_required
def keep_log_event(match_id: int, event_id: int) -> dict[str, Any]:
    """Settle a dispute: the event stands (a commissioner).
    ---
    post:
      tags: [Matches]
      responses:
        200: LogEvent
      errors:
        403: The caller is not a commissioner of the league.
        404: No such match or event.
        409: The match is final.
    """
    with unit_of_work() as session:
        return LogEventSchema.body(live_log.keep_event(session, g.api_user, match_id, event_id))


@bp.post(f"{LOG}/confirm")
@token_required
def confirm_log(match_id: int) -> dict[str, Any]:
    """Confirm a side of the log (its coach, or a commissioner).

    Once both sides have, `state` is `confirmed` and `report` holds the report draft; in a
    league whose setting lets two confirmed logs finalise, the result is final at once
    (`state` `final`). A change to the log afterwards needs both confirmations again.
    ---
    post:
      tags: [Matches]
      requestBody: LogConfirm
      responses:
        200: MatchLog
      errors:
        400: Malformed body (`invalid_field` naming the field).
        403: The caller neither coaches the side nor is a commissioner of the league.
        404: No such match.
        409: The match is final, or an event is disputed.
        422: The rules refuse the report the log gives (`invalid_report`).
    """
    side = LogConfirmSchema().load(json_object())["side"]
    with unit_of_work() as session:
        return MatchLogSchema.body(live_log.confirm_side(session, g.api_user, match_id, side))


@bp.post(f"{LOG}/finalise")
@token_required
def finalise_log(match_id: int) -> tuple[dict[str, Any], int]:
    """Record the result the confirmed log gives (a commissioner).

    Exactly as if its report draft had been posted to `POST /matches/{id}/result`: SPP,
    injuries, winnings and the ledger follow.
    ---
    post:
      tags: [Matches]
      responses:
        201: Match
      errors:
        403: The caller is not a commissioner of the league.
        404: No such match.
        409: The match is final, or both sides have not confirmed the log.
        422: The rules refuse the report the log gives (`invalid_report`).
    """
    with unit_of_work() as session:
        result = MatchSchema.body(live_log.finalise(session, g.api_user, match_id))
    return result, 201
