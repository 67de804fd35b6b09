from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from wtforms import BooleanField, DateTimeLocalField, SelectField, StringField, SubmitField

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from league.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, gettext
from league.models.league import TIE_BREAKERS
from league.rules import load_ruleset, ruleset_ids
from league.rules.loader import DEFAULT_RULESET_ID, MATCHED_PLAY_SETTINGS
from league.rules.model import ADVANCEMENT_KINDS, BONUS_KINDS, SPP_EVENTS, ValueIncreaseTable
from league.services.leagues import MAX_STARTING_TREASURY, LeagueSettings
from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField, _l

TIE_BREAKER_LABELS = {
    "points": N_("Points"),
    "head_to_head": N_("Head-to-head points among tied teams"),
    "td_difference": N_("Touchdown difference"),
    "cas_difference": N_("Casualty difference"),
    "td_scored": N_("Touchdowns scored"),
    "fewest_conceded": N_("Fewest matches conceded"),
    "opponents_points": N_("Opponents' points"),
    "cas_caused": N_("Casualties caused"),
    "coin_toss": N_("Coin toss (server draw)"),
}
#: One numbered select per tie-breaker a league may pick.
TIE_BREAKER_SLOTS = len(TIE_BREAKERS)
COST_LABELS = {
    "random_primary": N_("Random primary"),
    "chosen_primary": N_("Chosen primary"),
    "random_secondary": N_("Random secondary"),
    "chosen_secondary": N_("Chosen secondary"),
    "random_characteristic": N_("Characteristic"),
}


#: The settings-page box of each key of the house rule ``tournament`` (else the bonus box).
TOURNAMENT_BOXES = {
    "points": "tournament_points",
    "bye_result": "bye_result",
    "bye_touchdowns": "bye_score",
    "concession_points": "concession_points",
    "concession_score": "concession_score",
}


class HouseRulesError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _parse_numbers(field: str, text: str) -> list[int]:
    try:
        return [int(part.replace("_", "").strip()) for part in text.split(",") if part.strip()]
    except ValueError:
        raise HouseRulesError(field, gettext("Write whole numbers separated by commas.")) from None


def _parse_pairs(field: str, text: str, keys: tuple[str, ...]) -> dict[str, int]:
    pairs: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in keys:
            raise HouseRulesError(
                field, gettext("Write key=value pairs; keys: %(keys)s.", keys=", ".join(keys))
            )
        try:
            pairs[key] = int(value.replace("_", "").strip())
        except ValueError:
            raise HouseRulesError(
                field,
                gettext("%(key)s: %(value)s is not a number.", key=key, value=repr(value.strip())),
            ) from None
    return pairs


_YES = ("yes", "true", "1", "y")
_NO = ("no", "false", "0", "n")


def _parse_matched_play(field: str, text: str) -> dict[str, Any]:
    """``budget=1150000, skill_points=6/7/8/9, elite_costs_extra=yes`` as settings."""
    settings: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in MATCHED_PLAY_SETTINGS:
            raise HouseRulesError(
                field,
                gettext(
                    "Write key=value pairs; keys: %(keys)s.", keys=", ".join(MATCHED_PLAY_SETTINGS)
                ),
            )
        if key == "elite_costs_extra":
            if value.lower() not in (*_YES, *_NO):
                raise HouseRulesError(field, gettext("%(key)s: write yes or no.", key=key))
            settings[key] = value.lower() in _YES
            continue
        try:
            numbers = [int(n.replace("_", "").strip()) for n in value.split("/")]
        except ValueError:
            raise HouseRulesError(
                field, gettext("%(key)s: %(value)s is not a number.", key=key, value=repr(value))
            ) from None
        settings[key] = numbers if key == "skill_points" else numbers[0]
        if key != "skill_points" and len(numbers) != 1:
            raise HouseRulesError(
                field, gettext("%(key)s: %(value)s is not a number.", key=key, value=repr(value))
            )
    return settings


