"""Errors services raise; every message is meant for a person to read."""

from __future__ import annotations


class DomainError(Exception):
    """Base of everything a service refuses. `code` is stable, `message` is for people."""

    status = 422
    code = "rule_violation"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code:
            self.code = code


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Forbidden(DomainError):
    status = 403
    code = "forbidden"


class Conflict(DomainError):
    status = 409
    code = "conflict"


class ConcurrentChange(Conflict):
    """A unique rule the database keeps was broken by a request made at the same moment."""

    code = "concurrent_change"


class RuleViolation(DomainError):
    status = 422
    code = "rule_violation"
