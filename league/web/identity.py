"""A team's colours and logo: the forms on its page, and the logo files themselves."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext
from league.services import access, identity, logos
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.web.forms.identity import ColoursForm, LogoForm, RemoveLogoForm
from league.web.helpers import flash_refusal, managed_team, populate_errors, post_step
from league.web.teams import render_team

bp = Blueprint("identity", __name__)

#: A logo's address names its content (see league.services.logos): cached for a year.
LOGO_MAX_AGE = 365 * 24 * 3600


def _back(team_id: int) -> Response:
    return redirect(url_for("teams.show", team_id=team_id, _anchor="identity"))


def _render_team(team_id: int, **forms: Any) -> tuple[str, int]:
    """The team page again, with the refused form and its errors (400)."""
    db.session.expire_all()
    return render_team(access.get_team(db.session(), team_id), 400, **forms)


@post_step(bp, "/teams/<int:team_id>/colours", "teams.show")
@login_required
def colours(team_id: int) -> Response | tuple[str, int]:
    managed_team(team_id, "identity")
    form = ColoursForm()
    if not form.validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    try:
        with unit_of_work() as session:
            identity.set_colours(session, current_user, team_id, form.colours())
    except DomainError as error:
        populate_errors(form, error, lambda field: "primary" if field == "colours" else field)
        return _render_team(team_id, colours_form=form)
    flash(
        gettext("Colours removed.") if form.clear.data else gettext("Colours saved."),
        "success",
    )
    return _back(team_id)


@post_step(bp, "/teams/<int:team_id>/logo", "teams.show")
@login_required
def upload_logo(team_id: int) -> Response | tuple[str, int]:
    managed_team(team_id, "identity")
    form = LogoForm()
    if not form.validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    upload = request.files.get("logo")
    if upload is None or not upload.filename:
        form.logo.errors = [gettext("Choose an image file to upload.")]
        return _render_team(team_id, logo_form=form)
    # Read one byte past the limit: enough to tell a file too large without reading it all.
    try:
        data = upload.stream.read(logos.MAX_BYTES + 1)
    finally:
        upload.close()  # a large upload is spooled to a temporary file: closed once read
    try:
        with unit_of_work() as session:
            identity.set_logo(session, current_user, team_id, data, upload.filename)
    except DomainError as error:
        populate_errors(form, error)
        return _render_team(team_id, logo_form=form)
    flash(gettext("Logo saved."), "success")
    return _back(team_id)


@bp.route("/teams/<int:team_id>/logo/remove", methods=["GET", "POST"])
@login_required
def remove_logo(team_id: int) -> str | Response:
    """Asks first (the page), then removes the logo."""
    team = managed_team(team_id, "identity")
    form = RemoveLogoForm()
    if request.method == "POST" and form.validate_on_submit() and form.is_confirmed:
        try:
            with unit_of_work() as session:
                identity.remove_logo(session, current_user, team_id)
        except DomainError as error:
            flash_refusal(error)
        else:
            flash(gettext("Logo removed."), "success")
        return _back(team_id)
    return render_template(
        "teams/confirm.html",
        team=team,
        form=form,
        question=gettext("Remove the logo of %(team)s?", team=team.name),
        explanation=gettext(
            "The logo is deleted from the site: pages and sheets show the team's colours "
            "instead. To show it again, upload the file again."
        ),
        button=gettext("Yes, remove the logo"),
    )


@bp.get("/logos/<key>-<int:size>.png")
def logo(key: str, size: int) -> Response:
    """A logo file. Its address changes with its content, so it may be kept for good."""
    if not logos.valid_key(key) or size not in logos.SIZES:
        abort(404)
    path = logos.logo_path(key, size)
    if not path.is_file():
        abort(404)
    response = Response(path.read_bytes(), mimetype="image/png")
    response.set_etag(f"{key}-{size}")
    response.cache_control.public = True
    response.cache_control.max_age = LOGO_MAX_AGE
    response.cache_control.immutable = True
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response.make_conditional(request)
