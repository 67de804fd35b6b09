"""Marshmallow schemas of the API's request bodies and responses (docs/api.md).

They are the source of the OpenAPI document (`league.api.openapi`): each class
becomes a component named after it without the `Schema` suffix, its docstring
the component's description. Request schemas load the request bodies of every
view (an imported team document excepted: the schemas of `services.team_document`
load it, and the import answers every problem at once): each refusal is worded
to follow the field's name ("is required.", "must be a string."), and
`league.api.errors` answers the first
one, in the order the schema declares its fields, as the 400 naming the field (a
nested one by its path, `points.win`, `players[2].td`). The fuzzing test
(tests/api/test_fuzz.py) holds the API to them: a body these schemas accept is
never answered 400, one they refuse never gets through.

A rule a service checks (an item the team may buy, the most gold an adjustment
moves, a webhook's address) is documented with a `ServiceOneOf`, `ServiceRange` or
`ServiceLength`: loading lets the value through, and the service refuses it with
its own code (a 422, not a 400).

Responses are closed (`additionalProperties: false`): the document lists every
field the API sends, and the fuzzing test holds the serializers to it. Request
bodies are open: members the API does not know are ignored.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, ClassVar

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    missing,
    post_load,
)
from marshmallow.validate import Length, OneOf, Range, Regexp

from league.api.serializers import MAX_ID, as_integer
from league.i18n import LANGUAGE_CODES
from league.models.league import PAPER_SIZES, TIE_BREAKERS
from league.models.league import ROLES as MEMBER_ROLES
from league.models.ledger import ENTRY_KINDS
from league.models.match import INJURY_CODES, MATCH_STATES, SIDES
from league.models.player import PLAYER_STATUSES
from league.models.team import TEAM_STATUSES
from league.models.webhook import DELIVERY_STATUSES, URL_LENGTH, WEBHOOK_EVENTS, WEBHOOK_FORMATS
from league.rules import (
    CHARACTERISTICS,
    MAX_DICE,
    RANDOM_CHARACTERISTIC_KIND,
    SHIRT_NUMBERS,
    SKILL_KINDS,
)
from league.rules.model import PLAYOFF_SIZES
from league.services.fixtures import MAX_DAYS_BETWEEN
from league.services.leagues import MAX_STARTING_TREASURY
from league.services.team_document import FORMAT as DOCUMENT_FORMAT
from league.services.team_document import VERSION as DOCUMENT_VERSION
from league.services.teams import ITEMS, MAX_ADJUSTMENT

#: Text the API stores: any string without NUL characters.
NO_NUL = Regexp(r"^[^\x00]*$", error="must not contain NUL characters.")
ADVANCEMENT_KINDS = (*SKILL_KINDS, RANDOM_CHARACTERISTIC_KIND)
#: Ceiling for scores and per-player counters: far above any real match and far
#: below what would overflow the 32-bit SPP and score columns once summed.
MAX_COUNT = 1000
#: Ceiling for gold entered as winnings (the treasury is a 32-bit column too).
MAX_GOLD = 10_000_000
#: More entries than two full rosters ever field (keeps the SQL IN lists small).
MAX_PLAYERS = 100
#: The idempotency_key column's width.
MAX_KEY = 64
#: The role a member can be given through PATCH: the members page only promotes.
PROMOTABLE_ROLES = ("commissioner",)
#: Bound on each die sent: anything beyond is malformed; smaller wrong values are
#: the rules' business (422 `invalid_dice`).
MAX_DIE = 1000
#: A generated schedule: every team meets every other once, or twice (home and away).
FIXTURE_FORMATS = ("single", "double")
#: A date as the API writes it (`\d` as Python reads it: the parsing decides).
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: The widest round number a fixture takes.
MAX_ROUND = 999
#: Integer columns are 32-bit: league points must fit one.
POINTS_RANGE = (-(2**31), 2**31 - 1)
#: A missing member and a null one are refused alike.
#: marshmallow's type for a field's messages (a message may also be a list or a dict).
Messages = dict[str, str | list[Any] | dict[Any, Any]]
REQUIRED: Messages = {"required": "is required.", "null": "is required."}
#: A choice the API itself refuses (a 400, not the rules' 422).
ONE_OF = "must be one of: {choices}."
#: A string field's refusals.
STRING: Messages = {**REQUIRED, "invalid": "must be a string."}
#: An optional integer given as null is refused as any other non-integer.
INTEGER: Messages = {"null": "must be an integer."}
#: An optional JSON object (or true/false) given as null: the same refusal as a wrong type.
OBJECT: Messages = {"type": "must be a JSON object.", "null": "must be a JSON object."}
BOOLEAN: Messages = {"invalid": "must be true or false.", "null": "must be true or false."}


def no_nul(value: str) -> None:
    """NO_NUL for a field whose document shows no pattern (an enum says it all)."""
    if "\x00" in value:
        raise ValidationError(NO_NUL.error)


class ServiceOneOf(OneOf):
    """Documents the choices; the service refuses any other (see the module's docstring)."""

    def __call__(self, value: Any) -> Any:
        return value


class Bounded(Range):
    """A range refused in the API's words: "must be at most 1,000." above it, the
    ``too_small`` message (or "must be at least ...") below it."""

    def __init__(
        self, min: int | None = None, max: int | None = None, *, too_small: str | None = None
    ) -> None:
        super().__init__(min, max)
        self.too_small = too_small or "must be at least {min:,}."

    def __call__(self, value: Any) -> Any:
        if self.min is not None and value < self.min:
            raise ValidationError(self.too_small.format(min=self.min, max=self.max))
        if self.max is not None and value > self.max:
            raise ValidationError(f"must be at most {self.max:,}.")
        return value


#: A row's id: 1 to MAX_ID (a number beyond the 32-bit columns would fail the query).
def row_id() -> Bounded:
    return Bounded(1, MAX_ID, too_small="must be an id, a number from 1 to {max:,}.")


def choice(choices: tuple[str, ...]) -> OneOf:
    """One of `choices`; the refusal lists them, null included (the field may be null)."""
    return OneOf(choices, error="must be null or one of: {choices}.")


class ServiceLength(Length):
    """Documents the length; the service refuses a value outside it."""

    def __call__(self, value: Any) -> Any:
        return value


class ServiceRange(Range):
    """Documents the range; the service refuses a value outside it."""

    def __call__(self, value: Any) -> Any:
        return value


class JsonInteger(fields.Integer):
    """An integer as JSON Schema counts them: 2.0 is one; true, 2.5 and "2" are not."""

    # marshmallow types it per instance; each field class sets its own messages here.
    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be an integer."
    }

    def _validated(self, value: Any) -> int:
        number = as_integer(value)
        if number is None:
            raise self.make_error("invalid")
        return number


class Boolean(fields.Boolean):
    """JSON true or false, nothing else (marshmallow's own takes 1, "yes", "on")."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be true or false."
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class Object(fields.Nested):
    """A nested JSON object; anything else (a list, a string) is refused as not one.

    Members it does not know are dropped when loading (the document still shows the
    object open), so none can stand in for a field loaded under another name
    (`interceptions` for `int`).
    """

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "type": "must be a JSON object."
    }

    def __init__(self, nested: type[Schema], **kwargs: Any) -> None:
        kwargs.setdefault("unknown", EXCLUDE)
        super().__init__(nested, **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any
    ) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, partial, **kwargs)


class WholeList(fields.List):
    """A list refused as a whole: any fault of the list or of an item is its one
    `invalid` message (given per field)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ValidationError:
            raise self.make_error("invalid") from None


