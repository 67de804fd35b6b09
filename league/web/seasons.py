"""Pages of the season cycle: a team's off-season re-draft and its approval."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.services import leagues, teams
from league.services.errors import DomainError, Forbidden, NotFound
from league.services.redraft import (
    RedraftChoice,
    RedraftPlan,
    approve_redraft,
    redraft_plan,
    submit_redraft,
)
from league.services.unit_of_work import unit_of_work
from league.web.forms.seasons import ApproveRedraftForm, RedraftForm

bp = Blueprint("seasons", __name__)


def _plan_or_error(team_id: int) -> RedraftPlan:
    try:
        return redraft_plan(db.session(), team_id)
    except NotFound as error:
        abort(404, description=error.message)


def _form(plan: RedraftPlan) -> RedraftForm:
    players = [(p.player_id, f"#{p.number} {p.name}") for p in plan.players]
    source = plan.current
    if plan.submitted is not None:
        source = RedraftChoice(
            frozenset(plan.submitted.kept_player_ids),
            plan.submitted.rerolls,
            plan.submitted.assistant_coaches,
            plan.submitted.cheerleaders,
            plan.submitted.apothecary,
        )
    return RedraftForm(
        players,
        keep=sorted(source.keep),
        rerolls=source.rerolls,
        assistant_coaches=source.assistant_coaches,
        cheerleaders=source.cheerleaders,
        apothecary=source.apothecary,
    )


def _render(plan: RedraftPlan, form: RedraftForm, status: int = 200) -> tuple[str, int]:
    team = plan.team
    return render_template(
        "seasons/redraft.html",
        plan=plan,
        team=team,
        form=form,
        approve_form=ApproveRedraftForm(),
        can_manage=teams.can_manage(team, current_user),
        is_commissioner=leagues.role_in(team.league, current_user) == "commissioner",
        names={p.player_id: p for p in plan.players},
    ), status


@bp.route("/teams/<int:team_id>/redraft", methods=["GET", "POST"])
@login_required
def redraft(team_id: int) -> tuple[str, int] | Response:
    try:
        plan = redraft_plan(db.session(), team_id)
    except NotFound as error:
        abort(404, description=error.message)
    except DomainError as error:
        flash(error.message, "error")
        return redirect(url_for("teams.show", team_id=team_id))
    if not teams.can_manage(plan.team, current_user):
        abort(403, description=f"Only {plan.team.name}'s coach or a commissioner can re-draft it.")
    form = _form(plan)
    if not form.validate_on_submit():
        return _render(plan, form, 422 if form.is_submitted() else 200)
    choice = RedraftChoice(
        frozenset(form.keep.data or ()),
        form.rerolls.data or 0,
        form.assistant_coaches.data or 0,
        form.cheerleaders.data or 0,
        bool(form.apothecary.data),
    )
    try:
        with unit_of_work() as session:
            submit_redraft(session, current_user, team_id, choice)
    except Forbidden as error:
        abort(403, description=error.message)
    except DomainError as error:
        field = getattr(form, error.field or "", None)
        if field is not None:
            field.errors = [*field.errors, error.message]
        else:
            form.form_errors.append(error.message)
        return _render(plan, form, 422)
    flash(f"{plan.team.name}'s re-draft is submitted; a commissioner approves it.", "success")
    return redirect(url_for("seasons.redraft", team_id=team_id))


@bp.post("/teams/<int:team_id>/redraft/approve")
@login_required
def approve(team_id: int) -> str | Response:
    plan = _plan_or_error(team_id)
    form = ApproveRedraftForm()
    if not form.validate_on_submit():
        abort(400, description="The form was incomplete.")
    if leagues.role_in(plan.team.league, current_user) != "commissioner":
        abort(403, description="Only a commissioner can approve a re-draft.")
    if not form.is_confirmed:
        kept = len(plan.submitted.kept_player_ids) if plan.submitted else 0
        return render_template(
            "teams/confirm.html",
            team=plan.team,
            form=form,
            question=f"Approve {plan.team.name}'s re-draft?",
            explanation=(
                f"{kept} of {len(plan.players)} players stay; the others leave the team "
                "(they stay in its history). The treasury becomes what is left of the budget. "
                "This cannot be undone."
            ),
            button="Approve the re-draft",
        )
    try:
        with unit_of_work() as session:
            approve_redraft(session, current_user, team_id)
    except DomainError as error:
        flash(error.message, "error")
        return redirect(url_for("seasons.redraft", team_id=team_id))
    flash(f"{plan.team.name}'s re-draft is approved.", "success")
    return redirect(url_for("teams.show", team_id=team_id))
