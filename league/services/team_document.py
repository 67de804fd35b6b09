"""The team document, version 1: its shape, and the members that load it.

`TeamDocumentSchema` (with the schemas it nests) is the document's one shape: the
export dumps a team through it, the API's OpenAPI document describes it, and the
import's loaders are checked against it (`loader`): a member the shape has and a
loader lacks, or the other way round, is an error before any document is read.

`services.exchange` loads each object of an imported document (the document,
the team, a ledger entry, a player, an advancement) with the schema of this
module for its league's ruleset, then checks the rules. Every member is refused
in one sentence that follows its path ("players[2].number must be between 1 and
99; it is 0."), in the reader's language; a missing member reads as null. A
document's answer lists every problem at once, in the document's order:
:class:`Loaded` keeps the refusals by member, in the order the schema declares
the members, so that the rules' own refusals stand beside the member they are
about.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, pre_dump
from marshmallow.validate import OneOf

from league.i18n import gettext
from league.models import Player, Team
from league.models.ledger import ENTRY_KINDS
from league.models.player import PLAYER_STATUSES
from league.models.team import TEAM_STATUSES
from league.rules import (
    MAX_DICE,
    MAX_DIE,
    PURCHASE_ITEMS,
    RANDOM_CHARACTERISTIC_KIND,
    SKILL_KINDS,
    RulesError,
    Ruleset,
    TeamType,
)
from league.services.errors import Problem
from league.services.text import is_one_line, is_valid_unicode

FORMAT = "bbleague-team"
VERSION = 1
#: Integers are stored in 32-bit columns.
MAX_INT = 2_147_483_647
#: The kinds of advancement a document may hold.
ADVANCEMENT_KINDS = (*SKILL_KINDS, RANDOM_CHARACTERISTIC_KIND)
#: Where an advancement's dice came from (null: it rolled none).
DICE_SOURCES = ("server", "table")

_T = TypeVar("_T")


def join(path: str, key: str) -> str:
    """The path of ``key`` inside the object at ``path`` ("" is the document)."""
    return f"{path}.{key}" if path else key


def show(value: object) -> str:
    """A value sent, as a refusal quotes it (cut short)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Member(fields.Field[_T]):
    """A member of the document: null (or missing) is refused as any other wrong
    value, in the same sentence; `_refusal` words it, None when the value is good."""

    def __init__(self, *, nullable: bool = False) -> None:
        if nullable:
            super().__init__(allow_none=True, load_default=None)
            return
        # marshmallow formats these messages: a brace in one is meant literally.
        absent = str(self._refusal(None)).replace("{", "{{").replace("}", "}}")
        super().__init__(required=True, error_messages={"required": absent, "null": absent})

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # A schema copies its members; the rules they hold (a ruleset, a team type) are shared.
        return copy.copy(self)

    def _refusal(self, value: Any) -> str | None:
        raise NotImplementedError

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> _T:
        refusal = self._refusal(value)
        if refusal is not None:
            raise ValidationError(refusal)
        return self._loaded(value)

    def _loaded(self, value: Any) -> _T:
        """The value the member loads as, once it is accepted."""
        return value  # type: ignore[no-any-return]  # checked by _refusal


class Integer(_Member[int]):
    """An integer from ``minimum`` (None: any sign) to ``maximum``."""

    def __init__(self, *, minimum: int | None = 0, maximum: int = MAX_INT) -> None:
        self.low = -MAX_INT if minimum is None else minimum
        self.high = maximum
        super().__init__()

    def _refusal(self, value: Any) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return gettext("must be an integer.")
        if not self.low <= value <= self.high:
            return gettext(
                "must be between %(low)s and %(high)s; it is %(value)s.",
                low=self.low,
                high=self.high,
                value=value,
            )
        return None


