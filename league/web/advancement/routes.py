"""Advancement pages: choosing, previewing, confirming, rolling and undoing.

The flow works without JavaScript: GET /players/<id>/advance?kind=... lists the
legal choices (``show_choices``); POSTing a choice (``preview_choice``) shows a
confirmation computed without writing (cost, value, TV before and after);
confirming calls the service. Server dice are rolled by the service and kept on
the player until used, so asking again shows the same dice.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import format_number, gettext
from league.models import Advancement, Player
from league.rules import (
    RANDOM_CHARACTERISTIC_KIND,
    RANDOM_SKILL_KINDS,
    Ruleset,
    needs_dice,
    star_player_roll_kind,
)
from league.services import access
from league.services.advancement import PendingRoll, buy_advancement, undo_last_advancement
from league.services.errors import DomainError, Forbidden, RuleViolation
from league.services.labels import player_status_label
from league.services.rosters import team_values
from league.services.submissions import Resubmitted
from league.services.text import ordinal
from league.services.unit_of_work import unit_of_work
from league.web.advancement.text import (
    KIND_LABELS,
    decision_text,
    dice_help,
    dice_text,
    gained_text,
    kind_label,
)
from league.web.advancement.views import (
    ClosedCategory,
    Context,
    RandomCategory,
    Rolled,
    SkillGroup,
    build_request,
    context_for,
    preview,
    random_categories,
    rolled_view,
    skill_groups,
)
from league.web.forms import EmptyForm
from league.web.forms.advancement import AdvanceForm
from league.web.helpers import managed_team, populate_errors, post_step

bp = Blueprint("advancement", __name__)

#: Service error fields and the form field they belong next to.
ERROR_FIELDS = {"skill": "choice", "characteristic": "choice", "kind": None}


def _managed(player_id: int) -> Player:
    player = access.get_player(db.session(), player_id)
    managed_team(player.team_id, "advance")
    return player


def _player_page(player: Player) -> Response:
    return redirect(url_for("teams.player", player_id=player.id, _anchor="advancement"))


def _page_kind(ctx: Context, kind: str | None) -> str | None:
    if ctx.player.pending_roll and not ctx.roll_mode:
        return str(ctx.player.pending_roll["kind"])
    if ctx.roll_mode:
        return None
    return kind


def _pending_rolled(ctx: Context) -> Rolled | None:
    pending = ctx.player.pending_roll
    if not pending:
        return None
    kind = str(pending.get("kind"))
    try:
        return rolled_view(ctx, kind, pending.get("category"), tuple(pending["dice"]), "server")
    except RuleViolation:
        return None


def _render_choose(
    player: Player, form: AdvanceForm, status: int = 200, rolled: Rolled | None = None
) -> tuple[str, int]:
    ctx = context_for(player)
    kind = _page_kind(ctx, form.kind.data)
    rolled = rolled or _pending_rolled(ctx)
    groups: tuple[SkillGroup, ...] = ()
    closed: tuple[ClosedCategory, ...] = ()
    categories: tuple[RandomCategory, ...] = ()
    if kind and not needs_dice(ctx.ruleset, kind):
        groups, closed = skill_groups(ctx, kind)
    elif kind in RANDOM_SKILL_KINDS:
        categories = random_categories(ctx, kind)
    # Classic: the Star Player Roll's normal kind stands for the roll.
    option_kind = star_player_roll_kind(ctx.ruleset, ctx.state, None) if ctx.roll_mode else kind
    return render_template(
        "advancement/choose.html",
        ctx=ctx,
        kind=kind,
        option=ctx.option(option_kind) if option_kind else None,
        form=form,
        rolled=rolled,
        groups=groups,
        closed=closed,
        categories=categories,
        label=kind_label(ctx.ruleset, kind) if kind else gettext("Star Player Roll"),
        nth=ordinal(ctx.number),
        table_dice=ctx.team.league.table_dice_allowed,
        needs_dice=needs_dice(ctx.ruleset, kind or ""),
        # What the page shows for dice kinds: categories to roll on, the D16 table.
        rolls_on_category=kind in RANDOM_SKILL_KINDS,
        characteristic_table=(
            ctx.ruleset.characteristic_table if kind == RANDOM_CHARACTERISTIC_KIND else None
        ),
        dice_help=dice_help(ctx.ruleset, kind),
        kind_label=kind_label,
        decision_text=decision_text,
    ), status


def _known_kind(ctx: Context, kind: str | None) -> None:
    if ctx.roll_mode or ctx.player.pending_roll:
        return
    if kind not in KIND_LABELS or ctx.option(kind) is None:
        abort(
            404,
            description=gettext(
                "%(ruleset)s offers no such advancement.", ruleset=ctx.ruleset.name
            ),
        )


def _cannot_advance(player: Player) -> Response:
    """Back to the page of a player who has left the roster, saying why."""
    flash(
        gettext(
            "%(name)s is %(status)s and cannot advance.",
            name=player.name,
            status=player_status_label(player.status),
        ),
        "error",
    )
    return _player_page(player)


@bp.get("/players/<int:player_id>/advance")
@login_required
def show_choices(player_id: int) -> Response | tuple[str, int]:
    player = _managed(player_id)
    if not player.on_roster:
        return _cannot_advance(player)
    form = AdvanceForm(formdata=None)
    kind = request.args.get("kind")
    ctx = context_for(player)
    if not kind and not ctx.roll_mode and not player.pending_roll:
        return _player_page(player)
    _known_kind(ctx, kind)
    form.kind.data = _page_kind(ctx, kind) or ""
    return _render_choose(player, form)


def _show_error(form: AdvanceForm, error: DomainError) -> None:
    populate_errors(form, error, lambda path: ERROR_FIELDS.get(path, path))


@bp.post("/players/<int:player_id>/advance")
@login_required
def preview_choice(player_id: int) -> Response | tuple[str, int]:
    """The coach's choice: the next sub-choice, errors next to the fields, or the confirmation."""
    player = _managed(player_id)
    if not player.on_roster:
        return _cannot_advance(player)
    form = AdvanceForm()
    if not form.validate_on_submit():
        return _render_choose(player, form, 400)
    ctx = context_for(player)
    try:
        result = preview(ctx, form)
    except RuleViolation as error:
        _show_error(form, error)
        rolled = _rolled_for_errors(ctx, form, error)
        return _render_choose(player, form, 400, rolled)
    if isinstance(result, Rolled):
        return _render_choose(player, form, 200, result)
    return render_template(
        "advancement/confirm.html",
        ctx=ctx,
        preview=result,
        form=form,
    ), 200


