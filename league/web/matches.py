"""Match pages: schedule a match, enter (keep unfinished, finalise, correct) its result,
show it, void it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from league.extensions import db
from league.models import Match, MatchPlayer, MatchTeam, Player, Team
from league.rules import Dice, RulesError, Ruleset, expensive_mistake_column
from league.services import matches
from league.services.errors import DomainError
from league.services.leagues import get_league, league_ruleset, role_in
from league.services.matches import ReportErrors
from league.services.submissions import Resubmitted
from league.services.teams import can_manage, roster, team_type_of
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.matches import (
    COUNTER_LABELS,
    NewMatchForm,
    PlayerSlot,
    ReportForm,
    ReportLayout,
    field_name,
    report_form,
    stray_player_lines,
)
from league.web.helpers import flash_refusal, populate_errors

bp = Blueprint("matches", __name__)

EFFECT_NOTES = {
    "badly_hurt": "no lasting effect",
    "mng": "misses next game",
    "niggling": "niggling injury, misses next game",
    "lasting": "misses next game",
    "dead": "dead",
}
MISTAKE_NAMES = {
    "crisis_averted": "Crisis averted",
    "minor": "Minor incident",
    "major": "Major incident",
    "catastrophe": "Catastrophe",
}


def _is_commissioner(match: Match) -> bool:
    return role_in(match.league, current_user) == "commissioner"


def _may_edit(match: Match) -> bool:
    """The two coaches and the commissioners may work on an unfinished report."""
    return any(can_manage(side.team, current_user) for side in match.sides)


# ---------------------------------------------------------------------------
# What the report form offers


def injury_label(ruleset: Ruleset, code: str) -> str:
    """ "Seriously Hurt (misses next game)"; classic codes cover several D68 results."""
    results = [r for r in ruleset.casualty_table.results if r.code == code]
    if not results:
        return code.replace("_", " ").capitalize()
    first = results[0]
    name = first.name if len(results) == 1 else code.replace("_", " ").capitalize()
    note = EFFECT_NOTES.get(first.effect, first.effect)
    if first.effect == "lasting":
        note = f"\u22121 characteristic, {note}"
    return f"{name} ({note})"


def _injury_choices(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    codes = list(dict.fromkeys(r.code for r in ruleset.casualty_table.results))
    return tuple((code, injury_label(ruleset, code)) for code in codes)


def _lasting_codes(ruleset: Ruleset) -> tuple[str, ...]:
    codes = []
    for code, _ in _injury_choices(ruleset):
        first = next(r for r in ruleset.casualty_table.results if r.code == code)
        if first.effect == "lasting":  # classic fixes the characteristic per D68 row
            codes.append(code)
    return tuple(codes)


def _characteristic_choices(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    names: dict[str, list[str]] = {}
    for row in ruleset.lasting_injuries:
        names.setdefault(row.characteristic, []).append(row.name)
    return tuple(
        (c, f"{c.upper()} ({', '.join(names[c])})" if c in names else c.upper())
        for c in ruleset.characteristics
    )


def _counters(ruleset: Ruleset, match: Match) -> tuple[str, ...]:
    """TD, CAS, COMP, INT always; the others where the ruleset pays SPP for them."""
    awards = ruleset.spp.awards
    shown = ["td", "cas", "comp", "interceptions"]
    if awards.get("deflection", 0) or ruleset.edition == "BB2020":
        shown.append("deflection")
    shown.extend(name for name in ("throw_completion", "safe_landing") if awards.get(name, 0))
    # A stored result keeps every counter it has, so a correction loses nothing.
    for name in COUNTER_LABELS:
        if name not in shown and any(getattr(appearance, name) for appearance in match.players):
            shown.append(name)
    return tuple(name for name in COUNTER_LABELS if name in shown)


def _position_name(team: Team, player: Player) -> str:
    try:
        return team_type_of(team).position(player.position_id).name
    except RulesError:
        return player.position_id


def _slots(match: Match) -> tuple[PlayerSlot, ...]:
    played = {appearance.player_id for appearance in match.players}
    slots = []
    for side in match.sides:
        team = side.team
        players = roster(team)
        # Correcting a result: players it killed (or who left since) keep their row.
        players += [p for p in team.players if p.id in played and p not in players]
        for player in sorted(players, key=lambda p: (p.number, p.id)):
            missing = None
            if match.state in ("scheduled", "draft") and player.status == "mng":
                missing = "Misses this match: injured in the previous one."
            slots.append(
                PlayerSlot(
                    id=player.id,
                    side=side.side,
                    number=player.number,
                    name=player.name,
                    position=_position_name(team, player),
                    missing=missing,
                )
            )
    return tuple(slots)


def _layout(match: Match, ruleset: Ruleset) -> ReportLayout:
    formula = ruleset.winnings.formula if ruleset.winnings else None
    return ReportLayout(
        team_names={side.side: side.team.name for side in match.sides},
        players=_slots(match),
        counters=_counters(ruleset, match),
        injuries=_injury_choices(ruleset),
        lasting_codes=_lasting_codes(ruleset),
        characteristics=_characteristic_choices(ruleset),
        winnings_formula=formula,
        stalling=bool(ruleset.winnings and ruleset.winnings.no_stalling_bonus),
        mistakes=ruleset.expensive_mistakes is not None,
    )


def _stored_result(match: Match) -> dict[str, str]:
    """A played match as form data: the correction form starts from what is stored."""
    data: dict[str, str] = {}
    for side in match.sides:
        data[f"{side.side}_score"] = str(side.score)
        data[f"{side.side}_fans_change"] = str(side.fans_change)
        # Only typed winnings come back typed: computed ones are computed again from the
        # corrected inputs. Expensive Mistakes keep their dice unless new ones are typed.
        if side.winnings_entered:
            data[f"{side.side}_winnings"] = str(side.winnings)
        if side.winnings_d6 is not None:
            data[f"{side.side}_winnings_d6"] = str(side.winnings_d6)
        data[f"{side.side}_fame"] = str(side.fame)
        if side.stalled:
            data[f"{side.side}_stalled"] = "y"
        if side.conceded:
            data["concession"] = side.side
    if match.fan_attendance is not None:
        data["fan_attendance"] = str(match.fan_attendance)
    for appearance in match.players:
        for name in COUNTER_LABELS:
            if getattr(appearance, name):
                data[field_name(appearance.player_id, name)] = str(getattr(appearance, name))
        if appearance.mvp:
            data[field_name(appearance.player_id, "mvp")] = "y"
        if appearance.injury:
            data[field_name(appearance.player_id, "injury")] = appearance.injury
        if appearance.lasting:
            data[field_name(appearance.player_id, "lasting")] = appearance.lasting
        if appearance.apothecary_used:
            data[field_name(appearance.player_id, "apothecary")] = "y"
    return data


# ---------------------------------------------------------------------------
# Scheduling


@bp.route("/leagues/<int:league_id>/matches/new", methods=["GET", "POST"])
@login_required
def new(league_id: int) -> str | Response:
    league = get_league(db.session(), league_id)
    if role_in(league, current_user) != "commissioner":
        abort(403, description=f"Only a commissioner of {league.name} can schedule matches.")
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
            flash("Match scheduled. Enter the result, or save a draft for later.", "success")
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
        commissioner=_is_commissioner(match),
        correcting=match.state == "played",
    ), status


@bp.route("/matches/<int:match_id>/report", methods=["GET", "POST"])
@login_required
def report(match_id: int) -> tuple[str, int] | Response:
    match = matches.get_match(db.session(), match_id)
    if match.state == "voided":
        flash("This match was voided; its result can no longer change.", "warning")
        return redirect(url_for("matches.show", match_id=match_id))
    if not _may_edit(match):
        abort(403, description="Only the two coaches and the commissioners can report this match.")
    commissioner = _is_commissioner(match)
    if match.state == "played" and not commissioner:
        abort(403, description="Only a commissioner can correct a result.")
    layout = _layout(match, league_ruleset(match.league))

    if request.method == "GET":
        stored = _stored_result(match) if match.state == "played" else match.draft_report
        form = report_form(layout, formdata=MultiDict(stored or {}))
        form.token.data = secrets.token_urlsafe(32)
        return _render_report(match, form)

    form = report_form(layout)
    if not form.finalise.data:
        return _save_unfinished_report(match, form)
    if not commissioner:
        abort(403, description="Only a commissioner can finalise a result; save a draft instead.")
    correcting = match.state == "played"
    if form.validate():
        known = {slot.id for slot in layout.players}
        try:
            with unit_of_work() as session:
                recorded = matches.record_result(
                    session,
                    current_user,
                    match_id,
                    form.report(stray_player_lines(request.form, known)),
                    form_token=form.token.data or None,
                )
        except Resubmitted as repeat:
            # The same form sent twice (a double click, a resent page): recorded once.
            flash(repeat.message, "info")
            return redirect(url_for("matches.show", match_id=match_id))
        except ReportErrors as errors:
            form.attach_report_errors(errors.fields)
        except DomainError as error:
            populate_errors(form, error)
        else:
            home, away = recorded.home, recorded.away
            flash(
                f"Result {'corrected' if correcting else 'recorded'}: "
                f"{home.team.name} {home.score}\u2013{away.score} {away.team.name}.",
                "success",
            )
            return redirect(url_for("matches.show", match_id=recorded.id))
    db.session.expire_all()
    return _render_report(matches.get_match(db.session(), match_id), form, 400)


def _save_unfinished_report(match: Match, form: ReportForm) -> Response:
    try:
        with unit_of_work() as session:
            matches.save_unfinished_report(
                session, current_user, match.id, form.unfinished_report()
            )
    except DomainError as error:
        flash_refusal(error)
        return redirect(url_for("matches.show", match_id=match.id))
    flash("Draft saved. Nothing counts until a commissioner finalises the result.", "success")
    return redirect(url_for("matches.report", match_id=match.id))


# ---------------------------------------------------------------------------
# The result


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player_id: int
    number: int
    name: str
    events: str
    injury: str | None
    spp: int


@dataclass(frozen=True, slots=True)
class SideResult:
    side: str
    team: Team
    score: int
    conceded: bool
    winnings: int
    #: How the winnings came about: the formula's working, or "entered by hand".
    winnings_working: str
    fans_change: int
    mistake: str | None
    mistake_loss: int
    #: The dice of the Expensive Mistakes roll and what the table made of them.
    mistake_working: str | None
    players: tuple[PlayerResult, ...]


def _events_text(appearance: MatchPlayer) -> str:
    parts = [
        f"{getattr(appearance, name)} {label}"
        for name, label in COUNTER_LABELS.items()
        if getattr(appearance, name)
    ]
    if appearance.mvp:
        parts.append("MVP" if appearance.mvp == 1 else f"{appearance.mvp} MVP")
    return ", ".join(parts) or "\u2014"


def _winnings_text(ruleset: Ruleset, match: Match, side: MatchTeam) -> str:
    """ "(fan attendance 8 / 2: 4 + 1 TD: 1 + no stalling: 1) x 10,000" or how else they came."""
    if side.conceded:
        return "none: the team conceded"
    if side.winnings_entered:
        return "entered by hand"
    terms = matches.winnings_working(ruleset, match, side)
    if not terms or ruleset.winnings is None:
        return "no formula winnings"
    added = " + ".join(f"{what}: {units}" for what, units in terms)
    return f"({added}) \u00d7 {ruleset.winnings.unit:,}"


def _dice_name(dice: Dice) -> str:
    return f"{dice.count if dice.count > 1 else ''}D{dice.sides}"


def _mistake_text(ruleset: Ruleset, side: MatchTeam) -> str | None:
    """The roll behind an Expensive Mistakes result, die by die, and the table's reading."""
    table = ruleset.expensive_mistakes
    if side.mistake is None or table is None:
        return None
    if side.mistake_d6 is None or side.mistake_treasury is None:
        return "recorded before the dice were kept"
    treasury = side.mistake_treasury
    column = expensive_mistake_column(ruleset, treasury)
    who = "rolled by the server" if side.mistake_rolled else "rolled at the table"
    text = (
        f"treasury {treasury:,}, read in the {column or 0:,}+ column; "
        f"D6 {side.mistake_d6} ({who}): {MISTAKE_NAMES.get(side.mistake, side.mistake)}"
    )
    dice = table.dice_for(side.mistake)
    if dice is not None and side.mistake_roll is not None:
        shown = str(side.mistake_roll)
        if side.mistake_dice and len(side.mistake_dice) > 1:
            shown = f"{' + '.join(str(d) for d in side.mistake_dice)} = {side.mistake_roll}"
        # Only the server's rolls keep each die; a typed roll is its total.
        by = "rolled by the server" if side.mistake_dice is not None else "rolled at the table"
        text += f"; {_dice_name(dice)} {shown} ({by})"
    if side.mistake == "minor" and side.mistake_roll is not None:
        text += f" \u00d7 {table.minor_loss_per_pip:,} lost"
    elif side.mistake == "major":
        text += (
            f"; the treasury / {table.major_divisor}, rounded down to "
            f"{table.major_round_down_to:,}, is lost"
        )
    elif side.mistake == "catastrophe" and side.mistake_roll is not None:
        kept = treasury - side.mistake_loss  # the service worked out the loss
        text += f" \u00d7 {table.catastrophe_kept_per_pip:,} = {kept:,} kept, the rest lost"
    elif side.mistake == "crisis_averted":
        text += ", nothing lost"
    return text