def _parse_points(field: str, text: str) -> list[int]:
    """``3/1/0`` as tournament points for a win, a draw and a loss (blank: none)."""
    if not text.strip():
        return []
    try:
        points = [int(part.replace("_", "").strip()) for part in text.split("/")]
    except ValueError:
        points = []
    if len(points) != 3:
        raise HouseRulesError(
            field, gettext("Write three whole numbers: win/draw/loss, e.g. 3/1/0.")
        )
    return points


def _parse_score(field: str, text: str) -> list[int]:
    """``1-0`` as a bye's touchdowns for and against (blank: none)."""
    if not text.strip():
        return []
    scored, _, conceded = text.partition("-")
    try:
        return [int(scored), int(conceded)]
    except ValueError:
        raise HouseRulesError(field, gettext("Write the score as for-against, e.g. 1-0.")) from None


def _parse_whole(field: str, text: str) -> int | None:
    """A whole number, possibly negative (blank: none)."""
    if not text.strip():
        return None
    try:
        return int(text.replace("_", "").strip())
    except ValueError:
        raise HouseRulesError(field, gettext("Write a whole number, e.g. 0 or -1.")) from None


def _parse_bonus(field: str, text: str) -> list[dict[str, Any]]:
    """``touchdowns 3 +1, close_loss 1 +1`` as bonus rules (kind, threshold, points)."""
    rules = []
    for part in text.split(","):
        if not part.strip():
            continue
        words = part.split()
        try:
            kind, threshold, points = words[0].lower(), int(words[1]), int(words[2].lstrip("+"))
        except (IndexError, ValueError):
            kind, threshold, points = "", 0, 0
        if len(words) != 3 or kind not in BONUS_KINDS:
            raise HouseRulesError(
                field,
                gettext(
                    "Write each bonus as kind, threshold and points, e.g. %(example)s "
                    "(kinds: %(kinds)s).",
                    example="touchdowns 3 +1",
                    kinds=", ".join(BONUS_KINDS),
                ),
            )
        rules.append({"kind": kind, "threshold": threshold, "points": points})
    return rules


def _bonus_text(rules: list[dict[str, Any]]) -> str:
    return ", ".join(f"{r.get('kind')} {r.get('threshold')} +{r.get('points')}" for r in rules)


def _matched_play_text(settings: dict[str, Any]) -> str:
    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "/".join(map(str, value))
        return str(value)

    return ", ".join(f"{key}={shown(value)}" for key, value in settings.items())