class Text(_Member[str]):
    """Text of ``length`` characters (surrounding blanks left out, as it loads);
    ``one_line`` for text that names something (a team, a player)."""

    def __init__(
        self, *, length: tuple[int, int], nullable: bool = False, one_line: bool = False
    ) -> None:
        self.length = length
        self.nullable = nullable
        self.one_line = one_line
        super().__init__(nullable=nullable)

    def _refusal(self, value: Any) -> str | None:
        if not isinstance(value, str):
            return (
                gettext("must be a string or null.")
                if self.nullable
                else gettext("must be a string.")
            )
        if "\x00" in value:
            return gettext("must not contain NUL characters.")
        if not is_valid_unicode(value):
            return gettext("must be valid Unicode text (it has a lone surrogate).")
        low, high = self.length
        if not low <= len(value.strip()) <= high:
            return gettext("must have %(low)s to %(high)s characters.", low=low, high=high)
        if self.one_line and not is_one_line(value.strip()):
            return gettext(
                "must be one line of text, without line breaks or text-direction controls."
            )
        return None

    def _loaded(self, value: Any) -> str:
        return str(value).strip()


class Boolean(_Member[bool]):
    def _refusal(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else gettext("must be true or false.")


class Choice(_Member[str | None]):
    """One of ``choices`` (None among them: null is one)."""

    def __init__(self, choices: Sequence[str | None]) -> None:
        self.choices = tuple(choices)
        super().__init__(nullable=None in self.choices)

    def _refusal(self, value: Any) -> str | None:
        if value in self.choices and (value is None or isinstance(value, str)):
            return None
        known = ", ".join("null" if c is None else c for c in self.choices)
        return gettext("must be one of %(known)s; it is %(value)s.", known=known, value=show(value))


class Object(_Member[dict[str, Any]]):
    def _refusal(self, value: Any) -> str | None:
        return None if isinstance(value, dict) else gettext("must be an object.")


class List(_Member[list[Any]]):
    """A list of at most ``max_items`` entries (each is loaded on its own)."""

    def __init__(self, max_items: int) -> None:
        self.max_items = max_items
        super().__init__()

    def _refusal(self, value: Any) -> str | None:
        if not isinstance(value, list):
            return gettext("must be a list.")
        if len(value) > self.max_items:
            return gettext(
                "has %(count)s entries; at most %(max)s are read.",
                count=len(value),
                max=self.max_items,
            )
        return None


class Dice(_Member[list[int] | None]):
    """Null, or the results of the dice one advancement rolls."""

    def __init__(self) -> None:
        super().__init__(nullable=True)

    def _refusal(self, value: Any) -> str | None:
        if (
            isinstance(value, list)
            and 1 <= len(value) <= MAX_DICE
            and all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DIE for d in value
            )
        ):
            return None
        return gettext("must be null or a list of 1 to %(max)s die results.", max=MAX_DICE)


class Named(Text):
    """The id of something the rules know, loaded as that thing (a team type, a position):
    ``find`` looks it up (RulesError: unknown) and ``unknown`` words the refusal."""

    def __init__(self, find: Callable[[str], object], unknown: Callable[[str], str]) -> None:
        self.find = find
        self.unknown = unknown
        super().__init__(length=(1, 60))

    def _loaded(self, value: Any) -> Any:
        text = super()._loaded(value)
        try:
            return self.find(text)
        except RulesError as error:
            raise ValidationError(self.unknown(text)) from error


