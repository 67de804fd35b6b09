"""The error body every refusal of the API answers with."""

from __future__ import annotations

from marshmallow import fields

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
    fields_ = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        data_key="fields",
        attribute="fields",
        metadata=doc(
            "Only for an error that lists every problem found at once: `invalid_report` "
            "(422 on a match report) and `invalid_document` (422 on a team import). The "
            "problems' messages by where they apply, in the order first named: the part "
            "of the report (`home_score`, `player_12`, ...) or the path in the document "
            "(`players[2].number`)."
        ),
    )
    problems = fields.List(
        fields.Nested(DocumentProblemSchema),
        metadata=doc(
            "Only for `invalid_document`: the same problems as `fields`, as a list in the "
            "document's order (the name the import answered with first)."
        ),
    )


class ErrorSchema(ResponseSchema):
    """The body of every error response (400, 401, 403, 404, 409, 422; and 500)."""

    error = fields.Nested(ErrorDetailSchema, required=True)
