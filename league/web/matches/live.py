"""The live match log page, `/matches/<id>/live`: each coach logs their side on a phone.

The page reads the log from the public `GET /api/v1/matches/<id>/log`, polled with
`If-None-Match` (an unchanged log is a 304 from one small query: an open page holds no
worker between polls). Its writes are the form posts below (the session and its CSRF
token; the API takes bearer tokens only): they answer JSON to the page's script, and
redirect back to the page without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import (
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
from wtforms import SelectField, StringField

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from league.extensions import db
from league.i18n import gettext
from league.models import Match, Player
from league.models.match import INJURY_CODES, SIDES
from league.rules import CHARACTERISTICS, stat_label
from league.rules.live_log import HALVES, INJURY_KINDS, LOG_KINDS, TURNS_PER_HALF
from league.services import live_log, matches
from league.services.access import can_manage, league_ruleset, role_in
from league.services.errors import ConcurrentChange, Conflict, DomainError, Forbidden, NotFound
from league.services.unit_of_work import unit_of_work
from league.web import MAX_ID
from league.web.forms import EmptyForm, FlaskForm, IntegerField
from league.web.helpers import post_step
from league.web.matches.routes import bp
from league.web.matches.text import injury_label, kind_label

LIVE = "/matches/<int:match_id>/live"
#: The cache the service worker (static/js/live-sw.js) keeps the log page in.
LIVE_CACHE = "league-live-log-v1"


def _choices(values: tuple[str, ...]) -> list[Any]:
    return [SelectChoice(value, value) for value in values]


class LogEventForm(FlaskForm):
    """One event from the page (the API's `LogEventRequest`, as a form)."""

    id = StringField(validators=[InputRequired(), Length(8, 64)])
    side = SelectField(choices=_choices(SIDES), validators=[InputRequired()])
    kind = SelectField(choices=_choices(LOG_KINDS), validators=[InputRequired()])
    player_id = IntegerField(validators=[Optional(), NumberRange(1, MAX_ID)])
    victim_id = IntegerField(validators=[Optional(), NumberRange(1, MAX_ID)])
    injury = SelectField(choices=_choices(("", *INJURY_CODES)), default="")
    lasting = SelectField(choices=_choices(("", *CHARACTERISTICS)), default="")
    half = IntegerField(validators=[InputRequired(), NumberRange(1, 3)])
    turn = IntegerField(validators=[InputRequired(), NumberRange(1, 8)])

    def entry(self) -> live_log.LogEntry:
        return live_log.LogEntry(
            client_id=self.id.data or "",
            side=self.side.data or "",
            kind=self.kind.data or "",
            half=self.half.data or 1,
            turn=self.turn.data or 1,
            player_id=self.player_id.data,
            victim_id=self.victim_id.data,
            injury=self.injury.data or None,
            lasting=self.lasting.data or None,
        )


class ConfirmSideForm(FlaskForm):
    side = SelectField(choices=_choices(SIDES), validators=[InputRequired()])


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _answer(match_id: int, body: dict[str, Any] | None, status: int = 200) -> Response:
    if _wants_json():
        response = jsonify(body or {})
        response.status_code = status
        return response
    return redirect(url_for("matches.live", match_id=match_id))


def _refused(match_id: int, error: DomainError) -> Response:
    if isinstance(error, Forbidden):
        raise error  # the 403 page, with its reason
    if _wants_json():
        response = jsonify(
            {"error": {"code": error.code, "message": error.message, "fields": error.fields}}
        )
        response.status_code = (
            409 if isinstance(error, Conflict) else 404 if isinstance(error, NotFound) else 422
        )
        return response
    flash(error.message, "error")
    return redirect(url_for("matches.live", match_id=match_id))


def _malformed(match_id: int, form: FlaskForm) -> Response:
    if _wants_json():
        response = jsonify(
            {
                "error": {
                    "code": "bad_request",
                    "message": gettext("The form was incomplete."),
                    "fields": form.errors,
                }
            }
        )
        response.status_code = 400
        return response
    abort(400, description=gettext("The form was incomplete."))


def _player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "number": player.number, "name": player.name, "status": player.status}


def _page_data(match: Match) -> dict[str, Any]:
    session = db.session()
    ruleset = league_ruleset(match.league)
    view = live_log.get_log(session, match.id)
    commissioner = role_in(match.league, current_user) == "commissioner"
    mine = [s.side for s in match.sides if can_manage(s.team, current_user)]
    return {
        "match_id": match.id,
        "user_id": current_user.id if current_user.is_authenticated else None,
        "log_url": url_for("api.get_log", match_id=match.id),
        "post_url": url_for("matches.live_event", match_id=match.id),
        "event_url": url_for("matches.live_delete", match_id=match.id, event_id=0),
        "confirm_url": url_for("matches.live_confirm", match_id=match.id),
        "finalise_url": url_for("matches.live_finalise", match_id=match.id),
        "worker_url": url_for("matches.live_worker"),
        "worker_scope": "/matches/",
        "cache_name": LIVE_CACHE,
        "commissioner": commissioner,
        "may_log": mine,
        "table_dice": match.league.table_dice_allowed,
        "turns_per_half": TURNS_PER_HALF,
        "lasting_table": bool(ruleset.lasting_injuries),
        "kinds": [{"kind": k, "label": kind_label(k)} for k in view.kinds],
        "injury_kinds": list(INJURY_KINDS),
        "injuries": [{"code": c, "label": injury_label(ruleset, c)} for c in _injury_codes(match)],
        "characteristics": [{"code": c, "label": stat_label(c)} for c in ruleset.characteristics],
        "sides": {
            side: {
                "name": match.side(side).team.name,
                "players": [_player_json(p) for p in live_log.side_players(session, match, side)],
            }
            for side in SIDES
        },
    }