class Reductions(_Member[dict[str, int]]):
    """Steps lost per characteristic of the ruleset (0 where left out)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.steps = Integer(maximum=99)
        super().__init__()

    def _refusal(self, value: Any) -> str | None:
        if not isinstance(value, dict):
            return gettext("must be an object.")
        unknown = sorted(set(value) - set(self.ruleset.characteristics))
        if unknown:
            return gettext(
                "%(ruleset)s players have no %(unknown)s; the characteristics are %(known)s.",
                ruleset=self.ruleset.name,
                unknown=", ".join(map(repr, unknown)),
                known=", ".join(self.ruleset.characteristics),
            )
        return None

    def _loaded(self, value: Any) -> dict[str, int]:
        reductions: dict[str, int] = {}
        for characteristic in self.ruleset.characteristics:
            steps = value.get(characteristic, 0)
            refusal = self.steps._refusal(steps) if characteristic in value else None
            if refusal is not None:  # the first wrong one is enough
                raise ValidationError({characteristic: refusal})
            reductions[characteristic] = steps
        return reductions


class _DocumentSchema(Schema):
    class Meta:
        unknown = EXCLUDE  # members the document does not define are left alone


def loader(shape: type[Schema], *, part: bool = False, **members: fields.Field[Any]) -> Schema:
    """A schema that loads ``members`` (in that order) of an object of ``shape``: every
    member of the shape, or with ``part`` some of them (the rest read another way)."""
    declared = set(shape._declared_fields)
    unknown = set(members) - declared
    missing = set() if part else declared - set(members)
    if unknown or missing:
        raise TypeError(
            f"The loader of {shape.__name__} does not match the document: "
            f"not in it {sorted(unknown)}, not loaded {sorted(missing)}."
        )
    return _DocumentSchema.from_dict(dict(members))()


class Format(_Member[str]):
    def _refusal(self, value: Any) -> str | None:
        if value == FORMAT:
            return None
        return gettext(
            "must be %(format)s; it is %(value)s.", format=repr(FORMAT), value=show(value)
        )


class Version(_Member[int]):
    def _refusal(self, value: Any) -> str | None:
        if value == VERSION and not isinstance(value, bool):
            return None
        return gettext(
            "This server reads version %(version)s documents; it is %(value)s.",
            version=VERSION,
            value=show(value),
        )


@dataclass(slots=True)
class Loaded:
    """One object of the document, loaded: its ``values`` that passed, and the refusals
    by member (the schema's, then the rules' with :meth:`refuse`)."""

    path: str
    members: tuple[str, ...]
    values: dict[str, Any]
    refusals: dict[str, list[Problem]] = field(default_factory=dict)

    def get(self, member: str) -> Any:
        return self.values.get(member)

    def refuse(self, member: str, message: str) -> None:
        """A refusal of the rules about ``member`` (its value stays loaded)."""
        self.refusals.setdefault(member, []).append(Problem(join(self.path, member), message))

    @property
    def ok(self) -> bool:
        return not self.refusals

    def problems(self) -> list[Problem]:
        """The refusals in the document's order."""
        return [p for member in self.members for p in self.refusals.get(member, ())]


def load(document_schema: Schema, raw: Mapping[str, Any], path: str) -> Loaded:
    """``raw`` (an object at ``path``) loaded by ``document_schema``."""
    members = tuple(document_schema.load_fields)
    try:
        return Loaded(path, members, document_schema.load(raw))
    except ValidationError as error:
        loaded = Loaded(path, members, dict(error.valid_data or {}))
        messages = error.messages if isinstance(error.messages, dict) else {}
        for member in members:
            for where, message in _flat(messages.get(member), join(path, member)):
                loaded.refusals.setdefault(member, []).append(Problem(where, message))
        return loaded


def _flat(messages: object, path: str) -> list[tuple[str, str]]:
    if messages is None:
        return []
    if isinstance(messages, str):
        return [(path, messages)]
    if isinstance(messages, dict):
        return [pair for key, inner in messages.items() for pair in _flat(inner, join(path, key))]
    if isinstance(messages, list):
        return [pair for inner in messages for pair in _flat(inner, path)]
    return [(path, str(messages))]


def team_type_member(ruleset: Ruleset) -> Named:
    """A team type id of ``ruleset``, loaded as the :class:`TeamType`."""
    return Named(
        ruleset.team_type,
        lambda id_: gettext(
            "%(ruleset)s has no team type %(id)s.", ruleset=ruleset.name, id=repr(id_)
        ),
    )


def position_member(team_type: TeamType) -> Named:
    """A position id of ``team_type``, loaded as the :class:`Position`."""
    return Named(
        team_type.position,
        lambda id_: gettext(
            "%(team_type)s teams have no %(position)s.",
            team_type=team_type.name,
            position=repr(id_),
        ),
    )


# ---------------------------------------------------------------------------
# The document's shape (what the export writes, the import reads)


def _doc(text: str) -> dict[str, str]:
    return {"description": text}


class _Shape(Schema):
    class Meta:
        unknown = RAISE  # closed: the document has these members and no other


class DocumentTeamSchema(_Shape):
    """The team itself in a team document."""

    name = fields.String(required=True)
    team_type = fields.String(
        required=True, attribute="team_type_id", metadata=_doc("Team type id.")
    )
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))
    treasury = fields.Integer(required=True, metadata=_doc("Gold."))
    rerolls = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    dedicated_fans = fields.Integer(required=True)