def _local(moment: datetime | None) -> datetime | None:
    """A stored deadline as the form's box shows it: UTC, without the offset."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment is not None else None


def _utc(moment: datetime | None) -> datetime | None:
    """A deadline typed in the box, read as UTC."""
    return moment.replace(tzinfo=UTC) if moment is not None else None


class LeagueForm(FlaskForm):
    name = StringField(_l("League name"), validators=[DataRequired(), Length(min=3, max=80)])
    ruleset_id = SelectField(_l("Ruleset"))
    starting_treasury = IntegerField(
        _l("Starting treasury (gold)"),
        default=1_000_000,
        validators=[InputRequired(), NumberRange(0), NumberRange(max=MAX_STARTING_TREASURY)],
    )
    points_win = IntegerField(_l("Points for a win"), default=3, validators=[InputRequired()])
    points_draw = IntegerField(_l("Points for a draw"), default=1, validators=[InputRequired()])
    points_loss = IntegerField(_l("Points for a loss"), default=0, validators=[InputRequired()])
    tie_breaker_1 = SelectField(_l("1st tie-breaker"), default="points")
    tie_breaker_2 = SelectField(_l("2nd tie-breaker"), default="head_to_head")
    tie_breaker_3 = SelectField(_l("3rd tie-breaker"), default="td_difference")
    tie_breaker_4 = SelectField(_l("4th tie-breaker"), default="cas_difference")
    tie_breaker_5 = SelectField(_l("5th tie-breaker"), default="")
    tie_breaker_6 = SelectField(_l("6th tie-breaker"), default="")
    tie_breaker_7 = SelectField(_l("7th tie-breaker"), default="")
    tie_breaker_8 = SelectField(_l("8th tie-breaker"), default="")
    tie_breaker_9 = SelectField(_l("9th tie-breaker"), default="")
    table_dice_allowed = BooleanField(_l("Table dice allowed"))
    log_finalises = BooleanField(_l("Two confirmed match logs finalise the result"))
    paper_size = SelectField(
        _l("Roster sheet paper"),
        choices=[SelectChoice("a4", "A4"), SelectChoice("letter", _l("US Letter"))],
        default="a4",
    )
    default_language = SelectField(
        _l("Default language"),
        # Each language under its own name.
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default=DEFAULT_LANGUAGE,
    )
    pairing_avoid_same_club = BooleanField(
        _l("Keep entries of one club or nation apart"), default=True
    )
    pairing_first_round = SelectField(
        _l("First round"),
        choices=[
            SelectChoice("random", _l("Drawn at random")),
            SelectChoice("rating", _l("Seeded by rating")),
            SelectChoice("manual", _l("Paired by hand")),
        ],
        default="random",
    )
    # House rules: blank means "as the ruleset says".
    cost_random_primary = StringField(_l("Random primary"), validators=[Optional()])
    cost_chosen_primary = StringField(_l("Chosen primary"), validators=[Optional()])
    cost_random_secondary = StringField(_l("Random secondary"), validators=[Optional()])
    cost_chosen_secondary = StringField(_l("Chosen secondary"), validators=[Optional()])
    cost_random_characteristic = StringField(_l("Characteristic"), validators=[Optional()])
    value_increase = StringField(_l("Value increases"), validators=[Optional()])
    spp_awards = StringField(_l("SPP awards"), validators=[Optional()])
    matched_play_on = BooleanField(_l("Check tournament rosters (matched play)"))
    matched_play = StringField(_l("Matched-play settings"), validators=[Optional()])
    tournament_points = StringField(
        _l("Tournament points (win/draw/loss)"), validators=[Optional()]
    )
    tournament_bonus = StringField(_l("Bonus points"), validators=[Optional()])
    bye_result = SelectField(
        _l("A bye counts as"),
        choices=[
            SelectChoice("", _l("As the ruleset says")),
            SelectChoice("win", _l("A win")),
            SelectChoice("draw", _l("A draw")),
        ],
        default="",
    )
    bye_score = StringField(_l("A bye's score (for-against)"), validators=[Optional()])
    concession_points = StringField(
        _l("Points for the coach who concedes"), validators=[Optional()]
    )
    concession_score = StringField(
        _l("A conceded match counts as (winner-conceding)"), validators=[Optional()]
    )
    roster_deadline = DateTimeLocalField(
        _l("Roster deadline (UTC)"), format="%Y-%m-%dT%H:%M", validators=[Optional()]
    )
    correction_deadline = DateTimeLocalField(
        _l("Correction deadline (UTC)"), format="%Y-%m-%dT%H:%M", validators=[Optional()]
    )
    submit = SubmitField(_l("Save league"))

    def __init__(self, *args: Any, ruleset_choices: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ruleset_id.choices = ruleset_choices
        tie_choices = [("", gettext("(none)"))] + [
            (t, gettext(TIE_BREAKER_LABELS[t])) for t in TIE_BREAKERS
        ]
        for slot in self.tie_breaker_fields():
            slot.choices = tie_choices

    def tie_breaker_fields(self) -> list[SelectField]:
        return [getattr(self, f"tie_breaker_{i}") for i in range(1, TIE_BREAKER_SLOTS + 1)]

    def cost_fields(self) -> list[StringField]:
        return [getattr(self, f"cost_{kind}") for kind in ADVANCEMENT_KINDS]

    def house_rules_in_use(self) -> bool:
        """Whether the advanced section must be open: a box is filled in or has an error."""
        fields = [
            *self.cost_fields(),
            self.value_increase,
            self.spp_awards,
            self.matched_play,
            *self.tournament_fields(),
        ]
        return (
            any((field.data or "").strip() or field.errors for field in fields)
            or bool(self.matched_play_on.data)
            or bool(self.bye_result.data)
            or bool(self.matched_play_on.errors)
        )

    def tournament_fields(self) -> list[StringField]:
        return [
            self.tournament_points,
            self.tournament_bonus,
            self.bye_score,
            self.concession_points,
            self.concession_score,
        ]

    def cost_help(self) -> dict[str, str]:
        """Help under each SPP-cost box: the chosen ruleset's own numbers."""
        ruleset_id = self.ruleset_id.data
        ruleset = load_ruleset(ruleset_id if ruleset_id in ruleset_ids() else DEFAULT_RULESET_ID)
        costs = ruleset.advancement.costs if ruleset.advancement.mode == "spend" else {}
        help_texts = {}
        for kind in ADVANCEMENT_KINDS:
            row = costs.get(kind)
            if row:
                text = gettext(
                    "%(ruleset)s default: %(costs)s",
                    ruleset=ruleset.name,
                    costs=", ".join(map(str, row)),
                )
            elif ruleset.advancement.mode != "spend":
                text = gettext(
                    "%(ruleset)s rolls for skills; SPP costs are not used.", ruleset=ruleset.name
                )
            else:
                text = gettext("%(ruleset)s has no such advancement.", ruleset=ruleset.name)
            help_texts[f"cost_{kind}"] = text
        return help_texts

    def fill_from(self, settings: LeagueSettings) -> None:
        """Show a stored league's settings (GET of the settings page)."""
        self.name.data = settings.name
        self.ruleset_id.data = settings.ruleset_id
        self.starting_treasury.data = settings.starting_treasury
        self.points_win.data = settings.points_win
        self.points_draw.data = settings.points_draw
        self.points_loss.data = settings.points_loss
        for slot, value in zip(
            self.tie_breaker_fields(),
            [*settings.tie_breakers, *[""] * TIE_BREAKER_SLOTS],
            strict=False,
        ):
            slot.data = value
        self.table_dice_allowed.data = settings.table_dice_allowed
        self.log_finalises.data = settings.log_finalises
        self.paper_size.data = settings.paper_size
        self.default_language.data = settings.default_language
        self.pairing_avoid_same_club.data = settings.pairing_avoid_same_club
        self.pairing_first_round.data = settings.pairing_first_round
        self.roster_deadline.data = _local(settings.roster_deadline)
        self.correction_deadline.data = _local(settings.correction_deadline)
        house = settings.house_rules
        for kind in ADVANCEMENT_KINDS:
            costs = house.get("costs", {}).get(kind)
            getattr(self, f"cost_{kind}").data = ", ".join(map(str, costs)) if costs else ""
        for name in ("value_increase", "spp_awards"):
            pairs = house.get(name, {})
            getattr(self, name).data = ", ".join(f"{k}={v}" for k, v in pairs.items())
        matched = house.get("matched_play")
        self.matched_play_on.data = matched is not None
        self.matched_play.data = _matched_play_text(matched) if isinstance(matched, dict) else ""
        scoring = house.get("tournament", {})
        points = scoring.get("points")
        self.tournament_points.data = "/".join(map(str, points)) if points else ""
        self.tournament_bonus.data = _bonus_text(scoring.get("bonus", []))
        self.bye_result.data = scoring.get("bye_result", "")
        score = scoring.get("bye_touchdowns")
        self.bye_score.data = "-".join(map(str, score)) if score else ""
        conceded = scoring.get("concession_points")
        self.concession_points.data = str(conceded) if conceded is not None else ""
        credited = scoring.get("concession_score")
        self.concession_score.data = "-".join(map(str, credited)) if credited else ""

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        # Every house-rules box is read, and each one that cannot be shows why.
        errors = self._read_house_rules()[1]
        for name, message in errors.items():
            self[name].errors = [*self[name].errors, message]
        return valid and not errors

    def house_rules(self) -> dict[str, Any]:
        """The advanced section as overrides (from the boxes that could be read)."""
        return self._read_house_rules()[0]

    def _read_house_rules(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The overrides from the boxes that can be read, and each other box's error."""
        rules: dict[str, Any] = {}
        errors: dict[str, str] = {}

        def read(name: str, parse: Callable[[str, str], Any]) -> Any:
            try:
                return parse(name, self[name].data or "")
            except HouseRulesError as error:
                errors[error.field] = str(error)
                return None

        costs = {
            kind: read(f"cost_{kind}", _parse_numbers)
            for kind in ADVANCEMENT_KINDS
            if (self[f"cost_{kind}"].data or "").strip()
        }
        costs = {kind: row for kind, row in costs.items() if row is not None}
        if costs:
            rules["costs"] = costs
        value_keys = (*ValueIncreaseTable.KEYS, "elite_surcharge")
        values = read("value_increase", partial(_parse_pairs, keys=value_keys))
        if values:
            rules["value_increase"] = values
        awards = read("spp_awards", partial(_parse_pairs, keys=SPP_EVENTS))
        if awards:
            rules["spp_awards"] = awards
        matched = read("matched_play", _parse_matched_play)
        if self.matched_play_on.data:
            if matched is not None:
                rules["matched_play"] = matched
        elif matched:
            errors["matched_play"] = gettext(
                "Tick “Check tournament rosters” to use these settings, or empty the box."
            )
        scoring = {
            key: value
            for key, value in (
                ("points", read("tournament_points", _parse_points)),
                ("bonus", read("tournament_bonus", _parse_bonus)),
                ("bye_result", self.bye_result.data),
                ("bye_touchdowns", read("bye_score", _parse_score)),
                ("concession_score", read("concession_score", _parse_score)),
            )
            if value
        }
        conceding = read("concession_points", _parse_whole)
        if conceding is not None:
            scoring["concession_points"] = conceding
        if scoring:
            rules["tournament"] = scoring
        return rules, errors

    def field_for(self, error_field: str | None) -> str | None:
        """The form field a service error belongs to (house-rule keys map to their box)."""
        if error_field and error_field.startswith("pairing."):
            return "pairing_" + error_field.removeprefix("pairing.")
        if error_field == "tie_breakers":
            return "tie_breaker_1"
        if not error_field or not error_field.startswith("house_rules"):
            return error_field
        key = error_field.removeprefix("house_rules").lstrip(".")
        section, _, kind = key.partition(".")
        if section == "costs" and kind in ADVANCEMENT_KINDS:
            return f"cost_{kind}"
        if section == "matched_play":
            return "matched_play" if kind else "matched_play_on"
        if section == "tournament":
            return TOURNAMENT_BOXES.get(kind.partition("[")[0], "tournament_bonus")
        return section if section in ("value_increase", "spp_awards") else None

    def settings(self) -> LeagueSettings:
        tie_breakers = tuple(slot.data for slot in self.tie_breaker_fields() if slot.data)
        return LeagueSettings(
            name=self.name.data or "",
            ruleset_id=self.ruleset_id.data or "",
            starting_treasury=self.starting_treasury.data or 0,
            points_win=self.points_win.data or 0,
            points_draw=self.points_draw.data or 0,
            points_loss=self.points_loss.data or 0,
            tie_breakers=tie_breakers,
            house_rules=self.house_rules(),
            table_dice_allowed=bool(self.table_dice_allowed.data),
            log_finalises=bool(self.log_finalises.data),
            paper_size=self.paper_size.data or "a4",
            default_language=self.default_language.data or DEFAULT_LANGUAGE,
            pairing_avoid_same_club=bool(self.pairing_avoid_same_club.data),
            pairing_first_round=self.pairing_first_round.data or "random",
            roster_deadline=_utc(self.roster_deadline.data),
            correction_deadline=_utc(self.correction_deadline.data),
        )


class AddMemberForm(FlaskForm):
    username = StringField(_l("Username"), validators=[DataRequired(), Length(max=40)])
    submit = SubmitField(_l("Add coach"))


class RemoveMemberForm(ConfirmStepForm):
    """Removing a member: what becomes of their teams (left without a coach, or handed to
    another member), asked on a page of its own."""

    hand_teams_to = SelectField(_l("Their teams"), default="")
    submit = SubmitField(_l("Remove from the league"))

    def __init__(self, *args: Any, heirs: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.hand_teams_to.choices = [
            ("", gettext("Leave them without a coach")),
            *((name, gettext("Hand them to %(name)s", name=name)) for name in heirs),
        ]
