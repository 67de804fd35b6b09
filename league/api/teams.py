"""Teams and players: GET/PATCH /api/v1/teams/<id>, its logo, hiring, purchases,
treasury, GET/DELETE players."""

from __future__ import annotations

from typing import Any

from flask import current_app, g, request
from werkzeug.wrappers import Response

from league import caching
from league.api import bp
from league.api.auth import token_required
from league.api.errors import invalid_field
from league.api.parsing import json_object
from league.api.schemas import (
    MatchedPlayCheckSchema,
    NewPlayerSchema,
    PlayerSchema,
    PurchaseSchema,
    RosterApprovalSchema,
    RosterReviewSchema,
    TeamChangesSchema,
    TeamSchema,
    TreasuryAdjustedSchema,
    TreasuryAdjustmentSchema,
)
from league.api.schemas.teams import player_line
from league.extensions import db
from league.services import access, identity, logos, matched_play, roster_approval, teams
from league.services.errors import NotFound
from league.services.rosters import team_page_version
from league.services.unit_of_work import unit_of_work

TEAM = "/teams/<id:team_id>"
PLAYER = "/players/<id:player_id>"


@bp.get(TEAM)
def get_team(team_id: int) -> Response:
    """A team sheet: treasury, staff, team value and every player who was ever on it.

    The same for every caller, so it carries the team's fingerprint as its ETag
    (304 on `If-None-Match`) and the rendered JSON is reused until the team changes.
    ---
    get:
      tags: [Teams]
      responses:
        200: Team
      errors:
        404: No such team.
    """
    version = team_page_version(db.session(), team_id)
    if version is None:
        raise NotFound(f"There is no team number {team_id}.")
    return caching.cached_response(
        f"api-team:{team_id}",
        version,
        lambda: current_app.json.dumps(TeamSchema.body(access.get_team(db.session(), team_id))),
        mimetype="application/json",
    )


@bp.patch(TEAM)
@token_required
def update_team(team_id: int) -> dict[str, Any]:
    """Change a team's colours (its coach or a commissioner).

    Members left out stay as they are. The colours are checked as on the team page:
    two `#rrggbb` colours whose contrast is at least 3:1 (WCAG large text: the team's
    name is written in the second colour on the main one).
    ---
    patch:
      tags: [Teams]
      requestBody: TeamChanges
      responses:
        200: Team
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        422: >-
          Not two colours, a colour not written `#rrggbb` (`colours_invalid`), or two
          colours too alike to read one on the other (`colours_unreadable`).
    """
    body = json_object()
    with unit_of_work() as session:
        access.get_team(session, team_id, history=False)  # an unknown team is a 404 first
        changes = TeamChangesSchema().load(body)
        if "colours" in changes:
            identity.set_colours(session, g.api_user, team_id, changes["colours"])
        result = TeamSchema.body(access.get_team(session, team_id))
    return result


@bp.put(f"{TEAM}/logo")
@token_required
def upload_logo(team_id: int) -> dict[str, Any]:
    """Upload a team's logo (its coach or a commissioner), replacing any other.

    A `multipart/form-data` body with the file in the field `logo`: PNG, JPEG or WebP,
    at most 2 MB and 10,000 pixels on a side, its content what its name says. It is
    re-drawn as 256- and 64-pixel square PNGs without its metadata. Answers with the
    team, whose `logo_url` is the new logo's address.
    ---
    put:
      tags: [Teams]
      requestBody:
        required: true
        description: The logo file.
        content:
          multipart/form-data:
            schema:
              type: object
              required: [logo]
              properties:
                logo:
                  type: string
                  contentMediaType: application/octet-stream
                  description: A .png, .jpg, .jpeg or .webp file of at most 2 MB.
      responses:
        200: Team
      errors:
        400: No file in the field `logo` (`invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        422: >-
          The file is refused and nothing is stored: over 2 MB (`logo_too_large`), not
          PNG, JPEG or WebP, SVG included (`logo_format`), its content not its extension
          (`logo_mismatch`), over 10,000 pixels on a side (`logo_dimensions`), a
          decompression bomb (`logo_bomb`), or not an image (`logo_unreadable`).
    """
    upload = request.files.get("logo")
    if upload is None or not upload.filename:
        raise invalid_field("logo", "'logo' must be the image, sent as a multipart/form-data file.")
    try:
        data = upload.stream.read(logos.MAX_BYTES + 1)
    finally:
        upload.close()
    with unit_of_work() as session:
        identity.set_logo(session, g.api_user, team_id, data, upload.filename)
        result = TeamSchema.body(access.get_team(session, team_id))
    return result


@bp.delete(f"{TEAM}/logo")
@token_required
def remove_logo(team_id: int) -> dict[str, Any]:
    """Remove a team's logo (its coach or a commissioner); answers with the team.

    Removing a logo the team does not have changes nothing and answers the same.
    ---
    delete:
      tags: [Teams]
      responses:
        200: Team
      errors:
        403: The caller may not change this team.
        404: No such team.
    """
    with unit_of_work() as session:
        identity.remove_logo(session, g.api_user, team_id)
        result = TeamSchema.body(access.get_team(session, team_id))
    return result


