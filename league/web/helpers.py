"""Small helpers shared by the views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy.orm import Session

from league.extensions import db
from league.i18n import gettext
from league.models import League, Team
from league.models.types import utcnow
from league.services import access
from league.services.errors import DomainError, Forbidden
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm

_T = TypeVar("_T")
_View = TypeVar("_View", bound=Callable[..., Any])


def post_step(bp: Blueprint, rule: str, page: str) -> Callable[[_View], _View]:
    """``@bp.post(rule)``, whose URL also answers a GET by showing ``page`` (an endpoint).

    A step that only posts (a confirmation, a button) leaves its URL in the address
    bar: reloading it, or opening it again from the history, is a GET. That shows the
    page the step belongs to rather than a bare "405 Method Not Allowed". ``page`` gets
    the URL's arguments it takes (the team of /teams/<team_id>/give-back).
    """

    def register(view: _View) -> _View:
        bp.post(rule)(view)

        def show_page(**view_args: Any) -> Any:
            takes = next(current_app.url_map.iter_rules(page)).arguments
            return redirect(url_for(page, **{k: v for k, v in view_args.items() if k in takes}))

        bp.add_url_rule(rule, f"{view.__name__}_reload", show_page, methods=["GET"])
        return view

    return register


def populate_errors(
    form: FlaskForm, error: DomainError, field_for: Callable[[str], str | None] | None = None
) -> None:
    """Put a service's refusal back on `form`: each problem next to the field it names
    (`field_for` translates where the form names its fields otherwise), the rest above it.

    A Forbidden is about the user, not the form: it goes on to its 403 page.
    """
    _raise_page_errors(error)
    for problem in error.problems:
        name = field_for(problem.path) if field_for else problem.path
        field = getattr(form, name, None) if name else None
        if field is not None:
            field.errors = [*field.errors, problem.message]
        else:
            form.form_errors.append(problem.message)


def form_action(
    form: FlaskForm,
    action: Callable[[Session], _T],
    field_for: Callable[[str], str | None] | None = None,
) -> _T | None:
    """A form's POST: when it is sent and valid, ``action`` in one unit of work.

    None when the form was not sent, is not valid or the service refused it: its errors
    are then on the form (`populate_errors`; a Forbidden is its 403 page).
    """
    if not form.validate_on_submit():
        return None
    try:
        with unit_of_work() as session:
            return action(session)
    except DomainError as error:
        populate_errors(form, error, field_for)
        return None


def flash_refusal(error: DomainError, prefix: str = "") -> None:
    """A service's refusal as a message on the next page (a Forbidden is its 403 page)."""
    _raise_page_errors(error)
    flash(f"{prefix}{error.message}", "error")


def button_action(action: Callable[[Session], _T], passes: tuple[str, ...] = ()) -> _T | None:
    """A one-button POST: the form's CSRF check, then ``action`` in one unit of work.

    A refusal is flashed for the next page (None is returned); a Forbidden is its 403 page.
    A refusal whose code is in ``passes`` is raised on for the view to answer.
    """
    if not EmptyForm().validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    try:
        with unit_of_work() as session:
            return action(session)
    except DomainError as error:
        if error.code in passes:
            raise
        flash_refusal(error)
        return None


# Who may see a page is asked once, at its top, of the same decision (league.services.access)
# the service asks again when it acts: a refusal is the 403 page with the decision's reason.


def commissioners_league(league_id: int, task: access.CommissionerTask = "default") -> League:
    """The league of a commissioner's page: its 403 page unless the signed-in user may
    do ``task`` there."""
    league = access.get_league(db.session(), league_id)
    access.may_commission(league, current_user, task).require()
    return league


def managed_team(team_id: int, task: access.ManagerTask = "default") -> Team:
    """The team of a page changing it: its 403 page unless the signed-in user manages it."""
    team = access.get_team(db.session(), team_id)
    access.may_manage_team(team, current_user, task).require()
    return team


def _raise_page_errors(error: DomainError) -> None:
    if isinstance(error, Forbidden):
        raise error


def safe_next(target: str | None, default: str) -> str:
    """Only follow `next=` to a path on this site (no open redirects).

    Browsers read a backslash as a slash ("/\\evil.example" is another host) and drop
    tabs and newlines, so a target holding either is refused too.
    """
    if (
        target
        and target.startswith("/")
        and not urlsplit(target).netloc
        and "\\" not in target
        and target.isprintable()
    ):
        return target
    return default


# The variants of the pages signed-in visitors share (league.caching.shared_page): what
# a page shows differently from one viewer to another, and nothing that names a viewer.


def league_variant(league_id: int) -> str:
    """A league page varies with the viewer's role in the league."""
    return f"role:{access.viewer_role(db.session(), league_id, current_user)}"


def league_home_variant(league_id: int) -> str:
    """The league page also holds the commissioners' to-do list, whose overdue fixtures
    depend on the day (in UTC, as the list's)."""
    variant = league_variant(league_id)
    if variant == "role:commissioner":
        variant += f"|day:{utcnow().date().isoformat()}"
    return variant


def team_variant(team_id: int | None = None, *, player_id: int | None = None) -> str:
    """A team's pages (and a player's: `player_id`) vary with the viewer's role in its
    league and whether they coach the team: all `can_manage` and the commissioner's buttons
    depend on."""
    coach_id, role = access.team_viewer(db.session(), current_user, team_id, player_id=player_id)
    return f"role:{role}|coach:{current_user.id == coach_id}"


def page_link(param: str, number: int) -> str:
    """This page's address with the query argument `param` set to `number`, the others kept."""
    args: dict[str, Any] = {**(request.view_args or {}), **request.args.to_dict()}
    args[param] = number
    return url_for(request.endpoint or "main.index", **args)
