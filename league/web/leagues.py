"""League pages: create, view, settings, members, join link, seasons."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.i18n import format_list, format_number, gettext
from league.models import League, LeagueMember, Season
from league.rules import load_ruleset, ruleset_ids
from league.rules.loader import DEFAULT_RULESET_ID
from league.services import access, leagues, playoffs, seasons, teams, webhooks
from league.services.errors import DomainError
from league.services.labels import season_name
from league.services.leagues import LeagueSettings
from league.services.naf_report import NafReport, naf_report_of, naf_report_xml
from league.services.rosters import league_team_rows
from league.services.standings import season_of as standings_season_of
from league.services.standings import standings as league_standings
from league.services.todo import commissioner_todo
from league.services.unit_of_work import unit_of_work
from league.urls import public_url
from league.web.forms import EmptyForm
from league.web.forms.leagues import AddMemberForm, LeagueForm, RemoveMemberForm
from league.web.forms.seasons import CloseSeasonForm, ReopenSeasonForm
from league.web.forms.teams import NewTeamForm
from league.web.helpers import (
    commissioners_league,
    flash_refusal,
    form_action,
    league_home_variant,
    populate_errors,
    post_step,
)

bp = Blueprint("leagues", __name__)


def _ruleset_choices() -> list[tuple[str, str]]:
    return [(rid, load_ruleset(rid).name) for rid in ruleset_ids()]


def _save_league(
    form: LeagueForm, save: Callable[[Session, LeagueSettings], League]
) -> Response | None:
    """Validate `form`, call `save(session, settings)`; None when the form has errors."""
    if not form.is_submitted():
        return None
    valid = form.validate()
    # The rules' checks of the house rules, even when another box is wrong: every error
    # at once, each next to its box.
    for problem in leagues.house_rules_problems(form.ruleset_id.data or "", form.house_rules()):
        populate_errors(form, problem, form.field_for)
        valid = False
    if not valid:
        return None
    settings = form.settings()
    try:
        with unit_of_work() as session:
            league = save(session, settings)
    except DomainError as error:
        populate_errors(form, error, form.field_for)
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
        flash(gettext("League created. Share the join link with your coaches."), "success")
        return done
    return render_template("leagues/form.html", form=form, league=None)


@bp.route("/leagues/<int:league_id>")
def show(league_id: int) -> str | Response:
    return caching.revision_cached(
        lambda: _render_show(league_id), lambda: league_home_variant(league_id)
    )


def _render_show(league_id: int) -> str:
    # The teams come with their rosters' values (league_team_rows).
    league = access.get_league(db.session(), league_id, collections=("members", "seasons"))
    role = access.role_in(league, current_user)
    return render_template(
        "leagues/show.html",
        league=league,
        ruleset=access.league_ruleset(league),
        role=role,
        todo=(
            commissioner_todo(db.session(), current_user, league)
            if role == "commissioner"
            else None
        ),
        members=access.active_members(league),
        team_rows=league_team_rows(db.session(), league),
        standings=league_standings(db.session(), league) if league.seasons else None,
        form=EmptyForm(),
    )


def _naf_report(league_id: int) -> tuple[League, NafReport]:
    """The league (its commissioner's page: 403 otherwise) and its NAF report, of the
    season ``?season=N`` (else the latest with a played match)."""
    league = access.get_league(db.session(), league_id, collections=("members", "seasons"))
    access.may_commission(league, current_user).require()
    given = request.args.get("season", "")
    number = int(given) if given.isascii() and given.isdigit() and len(given) < 10 else None
    return league, naf_report_of(db.session(), league, current_user, number)


@bp.route("/leagues/<int:league_id>/naf-report")
@login_required
def naf_report(league_id: int) -> str:
    """The NAF report's confirmation page: who is reported, who is left out (no NAF
    number), then the download."""
    league, report = _naf_report(league_id)
    return render_template("leagues/naf_report.html", league=league, report=report)


@bp.route("/leagues/<int:league_id>/naf-report.xml")
@login_required
def naf_report_download(league_id: int) -> Response:
    """The NAF report as the XML document to upload (the same as the API's)."""
    league, report = _naf_report(league_id)
    if report.problem is not None:
        flash(report.problem, "error")
        return redirect(url_for("leagues.naf_report", league_id=league.id))
    response = Response(naf_report_xml(report), mimetype="application/xml")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="naf-report-{league.id}-{report.season_number}.xml"'
    )
    return response


@bp.route("/leagues/<int:league_id>/settings", methods=["GET", "POST"])
@login_required
def settings(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "settings")
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
        flash(gettext("Settings saved."), "success")
        return done
    return render_template(
        "leagues/form.html",
        form=form,
        league=league,
        paused_webhooks=webhooks.paused_webhooks(db.session(), league),
        pause_after=webhooks.PAUSE_AFTER,
    )