@bp.get(f"{TEAM}/matched-play")
def get_matched_play(team_id: int) -> dict[str, Any]:
    """A team's roster checked against its league's matched-play (tournament) rules.

    The roster costs its players' hiring fees plus re-rolls and staff: skills added
    do not change a player's value. The skills the players took are the skills added,
    priced in skill points by kind (primary, secondary); the team's tier gives the
    points allowed. The edition may cap each elite skill (BB2025: 4 per team).
    ---
    get:
      tags: [Teams]
      responses:
        200: MatchedPlayCheck
      errors:
        404: No such team.
        409: The league does not check tournament rosters (`matched_play_off`).
    """
    result = matched_play.check_team(db.session(), team_id)
    return MatchedPlayCheckSchema.body(
        {
            "team_id": result.team.id,
            "allowed": result.allowed,
            "budget": result.check.budget,
            "cost": result.check.cost,
            "skill_points": {
                "used": result.check.skill_points_used,
                "allowed": result.check.skill_points_allowed,
            },
            "problems": result.problems,
        }
    )


@bp.post(f"{TEAM}/approval")
@token_required
def review_roster(team_id: int) -> dict[str, Any]:
    """Approve a team's roster for its league's event, or send it back (the organiser).

    `approved: true` locks the roster: neither its coach nor the organiser can change it
    (hire, fire, staff, advancements, player edits answer 409 `roster_locked`) until it
    is unlocked with `approved: false`. With a `note`, `approved: false` sends it back:
    the coach reads the note on the team page. Answers the roster's approval.
    ---
    post:
      tags: [Teams]
      requestBody: RosterReview
      responses:
        200: RosterApproval
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the team's league.
        404: No such team.
        422: A note over 500 characters (`note_too_long`).
    """
    body = RosterReviewSchema().load(json_object())
    with unit_of_work() as session:
        team = roster_approval.review_roster(
            session, g.api_user, team_id, approved=body["approved"], note=body.get("note")
        )
        return RosterApprovalSchema.body(team)


@bp.post(f"{TEAM}/players")
@token_required
def hire_player(team_id: int) -> tuple[dict[str, Any], int]:
    """Hire a player; the cost leaves the treasury.

    The position's limit and the 16-player limit hold. The team's coach, a
    commissioner of its league or a site admin may hire.
    ---
    post:
      tags: [Teams]
      requestBody: NewPlayer
      responses:
        201: Player
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        409: The shirt number is taken, the team is retired, or its roster is locked for the
          event (`roster_locked`, `corrections_closed`).
        422: Not enough gold, a full roster or position, an unknown position, a bad name or number.
    """
    body = NewPlayerSchema().load(json_object())
    command = teams.HirePlayer(
        position_id=body["position"], name=body["name"], number=body.get("number")
    )
    with unit_of_work() as session:
        player = teams.hire_player(session, g.api_user, team_id, command)
        result = PlayerSchema.body(player_line(player))
    return result, 201


@bp.post(f"{TEAM}/purchases")
@token_required
def buy_item(team_id: int) -> dict[str, Any]:
    """Buy a team re-roll, an apothecary, an assistant coach, a cheerleader or a dedicated fan.

    Answers 200 with the team: a purchase creates no resource.
    ---
    post:
      tags: [Teams]
      requestBody: Purchase
      responses:
        200: Team
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        409: The team is retired, or its roster is locked for the event (`roster_locked`).
        422: Not enough gold, the most the team may have, an item the team may not buy.
    """
    # 200, not 201: a purchase changes the team and returns it; it creates no resource.
    item = PurchaseSchema().load(json_object())["item"]
    with unit_of_work() as session:
        team = teams.buy_team_item(session, g.api_user, team_id, item)
        return TeamSchema.body(team)


@bp.post(f"{TEAM}/treasury")
@token_required
def adjust_treasury(team_id: int) -> tuple[dict[str, Any], int]:
    """Adjust a team's treasury (commissioner): a correction, with the reason for it.

    The entry stays in the team's ledger for good; a mistake is put right by another
    adjustment. The same checks as on the team page apply.
    ---
    post:
      tags: [Teams]
      requestBody: TreasuryAdjustment
      responses:
        201: TreasuryAdjusted
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the team's league.
        404: No such team.
        422: >-
          No reason, a reason over 200 characters, an amount of 0 or over 10,000,000
          either way, or more gold taken than the team has (`insufficient_treasury`).
    """
    body = TreasuryAdjustmentSchema().load(json_object())
    with unit_of_work() as session:
        entry = teams.adjust_treasury(session, g.api_user, team_id, body["amount"], body["reason"])
        result = TreasuryAdjustedSchema.body(
            {
                "entry": {"id": entry.id, "amount": entry.amount, "reason": entry.description},
                "team": access.get_team(session, team_id),
            }
        )
    return result, 201


@bp.get(PLAYER)
def get_player(player_id: int) -> dict[str, Any]:
    """A player.
    ---
    get:
      tags: [Players]
      responses:
        200: Player
      errors:
        404: No such player.
    """
    return PlayerSchema.body(player_line(access.get_player(db.session(), player_id)))


@bp.delete(PLAYER)
@token_required
def fire_player(player_id: int) -> dict[str, Any]:
    """Fire a player (no refund).

    Answers with the player as fired. During the team's draft, firing undoes
    the hire instead: the player leaves the team altogether and the cost is refunded.
    ---
    delete:
      tags: [Players]
      responses:
        200: Player
      errors:
        403: The caller may not change this team.
        404: No such player.
        409: The player is not on the roster, the team is retired, or its roster is locked
          for the event (`roster_locked`, `corrections_closed`).
    """
    with unit_of_work() as session:
        # The line is taken first: during a draft, firing undoes the hire and
        # removes the player from the team altogether.
        line = player_line(access.get_player(session, player_id))
        teams.fire_player(session, g.api_user, player_id)
        return PlayerSchema.body(line)
