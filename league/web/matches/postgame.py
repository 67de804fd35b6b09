"""After the result is final: hire a journeyman for good, draw the MVP and roll a
conceding team's departures (BB2025). The match page shows a panel per side
(`panels`); the routes below write, each with its form and CSRF."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import format_number, gettext
from league.models import Match, MatchTeam, Player
from league.services import access, matches, postgame
from league.services.access import league_ruleset
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.web.forms.postgame import HireJourneymanForm, MvpDrawForm
from league.web.helpers import flash_refusal, form_action, populate_errors, post_step
from league.web.matches.postgame_views import (
    JourneymanOffer,
    label,
    mvp_choices,
    offers,
    panels,
    side_departures_form,
)
from league.web.matches.routes import bp, render_show

# ---------------------------------------------------------------------------
# Hiring a journeyman for good


def _side_of(match: Match, side_name: str) -> MatchTeam:
    side = next((s for s in match.sides if s.side == side_name), None)
    if side is None:
        abort(404)
    return side


def _managed_side(side: MatchTeam) -> MatchTeam:
    """`side`, once the signed-in user manages its team (its 403 page else)."""
    access.may_manage_team(side.team, current_user, "any").require()
    return side


def _back(match: Match, side_name: str) -> str:
    """The side's panel on the match page."""
    return url_for("matches.show", match_id=match.id, _anchor=f"{side_name}-postgame")


@bp.route("/matches/<int:match_id>/journeymen/<int:player_id>/hire", methods=["GET", "POST"])
@login_required
def hire_journeyman(match_id: int, player_id: int) -> str | Response:
    """Asks first (the price leaves the treasury), then hires him for good."""
    match = matches.get_match(db.session(), match_id)
    player = db.session.get(Player, player_id)
    if player is None or player.match_day_match_id != match.id:
        abort(404)
    side = _managed_side(_journeymans_side(match, player))
    back = _back(match, side.side)
    if match.state != "played":
        flash(gettext("A journeyman is hired after the result is final."), "error")
        return redirect(back)
    offer = next((o for o in offers(match, side) if o.player.id == player.id), None)
    form = HireJourneymanForm(data={"name": player.name})
    if form.validate_on_submit():
        hired = _hire(match, side, player, form, offer)
        if hired is not None:
            return hired
    if offer is None or offer.hired or player.status != "journeyman":
        flash(
            gettext("%(name)s is not a journeyman waiting to be hired.", name=player.name),
            "error",
        )
        return redirect(back)
    if offer.refusals:
        flash(" ".join(offer.refusals), "error")
        return redirect(back)
    return _hire_question(side, player, form, offer.price, back)


def _journeymans_side(match: Match, player: Player) -> MatchTeam:
    side = next((s for s in match.sides if s.team_id == player.team_id), None)
    if side is None:  # pragma: no cover - a match-day player plays for one of the sides
        abort(404)
    return side


def _hire(
    match: Match,
    side: MatchTeam,
    player: Player,
    form: HireJourneymanForm,
    offer: JourneymanOffer | None,
) -> Response | None:
    """Hire him; None when the form gets the refusal (about his name) to show again."""
    try:
        with unit_of_work() as session:
            hired = postgame.hire_journeyman(
                session, current_user, match.id, player.id, name=form.name.data or None
            )
            hired_name = hired.name
    except DomainError as error:
        if error.field != "name":
            flash_refusal(error, gettext("Nothing changed: "))
            return redirect(_back(match, side.side))
        populate_errors(form, error)
        return None
    flash(
        gettext(
            "%(name)s is hired for good, for %(gold)s gold.",
            name=hired_name,
            gold=format_number(offer.price if offer else 0),
        ),
        "success",
    )
    return redirect(url_for("teams.show", team_id=side.team_id, _anchor="roster"))


def _hire_question(
    side: MatchTeam, player: Player, form: HireJourneymanForm, price: int, back: str
) -> str:
    """The page asking first: the price leaves the treasury."""
    return render_template(
        "matches/hire_journeyman.html",
        team=side.team,
        form=form,
        question=gettext("Hire %(name)s for good?", name=player.name),
        explanation=gettext(
            "%(player)s joins %(team)s's roster for %(gold)s gold from the treasury, "
            "keeps his SPP and loses the journeyman's trait.",
            player=label(player),
            team=side.team.name,
            gold=format_number(price),
        ),
        button=gettext("Yes, hire %(name)s", name=player.name),
        cancel_url=back,
    )


# ---------------------------------------------------------------------------
# BB2025: the MVP draw and the departures


@post_step(bp, "/matches/<int:match_id>/mvp/<side_name>", "matches.show")
@login_required
def draw_mvp(match_id: int, side_name: str) -> tuple[str, int] | Response:
    match = matches.get_match(db.session(), match_id)
    side = _managed_side(_side_of(match, side_name))
    back = _back(match, side_name)
    if side.mvp_draw is not None:
        flash(gettext("%(team)s's MVP was drawn already.", team=side.team.name), "error")
        return redirect(back)
    if postgame.reported_mvps(side):
        flash(gettext("The report names the MVP: there is nothing to draw."), "error")
        return redirect(back)
    form = MvpDrawForm(prefix=f"{side.side}-mvp", choices=mvp_choices(side))
    if not match.league.table_dice_allowed:
        del form.die
    die = form.die.data if "die" in form else None
    name = form_action(
        form,
        lambda session: (
            postgame.draw_mvp(
                session, current_user, match.id, side.team_id, form.nominees.data or [], die
            ).player.name
        ),
    )
    if name is not None:
        flash(gettext("%(name)s is the MVP.", name=name), "success")
        return redirect(back)
    return _panel_again(match_id, side_name, "mvp", form)


@post_step(bp, "/matches/<int:match_id>/departures/<side_name>", "matches.show")
@login_required
def departures(match_id: int, side_name: str) -> tuple[str, int] | Response:
    match = matches.get_match(db.session(), match_id)
    side = _managed_side(_side_of(match, side_name))
    if not side.conceded:
        abort(404, description=gettext("%(team)s did not concede this match.", team=side.team.name))
    back = _back(match, side_name)
    if side.departures is not None:
        flash(gettext("%(team)s's departures were rolled already.", team=side.team.name), "error")
        return redirect(back)
    ruleset = league_ruleset(match.league)
    form = side_departures_form(side, ruleset, match.league.table_dice_allowed)
    left = form_action(
        form,
        lambda session: [
            r.player.name
            for r in postgame.concession_departures(session, current_user, match.id, form.dice())
            if r.left
        ],
        # The dice as a whole ("dice") are the form's, above its fields.
        lambda path: None if path == "dice" else path,
    )
    if left is not None:
        flash(_departures_message(left), "success")
        return redirect(back)
    return _panel_again(match_id, side_name, "departures", form)


def _departures_message(left: list[str]) -> str:
    if left:
        return gettext("Departures rolled: %(names)s left.", names=", ".join(left))
    return gettext("Departures rolled: nobody left.")


def _panel_again(match_id: int, side_name: str, panel: str, form: Any) -> tuple[str, int]:
    """The match page again (400) with the side's `panel` ("mvp", "departures") form and
    its errors."""
    db.session.expire_all()
    match = matches.get_match(db.session(), match_id)
    return render_show(match, panels(match, {(side_name, panel): form}), 400)