@bp.route("/leagues/<int:league_id>/members", methods=["GET", "POST"])
@login_required
def members(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "members")
    form = AddMemberForm()
    username = form_action(
        form,
        lambda session: (
            leagues.add_member_by_username(
                session, current_user, league_id, form.username.data or ""
            ).user.username
        ),
        # Every refusal here ("no such user", "already a member") is about the name typed.
        lambda _: "username",
    )
    if username is not None:
        flash(
            gettext("%(name)s joined %(league)s as a coach.", name=username, league=league.name),
            "success",
        )
        return redirect(url_for("leagues.members", league_id=league_id))
    return render_template(
        "leagues/members.html",
        league=league,
        members=access.active_members(league),
        is_owner=access.may_own(league, current_user),
        form=form,
        action_form=EmptyForm(),
        join_url=public_url("leagues.join", league_id=league.id, token=league.join_token),
    )


def _member_action(
    league_id: int, action: Callable[[Session], object], done_message: str
) -> Response:
    access.get_league(db.session(), league_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        with unit_of_work() as session:
            action(session)
    except DomainError as error:
        flash_refusal(error)
    else:
        flash(done_message, "success")
    return _members_or_league_page(league_id)


def _members_or_league_page(league_id: int) -> Response:
    """Back to the members page after a change to them, or to the league's page for a
    commissioner who removed himself (he cannot see the members page any more)."""
    league = access.get_league(db.session(), league_id)
    if not access.may_commission(league, current_user, "members"):
        return redirect(url_for("leagues.show", league_id=league_id))
    return redirect(url_for("leagues.members", league_id=league_id))


@post_step(bp, "/leagues/<int:league_id>/members/<int:user_id>/promote", "leagues.members")
@login_required
def promote(league_id: int, user_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.promote(session, current_user, league_id, user_id),
        gettext("Promoted to commissioner."),
    )


@post_step(bp, "/leagues/<int:league_id>/members/<int:user_id>/owner", "leagues.members")
@login_required
def hand_over(league_id: int, user_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.hand_over_ownership(session, current_user, league_id, user_id),
        gettext("The league has a new owner."),
    )


@bp.route("/leagues/<int:league_id>/members/<int:user_id>/remove", methods=["GET", "POST"])
@login_required
def remove(league_id: int, user_id: int) -> str | Response | tuple[str, int]:
    """Asks first what becomes of the member's teams; only the confirmed post removes."""
    league = commissioners_league(league_id, "members")
    members = access.active_members(league)
    member = next((m for m in members if m.user_id == user_id), None)
    if member is None:
        abort(404, description=gettext("That person is not a member of this league."))
    heirs = sorted((m.user.username for m in members if m.user_id != user_id), key=str.lower)
    form = RemoveMemberForm(heirs=heirs)
    if form.validate_on_submit() and form.is_confirmed and _removed(form, league_id, member):
        return _members_or_league_page(league_id)
    return render_template(
        "leagues/remove_member.html",
        league=league,
        member=member,
        teams=leagues.member_teams(league, user_id),
        form=form,
    ), 400 if form.errors else 200


def _removed(form: RemoveMemberForm, league_id: int, member: LeagueMember) -> bool:
    """Remove `member` as the confirmed form says (False: its errors are on the form)."""
    username = member.user.username
    try:
        with unit_of_work() as session:
            leagues.remove_member(
                session,
                current_user,
                league_id,
                member.user_id,
                hand_teams_to=form.hand_teams_to.data or None,
            )
    except DomainError as error:
        populate_errors(form, error)
        return False
    flash(
        gettext("%(name)s is no longer a member; the join link has changed.", name=username),
        "success",
    )
    return True


@post_step(bp, "/leagues/<int:league_id>/join-link", "leagues.members")
@login_required
def new_join_link(league_id: int) -> Response:
    return _member_action(
        league_id,
        lambda session: leagues.new_join_token(session, current_user, league_id),
        gettext("A new join link is ready; the old one no longer works."),
    )


@bp.route("/leagues/<int:league_id>/join/<token>", methods=["GET", "POST"])
@login_required
def join(league_id: int, token: str) -> str | Response | tuple[str, int]:
    league = access.get_league(db.session(), league_id)
    if access.membership(league, current_user) is not None:
        flash(gettext("You are already a member of %(league)s.", league=league.name), "warning")
        return redirect(url_for("leagues.show", league_id=league_id))
    form = EmptyForm()
    if request.method == "GET" and not leagues.valid_join_token(league, token):
        # Do not offer a "Join" button that can only fail.
        return render_template("leagues/join.html", league=league, form=form, valid=False), 403
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                leagues.join_with_token(session, current_user, league_id, token)
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash(
                gettext("Welcome to %(league)s! Draft your team next.", league=league.name),
                "success",
            )
        return redirect(url_for("leagues.show", league_id=league_id))
    return render_template("leagues/join.html", league=league, form=form, valid=True)


@bp.route("/leagues/<int:league_id>/seasons/next", methods=["GET", "POST"])
@login_required
def next_season(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "close_season")
    form = CloseSeasonForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                result = seasons.close_season(
                    session, current_user, league_id, mark_unplayed=bool(form.mark_unplayed.data)
                )
        except DomainError as error:
            flash_refusal(error)
            return redirect(url_for("leagues.show", league_id=league_id))
        flash(
            gettext("%(season)s has begun; every team carries over.", season=result.opened.name),
            "success",
        )
        for prize in result.prizes:
            flash(_prize_text(prize), "success")
        return redirect(url_for("leagues.show", league_id=league_id))
    return _render_next_season(league, form)


def _prize_text(prize: seasons.PaidPrize) -> str:
    args = {"team": prize.team_name, "place": prize.place_name, "gold": format_number(prize.gold)}
    if prize.trophy:
        return gettext("%(team)s (%(place)s) wins %(gold)s gold and the League Trophy.", **args)
    return gettext("%(team)s (%(place)s) wins %(gold)s gold.", **args)


def _render_next_season(league: League, form: CloseSeasonForm) -> str:
    """The page closing the season: its prizes and the matches still unplayed."""
    current = league.current_season
    waiting = seasons.unplayed_matches(db.session(), current) if current else ()
    # Bracket places whose match waits for the matches before it (not scheduled yet).
    bracket = playoffs.bracket_view(db.session(), league)
    unscheduled = sum(
        1 for slots in (bracket.rounds if bracket else ()) for slot in slots if slot.match is None
    )
    return render_template(
        "leagues/next_season.html",
        league=league,
        form=form,
        prizes=seasons.prize_table(access.league_ruleset(league)),
        fixtures=[m for m in waiting if m.bracket_id is None],
        playoff_matches=[m for m in waiting if m.bracket_id is not None],
        unscheduled=unscheduled,
    )


@bp.route("/leagues/<int:league_id>/seasons/<int:number>/reopen", methods=["GET", "POST"])
@login_required
def reopen_season(league_id: int, number: int) -> str | Response:
    """Reopen the last closed season: asked first, since its prizes are taken back."""
    session = db.session()
    league = commissioners_league(league_id, "reopen_season")
    season = standings_season_of(league, number)
    form = ReopenSeasonForm()
    season_page = url_for("seasons.season_page", league_id=league_id, number=number)
    if form.validate_on_submit() and form.is_confirmed:
        return _reopen(league_id, season, season_page)
    why = seasons.reopenable(session, league, season)
    if why is not None:
        flash(why, "error")
        return redirect(season_page)
    return render_template(
        "teams/confirm.html",
        form=form,
        question=gettext("Reopen %(season)s?", season=season_name(season.name)),
        explanation=_reopen_explanation(seasons.prizes_paid(session, league, season)),
        button=gettext("Reopen the season"),
        cancel_url=season_page,
    )


def _reopen(league_id: int, season: Season, season_page: str) -> Response:
    """Reopen `season`: on to the league's page, or back to the season's saying why not."""
    try:
        with unit_of_work() as work:
            seasons.reopen_season(work, current_user, league_id, season.number)
    except DomainError as error:
        flash_refusal(error)
        return redirect(season_page)
    flash(
        gettext(
            "%(season)s is open again: its results can change, and its prizes were taken back.",
            season=season_name(season.name),
        ),
        "success",
    )
    return redirect(url_for("leagues.show", league_id=league_id))


def _reopen_explanation(paid: Sequence[seasons.PaidPrize]) -> str:
    """What reopening a season does, naming the prizes it takes back."""
    taken = format_list(
        [
            gettext("%(gold)s from %(team)s", gold=format_number(p.gold), team=p.team_name)
            for p in paid
            if p.gold
        ]
    )
    if taken:
        return gettext(
            "Its results can then be entered, corrected and voided again. The prizes it "
            "paid are taken back (%(prizes)s); closing it again pays those of the table "
            "as it then stands.",
            prizes=taken,
        )
    return gettext(
        "Its results can then be entered, corrected and voided again; closing it "
        "again pays the prizes of the table as it then stands."
    )


@bp.route("/leagues/<int:league_id>/teams/new", methods=["GET", "POST"])
@login_required
def new_team(league_id: int) -> str | Response:
    league = access.get_league(db.session(), league_id)
    access.may_draft(league, current_user).require()
    ruleset = access.league_ruleset(league)
    form = NewTeamForm(
        team_types=sorted(ruleset.team_types, key=lambda t: t.name),
        coaches=[m.user.username for m in access.active_members(league)]
        if access.may_commission(league, current_user)
        else None,
    )
    if request.method == "GET" and form.coach.choices:
        form.coach.data = current_user.username
    team = form_action(
        form, lambda session: teams.create_team(session, current_user, form.command(league_id))
    )
    if team is not None:
        flash(
            gettext(
                "%(team)s (%(team_type)s) is drafted. Hire your players.",
                team=team.name,
                team_type=ruleset.team_type(team.team_type_id).name,
            ),
            "success",
        )
        return redirect(url_for("teams.show", team_id=team.id))
    return render_template("leagues/new_team.html", league=league, ruleset=ruleset, form=form)
