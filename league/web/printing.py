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

from league import jobs, outages
from league.extensions import db
from league.i18n import gettext
from league.models import League
from league.pdf.context import PAPER_SIZES, paper_of
from league.pdf.roster import PackStatus, RenderedPdf, pack_status, team_roster_pdf
from league.security import limiter
from league.services import access
from league.web.forms import EmptyForm
from league.web.helpers import commissioners_league, post_step

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
    team = access.get_team(db.session(), team_id)
    paper = paper_of(request.args.get("paper") or team.league.paper_size)
    language = str(flask_babel.get_locale() or "") or None
    return _pdf_response(team_roster_pdf(team, paper=paper, language=language))


def _pack_page(league: League, paper: str) -> Response:
    """Back to the pack's page (naming the paper only when it is not the league's own)."""
    other = paper if paper != league.paper_size else None
    return redirect(url_for("printing.league_rosters", league_id=league.id, paper=other))


def _pack_page_state(league: League, paper: str) -> tuple[PackStatus, jobs.PackJob | None]:
    """The pack's files and its build job (QueueUnavailable when the queue does not answer)."""
    status = pack_status(db.session(), league, paper=paper)
    job = jobs.pack_job(league.id, paper)
    return status, job


def _rosters_page(
    league: League, paper: str, job: jobs.PackJob | None, *, unavailable: bool = False
) -> Response:
    """The pack's page; with the job queue out of reach, a 503 saying the pack cannot be
    built for now (a pack already built still downloads, team sheets still print)."""
    response = current_app.make_response(
        render_template(
            "printing/rosters.html",
            league=league,
            status=pack_status(db.session(), league, paper=paper),
            job=job,
            unavailable=_pack_unavailable() if unavailable else None,
            paper=paper,
            papers=PAPER_SIZES,
            form=EmptyForm(),
        )
    )
    if unavailable:
        _queue_unavailable(response)
    return response


def _pack_unavailable() -> str:
    return gettext(
        "The league pack cannot be built for now: the job queue does not answer. "
        "Try again in a minute. Each team's roster PDF still prints on its own."
    )


def _queue_unavailable(response: Response) -> None:
    """Make `response` the queue outage's 503, with its Retry-After."""
    response.status_code = 503
    response.headers["Retry-After"] = str(outages.QUEUE_RETRY_AFTER)


@bp.get("/leagues/<int:league_id>/rosters")
@login_required
def league_rosters(league_id: int) -> Response:
    """The league pack: build it, follow the build, download it when it is ready."""
    league = commissioners_league(league_id, "print_pack")
    paper = paper_of(request.args.get("paper") or league.paper_size)
    try:
        job = jobs.pack_job(league.id, paper)
    except outages.QueueUnavailable:
        return _rosters_page(league, paper, None, unavailable=True)
    return _rosters_page(league, paper, job)


@bp.get("/leagues/<int:league_id>/rosters/status.json")
@login_required
def league_pack_status(league_id: int) -> Response:
    """The build's progress for the page to poll: state, teams done out of total, reason."""
    league = commissioners_league(league_id, "print_pack")
    paper = paper_of(request.args.get("paper") or league.paper_size)
    try:
        status, job = _pack_page_state(league, paper)
    except outages.QueueUnavailable:
        # The usual error body, as the API's: the page's script shows the message.
        response = jsonify(
            {"error": {"code": "service_unavailable", "message": _pack_unavailable()}}
        )
        response.cache_control.no_store = True
        _queue_unavailable(response)
        return response
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
    league = commissioners_league(league_id, "print_pack")
    paper = paper_of(request.form.get("paper") or league.paper_size)
    if not EmptyForm().validate_on_submit():
        abort(400, description=gettext("The form expired: reload the page and try again."))
    status = pack_status(db.session(), league, paper=paper)
    if not status.teams:
        flash(gettext("%(league)s has no active team to print yet.", league=league.name), "error")
    elif status.pdf is None:
        try:
            _, joined = jobs.start_pack(league, paper, len(status.teams))
        except outages.QueueUnavailable:
            return _rosters_page(league, paper, None, unavailable=True)
        if joined:
            flash(gettext("The pack is already being built: this page follows that build."), "info")
    return _pack_page(league, paper)


@bp.get("/leagues/<int:league_id>/rosters.pdf")
def league_pack(league_id: int) -> Response:
    """Every active team's sheet, in standings order, in one PDF (commissioners only).

    Served once built; until then the pack's page, where the build is started and followed.
    """
    league = commissioners_league(league_id, "print_pack")
    paper = paper_of(request.args.get("paper") or league.paper_size)
    status = pack_status(db.session(), league, paper=paper)
    if status.pdf is None:
        if not status.teams:
            flash(
                gettext("%(league)s has no active team to print yet.", league=league.name), "error"
            )
        return _pack_page(league, paper)
    return _pdf_response(status.pdf)
