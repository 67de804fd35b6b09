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

from league.services.fixtures import MAX_DAYS_BETWEEN
from league.web.forms import FlaskForm, IntegerField, OneTimeForm


class GenerateFixturesForm(FlaskForm):
    format = RadioField(
        "Format",
        choices=[
            SelectChoice("single", "Single round robin: every team meets every other once"),
            SelectChoice("double", "Double round robin: twice, once at home and once away"),
        ],
        default="single",
        validators=[InputRequired(message="Choose single or double.")],
    )
    start_date = DateField("Date of round 1", validators=[Optional()])
    days_between = IntegerField(
        "Days between rounds",
        default=7,
        validators=[
            InputRequired(message="Say how many days apart the rounds are."),
            NumberRange(1, MAX_DAYS_BETWEEN, message=f"From 1 to {MAX_DAYS_BETWEEN} days."),
        ],
    )
    confirm = BooleanField(
        "Yes, create these fixtures",
        validators=[DataRequired(message="Tick the box to confirm.")],
    )
    submit = SubmitField("Generate fixtures")

    @property
    def double(self) -> bool:
        chosen: str = self.format.data
        return chosen == "double"


class AddFixtureForm(OneTimeForm):
    home_team = SelectField("Home team", coerce=int)
    away_team = SelectField("Away team", coerce=int)
    scheduled_for = DateField("Date", validators=[Optional()])
    round_number = IntegerField(
        "Round", validators=[Optional(), NumberRange(1, 999, message="A round from 1 to 999.")]
    )
    friendly = BooleanField("Friendly (does not count in the standings)")
    add_another = BooleanField("Add another match between these teams in this round")
    submit = SubmitField("Add fixture")

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [
            SelectChoice(0, "(choose a team)"),
            *(SelectChoice(team_id, name) for team_id, name in teams),
        ]
        self.home_team.choices = choices
        self.away_team.choices = choices

    def validate_home_team(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError("Choose the home team.")

    def validate_away_team(self, field: SelectField) -> None:
        if not field.data:
            raise ValidationError("Choose the away team.")
        elif field.data == self.home_team.data:
            raise ValidationError("A team cannot play itself.")
