"""Tournament entries: the teams of a league run as Swiss rounds, their coaches and clubs."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump

from league.api.schemas.base import (
    RequestSchema,
    ResponseSchema,
    ServiceLength,
    ServiceRange,
    doc,
    integer,
    no_nul,
    text,
)
from league.models import Team
from league.services.entries import MAX_CLUB, MAX_RATING


class EntrySchema(ResponseSchema):
    """An entry: a team, its coach (with the coach's NAF name and number) and club."""

    team_id = fields.Integer(required=True, metadata=doc("The team's id (the entry's id)."))
    name = fields.String(required=True)
    team_type = fields.String(required=True, metadata=doc("Team type id."))
    status = fields.String(required=True, metadata=doc("The team's status."))
    coach = fields.String(required=True, metadata=doc("The coach's username."))
    naf_name = fields.String(required=True, allow_none=True, metadata=doc("From their profile."))
    naf_number = fields.Integer(required=True, allow_none=True, metadata=doc("From their profile."))
    club = fields.String(required=True, allow_none=True, metadata=doc("Club or nation."))
    seed_rating = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("The rating a seeded first round ranks by; null: the default (150)."),
    )
    entered_round = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("A late entry: the first round it is paired in; null: from the start."),
    )
    dropped = fields.Boolean(required=True, metadata=doc("No longer paired; its games stand."))
    dropped_after_round = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("Rounds paired when it dropped (0: withdrew before the start)."),
    )

    @pre_dump
    def _of_team(self, team: Team, **kwargs: Any) -> dict[str, Any]:
        return {
            "team_id": team.id,
            "name": team.name,
            "team_type": team.team_type_id,
            "status": team.status,
            "coach": team.coach.username,
            "naf_name": team.coach.naf_name,
            "naf_number": team.coach.naf_number,
            "club": team.club,
            "seed_rating": team.seed_rating,
            "entered_round": team.entered_round,
            "dropped": team.dropped_at is not None,
            "dropped_after_round": team.dropped_after_round,
        }


class EntryListSchema(ResponseSchema):
    """The league's entries (teams not retired), by name."""

    entries = fields.List(fields.Nested(EntrySchema), required=True)


class NewEntrySchema(RequestSchema):
    """An entry: an existing team (`team_id`) or a new team (`name`, `team_type`, `coach`,
    active at once), with its club or nation and seed rating."""

    team_id = integer("An existing team of the league; absent: a new team.", allow_none=True)
    name = text("A new team's name, 2 to 80 characters.", allow_none=True)
    team_type = text("A new team's type id.", allow_none=True)
    coach = text("A new team's coach (username, a member of the league).", allow_none=True)
    club = fields.String(
        allow_none=True,
        validate=[no_nul, ServiceLength(max=MAX_CLUB)],
        metadata=doc(f"Club or nation, at most {MAX_CLUB} characters; null: none."),
    )
    seed_rating = integer(
        f"0 to {MAX_RATING}; null: the default.",
        allow_none=True,
        validate=ServiceRange(0, MAX_RATING),
    )