class NullIsAbsent(JsonInteger):
    """An integer that null leaves as it is, like an absent member (the document shows
    a plain integer: send one, or nothing)."""

    def deserialize(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if value is None:
            return missing
        return super().deserialize(value, *args, **kwargs)


class Dice(fields.List):
    """Dice rolled at the table: any fault of the list or of a die is one refusal."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": f"must be a list of at most {MAX_DICE} integers (the dice rolled)."
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            dice = super()._deserialize(value, attr, data, **kwargs)
            if dice is not None:
                self._validate(dice)
        except ValidationError:
            raise self.make_error("invalid") from None
        return dice


def _doc(text: str, **extra: Any) -> dict[str, Any]:
    return {"description": text, **extra}


def text(description: str, **kwargs: Any) -> fields.String:
    return fields.String(
        validate=NO_NUL,
        metadata=_doc(description),
        error_messages=STRING,
        **kwargs,
    )


def integer(description: str, **kwargs: Any) -> fields.Integer:
    return JsonInteger(metadata=_doc(description), error_messages=REQUIRED, **kwargs)


def count(description: str, **kwargs: Any) -> fields.Integer:
    """A per-match counter: optional, null or absent means 0."""
    return integer(description, allow_none=True, validate=Bounded(max=MAX_COUNT), **kwargs)


class ResponseSchema(Schema):
    class Meta:
        unknown = RAISE  # closed: additionalProperties false


class RequestSchema(Schema):
    class Meta:
        unknown = INCLUDE  # open: unknown members are ignored


# ---------------------------------------------------------------------------
# Errors


class DocumentProblemSchema(ResponseSchema):
    """A problem of an imported team document: where it is and what is wrong."""

    path = fields.String(required=True, metadata=_doc("e.g. `players[2].advancements[0].skill`"))
    message = fields.String(required=True)


class ErrorDetailSchema(ResponseSchema):
    """What went wrong: a stable code for programs, a message for people."""

    code = fields.String(
        required=True,
        metadata=_doc(
            "snake_case code, e.g. `bad_request`, `invalid_field`, `unauthorized`, `forbidden`, "
            "`not_found`, `conflict`, `rule_violation`, `insufficient_spp`, `invalid_report`, "
            "`invalid_document`, `internal` (500: a fault of the server, never of the request)."
        ),
    )
    message = fields.String(required=True, metadata=_doc("A sentence a person reads."))
    report_fields = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        data_key="fields",
        metadata=_doc(
            "Only for `invalid_report` (422 on a match report): every problem found, "
            "by the part of the report it concerns (`home_score`, `player_12`, ...)."
        ),
    )
    problems = fields.List(
        fields.Nested(DocumentProblemSchema),
        metadata=_doc("Only for `invalid_document` (422 on a team import): every problem found."),
    )


class ErrorSchema(ResponseSchema):
    """The body of every error response (400, 401, 403, 404, 409, 422; and 500)."""

    error = fields.Nested(ErrorDetailSchema, required=True)


# ---------------------------------------------------------------------------
# Users


class MeSchema(ResponseSchema):
    """The user a token belongs to."""

    username = fields.String(required=True)
    admin = fields.Boolean(required=True, metadata=_doc("A site admin may do anything."))


# ---------------------------------------------------------------------------
# Rulesets


class RulesetSummarySchema(ResponseSchema):
    """A ruleset in the list of rulesets."""

    id = fields.String(required=True, metadata=_doc("e.g. `bb2025`, `bb2020`, `classic`"))
    name = fields.String(required=True)
    edition = fields.String(required=True)


class RulesetListSchema(ResponseSchema):
    """Every ruleset the server knows."""

    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class AdvancementRulesSchema(ResponseSchema):
    """How players advance under a ruleset."""

    mode = fields.String(
        required=True,
        validate=OneOf(("spend", "roll")),
        metadata=_doc("`spend`: SPP buy advancements (BB2020, BB2025); `roll`: SPP earn rolls."),
    )
    max_advancements = fields.Integer(required=True)
    levels = fields.List(
        fields.String(), required=True, metadata=_doc("Level names, Rookie first.")
    )
    costs = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Integer()),
        required=True,
        metadata=_doc(
            "Spend mode: SPP cost per kind of advancement; index 0 is the first advancement."
        ),
    )
    thresholds = fields.List(
        fields.Integer(),
        required=True,
        metadata=_doc("Roll mode: the SPP totals that earn an improvement roll."),
    )


class ValueIncreaseSchema(ResponseSchema):
    """Gold a player's value rises by per kind of advancement (null: not offered)."""

    random_primary = fields.Integer(required=True, allow_none=True)
    chosen_primary = fields.Integer(required=True, allow_none=True)
    random_secondary = fields.Integer(required=True, allow_none=True)
    chosen_secondary = fields.Integer(required=True, allow_none=True)
    ma = fields.Integer(required=True, allow_none=True)
    st = fields.Integer(required=True, allow_none=True)
    ag = fields.Integer(required=True, allow_none=True)
    pa = fields.Integer(required=True, allow_none=True)
    av = fields.Integer(required=True, allow_none=True)


class SkillCategorySchema(ResponseSchema):
    """A skill category."""

    code = fields.String(required=True, metadata=_doc("e.g. `G` (General)"))
    name = fields.String(required=True)


class SkillSchema(ResponseSchema):
    """A skill or trait, summarised in the project's own words."""

    name = fields.String(required=True)
    category = fields.String(required=True, metadata=_doc("A skill category code."))
    summary = fields.String(required=True)
    trait = fields.Boolean(required=True)


class TeamTypeSummarySchema(ResponseSchema):
    """A team type in a ruleset."""

    id = fields.String(required=True, metadata=_doc("e.g. `human`"))
    name = fields.String(required=True)


class RulesetSchema(ResponseSchema):
    """A ruleset: advancement, value increases, SPP awards, skills and team types."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    edition = fields.String(required=True)
    stat_style = fields.String(
        required=True,
        validate=OneOf(("target", "value")),
        metadata=_doc("`target`: AG, PA and AV are target numbers (3 means 3+)."),
    )
    advancement = fields.Nested(AdvancementRulesSchema, required=True)
    value_increase = fields.Nested(ValueIncreaseSchema, required=True)
    spp_awards = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=_doc("SPP per event: `td`, `cas`, `comp`, `int`, `deflection`, `mvp`, ..."),
    )
    skill_categories = fields.List(fields.Nested(SkillCategorySchema), required=True)
    skills = fields.List(fields.Nested(SkillSchema), required=True)
    team_types = fields.List(fields.Nested(TeamTypeSummarySchema), required=True)


class PositionSchema(ResponseSchema):
    """A position a team type may hire."""

    id = fields.String(required=True, metadata=_doc("Position id, as hiring names it."))
    name = fields.String(required=True)
    max = fields.Integer(required=True, metadata=_doc("How many a team may have."))
    cost = fields.Integer(required=True, metadata=_doc("Gold."))
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=_doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(fields.String(), required=True, metadata=_doc("Starting skills."))
    primary = fields.List(fields.String(), required=True, metadata=_doc("Category codes."))
    secondary = fields.List(fields.String(), required=True, metadata=_doc("Category codes."))


class TeamTypeSchema(ResponseSchema):
    """A team type (roster) with its positions."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    reroll_cost = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True, metadata=_doc("May the team hire one?"))
    tier = fields.Integer(required=True, allow_none=True)
    special_rules = fields.List(fields.String(), required=True)
    positions = fields.List(fields.Nested(PositionSchema), required=True)


class ReducedPriceSchema(ResponseSchema):
    """A cheaper price of an inducement for teams with a special rule or of a team type."""

    for_ = fields.String(
        required=True, data_key="for", metadata=_doc("The special rule or team type id.")
    )
    kind = fields.String(required=True, validate=OneOf(("special_rule", "team_type")))
    cost = fields.Integer(required=True)
    max = fields.Integer(required=True, allow_none=True, metadata=_doc("null: the usual maximum."))


class InducementSchema(ResponseSchema):
    """An inducement a team may buy before a game."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True, metadata=_doc("Gold, the usual price."))
    max = fields.Integer(required=True, metadata=_doc("How many a team may buy per game."))
    summary = fields.String(required=True)
    special_rules = fields.List(
        fields.String(),
        required=True,
        metadata=_doc(
            'Only teams with one of these (if any); one ending in "..." ("Favoured of...") '
            "stands for every rule that starts with it."
        ),
    )
    team_types = fields.List(
        fields.String(), required=True, metadata=_doc("Only these team types (if any).")
    )
    tiers = fields.List(
        fields.Integer(), required=True, metadata=_doc("Only team types of these tiers (if any).")
    )
    needs_apothecary = fields.Boolean(
        required=True, metadata=_doc("Only teams whose roster may have an apothecary.")
    )
    excludes_stars = fields.List(
        fields.String(), required=True, metadata=_doc("Star ids a buyer may not also hire.")
    )
    reduced = fields.List(fields.Nested(ReducedPriceSchema), required=True)


class PettyCashRulesSchema(ResponseSchema):
    """Who gets petty cash and who may spend treasury on inducements."""

    higher_spends_first = fields.Boolean(required=True)
    higher_spend_adds_to_petty_cash = fields.Boolean(
        required=True,
        metadata=_doc("The lower team's petty cash is the CTV gap plus the higher team's spend."),
    )
    lower_adds_treasury_max = fields.Integer(
        required=True, allow_none=True, metadata=_doc("Gold; null: no cap.")
    )
    equal_ctv_treasury = fields.Boolean(
        required=True, metadata=_doc("With equal CTVs, may the teams spend treasury?")
    )


class JourneymenRulesSchema(ResponseSchema):
    """Journeymen: who, how many, and hiring them after the game."""

    fill_to = fields.Integer(required=True)
    keyword = fields.String(required=True, allow_none=True)
    position_max = fields.List(fields.Integer(), required=True)
    trait = fields.String(required=True)
    counts_in_ctv = fields.Boolean(required=True)
    hire_price = fields.String(required=True, validate=OneOf(("current_value", "position_cost")))
    hire_needs_room = fields.Boolean(required=True)


class MercenaryRulesSchema(ResponseSchema):
    """Mercenaries: price on top of the position fee, the extra skill, the cap."""

    extra_cost = fields.Integer(required=True)
    skill_cost = fields.Integer(required=True)
    max_skills = fields.Integer(required=True)
    trait = fields.String(required=True)
    max = fields.Integer(required=True, allow_none=True, metadata=_doc("null: no cap."))


class StarPlayerRulesSchema(ResponseSchema):
    """How many stars a team may hire, and a star both teams want."""

    max = fields.Integer(required=True, metadata=_doc("Per team and game; a pair counts once."))
    same_star = fields.String(required=True, validate=OneOf(("both", "neither")))


class InducementsSchema(ResponseSchema):
    """A ruleset's inducements and pre-game rules."""

    inducements = fields.List(fields.Nested(InducementSchema), required=True)
    petty_cash = fields.Nested(PettyCashRulesSchema, required=True)
    journeymen = fields.Nested(JourneymenRulesSchema, required=True)
    mercenaries = fields.Nested(MercenaryRulesSchema, required=True)
    star_players = fields.Nested(StarPlayerRulesSchema, required=True)


class StarPlayerSchema(ResponseSchema):
    """A star player."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True, metadata=_doc("Gold; a pair member: the pair's fee."))
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=_doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(fields.String(), required=True)
    special_rule = fields.String(required=True, allow_none=True)
    plays_for = fields.List(
        fields.String(),
        required=True,
        metadata=_doc('Leagues and special rules; "Favoured of..." matches every Favoured rule.'),
    )
    plays_for_teams = fields.List(fields.String(), required=True, metadata=_doc("Team type ids."))
    any_team = fields.Boolean(required=True)
    plays_for_except = fields.List(fields.String(), required=True)
    mega_star = fields.Boolean(required=True)
    pair = fields.String(required=True, allow_none=True, metadata=_doc("The pair's id."))


class StarPairSchema(ResponseSchema):
    """Two stars hired together for one fee (one star choice, two roster places)."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True)
    members = fields.List(fields.String(), required=True)


class StarPlayersSchema(ResponseSchema):
    """A ruleset's star players."""

    star_players = fields.List(fields.Nested(StarPlayerSchema), required=True)
    pairs = fields.List(fields.Nested(StarPairSchema), required=True)


# ---------------------------------------------------------------------------
# Leagues


class PointsSchema(ResponseSchema):
    """League points per result."""

    win = fields.Integer(required=True)
    draw = fields.Integer(required=True)
    loss = fields.Integer(required=True)


class LeagueTeamSchema(ResponseSchema):
    """A team as its league lists it."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    team_type = fields.String(required=True)
    coach = fields.String(required=True, metadata=_doc("The coach's username."))
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))


class LeagueSchema(ResponseSchema):
    """A league."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True, metadata=_doc("Ruleset id."))
    starting_treasury = fields.Integer(required=True)
    points = fields.Nested(PointsSchema, required=True)
    tie_breakers = fields.List(fields.String(), required=True)
    house_rules = fields.Dict(
        required=True, metadata=_doc("Overrides merged over the ruleset's data.")
    )
    table_dice_allowed = fields.Boolean(
        required=True,
        metadata=_doc("Coaches may enter advancement dice rolled at the table."),
    )
    paper_size = fields.String(
        required=True,
        validate=OneOf(PAPER_SIZES),
        metadata=_doc("The paper roster sheets print on unless a print asks for another."),
    )
    default_language = fields.String(
        required=True,
        validate=OneOf(LANGUAGE_CODES),
        metadata=_doc(
            "The league's language: its pages for visitors who chose none, its roster "
            "pack, webhook messages and calendar."
        ),
    )
    season = fields.Integer(
        required=True, allow_none=True, metadata=_doc("The current season's number.")
    )
    commissioners = fields.List(fields.String(), required=True)
    coaches = fields.List(fields.String(), required=True)
    teams = fields.List(fields.Nested(LeagueTeamSchema), required=True)


def _points(description: str) -> fields.Integer:
    return JsonInteger(
        metadata=_doc(description),
        validate=Range(*POINTS_RANGE, error="must be between {min} and {max}."),
        error_messages=INTEGER,
    )


class PointsSettingSchema(RequestSchema):
    """League points per result; a result not given keeps its points."""

    win = _points("Points for a win.")
    draw = _points("Points for a draw (at most a win's).")
    loss = _points("Points for a loss (at most a draw's).")


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
        metadata=_doc("Gold each new team starts with."),
        validate=ServiceRange(0, MAX_STARTING_TREASURY),
        error_messages=INTEGER,
    )
    points = Object(PointsSettingSchema, error_messages=OBJECT)
    tie_breakers = WholeList(
        fields.String(validate=ServiceOneOf(TIE_BREAKERS)),
        metadata=_doc("In order of use; each at most once.", uniqueItems=True),
        error_messages={
            "invalid": "must be a list of tie-breaker names.",
            "null": "must be a list of tie-breaker names.",
        },
    )
    house_rules = fields.Dict(
        keys=fields.String(),
        metadata=_doc(
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
        metadata=_doc("Coaches may enter advancement dice rolled at the table."),
        error_messages=BOOLEAN,
    )
    paper_size = fields.String(
        validate=[no_nul, ServiceOneOf(PAPER_SIZES)],
        metadata=_doc("Roster sheets' paper: A4 or US Letter."),
        error_messages=STRING,
    )
    default_language = fields.String(
        validate=[no_nul, ServiceOneOf(LANGUAGE_CODES)],
        metadata=_doc("The league's language: `en`, `fr`, `de`, `es` or `it` (422 otherwise)."),
        error_messages=STRING,
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

    team_id = fields.Integer(required=True)
    team = fields.String(required=True, metadata=_doc("The team's name."))
    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    td_for = fields.Integer(required=True)
    td_against = fields.Integer(required=True)
    cas_for = fields.Integer(required=True)
    cas_against = fields.Integer(required=True)
    points = fields.Integer(
        required=True, metadata=_doc("Bonus points included (a league scored as a tournament).")
    )
    bonus_points = fields.Integer(
        required=True,
        metadata=_doc(
            "Tournament bonus points earned (house rule `tournament`), already counted in "
            "`points`; 0 where the league gives none."
        ),
    )
    byes = fields.Integer(
        required=True,
        metadata=_doc(
            "Swiss rounds the team sat out; each is counted in played and in the results "
            "as the ruleset says (a 1-0 win by default)."
        ),
    )


class DivisionStandingsSchema(ResponseSchema):
    """One division's part of the league table, ranked as the whole table is."""

    name = fields.String(
        required=True, allow_none=True, metadata=_doc("null: the teams without a division.")
    )
    rows = fields.List(fields.Nested(StandingsRowSchema), required=True)


class StandingsSchema(ResponseSchema):
    """Standings, ranked: points, then the league's tie-breakers, then name."""

    rows = fields.List(fields.Nested(StandingsRowSchema), required=True)
    divisions = fields.List(
        fields.Nested(DivisionStandingsSchema),
        required=True,
        metadata=_doc(
            "Each division's table, divisions by name, the teams without a division last; "
            "empty when the league has no divisions."
        ),
    )


class PrizeSchema(ResponseSchema):
    """Gold a team won for its final place, paid into its treasury."""

    team_id = fields.Integer(required=True)
    place = fields.Integer(required=True, metadata=_doc("1 for the champion."))
    gold = fields.Integer(required=True)
    trophy = fields.Boolean(
        required=True,
        metadata=_doc("The team holds the League Trophy (a free re-roll) for the next season."),
    )


class ClosedSeasonSchema(ResponseSchema):
    """A season just closed: its final table, the prizes paid and the season now open."""

    season = fields.Integer(required=True, metadata=_doc("The closed season's number."))
    next_season = fields.Integer(required=True, metadata=_doc("The new current season."))
    rows = fields.List(
        fields.Nested(StandingsRowSchema), required=True, metadata=_doc("The final table.")
    )
    prizes = fields.List(
        fields.Nested(PrizeSchema),
        required=True,
        metadata=_doc("Empty where the edition pays no prizes (BB2020, classic)."),
    )


class ReopenedSeasonSchema(ResponseSchema):
    """A closed season open again: its results can change; the prizes it paid were taken back."""

    season = fields.Integer(required=True, metadata=_doc("The reopened season's number."))
    taken_back = fields.List(
        fields.Nested(PrizeSchema),
        required=True,
        metadata=_doc("The prizes booked back out of the treasuries, one ledger row each."),
    )


class BracketMatchSchema(ResponseSchema):
    """A place in the bracket: its match once scheduled, else the teams known so far."""

    match_id = fields.Integer(allow_none=True, metadata=_doc("null until scheduled."))
    home_team = fields.Integer(allow_none=True, metadata=_doc("Team id; null: to be decided."))
    away_team = fields.Integer(allow_none=True, metadata=_doc("Team id; null: to be decided."))
    winner = fields.Integer(allow_none=True, metadata=_doc("Team id of who went through."))
    third_place = fields.Boolean(required=True)


class PlayoffsSchema(ResponseSchema):
    """A season's knock-out bracket, round by round (the last holds the final first)."""

    size = fields.Integer(required=True)
    rounds = fields.List(
        fields.List(fields.Nested(BracketMatchSchema)), required=True, metadata=_doc("By round.")
    )


class NewPlayoffsSchema(RequestSchema):
    """A bracket to seed from the current standings."""

    teams = JsonInteger(
        required=True, validate=ServiceOneOf(PLAYOFF_SIZES), error_messages=REQUIRED
    )


class SwissPairingSchema(ResponseSchema):
    """One match of a Swiss round, the better-placed team at home."""

    match_id = fields.Integer(required=True)
    home_team = fields.Integer(required=True, metadata=_doc("Team id."))
    away_team = fields.Integer(required=True, metadata=_doc("Team id."))


class SwissRoundSchema(ResponseSchema):
    """The round just paired: its matches (scheduled fixtures) and the bye."""

    round = fields.Integer(required=True, metadata=_doc("The round's number in the season."))
    pairings = fields.List(fields.Nested(SwissPairingSchema), required=True)
    bye = fields.Integer(
        required=True,
        allow_none=True,
        metadata=_doc("Team id of the team sitting out (an odd number of teams), else null."),
    )
    rematches = fields.Boolean(
        required=True,
        metadata=_doc("true only when no pairing without a rematch was left."),
    )


class DivisionSchema(ResponseSchema):
    """A division and its teams."""

    name = fields.String(required=True)
    teams = fields.List(fields.Integer(), required=True, metadata=_doc("Team ids."))


class DivisionsSchema(ResponseSchema):
    """The league's divisions (by name) and the teams in none."""

    divisions = fields.List(fields.Nested(DivisionSchema), required=True)
    without_division = fields.List(fields.Integer(), required=True, metadata=_doc("Team ids."))


class DivisionAssignmentSchema(RequestSchema):
    """Teams to place: team id (as a text key) to division name, null for none."""

    teams = fields.Dict(
        keys=fields.String(),
        # The name's length and form are the service's to refuse (422 invalid_division).
        values=fields.String(
            allow_none=True, error_messages={"invalid": "must be a text or null."}
        ),
        required=True,
        metadata=_doc('e.g. `{"12": "North", "13": null}`; a name has at most 40 characters.'),
        error_messages={"invalid": "must be an object of team ids to division names."},
    )


class MatchWinnerSchema(RequestSchema):
    """Who went through from a drawn knock-out match, after extra time."""

    team_id = integer("One of the two teams of the match.", required=True)


class RedraftBudgetSchema(ResponseSchema):
    """The working of a team's re-draft budget."""

    base = fields.Integer(required=True)
    treasury = fields.Integer(required=True)
    fixtures = fields.Integer(required=True, metadata=_doc("Gold for the games played."))
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    cap = fields.Integer(
        required=True, allow_none=True, metadata=_doc("null: the league lifted the cap.")
    )
    lost_to_cap = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata=_doc("What the team may spend."))


class RedraftPlayerSchema(ResponseSchema):
    """A player the team may re-hire, at his value plus the agent's fee per season."""

    player_id = fields.Integer(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=_doc("Position id."))
    value = fields.Integer(required=True)
    seasons_played = fields.Integer(required=True)
    cost = fields.Integer(required=True)
    niggling_injuries = fields.Integer(required=True)
    recovery_dice = fields.Integer(
        required=True,
        metadata=_doc(
            "Rest and recovery: D6 he rolls if kept, one per niggling injury "
            "(BB2025; 0 where the edition makes no such roll)."
        ),
    )


class RedraftHireOptionSchema(ResponseSchema):
    """A position new players can be hired for in the re-draft."""

    position = fields.String(required=True, metadata=_doc("Position id."))
    name = fields.String(required=True)
    cost = fields.Integer(required=True)


class RecoveryRollSchema(ResponseSchema):
    """A kept player's rest and recovery roll, made once when first submitted."""

    player_id = fields.Integer(required=True)
    dice = fields.List(fields.Integer(), required=True)
    source = fields.String(
        required=True,
        validate=OneOf(("server", "table")),
        metadata=_doc("server: rolled by the server; table: entered by the coach."),
    )
    healed = fields.Integer(
        required=True,
        metadata=_doc("Niggling injuries healed (with the apothecary chosen; fixed on approval)."),
    )


class RedraftStaffSchema(ResponseSchema):
    """Re-rolls and staff, at their standard price."""

    reroll = fields.Integer(required=True)
    assistant_coach = fields.Integer(required=True)
    cheerleader = fields.Integer(required=True)
    apothecary = fields.Integer(
        required=True, allow_none=True, metadata=_doc("null: none allowed.")
    )


class SkillPointsSchema(ResponseSchema):
    """Skill points spent on the skills added, and how many the team's tier allows."""

    used = fields.Integer(required=True)
    allowed = fields.Integer(required=True)


class RosterProblemSchema(ResponseSchema):
    """One reason the roster breaks the matched-play rules."""

    code = fields.String(
        required=True,
        metadata=_doc(
            "`roster_over_budget`, `over_skill_points`, `too_many_secondary_skills` "
            "or `elite_skill_over_cap`."
        ),
    )
    message = fields.String(required=True)


class MatchedPlayCheckSchema(ResponseSchema):
    """A team's roster against its league's matched-play (tournament) rules."""

    team_id = fields.Integer(required=True)
    allowed = fields.Boolean(required=True)
    budget = fields.Integer(required=True)
    cost = fields.Integer(
        required=True,
        metadata=_doc("Hiring fees plus re-rolls and staff; added skills cost no gold."),
    )
    skill_points = fields.Nested(SkillPointsSchema, required=True)
    problems = fields.List(fields.Nested(RosterProblemSchema), required=True)


class RedraftSchema(ResponseSchema):
    """A team's off-season re-draft after the league's last closed season."""

    team_id = fields.Integer(required=True)
    season = fields.Integer(required=True, metadata=_doc("The closed season's number."))
    budget = fields.Nested(RedraftBudgetSchema, required=True)
    players = fields.List(fields.Nested(RedraftPlayerSchema), required=True)
    prices = fields.Nested(RedraftStaffSchema, required=True)
    state = fields.String(
        required=True,
        validate=OneOf(("open", "submitted", "approved")),
        metadata=_doc("open: nothing submitted yet; submitted: waiting for a commissioner."),
    )
    keep = fields.List(
        fields.Integer(), required=True, metadata=_doc("Players kept (submitted, or all).")
    )
    rerolls = fields.Integer(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    spent = fields.Integer(required=True, metadata=_doc("What the choice costs."))
    left = fields.Integer(required=True, metadata=_doc("What the budget leaves after it."))
    hires = fields.List(
        fields.String(), required=True, metadata=_doc("New players to hire, by position id.")
    )
    hire_options = fields.List(fields.Nested(RedraftHireOptionSchema), required=True)
    recovery = fields.List(fields.Nested(RecoveryRollSchema), required=True)


class RecoveryDiceSchema(RequestSchema):
    """A kept player's rest and recovery dice rolled at the table."""

    player_id = integer("A player id.", required=True)
    dice = WholeList(
        integer("A D6."),
        required=True,
        metadata=_doc("One D6 per niggling injury."),
        error_messages=dict.fromkeys(("invalid", "null", "required"), "must be a list of D6."),
    )


class RedraftChoiceSchema(RequestSchema):
    """What the team keeps through the re-draft; absent fields keep what the team has."""

    keep = WholeList(
        integer("A player id."),
        metadata=_doc("Players to re-hire."),
        error_messages=dict.fromkeys(("invalid", "null"), "must be a list of player ids."),
    )
    rerolls = NullIsAbsent(metadata=_doc("Team re-rolls."))
    assistant_coaches = NullIsAbsent(metadata=_doc("Assistant coaches."))
    cheerleaders = NullIsAbsent(metadata=_doc("Cheerleaders."))
    apothecary = Boolean(error_messages=BOOLEAN)
    hires = WholeList(
        text("A position id."),
        metadata=_doc("New players to hire from the roster, one position id each."),
        validate=Length(max=16, error="lists at most 16 positions."),
        error_messages=dict.fromkeys(("invalid", "null"), "must be a list of position ids."),
    )
    recovery = fields.List(
        Object(RecoveryDiceSchema, error_messages=OBJECT),
        validate=Length(max=16, error="lists at most 16 players."),
        metadata=_doc(
            "Table dice for rest and recovery, where the league allows them; "
            "players left out get server dice. Rolled once: later submissions keep them."
        ),
        error_messages={"invalid": "must be a list.", "null": "must be a list."},
    )


# ---------------------------------------------------------------------------
# Teams and players


class SppSchema(ResponseSchema):
    """A player's Star Player Points."""

    earned = fields.Integer(required=True)
    spent = fields.Integer(required=True)
    available = fields.Integer(required=True)


class InjurySchema(ResponseSchema):
    """A lasting injury: one entry per niggling injury or characteristic step lost."""

    kind = fields.String(required=True, validate=OneOf(("niggling", "lasting")))
    characteristic = fields.String(
        validate=OneOf(CHARACTERISTICS), metadata=_doc("For `lasting`: what it reduced.")
    )


class PlayerSchema(ResponseSchema):
    """A player, with current characteristics (advancements and injuries applied)."""

    id = fields.Integer(required=True)
    team_id = fields.Integer(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=_doc("Position id."))
    position_name = fields.String(required=True)
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=_doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(
        fields.String(), required=True, metadata=_doc("Starting skills, then those gained.")
    )
    spp = fields.Nested(SppSchema, required=True)
    advancements = fields.Integer(required=True, metadata=_doc("Advancements taken."))
    level = fields.String(required=True)
    value = fields.Integer(required=True, metadata=_doc("Gold."))
    status = fields.String(required=True, validate=OneOf(PLAYER_STATUSES))
    injuries = fields.List(fields.Nested(InjurySchema), required=True)


class TeamSchema(ResponseSchema):
    """A team: treasury, staff, values and everyone who was ever on it."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    league_id = fields.Integer(required=True)
    team_type = fields.String(required=True, metadata=_doc("Team type id."))
    coach = fields.String(required=True, metadata=_doc("The coach's username."))
    coachless = fields.Boolean(
        required=True,
        metadata=_doc(
            "The coach was removed from the league and the team left without one: only "
            "commissioners act on it (`coach` names the former coach)."
        ),
    )
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))
    treasury = fields.Integer(required=True, metadata=_doc("Gold."))
    rerolls = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    dedicated_fans = fields.Integer(required=True)
    team_value = fields.Integer(required=True)
    current_team_value = fields.Integer(required=True)
    division = fields.String(
        required=True, allow_none=True, metadata=_doc("The team's division; null: none.")
    )
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        metadata=_doc("The roster by number, then former players (see `status`)."),
    )


class NewTeamSchema(RequestSchema):
    """A team to create: active, with an empty roster and the starting treasury."""

    name = text("2 to 80 characters.", required=True)
    team_type = text("Team type id of the league's ruleset.", required=True)
    coach = text(
        "Username of the coach (a commissioner creates teams for others); absent: the caller.",
        allow_none=True,
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
    amount = fields.Integer(required=True, metadata=_doc("Gold; negative when taken away."))
    reason = fields.String(required=True)


class TreasuryAdjustedSchema(ResponseSchema):
    """The adjustment made, and the team with its new treasury."""

    entry = fields.Nested(TreasuryEntrySchema, required=True)
    team = fields.Nested(TeamSchema, required=True)


# ---------------------------------------------------------------------------
# Matches


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
    winnings = fields.Nested(PerSideSchema, required=True, metadata=_doc("Gold."))
    fans_change = fields.Nested(PerSideSchema, required=True)
    fan_attendance = fields.Integer(required=True, allow_none=True)
    expensive_mistakes = fields.Nested(ExpensiveMistakesSchema, required=True)
    played_at = fields.String(
        required=True, allow_none=True, metadata=_doc("ISO 8601 date and time.")
    )
    players = fields.List(fields.Nested(MatchPlayerSchema), required=True)


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
        CHARACTERISTICS, metadata=_doc("With a lasting injury: the characteristic it reduces.")
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


class MatchResultSchema(RequestSchema):
    """The result of a scheduled fixture; SPP awards follow the league's ruleset."""

    home_score = integer("Touchdowns.", required=True, validate=Bounded(max=MAX_COUNT))
    away_score = integer("Touchdowns.", required=True, validate=Bounded(max=MAX_COUNT))
    winnings = Object(WinningsSchema, allow_none=True, error_messages=OPTIONAL_OBJECT)
    fans_change = Object(FansChangeSchema, allow_none=True, error_messages=OPTIONAL_OBJECT)
    conceded = choice_field(SIDES, metadata=_doc("The side that conceded."))
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
        metadata=_doc("Repeating a key returns the first match (200) and records nothing new."),
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
        metadata=_doc("Six players (all who could play, when fewer); no star players."),
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
    rolled = fields.Boolean(required=True, metadata=_doc("The server rolled the die."))


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
    left = fields.Boolean(required=True, metadata=_doc("He left the team (retired)."))


class DeparturesSchema(ResponseSchema):
    """BB2025: each roll of a conceding team's players with three or more advancements."""

    departures = fields.List(fields.Nested(DepartureSchema), required=True)


# ---------------------------------------------------------------------------
# Fixtures


class FixtureSchema(ResponseSchema):
    """A fixture of a season: a scheduled match, or one played."""

    id = fields.Integer(required=True, metadata=_doc("The match id."))
    round = fields.Integer(required=True, allow_none=True)
    date = fields.String(required=True, allow_none=True, metadata=_doc("YYYY-MM-DD."))
    state = fields.String(required=True, validate=OneOf(MATCH_STATES))
    friendly = fields.Boolean(required=True)
    home_team = fields.Integer(required=True, metadata=_doc("Team id."))
    away_team = fields.Integer(required=True, metadata=_doc("Team id."))
    home_score = fields.Integer(required=True)
    away_score = fields.Integer(required=True)


class FixtureListSchema(ResponseSchema):
    """A season's fixtures, by round then date."""

    season = fields.String(required=True, metadata=_doc("The season's name."))
    fixtures = fields.List(fields.Nested(FixtureSchema), required=True)


class IsoDate(fields.Date):
    """A calendar date written YYYY-MM-DD, and only so (not 2026-1-1, not 20260101)."""

    default_error_messages: ClassVar[dict[str, str]] = {  # type: ignore[misc,assignment]
        "invalid": "must be a date, YYYY-MM-DD.",
        "type": "must be a string.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> date:
        if not isinstance(value, str):
            raise self.make_error("type")
        no_nul(value)
        try:
            if not ISO_DATE.fullmatch(value):
                raise ValueError(value)  # fromisoformat also takes 20260101 and week dates
            return date.fromisoformat(value)
        except ValueError:
            raise self.make_error("invalid") from None


class NewFixtureSchema(RequestSchema):
    """One fixture to add to the current season."""

    home_team = integer("Team id.", required=True, validate=row_id())
    away_team = integer("Team id.", required=True, validate=row_id())
    round = JsonInteger(
        metadata=_doc("Round number."),
        allow_none=True,
        validate=Range(1, MAX_ROUND, error="must be from {min} to {max}."),
    )
    date = IsoDate(allow_none=True, metadata=_doc("YYYY-MM-DD."))
    friendly = Boolean(metadata=_doc("Does not count in the standings."), error_messages=BOOLEAN)
    add_another = Boolean(
        metadata=_doc("Add it even though the two teams already meet in that round."),
        error_messages=BOOLEAN,
    )


class CloseSeasonSchema(RequestSchema):
    """Optional: what becomes of the season's matches still waiting for a result."""

    mark_unplayed = Boolean(
        metadata=_doc(
            "Mark them unplayed (default false: they stay scheduled; either way no result "
            "can be entered once the season is closed)."
        ),
        error_messages=BOOLEAN,
    )


class FixtureFormat(OneOf):
    """`single` or `double`; an empty string, like null, is the default `single`."""

    def __call__(self, value: Any) -> Any:
        if value and value not in self.choices:
            raise ValidationError("must be 'single' or 'double'.")
        return value


class GenerateFixturesSchema(RequestSchema):
    """A round robin to generate."""

    format = fields.String(
        allow_none=True,
        validate=[no_nul, FixtureFormat(FIXTURE_FORMATS)],
        metadata=_doc("`single` (default): every team meets every other once; `double`: twice."),
        error_messages=STRING,
    )
    start_date = IsoDate(allow_none=True, metadata=_doc("Date of round 1, YYYY-MM-DD."))
    days_between = JsonInteger(
        metadata=_doc("Days between rounds (default 7)."),
        allow_none=True,
        validate=ServiceRange(1, MAX_DAYS_BETWEEN),
    )


# ---------------------------------------------------------------------------
# Members


class MemberSchema(ResponseSchema):
    """A member of a league."""

    user_id = fields.Integer(required=True)
    username = fields.String(required=True)
    role = fields.String(required=True, validate=OneOf(MEMBER_ROLES))
    owner = fields.Boolean(
        required=True,
        metadata=_doc("The league's owner: a commissioner nobody can remove."),
    )


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

    token = fields.String(required=True, metadata=_doc("Send it to `POST /leagues/{id}/join`."))
    url = fields.String(required=True, metadata=_doc("The page a person opens to join."))


class JoinRequestSchema(RequestSchema):
    """The token of the league's join link."""

    token = text("From the join link.", required=True)


# ---------------------------------------------------------------------------
# Advancement


class AdvancementOptionSchema(ResponseSchema):
    """A kind of advancement and whether the player may take it now."""

    kind = fields.String(required=True, validate=OneOf(ADVANCEMENT_KINDS))
    cost = fields.Integer(
        required=True, allow_none=True, metadata=_doc("SPP; null in roll mode or when maxed.")
    )
    value_increase = fields.Integer(
        required=True,
        allow_none=True,
        metadata=_doc("Base increase of a skill kind; null for the characteristic kind."),
    )
    affordable = fields.Boolean(required=True)
    refused = fields.String(
        required=True, allow_none=True, metadata=_doc("Why not, when not affordable.")
    )
    skills = fields.List(fields.String(), required=True, metadata=_doc("Skills legal for it."))
    categories = fields.List(fields.String(), required=True)
    characteristic_value_increases = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata=_doc("Characteristic kind only: value increase per characteristic."),
    )


class KeptRollSchema(ResponseSchema):
    """Dice the server rolled that still wait for the coach's choice."""

    kind = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True)


class AdvancementOptionsSchema(ResponseSchema):
    """What a player may take next."""

    player_id = fields.Integer(required=True)
    available_spp = fields.Integer(required=True)
    advancements_taken = fields.Integer(required=True)
    next_advancement = fields.Integer(
        required=True, allow_none=True, metadata=_doc("1-based; null when maxed out.")
    )
    level = fields.String(required=True)
    must_spend = fields.Boolean(required=True)
    pending_rolls = fields.Integer(required=True, metadata=_doc("Roll mode: rolls earned."))
    pending_roll = fields.Nested(KeptRollSchema, required=True, allow_none=True)
    options = fields.List(fields.Nested(AdvancementOptionSchema), required=True)


class AdvancementSchema(ResponseSchema):
    """An advancement taken: what it gave, what it cost and the dice behind it."""

    id = fields.Integer(required=True)
    player_id = fields.Integer(required=True)
    number = fields.Integer(required=True, metadata=_doc("1 for the first advancement."))
    kind = fields.String(required=True)
    spp_cost = fields.Integer(required=True)
    skill = fields.String(required=True, allow_none=True)
    characteristic = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    dice_source = fields.String(
        required=True, allow_none=True, metadata=_doc("`table` or `server`.")
    )
    value_increase = fields.Integer(required=True)
    created_at = fields.String(required=True, metadata=_doc("ISO 8601 date and time."))
    undone_at = fields.String(required=True, allow_none=True)


class AdvancementListSchema(ResponseSchema):
    """Every advancement a player took, undone ones included."""

    advancements = fields.List(fields.Nested(AdvancementSchema), required=True)


class NewAdvancementSchema(RequestSchema):
    """An advancement to take."""

    kind = fields.String(
        required=True,
        validate=[no_nul, OneOf(ADVANCEMENT_KINDS, error=ONE_OF)],
        error_messages=STRING,
    )
    skill = text("Chosen kinds, and BB2025 random kinds: the skill picked.", allow_none=True)
    category = text("Random skill kinds: the category code rolled on.", allow_none=True)
    dice = Dice(
        JsonInteger(validate=Range(min=-MAX_DIE, max=MAX_DIE)),
        allow_none=True,
        validate=Length(max=MAX_DICE),
        metadata=_doc(
            "Dice rolled at the table (BB2020 skill: [d6, d6]; BB2025: [d6, d6, d6, d6]; "
            "characteristic: [d16] or [d8]); absent: the server rolls."
        ),
    )
    characteristic = fields.String(
        allow_none=True,
        validate=[no_nul, OneOf(CHARACTERISTICS, error=ONE_OF)],
        error_messages=STRING,
        metadata=_doc("Characteristic kind: the one picked among those the roll allows."),
    )


class AdvancementTakenSchema(ResponseSchema):
    """The advancement taken and the player after it."""

    advancement = fields.Nested(AdvancementSchema, required=True)
    player = fields.Nested(PlayerSchema, required=True)


class PendingRollSchema(KeptRollSchema):
    """Dice the server rolled; the coach's choice is still needed."""

    message = fields.String(required=True)


class AdvancementPendingSchema(ResponseSchema):
    """Nothing bought yet: repeat the call with the choice (`skill` or `characteristic`)."""

    pending_roll = fields.Nested(PendingRollSchema, required=True)
    player = fields.Nested(PlayerSchema, required=True)


# ---------------------------------------------------------------------------
# Team export and import (league.services.exchange)


class DocumentTeamSchema(ResponseSchema):
    """The team itself in a team document."""

    name = fields.String(required=True)
    team_type = fields.String(required=True, metadata=_doc("Team type id."))
    status = fields.String(required=True, validate=OneOf(TEAM_STATUSES))
    treasury = fields.Integer(required=True, metadata=_doc("Gold."))
    rerolls = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    dedicated_fans = fields.Integer(required=True)


class DocumentAdvancementSchema(ResponseSchema):
    """An advancement in force, in a team document."""

    number = fields.Integer(required=True)
    kind = fields.String(required=True, validate=OneOf(ADVANCEMENT_KINDS))
    spp_cost = fields.Integer(required=True)
    skill = fields.String(required=True, allow_none=True)
    characteristic = fields.String(required=True, allow_none=True)
    category = fields.String(required=True, allow_none=True)
    dice = fields.List(fields.Integer(), required=True, allow_none=True)
    dice_source = fields.String(required=True, allow_none=True, validate=OneOf(("server", "table")))
    value_increase = fields.Integer(required=True)


class DocumentPlayerSchema(ResponseSchema):
    """A player in a team document (no id)."""

    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=_doc("Position id."))
    status = fields.String(required=True, validate=OneOf(PLAYER_STATUSES))
    spp_earned = fields.Integer(required=True)
    spp_spent = fields.Integer(required=True)
    niggling_injuries = fields.Integer(required=True)
    reductions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=_doc("Steps lost to lasting injuries, per characteristic."),
    )
    advancements = fields.List(fields.Nested(DocumentAdvancementSchema), required=True)


