"""Reading helpers: a TOML table with typed accessors that name the file and key of a problem."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from league.rules.model import Dice, RulesetError

DICE = {"d6": tuple(range(1, 7)), "d8": tuple(range(1, 9)), "d16": tuple(range(1, 17))}
DICE["d68"] = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 9))
DICE["2d6"] = tuple(range(2, 13))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Table:
    """A TOML table plus where it came from, with typed accessors."""

    def __init__(self, file: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.file = file
        self.data = data
        self.prefix = prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str, message: str) -> RulesetError:
        return RulesetError(self.file, self.key(name) if name else self.prefix, message)

    def only(self, *allowed: str) -> None:
        for name in self.data:
            if name not in allowed:
                raise self.error(name, f"unknown key (allowed: {', '.join(allowed)})")

    def has(self, name: str) -> bool:
        return name in self.data

    def _get(self, name: str, check: Callable[[Any], bool], what: str, default: Any) -> Any:
        if name not in self.data:
            if default is REQUIRED:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        if not check(value):
            raise self.error(name, f"expected {what}, got {value!r}")
        return value

    def text(self, name: str, default: Any = None) -> Any:
        return self._get(name, lambda v: isinstance(v, str) and v != "", "a text", default)

    def flag(self, name: str, default: Any = None) -> Any:
        return self._get(name, lambda v: isinstance(v, bool), "true or false", default)

    def integer(self, name: str, default: Any = None, minimum: int | None = 0) -> Any:
        value = self._get(name, _is_int, "a whole number", default)
        if _is_int(value) and minimum is not None and value < minimum:
            raise self.error(name, f"must be at least {minimum}, got {value}")
        return value

    def texts(self, name: str, default: Any = None) -> Any:
        value = self._get(
            name,
            lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
            "a list of texts",
            default,
        )
        return tuple(value) if isinstance(value, list) else value

    def integers(self, name: str, default: Any = None) -> Any:
        value = self._get(
            name,
            lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
            "a list of whole numbers",
            default,
        )
        if isinstance(value, list):
            for i, number in enumerate(value):
                if number < 0:
                    raise self.error(f"{name}[{i}]", f"must not be negative, got {number}")
            return tuple(value)
        return value

    def table(self, name: str) -> Table:
        found = self.maybe_table(name)
        if found is None:
            raise self.error(name, "missing table")
        return found

    def maybe_table(self, name: str) -> Table | None:
        if name not in self.data:
            return None
        value = self.data[name]
        if not isinstance(value, dict):
            raise self.error(name, "expected a table")
        return Table(self.file, value, self.key(name))

    def subs(self, name: str, required: bool = True) -> list[Table]:
        if name not in self.data:
            if required:
                raise self.error(name, "missing list of tables")
            return []
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error(name, "expected a list of tables")
        return [Table(self.file, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value)]


REQUIRED: Any = object()


def read_toml(root: Path, relative: str) -> Table:
    path = root / relative
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise RulesetError(relative, "", "file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(relative, "", f"invalid TOML: {exc}") from None
    return Table(relative, data)


def check_bands(table: Table, name: str, bands: Iterable[tuple[int, int]], die: str) -> None:
    """Bands must cover every result of ``die`` exactly once."""
    covered: dict[int, int] = {}
    for index, (low, high) in enumerate(bands):
        if low > high:
            raise table.error(f"{name}[{index}]", f"min {low} is above max {high}")
        for roll in DICE[die]:
            if low <= roll <= high:
                if roll in covered:
                    raise table.error(
                        f"{name}[{index}]",
                        f"roll {roll} already covered by {name}[{covered[roll]}]",
                    )
                covered[roll] = index
        if not any(low <= roll <= high for roll in DICE[die]):
            raise table.error(f"{name}[{index}]", f"covers no {die} result")
    missing = [roll for roll in DICE[die] if roll not in covered]
    if missing:
        raise table.error(name, f"{die} results not covered: {missing}")


def choice(table: Table, name: str, options: Iterable[str], default: Any = REQUIRED) -> Any:
    options = tuple(options)
    value = table.text(name, default)
    if value is not None and value not in options:
        raise table.error(name, f"must be one of {', '.join(options)}, got {value!r}")
    return value


def read_dice(table: Table, key: str) -> Dice:
    """`[count, sides]`: `[1, 3]` is a D3, `[2, 6]` is 2D6."""
    pair = table.integers(key, REQUIRED)
    if len(pair) != 2 or min(pair) < 1:
        raise table.error(key, "expected [count, sides], both at least 1")
    return Dice(*pair)
