"""The foundations every rules module shares: its two errors, read-only mappings and
the check of a die result."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from league.i18n import gettext


class RulesetError(ValueError):
    """Ruleset data (or a house-rule override) is invalid; names file and key."""

    def __init__(self, file: str, key: str, message: str) -> None:
        self.file = file
        self.key = key
        self.detail = message
        super().__init__(f"{file}: {key}: {message}" if key else f"{file}: {message}")


class RulesError(ValueError):
    """A rules function was called with arguments the rules do not cover.

    (An impossible die roll, an advancement past the maximum, an unknown
    kind.) Not a "the rules say no" answer: those are :class:`Decision`.
    """


def frozen_mapping(data: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """A read-only copy of ``data``."""
    return MappingProxyType(dict(data or {}))


#: A player's characteristics, in the order sheets print them.
STAT_KEYS = ("ma", "st", "ag", "pa", "av")


def starting_stats(holder: Any) -> Mapping[str, int | None]:
    """The starting characteristics of a position or a star player, keyed ``ma st ag pa av``."""
    return frozen_mapping({key: getattr(holder, key) for key in STAT_KEYS})


def check_die(value: int, sides: int, what: str) -> None:
    """A die result of a ``sides``-sided die, else :class:`RulesError`; ``what`` names the die
    in the reader's language ("first die")."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise RulesError(
            gettext(
                "%(what)s must be a whole number 1-%(sides)s, got %(value)s",
                what=what,
                sides=sides,
                value=repr(value),
            )
        )
