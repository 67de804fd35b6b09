"""Team pages: the roster on screen, the draft, hiring and firing, staff, treasury."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.i18n import format_number, gettext, ngettext
from league.models import Player, Team
from league.rules.refusals import an_item
from league.services import access, matched_play, roster_approval, teams
from league.services.access import active_members
from league.services.errors import DomainError
from league.services.labels import player_status_label
from league.services.matches import player_history
from league.services.rosters import team_page_version, team_sheet
from league.services.submissions import Resubmitted
from league.services.text import isolated
from league.services.unit_of_work import unit_of_work
from league.web.forms import ConfirmStepForm, EmptyForm, FlaskForm
from league.web.forms.identity import LogoForm, colours_form
from league.web.forms.teams import (
    CoachForm,
    GiveBackForm,
    HireForm,
    ItemForm,
    PlayerForm,
    TreasuryForm,
)
from league.web.helpers import (
    flash_refusal,
    form_action,
    managed_team,
    page_link,
    populate_errors,
    post_step,
    team_variant,
)

bp = Blueprint("teams", __name__)


def render_team(team: Team, status: int = 200, **forms: Any) -> tuple[str, int]:
    forms.setdefault("hire_form", HireForm())
    forms.setdefault("treasury_form", TreasuryForm())
    forms.setdefault("item_form", ItemForm())
    can_manage = access.may_manage_team(team, current_user)
    forms.setdefault("colours_form", colours_form(team))
    forms.setdefault("logo_form", LogoForm())
    return render_template(
        "teams/show.html",
        sheet=team_sheet(team),
        can_manage=can_manage,
        # Hiring, firing, staff: not while the roster is locked for the event.
        can_change=can_manage and access.may_change_roster(team, current_user),
        approval=roster_approval.approval_of(team),
        commissioner=access.may_commission(team.league, current_user),
        next_number=teams.next_free_number(team),
        ledger=teams.ledger_page(db.session(), team, request.args.get("ledger", type=int)),
        page_link=page_link,
        action_form=EmptyForm(),
        **forms,
    ), status


@bp.route("/teams/<int:team_id>")
def show(team_id: int) -> str | Response:
    def render() -> str:
        return render_team(access.get_team(db.session(), team_id, ledger=False))[0]

    if caching.anonymous_and_plain():
        # The same page for every signed-out visitor: fingerprinted, 304 or cached.
        version = team_page_version(db.session(), team_id)
        if version is not None:
            return caching.cached_response(f"team:{request.full_path}", version, render)
    return caching.revision_cached(render, lambda: team_variant(team_id))


@bp.get("/teams/<int:team_id>/matched-play")
def matched_play_check(team_id: int) -> str:
    """The tournament roster check: the team against its league's matched-play rules."""
    try:
        result = matched_play.check_team(db.session(), team_id)
    except DomainError as error:
        if error.code == "matched_play_off":
            abort(404, description=error.message)
        raise
    return render_template("teams/matched_play.html", result=result, team=result.team)


@dataclass(frozen=True, slots=True)
class Question:
    """What a confirmation page asks before a step that cannot be taken back."""

    question: str
    explanation: str
    button: str


def _ask_first(team: Team, form: FlaskForm, question: Question) -> str:
    """The confirmation page: nothing is written until its button is pressed."""
    return render_template(
        "teams/confirm.html",
        team=team,
        form=form,
        question=question.question,
        explanation=question.explanation,
        button=question.button,
    )


def _team_action(
    team_id: int,
    form: Any,
    action: Callable[..., Any],
    success: str,
    ask: Callable[[Team], Question] | None = None,
) -> str | Response:
    """POST handlers that only flash: run `action(session)`, report, back to the team.

    With `ask`, a post that is not yet confirmed gets the confirmation page instead.
    """
    team = access.get_team(db.session(), team_id)
    if not form.validate_on_submit():
        abort(400, description=gettext("The form was incomplete."))
    ask_now = ask if ask is not None and not form.is_confirmed else None
    if ask_now:
        access.may_manage_team(team, current_user, "any").require()
    try:
        if ask_now:
            # `ask` raises the refusal of a step that cannot happen rather than ask about it.
            return _ask_first(team, form, ask_now(team))
        with unit_of_work() as session:
            action(session)
    except Resubmitted as repeat:
        flash(repeat.message, "info")
    except DomainError as error:
        flash_refusal(error)
    else:
        flash(success, "success")
    return redirect(url_for("teams.show", team_id=team_id))


