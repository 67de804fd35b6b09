"""Membership: GET|POST /api/v1/leagues/<id>/members, PATCH|DELETE .../members/<user_id>,
POST .../owner, GET|POST .../join-link, POST .../join (the same services as the members
page)."""

from __future__ import annotations

from typing import Any

from flask import g, request

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import (
    JoinLinkSchema,
    JoinRequestSchema,
    MemberRoleSchema,
    MemberSchema,
    MembersSchema,
    NewMemberSchema,
    NewOwnerSchema,
    RemoveMemberSchema,
)
from league.extensions import db
from league.services import access, leagues
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"
MEMBER = f"{LEAGUE}/members/<id:user_id>"


@bp.get(f"{LEAGUE}/members")
def list_members(league_id: int) -> dict[str, Any]:
    """The league's members and their roles (as on the league page).
    ---
    get:
      tags: [Members]
      responses:
        200: Members
      errors:
        404: No such league.
    """
    league = access.get_league(db.session(), league_id)
    return MembersSchema.body({"members": access.active_members(league)})


@bp.post(f"{LEAGUE}/members")
@token_required
def add_member(league_id: int) -> tuple[dict[str, Any], int]:
    """Add a registered user to the league as a coach (commissioner).
    ---
    post:
      tags: [Members]
      requestBody: NewMember
      responses:
        201: Member
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league, or no user of that name.
        409: The user is already a member.
    """
    username = NewMemberSchema().load(json_object())["username"]
    with unit_of_work() as session:
        member = leagues.add_member_by_username(session, g.api_user, league_id, username)
        result = MemberSchema.body(member)
    return result, 201


@bp.patch(MEMBER)
@token_required
def change_member(league_id: int, user_id: int) -> dict[str, Any]:
    """Change a member's role (commissioner): a coach becomes a (co-)commissioner.

    As on the members page, a commissioner does not step back to coach; remove and add
    them again instead.
    ---
    patch:
      tags: [Members]
      requestBody: MemberRole
      responses:
        200: Member
      errors:
        400: Malformed body, or a role other than `commissioner` (`invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league, or no such member.
    """
    MemberRoleSchema().load(json_object())  # "commissioner", the one role it can give
    with unit_of_work() as session:
        result = MemberSchema.body(leagues.promote(session, g.api_user, league_id, user_id))
    return result


@bp.delete(MEMBER)
@token_required
def remove_member(league_id: int, user_id: int) -> dict[str, Any]:
    """Remove a member (commissioner); their teams stay in the league, and the join link
    changes (the removed member knew it).

    Without a body (or without `hand_teams_to`) the member's teams are left without a
    coach: only commissioners act on them, even if the member joins again. The league's
    owner cannot be removed.
    ---
    delete:
      tags: [Members]
      requestBody:
        required: false
        content:
          application/json:
            schema: RemoveMember
      responses:
        200: Member
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league, no such member, or `hand_teams_to` names no other member.
        409: The member is the league's owner.
    """
    body = json_object() if request.get_data() else {}
    hand_teams_to = RemoveMemberSchema().load(body)["hand_teams_to"]
    with unit_of_work() as session:
        member = leagues.remove_member(
            session, g.api_user, league_id, user_id, hand_teams_to=hand_teams_to
        )
        result = MemberSchema.body(member)
    return result


@bp.post(f"{LEAGUE}/owner")
@token_required
def hand_over(league_id: int) -> dict[str, Any]:
    """Make another commissioner the league's owner (the owner only); the former owner
    stays a commissioner.
    ---
    post:
      tags: [Members]
      requestBody: NewOwner
      responses:
        200: Member
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not the league's owner.
        404: No such league, or no such member.
        409: The member is not a commissioner, or already the owner.
    """
    user_id = NewOwnerSchema().load(json_object())["user_id"]
    with unit_of_work() as session:
        member = leagues.hand_over_ownership(session, g.api_user, league_id, user_id)
        result = MemberSchema.body(member)
    return result


@bp.get(f"{LEAGUE}/join-link")
@token_required
def get_join_link(league_id: int) -> dict[str, Any]:
    """The league's join link (commissioner): whoever has it may join as a coach.
    ---
    get:
      tags: [Members]
      responses:
        200: JoinLink
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league.
    """
    league = access.get_league(db.session(), league_id)
    access.require_commissioner(league, g.api_user)
    return JoinLinkSchema.body(league)


@bp.post(f"{LEAGUE}/join-link")
@token_required
def new_join_link(league_id: int) -> tuple[dict[str, Any], int]:
    """Make a new join link (commissioner); the old one stops working.
    ---
    post:
      tags: [Members]
      responses:
        201: JoinLink
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league.
    """
    with unit_of_work() as session:
        result = JoinLinkSchema.body(leagues.new_join_token(session, g.api_user, league_id))
    return result, 201


@bp.post(f"{LEAGUE}/join")
@token_required
def join(league_id: int) -> tuple[dict[str, Any], int]:
    """Join the league as a coach with the token of its join link (the caller joins).
    ---
    post:
      tags: [Members]
      requestBody: JoinRequest
      responses:
        201: Member
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The token is not the league's current one.
        404: No such league.
        409: The caller is already a member.
    """
    token = JoinRequestSchema().load(json_object())["token"]
    with unit_of_work() as session:
        result = MemberSchema.body(leagues.join_with_token(session, g.api_user, league_id, token))
    return result, 201
