"""Match pages: schedule a match, enter (keep unfinished, finalise, correct) its result,
show it, void it."""

from __future__ import annotations

import secrets
from functools import partial

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext
from league.models import Match
from league.services import access, live_log, matches, playoffs, postgame
from league.services.access import league_ruleset
from league.services.errors import DomainError
from league.services.matches import ReportErrors
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.matches import (
    NewMatchForm,
    ReportForm,
    report_form,
    stray_player_lines,
)
from league.web.helpers import commissioners_league, flash_refusal, populate_errors
from league.web.matches.postgame_views import SidePanel, panels
from league.web.matches.text import injury_label, kind_label
from league.web.matches.views import layout_for, side_results, stored_result

bp = Blueprint("matches", __name__)


# ---------------------------------------------------------------------------
# Scheduling


@bp.route("/leagues/<int:league_id>/matches/new", methods=["GET", "POST"])
@login_required
def new(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "schedule")
    active = sorted((t for t in league.teams if t.status == "active"), key=lambda t: t.name)
    form = NewMatchForm(teams=[(team.id, team.name) for team in active])
    if request.method == "GET" and len(active) >= 2:
        form.home_team.data, form.away_team.data = active[0].id, active[1].id
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                match = matches.schedule_match(
                    session,
                    current_user,
                    league_id,
                    form.home_team.data,
                    form.away_team.data,
                    friendly=bool(form.friendly.data),
                    form_token=form.token.data,
                )
        except Resubmitted as repeat:
            flash(repeat.message, "info")
            return redirect(url_for("fixtures.index", league_id=league_id))
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(
                gettext("Match scheduled. Enter the result, or save a draft for later."), "success"
            )
            return redirect(url_for("matches.report", match_id=match.id))
    return render_template("matches/new.html", league=league, form=form, enough=len(active) >= 2)


# ---------------------------------------------------------------------------
# The report form


def _render_report(match: Match, form: ReportForm, status: int = 200) -> tuple[str, int]:
    return render_template(
        "matches/report.html",
        match=match,
        form=form,
        layout=form.layout,
        commissioner=access.may_commission(match.league, current_user),
        correcting=match.state == "played",
    ), status


@bp.route("/matches/<int:match_id>/report", methods=["GET", "POST"])
@login_required
def report(match_id: int) -> tuple[str, int] | Response:
    match = matches.get_match(db.session(), match_id)
    unchangeable = _unchangeable(match)
    if unchangeable is not None:
        return unchangeable
    # Either side's coach works on the report; a played match's (a correction) is a
    # commissioner's.
    access.may_report(match, current_user).require()
    if match.state == "played":
        access.may_commission(match.league, current_user, "correct_result").require()
    layout = layout_for(
        match, league_ruleset(match.league), postgame.match_day_players(db.session(), match)
    )
    if request.method == "GET":
        stored = stored_result(match) if match.state == "played" else match.draft_report
        form = report_form(layout, formdata=MultiDict(stored or {}))
        form.token.data = secrets.token_urlsafe(32)
        return _render_report(match, form)
    form = report_form(layout)
    if not form.finalise.data:
        return _save_unfinished_report(match, form)
    access.may_commission(match.league, current_user, "finalise_result").require()
    return _finalise_report(match, form)


def _unchangeable(match: Match) -> Response | None:
    """Back to the match page, saying why, when its result can no longer change."""
    if match.state == "voided":
        flash(gettext("This match was voided; its result can no longer change."), "warning")
        return redirect(url_for("matches.show", match_id=match.id))
    return _closed_season(match)


def _finalise_report(match: Match, form: ReportForm) -> tuple[str, int] | Response:
    """Record (or correct) the result the form gives; the form again with its errors."""
    correcting = match.state == "played"
    if form.validate():
        known = {slot.id for slot in form.layout.players}
        try:
            with unit_of_work() as session:
                recorded = matches.record_result(
                    session,
                    current_user,
                    match.id,
                    form.report(stray_player_lines(request.form, known)),
                    form_token=form.token.data or None,
                )
        except Resubmitted as repeat:
            # The same form sent twice (a double click, a resent page): recorded once.
            flash(repeat.message, "info")
            return redirect(url_for("matches.show", match_id=match.id))
        except ReportErrors as errors:
            form.attach_report_errors(errors.fields)
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(_result_message(recorded, correcting), "success")
            return redirect(url_for("matches.show", match_id=recorded.id))
    match_id = match.id
    db.session.expire_all()
    return _render_report(matches.get_match(db.session(), match_id), form, 400)