@post_step(bp, "/teams/<int:team_id>/hire", "teams.show")
@login_required
def hire(team_id: int) -> Response | tuple[str, int]:
    team = managed_team(team_id, "hire")
    form = HireForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                player = teams.hire_player(
                    session, current_user, team_id, form.command(), form_token=form.token.data
                )
        except Resubmitted as repeat:
            flash(repeat.message, "info")
            return redirect(url_for("teams.show", team_id=team_id, _anchor="hire"))
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(
                gettext(
                    "Hired #%(number)s %(name)s.",
                    number=player.number,
                    name=isolated(player.name),
                ),
                "success",
            )
            return redirect(url_for("teams.show", team_id=team_id, _anchor="hire"))
    db.session.expire_all()
    return render_team(access.get_team(db.session(), team.id), 400, hire_form=form)


def _item_name(item: str | None) -> str:
    return an_item(item) if item in teams.ITEM_NAMES else gettext("an item")


@post_step(bp, "/teams/<int:team_id>/buy", "teams.show")
@login_required
def buy(team_id: int) -> str | Response:
    form = ItemForm()
    return _team_action(
        team_id,
        form,
        lambda session: teams.buy_team_item(
            session, current_user, team_id, form.item.data or "", form_token=form.token.data
        ),
        gettext("Bought %(item)s.", item=_item_name(form.item.data)),
    )


def _give_back_question(team: Team, item: str) -> Question:
    price = teams.item_price(team, item)
    return Question(
        gettext("Give back %(item)s?", item=an_item(item)),
        gettext(
            "%(team)s gives back %(item)s and its %(price)s gold returns to the treasury "
            "(%(before)s \u2192 %(after)s). It can be bought back at the same price only "
            "while the draft lasts.",
            team=team.name,
            item=an_item(item),
            price=format_number(price),
            before=format_number(team.treasury),
            after=format_number(team.treasury + price),
        ),
        gettext("Yes, give it back"),
    )


@post_step(bp, "/teams/<int:team_id>/give-back", "teams.show")
@login_required
def give_back(team_id: int) -> str | Response:
    form = GiveBackForm()
    return _team_action(
        team_id,
        form,
        lambda session: teams.undo_draft_item(
            session, current_user, team_id, form.item.data or "", form_token=form.token.data
        ),
        gettext("Gave back %(item)s.", item=_item_name(form.item.data)),
        ask=lambda team: _give_back_question(team, form.item.data or ""),
    )


def _confirm_draft_question(team: Team) -> Question:
    refusal = teams.confirm_refusal(team)
    if refusal:
        raise refusal
    during_draft, after_draft = teams.reroll_prices(team)
    players = len(access.roster(team))
    return Question(
        gettext("Confirm the draft of %(team)s?", team=team.name),
        ngettext(
            "%(team)s starts with %(num)s player and %(gold)s gold. Prices are fixed from "
            "then on: a team re-roll costs %(after)s instead of %(during)s, dedicated fans "
            "can no longer be bought, nothing can be given back, and a player let go is "
            "fired without a refund. This cannot be undone.",
            "%(team)s starts with %(num)s players and %(gold)s gold. Prices are fixed from "
            "then on: a team re-roll costs %(after)s instead of %(during)s, dedicated fans "
            "can no longer be bought, nothing can be given back, and a player let go is "
            "fired without a refund. This cannot be undone.",
            players,
            team=team.name,
            gold=format_number(team.treasury),
            after=format_number(after_draft),
            during=format_number(during_draft),
        ),
        gettext("Yes, confirm the draft"),
    )


@post_step(bp, "/teams/<int:team_id>/confirm", "teams.show")
@login_required
def confirm(team_id: int) -> str | Response:
    return _team_action(
        team_id,
        ConfirmStepForm(),
        lambda session: teams.confirm_draft(session, current_user, team_id),
        gettext("The draft is confirmed: the team is ready to play."),
        ask=_confirm_draft_question,
    )