def _injury_codes(match: Match) -> list[str]:
    ruleset = league_ruleset(match.league)
    seen: list[str] = []
    for result in ruleset.casualty_table.results:
        if result.code not in seen:
            seen.append(result.code)
    return seen


@bp.get(LIVE)
def live(match_id: int) -> str:
    """The log page: anyone who may see the match watches it; its coaches log it."""
    match = matches.get_match(db.session(), match_id)
    data = _page_data(match)
    return render_template(
        "matches/live.html",
        match=match,
        data=data,
        may_log=bool(data["may_log"]),
        halves=HALVES,
        form=EmptyForm(),
    )


@post_step(bp, f"{LIVE}/events", "matches.live")
@login_required
def live_event(match_id: int) -> Response:
    form = LogEventForm()
    if not form.validate_on_submit():
        return _malformed(match_id, form)
    entry = form.entry()
    try:
        try:
            with unit_of_work() as session:
                event, created = live_log.log_event(session, current_user, match_id, entry)
                body = _event_json(event)
        except ConcurrentChange:
            # The same id sent twice at once: the stored twin answers.
            with unit_of_work() as session:
                event, created = live_log.log_event(session, current_user, match_id, entry)
                body = _event_json(event)
    except DomainError as error:
        return _refused(match_id, error)
    return _answer(match_id, body, 201 if created else 200)


def _event_json(event: Any) -> dict[str, Any]:
    return {"id": event.id, "client_id": event.client_id, "injury": event.injury,
            "lasting": event.lasting, "dice": event.dice}  # fmt: skip


def _event_action(match_id: int, event_id: int, action: str) -> Response:
    if not EmptyForm().validate_on_submit():
        return _malformed(match_id, EmptyForm())
    act = {
        "delete": live_log.delete_event,
        "dispute": live_log.dispute_event,
        "keep": live_log.keep_event,
    }[action]
    try:
        with unit_of_work() as session:
            act(session, current_user, match_id, event_id)
    except DomainError as error:
        return _refused(match_id, error)
    return _answer(match_id, {"done": action})


@post_step(bp, f"{LIVE}/events/<int:event_id>/delete", "matches.live")
@login_required
def live_delete(match_id: int, event_id: int) -> Response:
    """Take an event back (who logged it, or a commissioner)."""
    return _event_action(match_id, event_id, "delete")


@post_step(bp, f"{LIVE}/events/<int:event_id>/dispute", "matches.live")
@login_required
def live_dispute(match_id: int, event_id: int) -> Response:
    """Dispute one of the other side's events."""
    return _event_action(match_id, event_id, "dispute")


@post_step(bp, f"{LIVE}/events/<int:event_id>/keep", "matches.live")
@login_required
def live_keep(match_id: int, event_id: int) -> Response:
    """A commissioner settles a dispute: the event stands."""
    return _event_action(match_id, event_id, "keep")


@post_step(bp, f"{LIVE}/confirm", "matches.live")
@login_required
def live_confirm(match_id: int) -> Response:
    form = ConfirmSideForm()
    if not form.validate_on_submit():
        return _malformed(match_id, form)
    try:
        with unit_of_work() as session:
            view = live_log.confirm_side(session, current_user, match_id, form.side.data or "")
            state = view.state
    except DomainError as error:
        return _refused(match_id, error)
    return _answer(match_id, {"state": state})


@post_step(bp, f"{LIVE}/finalise", "matches.live")
@login_required
def live_finalise(match_id: int) -> Response:
    if not EmptyForm().validate_on_submit():
        return _malformed(match_id, EmptyForm())
    try:
        with unit_of_work() as session:
            live_log.finalise(session, current_user, match_id)
    except DomainError as error:
        return _refused(match_id, error)
    if _wants_json():
        return _answer(match_id, {"state": "final"})
    flash(gettext("The result is final."), "success")
    return redirect(url_for("matches.show", match_id=match_id))


@bp.get("/teams/<int:team_id>/live")
def team_live(team_id: int) -> Response:
    """From the team page on match day: the log of the team's next match."""
    match_id = live_log.next_open_match(db.session(), team_id)
    if match_id is None:
        flash(gettext("This team has no match to play."), "info")
        return redirect(url_for("teams.show", team_id=team_id))
    return redirect(url_for("matches.live", match_id=match_id))


@bp.get(f"{LIVE}/manifest.webmanifest")
def live_manifest(match_id: int) -> Response:
    """The log page as an installable app: it opens on this match's log."""
    match = matches.get_match(db.session(), match_id)
    icons = [
        {
            "src": url_for("static", filename=f"img/live-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
        }
        for size in (192, 512)
    ]
    body = {
        "name": gettext(
            "Live log: %(home)s v %(away)s", home=match.home.team.name, away=match.away.team.name
        ),
        "short_name": gettext("Live log"),
        "start_url": url_for("matches.live", match_id=match.id),
        "scope": "/matches/",
        "display": "standalone",
        "background_color": "#f6f4ef",
        "theme_color": "#1f5f3a",
        "icons": icons,
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/matches/live-sw.js")
def live_worker() -> Response:
    """The log page's service worker, served under /matches/ so that it may control the
    log pages (a worker controls only the paths beneath its own)."""
    script = Path(str(current_app.static_folder), "js", "live-sw.js").read_bytes()
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response
