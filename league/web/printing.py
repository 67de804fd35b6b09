"""Printable rosters: a team's sheet as PDF, and the league pack for commissioners."""

from __future__ import annotations

import flask_babel
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import jobs
from league.extensions import db
from league.i18n import gettext
from league.models import League
from league.pdf.context import PAPER_SIZES, paper_of
from league.pdf.roster import PackStatus, RenderedPdf, pack_status, team_roster_pdf
from league.security import limiter
from league.services import leagues, teams
from league.web.forms import EmptyForm
from league.web.helpers import post_step

bp = Blueprint("printing", __name__)


def _pdf_response(pdf: RenderedPdf) -> Response:
    response = Response(pdf.data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{pdf.filename}"'
    response.headers["X-PDF-Cache"] = "hit" if pdf.cached else "miss"
    response.headers["Server-Timing"] = f"pdf;dur={pdf.seconds * 1000:.0f}"
    # Revalidate every time: the ETag is the hash of what the sheet prints.
    response.set_etag(pdf.key)
    response.cache_control.no_cache = True
    return response.make_conditional(request)


@bp.get("/teams/<int:team_id>/roster.pdf")
@limiter.limit(
    lambda: current_app.config["PDF_RENDER_LIMIT"],
    exempt_when=lambda: current_user.is_authenticated,
    deduct_when=lambda response: response.headers.get("X-PDF-Cache") == "miss",
)
def team_roster(team_id: int) -> Response:
    """The roster sheet: public, like the team page. ?paper=letter for US Letter.

    A render costs about a second of CPU: signed-out visitors get PDF_RENDER_LIMIT
    renders per address (copies from the cache are not counted).
    """
    team = teams.get_team(db.session(), team_id)
    paper = paper_of(request.args.get("paper") or team.league.paper_size)
    language = str(flask_babel.get_locale() or "") or None
    return _pdf_response(team_roster_pdf(team, paper=paper, language=language))


def _commissioners_league(league_id: int) -> League:
    league = leagues.get_league(db.session(), league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        abort(
            403,
            description=gettext(
                "Only a commissioner of %(league)s can print the league pack.", league=league.name
            ),
        )
    return league


def _pack_page(league: League, paper: str) -> Response:
    """Back to the pack's page (naming the paper only when it is not the league's own)."""
    other = paper if paper != league.paper_size else None
    return redirect(url_for("printing.league_rosters", league_id=league.id, paper=other))


def _pack_page_state(league: League, paper: str) -> tuple[PackStatus, jobs.PackJob | None]:
    status = pack_status(db.session(), league, paper=paper)
    job = jobs.pack_job(league.id, paper)
    return status, job


@bp.get("/leagues/<int:league_id>/rosters")
@login_required
def league_rosters(league_id: int) -> str:
    """The league pack: build it, follow the build, download it when it is ready."""
    league = _commissioners_league(league_id)
    paper = paper_of(request.args.get("paper") or league.paper_size)
    status, job = _pack_page_state(league, paper)
    return render_template(
        "printing/rosters.html",
        league=league,
        status=status,
        job=job,
        paper=paper,
        papers=PAPER_SIZES,
        form=EmptyForm(),
    )


@bp.get("/leagues/<int:league_id>/rosters/status.json")
@login_required
def league_pack_status(league_id: int) -> Response:
    """The build's progress for the page to poll: state, teams done out of total, reason."""
    league = _commissioners_league(league_id)
    paper = paper_of(request.args.get("paper") or league.paper_size)
    status, job = _pack_page_state(league, paper)
    body: dict[str, object] = {"ready": status.pdf is not None, "teams": len(status.teams)}
    body["job"] = job.as_json() if job else None
    if status.pdf is not None:
        body["url"] = url_for("printing.league_pack", league_id=league.id, paper=paper)
    response = jsonify(body)
    response.cache_control.no_store = True
    return response


@post_step(bp, "/leagues/<int:league_id>/rosters/build", "printing.league_rosters")
@login_required
def build_league_pack(league_id: int) -> Response:
    """Start the pack's build (or join the one under way), then show its progress."""
    league = _commissioners_league(league_id)
    paper = paper_of(request.form.get("paper") or league.paper_size)
    if not EmptyForm().validate_on_submit():
        abort(400, description=gettext("The form expired: reload the page and try again."))
    status = pack_status(db.session(), league, paper=paper)
    if not status.teams:
        flash(gettext("%(league)s has no active team to print yet.", league=league.name), "error")
    elif status.pdf is None:
        _, joined = jobs.start_pack(league, paper, len(status.teams))
        if joined:
            flash(gettext("The pack is already being built: this page follows that build."), "info")
    return _pack_page(league, paper)


@bp.get("/leagues/<int:league_id>/rosters.pdf")
def league_pack(league_id: int) -> Response:
    """Every active team's sheet, in standings order, in one PDF (commissioners only).

    Served once built; until then the pack's page, where the build is started and followed.
    """
    league = _commissioners_league(league_id)
    paper = paper_of(request.args.get("paper") or league.paper_size)
    status = pack_status(db.session(), league, paper=paper)
    if status.pdf is None:
        if not status.teams:
            flash(
                gettext("%(league)s has no active team to print yet.", league=league.name), "error"
            )
        return _pack_page(league, paper)
    return _pdf_response(status.pdf)
