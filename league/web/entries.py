"""The organiser's tournament pages: entries (add, club and rating, drop and take back),
swapping two pairings before a round starts, and a first round paired by hand."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext, ngettext
from league.models import League, Team
from league.services import access, entries
from league.web.forms.entries import (
    DropForm,
    EntryDetailsForm,
    NewEntryForm,
    SwapForm,
    manual_round_form,
)
from league.web.helpers import button_action, commissioners_league, form_action, post_step

bp = Blueprint("entries", __name__, url_prefix="/leagues/<int:league_id>/entries")

#: How each broken constraint reads on the pages.
CONSTRAINT_WORDS = {
    "rematch": lambda: gettext("a rematch (the two have met already)"),
    "same_club": lambda: gettext("two entries of one club or nation"),
    "same_coach": lambda: gettext("a coach against their own second entry"),
}


def constraint_words(broken: tuple[str, ...]) -> list[str]:
    return [CONSTRAINT_WORDS[name]() for name in broken]


def _new_entry_form(league: League, listed: list[Team]) -> NewEntryForm:
    return NewEntryForm(
        teams=[(t.id, t.name) for t in listed],
        team_types=sorted(access.league_ruleset(league).team_types, key=lambda t: t.name),
        coaches=sorted((m.user.username for m in access.active_members(league)), key=str.lower),
    )


@bp.route("", methods=["GET", "POST"])
@login_required
def index(league_id: int) -> str | Response | tuple[str, int]:
    """The league's entries, and the form that adds one (organiser)."""
    league = commissioners_league(league_id)
    session = db.session()
    listed = entries.entries_of(session, league)
    form = _new_entry_form(league, listed)
    added = form_action(
        form,
        lambda session: entries.add_entry(
            session,
            current_user,
            entries.NewEntry(
                league_id,
                team_id=form.team_id.data or None,
                name=form.name.data or None,
                team_type_id=form.team_type_id.data or None,
                coach=form.coach.data or None,
                club=form.club.data or None,
                seed_rating=form.seed_rating.data,
            ),
        ),
    )
    if added is not None:
        flash(gettext("%(team)s is entered.", team=added.name), "success")
        return redirect(url_for("entries.index", league_id=league_id))
    rounds = entries.rounds_paired(session, league)
    current = entries.last_round(session, league, rounds, sides=False)
    page = render_template(
        "tournament/entries.html",
        league=league,
        entries=listed,
        form=form,
        rounds=rounds,
        open_round=current if current is not None and current.open else None,
        undrop_form=DropForm(formdata=None),
    )
    return (page, 400) if form.errors else page


def _listed_entry(league: League, team_id: int) -> Team:
    team = next((t for t in league.teams if t.id == team_id), None)
    if team is None:
        abort(404, description=gettext("This league has no such entry."))
    return team


@bp.route("/<int:team_id>", methods=["GET", "POST"])
@login_required
def edit(league_id: int, team_id: int) -> str | Response | tuple[str, int]:
    """An entry's club or nation and seed rating."""
    league = commissioners_league(league_id)
    team = _listed_entry(league, team_id)
    form = EntryDetailsForm(data={"club": team.club, "seed_rating": team.seed_rating})
    saved = form_action(
        form,
        lambda session: entries.update_entry(
            session, current_user, league_id, team_id, form.club.data, form.seed_rating.data
        ),
    )
    if saved is not None:
        flash(gettext("%(team)s is saved.", team=saved.name), "success")
        return redirect(url_for("entries.index", league_id=league_id))
    page = render_template("tournament/entry_edit.html", league=league, team=team, form=form)
    return (page, 400) if form.errors else page


