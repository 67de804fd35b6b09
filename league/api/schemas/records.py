"""A league's records, hall of fame, famous teams and memorable matches
(GET /api/v1/leagues/<id>/records); `league.services.records` works them out."""

from __future__ import annotations

from marshmallow import fields

from league.api.schemas.base import ResponseSchema, doc


class RecordEntrySchema(ResponseSchema):
    """One line of a record list. A player's line names the player and his team; a
    match's the team (the winner, or the home side), the opponent and the score; a
    team's the team and, for a team value, the match it was taken to (null: today's)."""

    rank = fields.Integer(required=True, metadata=doc("Equal values share the better rank."))
    value = fields.Integer(required=True)
    team_id = fields.Integer(required=True)
    team_name = fields.String(required=True)
    player_id = fields.Integer(required=True, allow_none=True)
    player_name = fields.String(required=True, allow_none=True)
    match_id = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("The match; for an unbeaten run, its last match."),
    )
    season_name = fields.String(required=True, allow_none=True)
    opponent_id = fields.Integer(required=True, allow_none=True)
    opponent_name = fields.String(required=True, allow_none=True)
    score_for = fields.Integer(required=True, allow_none=True)
    score_against = fields.Integer(required=True, allow_none=True)
    since_match_id = fields.Integer(
        required=True, allow_none=True, metadata=doc("An unbeaten run's first match.")
    )
    ongoing = fields.Boolean(
        required=True, metadata=doc("An unbeaten run that goes on: the team has not lost since.")
    )


class RecordBoardSchema(ResponseSchema):
    """A record: its code (`td_match`, `spp_career`, `biggest_win`, ...) and its top lines."""

    code = fields.String(required=True)
    title = fields.String(required=True, metadata=doc("In the request's language."))
    entries = fields.List(fields.Nested(RecordEntrySchema), required=True)


class HallOfFameSchema(ResponseSchema):
    """Players at the ruleset's top level, legends no longer playing, most MVP awards."""

    top_level = fields.String(required=True, metadata=doc("The ruleset's highest level."))
    top_level_total = fields.Integer(
        required=True, metadata=doc("Players who reached it (the list shows the first few).")
    )
    top_level_players = fields.List(fields.Nested(RecordEntrySchema), required=True)
    legends = fields.List(
        fields.Nested(RecordEntrySchema),
        required=True,
        metadata=doc("Dead or retired players (or of a retired team), by career SPP."),
    )
    mvps = fields.List(fields.Nested(RecordEntrySchema), required=True)


class ChampionSchema(ResponseSchema):
    """A closed season's champion (first place of its prizes) and playoff winner."""

    season_number = fields.Integer(required=True)
    season_name = fields.String(required=True)
    team_id = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc(
            "null where the edition pays no prizes: the season's final table "
            "(GET /leagues/{id}/standings?season=N) names its champion."
        ),
    )
    team_name = fields.String(required=True, allow_none=True)
    playoff_team_id = fields.Integer(required=True, allow_none=True)
    playoff_team_name = fields.String(required=True, allow_none=True)
    final_match_id = fields.Integer(required=True, allow_none=True)


class TrophiesSchema(ResponseSchema):
    """A team's titles: seasons won and playoff finals won."""

    team_id = fields.Integer(required=True)
    team_name = fields.String(required=True)
    titles = fields.Integer(required=True)
    playoff_wins = fields.Integer(required=True)


class RecordsSchema(ResponseSchema):
    """A league's records for one season or all time, worked out from the played matches
    (friendlies and voided matches do not count); the hall of fame and the famous teams
    are always all time."""

    league_id = fields.Integer(required=True)
    scope = fields.String(required=True, metadata=doc("`season` or `all`."))
    season_number = fields.Integer(required=True, allow_none=True)
    season_name = fields.String(required=True, allow_none=True)
    matches_played = fields.Integer(required=True)
    player_records = fields.List(fields.Nested(RecordBoardSchema), required=True)
    team_records = fields.List(fields.Nested(RecordBoardSchema), required=True)
    memorable_matches = fields.List(fields.Nested(RecordBoardSchema), required=True)
    hall_of_fame = fields.Nested(HallOfFameSchema, required=True)
    champions = fields.List(fields.Nested(ChampionSchema), required=True)
    trophies = fields.List(fields.Nested(TrophiesSchema), required=True)