def _treasury_question(team: Team, form: TreasuryForm) -> Question:
    amount = form.amount.data or 0
    refusal = teams.adjustment_refusal(team, amount, form.reason.data or "")
    if refusal:
        raise refusal  # not asked about: it cannot be made anyway
    return Question(
        gettext("Adjust the treasury of %(team)s?", team=team.name),
        gettext(
            "%(amount)s gold (%(reason)s): the treasury goes from %(before)s to %(after)s. "
            "The entry stays in the ledger for good; a mistake is put right by another "
            "adjustment.",
            amount=("+" if amount >= 0 else "") + format_number(amount),
            reason=form.reason.data,
            before=format_number(team.treasury),
            after=format_number(team.treasury + amount),
        ),
        gettext("Yes, adjust the treasury"),
    )


@post_step(bp, "/teams/<int:team_id>/treasury", "teams.show")
@login_required
def adjust_treasury(team_id: int) -> str | Response | tuple[str, int]:
    team = access.get_team(db.session(), team_id)
    access.may_commission(team.league, current_user, "treasury").require()
    form = TreasuryForm()
    if form.validate_on_submit():
        try:
            if not form.is_confirmed:
                return _ask_first(team, form, _treasury_question(team, form))
            with unit_of_work() as session:
                teams.adjust_treasury(
                    session,
                    current_user,
                    team_id,
                    form.amount.data or 0,
                    form.reason.data or "",
                    form_token=form.token.data,
                )
        except Resubmitted as repeat:
            flash(repeat.message, "info")
            return redirect(url_for("teams.show", team_id=team_id, _anchor="ledger"))
        except DomainError as error:
            # "Not enough gold" names no field: it is about the amount.
            populate_errors(form, error, lambda field: field or "amount")
        else:
            flash(gettext("Treasury adjusted."), "success")
            return redirect(url_for("teams.show", team_id=team_id, _anchor="ledger"))
    db.session.expire_all()
    return render_team(access.get_team(db.session(), team.id), 400, treasury_form=form)


@bp.route("/teams/<int:team_id>/coach", methods=["GET", "POST"])
@login_required
def reassign(team_id: int) -> Response | tuple[str, int]:
    """A commissioner hands the team to another member of the league."""
    team = access.get_team(db.session(), team_id)
    access.may_commission(team.league, current_user, "hand_over_team").require()
    members = [
        m.user.username
        for m in active_members(team.league)
        # A team without a coach may go back to its former coach, if a member again.
        if m.user_id != team.coach_id or team.coachless_since is not None
    ]
    form = CoachForm(members=sorted(members, key=str.lower))
    message = form_action(
        form,
        lambda session: _handed_message(
            teams.reassign_team(session, current_user, team_id, form.coach.data or "")
        ),
    )
    if message is not None:
        flash(message, "success")
        return redirect(url_for("teams.show", team_id=team_id))
    status = 400 if form.is_submitted() else 200
    return render_template("teams/coach.html", team=team, form=form), status


def _handed_message(team: Team) -> str:
    return gettext(
        "%(team)s is now coached by %(coach)s.", team=team.name, coach=team.coach.username
    )


def _render_player(
    player: Player, form: PlayerForm, status: int = 200, team: Team | None = None
) -> tuple[str, int]:
    from league.web.advancement import panel_for  # the advancement blueprint's panel

    team = team or access.get_team(db.session(), player.team_id, ledger=False)
    sheet = team_sheet(team)
    line = next(line for line in [*sheet.lines, *sheet.former] if line.player.id == player.id)
    return render_template(
        "teams/player.html",
        sheet=sheet,
        line=line,
        form=form,
        history=player_history(db.session(), player, request.args.get("matches", type=int)),
        page_link=page_link,
        # Editing, firing: not while the roster is locked for the event.
        can_manage=access.may_change_roster(team, current_user) and player.on_roster,
        advancement=panel_for(player, team),
        undo_form=EmptyForm(),
    ), status


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> str | Response:
    def render() -> str:
        player, team = access.get_player_and_team(db.session(), player_id)
        return _render_player(player, PlayerForm(obj=player), team=team)[0]

    return caching.revision_cached(render, lambda: team_variant(player_id=player_id))


