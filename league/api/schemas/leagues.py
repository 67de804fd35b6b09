"""Leagues: settings and standings."""

from __future__ import annotations

from datetime import UTC
from typing import Any, ClassVar

from marshmallow import fields, post_load, pre_dump
from marshmallow.validate import OneOf, Range

from league.api.schemas.base import (
    BOOLEAN,
    INTEGER,
    OBJECT,
    POINTS_RANGE,
    STRING,
    Boolean,
    JsonInteger,
    Messages,
    Object,
    RequestSchema,
    ResponseSchema,
    ServiceOneOf,
    ServiceRange,
    WholeList,
    doc,
    no_nul,
    text,
    timestamp,
)
from league.i18n import LANGUAGE_CODES
from league.models import League
from league.models.league import PAPER_SIZES, TIE_BREAKERS
from league.models.team import TEAM_STATUSES
from league.services.access import active_members
from league.services.leagues import MAX_STARTING_TREASURY


class PointsSchema(ResponseSchema):
    """League points per result."""

    win = fields.Integer(required=True)
    draw = fields.Integer(required=True)
    loss = fields.Integer(required=True)


class LeagueTeamSchema(ResponseSchema):
    """A team as its league lists it."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    team_type = fields.String(required=True, attribute="team_type_id")
    coach = fields.String(
        required=True, attribute="coach.username", metadata=doc("The coach's username.")
    )
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))


class LeagueSchema(ResponseSchema):
    """A league."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True, metadata=doc("Ruleset id."))
    starting_treasury = fields.Integer(required=True)
    points = fields.Nested(PointsSchema, required=True)
    tie_breakers = fields.List(fields.String(), required=True)
    house_rules = fields.Dict(
        required=True, metadata=doc("Overrides merged over the ruleset's data.")
    )
    table_dice_allowed = fields.Boolean(
        required=True,
        metadata=doc("Coaches may enter advancement dice rolled at the table."),
    )
    log_finalises = fields.Boolean(
        required=True,
        metadata=doc("A live log both coaches confirmed finalises the result by itself."),
    )
    paper_size = fields.String(
        required=True,
        validate=OneOf(PAPER_SIZES),
        metadata=doc("The paper roster sheets print on unless a print asks for another."),
    )
    default_language = fields.String(
        required=True,
        validate=OneOf(LANGUAGE_CODES),
        metadata=doc(
            "The league's language: its pages for visitors who chose none, its roster "
            "pack, webhook messages and calendar."
        ),
    )
    roster_deadline = fields.String(
        required=True,
        allow_none=True,
        metadata=doc(
            "Tournament day: coaches submit their rosters by then (ISO 8601); null: none."
        ),
    )
    correction_deadline = fields.String(
        required=True,
        allow_none=True,
        metadata=doc(
            "After it only the organiser changes a roster that is not approved (ISO 8601); "
            "null: none."
        ),
    )
    season = fields.Integer(
        required=True, allow_none=True, metadata=doc("The current season's number.")
    )
    commissioners = fields.List(fields.String(), required=True)
    coaches = fields.List(fields.String(), required=True)
    teams = fields.List(fields.Nested(LeagueTeamSchema), required=True)

    @pre_dump
    def _of_league(self, league: League, **kwargs: Any) -> dict[str, Any]:
        members = active_members(league)
        season = league.current_season
        return {
            "id": league.id,
            "name": league.name,
            "ruleset": league.ruleset_id,
            "starting_treasury": league.starting_treasury,
            "points": {
                "win": league.points_win,
                "draw": league.points_draw,
                "loss": league.points_loss,
            },
            "tie_breakers": list(league.tie_breakers),
            "house_rules": dict(league.house_rules or {}),
            "table_dice_allowed": league.table_dice_allowed,
            "log_finalises": league.log_finalises,
            "paper_size": league.paper_size,
            "default_language": league.default_language,
            "roster_deadline": timestamp(league.roster_deadline),
            "correction_deadline": timestamp(league.correction_deadline),
            "season": season.number if season else None,
            "commissioners": sorted(m.user.username for m in members if m.role == "commissioner"),
            "coaches": sorted(m.user.username for m in members if m.role == "coach"),
            "teams": sorted(league.teams, key=lambda t: (t.name.lower(), t.id)),
        }


def _points(description: str) -> fields.Integer:
    return JsonInteger(
        metadata=doc(description),
        validate=Range(*POINTS_RANGE, error="must be between {min} and {max}."),
        error_messages=INTEGER,
    )


class PointsSettingSchema(RequestSchema):
    """League points per result; a result not given keeps its points."""

    win = _points("Points for a win.")
    draw = _points("Points for a draw (at most a win's).")
    loss = _points("Points for a loss (at most a draw's).")


#: A deadline that is not a date and time.
DEADLINE: Messages = {
    "invalid": "must be a date and time in ISO 8601 (2026-11-28T09:00:00Z) or null.",
    "invalid_awareness": "must be a date and time in ISO 8601 (2026-11-28T09:00:00Z) or null.",
    "format": "must be a date and time in ISO 8601 (2026-11-28T09:00:00Z) or null.",
}


