"""Teams and players: sheets, hiring, purchases and the treasury."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import OneOf

from league.api.schemas.base import (
    BOOLEAN,
    NO_NUL,
    STRING,
    Boolean,
    RequestSchema,
    ResponseSchema,
    ServiceLength,
    ServiceOneOf,
    ServiceRange,
    doc,
    integer,
    no_nul,
    text,
    timestamp,
)
from league.models import Player, Team
from league.models.player import PLAYER_STATUSES
from league.models.team import ROSTER_STATES, TEAM_STATUSES
from league.rules import (
    CHARACTERISTICS,
    SHIRT_NUMBERS,
)
from league.services.identity import team_colours
from league.services.roster_approval import MAX_NOTE
from league.services.rosters import PlayerLine, TeamSheet, team_sheet
from league.services.teams import ITEMS, MAX_ADJUSTMENT
from league.urls import public_url

#: The logo size the API hands out (league.services.logos.SIZES).
LOGO_SIZE = 256


def player_lines(sheet: TeamSheet) -> list[PlayerLine]:
    """Everyone who was ever on the team: the roster by number, then former players."""
    return [
        *sorted(sheet.lines, key=lambda line: (line.player.number, line.player.id)),
        *sheet.former,
    ]


def player_line(player: Player) -> PlayerLine:
    """The player's roster line (stats, skills, level) as the team sheet computes it:
    what `PlayerSchema` dumps."""
    return next(line for line in player_lines(team_sheet(player.team)) if line.player is player)


def injuries(player: Player) -> list[dict[str, str]]:
    """The player's lasting damage, one entry per injury.

    ``{"kind": "niggling"}`` for each niggling injury, then
    ``{"kind": "lasting", "characteristic": "ma"|"st"|"ag"|"pa"|"av"}`` for each
    step a lasting injury took off a characteristic (a player who lost two AV
    has two such entries). Missing the next game shows as ``"status": "mng"``.
    """
    niggling = [{"kind": "niggling"} for _ in range(player.niggling_injuries)]
    lasting = [
        {"kind": "lasting", "characteristic": characteristic}
        for characteristic in CHARACTERISTICS
        for _ in range(player.reduction(characteristic))
    ]
    return [*niggling, *lasting]


class SppSchema(ResponseSchema):
    """A player's Star Player Points."""

    earned = fields.Integer(required=True)
    spent = fields.Integer(required=True)
    available = fields.Integer(required=True)


class InjurySchema(ResponseSchema):
    """A lasting injury: one entry per niggling injury or characteristic step lost."""

    kind = fields.String(required=True, validate=OneOf(("niggling", "lasting")))
    characteristic = fields.String(
        validate=OneOf(CHARACTERISTICS), metadata=doc("For `lasting`: what it reduced.")
    )


class PlayerSchema(ResponseSchema):
    """A player, with current characteristics (advancements and injuries applied)."""

    id = fields.Integer(required=True)
    team_id = fields.Integer(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=doc("Position id."))
    position_name = fields.String(required=True)
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(
        fields.String(), required=True, metadata=doc("Starting skills, then those gained.")
    )
    spp = fields.Nested(SppSchema, required=True)
    advancements = fields.Integer(required=True, metadata=doc("Advancements taken."))
    level = fields.String(required=True)
    value = fields.Integer(required=True, metadata=doc("Gold."))
    status = fields.String(required=True, validate=OneOf(PLAYER_STATUSES))
    injuries = fields.List(fields.Nested(InjurySchema), required=True)

    @pre_dump
    def _of_line(self, line: PlayerLine, **kwargs: Any) -> dict[str, Any]:
        """Current characteristics, every skill held (starting skills, then those gained
        in advancement order)."""
        player = line.player
        return {
            "id": player.id,
            "team_id": player.team_id,
            "name": player.name,
            "number": player.number,
            "position": player.position_id,
            "position_name": line.position.name,
            **line.stats,
            "skills": [*line.skills, *line.gained_skills],
            "spp": {
                "earned": player.spp_earned,
                "spent": player.spp_spent,
                "available": player.spp_available,
            },
            "advancements": len(player.active_advancements),
            "level": line.level,
            "value": player.value,
            "status": player.status,
            "injuries": injuries(player),
        }


class RosterApprovalSchema(ResponseSchema):
    """Where the team's roster stands for its league's event (tournament day)."""

    team_id = fields.Integer(required=True)
    state = fields.String(
        required=True,
        validate=OneOf(ROSTER_STATES),
        metadata=doc(
            "`open` (not submitted; counts as submitted once the league's roster deadline "
            "has passed), `submitted`, `approved` (locked: nobody changes it until the "
            "organiser unlocks it) or `returned` (sent back with `note`)."
        ),
    )
    locked = fields.Boolean(required=True, metadata=doc("Approved, so locked."))
    note = fields.String(
        required=True, allow_none=True, metadata=doc("The organiser's note; null: none.")
    )
    changed_at = fields.String(
        required=True, allow_none=True, metadata=doc("ISO 8601; null: never changed.")
    )

    @pre_dump
    def _of_team(self, team: Team, **kwargs: Any) -> dict[str, Any]:
        return {
            "team_id": team.id,
            "state": team.roster_state,
            "locked": team.roster_state == "approved",
            "note": team.roster_note,
            "changed_at": timestamp(team.roster_state_at),
        }


