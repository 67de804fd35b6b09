"""A season's fixtures."""

from __future__ import annotations

from datetime import date
from typing import Any, ClassVar

from marshmallow import (
    ValidationError,
    fields,
    pre_dump,
)
from marshmallow.validate import OneOf, Range

from league.api.schemas.base import (
    BOOLEAN,
    FIXTURE_FORMATS,
    ISO_DATE,
    MAX_ROUND,
    STRING,
    Boolean,
    JsonInteger,
    RequestSchema,
    ResponseSchema,
    ServiceRange,
    doc,
    integer,
    no_nul,
    row_id,
)
from league.models.match import MATCH_STATES
from league.services.fixtures import MAX_DAYS_BETWEEN, Fixture


class FixtureSchema(ResponseSchema):
    """A fixture of a season: a scheduled match, or one played."""

    id = fields.Integer(required=True, metadata=doc("The match id."))
    round = fields.Integer(required=True, allow_none=True)
    date = fields.String(required=True, allow_none=True, metadata=doc("YYYY-MM-DD."))
    state = fields.String(required=True, validate=OneOf(MATCH_STATES))
    friendly = fields.Boolean(required=True)
    home_team = fields.Integer(required=True, metadata=doc("Team id."))
    away_team = fields.Integer(required=True, metadata=doc("Team id."))
    home_score = fields.Integer(required=True)
    away_score = fields.Integer(required=True)

    @pre_dump
    def _of_fixture(self, fixture: Fixture, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": fixture.match_id,
            "round": fixture.round,
            "date": fixture.scheduled_for.isoformat() if fixture.scheduled_for else None,
            "state": fixture.state,
            "friendly": fixture.friendly,
            "home_team": fixture.home.team_id,
            "away_team": fixture.away.team_id,
            "home_score": fixture.home.score,
            "away_score": fixture.away.score,
        }


class FixtureListSchema(ResponseSchema):
    """A season's fixtures, by round then date."""

    season = fields.String(required=True, metadata=doc("The season's name."))
    fixtures = fields.List(fields.Nested(FixtureSchema), required=True)


class IsoDate(fields.Date):
    """A calendar date written YYYY-MM-DD, and only so (not 2026-1-1, not 20260101)."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be a date, YYYY-MM-DD.",
        "type": "must be a string.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> date:
        if not isinstance(value, str):
            raise self.make_error("type")
        no_nul(value)
        try:
            if not ISO_DATE.fullmatch(value):
                raise ValueError(value)  # fromisoformat also takes 20260101 and week dates
            return date.fromisoformat(value)
        except ValueError:
            raise self.make_error("invalid") from None


class NewFixtureSchema(RequestSchema):
    """One fixture to add to the current season."""

    home_team = integer("Team id.", required=True, validate=row_id())
    away_team = integer("Team id.", required=True, validate=row_id())
    round = JsonInteger(
        metadata=doc("Round number."),
        allow_none=True,
        validate=Range(1, MAX_ROUND, error="must be from {min} to {max}."),
    )
    date = IsoDate(allow_none=True, metadata=doc("YYYY-MM-DD."))
    friendly = Boolean(metadata=doc("Does not count in the standings."), error_messages=BOOLEAN)
    add_another = Boolean(
        metadata=doc("Add it even though the two teams already meet in that round."),
        error_messages=BOOLEAN,
    )


class CloseSeasonSchema(RequestSchema):
    """Optional: what becomes of the season's matches still waiting for a result."""

    mark_unplayed = Boolean(
        metadata=doc(
            "Mark them unplayed (default false: they stay scheduled; either way no result "
            "can be entered once the season is closed)."
        ),
        error_messages=BOOLEAN,
    )


class FixtureFormat(OneOf):
    """`single` or `double`; an empty string, like null, is the default `single`."""

    def __call__(self, value: Any) -> Any:
        if value and value not in self.choices:
            raise ValidationError("must be 'single' or 'double'.")
        return value


class GenerateFixturesSchema(RequestSchema):
    """A round robin to generate."""

    format = fields.String(
        allow_none=True,
        validate=[no_nul, FixtureFormat(FIXTURE_FORMATS)],
        metadata=doc("`single` (default): every team meets every other once; `double`: twice."),
        error_messages=STRING,
    )
    start_date = IsoDate(allow_none=True, metadata=doc("Date of round 1, YYYY-MM-DD."))
    days_between = JsonInteger(
        metadata=doc("Days between rounds (default 7)."),
        allow_none=True,
        validate=ServiceRange(1, MAX_DAYS_BETWEEN),
    )
