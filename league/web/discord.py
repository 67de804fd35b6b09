"""Discord: the interactions endpoint Discord posts to (signed, not cookie-based: no CSRF
token), a league's Discord page (connect, register the commands), and the page a `/link`
opens to tie a Discord user to the signed-in account."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import jobs
from league.extensions import csrf, db
from league.i18n import gettext
from league.models import League
from league.security import DISCORD_INTERACTIONS_LIMIT, limiter
from league.services.discord import connections, interactions, linking
from league.services.discord.messages import MESSAGE
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.urls import public_url
from league.web.forms import EmptyForm
from league.web.forms.discord import DiscordForm
from league.web.helpers import commissioners_league, populate_errors, post_step

bp = Blueprint("discord", __name__)
log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


@bp.get("/discord/interactions")
def interactions_address() -> Response:
    """Opened in a browser: what the address is for (Discord only posts to it)."""
    return Response(
        gettext("Discord posts its signed interactions to this address."),
        mimetype="text/plain",
    )


@bp.post("/discord/interactions")
@csrf.exempt
@limiter.limit(DISCORD_INTERACTIONS_LIMIT)
def interactions_endpoint() -> Response | tuple[Response, int]:
    """Every interaction of every connected league: believed only once its signature checks
    out (401 otherwise, as Discord requires), then answered within Discord's three seconds
    (a slow command: "thinking...", then a job edits the answer)."""
    body, now = request.get_data(), _now()
    try:
        with unit_of_work() as session:
            verified = interactions.verify(
                session,
                body,
                request.headers.get("X-Signature-Ed25519"),
                request.headers.get("X-Signature-Timestamp"),
                now,
            )
    except interactions.Refused as refused:
        log.info("Discord interaction refused: %s", refused)
        # The API's error body (Discord reads only the status).
        error = {"code": "unauthorized", "message": "invalid request signature"}
        return jsonify({"error": error}), 401
    answered = interactions.answer(db.session(), verified, now)
    follow_up = answered.follow_up
    if follow_up is not None:
        db.session.commit()  # the job reads in a session of its own
        if not jobs.defer_discord_answer(follow_up):
            data = interactions.follow_up_message(db.session(), follow_up)
            return jsonify({"type": MESSAGE, "data": data})
    return jsonify(answered.body)


def _page(league: League, form: DiscordForm, status: int = 200) -> tuple[str, int]:
    connection = connections.connection_of(db.session(), league.id)
    return (
        render_template(
            "discord/settings.html",
            league=league,
            connection=connection,
            form=form,
            action_form=EmptyForm(),
            # The public address (PUBLIC_URL), never the Host header of this request.
            interactions_url=public_url("discord.interactions_endpoint"),
        ),
        status,
    )


@bp.route("/leagues/<int:league_id>/discord", methods=["GET", "POST"])
@login_required
def settings(league_id: int) -> tuple[str, int] | Response:
    league = commissioners_league(league_id, "discord")
    form = DiscordForm()
    if not form.is_submitted():
        connection = connections.connection_of(db.session(), league.id)
        if connection is not None:
            form.application_id.data = connection.application_id
            form.public_key.data = connection.public_key
            form.guild_id.data = connection.guild_id
            form.channel_id.data = connection.channel_id
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                connections.connect(session, current_user, league_id, form.settings())
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(gettext("Discord connection saved."), "success")
            return redirect(url_for("discord.settings", league_id=league_id))
    return _page(league, form, 400 if form.errors or form.form_errors else 200)


@post_step(bp, "/leagues/<int:league_id>/discord/register", "discord.settings")
@login_required
def register(league_id: int) -> Response | tuple[str, int]:
    league = commissioners_league(league_id, "discord")
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        with unit_of_work() as session:
            connections.register_commands(session, current_user, league, _now())
    except DomainError as error:
        if error.code == "forbidden":
            raise
        flash(error.message, "error")
    else:
        flash(gettext("Slash commands registered in your Discord server."), "success")
    return redirect(url_for("discord.settings", league_id=league_id))


@bp.route("/discord/link/<token>", methods=["GET", "POST"])
@login_required
def link(token: str) -> tuple[str, int]:
    """Asks before tying: a link someone else made must not tie their Discord user to the
    account of whoever opens it unawares."""
    form = EmptyForm()
    try:
        pending = linking.pending_link(db.session(), token, _now())
    except DomainError as error:
        return render_template("discord/link.html", problem=error.message, form=form), 404
    if form.validate_on_submit():
        with unit_of_work() as session:
            linking.redeem(session, current_user, token, _now())
        return render_template("discord/link.html", linked=pending, form=form), 200
    return render_template("discord/link.html", pending=pending, form=form), 200


@bp.get("/discord/account")
@login_required
def account() -> str:
    """The Discord user tied to the signed-in account, with a button to untie it."""
    link = linking.link_of(db.session(), current_user)
    return render_template("discord/account.html", link=link, form=EmptyForm())


@post_step(bp, "/discord/unlink", "discord.account")
@login_required
def unlink() -> Response:
    if not EmptyForm().validate_on_submit():
        abort(400)
    with unit_of_work() as session:
        untied = linking.unlink(session, current_user)
    if untied:
        flash(
            gettext("Your Discord user is no longer linked: its buttons act as nobody."), "success"
        )
    return redirect(url_for("discord.account"))
