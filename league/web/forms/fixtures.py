"""Forms of the fixture pages: generate a season's schedule, add one fixture by hand."""

from __future__ import annotations

from typing import Any

from wtforms import (
    BooleanField,
    DateField,
    RadioField,
    SelectField,
    SubmitField,
)

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import (
    DataRequired,
    InputRequired,
    NumberRange,
    Optional,
    ValidationError,
)

from league.i18n import gettext
from league.services.fixtures import MAX_DAYS_BETWEEN
from league.web.forms import FlaskForm, IntegerField, OneTimeForm, _l


class GenerateFixturesForm(FlaskForm):
    format = RadioField(
        _l("Format"),
        choices=[
            SelectChoice("single", _l("Single round robin: every team meets every other once")),
            SelectChoice("double", _l("Double round robin: twice, once at home and once away")),
        ],
        default="single",
        validators=[InputRequired(message=_l("Choose single or double."))],
    )
    start_date = DateField(_l("Date of round 1"), validators=[Optional()])
    days_between = IntegerField(
        _l("Days between rounds"),
        default=7,
        validators=[
            InputRequired(message=_l("Say how many days apart the rounds are.")),
            NumberRange(
                1, MAX_DAYS_BETWEEN, message=_l("From 1 to %(max)d days.", max=MAX_DAYS_BETWEEN)
            ),
        ],
    )
    confirm = BooleanField(
        _l("Yes, create these fixtures"),
        validators=[DataRequired(message=_l("Tick the box to confirm."))],
    )
    submit = SubmitField(_l("Generate fixtures"))

    @property
    def double(self) -> bool:
        chosen: str = self.format.data
        return chosen == "double"


class AddFixtureForm(OneTimeForm):
    home_team = SelectField(_l("Home team"), coerce=int)
    away_team = SelectField(_l("Away team"), coerce=int)
    scheduled_for = DateField(_l("Date"), validators=[Optional()])
    round_number = IntegerField(
        _l("Round"),
        validators=[Optional(), NumberRange(1, 999, message=_l("A round from 1 to 999."))],
    )
    friendly = BooleanField(_l("Friendly (does not count in the standings)"))
    add_another = BooleanField(_l("Add another match between these teams in this round"))
    submit = SubmitField(_l("Add fixture"))

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [
            SelectChoice(0, gettext("(choose a team)")),
            *(SelectChoice(team_id, name) for team_id, name in teams),
        ]
        self.home_team.choices = choices
        self.away_team.choices = choices

    def validate_home_team(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError(gettext("Choose the home team."))

    def validate_away_team(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError(gettext("Choose the away team."))
        elif field.data == self.home_team.data:
            raise ValidationError(gettext("A team cannot play itself."))