class DocumentAdvancementSchema(_Shape):
    """An advancement in force, in a team document."""

    number = fields.Integer(required=True)
    kind = fields.String(required=True, validate=OneOf(ADVANCEMENT_KINDS))
    spp_cost = fields.Integer(required=True)
    skill = fields.String(required=True, allow_none=True)
    characteristic = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    dice_source = fields.String(required=True, allow_none=True, validate=OneOf(DICE_SOURCES))
    value_increase = fields.Integer(required=True)


@dataclass(frozen=True, slots=True)
class ExportedPlayer:
    """A player as the export writes it: with the characteristics of the team's ruleset."""

    player: Player
    characteristics: tuple[str, ...]


class DocumentPlayerSchema(_Shape):
    """A player in a team document (no id)."""

    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=_doc("Position id."))
    status = fields.String(required=True, validate=OneOf(PLAYER_STATUSES))
    spp_earned = fields.Integer(required=True)
    spp_spent = fields.Integer(required=True)
    niggling_injuries = fields.Integer(required=True)
    reductions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=_doc("Steps lost to lasting injuries, per characteristic."),
    )
    advancements = fields.List(fields.Nested(DocumentAdvancementSchema), required=True)

    @pre_dump
    def _of_player(self, exported: ExportedPlayer, **kwargs: Any) -> dict[str, Any]:
        player = exported.player
        return {
            "name": player.name,
            "number": player.number,
            "position": player.position_id,
            "status": player.status,
            "spp_earned": player.spp_earned,
            "spp_spent": player.spp_spent,
            "niggling_injuries": player.niggling_injuries,
            "reductions": {c: player.reduction(c) for c in exported.characteristics},
            # Undone advancements are history of this league; the player's state is what
            # counts.
            "advancements": sorted(player.active_advancements, key=lambda a: a.number),
        }


class DocumentLedgerEntrySchema(_Shape):
    """A treasury ledger entry in a team document."""

    amount = fields.Integer(required=True, metadata=_doc("Gold; negative when spent."))
    kind = fields.String(required=True, validate=OneOf(ENTRY_KINDS))
    description = fields.String(required=True)
    item = fields.String(required=True, allow_none=True, validate=OneOf(PURCHASE_ITEMS))


@dataclass(frozen=True, slots=True)
class ExportedTeam:
    """A team as the export writes it: with the characteristics of its ruleset."""

    team: Team
    characteristics: tuple[str, ...]


def _by_id(row: Any) -> int:
    return int(row.id)


class TeamDocumentSchema(_Shape):
    """A team as a portable document (no ids), to import into a league of the same ruleset."""

    format = fields.String(required=True, validate=OneOf((FORMAT,)))
    version = fields.Integer(required=True, validate=OneOf((VERSION,)))
    ruleset = fields.String(required=True, metadata=_doc("Ruleset id."))
    team = fields.Nested(DocumentTeamSchema, required=True)
    players = fields.List(
        fields.Nested(DocumentPlayerSchema),
        required=True,
        metadata=_doc("Every player who was ever on the team, in hiring order."),
    )
    ledger = fields.List(fields.Nested(DocumentLedgerEntrySchema), required=True)

    @pre_dump
    def _of_team(self, exported: ExportedTeam, **kwargs: Any) -> dict[str, Any]:
        team = exported.team
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": team.league.ruleset_id,
            "team": team,
            # In hiring order, so that an import recreates them in the same order.
            # Match-day players (unhired journeymen, mercenaries, stars) are not the team's.
            "players": [
                ExportedPlayer(player, exported.characteristics)
                for player in sorted(team.players, key=_by_id)
                if not player.match_day_only
            ],
            "ledger": sorted(team.ledger, key=_by_id),
        }


def dump_team(team: Team, ruleset: Ruleset) -> dict[str, Any]:
    """The team as a version 1 document (no ids: it describes the team, not this database)."""
    document: dict[str, Any] = TeamDocumentSchema().dump(
        ExportedTeam(team, tuple(ruleset.characteristics))
    )
    return document
