"""Register, log in, log out."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext, ngettext
from league.security import (
    LOGIN_LIMIT_MESSAGE,
    LOGIN_LIMIT_PER_ADDRESS,
    LOGIN_LIMIT_PER_PAIR,
    REGISTER_LIMIT,
    limiter,
    login_pair_key,
    login_slowdown,
)
from league.services import users
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.auth import LoginForm, RegisterForm
from league.web.helpers import populate_errors, safe_next

bp = Blueprint("auth", __name__)


@bp.route("/register", methods=["GET", "POST"])
@limiter.limit(REGISTER_LIMIT, methods=["POST"])
def register() -> str | Response:
    if current_user.is_authenticated:
        return redirect(url_for("main.index"))
    form = RegisterForm()
    # An invite link opened while signed out comes back here: after registering, go on to it.
    next_url = safe_next(request.args.get("next"), "")
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                user = users.create_user(
                    session, users.NewUser(form.username.data or "", form.password.data or "")
                )
        except DomainError as error:
            populate_errors(form, error)
        else:
            login_user(user)
            flash(
                gettext("Welcome, %(name)s! Your account is ready.", name=user.username), "success"
            )
            response = redirect(next_url or url_for("main.index"))
            login_slowdown.remember_browser(response, user.username)
            return response
    return render_template("auth/register.html", form=form, next_url=next_url)


def _failed(response: Response) -> bool:
    """Only failed log-ins count: a success redirects, a pause (429) checked no password."""
    return response.status_code not in (302, 429)


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(
    LOGIN_LIMIT_PER_ADDRESS,
    methods=["POST"],
    deduct_when=_failed,
    error_message=LOGIN_LIMIT_MESSAGE,
)
@limiter.limit(
    LOGIN_LIMIT_PER_PAIR,
    methods=["POST"],
    key_func=login_pair_key,
    deduct_when=_failed,
    error_message=LOGIN_LIMIT_MESSAGE,
)
def login() -> str | Response:
    if current_user.is_authenticated:
        return redirect(url_for("main.index"))
    form = LoginForm()
    next_url = safe_next(request.args.get("next"), "")
    if form.validate_on_submit():
        username = form.username.data or ""
        # Before the password is checked: a pause gives a guesser nothing to learn.
        wait = login_slowdown.attempt(username)
        if wait:
            form.username.errors = [
                ngettext(
                    "This account had many wrong passwords lately: try again in %(num)s second.",
                    "This account had many wrong passwords lately: try again in %(num)s seconds.",
                    wait,
                )
            ]
            return make_response(
                render_template("auth/login.html", form=form, next_url=next_url), 429
            )
        user = users.authenticate(db.session(), username, form.password.data or "")
        if user is None:
            login_slowdown.failed(username)
            form.password.errors = [
                *form.password.errors,
                gettext("Unknown username or wrong password."),
            ]
        else:
            login_user(user, remember=bool(form.remember.data))
            flash(gettext("Logged in as %(name)s.", name=user.username), "success")
            response = redirect(next_url or url_for("main.index"))
            login_slowdown.remember_browser(response, user.username)
            return response
    return render_template("auth/login.html", form=form, next_url=next_url)


@bp.route("/logout", methods=["GET", "POST"])
@login_required
def logout() -> str | Response:
    form = EmptyForm()
    if form.validate_on_submit():
        # A copied session or remember cookie must not outlive the log-out.
        with unit_of_work() as session:
            users.end_sessions(session, current_user)
        logout_user()
        flash(gettext("You are logged out."), "info")
        return redirect(url_for("main.index"))
    return render_template("auth/logout.html", form=form)
