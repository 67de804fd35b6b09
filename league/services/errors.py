"""Errors services raise; every message is meant for a person to read.

One shape for every refusal: a stable `code`, a `message` and its `problems`, each
naming where it applies (a form field, a document path, or "" for the request as a
whole). Services say what went wrong, never how to answer it: the web and the API
each turn a refusal into a page or a status in one place of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong: where (`name`, `players[2].advancements[0].skill`, "" for all) and what."""

    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class DomainError(Exception):
    """Base of everything a service refuses. `code` is stable, `message` is for people.

    A refusal about one field says so with `field`; one about many lists them in
    `problems` (then the message, unless given, is every problem's, in order of field).
    """

    code = "rule_violation"

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        field: str | None = None,
        problems: Iterable[Problem] = (),
    ) -> None:
        super().__init__(message)
        self._message = message
        self.field = field
        self.problems = list(problems)
        if message is not None and not self.problems:
            self.problems.append(Problem(field or "", message))
        if code:
            self.code = code

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    @property
    def fields(self) -> dict[str, list[str]]:
        """The problems' messages by where they apply, in the order first named."""
        grouped: dict[str, list[str]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.path, []).append(problem.message)
        return grouped

    @property
    def message(self) -> str:
        if self._message is not None:
            return self._message
        # Every message ends with a full stop: joined with spaces they read as one paragraph.
        return " ".join(message for messages in self.fields.values() for message in messages)

    def __str__(self) -> str:
        return self.message


class NotFound(DomainError):
    code = "not_found"


class Forbidden(DomainError):
    code = "forbidden"


class Conflict(DomainError):
    code = "conflict"


class ConcurrentChange(Conflict):
    """A unique rule the database keeps was broken by a request made at the same moment."""

    code = "concurrent_change"


class RuleViolation(DomainError):
    code = "rule_violation"
