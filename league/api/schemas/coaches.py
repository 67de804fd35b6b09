"""A coach's profile: teams, record and ratings (the NAF ranking formula)."""

from __future__ import annotations

from marshmallow import fields

from league.api.schemas.base import ResponseSchema, doc


class CoachRecordSchema(ResponseSchema):
    """Played matches: won, drawn, lost; touchdowns and casualties for and against."""

    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    td_for = fields.Integer(required=True)
    td_against = fields.Integer(required=True)
    cas_for = fields.Integer(required=True)
    cas_against = fields.Integer(required=True)


class CoachTeamSchema(ResponseSchema):
    """One of the coach's teams, with its league and its record."""

    id = fields.Integer(required=True, attribute="team_id")
    name = fields.String(required=True, attribute="team_name")
    team_type = fields.String(required=True, attribute="team_type_id")
    status = fields.String(required=True)
    league_id = fields.Integer(required=True)
    league_name = fields.String(required=True)
    record = fields.Nested(CoachRecordSchema, required=True)


class LeagueRatingSchema(ResponseSchema):
    """The coach's rating within one league."""

    league_id = fields.Integer(required=True)
    league_name = fields.String(required=True)
    rating = fields.Float(required=True)
    k = fields.Float(
        required=True,
        metadata=doc("How far one match moves a rating there: 2 x sqrt(min(coaches, 32))."),
    )


class CoachSchema(ResponseSchema):
    """A coach's teams in every league of the site, record and ratings."""

    username = fields.String(required=True)
    naf_name = fields.String(required=True, allow_none=True)
    rating = fields.Float(
        required=True,
        metadata=doc(
            "Site-wide rating by the NAF ranking formula (every coach starts at 150; "
            "each match moves it by its league's K)."
        ),
    )
    rated_games = fields.Integer(required=True)
    record = fields.Nested(CoachRecordSchema, required=True)
    teams = fields.List(fields.Nested(CoachTeamSchema), required=True)
    league_ratings = fields.List(fields.Nested(LeagueRatingSchema), required=True)
