"""Forms of the season cycle: the off-season re-draft, playoffs, divisions."""

from __future__ import annotations

from functools import partial
from typing import Any

import wtforms

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp
from wtforms.widgets import CheckboxInput, ListWidget

from league.i18n import ngettext
from league.rules.model import PLAYOFF_SIZES
from league.web.forms import ConfirmStepForm, FlaskForm, IntegerField, _l, lazy
from league.web.forms.pregame import MAX_COUNT


class RedraftForm(FlaskForm):
    """What a team keeps: players (one checkbox each), re-rolls and staff."""

    keep = wtforms.SelectMultipleField(
        _l("Players to re-hire"),
        coerce=int,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=True,
    )
    rerolls = IntegerField(_l("Team re-rolls"), validators=[InputRequired(), NumberRange(min=0)])
    assistant_coaches = IntegerField(
        _l("Assistant coaches"), validators=[InputRequired(), NumberRange(min=0)]
    )
    cheerleaders = IntegerField(
        _l("Cheerleaders"), validators=[InputRequired(), NumberRange(min=0)]
    )
    apothecary = wtforms.BooleanField(_l("Apothecary"))
    #: New players to hire: one count per position of the roster, in the roster's order.
    hire_counts = wtforms.FieldList(
        IntegerField(
            _l("New players"),
            # A bound on what the form takes; the service refuses more than the roster allows.
            validators=[Optional(), NumberRange(min=0, max=MAX_COUNT)],
            default=0,
        ),
        max_entries=40,
    )
    #: Table dice for rest and recovery, one entry per player in the page's order ("4 5").
    recovery_dice = wtforms.FieldList(
        wtforms.StringField(
            _l("Rest and recovery dice"),
            validators=[
                Optional(),
                Regexp(r"^\s*[1-6](?:[\s,]+[1-6])*\s*$", message=_l("D6 results, 1 to 6.")),
            ],
        ),
        max_entries=40,
    )

    def __init__(self, players: list[tuple[int, str]], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.keep.choices = [SelectChoice(player_id, label) for player_id, label in players]

    def hires(self, positions: list[str]) -> tuple[str, ...]:
        """The position ids to hire, each as many times as its count says."""
        counts = [entry.data or 0 for entry in self.hire_counts]
        return tuple(
            position
            for position, count in zip(positions, counts, strict=False)
            for _ in range(count)
        )

    def table_dice(self, player_ids: list[int]) -> dict[int, list[int]]:
        """The dice entered, by player id (rows left blank are left out)."""
        dice = {}
        for player_id, entry in zip(player_ids, self.recovery_dice, strict=False):
            if entry.data and entry.data.strip():
                dice[player_id] = [int(d) for d in entry.data.replace(",", " ").split()]
        return dice


class ApproveRedraftForm(ConfirmStepForm):
    """A commissioner approves a submitted re-draft (asked first: players leave)."""


class CloseSeasonForm(FlaskForm):
    """A commissioner closes the current season (the page lists what is still unplayed)."""

    # A closed season takes no result: what is still waiting is marked so, by default.
    mark_unplayed = wtforms.BooleanField(
        _l("Mark the matches still waiting as unplayed"), default=True
    )


class ReopenSeasonForm(ConfirmStepForm):
    """A commissioner reopens the last closed season (asked first: the prizes go back)."""


class PlayoffForm(FlaskForm):
    """A commissioner seeds the season's bracket from the table."""

    size = wtforms.SelectField(
        _l("Teams in the bracket"),
        choices=[
            SelectChoice(
                size,
                lazy(partial(ngettext, "%(num)d team", "%(num)d teams", size)),
            )
            for size in PLAYOFF_SIZES
        ],
        coerce=int,
        default=4,
    )


class WinnerForm(FlaskForm):
    """Who went through from a drawn knock-out match."""

    team_id = wtforms.SelectField(_l("Went through after extra time"), coerce=int)

    def __init__(self, teams: list[tuple[int, str]], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.team_id.choices = [SelectChoice(team_id, name) for team_id, name in teams]


class DivisionsForm(FlaskForm):
    """Each team's division: one text field per team (``team_<id>``), empty for none."""


def divisions_form(teams: list[tuple[int, str, str | None]]) -> DivisionsForm:
    """A DivisionsForm with a field for each (team id, team name, current division)."""

    class Form(DivisionsForm):
        pass

    for team_id, name, division in teams:
        setattr(
            Form,
            f"team_{team_id}",
            wtforms.StringField(name, default=division or "", validators=[Length(max=40)]),
        )
    return Form()
