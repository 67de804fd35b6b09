"""Matches: results, reports, the MVP draw and departures."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import Length, OneOf, Range, Regexp

from league.api.schemas.base import (
    MAX_COUNT,
    MAX_GOLD,
    MAX_ID,
    MAX_KEY,
    MAX_PLAYERS,
    NO_NUL,
    Boolean,
    Bounded,
    Messages,
    Object,
    RequestSchema,
    ResponseSchema,
    choice,
    count,
    doc,
    integer,
    row_id,
    text,
    timestamp,
)
from league.models import Match, MatchPlayer
from league.models.match import INJURY_CODES, MATCH_STATES, SIDES
from league.rules import (
    CHARACTERISTICS,
)


class PerSideSchema(ResponseSchema):
    """A number per side."""

    home = fields.Integer(required=True)
    away = fields.Integer(required=True)


class ExpensiveMistakeSchema(ResponseSchema):
    """What Expensive Mistakes (rolled by the server) took from a treasury."""

    outcome = fields.String(required=True, allow_none=True)
    loss = fields.Integer(required=True)


class ExpensiveMistakesSchema(ResponseSchema):
    """Expensive Mistakes per side."""

    home = fields.Nested(ExpensiveMistakeSchema, required=True)
    away = fields.Nested(ExpensiveMistakeSchema, required=True)


class MatchPlayerSchema(ResponseSchema):
    """What a player did in a match, and the SPP it earned."""

    player_id = fields.Integer(required=True)
    team_id = fields.Integer(required=True)
    name = fields.String(required=True)
    td = fields.Integer(required=True)
    cas = fields.Integer(required=True)
    comp = fields.Integer(required=True)
    interceptions = fields.Integer(required=True, data_key="int")
    deflection = fields.Integer(required=True)
    throw_completion = fields.Integer(required=True)
    safe_landing = fields.Integer(required=True)
    mvp = fields.Boolean(required=True)
    injury = fields.String(required=True, allow_none=True, validate=OneOf(INJURY_CODES))
    lasting = fields.String(required=True, allow_none=True, validate=OneOf(CHARACTERISTICS))
    apothecary_used = fields.Boolean(required=True)
    spp = fields.Integer(required=True)

    @pre_dump
    def _of_line(self, line: MatchPlayer, **kwargs: Any) -> dict[str, Any]:
        return {
            "player_id": line.player_id,
            "team_id": line.team_id,
            "name": line.player.name,
            "td": line.td,
            "cas": line.cas,
            "comp": line.comp,
            "interceptions": line.interceptions,
            "deflection": line.deflection,
            "throw_completion": line.throw_completion,
            "safe_landing": line.safe_landing,
            "mvp": line.mvp > 0,
            "injury": line.injury,
            "lasting": line.lasting,
            "apothecary_used": line.apothecary_used,
            "spp": line.spp,
        }


class MatchSchema(ResponseSchema):
    """A match: sides, score, winnings and every player's events."""

    id = fields.Integer(required=True)
    league_id = fields.Integer(required=True)
    state = fields.String(required=True, validate=OneOf(MATCH_STATES))
    friendly = fields.Boolean(required=True)
    round = fields.Integer(required=True, allow_none=True)
    home_team = fields.Integer(required=True)
    away_team = fields.Integer(required=True)
    home_score = fields.Integer(required=True)
    away_score = fields.Integer(required=True)
    conceded = fields.String(required=True, allow_none=True, validate=OneOf(SIDES))
    winnings = fields.Nested(PerSideSchema, required=True, metadata=doc("Gold."))
    fans_change = fields.Nested(PerSideSchema, required=True)
    fan_attendance = fields.Integer(required=True, allow_none=True)
    expensive_mistakes = fields.Nested(ExpensiveMistakesSchema, required=True)
    played_at = fields.String(
        required=True, allow_none=True, metadata=doc("ISO 8601 date and time.")
    )
    players = fields.List(fields.Nested(MatchPlayerSchema), required=True)

    @pre_dump
    def _of_match(self, match: Match, **kwargs: Any) -> dict[str, Any]:
        home, away = match.side("home"), match.side("away")
        conceded = "home" if home.conceded else "away" if away.conceded else None
        return {
            "id": match.id,
            "league_id": match.league_id,
            "state": match.state,
            "friendly": match.friendly,
            "round": match.round,
            "home_team": home.team_id,
            "away_team": away.team_id,
            "home_score": home.score,
            "away_score": away.score,
            "conceded": conceded,
            "winnings": {"home": home.winnings, "away": away.winnings},
            "fans_change": {"home": home.fans_change, "away": away.fans_change},
            "fan_attendance": match.fan_attendance,
            # What Expensive Mistakes (rolled by the server) took from each treasury.
            "expensive_mistakes": {
                side.side: {"outcome": side.mistake, "loss": side.mistake_loss}
                for side in (home, away)
            },
            "played_at": timestamp(match.played_at),
            "players": list(match.players),
        }


def choice_field(choices: tuple[str, ...], **kwargs: Any) -> fields.String:
    listed = ", ".join(choices)
    return fields.String(
        allow_none=True,
        validate=choice(choices),
        error_messages={"invalid": f"must be null or one of: {listed}."},
        **kwargs,
    )


#: An optional flag: null is false.
FLAG: Messages = {"invalid": "must be true or false."}
#: An optional object: null is none given.
OPTIONAL_OBJECT: Messages = {"type": "must be an object.", "null": "must be an object."}


