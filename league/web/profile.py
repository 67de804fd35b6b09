"""The signed-in user's profile: API tokens (create, list, revoke)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, make_response, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import StringField, SubmitField
from wtforms.validators import DataRequired, Length

from league.extensions import db
from league.models import ApiToken
from league.services import users
from league.services.errors import DomainError, NotFound
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm, OneTimeForm
from league.web.helpers import attach_error

bp = Blueprint("profile", __name__, url_prefix="/profile")


class TokenForm(OneTimeForm):
    name = StringField(
        "Token name",
        validators=[
            DataRequired(message="Name the token (what will use it?)."),
            Length(max=users.MAX_TOKEN_NAME),
        ],
    )
    submit = SubmitField("Create token")


def _render(form: TokenForm, status: int = 200, new_token: str | None = None) -> Response:
    page = render_template(
        "profile/index.html",
        form=form,
        tokens=users.active_tokens(db.session, current_user),
        new_token=new_token,
    )
    response = make_response(page, status)
    # The page may show a token that is never shown again: keep it out of caches.
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("")
@login_required
def index() -> Response:
    return _render(TokenForm())


@bp.post("/tokens")
@login_required
def create_token() -> Response:
    form = TokenForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                token = users.issue_token(
                    session, current_user, form.name.data or "", form_token=form.token.data
                )
        except Resubmitted as repeat:
            flash(repeat.message, "info")
            return redirect(url_for("profile.index"))
        except DomainError as error:
            attach_error(form, error)
        else:
            # Shown on this response only: it is not stored anywhere it could be read again.
            return _render(TokenForm(formdata=None), new_token=token)
    return _render(form, 400)


def _own_token_or_404(token_id: int) -> ApiToken:
    try:
        return users.get_own_token(db.session, current_user, token_id)
    except NotFound as error:
        abort(404, description=error.message)


@bp.route("/tokens/<int:token_id>/revoke", methods=["GET", "POST"])
@login_required
def revoke_token(token_id: int) -> str | Response:
    token = _own_token_or_404(token_id)
    form = EmptyForm()
    if form.validate_on_submit():
        name = token.name
        try:
            with unit_of_work() as session:
                users.revoke_token(session, current_user, token_id)
        except DomainError as error:  # revoked meanwhile (another tab)
            flash(error.message, "warning")
        else:
            flash(f"The token “{name}” is revoked: it no longer works.", "success")
        return redirect(url_for("profile.index"))
    return render_template("profile/revoke.html", token=token, form=form)