class DocumentLedgerEntrySchema(ResponseSchema):
    """A treasury ledger entry in a team document."""

    amount = fields.Integer(required=True, metadata=_doc("Gold; negative when spent."))
    kind = fields.String(required=True, validate=OneOf(ENTRY_KINDS))
    description = fields.String(required=True)
    item = fields.String(required=True, allow_none=True, validate=OneOf(ITEMS))


class TeamDocumentSchema(ResponseSchema):
    """A team as a portable document (no ids), to import into a league of the same ruleset."""

    format = fields.String(required=True, validate=OneOf((DOCUMENT_FORMAT,)))
    version = fields.Integer(required=True, validate=OneOf((DOCUMENT_VERSION,)))
    ruleset = fields.String(required=True, metadata=_doc("Ruleset id."))
    team = fields.Nested(DocumentTeamSchema, required=True)
    players = fields.List(
        fields.Nested(DocumentPlayerSchema),
        required=True,
        metadata=_doc("Every player who was ever on the team, in hiring order."),
    )
    ledger = fields.List(fields.Nested(DocumentLedgerEntrySchema), required=True)


# ---------------------------------------------------------------------------
# Webhooks


class WebhookSchema(ResponseSchema):
    """A webhook of a league."""

    id = fields.Integer(required=True)
    league_id = fields.Integer(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=OneOf(WEBHOOK_EVENTS)), required=True)
    format = fields.String(required=True, validate=OneOf(WEBHOOK_FORMATS))
    paused = fields.Boolean(
        required=True, metadata=_doc("Paused after failing: nothing is sent until resumed.")
    )
    failures = fields.Integer(required=True, metadata=_doc("Failed attempts in a row."))