def _result_message(recorded: Match, correcting: bool) -> str:
    home, away = recorded.home, recorded.away
    score = {
        "home": home.team.name,
        "home_score": home.score,
        "away_score": away.score,
        "away": away.team.name,
    }
    if correcting:
        return gettext(
            "Result corrected: %(home)s %(home_score)s\u2013%(away_score)s %(away)s.", **score
        )
    return gettext(
        "Result recorded: %(home)s %(home_score)s\u2013%(away_score)s %(away)s.", **score
    )


def _save_unfinished_report(match: Match, form: ReportForm) -> Response:
    try:
        with unit_of_work() as session:
            matches.save_unfinished_report(
                session, current_user, match.id, form.unfinished_report()
            )
    except DomainError as error:
        flash_refusal(error)
        return redirect(url_for("matches.show", match_id=match.id))
    flash(
        gettext("Draft saved. Nothing counts until a commissioner finalises the result."),
        "success",
    )
    return redirect(url_for("matches.report", match_id=match.id))


def _closed_season(match: Match) -> Response | None:
    """Back to the match page with the reason, when its season is closed (no result changes)."""
    try:
        matches.require_open_season(match)
    except DomainError as error:
        flash(error.message, "warning")
        return redirect(url_for("matches.show", match_id=match.id))
    return None


@bp.get("/matches/<int:match_id>")
def show(match_id: int) -> tuple[str, int]:
    match = matches.get_match(db.session(), match_id)
    return render_show(match, panels(match))


def render_show(match: Match, after: list[SidePanel], status: int = 200) -> tuple[str, int]:
    """The match page; `after` is each side's panel after the result (journeymen to
    hire, the MVP draw, departures), with any form sent back with its errors."""
    ruleset = league_ruleset(match.league)
    signed_in = current_user.is_authenticated
    season_closed = match.season is not None and match.season.closed_at is not None
    return render_template(
        "matches/show.html",
        match=match,
        sides=side_results(match, ruleset),
        # A voided fixture's result: the match that plays it again, and the ones voided before.
        replacement=matches.replacement_of(db.session(), match),
        voided_before=matches.voided_before(match),
        commissioner=signed_in and access.may_commission(match.league, current_user),
        may_report=signed_in
        and not season_closed
        and match.state in ("scheduled", "draft")
        and access.may_report(match, current_user),
        season_closed=season_closed,
        playoff_label=playoffs.match_label(db.session(), match),
        postgame=after,
        log_events=live_log.logged_events(db.session(), match),
        kind_label=kind_label,
        injury_text=partial(injury_label, ruleset),
    ), status


@bp.route("/matches/<int:match_id>/void", methods=["GET", "POST"])
@login_required
def void(match_id: int) -> str | Response:
    match = matches.get_match(db.session(), match_id)
    access.may_commission(match.league, current_user, "void").require()
    if match.state == "voided":
        flash(gettext("This match is already voided."), "warning")
        return redirect(url_for("matches.show", match_id=match_id))
    closed = _closed_season(match)
    if closed is not None:
        return closed
    form = EmptyForm()
    if form.validate_on_submit():
        return _void(match)
    return render_template("matches/void.html", match=match, form=form)


def _void(match: Match) -> Response:
    """Void the match; on to the fixture that plays it again, if any, else back to it."""
    match_id = match.id
    try:
        with unit_of_work() as session:
            matches.void_match(session, current_user, match_id)
    except DomainError as error:
        flash_refusal(error, gettext("Nothing changed: "))
        return redirect(url_for("matches.show", match_id=match_id))
    flash(gettext("The match is voided; everything its result caused is undone."), "success")
    again = matches.replacement_of(db.session(), match)
    if again is None:
        return redirect(url_for("matches.show", match_id=match_id))
    flash(gettext("The fixture is still to be played: enter its new result here."), "info")
    return redirect(url_for("matches.show", match_id=again.id))