class PlayerEventsSchema(RequestSchema):
    """A player's events in a reported match; omitted or null counters are 0."""

    player_id = integer("A player of either team.", required=True, validate=row_id())
    td = count("Touchdowns.")
    cas = count("Casualties caused.")
    comp = count("Completions.")
    interceptions = count("Interceptions.", data_key="int")
    deflection = count("Deflections.")
    throw_completion = count("Throw Team-mate completions.")
    safe_landing = count("Safe landings.")
    mvp = Boolean(allow_none=True, error_messages=FLAG)
    injury = choice_field(INJURY_CODES)
    lasting = choice_field(
        CHARACTERISTICS, metadata=doc("With a lasting injury: the characteristic it reduces.")
    )
    apothecary_used = Boolean(allow_none=True, error_messages=FLAG)


class WinningsSchema(RequestSchema):
    """Gold won per side; a side left out gets the ruleset's formula (or 0)."""

    home = integer("Gold.", allow_none=True, validate=Bounded(max=MAX_GOLD))
    away = integer("Gold.", allow_none=True, validate=Bounded(max=MAX_GOLD))


#: What a side's change of Dedicated Fans may be.
FANS_CHANGE = (
    "Change of dedicated fans: -1, 0 or +1; a conceding team loses the edition's dice "
    "(BB2020/BB2025: D3, never below 1), as rolled at the table where the league allows "
    "it, else 0 and the server rolls."
)


class FansChangeSchema(RequestSchema):
    """Change of dedicated fans per side; a side left out is 0."""

    home = count(FANS_CHANGE)
    away = count(FANS_CHANGE)


class StalledSchema(RequestSchema):
    """BB2025: the sides one of whose players stalled (no +1 to the winnings)."""

    home = fields.Boolean(metadata=doc("A home player stalled."))
    away = fields.Boolean(metadata=doc("An away player stalled."))


class MatchResultSchema(RequestSchema):
    """The result of a scheduled fixture; SPP awards follow the league's ruleset."""

    home_score = integer("Touchdowns.", required=True, validate=Bounded(max=MAX_COUNT))
    away_score = integer("Touchdowns.", required=True, validate=Bounded(max=MAX_COUNT))
    winnings = Object(WinningsSchema, allow_none=True, error_messages=OPTIONAL_OBJECT)
    fans_change = Object(FansChangeSchema, allow_none=True, error_messages=OPTIONAL_OBJECT)
    conceded = choice_field(SIDES, metadata=doc("The side that conceded."))
    stalled = Object(StalledSchema, allow_none=True, error_messages=OPTIONAL_OBJECT)
    fan_attendance = count("Fan attendance (FAME).")
    players = fields.List(
        Object(PlayerEventsSchema, error_messages=OPTIONAL_OBJECT),
        allow_none=True,
        validate=Length(max=MAX_PLAYERS, error=f"lists at most {MAX_PLAYERS} players."),
        error_messages={"invalid": "must be a list."},
    )


KEY = f"must be a string of 1 to {MAX_KEY} characters."


class MatchReportSchema(MatchResultSchema):
    """A played match to record; SPP awards follow the league's ruleset."""

    home_team = integer("Team id.", required=True, validate=row_id())
    away_team = integer("Team id.", required=True, validate=row_id())
    idempotency_key = fields.String(
        allow_none=True,
        validate=[
            Length(min=1, max=MAX_KEY, error=KEY),
            Regexp(NO_NUL.regex, error=KEY),
        ],
        metadata=doc("Repeating a key returns the first match (200) and records nothing new."),
        error_messages={"invalid": KEY},
    )


class HireJourneymanSchema(RequestSchema):
    """Hiring a journeyman for good: the name he plays under from now on (optional)."""

    name = text("His name on the roster; absent: his match-day name.")


class MvpDrawRequestSchema(RequestSchema):
    """BB2025: the players a coach nominates for MVP, and the table's die if it was rolled there."""

    team_id = integer("The team whose MVP is drawn.", required=True, validate=Range(1, MAX_ID))
    nominees = fields.List(
        integer("Player id.", validate=Range(1, MAX_ID)),
        required=True,
        validate=Length(max=MAX_PLAYERS),
        metadata=doc("Six players (all who could play, when fewer); no star players."),
    )
    die = integer(
        "The D6 rolled at the table (leagues that allow table dice); absent: the server rolls.",
        allow_none=True,
        validate=Range(1, 6),
    )


class MvpDrawSchema(ResponseSchema):
    """The MVP drawn: the nominee the die names."""

    player_id = fields.Integer(required=True)
    nominees = fields.List(fields.Integer(), required=True)
    die = fields.Integer(required=True)
    rolled = fields.Boolean(required=True, metadata=doc("The server rolled the die."))


class DepartureDieSchema(RequestSchema):
    """One player's D6 rolled at the table."""

    player_id = integer("Player id.", required=True, validate=Range(1, MAX_ID))
    die = integer("The D6.", required=True, validate=Range(1, 6))


class DepartureRollsSchema(RequestSchema):
    """A conceding team's departure dice rolled at the table; absent: the server rolls."""

    dice = fields.List(
        fields.Nested(DepartureDieSchema), allow_none=True, validate=Length(max=MAX_PLAYERS)
    )


class DepartureSchema(ResponseSchema):
    player_id = fields.Integer(required=True)
    die = fields.Integer(required=True)
    left = fields.Boolean(required=True, metadata=doc("He left the team (retired)."))


class DeparturesSchema(ResponseSchema):
    """BB2025: each roll of a conceding team's players with three or more advancements."""

    departures = fields.List(fields.Nested(DepartureSchema), required=True)
