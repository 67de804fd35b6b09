"""Tournament day pages: roster submission and approval, the event's start, the big screen
and the organiser's fast result entry (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.i18n import gettext, ngettext
from league.models import League, Team
from league.rules.competitions import result_points
from league.services import access, roster_approval, round_entry, tournament
from league.services.errors import DomainError
from league.services.standings import bonus_rule_text, season_of, standings
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.event import ReviewForm
from league.web.helpers import button_action, commissioners_league, form_action, post_step

bp = Blueprint("event", __name__)


# ---------------------------------------------------------------------------
# Rosters


@post_step(bp, "/teams/<int:team_id>/roster/submit", "teams.show")
@login_required
def submit_roster(team_id: int) -> Response:
    """The coach submits the roster for the organiser's approval."""
    team = button_action(
        lambda session: roster_approval.submit_roster(session, current_user, team_id)
    )
    if team is not None:
        flash(gettext("Roster submitted for the organiser's approval."), "success")
    return redirect(url_for("teams.show", team_id=team_id, _anchor="approval"))


@bp.get("/leagues/<int:league_id>/event/rosters")
@login_required
def rosters(league_id: int) -> str:
    """The organiser's list: every roster with its matched-play check and approval."""
    league = commissioners_league(league_id, "approve_rosters")
    return _render_rosters(league)[0]


def _render_rosters(
    league: League, failed: int | None = None, form: ReviewForm | None = None, status: int = 200
) -> tuple[str, int]:
    rows = roster_approval.event_rosters(db.session(), league)
    return render_template(
        "tournament/rosters.html",
        league=league,
        rows=rows,
        waiting=sum(row.approval.state != "approved" for row in rows),
        failed_team=failed,
        failed_form=form,
        action_form=EmptyForm(),
    ), status


def _reviewed_message(team: Team) -> str:
    if team.roster_state == "approved":
        return gettext("The roster of %(team)s is approved and locked.", team=team.name)
    if team.roster_state == "returned":
        return gettext("The roster of %(team)s was sent back with your note.", team=team.name)
    return gettext("The roster of %(team)s is unlocked.", team=team.name)


@post_step(bp, "/teams/<int:team_id>/roster/review", "teams.show")
@login_required
def review_roster(team_id: int) -> str | Response | tuple[str, int]:
    """Approve, unlock, or send back with a note (the organiser)."""
    team = access.get_team(db.session(), team_id, ledger=False)
    access.may_commission(team.league, current_user, "approve_rosters").require()
    form = ReviewForm()
    reviewed = form_action(
        form,
        lambda session: roster_approval.review_roster(
            session, current_user, team_id, approved=form.approved.data == "1", note=form.note.data
        ),
    )
    if reviewed is None:
        return _render_rosters(team.league, team_id, form, 422)
    flash(_reviewed_message(reviewed), "success")
    return redirect(url_for("event.rosters", league_id=team.league_id, _anchor=f"team-{team_id}"))


@bp.get("/leagues/<int:league_id>/fixtures/rounds/start")
@login_required
def start(league_id: int) -> str:
    """Before the first round: the rosters not approved yet, and Start anyway."""
    league = commissioners_league(league_id, "schedule")
    return render_template(
        "tournament/start.html",
        league=league,
        waiting=roster_approval.unapproved_teams(league),
        form=EmptyForm(),
    )


# ---------------------------------------------------------------------------
# The big screen


@bp.get("/leagues/<int:league_id>/screen")
def screen(league_id: int) -> str | Response:
    """The projector's page: the round's pairings by table, its results and the standings."""
    return caching.revision_cached(lambda: _render_screen(league_id))


def _render_screen(league_id: int) -> str:
    session = db.session()
    league = access.get_league(session, league_id, collections=SCREEN_COLLECTIONS)
    season = season_of(league, None)
    number = request.args.get("round", type=int) or tournament.last_round_number(session, season)
    sheet = tournament.round_sheet(session, league, number) if number > 0 else None
    table = sheet.standings if sheet is not None else None
    if table is None:
        table = standings(session, league, season.number)
    return render_template(
        "tournament/screen.html",
        league=league,
        season=season,
        sheet=sheet,
        table=table,
        refresh=SCREEN_REFRESH,
    )