def _rolled_for_errors(ctx: Context, form: AdvanceForm, error: DomainError) -> Rolled | None:
    """Keep showing the rolled choice when the error is about the choice, not the dice."""
    if error.field != "choice" or ctx.player.pending_roll:
        return None
    try:
        wanted, source = build_request(ctx, form)
        if wanted.dice is None:
            return None
        return rolled_view(ctx, wanted.kind, wanted.category, wanted.dice, source)
    except RuleViolation:
        return None


@post_step(bp, "/players/<int:player_id>/advance/confirm", "advancement.show_choices")
@login_required
def confirm(player_id: int) -> Response | tuple[str, int]:
    player = _managed(player_id)
    form = AdvanceForm()
    if not form.validate_on_submit():
        return _render_choose(player, form, 400)
    ctx = context_for(player)
    name = player.name
    try:
        wanted, _ = build_request(ctx, form)
        with unit_of_work() as session:
            # The confirmation names the advancement it is for: a second click finds it taken.
            result = buy_advancement(
                session, current_user, player_id, wanted, number=form.number.data or None
            )
            message = _done_message(ctx, name, result)
    except Resubmitted as repeat:
        flash(repeat.message, "info")
        return _player_page(player)
    except DomainError as error:
        if isinstance(error, Forbidden):
            raise
        return _refused_purchase(player_id, form, error)
    if isinstance(result, PendingRoll):
        flash(message, "info")
        return redirect(url_for("advancement.show_choices", player_id=player_id))
    flash(message, "success")
    return _player_page(player)


def _refused_purchase(
    player_id: int, form: AdvanceForm, error: DomainError
) -> Response | tuple[str, int]:
    """The choices again with the refusal; a player no longer on the roster has none."""
    db.session.expire_all()
    player = access.get_player(db.session(), player_id)
    _show_error(form, error)
    if not player.on_roster:
        flash(error.message, "error")
        return _player_page(player)
    return _render_choose(player, form, 400, _rolled_for_errors(context_for(player), form, error))


