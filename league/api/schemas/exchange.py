"""The team document of the export and the import (league.services.exchange)."""

from __future__ import annotations

from marshmallow import (
    fields,
)
from marshmallow.validate import OneOf

from league.api.schemas.base import ADVANCEMENT_KINDS, ResponseSchema, doc
from league.models.ledger import ENTRY_KINDS
from league.models.player import PLAYER_STATUSES
from league.models.team import TEAM_STATUSES
from league.services.team_document import FORMAT as DOCUMENT_FORMAT
from league.services.team_document import VERSION as DOCUMENT_VERSION
from league.services.teams import ITEMS


class DocumentTeamSchema(ResponseSchema):
    """The team itself in a team document."""

    name = fields.String(required=True)
    team_type = fields.String(required=True, metadata=doc("Team type id."))
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))
    treasury = fields.Integer(required=True, metadata=doc("Gold."))
    rerolls = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    dedicated_fans = fields.Integer(required=True)


class DocumentAdvancementSchema(ResponseSchema):
    """An advancement in force, in a team document."""

    number = fields.Integer(required=True)
    kind = fields.String(required=True, validate=OneOf(ADVANCEMENT_KINDS))
    spp_cost = fields.Integer(required=True)
    skill = fields.String(required=True, allow_none=True)
    characteristic = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    dice_source = fields.String(required=True, allow_none=True, validate=OneOf(("server", "table")))
    value_increase = fields.Integer(required=True)


class DocumentPlayerSchema(ResponseSchema):
    """A player in a team document (no id)."""

    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=doc("Position id."))
    status = fields.String(required=True, validate=OneOf(PLAYER_STATUSES))
    spp_earned = fields.Integer(required=True)
    spp_spent = fields.Integer(required=True)
    niggling_injuries = fields.Integer(required=True)
    reductions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=doc("Steps lost to lasting injuries, per characteristic."),
    )
    advancements = fields.List(fields.Nested(DocumentAdvancementSchema), required=True)


class DocumentLedgerEntrySchema(ResponseSchema):
    """A treasury ledger entry in a team document."""

    amount = fields.Integer(required=True, metadata=doc("Gold; negative when spent."))
    kind = fields.String(required=True, validate=OneOf(ENTRY_KINDS))
    description = fields.String(required=True)
    item = fields.String(required=True, allow_none=True, validate=OneOf(ITEMS))


class TeamDocumentSchema(ResponseSchema):
    """A team as a portable document (no ids), to import into a league of the same ruleset."""

    format = fields.String(required=True, validate=OneOf((DOCUMENT_FORMAT,)))
    version = fields.Integer(required=True, validate=OneOf((DOCUMENT_VERSION,)))
    ruleset = fields.String(required=True, metadata=doc("Ruleset id."))
    team = fields.Nested(DocumentTeamSchema, required=True)
    players = fields.List(
        fields.Nested(DocumentPlayerSchema),
        required=True,
        metadata=doc("Every player who was ever on the team, in hiring order."),
    )
    ledger = fields.List(fields.Nested(DocumentLedgerEntrySchema), required=True)