class NewWebhookCreatedSchema(WebhookSchema):
    """A webhook just registered, with its signing secret (shown this once)."""

    secret = fields.String(
        required=True,
        metadata=_doc("Key of the HMAC-SHA256 in each delivery's `X-League-Signature`."),
    )


class WebhookListSchema(ResponseSchema):
    """A league's webhooks."""

    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


EVENTS = "must be a list of event names."


class NewWebhookSchema(RequestSchema):
    """A webhook to register."""

    url = fields.String(
        required=True,
        validate=[NO_NUL, ServiceLength(min=1, max=URL_LENGTH)],
        metadata=_doc("An http:// or https:// address of a public host."),
        error_messages=STRING,
    )
    events = WholeList(
        fields.String(validate=ServiceOneOf(WEBHOOK_EVENTS)),
        required=True,
        validate=ServiceLength(min=1),
        metadata=_doc("The events to be told about.", uniqueItems=True),
        error_messages=dict.fromkeys(("invalid", "null", "required"), EVENTS),
    )
    format = fields.String(
        allow_none=True,
        validate=[no_nul, ServiceOneOf(WEBHOOK_FORMATS)],
        metadata=_doc("`json` (default): the event; `discord`: a Discord message with an embed."),
        error_messages=STRING,
    )


class DeliverySchema(ResponseSchema):
    """One event sent (or to be sent) to a webhook, and how it went."""

    id = fields.Integer(required=True, metadata=_doc("Also sent as `X-League-Delivery`."))
    event = fields.String(required=True, validate=OneOf(WEBHOOK_EVENTS))
    status = fields.String(required=True, validate=OneOf(DELIVERY_STATUSES))
    attempts = fields.Integer(required=True)
    response_code = fields.Integer(
        required=True, allow_none=True, metadata=_doc("The receiver's last HTTP status.")
    )
    error = fields.String(required=True, allow_none=True)
    created_at = fields.String(required=True, metadata=_doc("ISO 8601."))
    next_attempt_at = fields.String(required=True, allow_none=True, metadata=_doc("ISO 8601."))
    delivered_at = fields.String(required=True, allow_none=True, metadata=_doc("ISO 8601."))