@post_step(bp, "/players/<int:player_id>/edit", "teams.player")
@login_required
def edit_player(player_id: int) -> Response | tuple[str, int]:
    player = access.get_player(db.session(), player_id)
    managed_team(player.team_id, "edit_player")
    form = PlayerForm()
    renamed = form_action(
        form,
        lambda session: teams.rename_player(
            session, current_user, player_id, form.name.data or "", form.number.data or 0
        ),
    )
    if renamed is not None:
        flash(gettext("Player saved."), "success")
        return redirect(url_for("teams.player", player_id=player_id))
    db.session.expire_all()
    return _render_player(access.get_player(db.session(), player.id), form, 400)


def _confirm_player_action(
    player_id: int,
    question: Callable[[Player], tuple[str, str]],
    action: Callable[..., Any],
    explanation: str,
    success: str,
) -> str | Response:
    """Fire, remove or retire a player, asked first: ``question`` gives the page's title
    and its button for the player."""
    player = access.get_player(db.session(), player_id)
    team = managed_team(player.team_id, "any")
    if not player.on_roster:
        flash(
            gettext(
                "%(name)s is no longer on the roster (%(status)s).",
                name=player.name,
                status=player_status_label(player.status),
            ),
            "error",
        )
        return redirect(url_for("teams.show", team_id=team.id, _anchor="roster"))
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                action(session)
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash(success, "success")
        return redirect(url_for("teams.show", team_id=team.id, _anchor="roster"))
    title, button = question(player)
    return _ask_first(team, form, Question(title, explanation, button))


@bp.route("/players/<int:player_id>/fire", methods=["GET", "POST"])
@login_required
def fire(player_id: int) -> str | Response:
    player = access.get_player(db.session(), player_id)
    in_draft = access.get_team(db.session(), player.team_id).status == "draft"
    question, explanation, success = _firing_texts(player, in_draft)
    return _confirm_player_action(
        player_id,
        question,
        lambda session: teams.fire_player(session, current_user, player_id),
        explanation,
        success,
    )


def _firing_texts(
    player: Player, in_draft: bool
) -> tuple[Callable[[Player], tuple[str, str]], str, str]:
    """Firing asked first: the question and its button, the explanation, the message after.
    A player of a team still in its draft is removed and his price refunded."""
    label = f"#{player.number} {isolated(player.name)}"
    if in_draft:
        cost = format_number(player.cost)
        return (
            lambda p: (
                gettext("Remove %(name)s?", name=p.name),
                gettext("Yes, remove %(name)s", name=p.name),
            ),
            gettext(
                "%(player)s leaves the draft and the %(gold)s gold comes back.",
                player=label,
                gold=cost,
            ),
            gettext(
                "Removed %(player)s from the draft; %(gold)s gold refunded.",
                player=label,
                gold=cost,
            ),
        )
    return (
        lambda p: (
            gettext("Fire %(name)s?", name=p.name),
            gettext("Yes, fire %(name)s", name=p.name),
        ),
        gettext(
            "%(player)s is fired: he leaves the roster for good and nothing is refunded. "
            "His record stays in the team's history.",
            player=label,
        ),
        gettext("Fired %(player)s; he is listed under former players.", player=label),
    )


@bp.route("/players/<int:player_id>/retire", methods=["GET", "POST"])
@login_required
def retire(player_id: int) -> str | Response:
    player = access.get_player(db.session(), player_id)
    label = f"#{player.number} {isolated(player.name)}"
    return _confirm_player_action(
        player_id,
        lambda p: (
            gettext("Retire %(name)s?", name=p.name),
            gettext("Yes, retire %(name)s", name=p.name),
        ),
        lambda session: teams.retire_player(session, current_user, player_id),
        gettext(
            "%(player)s retires: he leaves the roster and his record stays in history.",
            player=label,
        ),
        gettext("%(player)s has retired; he is listed under former players.", player=label),
    )