def _done_message(ctx: Context, name: str, result: Advancement | PendingRoll) -> str:
    if isinstance(result, PendingRoll):
        return gettext(
            "The server rolled %(dice)s for %(name)s. Now pick what the dice allow.",
            dice=dice_text(result.dice),
            name=name,
        )
    args = {
        "name": name,
        "gained": gained_text(result, ctx.ruleset),
        "dice": dice_text(result.dice) if result.dice else "",
        "nth": ordinal(result.number),
        "spp": result.spp_cost,
        "value": format_number(result.value_increase),
    }
    if result.dice and ctx.roll_mode:
        return gettext(
            "%(name)s took %(gained)s (dice %(dice)s) as his %(nth)s advancement: "
            "value +%(value)s.",
            **args,
        )
    if result.dice:
        return gettext(
            "%(name)s took %(gained)s (dice %(dice)s) as his %(nth)s advancement: "
            "\u2212%(spp)s SPP, value +%(value)s.",
            **args,
        )
    if ctx.roll_mode:
        return gettext(
            "%(name)s took %(gained)s as his %(nth)s advancement: value +%(value)s.", **args
        )
    return gettext(
        "%(name)s took %(gained)s as his %(nth)s advancement: \u2212%(spp)s SPP, value +%(value)s.",
        **args,
    )


@bp.route("/players/<int:player_id>/advance/undo", methods=["GET", "POST"])
@login_required
def undo(player_id: int) -> Response | str:
    player = _managed(player_id)
    active = player.active_advancements
    if not active:
        flash(gettext("%(name)s has no advancement to undo.", name=player.name), "error")
        return _player_page(player)
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                undone = undo_last_advancement(session, current_user, player_id)
                message = _undone_message(undone, access.team_ruleset(player.team))
        except DomainError as error:
            # A coach refused an undo (his team has played since) is told why, on the page.
            flash(error.message, "error")
        else:
            flash(message, "success")
        return _player_page(access.get_player(db.session(), player_id))
    ctx = context_for(player)
    explanation = _undo_explanation(ctx, active[-1])
    return render_template("advancement/undo.html", ctx=ctx, explanation=explanation, form=form)


def _undone_message(undone: Advancement, ruleset: Ruleset) -> str:
    message = gettext(
        "Undid %(gained)s: %(spp)s SPP back, value \u2212%(value)s.",
        gained=gained_text(undone, ruleset),
        spp=undone.spp_cost,
        value=format_number(undone.value_increase),
    )
    if undone.dice_roll is not None:
        message += " " + gettext(
            "The server's dice (%(dice)s) are kept: the next advancement of that kind uses them.",
            dice=dice_text(undone.dice_roll.dice),
        )
    return message


def _undo_explanation(ctx: Context, last: Advancement) -> str:
    """What undoing `last` gives back, and what becomes of the server's dice it used."""
    tv = team_values(ctx.team).team_value
    args = {
        "name": ctx.player.name,
        "gained": gained_text(last, ctx.ruleset),
        "nth": ordinal(last.number),
        "spp": last.spp_cost,
        "value": format_number(last.value_increase),
        "tv": format_number(tv),
        "after": format_number(tv - last.value_increase),
    }
    explanation = (
        gettext(
            "%(name)s gives up %(gained)s (his %(nth)s advancement): %(spp)s SPP come back, "
            "value \u2212%(value)s, TV %(tv)s \u2192 %(after)s.",
            **args,
        )
        if last.spp_cost
        else gettext(
            "%(name)s gives up %(gained)s (his %(nth)s advancement): "
            "value \u2212%(value)s, TV %(tv)s \u2192 %(after)s.",
            **args,
        )
    )
    if last.dice_roll is None:
        return explanation
    dice = dice_text(last.dice_roll.dice)
    return (
        explanation
        + " "
        + (
            gettext(
                "The server's dice (%(dice)s) are not rolled again: "
                "they wait for his next Star Player Roll.",
                dice=dice,
            )
            if ctx.roll_mode
            else gettext(
                "The server's dice (%(dice)s) are not rolled again: "
                "they wait for his next %(kind)s.",
                dice=dice,
                kind=kind_label(ctx.ruleset, last.kind).lower(),
            )
        )
    )
