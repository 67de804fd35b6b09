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
from league.rules.pairing import FIRST_ROUNDS
from league.services.access import active_members, league_ruleset
from league.services.leagues import MAX_STARTING_TREASURY


class PointsSchema(ResponseSchema):
    """League points per result."""

    win = fields.Integer(required=True)
    draw = fields.Integer(required=True)
    loss = fields.Integer(required=True)


class ConcessionsSchema(ResponseSchema):
    """How the event scores a conceded match (or forfeit)."""

    conceding_points = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("Points the conceding team gets; null: a loss's points."),
    )
    credited_score = fields.List(
        fields.Integer(),
        required=True,
        allow_none=True,
        metadata=doc(
            "The score the match counts as, [winner, conceding team]; null: the score as it stood."
        ),
    )


class LeagueTeamSchema(ResponseSchema):
    """A team as its league lists it."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    team_type = fields.String(required=True, attribute="team_type_id")
    coach = fields.String(
        required=True, attribute="coach.username", metadata=doc("The coach's username.")
    )
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))


class PairingSchema(ResponseSchema):
    """How Swiss rounds are paired."""

    avoid_same_club = fields.Boolean(
        required=True,
        metadata=doc("Pairings keep two entries of one club or nation apart where they can."),
    )
    first_round = fields.String(
        required=True,
        validate=OneOf(FIRST_ROUNDS),
        metadata=doc("The first round: `random`, seeded by `rating`, or `manual` (by hand)."),
    )


class LeagueSchema(ResponseSchema):
    """A league."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True, metadata=doc("Ruleset id."))
    starting_treasury = fields.Integer(required=True)
    points = fields.Nested(PointsSchema, required=True)
    tie_breakers = fields.List(
        fields.String(validate=OneOf(TIE_BREAKERS)),
        required=True,
        metadata=doc("The order teams level on points are ranked in, first to last."),
    )
    concessions = fields.Nested(ConcessionsSchema, required=True)
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
    pairing = fields.Nested(PairingSchema, required=True)
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
            "concessions": _concessions(league),
            "house_rules": dict(league.house_rules or {}),
            "table_dice_allowed": league.table_dice_allowed,
            "log_finalises": league.log_finalises,
            "paper_size": league.paper_size,
            "default_language": league.default_language,
            "pairing": {
                "avoid_same_club": league.pairing_avoid_same_club,
                "first_round": league.pairing_first_round,
            },
            "roster_deadline": timestamp(league.roster_deadline),
            "correction_deadline": timestamp(league.correction_deadline),
            "season": season.number if season else None,
            "commissioners": sorted(m.user.username for m in members if m.role == "commissioner"),
            "coaches": sorted(m.user.username for m in members if m.role == "coach"),
            "teams": sorted(league.teams, key=lambda t: (t.name.lower(), t.id)),
        }


def _concessions(league: League) -> dict[str, Any]:
    rules = league_ruleset(league).season.tournament
    score = rules.concession_score
    return {
        "conceding_points": rules.concession_points,
        "credited_score": list(score) if score is not None else None,
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


class PairingSettingSchema(RequestSchema):
    """Swiss pairing settings; a setting not given stays as it is."""

    avoid_same_club = Boolean(
        metadata=doc("Keep two entries of one club or nation apart where a pairing can."),
        error_messages=BOOLEAN,
    )
    first_round = fields.String(
        validate=[no_nul, ServiceOneOf(FIRST_ROUNDS)],
        metadata=doc("`random`, `rating` (seeded by the entries' ratings) or `manual`."),
        error_messages=STRING,
    )


class ConcessionsSettingSchema(RequestSchema):
    """How a conceded match scores; a member not given stays as it is, null clears it."""

    conceding_points = JsonInteger(
        allow_none=True,
        metadata=doc("Points the conceding team gets (-100 to 100); null: a loss's points."),
        error_messages=INTEGER,
    )
    credited_score = WholeList(
        JsonInteger(),
        allow_none=True,
        metadata=doc(
            "[winner, conceding team], the winner more (e.g. [2, 0]); null: the score as it stood."
        ),
        error_messages={"invalid": "must be a list of two whole numbers."},
    )


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
    concessions = Object(
        ConcessionsSettingSchema,
        error_messages=OBJECT,
        metadata=doc(
            "Stored as the house rule `tournament`'s `concession_points` and "
            "`concession_score` (422 naming that key when refused)."
        ),
    )
    house_rules = fields.Dict(
        keys=fields.String(),
        metadata=doc(
            "Overrides merged over the ruleset's data: `costs` (SPP per advancement kind, "
            "a list by advancement number), `value_increase` and `spp_awards` (numbers by key), "
            "`starting_treasury`, `redraft_cap`, `matched_play` (settings by key) and "
            "`tournament` (any of `bye_result`: win | draw, `bye_touchdowns`: [for, against], "
            "`points`: [win, draw, loss], `bonus`: [{`kind`: touchdowns | casualties | "
            "close_loss, `threshold`, `points`}], `concession_points`, `concession_score`: "
            "[winner, conceding team])."
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
    pairing = Object(PairingSettingSchema, error_messages=OBJECT)

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
        pairing = changes.pop("pairing", {})
        for setting in PairingSettingSchema._declared_fields:
            if setting in pairing:
                changes[f"pairing_{setting}"] = pairing[setting]
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
    tie_breaker_values = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=doc(
            "Each of the league's tie-breakers (in its order) and this team's value: bigger "
            "ranks first, except `fewest_conceded` (matches conceded, fewer first); "
            "`head_to_head` is the points taken from the teams level on points; "
            "`coin_toss` the server's stored draw (-1: none)."
        ),
    )
    separated_by = fields.String(
        required=True,
        allow_none=True,
        metadata=doc(
            "The tie-breaker that put this team above the next one when both have the same "
            "points (`name`: level on every tie-breaker, listed by name); null otherwise."
        ),
    )
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
    tie_breakers = fields.List(
        fields.String(validate=OneOf(TIE_BREAKERS)),
        required=True,
        metadata=doc(
            "The league's tie-breakers in their order (the order of each row's "
            "`tie_breaker_values`)."
        ),
    )
    divisions = fields.List(
        fields.Nested(DivisionStandingsSchema),
        required=True,
        metadata=doc(
            "Each division's table, divisions by name, the teams without a division last; "
            "empty when the league has no divisions."
        ),
    )