class DeliveryListSchema(ResponseSchema):
    """A webhook's latest deliveries, newest first."""

    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


# ---------------------------------------------------------------------------
# Match day: a match's pre-game (league.api.pregame)

#: Bounds of a pre-game body: far above what the rules allow, so the rules refuse
#: anything between with their reason (422), and nothing beyond reaches them.
PREGAME_MAX_ITEMS = 50
PREGAME_MAX_COUNT = 99
PREGAME_STAGES = ("home_first", "away_first", "open", "ready", "closed")


def _ref(description: str, **kwargs: Any) -> fields.String:
    """An id of the rules data (position, inducement, star): the rules refuse unknown ones."""
    return fields.String(
        validate=[Length(min=1, max=60), NO_NUL],
        metadata=_doc(description),
        error_messages=STRING,
        **kwargs,
    )


class PregameJourneymanSchema(ResponseSchema):
    """A journeyman a side takes for the game."""

    position = fields.String(required=True, metadata=_doc("Position id."))
    position_name = fields.String(required=True)
    trait = fields.String(required=True, metadata=_doc("The trait he plays with, e.g. Loner."))


class PregameInducementSchema(ResponseSchema):
    """An inducement a side bought, with the gold for all of them."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    count = fields.Integer(required=True)
    cost = fields.Integer(required=True, metadata=_doc("Gold, for the whole count."))


class PregameStarSchema(ResponseSchema):
    """A star player (or a pair, one fee) a side hired."""

    id = fields.String(required=True, metadata=_doc("Star or pair id."))
    name = fields.String(required=True)
    cost = fields.Integer(required=True)
    plays = fields.Boolean(
        required=True,
        metadata=_doc("False: both teams hired him and the edition fields him for neither."),
    )


class PregameMercenarySchema(ResponseSchema):
    """A mercenary a side hired."""

    position = fields.String(required=True)
    position_name = fields.String(required=True)
    skill = fields.String(required=True, allow_none=True, metadata=_doc("The extra skill."))
    trait = fields.String(required=True)
    cost = fields.Integer(required=True)


class PregameSideSchema(ResponseSchema):
    """One side of a match's pre-game."""

    team_id = fields.Integer(required=True)
    team_name = fields.String(required=True)
    chosen = fields.Boolean(required=True, metadata=_doc("Has the side saved its choices?"))
    may_choose_now = fields.Boolean(
        required=True, metadata=_doc("False: it waits for the team with the higher CTV.")
    )
    players_available = fields.Integer(required=True)
    journeymen_needed = fields.Integer(required=True)
    ctv = fields.Integer(required=True, metadata=_doc("Gold, with the journeymen."))
    petty_cash = fields.Integer(required=True)
    treasury = fields.Integer(required=True, metadata=_doc("The team's treasury now."))
    treasury_allowance = fields.Integer(
        required=True, metadata=_doc("The most of its treasury it may spend.")
    )
    treasury_spent = fields.Integer(
        required=True, metadata=_doc("What the treasury pays: the total less the petty cash.")
    )
    total = fields.Integer(required=True, metadata=_doc("Gold of everything chosen."))
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
        metadata=_doc("One per journeyman needed; absent: the only journeyman position."),
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
