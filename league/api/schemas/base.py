"""Building blocks of the API's schemas: field types, validators, the two base schemas."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, ClassVar

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    missing,
)
from marshmallow.validate import Length, OneOf, Range, Regexp

from league.rules import (
    MAX_DICE,
    RANDOM_CHARACTERISTIC_KIND,
    SKILL_KINDS,
)

#: Largest id a route accepts (ids are 32-bit integers in the database).
MAX_ID = 2_147_483_647
#: Text the API stores: any string without NUL characters.
NO_NUL = Regexp(r"^[^\x00]*$", error="must not contain NUL characters.")
ADVANCEMENT_KINDS = (*SKILL_KINDS, RANDOM_CHARACTERISTIC_KIND)
#: Ceiling for scores and per-player counters: far above any real match and far
#: below what would overflow the 32-bit SPP and score columns once summed.
MAX_COUNT = 1000
#: Ceiling for gold entered as winnings (the treasury is a 32-bit column too).
MAX_GOLD = 10_000_000
#: More entries than two full rosters ever field (keeps the SQL IN lists small).
MAX_PLAYERS = 100
#: The idempotency_key column's width.
MAX_KEY = 64
#: The role a member can be given through PATCH: the members page only promotes.
PROMOTABLE_ROLES = ("commissioner",)
#: Bound on each die sent: anything beyond is malformed; smaller wrong values are
#: the rules' business (422 `invalid_dice`).
MAX_DIE = 1000
#: A generated schedule: every team meets every other once, or twice (home and away).
FIXTURE_FORMATS = ("single", "double")
#: A date as the API writes it (`\d` as Python reads it: the parsing decides).
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: The widest round number a fixture takes.
MAX_ROUND = 999
#: Integer columns are 32-bit: league points must fit one.
POINTS_RANGE = (-(2**31), 2**31 - 1)
#: A missing member and a null one are refused alike.
#: marshmallow's type for a field's messages (a message may also be a list or a dict).
Messages = dict[str, str | list[Any] | dict[Any, Any]]
REQUIRED: Messages = {"required": "is required.", "null": "is required."}
#: A choice the API itself refuses (a 400, not the rules' 422).
ONE_OF = "must be one of: {choices}."
#: A string field's refusals.
STRING: Messages = {**REQUIRED, "invalid": "must be a string."}
#: An optional integer given as null is refused as any other non-integer.
INTEGER: Messages = {"null": "must be an integer."}
#: An optional JSON object (or true/false) given as null: the same refusal as a wrong type.
OBJECT: Messages = {"type": "must be a JSON object.", "null": "must be a JSON object."}
BOOLEAN: Messages = {"invalid": "must be true or false.", "null": "must be true or false."}


def no_nul(value: str) -> None:
    """NO_NUL for a field whose document shows no pattern (an enum says it all)."""
    if "\x00" in value:
        raise ValidationError(NO_NUL.error)


class ServiceOneOf(OneOf):
    """Documents the choices; the service refuses any other (see the module's docstring)."""

    def __call__(self, value: Any) -> Any:
        return value


class Bounded(Range):
    """A range refused in the API's words: "must be at most 1,000." above it, the
    ``too_small`` message (or "must be at least ...") below it."""

    def __init__(
        self, min: int | None = None, max: int | None = None, *, too_small: str | None = None
    ) -> None:
        super().__init__(min, max)
        self.too_small = too_small or "must be at least {min:,}."

    def __call__(self, value: Any) -> Any:
        if self.min is not None and value < self.min:
            raise ValidationError(self.too_small.format(min=self.min, max=self.max))
        if self.max is not None and value > self.max:
            raise ValidationError(f"must be at most {self.max:,}.")
        return value


#: A row's id: 1 to MAX_ID (a number beyond the 32-bit columns would fail the query).
def row_id() -> Bounded:
    return Bounded(1, MAX_ID, too_small="must be an id, a number from 1 to {max:,}.")


def choice(choices: tuple[str, ...]) -> OneOf:
    """One of `choices`; the refusal lists them, null included (the field may be null)."""
    return OneOf(choices, error="must be null or one of: {choices}.")


class ServiceLength(Length):
    """Documents the length; the service refuses a value outside it."""

    def __call__(self, value: Any) -> Any:
        return value


class ServiceRange(Range):
    """Documents the range; the service refuses a value outside it."""

    def __call__(self, value: Any) -> Any:
        return value


def as_integer(value: object) -> int | None:
    """A JSON integer as an int, or None when the value is not one.

    As in JSON Schema, a number with a zero fraction (`2.0`) is an integer; a bool
    (an int subclass in Python) is not: JSON true is not a number.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


class JsonInteger(fields.Integer):
    """An integer as JSON Schema counts them: 2.0 is one; true, 2.5 and "2" are not."""

    # marshmallow types it per instance; each field class sets its own messages here.
    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be an integer."
    }

    def _validated(self, value: Any) -> int:
        number = as_integer(value)
        if number is None:
            raise self.make_error("invalid")
        return number


class Boolean(fields.Boolean):
    """JSON true or false, nothing else (marshmallow's own takes 1, "yes", "on")."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be true or false."
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class Object(fields.Nested):
    """A nested JSON object; anything else (a list, a string) is refused as not one.

    Members it does not know are dropped when loading (the document still shows the
    object open), so none can stand in for a field loaded under another name
    (`interceptions` for `int`).
    """

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "type": "must be a JSON object."
    }

    def __init__(self, nested: type[Schema], **kwargs: Any) -> None:
        kwargs.setdefault("unknown", EXCLUDE)
        super().__init__(nested, **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any
    ) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, partial, **kwargs)


