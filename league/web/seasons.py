"""Pages of the season cycle: playoffs, divisions, and a team's off-season re-draft and its
approval."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext, ngettext
from league.models import League, Match, Season
from league.services import access, playoffs, seasons
from league.services import divisions as division_service
from league.services import standings as standings_service
from league.services import stats as stats_service
from league.services.errors import DomainError, NotFound
from league.services.redraft import (
    RedraftChoice,
    RedraftPlan,
    approve_redraft,
    redraft_plan,
    submit_redraft,
)
from league.services.text import isolated
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.seasons import (
    ApproveRedraftForm,
    PlayoffForm,
    RedraftForm,
    WinnerForm,
    divisions_form,
)
from league.web.helpers import (
    button_action,
    commissioners_league,
    flash_refusal,
    form_action,
    populate_errors,
    post_step,
)

bp = Blueprint("seasons", __name__)


def _form(plan: RedraftPlan) -> RedraftForm:
    players = [(p.player_id, f"#{p.number} {isolated(p.name)}") for p in plan.players]
    source = plan.chosen
    return RedraftForm(
        players,
        keep=sorted(source.keep),
        rerolls=source.rerolls,
        assistant_coaches=source.assistant_coaches,
        cheerleaders=source.cheerleaders,
        apothecary=source.apothecary,
        hire_counts=[source.hires.count(o.position_id) for o in plan.positions],
        recovery_dice=["" for _ in plan.players],
    )


def _field_for(path: str) -> str | None:
    """The form's field for a refusal of the re-draft service."""
    return {"hires": "hire_counts", "recovery": "recovery_dice"}.get(path, path)


def _render(plan: RedraftPlan, form: RedraftForm, status: int = 200) -> tuple[str, int]:
    team = plan.team
    rolled = {roll.player_id for roll in plan.recovery}
    return render_template(
        "seasons/redraft.html",
        plan=plan,
        rolled=rolled,
        table_dice=team.league.table_dice_allowed,
        team=team,
        form=form,
        approve_form=ApproveRedraftForm(),
        can_manage=access.may_manage_team(team, current_user),
        is_commissioner=access.may_commission(team.league, current_user),
        names={p.player_id: p for p in plan.players},
    ), status


@bp.route("/teams/<int:team_id>/redraft", methods=["GET", "POST"])
@login_required
def redraft(team_id: int) -> tuple[str, int] | Response:
    plan = _plan(team_id)
    if isinstance(plan, Response):
        return plan
    access.may_manage_team(plan.team, current_user, "redraft").require()
    form = _form(plan)
    if not form.validate_on_submit():
        return _render(plan, form, 422 if form.is_submitted() else 200)
    table_dice = form.table_dice([p.player_id for p in plan.players])
    try:
        with unit_of_work() as session:
            submit_redraft(
                session, current_user, team_id, _choice(plan, form), table_dice=table_dice
            )
    except DomainError as error:
        populate_errors(form, error, _field_for)
        return _render(plan, form, 422)
    flash(
        gettext(
            "%(team)s's re-draft is submitted; a commissioner approves it.", team=plan.team.name
        ),
        "success",
    )
    return redirect(url_for("seasons.redraft", team_id=team_id))


def _plan(team_id: int) -> RedraftPlan | Response:
    """The team's re-draft, or back to its page saying why there is none (no closed
    season); no such team is a 404."""
    try:
        return redraft_plan(db.session(), team_id)
    except NotFound:
        raise
    except DomainError as error:
        flash(error.message, "error")
        return redirect(url_for("teams.show", team_id=team_id))


def _choice(plan: RedraftPlan, form: RedraftForm) -> RedraftChoice:
    return RedraftChoice(
        frozenset(form.keep.data or ()),
        form.rerolls.data or 0,
        form.assistant_coaches.data or 0,
        form.cheerleaders.data or 0,
        bool(form.apothecary.data),
        form.hires([o.position_id for o in plan.positions]),
    )


@post_step(bp, "/teams/<int:team_id>/redraft/approve", "seasons.redraft")
@login_required
def approve(team_id: int) -> str | Response:
    plan = _plan(team_id)  # no closed season: refused as the re-draft page does
    if isinstance(plan, Response):
        return plan
    form = ApproveRedraftForm()
    if not form.validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    access.may_commission(plan.team.league, current_user, "approve_redraft").require()
    if not form.is_confirmed:
        return _approve_question(plan, form)
    try:
        with unit_of_work() as session:
            approve_redraft(session, current_user, team_id)
    except DomainError as error:
        flash(error.message, "error")
        return redirect(url_for("seasons.redraft", team_id=team_id))
    flash(gettext("%(team)s's re-draft is approved.", team=plan.team.name), "success")
    return redirect(url_for("teams.show", team_id=team_id))


def _approve_question(plan: RedraftPlan, form: ApproveRedraftForm) -> str:
    kept = len(plan.submitted.kept_player_ids) if plan.submitted else 0
    return render_template(
        "teams/confirm.html",
        team=plan.team,
        form=form,
        question=gettext("Approve %(team)s's re-draft?", team=plan.team.name),
        explanation=ngettext(
            "%(kept)s of %(num)s player stay; the others leave the team (they stay in its "
            "history). The treasury becomes what is left of the budget. This cannot be "
            "undone.",
            "%(kept)s of %(num)s players stay; the others leave the team (they stay in its "
            "history). The treasury becomes what is left of the budget. This cannot be "
            "undone.",
            len(plan.players),
            kept=kept,
        ),
        button=gettext("Approve the re-draft"),
    )


