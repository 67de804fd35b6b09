from __future__ import annotations

from typing import Any

from wtforms import HiddenField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from league.i18n import format_number, gettext
from league.rules import SHIRT_NUMBERS
from league.rules.model import TeamType
from league.services.teams import ITEMS, MAX_ADJUSTMENT, HirePlayer, NewTeam
from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField, OneTimeForm, _l, lazy


class NewTeamForm(FlaskForm):
    name = StringField(_l("Team name"), validators=[DataRequired(), Length(min=2, max=80)])
    team_type_id = SelectField(_l("Team type"))
    coach = SelectField(_l("Coach"), validators=[Optional()])
    submit = SubmitField(_l("Start the draft"))

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


#: A shirt number as the forms check it (the service refuses the same, in its words).
SHIRT_NUMBER_RANGE = NumberRange(SHIRT_NUMBERS[0], SHIRT_NUMBERS[-1])


class HireForm(OneTimeForm):
    position_id = HiddenField(validators=[DataRequired()])
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=60)])
    number = IntegerField(_l("Number"), validators=[Optional(), SHIRT_NUMBER_RANGE])
    submit = SubmitField(_l("Hire"))

    def command(self) -> HirePlayer:
        return HirePlayer(self.position_id.data or "", self.name.data or "", self.number.data)


class ItemForm(OneTimeForm):
    item = HiddenField(validators=[DataRequired()])

    def validate_item(self, field: HiddenField) -> None:
        if field.data not in ITEMS:
            field.errors = [*field.errors, gettext("Unknown item.")]


class GiveBackForm(ConfirmStepForm, ItemForm):
    """Giving an item back during the draft: asks first."""


class CoachForm(FlaskForm):
    """A commissioner hands the team to another member of the league."""

    coach = SelectField(_l("New coach"), validators=[DataRequired()])
    submit = SubmitField(_l("Hand over the team"))

    def __init__(self, *args: Any, members: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.coach.choices = [(m, m) for m in members]


class PlayerForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=60)])
    number = IntegerField(_l("Shirt number"), validators=[InputRequired(), SHIRT_NUMBER_RANGE])
    submit = SubmitField(_l("Save"))


class TreasuryForm(ConfirmStepForm, OneTimeForm):
    amount = IntegerField(
        _l("Amount (gold; negative takes gold away)"),
        validators=[
            InputRequired(),
            NumberRange(
                -MAX_ADJUSTMENT,
                MAX_ADJUSTMENT,
                message=lazy(
                    lambda: gettext(
                        "At most %(gold)s either way.", gold=format_number(MAX_ADJUSTMENT)
                    )
                ),
            ),
        ],
    )
    reason = StringField(_l("Reason"), validators=[DataRequired(), Length(max=200)])
    submit = SubmitField(_l("Adjust treasury"))
