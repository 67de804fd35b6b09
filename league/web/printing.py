"""Printable rosters: a team's sheet as PDF, and the league pack for commissioners."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.models import League, Team
from league.pdf.context import PAPER_SIZES, paper_of
from league.pdf.roster import RenderedPdf, league_pack_pdf, pack_status, team_roster_pdf
from league.security import limiter
from league.services import leagues, teams
from league.web.helpers import public_url

bp = Blueprint("printing", __name__)


def _team_url(team: Team) -> str:
    # From configuration: a Host header must not change the sheet (and so its cache key).
    return public_url("teams.show", team_id=team.id)


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
    team = teams.get_team(db.session, team_id)
    paper = paper_of(request.args.get("paper") or team.league.paper_size)
    return _pdf_response(team_roster_pdf(team, url=_team_url(team), paper=paper))


def _commissioners_league(league_id: int) -> League:
    league = leagues.get_league(db.session, league_id)
    if leagues.role_in(league, current_user) != "commissioner":
        abort(403, description=f"Only a commissioner of {league.name} can print the league pack.")
    return league


@bp.get("/leagues/<int:league_id>/rosters")
@login_required
def league_rosters(league_id: int) -> str:
    """The page that offers the league pack, with how long the last build took."""
    league = _commissioners_league(league_id)
    paper = paper_of(request.args.get("paper") or league.paper_size)
    status = pack_status(db.session, league, team_url=_team_url, paper=paper)
    return render_template(
        "printing/rosters.html", league=league, status=status, paper=paper, papers=PAPER_SIZES
    )


@bp.get("/leagues/<int:league_id>/rosters.pdf")
def league_pack(league_id: int) -> Response:
    """Every active team's sheet, in standings order, in one PDF (commissioners only)."""
    league = _commissioners_league(league_id)
    paper = paper_of(request.args.get("paper") or league.paper_size)
    pdf = league_pack_pdf(db.session, league, team_url=_team_url, paper=paper)
    if pdf is None:
        flash(f"{league.name} has no active team to print yet.", "error")
        return redirect(url_for("printing.league_rosters", league_id=league.id))
    return _pdf_response(pdf)
