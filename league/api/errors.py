"""How the API answers an error: JSON `{"error": {"code", "message", ...}}`, always.

Services refuse with a DomainError and say nothing of HTTP; the status is chosen here,
from the error's code, in one table. Werkzeug's HTTP errors keep their own status, and
anything unexpected is logged and answered as a 500 in the same shape, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

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

#: What an error adds to the body beside its code and message, by code.
DETAILS: dict[str, Callable[[DomainError], dict[str, Any]]] = {
    "invalid_report": lambda error: {"fields": error.fields},
    # The live match log names the member of the event it refuses (services.live_log).
    "invalid_event": lambda error: {"fields": error.fields},
    "event_id_taken": lambda error: {"fields": error.fields},
    "invalid_document": lambda error: {
        "problems": [problem.as_dict() for problem in error.problems]
    },
}

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


def error_response(status: int, code: str, message: str, **details: Any) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message, **details}}), status


def api_error(error: Exception) -> tuple[Response, int]:
    """The one answer to every error under /api/."""
    if isinstance(error, ValidationError):
        error = schema_refusal(error)
    if isinstance(error, DomainError):
        details = DETAILS.get(error.code, lambda _: {})(error)
        return error_response(status_of(error), error.code, error.message, **details)
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