class LeagueSettingsSchema(RequestSchema):
    """Settings of a league, as on its settings page; a setting not given stays as it is."""

    # Loading gives the changes as keyword arguments of `services.leagues.LeagueSettings`
    # (`ruleset_id`, `points_win`, ...): a new setting is one field here, named as the
    # settings' field (or listed in SETTING_NAMES). Only the shape is checked; the
    # service checks the values (a 422). The docstring above is the document's text.

    #: Members whose setting has another name.
    SETTING_NAMES: ClassVar[dict[str, str]] = {"ruleset": "ruleset_id"}

    name = text("3 to 80 characters.")
    ruleset = text("Ruleset id; it cannot change once the league has teams (409).")
    starting_treasury = JsonInteger(
        metadata=doc("Gold each new team starts with."),
        validate=ServiceRange(0, MAX_STARTING_TREASURY),
        error_messages=INTEGER,
    )
    points = Object(PointsSettingSchema, error_messages=OBJECT)
    tie_breakers = WholeList(
        fields.String(validate=ServiceOneOf(TIE_BREAKERS)),
        metadata=doc("In order of use; each at most once.", uniqueItems=True),
        error_messages={
            "invalid": "must be a list of tie-breaker names.",
            "null": "must be a list of tie-breaker names.",
        },
    )
    house_rules = fields.Dict(
        keys=fields.String(),
        metadata=doc(
            "Overrides merged over the ruleset's data: `costs` (SPP per advancement kind, "
            "a list by advancement number), `value_increase` and `spp_awards` (numbers by key), "
            "`starting_treasury`, `redraft_cap`, `matched_play` (settings by key) and "
            "`tournament` (any of `bye_result`: win | draw, `bye_touchdowns`: [for, against], "
            "`points`: [win, draw, loss], `bonus`: [{`kind`: touchdowns | casualties | "
            "close_loss, `threshold`, `points`}])."
        ),
        error_messages={"invalid": "must be a JSON object.", "null": "must be a JSON object."},
    )
    table_dice_allowed = Boolean(
        metadata=doc("Coaches may enter advancement dice rolled at the table."),
        error_messages=BOOLEAN,
    )
    log_finalises = Boolean(
        metadata=doc("A live log both coaches confirmed finalises the result by itself."),
        error_messages=BOOLEAN,
    )
    paper_size = fields.String(
        validate=[no_nul, ServiceOneOf(PAPER_SIZES)],
        metadata=doc("Roster sheets' paper: A4 or US Letter."),
        error_messages=STRING,
    )
    default_language = fields.String(
        validate=[no_nul, ServiceOneOf(LANGUAGE_CODES)],
        metadata=doc("The league's language: `en`, `fr`, `de`, `es` or `it` (422 otherwise)."),
        error_messages=STRING,
    )

    roster_deadline = fields.AwareDateTime(
        allow_none=True,
        default_timezone=UTC,
        metadata=doc(
            "Tournament day: coaches submit their rosters by then (ISO 8601; without an "
            "offset, UTC); null: none."
        ),
        error_messages=DEADLINE,
    )
    correction_deadline = fields.AwareDateTime(
        allow_none=True,
        default_timezone=UTC,
        metadata=doc(
            "After it only the organiser changes a roster that is not approved (ISO 8601; "
            "without an offset, UTC; not before `roster_deadline`, 422); null: none."
        ),
        error_messages=DEADLINE,
    )

    @post_load
    def settings_changes(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The given settings by their `LeagueSettings` names; unknown members dropped."""
        changes = {
            self.SETTING_NAMES.get(name, name): data[name] for name in self.fields if name in data
        }
        points = changes.pop("points", {})
        for result in PointsSettingSchema._declared_fields:
            if result in points:
                changes[f"points_{result}"] = points[result]
        if "tie_breakers" in changes:
            changes["tie_breakers"] = tuple(changes["tie_breakers"])
        return changes


class NewLeagueSchema(LeagueSettingsSchema):
    """A league to create; the caller becomes its commissioner. Settings not given take
    their defaults."""

    name = text("3 to 80 characters.", required=True)
    ruleset = text("Ruleset id; absent or null: `bb2025`.", allow_none=True)


class StandingsRowSchema(ResponseSchema):
    """A team's line in the standings."""

    # Dumped from `services.standings.StandingRow`.
    team_id = fields.Integer(required=True)
    team = fields.String(required=True, attribute="team_name", metadata=doc("The team's name."))
    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    td_for = fields.Integer(required=True)
    td_against = fields.Integer(required=True)
    cas_for = fields.Integer(required=True)
    cas_against = fields.Integer(required=True)
    points = fields.Integer(
        required=True,
        metadata=doc("Bonus points included (a league scored as a tournament)."),
    )
    bonus_points = fields.Integer(
        required=True,
        metadata=doc(
            "Tournament bonus points earned (house rule `tournament`), already counted in "
            "`points`; 0 where the league gives none."
        ),
    )
    byes = fields.Integer(
        required=True,
        metadata=doc(
            "Swiss rounds the team sat out; each is counted in played and in the results "
            "as the ruleset says (a 1-0 win by default)."
        ),
    )


class DivisionStandingsSchema(ResponseSchema):
    """One division's part of the league table, ranked as the whole table is."""

    name = fields.String(
        required=True, allow_none=True, metadata=doc("null: the teams without a division.")
    )
    rows = fields.List(fields.Nested(StandingsRowSchema), required=True)


class StandingsSchema(ResponseSchema):
    """Standings, ranked: points, then the league's tie-breakers, then name."""

    rows = fields.List(fields.Nested(StandingsRowSchema), required=True)
    divisions = fields.List(
        fields.Nested(DivisionStandingsSchema),
        required=True,
        metadata=doc(
            "Each division's table, divisions by name, the teams without a division last; "
            "empty when the league has no divisions."
        ),
    )