#: What the big screen reads of the league besides the round: its seasons.
SCREEN_COLLECTIONS: tuple[access.LeagueCollection, ...] = ("seasons",)
#: Seconds between two reloads of the big screen (results come in as they are entered).
SCREEN_REFRESH = 60


# ---------------------------------------------------------------------------
# Fast result entry


def _typed(form: Any, tables: list[int]) -> tuple[list[round_entry.TableResult], dict[str, str]]:
    """The tables typed in (every box of a table empty: not entered) and each box's error."""
    results, errors = [], {}
    for table in tables:
        names = {name: round_entry.field_name(table, name) for name in round_entry.FIELDS}
        raw = {name: (form.get(key) or "").strip() for name, key in names.items()}
        if not any(raw.values()):
            continue
        values: dict[str, int] = {}
        for name, text in raw.items():
            if text.isascii() and text.isdigit():
                values[name] = int(text)
            else:
                errors[names[name]] = gettext("Enter a number from 0 to %(max)s.", max=99)
        if len(values) == len(round_entry.FIELDS):
            results.append(round_entry.TableResult(table, **values))
    return results, errors


def _unchanged(entry: round_entry.RoundEntry, result: round_entry.TableResult) -> bool:
    """A played table typed as it stands: nothing to record again."""
    table = next(t for t in entry.sheet.tables if t.table == result.table)
    if not table.played:
        return False
    cas = entry.casualties
    return (table.home.score, cas.get((table.match_id, table.home.team_id), 0)) == (
        result.home_td,
        result.home_cas,
    ) and (table.away.score, cas.get((table.match_id, table.away.team_id), 0)) == (
        result.away_td,
        result.away_cas,
    )


@bp.route("/leagues/<int:league_id>/fixtures/rounds/<int:number>/results", methods=["GET", "POST"])
@login_required
def enter_results(league_id: int, number: int) -> str | Response | tuple[str, int]:
    """One screen for the whole round: every table's touchdowns and casualties."""
    entry = round_entry.round_entry(db.session(), current_user, league_id, number)
    if request.method == "GET":
        return _render_entry(entry, {}, {})
    if not EmptyForm().validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    results, errors = _typed(request.form, [t.table for t in entry.sheet.tables])
    results = [r for r in results if not _unchanged(entry, r)]
    if not errors and results:
        try:
            with unit_of_work() as session:
                round_entry.enter_round(session, current_user, league_id, number, results)
        except DomainError as error:
            errors = {path: " ".join(messages) for path, messages in error.fields.items()}
    if errors:
        return _render_entry(entry, request.form, errors, 422)
    flash(
        ngettext(
            "Round %(round)s: %(num)d result recorded.",
            "Round %(round)s: %(num)d results recorded.",
            len(results),
            round=number,
        ),
        "success",
    )
    return redirect(url_for("event.enter_results", league_id=league_id, number=number))


def _render_entry(
    entry: round_entry.RoundEntry, typed: Any, errors: dict[str, str], status: int = 200
) -> tuple[str, int]:
    return render_template(
        "tournament/enter_results.html",
        league=entry.league,
        entry=entry,
        sheet=entry.sheet,
        typed=typed,
        errors=errors,
        field_name=round_entry.field_name,
        bonus=lambda own, other: round_entry.side_bonus(entry.tournament, own, other),
        scoring={
            "points": result_points(entry.tournament, entry.league_points),
            "bonus": [
                {"kind": rule.kind, "threshold": rule.threshold, "points": rule.points}
                for rule in entry.tournament.bonus
            ],
        },
        bonus_rule_text=bonus_rule_text,
        form=EmptyForm(),
    ), status