class RosterReviewSchema(RequestSchema):
    """The organiser's decision on a roster."""

    approved = Boolean(
        required=True,
        metadata=doc("true: approve and lock it; false: unlock it, or with a `note` send it back."),
        error_messages={**BOOLEAN, "required": "is required."},
    )
    note = fields.String(
        allow_none=True,
        validate=[no_nul, ServiceLength(max=MAX_NOTE)],
        metadata=doc("What the coach must correct (at most 500 characters, 422 beyond)."),
        error_messages=STRING,
    )


class TeamSchema(ResponseSchema):
    """A team: treasury, staff, values and everyone who was ever on it."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    league_id = fields.Integer(required=True)
    team_type = fields.String(required=True, metadata=doc("Team type id."))
    coach = fields.String(required=True, metadata=doc("The coach's username."))
    coachless = fields.Boolean(
        required=True,
        metadata=doc(
            "The coach was removed from the league and the team left without one: only "
            "commissioners act on it (`coach` names the former coach)."
        ),
    )
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))
    treasury = fields.Integer(required=True, metadata=doc("Gold."))
    rerolls = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    dedicated_fans = fields.Integer(required=True)
    team_value = fields.Integer(required=True)
    current_team_value = fields.Integer(required=True)
    division = fields.String(
        required=True, allow_none=True, metadata=doc("The team's division; null: none.")
    )
    colours = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata=doc('The main and the second colour, "#rrggbb" in lower case; null: none chosen.'),
    )
    logo_url = fields.String(
        required=True,
        allow_none=True,
        metadata=doc(
            "The logo, a 256-pixel square PNG (its address changes with the logo, so it "
            "may be cached for good); null: no logo."
        ),
    )
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        metadata=doc("The roster by number, then former players (see `status`)."),
    )
    roster_approval = fields.Nested(RosterApprovalSchema, required=True)

    @pre_dump
    def _of_team(self, team: Team, **kwargs: Any) -> dict[str, Any]:
        sheet = team_sheet(team)
        return {
            "id": team.id,
            "name": team.name,
            "league_id": team.league_id,
            "team_type": team.team_type_id,
            "coach": team.coach.username,
            "coachless": team.coachless_since is not None,
            "status": team.status,
            "treasury": team.treasury,
            "rerolls": team.rerolls,
            "apothecary": team.apothecary,
            "assistant_coaches": team.assistant_coaches,
            "cheerleaders": team.cheerleaders,
            "dedicated_fans": team.dedicated_fans,
            "team_value": sheet.values.team_value,
            "current_team_value": sheet.values.current_team_value,
            "division": team.division,
            "colours": list(colours) if (colours := team_colours(team)) else None,
            "logo_url": (
                public_url("identity.logo", key=team.logo_key, size=LOGO_SIZE)
                if team.logo_key
                else None
            ),
            "players": player_lines(sheet),
            "roster_approval": team,
        }


class NewTeamSchema(RequestSchema):
    """A team to create: active, with an empty roster and the starting treasury."""

    name = text("2 to 80 characters.", required=True)
    team_type = text("Team type id of the league's ruleset.", required=True)
    coach = text(
        "Username of the coach (a commissioner creates teams for others); absent: the caller.",
        allow_none=True,
    )


class TeamChangesSchema(RequestSchema):
    """What `PATCH /teams/{id}` changes; members left out stay as they are."""

    colours = fields.List(
        fields.String(validate=NO_NUL, error_messages=STRING),
        allow_none=True,
        metadata=doc(
            'Two colours, "#rrggbb": the main one and the second one, in which the team\'s '
            "name is written on the main one, so they must contrast at least 3:1 (WCAG). "
            "null or [] removes them."
        ),
    )


class NewPlayerSchema(RequestSchema):
    """A player to hire; the cost leaves the treasury."""

    position = text("Position id of the team's team type.", required=True)
    name = text("1 to 60 characters.", required=True)
    number = integer(
        f"Shirt number {SHIRT_NUMBERS[0]}-{SHIRT_NUMBERS[-1]}; absent: the lowest free one.",
        allow_none=True,
    )


class PurchaseSchema(RequestSchema):
    """Something a team buys."""

    item = fields.String(
        required=True,
        validate=[ServiceOneOf(ITEMS), no_nul],
        error_messages=STRING,
    )


class TreasuryAdjustmentSchema(RequestSchema):
    """A commissioner's correction of a team's treasury."""

    amount = integer(
        "Gold; negative takes gold away. Not 0.",
        required=True,
        validate=ServiceRange(-MAX_ADJUSTMENT, MAX_ADJUSTMENT),
    )
    reason = text("Why the treasury changes: 1 to 200 characters.", required=True)


class TreasuryEntrySchema(ResponseSchema):
    """An entry of a team's treasury ledger."""

    id = fields.Integer(required=True)
    amount = fields.Integer(required=True, metadata=doc("Gold; negative when taken away."))
    reason = fields.String(required=True)


class TreasuryAdjustedSchema(ResponseSchema):
    """The adjustment made, and the team with its new treasury."""

    entry = fields.Nested(TreasuryEntrySchema, required=True)
    team = fields.Nested(TeamSchema, required=True)