@bp.route("/<int:team_id>/drop", methods=["GET", "POST"])
@login_required
def drop(league_id: int, team_id: int) -> str | Response:
    """Drop an entry, after a confirmation."""
    league = commissioners_league(league_id)
    team = _listed_entry(league, team_id)
    form = DropForm()
    if form.validate_on_submit() and form.is_confirmed:
        dropped = form_action(
            form, lambda session: entries.drop_entry(session, current_user, league_id, team_id)
        )
        if dropped is not None:
            flash(
                gettext("%(team)s has dropped: it is no longer paired.", team=team.name), "success"
            )
            return redirect(url_for("entries.index", league_id=league_id))
    return render_template(
        "tournament/entry_drop.html",
        league=league,
        team=team,
        form=form,
        rounds=entries.rounds_paired(db.session(), league),
    )


@post_step(bp, "/<int:team_id>/undrop", "entries.index")
@login_required
def undrop(league_id: int, team_id: int) -> Response:
    """Take a drop back: paired again from the next round."""
    team = button_action(
        lambda session: entries.undrop_entry(session, current_user, league_id, team_id)
    )
    if team is not None:
        flash(
            gettext("%(team)s is back: it is paired from the next round.", team=team.name),
            "success",
        )
    return redirect(url_for("entries.index", league_id=league_id))


@bp.route("/swap", methods=["GET", "POST"])
@login_required
def swap(league_id: int) -> str | Response | tuple[str, int]:
    """Swap two entries of two pairings of the round about to start: the first post
    shows what the swap breaks, the second (confirmed) makes it."""
    league = commissioners_league(league_id)
    session = db.session()
    current = entries.last_round(session, league)
    if current is None or not current.open:
        flash(gettext("The round has started: its pairings can no longer be swapped."), "warning")
        return redirect(url_for("entries.index", league_id=league_id))
    paired = [(side.team_id, side.team.name) for m in current.matches for side in m.sides]
    form = SwapForm(entries=sorted(paired, key=lambda pair: pair[1].lower()))
    warnings: list[str] | None = None
    if form.validate_on_submit():
        if form.is_confirmed:
            broken = form_action(
                form,
                lambda session: entries.swap_entries(
                    session, current_user, league_id, form.one.data, form.other.data
                ),
            )
            if broken is not None:
                flash(gettext("The pairings are swapped."), "success")
                return redirect(url_for("entries.swap", league_id=league_id))
        else:
            warnings = constraint_words(
                entries.swap_breaks(session, league, form.one.data, form.other.data)
            )
            form.submit.label.text = gettext("Swap them")
    page = render_template(
        "tournament/swap.html",
        league=league,
        round=current,
        form=form,
        warnings=warnings,
        names=dict(paired),
    )
    return (page, 400) if form.errors else page


@bp.route("/first-round", methods=["GET", "POST"])
@login_required
def first_round(league_id: int) -> str | Response | tuple[str, int]:
    """The first round paired by hand (a league whose first round is "manual")."""
    league = commissioners_league(league_id)
    if not entries.first_round_open(db.session(), league):
        flash(
            gettext("The first round is paired already; later rounds follow the standings."),
            "warning",
        )
        return redirect(url_for("entries.index", league_id=league_id))
    playing = sorted(
        (t for t in league.teams if t.status == "active" and t.dropped_at is None),
        key=lambda t: t.name.lower(),
    )
    form = manual_round_form([(t.id, t.name) for t in playing])
    tables = len(playing) // 2
    pairing = form_action(
        form,
        lambda session: entries.pair_by_hand(
            session, current_user, league_id, form.chosen_pairs(tables)
        ),
    )
    if pairing is not None:
        flash(
            ngettext(
                "Round %(round)s paired: %(num)d match.",
                "Round %(round)s paired: %(num)d matches.",
                len(pairing.matches),
                round=pairing.number,
            ),
            "success",
        )
        for words in constraint_words(pairing.broken):
            flash(gettext("This round has %(what)s.", what=words), "warning")
        return redirect(url_for("fixtures.print_round", league_id=league_id, number=1))
    page = render_template(
        "tournament/first_round.html", league=league, form=form, tables=tables, playing=playing
    )
    return (page, 400) if form.errors else page
