from __future__ import annotations

from typing import Any

from wtforms import HiddenField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from league.rules.model import TeamType
from league.services.teams import ITEMS, MAX_ADJUSTMENT, HirePlayer, NewTeam
from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField, OneTimeForm


class NewTeamForm(FlaskForm):
    name = StringField("Team name", validators=[DataRequired(), Length(min=2, max=80)])
    team_type_id = SelectField("Team type")
    coach = SelectField("Coach", validators=[Optional()])
    submit = SubmitField("Start the draft")

    def __init__(
        self, *args: Any, team_types: list[TeamType], coaches: list[str] | None, **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        self.team_type_id.choices = [(t.id, t.name) for t in team_types]
        self.coach.choices = [(c, c) for c in coaches] if coaches else []

    def command(self, league_id: int) -> NewTeam:
        return NewTeam(
            league_id, self.name.data or "", self.team_type_id.data or "", self.coach.data or None
        )


class HireForm(OneTimeForm):
    position_id = HiddenField(validators=[DataRequired()])
    name = StringField("Name", validators=[DataRequired(), Length(max=60)])
    number = IntegerField("Number", validators=[Optional(), NumberRange(1, 99)])
    submit = SubmitField("Hire")

    def command(self) -> HirePlayer:
        return HirePlayer(self.position_id.data or "", self.name.data or "", self.number.data)


class ItemForm(OneTimeForm):
    item = HiddenField(validators=[DataRequired()])

    def validate_item(self, field: HiddenField) -> None:
        if field.data not in ITEMS:
            field.errors = [*field.errors, "Unknown item."]


class GiveBackForm(ConfirmStepForm, ItemForm):
    """Giving an item back during the draft: asks first."""


class CoachForm(FlaskForm):
    """A commissioner hands the team to another member of the league."""

    coach = SelectField("New coach", validators=[DataRequired()])
    submit = SubmitField("Hand over the team")

    def __init__(self, *args: Any, members: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.coach.choices = [(m, m) for m in members]


class PlayerForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=60)])
    number = IntegerField("Shirt number", validators=[InputRequired(), NumberRange(1, 99)])
    submit = SubmitField("Save")


class TreasuryForm(ConfirmStepForm, OneTimeForm):
    amount = IntegerField(
        "Amount (gold; negative takes gold away)",
        validators=[
            InputRequired(),
            NumberRange(
                -MAX_ADJUSTMENT, MAX_ADJUSTMENT, message=f"At most {MAX_ADJUSTMENT:,} either way."
            ),
        ],
    )
    reason = StringField("Reason", validators=[DataRequired(), Length(max=200)])
    submit = SubmitField("Adjust treasury")
