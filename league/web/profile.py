"""The signed-in user's profile: password, sessions, API tokens (create, list, revoke)."""

from __future__ import annotations

import flask_babel
from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response
from wtforms import BooleanField, PasswordField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, EqualTo, Length, NumberRange, Optional

from league.extensions import db
from league.i18n import LANGUAGES, gettext, ngettext
from league.services import users
from league.services.errors import DomainError
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm, FlaskForm, IntegerField, OneTimeForm, _l
from league.web.helpers import populate_errors, post_step

bp = Blueprint("profile", __name__, url_prefix="/profile")


class TokenForm(OneTimeForm):
    name = StringField(
        _l("Token name"),
        validators=[
            DataRequired(message=_l("Name the token (what will use it?).")),
            Length(max=users.MAX_TOKEN_NAME),
        ],
    )
    submit = SubmitField(_l("Create token"))


class PasswordForm(FlaskForm):
    current_password = PasswordField(
        _l("Current password"),
        validators=[DataRequired(message=_l("Enter your current password."))],
    )
    # Length, strength, the username: the service's rules, shown next to the field.
    new_password = PasswordField(
        _l("New password"), validators=[DataRequired(message=_l("Enter the new password."))]
    )
    confirm = PasswordField(
        _l("Repeat the new password"),
        validators=[
            DataRequired(message=_l("Repeat the new password.")),
            EqualTo("new_password", message=_l("The passwords differ.")),
        ],
    )
    submit = SubmitField(_l("Change password"))


class LanguageForm(FlaskForm):
    language = SelectField(
        _l("Language"),
        # Each language under its own name; "" leaves it to the browser (or the league).
        choices=[
            SelectChoice("", _l("As my browser asks")),
            *(SelectChoice(code, name) for code, name in LANGUAGES.items()),
        ],
    )
    submit = SubmitField(_l("Save language"))


class NafForm(FlaskForm):
    naf_name = StringField(
        _l("NAF name"),
        validators=[Optional(), Length(max=users.MAX_NAF_NAME)],
        filters=[lambda value: value.strip() if isinstance(value, str) else value],
    )
    naf_number = IntegerField(
        _l("NAF number"),
        validators=[
            Optional(),
            NumberRange(min=1, message=_l("A NAF number is a whole number above 0.")),
        ],
    )
    submit = SubmitField(_l("Save NAF details"))


class EndSessionsForm(FlaskForm):
    # Ticked when the page opens (see end_sessions), not as the field's default, which
    # Flask-WTF would also apply to a post without fields.
    revoke_tokens = BooleanField(_l("Revoke my API tokens too"))


def _language_form() -> LanguageForm:
    return LanguageForm(formdata=None, data={"language": current_user.language or ""})


def _render(
    form: TokenForm | None = None,
    status: int = 200,
    new_token: str | None = None,
    password_form: PasswordForm | None = None,
    language_form: LanguageForm | None = None,
    naf_form: NafForm | None = None,
) -> Response:
    page = render_template(
        "profile/index.html",
        language_form=language_form or _language_form(),
        naf_form=naf_form
        or NafForm(
            formdata=None,
            data={"naf_name": current_user.naf_name, "naf_number": current_user.naf_number},
        ),
        form=form or TokenForm(formdata=None),
        password_form=password_form or PasswordForm(formdata=None),
        tokens=users.active_tokens(db.session(), current_user),
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


@post_step(bp, "/password", "profile.index")
@login_required
def change_password() -> Response:
    form = PasswordForm()
    if form.validate_on_submit():
        command = users.PasswordChange(
            form.current_password.data or "", form.new_password.data or ""
        )
        try:
            with unit_of_work() as session:
                users.change_password(session, current_user, command)
        except DomainError as error:
            populate_errors(form, error)
        else:
            # Every other session ended with the old secret; this one carries on with the new.
            remembered = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
            login_user(current_user._get_current_object(), remember=remembered in request.cookies)
            flash(
                gettext("Your password is changed; you are logged out on every other device."),
                "success",
            )
            return redirect(url_for("profile.index"))
    return _render(password_form=form, status=400)


@post_step(bp, "/language", "profile.index")
@login_required
def change_language() -> Response:
    form = LanguageForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                users.set_language(session, current_user, form.language.data or None)
        except DomainError as error:
            populate_errors(form, error)
        else:
            flask_babel.refresh()
            flash(gettext("Your language is saved."), "success")
            return redirect(url_for("profile.index"))
    return _render(language_form=form, status=400)


@post_step(bp, "/naf", "profile.index")
@login_required
def change_naf() -> Response:
    form = NafForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                users.set_naf_identity(
                    session, current_user, form.naf_name.data or None, form.naf_number.data
                )
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(gettext("Your NAF details are saved."), "success")
            return redirect(url_for("profile.index"))
    return _render(naf_form=form, status=400)


@bp.route("/sessions/end", methods=["GET", "POST"])
@login_required
def end_sessions() -> str | Response:
    """Log out everywhere: this browser and every other one, remembered or not; asks first,
    offering to revoke the API tokens too."""
    form = EndSessionsForm()
    if form.validate_on_submit():
        with unit_of_work() as session:
            revoked = users.end_sessions(
                session, current_user, revoke_tokens=bool(form.revoke_tokens.data)
            )
        logout_user()
        flash(
            ngettext(
                "You are logged out on every device, and your API token is revoked.",
                "You are logged out on every device, and your %(num)s API tokens are revoked.",
                revoked,
            )
            if revoked
            else gettext("You are logged out on every device."),
            "info",
        )
        return redirect(url_for("main.index"))
    if not form.is_submitted():
        # Ticked at first: a lost or shared device may hold a copied token as well.
        form = EndSessionsForm(formdata=None, data={"revoke_tokens": True})
    page = render_template(
        "profile/end_sessions.html",
        form=form,
        tokens=users.active_tokens(db.session(), current_user),
    )
    return make_response(page, 400 if form.is_submitted() else 200)


@post_step(bp, "/tokens", "profile.index")
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
            populate_errors(form, error)
        else:
            # Shown on this response only: it is not stored anywhere it could be read again.
            return _render(new_token=token)
    return _render(form, 400)


@bp.route("/tokens/<int:token_id>/revoke", methods=["GET", "POST"])
@login_required
def revoke_token(token_id: int) -> str | Response:
    token = users.get_own_token(db.session(), current_user, token_id)
    form = EmptyForm()
    if form.validate_on_submit():
        name = token.name
        try:
            with unit_of_work() as session:
                users.revoke_token(session, current_user, token_id)
        except DomainError as error:  # revoked meanwhile (another tab)
            flash(error.message, "warning")
        else:
            flash(
                gettext("The token “%(name)s” is revoked: it no longer works.", name=name),
                "success",
            )
        return redirect(url_for("profile.index"))
    return render_template("profile/revoke.html", token=token, form=form)
