"""Forms of the season cycle: the off-season re-draft."""

from __future__ import annotations

from typing import Any

import wtforms
from wtforms.validators import InputRequired, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField


class RedraftForm(FlaskForm):
    """What a team keeps: players (one checkbox each), re-rolls and staff."""

    keep = wtforms.SelectMultipleField(
        "Players to re-hire",
        coerce=int,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=True,
    )
    rerolls = IntegerField("Team re-rolls", validators=[InputRequired(), NumberRange(min=0)])
    assistant_coaches = IntegerField(
        "Assistant coaches", validators=[InputRequired(), NumberRange(min=0)]
    )
    cheerleaders = IntegerField("Cheerleaders", validators=[InputRequired(), NumberRange(min=0)])
    apothecary = wtforms.BooleanField("Apothecary")

    def __init__(self, players: list[tuple[int, str]], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.keep.choices = players


class ApproveRedraftForm(ConfirmStepForm):
    """A commissioner approves a submitted re-draft (asked first: players leave)."""
