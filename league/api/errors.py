"""How the API answers an error: JSON `{"error": {"code", "message", ...}}`, always.

Services refuse with a DomainError and say nothing of HTTP; the status is chosen here,
from the error's code, in one table. Werkzeug's HTTP errors keep their own status, and
anything unexpected is logged and answered as a 500 in the same shape, never a traceback.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from league.api.schemas import ErrorSchema
from league.extensions import db
from league.services.errors import DomainError

#: The status for each error code. An error whose own code is not listed takes its
#: class's (a Conflict with the code "winnings_spent" is a 409 `conflict`).
STATUSES = {
    "bad_request": 400,
    "invalid_field": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "rule_violation": 422,
}

#: The errors that list every problem found at once (a match report, a team document).
#: Their body adds the list as `fields`: the problems' messages by where they apply
#: (`home_score`, `player_12`, `players[2].number`), in the order first named.
PROBLEM_LISTS = frozenset(
    # The live match log names the member of the event it refuses (services.live_log).
    {"invalid_report", "invalid_document", "invalid_event", "event_id_taken"}
    # A team's colours and logo name their field (`colours`, `logo`): services.identity.
    | {"colours_invalid", "colours_unreadable"}
    | {
        "logo_too_large",
        "logo_format",
        "logo_mismatch",
        "logo_dimensions",
        "logo_bomb",
        "logo_unreadable",
    }
)
#: The team import answered its list as `problems` (`{"path", "message"}` in the
#: document's order) before `fields` was the one name: it sends both.
LISTED_AS_PROBLEMS = frozenset({"invalid_document"})


def details(error: DomainError) -> dict[str, Any]:
    """What an error adds to the body beside its code and message."""
    if error.code not in PROBLEM_LISTS:
        return {}
    added: dict[str, Any] = {"fields": error.fields}
    if error.code in LISTED_AS_PROBLEMS:
        added["problems"] = [problem.as_dict() for problem in error.problems]
    return added


INTERNAL = "Something went wrong. The error has been logged; nothing was saved."


class BadRequest(DomainError):
    """The request itself is malformed (the API's own refusal, before any service)."""

    code = "bad_request"


class Unauthorized(DomainError):
    code = "unauthorized"


def invalid_field(name: str, message: str) -> BadRequest:
    """A 400 `invalid_field` naming the member of the body that is wrong."""
    return BadRequest(message, code="invalid_field", field=name)


def status_of(error: DomainError) -> int:
    codes = [error.code, *(getattr(cls, "code", None) for cls in type(error).__mro__)]
    return next(STATUSES[code] for code in codes if code in STATUSES)


def error_response(status: int, code: str, message: str, **added: Any) -> tuple[Response, int]:
    """The error body, dumped through `ErrorSchema` as every response is through its own."""
    body = ErrorSchema.body({"error": {"code": code, "message": message, **added}})
    return jsonify(body), status


def api_error(error: Exception) -> tuple[Response, int]:
    """The one answer to every error under /api/."""
    if isinstance(error, ValidationError):
        error = schema_refusal(error)
    if isinstance(error, DomainError):
        return error_response(status_of(error), error.code, error.message, **details(error))
    if isinstance(error, HTTPException):
        code = (error.name or "error").lower().replace(" ", "_")
        return error_response(error.code or 500, code, error.description or "")
    current_app.logger.exception("Unhandled error", exc_info=error)
    db.session.rollback()
    return error_response(500, "internal", INTERNAL)


def schema_refusal(error: ValidationError) -> BadRequest:
    """A request schema's refusal as the 400 naming the first field it refused (fields
    are checked in the order the schema declares them). The schemas word each refusal
    to follow the field's name: "'dice' " + "must be a list of ...". A field of a
    nested object is named by its path: `points.win`, `players[2].td`.
    """
    name, message = _first_refusal(error.normalized_messages())
    return invalid_field(name, f"'{name}' {message}")


def _first_refusal(messages: dict[Any, Any] | list[Any], path: str = "") -> tuple[str, str]:
    """The path and message of the first refusal in marshmallow's nested messages."""
    if isinstance(messages, list):
        first = messages[0]
        if isinstance(first, str):
            return path, first
        return _first_refusal(first, path)
    key, inner = next(iter(messages.items()))
    if isinstance(key, int):
        return _first_refusal(inner, f"{path}[{key}]")
    return _first_refusal(inner, f"{path}.{key}" if path else str(key))
