"""Finding a time to play, `/matches/<id>/time`: each side offers up to three times, the
first time both offered is proposed, and either coach accepts it (the fixture's date and
kick-off become it; the fixtures page and the calendars show them).

Times are entered and stored in UTC; the page's script turns them into the reader's local
time and sends the browser's offset with the form (without the script they stay UTC).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import DateTimeLocalField, HiddenField
from wtforms.validators import NumberRange, Optional

from league.extensions import db
from league.i18n import gettext
from league.services import scheduling
from league.services.matches import get_match
from league.web.forms import EmptyForm, FlaskForm, IntegerField, _l
from league.web.helpers import button_action, form_action, post_step
from league.web.matches.routes import bp

TIME = "/matches/<int:match_id>/time"
#: The browser's offset from UTC in minutes (JavaScript's getTimezoneOffset): at most 14 h.
MAX_OFFSET = 14 * 60


class OfferTimesForm(FlaskForm):
    """The times one side offers: a field for each of the MAX_SLOTS_PER_SIDE it may offer
    (empty fields are left out)."""

    side = HiddenField()
    first = DateTimeLocalField(_l("First time"), validators=[Optional()])
    second = DateTimeLocalField(_l("Second time"), validators=[Optional()])
    third = DateTimeLocalField(_l("Third time"), validators=[Optional()])
    utc_offset = IntegerField(validators=[Optional(), NumberRange(-MAX_OFFSET, MAX_OFFSET)])

    def times(self) -> list[datetime]:
        """The times typed, in UTC (the browser's local time when its script sent the offset)."""
        shift = timedelta(minutes=self.utc_offset.data or 0)
        return [
            (field.data + shift).replace(tzinfo=UTC)
            for field in (self.first, self.second, self.third)
            if field.data is not None
        ]


class AcceptTimeForm(EmptyForm):
    starts_at = HiddenField()


def _page(
    match_id: int, forms: dict[str, OfferTimesForm] | None = None, status: int = 200
) -> tuple[str, int]:
    match = get_match(db.session(), match_id)
    schedule = scheduling.schedule_of(db.session(), match)
    managed = scheduling.sides_managed(match, current_user)
    forms = forms or {}
    for side in managed:
        if side not in forms:
            form = OfferTimesForm(formdata=None, side=side)
            for field, moment in zip(
                (form.first, form.second, form.third), schedule.offered[side], strict=False
            ):
                field.data = moment.replace(tzinfo=None)
            forms[side] = form
    return (
        render_template(
            "matches/time.html",
            match=match,
            schedule=schedule,
            forms=forms,
            accept=AcceptTimeForm(),
            may_accept=bool(managed),
        ),
        status,
    )


@bp.get(TIME)
def time(match_id: int) -> tuple[str, int]:
    return _page(match_id)


@post_step(bp, f"{TIME}/offer", "matches.time")
@login_required
def offer_times(match_id: int) -> Response | tuple[str, int]:
    form = OfferTimesForm()
    side = form.side.data if form.side.data in ("home", "away") else "home"
    offered = form_action(
        form,
        lambda session: scheduling.offer_times(session, current_user, match_id, side, form.times()),
        field_for=lambda path: "first" if path == "times" else path,
    )
    if offered is None:
        return _page(match_id, {side: form}, status=422)
    if offered.proposed is not None and offered.agreed is None:
        flash(gettext("Both sides offered the same time: accept it to fix the match."), "success")
    else:
        flash(gettext("Your times are offered."), "success")
    return redirect(url_for("matches.time", match_id=match_id))


@post_step(bp, f"{TIME}/accept", "matches.time")
@login_required
def accept_time(match_id: int) -> Response:
    try:
        starts_at = datetime.fromisoformat(AcceptTimeForm().starts_at.data or "")
    except ValueError:
        flash(gettext("Pick one of the times both sides offered."), "error")
    else:
        agreed = button_action(
            lambda session: scheduling.accept_time(session, current_user, match_id, starts_at)
        )
        if agreed is not None:
            flash(gettext("The match is fixed for this time."), "success")
    return redirect(url_for("matches.time", match_id=match_id))
