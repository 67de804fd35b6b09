"""Who a token belongs to."""

from __future__ import annotations

from marshmallow import (
    fields,
)

from league.api.schemas.base import ResponseSchema, doc


class MeSchema(ResponseSchema):
    """The user a token belongs to."""

    username = fields.String(required=True)
    admin = fields.Boolean(required=True, metadata=doc("A site admin may do anything."))