def _side_results(match: Match, ruleset: Ruleset) -> list[SideResult]:
    results = []
    for side in match.sides:
        players = []
        for appearance in match.players:
            if appearance.team_id != side.team_id:
                continue
            injury = None
            if appearance.injury:
                injury = injury_label(ruleset, appearance.injury).split(" (")[0]
                if appearance.lasting:
                    injury += f" (\u22121 {appearance.lasting.upper()})"
                if appearance.apothecary_used:
                    injury += ", apothecary used"
            elif appearance.apothecary_used:
                injury = "Apothecary used"
            players.append(
                PlayerResult(
                    appearance.player_id,
                    appearance.player.number,
                    appearance.player.name,
                    _events_text(appearance),
                    injury,
                    appearance.spp,
                )
            )
        players.sort(key=lambda p: (p.number, p.player_id))
        results.append(
            SideResult(
                side=side.side,
                team=side.team,
                score=side.score,
                conceded=side.conceded,
                winnings=side.winnings,
                winnings_working=_winnings_text(ruleset, match, side),
                fans_change=side.fans_change,
                mistake=MISTAKE_NAMES.get(side.mistake or "", side.mistake),
                mistake_loss=side.mistake_loss,
                mistake_working=_mistake_text(ruleset, side),
                players=tuple(players),
            )
        )
    return results


