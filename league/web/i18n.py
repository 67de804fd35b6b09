"""The language of each page, and the footer's language switcher (POST /language).

The language of a request, first that applies:

1. the signed-in user's profile language (``User.language``);
2. the visitor's choice from the footer switcher, kept in the session;
3. the browser's ``Accept-Language``, best match among the five languages;
4. the default language of the league the page belongs to (`page_league_language`);
5. English.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

import flask_babel
from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from flask_login import current_user
from flask_wtf.csrf import validate_csrf
from markupsafe import Markup, escape
from sqlalchemy.orm.util import identity_key
from werkzeug.wrappers import Response
from wtforms import ValidationError

from league.extensions import csrf, db
from league.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_CODES,
    LANGUAGES,
    DateFormat,
    ListStyle,
    current_language,
    format_date,
    format_datetime,
    format_list,
    gettext,
    is_language,
)
from league.models import League, Match, Team
from league.services import users
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.helpers import post_step, safe_next

#: The session key of a visitor's choice from the switcher.
SESSION_KEY = "language"

bp = Blueprint("i18n", __name__)


def explicit_language() -> str | None:
    """The language the reader asked for (profile, switcher, browser), or None."""
    if not has_request_context():
        return None  # a job or a script: no reader
    user = current_user._get_current_object()
    if user is not None and user.is_authenticated and is_language(user.language):
        return str(user.language)
    chosen = session.get(SESSION_KEY)
    if is_language(chosen):
        return str(chosen)
    best: str | None = request.accept_languages.best_match(LANGUAGE_CODES)
    return best


def page_league_language() -> str | None:
    """The default language of the league of this page, without a query.

    A league, team or match page's league is found in the session's identity map: the view
    loaded it before rendering, which is when the first text is looked up (and the language
    chosen).
    """
    if not has_request_context():
        return None
    args = request.view_args or {}
    session = db.session()
    league_id = args.get("league_id")
    if league_id is None and isinstance(args.get("team_id"), int):
        team = session.identity_map.get(identity_key(Team, args["team_id"]))
        league_id = team.league_id if isinstance(team, Team) else None
    if league_id is None and isinstance(args.get("match_id"), int):
        match = session.identity_map.get(identity_key(Match, args["match_id"]))
        league_id = match.league_id if isinstance(match, Match) else None
    if isinstance(league_id, int):
        league = session.identity_map.get(identity_key(League, league_id))
        if isinstance(league, League):
            return league.default_language
    return None


def select_locale() -> str:
    """Flask-Babel's locale selector: the order of the module's docstring."""
    return explicit_language() or page_league_language() or DEFAULT_LANGUAGE


def cache_language() -> str:
    """What a cached page's key varies with: the reader's choice, else "league" (the
    page's league's language, part of the page's data and so of its version)."""
    return explicit_language() or "league"


@post_step(bp, "/language", "main.index")
def switch() -> Response:
    """The footer's switcher: remember the choice (and in the profile), go back."""
    back = safe_next(request.form.get("next"), url_for("main.index"))
    language = request.form.get("language", "")
    if not is_language(language):
        return redirect(back)
    if current_user.is_authenticated and current_app.config.get("WTF_CSRF_ENABLED", True):
        # Signed in, the choice goes into the profile: only from this site's own form.
        try:
            validate_csrf(request.form.get("csrf_token"))
        except ValidationError:
            abort(400, description=gettext("The form was too old or not sent from this site."))
    session[SESSION_KEY] = language
    if current_user.is_authenticated:
        try:
            with unit_of_work() as unit:
                users.set_language(unit, current_user, language)
        except DomainError:
            pass
    flask_babel.refresh()
    return redirect(back)


def format_day(
    value: date | datetime | None, format: str = "medium", skeleton: str | None = None
) -> str:
    """The `date` filter: a day as the reader's language writes it ("Nov 24, 2026",
    "24.11.2026"); ``format`` is Babel's: short, medium, long, full or a pattern;
    ``skeleton`` a CLDR skeleton (``|date(skeleton='yMMMEd')``: "Tue, Nov 24, 2026")."""
    return format_date(value, format, skeleton=skeleton)


def format_moment(value: datetime | str | None, format: DateFormat = "medium") -> str:
    """The `datetime` filter: a moment (UTC) to the minute, as the reader's language
    writes it ("Nov 24, 2026, 2:05 PM", "24.11.2026, 14:05")."""
    return format_datetime(value, format)


def list_filter(items: Iterable[object], style: ListStyle = "standard") -> Markup:
    """The `format_list` filter (Jinja's own `list` makes a list of an iterable): ``items``
    joined as the reader's language joins a list ("A, B, and C", "A, B und C"; ``'or'``:
    "A, B, or C"). Items are escaped unless they are markup already; the joining words
    come from Babel's data, plain text."""
    return Markup(format_list([escape(item) for item in items], style=style))  # noqa: S704


def register_i18n(app: Flask) -> None:
    app.add_template_filter(format_day, "date")
    app.add_template_filter(format_moment, "datetime")
    app.add_template_filter(list_filter, "format_list")

    @app.before_request
    def choose_language_afresh() -> None:
        # Flask-Babel keeps the language chosen in `g`, which lives as long as the app
        # context: a request inside an app context already pushed (a test, a script)
        # would otherwise inherit the previous request's language.
        g.pop("page_league_language", None)
        flask_babel.refresh()

    # Signed-out pages are cached for every visitor, so their switcher carries no CSRF token
    # (all it changes is this browser's session); a signed-in visitor's is checked above.
    csrf.exempt(switch)
    app.register_blueprint(bp)

    @app.context_processor
    def languages() -> dict[str, object]:
        return {
            "languages": LANGUAGES,
            "page_language": current_language,
            "language_form": EmptyForm(formdata=None),
        }