# ---------------------------------------------------------------------------
# A season's page


@bp.get("/leagues/<int:league_id>/seasons/<int:number>")
def season_page(league_id: int, number: int) -> str:
    """A season at a glance: its final table, the prizes it paid and its leaders."""
    session = db.session()
    league = access.get_league(session, league_id)
    season = standings_service.season_of(league, number)
    commissioner = access.may_commission(league, current_user).allowed
    return render_template(
        "seasons/season.html",
        league=league,
        season=season,
        standings=standings_service.standings(session, league, number),
        prizes=seasons.prizes_paid(session, league, season) if season.closed_at else (),
        stats=stats_service.season_stats(session, league, number),
        has_playoffs=playoffs.bracket_view(session, league, season) is not None,
        may_reopen=commissioner
        and season.closed_at is not None
        and seasons.reopenable(session, league, season) is None,
    )


# ---------------------------------------------------------------------------
# Playoffs


def _render_playoffs(
    league: League, form: PlayoffForm, status: int = 200, season: Season | None = None
) -> tuple[str, int]:
    """The bracket of `season` (the current one by default); a closed season's is only shown."""
    season = season or league.current_season
    view = playoffs.bracket_view(db.session(), league, season)
    names = {team.id: team.name for team in league.teams}
    closed = season is not None and season.closed_at is not None
    winner_forms = {
        slot.match.id: WinnerForm(
            [
                (team_id, names[team_id])
                for team_id in (slot.home_team_id, slot.away_team_id)
                if team_id
            ],
            prefix=f"m{slot.match.id}",
        )
        for slots in (view.rounds if view else ())
        for slot in slots
        if slot.match is not None and slot.needs_winner
    }
    return render_template(
        "seasons/playoffs.html",
        league=league,
        season=season,
        closed=closed,
        view=view,
        names=names,
        form=form,
        advance_form=EmptyForm(),
        winner_forms=winner_forms,
        role=access.role_in(league, current_user),
    ), status


@bp.get("/leagues/<int:league_id>/playoffs")
def playoffs_page(league_id: int) -> tuple[str, int]:
    """The current season's bracket, or with `?season=N` that season's (a closed one's too)."""
    league = access.get_league(db.session(), league_id)
    number = request.args.get("season", type=int)
    season = standings_service.season_of(league, number) if number is not None else None
    return _render_playoffs(league, PlayoffForm(), season=season)


@bp.post("/leagues/<int:league_id>/playoffs")
@login_required
def seed_playoffs(league_id: int) -> tuple[str, int] | Response:
    league = commissioners_league(league_id, "seed_playoffs")
    form = PlayoffForm()
    if not form.validate_on_submit():
        return _render_playoffs(league, form, 422)
    try:
        with unit_of_work() as session:
            playoffs.create_bracket(session, current_user, league_id, form.size.data)
    except DomainError as error:
        populate_errors(form, error)
        return _render_playoffs(league, form, 422)
    flash(
        ngettext(
            "The playoffs are seeded: %(num)d team, first round scheduled.",
            "The playoffs are seeded: %(num)d teams, first round scheduled.",
            form.size.data,
        ),
        "success",
    )
    return redirect(url_for("seasons.playoffs_page", league_id=league_id))


@post_step(bp, "/leagues/<int:league_id>/playoffs/advance", "seasons.playoffs_page")
@login_required
def advance_playoffs(league_id: int) -> Response:
    created = button_action(lambda session: playoffs.advance(session, current_user, league_id))
    if created is not None:
        flash(
            ngettext(
                "%(num)d bracket match scheduled.",
                "%(num)d bracket matches scheduled.",
                len(created),
            ),
            "success",
        )
    return redirect(url_for("seasons.playoffs_page", league_id=league_id))


@post_step(bp, "/matches/<int:match_id>/winner", "matches.show")
@login_required
def record_winner(match_id: int) -> Response:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404, description=gettext("There is no match number %(id)s.", id=match_id))
    teams_of = [(side.team_id, side.team.name) for side in match.sides]
    form = WinnerForm(teams_of, prefix=f"m{match_id}")
    if not form.validate_on_submit():
        abort(400, description=gettext("Choose one of the two teams."))
    try:
        with unit_of_work() as session:
            playoffs.record_winner(session, current_user, match_id, form.team_id.data)
    except DomainError as error:
        flash_refusal(error)
    else:
        flash(
            gettext("The winner is recorded; advance the bracket when the round is complete."),
            "success",
        )
    return redirect(url_for("seasons.playoffs_page", league_id=match.league_id))


@bp.route("/leagues/<int:league_id>/divisions", methods=["GET", "POST"])
@login_required
def divisions(league_id: int) -> str | Response:
    """The commissioner places each team in a division (a name; empty for none)."""
    league = commissioners_league(league_id, "divisions")
    placed = [team for team in league.teams if team.status != "retired"]
    form = divisions_form([(team.id, team.name, team.division) for team in placed])
    saved = form_action(
        form,
        lambda session: division_service.assign_divisions(
            session,
            current_user,
            league_id,
            {team.id: form[f"team_{team.id}"].data for team in placed},
        ),
    )
    if saved is not None:
        flash(gettext("Divisions saved."), "success")
        return redirect(url_for("seasons.divisions", league_id=league_id))
    return render_template(
        "tournament/divisions.html",
        league=league,
        form=form,
        teams=placed,
        names=division_service.division_names(league),
    )
