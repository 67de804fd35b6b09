"""The pre-match page of a scheduled match, each side's choices, and the match sheet PDF.

Both teams side by side: players available, journeymen, CTV, petty cash, the
treasury each may spend, what each chose so far. Each coach fills in their own
side (a commissioner both); the services decide and check everything.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from league.i18n import current_language, format_number, gettext
from league.models import Match
from league.models.match import SIDES
from league.pdf.match_sheet import match_sheet_pdf
from league.security import limiter
from league.services import access, pregame
from league.services.errors import DomainError
from league.services.pregame import PregameView, SideView
from league.services.unit_of_work import unit_of_work
from league.web.forms.pregame import PregameForm, pregame_form
from league.web.helpers import flash_refusal, post_step

bp = Blueprint("pregame", __name__)


@dataclass(frozen=True, slots=True)
class SidePanel:
    """One side of the page: the service's view, its chosen stars, and its form (if any)."""

    view: SideView
    name: str
    stars: tuple[pregame.ChosenStar, ...]
    form: PregameForm | None


def _form(match: Match, view: SideView, formdata: object = None) -> PregameForm:
    team = view.facts.team
    text = view.facts.ruleset.text(current_language())
    return pregame_form(
        pregame.side_offer(team),
        [(p.id, text.position_name(p.name)) for p in view.journeyman_positions],
        view.facts.journeymen_needed,
        pregame.saved_choices(view.saved),
        text=text,
        prefix=view.side,
        formdata=formdata,
    )


def _panels(
    match: Match, view: PregameView, posted: tuple[str, PregameForm] | None = None
) -> list[SidePanel]:
    panels = []
    for side in (view.home, view.away):
        form = None
        if pregame.may_choose(match, side.side, current_user):
            if posted is not None and posted[0] == side.side:
                form = posted[1]
            else:
                form = _form(match, side)
        panels.append(
            SidePanel(side, side.facts.team.name, pregame.chosen_stars(view, side.side), form)
        )
    return panels


def _render(
    match: Match,
    view: PregameView,
    posted: tuple[str, PregameForm] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    return render_template(
        "pregame/show.html",
        match=match,
        view=view,
        stage=pregame.stage(match, view),
        panels=_panels(match, view, posted),
        gap=abs(view.home.ctv - view.away.ctv),
        pregame_lines=pregame.item_lines,
    ), status


def _load(match_id: int) -> tuple[Match, PregameView]:
    try:
        return pregame.get_pregame(db.session(), match_id)
    except DomainError as error:
        if error.code == "no_pregame":
            abort(404, error.message)
        raise


@bp.get("/matches/<int:match_id>/pregame")
def show(match_id: int) -> tuple[str, int]:
    match, view = _load(match_id)
    return _render(match, view)


@post_step(bp, "/matches/<int:match_id>/pregame/<side>", "pregame.show")
@login_required
def choose(match_id: int, side: str) -> tuple[str, int] | Response:
    if side not in SIDES:
        abort(404)
    match, view = _load(match_id)
    side_view = view.home if side == "home" else view.away
    if match.state != "scheduled":
        flash(gettext("The pre-game is chosen before the result is recorded."), "error")
        return redirect(url_for("pregame.show", match_id=match.id))
    access.may_manage_team(side_view.facts.team, current_user, "pregame").require()
    form = _form(match, side_view, request.form)
    if not form.validate():
        return _render(match, view, (side, form), 400)
    try:
        with unit_of_work() as session:
            saved = pregame.record_side(session, current_user, match.id, side, form.choices())
            total = saved.total
    except DomainError as error:
        return _refused_choice(match_id, side, form, error)
    flash(
        gettext(
            "Pre-game of %(team)s saved: %(gold)s of inducements.",
            team=side_view.facts.team.name,
            gold=format_number(total),
        ),
        "success",
    )
    return redirect(url_for("pregame.show", match_id=match.id))


def _refused_choice(
    match_id: int, side: str, form: PregameForm, error: DomainError
) -> tuple[str, int] | Response:
    """A choice the rules refuse: the form again with the reason next to its group. One
    overtaken by another change (the result recorded meanwhile): back to the page."""
    if error.code in ("conflict", "concurrent_change"):
        flash_refusal(error)
        return redirect(url_for("pregame.show", match_id=match_id))
    db.session.rollback()
    match, view = _load(match_id)
    form.refuse(error)
    return _render(match, view, (side, form), 422)


@bp.get("/matches/<int:match_id>/sheet.pdf")
@limiter.limit(
    lambda: current_app.config["PDF_RENDER_LIMIT"],
    exempt_when=lambda: current_user.is_authenticated,
)
def sheet(match_id: int) -> Response:
    """The match sheet: one page per team, both rosters, journeymen, inducements (public).

    Rendered on every request (about a second of CPU): signed-out visitors get
    PDF_RENDER_LIMIT renders per address, as for the roster sheets.
    """
    match, view = _load(match_id)
    pdf = match_sheet_pdf(match, view)
    response = Response(pdf.data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{pdf.filename}"'
    return response
