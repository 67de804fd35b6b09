"""Forms of the tournament entries pages: enter a team, its club and rating, drop it,
swap two pairings, pair a first round by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wtforms import SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import Length, NumberRange, Optional

from league.rules.model import TeamType
from league.services.entries import MAX_CLUB, MAX_RATING
from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField, _l

RATING_RANGE = NumberRange(0, MAX_RATING)


class EntryDetailsForm(FlaskForm):
    club = StringField(_l("Club or nation"), validators=[Optional(), Length(max=MAX_CLUB)])
    seed_rating = IntegerField(_l("Seed rating"), validators=[Optional(), RATING_RANGE])
    submit = SubmitField(_l("Save"))


class NewEntryForm(EntryDetailsForm):
    team_id = SelectField(_l("Team"), coerce=int)
    name = StringField(_l("New team's name"), validators=[Optional(), Length(max=80)])
    team_type_id = SelectField(_l("Team type"), validators=[Optional()])
    coach = SelectField(_l("Coach"), validators=[Optional()])
    submit = SubmitField(_l("Add the entry"))

    def __init__(
        self,
        *args: Any,
        teams: Sequence[tuple[int, str]],
        team_types: Sequence[TeamType],
        coaches: Sequence[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.team_id.choices = [
            SelectChoice(0, _l("A new team")),
            *(SelectChoice(i, name) for i, name in teams),
        ]
        self.team_type_id.choices = [
            SelectChoice("", "—"),
            *(SelectChoice(t.id, t.name) for t in team_types),
        ]
        self.coach.choices = [SelectChoice("", "—"), *(SelectChoice(c, c) for c in coaches)]


class DropForm(ConfirmStepForm):
    pass


class SwapForm(ConfirmStepForm):
    one = SelectField(_l("Entry"), coerce=int)
    other = SelectField(_l("Swap with"), coerce=int)
    submit = SubmitField(_l("Check the swap"))

    def __init__(self, *args: Any, entries: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one.choices = [SelectChoice(i, name) for i, name in entries]
        self.other.choices = [SelectChoice(i, name) for i, name in entries]


class ManualRoundForm(FlaskForm):
    """One pair of selects per table (the subclass `manual_round_form` makes adds them)."""

    submit = SubmitField(_l("Pair the first round"))

    def chosen_pairs(self, tables: int) -> list[tuple[int, int]]:
        """The tables filled in (a table left empty on both sides is skipped)."""
        chosen = [
            (self[f"table_{i}_home"].data or 0, self[f"table_{i}_away"].data or 0)
            for i in range(1, tables + 1)
        ]
        return [(home, away) for home, away in chosen if home or away]


def manual_round_form(entries: Sequence[tuple[int, str]]) -> ManualRoundForm:
    """A form with ``len(entries) // 2`` tables, each a home and an away select."""

    class Form(ManualRoundForm):
        pass

    choices = [SelectChoice(0, "—"), *(SelectChoice(i, name) for i, name in entries)]
    for table in range(1, len(entries) // 2 + 1):
        for side, label in (("home", _l("Home")), ("away", _l("Away"))):
            setattr(
                Form,
                f"table_{table}_{side}",
                SelectField(label, coerce=int, choices=choices, default=0),
            )
    return Form()
