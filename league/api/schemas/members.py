"""A league's members, roles and join link."""

from __future__ import annotations

from typing import Any

from flask import url_for
from marshmallow import fields, pre_dump
from marshmallow.validate import OneOf

from league.api.schemas.base import (
    PROMOTABLE_ROLES,
    STRING,
    RequestSchema,
    ResponseSchema,
    doc,
    integer,
    no_nul,
    text,
)
from league.models import League, LeagueMember
from league.models.league import ROLES as MEMBER_ROLES


class MemberSchema(ResponseSchema):
    """A member of a league."""

    user_id = fields.Integer(required=True)
    username = fields.String(required=True)
    role = fields.String(required=True, validate=OneOf(MEMBER_ROLES))
    owner = fields.Boolean(
        required=True,
        metadata=doc("The league's owner: a commissioner nobody can remove."),
    )

    @pre_dump
    def _of_member(self, member: LeagueMember, **kwargs: Any) -> dict[str, Any]:
        return {
            "user_id": member.user_id,
            "username": member.user.username,
            "role": member.role,
            "owner": member.user_id == member.league.owner_id,
        }


class MembersSchema(ResponseSchema):
    """A league's members."""

    members = fields.List(fields.Nested(MemberSchema), required=True)


class NewMemberSchema(RequestSchema):
    """A registered user to add as a coach."""

    username = text("The user's name.", required=True)


class MemberRoleSchema(RequestSchema):
    """A member's new role."""

    role = fields.String(
        required=True,
        validate=[
            no_nul,
            OneOf(
                PROMOTABLE_ROLES,
                error="must be 'commissioner': a coach can be promoted, not demoted.",
            ),
        ],
        error_messages=STRING,
    )


class RemoveMemberSchema(RequestSchema):
    """What becomes of a removed member's teams (the body is optional)."""

    hand_teams_to = text(
        "Username of another member who takes the teams over; absent or null: the teams "
        "are left without a coach, and only commissioners act on them.",
        allow_none=True,
        load_default=None,
    )


class NewOwnerSchema(RequestSchema):
    """The commissioner who becomes the league's owner."""

    user_id = integer("User id of a commissioner of the league.", required=True)


class JoinLinkSchema(ResponseSchema):
    """The league's join link: whoever has it may join as a coach."""

    token = fields.String(required=True, metadata=doc("Send it to `POST /leagues/{id}/join`."))
    url = fields.String(required=True, metadata=doc("The page a person opens to join."))

    @pre_dump
    def _of_league(self, league: League, **kwargs: Any) -> dict[str, Any]:
        url = url_for("leagues.join", league_id=league.id, token=league.join_token, _external=True)
        return {"token": league.join_token, "url": url}


class JoinRequestSchema(RequestSchema):
    """The token of the league's join link."""

    token = text("From the join link.", required=True)
