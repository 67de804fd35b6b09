"""The error body every refusal of the API answers with."""

from __future__ import annotations

from marshmallow import (
    fields,
)

from league.api.schemas.base import ResponseSchema, doc


class DocumentProblemSchema(ResponseSchema):
    """A problem of an imported team document: where it is and what is wrong."""

    path = fields.String(required=True, metadata=doc("e.g. `players[2].advancements[0].skill`"))
    message = fields.String(required=True)


class ErrorDetailSchema(ResponseSchema):
    """What went wrong: a stable code for programs, a message for people."""

    code = fields.String(
        required=True,
        metadata=doc(
            "snake_case code, e.g. `bad_request`, `invalid_field`, `unauthorized`, `forbidden`, "
            "`not_found`, `conflict`, `rule_violation`, `insufficient_spp`, `invalid_report`, "
            "`invalid_document`, `internal` (500: a fault of the server, never of the request)."
        ),
    )
    message = fields.String(required=True, metadata=doc("A sentence a person reads."))
    report_fields = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        data_key="fields",
        metadata=doc(
            "Only for `invalid_report` (422 on a match report): every problem found, "
            "by the part of the report it concerns (`home_score`, `player_12`, ...)."
        ),
    )
    problems = fields.List(
        fields.Nested(DocumentProblemSchema),
        metadata=doc("Only for `invalid_document` (422 on a team import): every problem found."),
    )


class ErrorSchema(ResponseSchema):
    """The body of every error response (400, 401, 403, 404, 409, 422; and 500)."""

    error = fields.Nested(ErrorDetailSchema, required=True)
