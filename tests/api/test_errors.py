"""One table turns error codes into statuses; every refusal has one JSON shape."""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import Schema, ValidationError

from league.api.errors import (
    BadRequest,
    Unauthorized,
    details,
    invalid_field,
    schema_refusal,
    status_of,
)
from league.api.schemas import (
    NewAdvancementSchema,
    NewPlayerSchema,
    PurchaseSchema,
    TreasuryAdjustmentSchema,
)
from league.services.errors import (
    ConcurrentChange,
    Conflict,
    DomainError,
    Forbidden,
    NotFound,
    Problem,
    RuleViolation,
)
from league.services.exchange import InvalidDocument
from league.services.matches import ReportErrors
from league.services.submissions import Resubmitted


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (BadRequest("Send a JSON object as the request body."), 400),
        (invalid_field("amount", "'amount' is required."), 400),
        (Unauthorized("Send a valid API token."), 401),
        (Forbidden("Only a commissioner can do that."), 403),
        (NotFound("There is no match number 7."), 404),
        (Conflict("Already voided."), 409),
        # An own code the table does not list: the class's code decides.
        (Conflict("Gold already spent.", code="winnings_spent"), 409),
        (ConcurrentChange("Someone made the same change."), 409),
        (Resubmitted("Hired #3 Grim. (The form was sent twice; it counted once.)"), 409),
        (RuleViolation("Not enough gold.", code="insufficient_treasury"), 422),
        (ReportErrors(problems=[Problem("home_score", "A score cannot be negative.")]), 422),
        (InvalidDocument([Problem("name", "'name' must be a string.")]), 422),
        (DomainError("Refused."), 422),
    ],
)
def test_the_status_comes_from_the_code_table(error: DomainError, status: int) -> None:
    assert status_of(error) == status


def test_problems_are_grouped_by_field_in_the_order_first_named() -> None:
    refused = ReportErrors()
    refused.add("home_score", "A score cannot be negative.")
    refused.add("players[0].td", "Touchdowns cannot be negative.")
    refused.add("home_score", "A score is at most 1,000.")
    assert refused.fields == {
        "home_score": ["A score cannot be negative.", "A score is at most 1,000."],
        "players[0].td": ["Touchdowns cannot be negative."],
    }
    # Without a message of its own, the message is every problem's, field by field.
    assert refused.message == (
        "A score cannot be negative. A score is at most 1,000. Touchdowns cannot be negative."
    )


def test_every_problem_list_is_answered_as_fields() -> None:
    report = ReportErrors(problems=[Problem("home_score", "A score cannot be negative.")])
    assert details(report) == {"fields": {"home_score": ["A score cannot be negative."]}}
    document = InvalidDocument(
        [
            Problem("players[0].number", "Too big."),
            Problem("ledger[0].amount", "Not a number."),
            Problem("players[0].number", "Taken."),
        ]
    )
    # The import keeps its list as `problems` too, in the document's order.
    assert details(document) == {
        "fields": {
            "players[0].number": ["Too big.", "Taken."],
            "ledger[0].amount": ["Not a number."],
        },
        "problems": [
            {"path": "players[0].number", "message": "Too big."},
            {"path": "ledger[0].amount", "message": "Not a number."},
            {"path": "players[0].number", "message": "Taken."},
        ],
    }
    assert details(RuleViolation("Say why.", field="number")) == {}


def test_a_single_refusal_is_one_problem_on_its_field() -> None:
    refused = RuleViolation("Shirt numbers run from 1 to 99.", field="number")
    assert refused.problems == [Problem("number", "Shirt numbers run from 1 to 99.")]
    assert refused.field == "number"
    assert [*RuleViolation("Say why.").fields] == [""]  # "": the request as a whole


@pytest.mark.parametrize(
    ("schema", "body", "field", "message"),
    [
        (NewPlayerSchema, {}, "position", "'position' is required."),
        (NewPlayerSchema, {"position": None}, "position", "'position' is required."),
        (NewPlayerSchema, {"position": 7}, "position", "'position' must be a string."),
        (
            NewPlayerSchema,
            {"position": "human-lineman", "name": "a\x00b"},
            "name",
            "'name' must not contain NUL characters.",
        ),
        (
            NewPlayerSchema,
            {"position": "human-lineman", "name": "Grim", "number": 2.5},
            "number",
            "'number' must be an integer.",
        ),
        (TreasuryAdjustmentSchema, {"amount": True, "reason": "x"}, "amount", None),
        (
            NewAdvancementSchema,
            {"kind": "chosen_primary", "dice": [1, 2, 3, 4, 5]},
            "dice",
            "'dice' must be a list of at most 4 integers (the dice rolled).",
        ),
        (
            NewAdvancementSchema,
            {"kind": "chosen_primary", "characteristic": "xx"},
            "characteristic",
            "'characteristic' must be one of: ma, st, ag, pa, av.",
        ),
    ],
)
def test_a_schema_refusal_is_a_400_naming_the_first_field(
    schema: type[Schema], body: dict[str, Any], field: str, message: str | None
) -> None:
    with pytest.raises(ValidationError) as refused:
        schema().load(body)
    error = schema_refusal(refused.value)
    assert (status_of(error), error.code, error.field) == (400, "invalid_field", field)
    assert error.message == (message or f"'{field}' must be an integer.")


def test_a_rule_the_service_checks_passes_the_schema() -> None:
    # Unknown items and adjustments over 10,000,000 gold are the service's 422s.
    assert PurchaseSchema().load({"item": "dragon"}) == {"item": "dragon"}
    loaded = TreasuryAdjustmentSchema().load({"amount": 10_000_001, "reason": "x"})
    assert loaded == {"amount": 10_000_001, "reason": "x"}
    # As in JSON Schema, 2.0 is an integer.
    assert NewAdvancementSchema().load({"kind": "random_primary", "dice": [2.0, 5]})["dice"] == [
        2,
        5,
    ]
