"""The form of a fixture's times page: a team's up to three times (UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

from wtforms import DateTimeLocalField, SelectField, SubmitField
from wtforms.validators import InputRequired, Optional

from league.web.forms import FlaskForm, _l

_FORMAT = "%Y-%m-%dT%H:%M"


class SlotsForm(FlaskForm):
    team_id = SelectField(_l("Team"), coerce=int, validators=[InputRequired()])
    time1 = DateTimeLocalField(
        _l("Time 1 (UTC)"), format=_FORMAT, validators=[InputRequired(_l("Give a time."))]
    )
    time2 = DateTimeLocalField(_l("Time 2 (UTC)"), format=_FORMAT, validators=[Optional()])
    time3 = DateTimeLocalField(_l("Time 3 (UTC)"), format=_FORMAT, validators=[Optional()])
    submit = SubmitField(_l("Offer these times"))

    def times(self) -> list[datetime]:
        return [
            field.data.replace(tzinfo=UTC)
            for field in (self.time1, self.time2, self.time3)
            if field.data is not None
        ]
