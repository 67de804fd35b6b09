"""Advancement: options, advancements taken, pending rolls."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import Length, OneOf, Range

from league.api.schemas.base import (
    ADVANCEMENT_KINDS,
    MAX_DIE,
    ONE_OF,
    STRING,
    Dice,
    JsonInteger,
    RequestSchema,
    ResponseSchema,
    doc,
    no_nul,
    text,
    timestamp,
)
from league.api.schemas.teams import PlayerSchema
from league.models import Advancement
from league.rules import (
    CHARACTERISTICS,
    MAX_DICE,
)


class AdvancementOptionSchema(ResponseSchema):
    """A kind of advancement and whether the player may take it now."""

    kind = fields.String(required=True, validate=OneOf(ADVANCEMENT_KINDS))
    cost = fields.Integer(
        required=True, allow_none=True, metadata=doc("SPP; null in roll mode or when maxed.")
    )
    value_increase = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("Base increase of a skill kind; null for the characteristic kind."),
    )
    affordable = fields.Boolean(required=True)
    refused = fields.String(
        required=True, allow_none=True, metadata=doc("Why not, when not affordable.")
    )
    skills = fields.List(fields.String(), required=True, metadata=doc("Skills legal for it."))
    categories = fields.List(fields.String(), required=True)
    characteristic_value_increases = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata=doc("Characteristic kind only: value increase per characteristic."),
    )


class KeptRollSchema(ResponseSchema):
    """Dice the server rolled that still wait for the coach's choice."""

    kind = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True)


class AdvancementOptionsSchema(ResponseSchema):
    """What a player may take next."""

    player_id = fields.Integer(required=True)
    available_spp = fields.Integer(required=True)
    advancements_taken = fields.Integer(required=True)
    next_advancement = fields.Integer(
        required=True, allow_none=True, metadata=doc("1-based; null when maxed out.")
    )
    level = fields.String(required=True)
    must_spend = fields.Boolean(required=True)
    pending_rolls = fields.Integer(required=True, metadata=doc("Roll mode: rolls earned."))
    pending_roll = fields.Nested(KeptRollSchema, required=True, allow_none=True)
    options = fields.List(fields.Nested(AdvancementOptionSchema), required=True)


class AdvancementSchema(ResponseSchema):
    """An advancement taken: what it gave, what it cost and the dice behind it."""

    id = fields.Integer(required=True)
    player_id = fields.Integer(required=True)
    number = fields.Integer(required=True, metadata=doc("1 for the first advancement."))
    kind = fields.String(required=True)
    spp_cost = fields.Integer(required=True)
    skill = fields.String(required=True, allow_none=True)
    characteristic = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    dice_source = fields.String(
        required=True, allow_none=True, metadata=doc("`table` or `server`.")
    )
    value_increase = fields.Integer(required=True)
    created_at = fields.String(required=True, metadata=doc("ISO 8601 date and time."))
    undone_at = fields.String(required=True, allow_none=True)

    @pre_dump
    def _of_advancement(self, advancement: Advancement, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": advancement.id,
            "player_id": advancement.player_id,
            "number": advancement.number,
            "kind": advancement.kind,
            "spp_cost": advancement.spp_cost,
            "skill": advancement.skill,
            "characteristic": advancement.characteristic,
            "category": advancement.category,
            "dice": None if advancement.dice is None else list(advancement.dice),
            "dice_source": advancement.dice_source,
            "value_increase": advancement.value_increase,
            "created_at": timestamp(advancement.created_at),
            "undone_at": timestamp(advancement.undone_at),
        }


class AdvancementListSchema(ResponseSchema):
    """Every advancement a player took, undone ones included."""

    advancements = fields.List(fields.Nested(AdvancementSchema), required=True)


class NewAdvancementSchema(RequestSchema):
    """An advancement to take."""

    kind = fields.String(
        required=True,
        validate=[no_nul, OneOf(ADVANCEMENT_KINDS, error=ONE_OF)],
        error_messages=STRING,
    )
    skill = text("Chosen kinds, and BB2025 random kinds: the skill picked.", allow_none=True)
    category = text("Random skill kinds: the category code rolled on.", allow_none=True)
    dice = Dice(
        JsonInteger(validate=Range(min=-MAX_DIE, max=MAX_DIE)),
        allow_none=True,
        validate=Length(max=MAX_DICE),
        metadata=doc(
            "Dice rolled at the table (BB2020 skill: [d6, d6]; BB2025: [d6, d6, d6, d6]; "
            "characteristic: [d16] or [d8]); absent: the server rolls."
        ),
    )
    characteristic = fields.String(
        allow_none=True,
        validate=[no_nul, OneOf(CHARACTERISTICS, error=ONE_OF)],
        error_messages=STRING,
        metadata=doc("Characteristic kind: the one picked among those the roll allows."),
    )


class AdvancementTakenSchema(ResponseSchema):
    """The advancement taken and the player after it."""

    advancement = fields.Nested(AdvancementSchema, required=True)
    player = fields.Nested(PlayerSchema, required=True)


class PendingRollSchema(KeptRollSchema):
    """Dice the server rolled; the coach's choice is still needed."""

    message = fields.String(required=True)


class AdvancementPendingSchema(ResponseSchema):
    """Nothing bought yet: repeat the call with the choice (`skill` or `characteristic`)."""

    pending_roll = fields.Nested(PendingRollSchema, required=True)
    player = fields.Nested(PlayerSchema, required=True)