class WholeList(fields.List):
    """A list refused as a whole: any fault of the list or of an item is its one
    `invalid` message (given per field)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ValidationError:
            raise self.make_error("invalid") from None


class NullIsAbsent(JsonInteger):
    """An integer that null leaves as it is, like an absent member (the document shows
    a plain integer: send one, or nothing)."""

    def deserialize(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if value is None:
            return missing
        return super().deserialize(value, *args, **kwargs)


class Dice(fields.List):
    """Dice rolled at the table: any fault of the list or of a die is one refusal."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": f"must be a list of at most {MAX_DICE} integers (the dice rolled)."
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            dice = super()._deserialize(value, attr, data, **kwargs)
            if dice is not None:
                self._validate(dice)
        except ValidationError:
            raise self.make_error("invalid") from None
        return dice


def doc(text: str, **extra: Any) -> dict[str, Any]:
    return {"description": text, **extra}


def text(description: str, **kwargs: Any) -> fields.String:
    return fields.String(
        validate=NO_NUL,
        metadata=doc(description),
        error_messages=STRING,
        **kwargs,
    )


def integer(description: str, **kwargs: Any) -> fields.Integer:
    return JsonInteger(metadata=doc(description), error_messages=REQUIRED, **kwargs)


def count(description: str, **kwargs: Any) -> fields.Integer:
    """A per-match counter: optional, null or absent means 0."""
    return integer(description, allow_none=True, validate=Bounded(max=MAX_COUNT), **kwargs)


class ResponseSchema(Schema):
    """A response: closed, and what every view sends is dumped through it (`body`).

    A schema that represents a domain object (a league, a team sheet's line) reads it
    in a `pre_dump` hook; the fields then keep only what the document lists, typed
    as it says.
    """

    class Meta:
        unknown = RAISE  # closed: additionalProperties false

    #: One instance per schema class: dumping keeps no state between calls.
    _instances: ClassVar[dict[type[ResponseSchema], ResponseSchema]] = {}

    @classmethod
    def body(cls, value: Any) -> dict[str, Any]:
        """`value` dumped through this schema: the JSON body of a response."""
        schema = cls._instances.get(cls)
        if schema is None:
            schema = cls._instances[cls] = cls()
        dumped: dict[str, Any] = schema.dump(value)
        return dumped


class RequestSchema(Schema):
    class Meta:
        unknown = INCLUDE  # open: unknown members are ignored


def timestamp(moment: datetime | None) -> str | None:
    """ISO 8601 with the offset; SQLite hands back naive datetimes, stored as UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()
