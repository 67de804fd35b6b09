"""Server-rendered pages: one blueprint per feature."""

from __future__ import annotations

from flask import Flask, abort, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug import exceptions as http
from werkzeug.exceptions import HTTPException, SecurityError
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response

from league.caching import register_caching
from league.extensions import db, login_manager
from league.i18n import N_, gettext
from league.models import User
from league.rules import SHIRT_NUMBERS
from league.rules.model import PLAYOFF_SIZES
from league.services import users
from league.services.errors import DomainError, Forbidden, NotFound
from league.web.forms import EmptyForm
from league.web.i18n import cache_language, register_i18n
from league.web.labels import register_labels
from league.web.rules import bp as rules_bp
from league.web.rules import not_found_page as rules_not_found

#: The services' refusals that are pages of their own (any other one belongs on a form).
HTTP_ERRORS: dict[type[DomainError], type[HTTPException]] = {
    NotFound: http.NotFound,
    Forbidden: http.Forbidden,
}

#: Werkzeug's names and default explanations of the errors a page can end in, marked for
#: the catalogues: the error page looks each one up (a view's own description is
#: already in the reader's language).
HTTP_ERROR_TEXTS = (
    N_("Bad Request"),
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("Forbidden"),
    N_(
        "You don't have the permission to access the requested resource. It is either "
        "read-protected or not readable by the server."
    ),
    N_("Not Found"),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again."
    ),
    N_("Method Not Allowed"),
    N_("The method is not allowed for the requested URL."),
    N_("Request Entity Too Large"),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("Unsupported Media Type"),
    N_("The server does not support the media type transmitted in the request."),
    N_("Too Many Requests"),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_("Service Unavailable"),
)

#: The largest id a row can have (ids are 32-bit integers in the database).
MAX_ID = 2_147_483_647


class IdConverter(IntegerConverter):
    """`<int:...>` in a URL: a larger number is a 404, not a database overflow (a 500)."""

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = MAX_ID,
        signed: bool = False,
    ) -> None:
        super().__init__(map, fixed_digits, min, max, signed)


def register_web(app: Flask) -> None:
    from league.web.advancement import bp as advancement_bp
    from league.web.auth import bp as auth_bp
    from league.web.coaches import bp as coaches_bp
    from league.web.discord import bp as discord_bp
    from league.web.entries import bp as entries_bp
    from league.web.event import bp as event_bp
    from league.web.fixtures import bp as fixtures_bp
    from league.web.health import bp as health_bp
    from league.web.history import bp as history_bp
    from league.web.identity import bp as identity_bp
    from league.web.leagues import bp as leagues_bp
    from league.web.main import bp as main_bp
    from league.web.matches import bp as matches_bp
    from league.web.pregame import bp as pregame_bp
    from league.web.printing import bp as printing_bp
    from league.web.profile import bp as profile_bp
    from league.web.seasons import bp as seasons_bp
    from league.web.teams import bp as teams_bp
    from league.web.webhooks import bp as webhooks_bp

    # Before any route is added: every rule compiles its converters from this table.
    app.url_map.converters["int"] = IdConverter
    app.register_blueprint(main_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(leagues_bp)
    app.register_blueprint(fixtures_bp)
    app.register_blueprint(event_bp)
    app.register_blueprint(teams_bp)
    app.register_blueprint(identity_bp)
    app.register_blueprint(advancement_bp)
    app.register_blueprint(matches_bp)
    app.register_blueprint(pregame_bp)
    app.register_blueprint(printing_bp)
    app.register_blueprint(auth_bp)
    app.register_blueprint(profile_bp)
    app.register_blueprint(seasons_bp)
    app.register_blueprint(entries_bp)
    app.register_blueprint(webhooks_bp)
    app.register_blueprint(discord_bp)
    app.register_blueprint(health_bp)
    app.register_blueprint(coaches_bp)
    app.register_blueprint(history_bp)
    if app.config.get("LEAGUE_BENCH"):
        from league.web.bench import bp as bench_bp

        app.register_blueprint(bench_bp)
    register_i18n(app)
    register_labels(app)
    # Numbers the pages show from the rules' one place: shirt numbers, playoff sizes.
    app.jinja_env.globals.update(shirt_numbers=SHIRT_NUMBERS, playoff_sizes=PLAYOFF_SIZES)
    _register_error_pages(app)
    register_caching(app, language_key=cache_language)

    @login_manager.user_loader
    def load_user(session_secret: str) -> User | None:
        # Cookies carry the user's session secret (User.get_id), not the row id.
        return users.user_for_session(db.session(), session_secret)

    @app.context_processor
    def forms_for_every_page() -> dict[str, object]:
        # The navigation's log-out button is a POST form and needs a CSRF token. It reads
        # nothing from the request: an error page about a bad body must not parse it again.
        return {"nav_form": EmptyForm(formdata=None)}

    @app.before_request
    def pages_take_forms() -> None:
        # Flask-WTF would read a JSON body as the form (and fail on one that is not an
        # object); the pages only take form posts, the API lives under /api/.
        # Discord's interactions (signed JSON) have their own endpoint.
        json_paths = ("/api/", "/discord/interactions")
        if request.is_json and request.method != "GET" and not request.path.startswith(json_paths):
            abort(415, description=gettext("Send the form as a form, not as JSON."))


def _register_error_pages(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template(
            "errors/error.html",
            status=400,
            title=gettext("Form expired"),
            message=gettext(
                "The form was too old or not sent from this site. "
                "Go back, reload the page and try again."
            ),
        ), 400

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError) -> Response:
        # A Host header outside TRUSTED_HOSTS: no URL can be built, so no themed page.
        return Response(
            gettext("Bad Request: this site does not answer to that host name.") + "\n",
            400,
            mimetype="text/plain",
        )


def error_page(error: Exception) -> tuple[str, int]:
    """The page for any error of a page request (the app sends /api/ ones to the API).

    A service's NotFound and Forbidden escaping a view are its 404 and 403 pages: a view
    just asks the service and lets those through. Anything else is logged and is a 500
    page, never a traceback.
    """
    for refusal, page in HTTP_ERRORS.items():
        if isinstance(error, refusal):
            error = page(description=error.message)
    if isinstance(error, HTTPException):
        status = error.code or 500
        if status == 404 and request.path.startswith(rules_bp.url_prefix or "/rules"):
            return rules_not_found(error), status
        return render_template(
            "errors/error.html",
            status=status,
            title=gettext(error.name),
            message=gettext(error.description) if error.description else error.description,
        ), status
    current_app.logger.exception("Unhandled error", exc_info=error)
    db.session.rollback()
    return render_template(
        "errors/error.html",
        status=500,
        title=gettext("Something went wrong"),
        message=gettext("The error has been logged. Nothing was saved."),
    ), 500
