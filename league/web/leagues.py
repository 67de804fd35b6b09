"""League pages: create, view, settings, members, join link, seasons."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.rules import load_ruleset, ruleset_ids
from league.rules.loader import DEFAULT_RULESET_ID
from league.services import leagues, teams
from league.services.errors import DomainError, Forbidden, NotFound
from league.services.standings import standings as league_standings
from league.services.team_views import league_team_rows
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.leagues import AddMemberForm, LeagueForm
from league.web.forms.teams import NewTeamForm
from league.web.helpers import attach_error, public_url

bp = Blueprint("leagues", __name__)


def _ruleset_choices() -> list[tuple[str, str]]:
    return [(rid, load_ruleset(rid).name) for rid in ruleset_ids()]


def _league_or_404(league_id: int):
    try:
        return leagues.get_league(db.session, league_id)
    except NotFound as error:
        abort(404, description=error.message)


def _save_league(form: LeagueForm, save) -> Response | None:
    """Validate `form`, call `save(session, settings)`; None when the form has errors."""
    if not form.is_submitted():
        return None
    valid = form.validate()
    # The rules' checks of the house rules, even when another box is wrong: every error
    # at once, each next to its box.
    for problem in leagues.house_rules_problems(form.ruleset_id.data or "", form.house_rules()):
        attach_error(form, problem, form.field_for(problem.field))
        valid = False
    if not valid:
        return None
    settings = form.settings()
    try:
        with unit_of_work() as session:
            league = save(session, settings)
    except DomainError as error:
        attach_error(form, error, form.field_for(error.field))
        return None
    return redirect(url_for("leagues.show", league_id=league.id))


@bp.route("/leagues/new", methods=["GET", "POST"])
@login_required
def create() -> str | Response:
    form = LeagueForm(ruleset_choices=_ruleset_choices())
    if request.method == "GET":
        form.ruleset_id.data = DEFAULT_RULESET_ID
    done = _save_league(
        form, lambda session, settings: leagues.create_league(session, current_user, settings)
    )
    if done:
        flash("League created. Share the join link with your coaches.", "success")
        return done
    return render_template("leagues/form.html", form=form, league=None)


@bp.route("/leagues/<int:league_id>")
def show(league_id: int) -> str | Response:
    return caching.revision_cached(lambda: _render_show(league_id))


def _render_show(league_id: int) -> str:
    league = _league_or_404(league_id)
    role = leagues.role_in(league, current_user)
    return render_template(
        "leagues/show.html",
        league=league,
        ruleset=leagues.league_ruleset(league),
        role=role,
        members=leagues.active_members(league),
        team_rows=league_team_rows(db.session, league),
        standings=league_standings(db.session, league) if league.seasons else None,
        form=EmptyForm(),
    )


@bp.route("/leagues/<int:league_id>/settings", methods=["GET", "POST"])
@login_required
def settings(league_id: int) -> str | Response:
    league = _league_or_404(league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        abort(403, description="Only a commissioner can change the league's settings.")
    form = LeagueForm(ruleset_choices=_ruleset_choices())
    if request.method == "GET":
        form.fill_from(leagues.current_settings(league))
    done = _save_league(
        form,
        lambda session, settings: leagues.update_settings(
            session, current_user, league_id, settings
        ),
    )
    if done:
        flash("Settings saved.", "success")
        return done
    return render_template("leagues/form.html", form=form, league=league)


@bp.route("/leagues/<int:league_id>/members", methods=["GET", "POST"])
@login_required
def members(league_id: int) -> str | Response:
    league = _league_or_404(league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        abort(403, description="Only a commissioner can manage the members.")
    form = AddMemberForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                user = leagues.add_member_by_username(
                    session, current_user, league_id, form.username.data or ""
                )
        except DomainError as error:
            # Every refusal here ("no such user", "already a member") is about the name typed.
            attach_error(form, error, "username")
        else:
            flash(f"{user.username} joined {league.name} as a coach.", "success")
            return redirect(url_for("leagues.members", league_id=league_id))
    return render_template(
        "leagues/members.html",
        league=league,
        members=leagues.active_members(league),
        form=form,
        action_form=EmptyForm(),
        join_url=public_url("leagues.join", league_id=league.id, token=league.join_token),
    )


def _member_action(league_id: int, action, done_message: str) -> Response:
    _league_or_404(league_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with unit_of_work() as session:
            action(session)
    except DomainError as error:
        if isinstance(error, Forbidden):
            abort(403, description=error.message)
        flash(error.message, "error")
    else:
        flash(done_message, "success")
    league = _league_or_404(league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        # A commissioner who removed himself cannot see the members page any more.
        return redirect(url_for("leagues.show", league_id=league_id))
    return redirect(url_for("leagues.members", league_id=league_id))


@bp.post("/leagues/<int:league_id>/members/<int:user_id>/promote")
@login_required
def promote(league_id: int, user_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.promote(session, current_user, league_id, user_id),
        "Promoted to commissioner.",
    )


@bp.post("/leagues/<int:league_id>/members/<int:user_id>/remove")
@login_required
def remove(league_id: int, user_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.remove_member(session, current_user, league_id, user_id),
        "Removed from the league; their teams stay in its history.",
    )


@bp.post("/leagues/<int:league_id>/join-link")
@login_required
def new_join_link(league_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.new_join_token(session, current_user, league_id),
        "A new join link is ready; the old one no longer works.",
    )


@bp.route("/leagues/<int:league_id>/join/<token>", methods=["GET", "POST"])
@login_required
def join(league_id: int, token: str) -> str | Response | tuple[str, int]:
    league = _league_or_404(league_id)
    if leagues.membership(league, current_user) is not None:
        flash(f"You are already a member of {league.name}.", "warning")
        return redirect(url_for("leagues.show", league_id=league_id))
    form = EmptyForm()
    if request.method == "GET" and not secrets.compare_digest(league.join_token, token):
        # Do not offer a "Join" button that can only fail.
        return render_template("leagues/join.html", league=league, form=form, valid=False), 403
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                leagues.join_with_token(session, current_user, league_id, token)
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash(f"Welcome to {league.name}! Draft your team next.", "success")
        return redirect(url_for("leagues.show", league_id=league_id))
    return render_template("leagues/join.html", league=league, form=form, valid=True)


@bp.route("/leagues/<int:league_id>/seasons/next", methods=["GET", "POST"])
@login_required
def next_season(league_id: int) -> str | Response:
    league = _league_or_404(league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        abort(403, description="Only a commissioner can close a season.")
    form = EmptyForm()
    if form.validate_on_submit():
        with unit_of_work() as session:
            season = leagues.close_season(session, current_user, league_id)
        flash(f"{season.name} has begun; every team carries over.", "success")
        return redirect(url_for("leagues.show", league_id=league_id))
    return render_template("leagues/next_season.html", league=league, form=form)


@bp.route("/leagues/<int:league_id>/teams/new", methods=["GET", "POST"])
@login_required
def new_team(league_id: int) -> str | Response:
    league = _league_or_404(league_id)
    role = leagues.role_in(league, current_user)
    if role is None:
        abort(403, description=f"Join {league.name} before drafting a team there.")
    ruleset = leagues.league_ruleset(league)
    form = NewTeamForm(
        team_types=sorted(ruleset.team_types, key=lambda t: t.name),
        coaches=[m.user.username for m in leagues.active_members(league)]
        if role == "commissioner"
        else None,
    )
    if request.method == "GET" and form.coach.choices:
        form.coach.data = current_user.username
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                team = teams.create_team(session, current_user, form.command(league_id))
        except DomainError as error:
            attach_error(form, error)
        else:
            flash(
                f"{team.name} is drafted as a {ruleset.team_type(team.team_type_id).name} "
                "team. Hire your players.",
                "success",
            )
            return redirect(url_for("teams.show", team_id=team.id))
    return render_template("leagues/new_team.html", league=league, ruleset=ruleset, form=form)
