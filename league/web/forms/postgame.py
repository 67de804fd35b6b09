"""After the game (BB2025): the MVP drawn among nominees, a conceding team's departures.

Both forms check shape only (known players, a D6 from 1 to 6); the rules (how
many nominees, whether the league lets coaches enter table dice) are the
service's, whose refusal is put back next to the field it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import wtforms
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from league.web.forms import FlaskForm, IntegerField, _l


class MvpDrawForm(FlaskForm):
    """Nominees (checkboxes) and, where the league allows table dice, the die rolled."""

    nominees = wtforms.SelectMultipleField(
        _l("Nominees"),
        coerce=int,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=True,
    )
    die = IntegerField(
        _l("D6 rolled at the table"),
        validators=[Optional(), NumberRange(1, 6, message=_l("A D6 shows 1 to 6."))],
    )
    submit = wtforms.SubmitField(_l("Draw the MVP"))

    def __init__(self, *args: Any, choices: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nominees.choices = list(choices)


def die_field(player_id: int) -> str:
    return f"d{player_id}"


class DeparturesForm(FlaskForm):
    """One D6 per player who rolls to leave (table dice), or just the button (server dice)."""

    submit = wtforms.SubmitField(_l("Roll the departures"))

    #: (field name, player id) of the dice fields.
    dice_fields: list[tuple[str, int]]

    def dice(self) -> dict[int, int] | None:
        """The table's dice (player id -> D6), or None to let the server roll (all blank)."""
        entered = {pid: self[name].data for name, pid in self.dice_fields}
        if all(d is None for d in entered.values()):
            return None
        return {pid: int(d) for pid, d in entered.items() if d is not None}


def departures_form(
    players: Sequence[tuple[int, str]], table_dice: bool, **kwargs: Any
) -> DeparturesForm:
    """The form for these (player id, label) rolling to leave; dice fields with table dice."""

    class Form(DeparturesForm):
        pass

    fields = []
    if table_dice:
        for player_id, label in players:
            name = die_field(player_id)
            setattr(
                Form,
                name,
                IntegerField(
                    label,
                    validators=[
                        Optional(),
                        NumberRange(1, 6, message=_l("A D6 shows 1 to 6.")),
                    ],
                ),
            )
            fields.append((name, player_id))
    form = Form(**kwargs)
    form.dice_fields = fields
    return form


class HireJourneymanForm(FlaskForm):
    """The name a journeyman plays under once hired (left empty: his match-day name)."""

    name = wtforms.StringField(
        _l("His name on the roster"),
        validators=[
            Optional(),
            wtforms.validators.Length(max=60, message=_l("At most %(num)d characters.", num=60)),
        ],
    )
    submit = wtforms.SubmitField(_l("Hire him"))
