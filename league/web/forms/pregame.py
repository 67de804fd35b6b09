"""The pre-match form of one side: journeymen, inducements, star players, mercenaries.

The form is built for the team (``pregame_form``): one position choice per
journeyman where the team has several, one count per eligible inducement, one
checkbox per eligible star (a pair is one), two mercenary rows, and the most of
its treasury the team adds. It checks shape only (whole numbers, known choices);
the rules (limits, budget, turn order) are the service's, whose refusal is put
back next to the group it names.
"""

from __future__ import annotations

from typing import Any, cast

import wtforms
from flask_babel import lazy_gettext

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import Length, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from league.i18n import format_number, gettext
from league.rules import MercenaryOrder, RulesText
from league.services.errors import DomainError
from league.services.pregame import SideChoices, SideOffer
from league.web.forms import FlaskForm, IntegerField

#: Mercenary rows offered on the page (the rules' own cap still applies).
MERCENARY_ROWS = 2
#: Highest count a form takes for one inducement (the rules refuse above the limit).
MAX_COUNT = 99
#: Groups of the form a refusal may name (the service's `field`).
GROUPS = ("journeymen", "inducements", "star_players", "mercenaries", "treasury")


def _l(text: str) -> str:
    """A label translated when shown (WTForms' stubs type labels as str)."""
    return cast(str, lazy_gettext(text))


def inducement_field(inducement_id: str) -> str:
    return "ind_" + inducement_id.replace("-", "_")


class PregameForm(FlaskForm):
    """One side's choices; the subclass made by `pregame_form` adds the team's fields."""

    treasury = IntegerField(
        _l("Treasury to add (gold)"),
        validators=[Optional(), NumberRange(min=0, max=100_000_000)],
    )
    stars = wtforms.SelectMultipleField(
        _l("Star players"),
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=True,
    )
    submit = wtforms.SubmitField(_l("Save these choices"))

    journeyman_fields: list[str]
    inducement_fields: list[tuple[str, str]]
    #: Refusals of the rules by group (GROUPS), shown at the top of the group.
    group_errors: dict[str, list[str]]

    def choices(self) -> SideChoices:
        journeymen = tuple(str(self[name].data) for name in self.journeyman_fields)
        inducements = {
            item_id: int(self[name].data or 0) for name, item_id in self.inducement_fields
        }
        mercenaries = []
        for index in range(MERCENARY_ROWS):
            position = self[f"merc_{index}_position"].data
            if position:
                skill = (self[f"merc_{index}_skill"].data or "").strip() or None
                mercenaries.append(MercenaryOrder(position, skill))
        return SideChoices(
            journeymen=journeymen,
            inducements=inducements,
            stars=tuple(self.stars.data or ()),
            mercenaries=tuple(mercenaries),
            treasury=self.treasury.data,
        )

    def refuse(self, error: DomainError) -> None:
        """Put the service's refusal next to the group it names (else above the form)."""
        for problem in error.problems:
            if problem.path in GROUPS:
                self.group_errors.setdefault(problem.path, []).append(problem.message)
            else:
                self.form_errors.append(problem.message)


def pregame_form(
    offer: SideOffer,
    journeyman_positions: list[tuple[str, str]],
    needed: int,
    saved: SideChoices,
    *,
    text: RulesText,
    prefix: str,
    formdata: Any = None,
) -> PregameForm:
    """The form of one side, with what it saved (if anything) filled in; ``text``: the
    ruleset's names in the reader's language."""

    class SideForm(PregameForm):
        pass

    journeyman_fields = (
        _add_journeymen(SideForm, journeyman_positions, needed, saved)
        if len(journeyman_positions) > 1
        else []
    )
    inducement_fields = _add_inducements(SideForm, offer, saved, text)
    _add_mercenaries(SideForm, offer, saved, text)
    form = SideForm(formdata=formdata, prefix=prefix, stars=list(saved.stars))
    form.stars.choices = [
        SelectChoice(
            hire.id,
            gettext("%(name)s (%(gold)s)", name=hire.name, gold=format_number(hire.cost)),
        )
        for hire in offer.stars
    ]
    form.journeyman_fields = journeyman_fields
    form.inducement_fields = inducement_fields
    form.group_errors = {}
    return form


def _add_journeymen(
    form: type[PregameForm],
    positions: list[tuple[str, str]],
    needed: int,
    saved: SideChoices,
) -> list[str]:
    """A position to choose for each journeyman needed: the fields' names."""
    names: list[str] = []
    for index in range(needed):
        name = f"jm_{index}"
        default = saved.journeymen[index] if index < len(saved.journeymen) else None
        setattr(
            form,
            name,
            wtforms.SelectField(
                gettext("Journeyman %(num)d", num=index + 1),
                choices=[SelectChoice(pid, label) for pid, label in positions],
                default=default,
                validate_choice=True,
            ),
        )
        names.append(name)
    return names


def _add_inducements(
    form: type[PregameForm], offer: SideOffer, saved: SideChoices, text: RulesText
) -> list[tuple[str, str]]:
    """A count for each inducement offered: the fields' names with the inducements' ids."""
    fields: list[tuple[str, str]] = []
    for item in offer.inducements:
        name = inducement_field(item.id)
        setattr(
            form,
            name,
            IntegerField(
                gettext(
                    "%(name)s (%(gold)s, at most %(max)d)",
                    name=text.inducement_name(item.id),
                    gold=format_number(item.price),
                    max=item.limit,
                ),
                validators=[Optional(), NumberRange(min=0, max=MAX_COUNT)],
                default=saved.inducements.get(item.id) or None,
            ),
        )
        fields.append((name, item.id))
    return fields


def _add_mercenaries(
    form: type[PregameForm], offer: SideOffer, saved: SideChoices, text: RulesText
) -> None:
    """MERCENARY_ROWS rows of a position and an extra skill."""
    positions = [SelectChoice("", gettext("No mercenary"))] + [
        SelectChoice(p.id, f"{text.position_name(p.name)} ({format_number(p.cost)})")
        for p in offer.mercenary_positions
    ]
    for index in range(MERCENARY_ROWS):
        merc = saved.mercenaries[index] if index < len(saved.mercenaries) else None
        setattr(
            form,
            f"merc_{index}_position",
            wtforms.SelectField(
                gettext("Mercenary %(num)d: position", num=index + 1),
                choices=positions,
                default=merc.position if merc else "",
                validate_choice=True,
            ),
        )
        setattr(
            form,
            f"merc_{index}_skill",
            wtforms.StringField(
                gettext("Mercenary %(num)d: extra skill (optional)", num=index + 1),
                validators=[Optional(), Length(max=60)],
                default=(merc.skill or "") if merc else "",
            ),
        )
