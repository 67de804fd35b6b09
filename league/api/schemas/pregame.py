"""Match day: a match's pre-game (league.api.pregame)."""

from __future__ import annotations

from typing import Any

from marshmallow import (
    fields,
)
from marshmallow.validate import Length, OneOf, Range

from league.api.schemas.base import (
    MAX_GOLD,
    NO_NUL,
    STRING,
    RequestSchema,
    ResponseSchema,
    doc,
    integer,
)

#: Bounds of a pre-game body: far above what the rules allow, so the rules refuse
#: anything between with their reason (422), and nothing beyond reaches them.
PREGAME_MAX_ITEMS = 50
PREGAME_MAX_COUNT = 99
PREGAME_STAGES = ("home_first", "away_first", "open", "ready", "closed")


def _ref(description: str, **kwargs: Any) -> fields.String:
    """An id of the rules data (position, inducement, star): the rules refuse unknown ones."""
    return fields.String(
        validate=[Length(min=1, max=60), NO_NUL],
        metadata=doc(description),
        error_messages=STRING,
        **kwargs,
    )


class PregameJourneymanSchema(ResponseSchema):
    """A journeyman a side takes for the game."""

    position = fields.String(required=True, metadata=doc("Position id."))
    position_name = fields.String(required=True)
    trait = fields.String(required=True, metadata=doc("The trait he plays with, e.g. Loner."))


class PregameInducementSchema(ResponseSchema):
    """An inducement a side bought, with the gold for all of them."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    count = fields.Integer(required=True)
    cost = fields.Integer(required=True, metadata=doc("Gold, for the whole count."))


class PregameStarSchema(ResponseSchema):
    """A star player (or a pair, one fee) a side hired."""

    id = fields.String(required=True, metadata=doc("Star or pair id."))
    name = fields.String(required=True)
    cost = fields.Integer(required=True)
    plays = fields.Boolean(
        required=True,
        metadata=doc("False: both teams hired him and the edition fields him for neither."),
    )


class PregameMercenarySchema(ResponseSchema):
    """A mercenary a side hired."""

    position = fields.String(required=True)
    position_name = fields.String(required=True)
    skill = fields.String(required=True, allow_none=True, metadata=doc("The extra skill."))
    trait = fields.String(required=True)
    cost = fields.Integer(required=True)


class PregameSideSchema(ResponseSchema):
    """One side of a match's pre-game."""

    team_id = fields.Integer(required=True)
    team_name = fields.String(required=True)
    chosen = fields.Boolean(required=True, metadata=doc("Has the side saved its choices?"))
    may_choose_now = fields.Boolean(
        required=True, metadata=doc("False: it waits for the team with the higher CTV.")
    )
    players_available = fields.Integer(required=True)
    journeymen_needed = fields.Integer(required=True)
    ctv = fields.Integer(required=True, metadata=doc("Gold, with the journeymen."))
    petty_cash = fields.Integer(required=True)
    treasury = fields.Integer(required=True, metadata=doc("The team's treasury now."))
    treasury_allowance = fields.Integer(
        required=True, metadata=doc("The most of its treasury it may spend.")
    )
    treasury_spent = fields.Integer(
        required=True, metadata=doc("What the treasury pays: the total less the petty cash.")
    )
    total = fields.Integer(required=True, metadata=doc("Gold of everything chosen."))
    journeymen = fields.List(fields.Nested(PregameJourneymanSchema), required=True)
    inducements = fields.List(fields.Nested(PregameInducementSchema), required=True)
    star_players = fields.List(fields.Nested(PregameStarSchema), required=True)
    mercenaries = fields.List(fields.Nested(PregameMercenarySchema), required=True)


class PregameSchema(ResponseSchema):
    """A match's pre-game: both sides and whose turn it is."""

    match_id = fields.Integer(required=True)
    stage = fields.String(required=True, validate=OneOf(PREGAME_STAGES))
    home = fields.Nested(PregameSideSchema, required=True)
    away = fields.Nested(PregameSideSchema, required=True)


class JourneymanChoiceSchema(RequestSchema):
    """A journeyman's position."""

    position = _ref("Position id.", required=True)


class InducementChoiceSchema(RequestSchema):
    """An inducement and how many."""

    id = _ref("Inducement id (GET /rulesets/{id}/inducements).", required=True)
    count = integer("How many.", required=True, validate=Range(0, PREGAME_MAX_COUNT))


class MercenaryChoiceSchema(RequestSchema):
    """A mercenary: a position of the team, and an extra skill if any."""

    position = _ref("Position id.", required=True)
    skill = _ref("An extra skill from the position's primary categories.", allow_none=True)


class PregameChoicesSchema(RequestSchema):
    """One side's pre-game choices; they replace what it chose before."""

    journeymen = fields.List(
        fields.Nested(JourneymanChoiceSchema),
        allow_none=True,
        validate=Length(max=PREGAME_MAX_ITEMS),
        metadata=doc("One per journeyman needed; absent: the only journeyman position."),
    )
    inducements = fields.List(
        fields.Nested(InducementChoiceSchema),
        allow_none=True,
        validate=Length(max=PREGAME_MAX_ITEMS),
    )
    star_players = fields.List(
        _ref("Star or pair id (GET /rulesets/{id}/star-players)."),
        allow_none=True,
        validate=Length(max=PREGAME_MAX_ITEMS),
    )
    mercenaries = fields.List(
        fields.Nested(MercenaryChoiceSchema),
        allow_none=True,
        validate=Length(max=PREGAME_MAX_ITEMS),
    )
    treasury = integer(
        "The most of its treasury the team adds; absent: as much as the rules allow.",
        allow_none=True,
        validate=Range(0, MAX_GOLD),
    )
