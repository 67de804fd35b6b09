"""The advancement form: which kind, and what the coach chose or rolled."""

from __future__ import annotations

import re

from wtforms import HiddenField, StringField, ValidationError
from wtforms.validators import AnyOf, Length, NumberRange, Optional

from league.i18n import gettext
from league.rules import MAX_DICE, MAX_DIE
from league.web.forms import FlaskForm, IntegerField, _l

DICE_SEPARATORS = re.compile(r"[\s,+/-]+")


def parse_dice(text: str | None) -> tuple[int, ...] | None:
    """ "1 2", "1,2" or "1+2" as (1, 2); blank as None; anything else raises ValueError."""
    parts = [part for part in DICE_SEPARATORS.split((text or "").strip()) if part]
    if not parts:
        return None
    if len(parts) > MAX_DICE or not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(text)
    dice = tuple(int(part) for part in parts)
    if not all(1 <= die <= MAX_DIE for die in dice):
        raise ValueError(text)
    return dice


class AdvanceForm(FlaskForm):
    """Every step of buying an advancement posts these fields (and the CSRF token).

    ``choice`` is a skill name or a characteristic code (ma, st, ag, pa, av);
    ``source`` says who rolls: ``server`` or ``table`` (dice typed in).
    """

    kind = HiddenField(_l("Advancement"), validators=[Optional(), Length(max=30)])
    category = StringField(_l("Skill category"), validators=[Optional(), Length(max=2)])
    dice = StringField(_l("Dice rolled at the table"), validators=[Optional(), Length(max=40)])
    choice = StringField(_l("Choice"), validators=[Optional(), Length(max=60)])
    #: The advancement number the confirmation was shown for (a double click finds it taken).
    number = IntegerField(_l("Advancement number"), validators=[Optional(), NumberRange(1, 99)])
    source = HiddenField(
        _l("Who rolls"), default="server", validators=[Optional(), AnyOf(("server", "table"))]
    )

    def validate_dice(self, field: StringField) -> None:
        try:
            parse_dice(field.data)
        except ValueError:
            raise ValidationError(
                gettext(
                    "Write the dice as whole numbers 1-%(max)d separated by spaces, e.g. 3 5.",
                    max=MAX_DIE,
                )
            ) from None

    def dice_values(self) -> tuple[int, ...] | None:
        """The dice typed in (call after validation)."""
        return parse_dice(self.dice.data)

    @property
    def table_dice(self) -> bool:
        return self.source.data == "table"
