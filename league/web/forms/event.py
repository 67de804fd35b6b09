"""Forms of tournament day: the organiser's review of a roster."""

from __future__ import annotations

from wtforms import HiddenField, SubmitField, TextAreaField
from wtforms.validators import AnyOf, Length, Optional

from league.services.roster_approval import MAX_NOTE
from league.web.forms import FlaskForm, _l


class ReviewForm(FlaskForm):
    """Approve (1) or not (0); not approved with a note sends the roster back."""

    approved = HiddenField(validators=[AnyOf(("0", "1"))])
    note = TextAreaField(_l("Note for the coach"), validators=[Optional(), Length(max=MAX_NOTE)])
    submit = SubmitField(_l("Send back"))
