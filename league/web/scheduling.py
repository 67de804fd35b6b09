"""A fixture's times page: each team's offers, the time proposed (the earliest both offer)
and the time agreed; its coaches offer times and accept the proposal here or in Discord."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext
from league.services import access, matches, scheduling
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.scheduling import SlotsForm
from league.web.helpers import populate_errors, post_step

bp = Blueprint("scheduling", __name__)


@bp.route("/matches/<int:match_id>/times", methods=["GET", "POST"])
def show(match_id: int) -> tuple[str, int] | Response:
    match = matches.get_match(db.session(), match_id)
    signed_in = current_user.is_authenticated
    teams = [
        side.team
        for side in match.sides
        if signed_in and match.state == "scheduled" and access.can_manage(side.team, current_user)
    ]
    form = SlotsForm()
    form.team_id.choices = [(team.id, team.name) for team in teams]
    if form.is_submitted() and not teams:
        if not signed_in:
            return redirect(url_for("auth.login", next=request.path))
        access.may_report(match, current_user, "times").require()
    if teams and form.validate_on_submit():
        try:
            with unit_of_work() as session:
                scheduling.offer_slots(
                    session,
                    current_user,
                    match_id,
                    form.team_id.data,
                    form.times(),
                    datetime.now(UTC),
                )
        except DomainError as error:
            populate_errors(form, error, lambda path: "time1" if path == "slots" else path)
        else:
            flash(gettext("Times offered."), "success")
            return redirect(url_for("scheduling.show", match_id=match_id))
    state = scheduling.slot_state(db.session(), match)
    return (
        render_template(
            "scheduling/show.html",
            match=match,
            state=state,
            teams=teams,
            form=form,
            accept_form=EmptyForm(),
        ),
        400 if form.errors else 200,
    )


@post_step(bp, "/matches/<int:match_id>/times/accept", "scheduling.show")
@login_required
def accept(match_id: int) -> Response:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        with unit_of_work() as session:
            agreed = scheduling.accept_proposed(session, current_user, match_id, datetime.now(UTC))
    except DomainError as error:
        if error.code == "forbidden":
            raise
        flash(error.message, "error")
    else:
        flash(
            gettext("Time agreed: %(time)s UTC.", time=agreed.strftime("%Y-%m-%d %H:%M")),
            "success",
        )
    return redirect(url_for("scheduling.show", match_id=match_id))