@bp.get("/matches/<int:match_id>")
def show(match_id: int) -> str:
    match = matches.get_match(db.session(), match_id)
    ruleset = league_ruleset(match.league)
    signed_in = current_user.is_authenticated
    return render_template(
        "matches/show.html",
        match=match,
        sides=_side_results(match, ruleset),
        # A voided fixture's result: the match that plays it again, and the ones voided before.
        replacement=matches.replacement_of(db.session(), match),
        voided_before=matches.voided_before(match),
        commissioner=signed_in and _is_commissioner(match),
        may_report=signed_in and match.state in ("scheduled", "draft") and _may_edit(match),
    )


@bp.route("/matches/<int:match_id>/void", methods=["GET", "POST"])
@login_required
def void(match_id: int) -> str | Response:
    match = matches.get_match(db.session(), match_id)
    if not _is_commissioner(match):
        abort(403, description="Only a commissioner can void a match.")
    if match.state == "voided":
        flash("This match is already voided.", "warning")
        return redirect(url_for("matches.show", match_id=match_id))
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                matches.void_match(session, current_user, match_id)
        except DomainError as error:
            flash_refusal(error, "Nothing changed: ")
        else:
            flash("The match is voided; everything its result caused is undone.", "success")
            again = matches.replacement_of(db.session(), match)
            if again is not None:
                flash("The fixture is still to be played: enter its new result here.", "info")
                return redirect(url_for("matches.show", match_id=again.id))
        return redirect(url_for("matches.show", match_id=match_id))
    return render_template("matches/void.html", match=match, form=form)
