"""Server-rendered pages: one blueprint per feature."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from league.extensions import db, login_manager
from league.models import User
from league.web.forms import EmptyForm


def register_web(app: Flask) -> None:
    from league.web.advancement import bp as advancement_bp
    from league.web.auth import bp as auth_bp
    from league.web.fixtures import bp as fixtures_bp
    from league.web.leagues import bp as leagues_bp
    from league.web.main import bp as main_bp
    from league.web.matches import bp as matches_bp
    from league.web.printing import bp as printing_bp
    from league.web.rules import bp as rules_bp
    from league.web.teams import bp as teams_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(leagues_bp)
    app.register_blueprint(fixtures_bp)
    app.register_blueprint(teams_bp)
    app.register_blueprint(advancement_bp)
    app.register_blueprint(matches_bp)
    app.register_blueprint(printing_bp)
    app.register_blueprint(auth_bp)
    _register_error_pages(app)

    @login_manager.user_loader
    def load_user(user_id: str) -> User | None:
        return db.session.get(User, int(user_id)) if user_id.isdigit() else None

    @app.context_processor
    def forms_for_every_page() -> dict[str, object]:
        # The navigation's log-out button is a POST form and needs a CSRF token.
        return {"nav_form": EmptyForm()}


def _register_error_pages(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template(
            "errors/error.html",
            status=400,
            title="Form expired",
            message="The form was too old or not sent from this site. "
            "Go back, reload the page and try again.",
        ), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str | Response, int]:
        status = error.code or 500
        if request.path.startswith("/api/"):
            code = (error.name or "error").lower().replace(" ", "_")
            body = {"error": {"code": code, "message": error.description or ""}}
            return jsonify(body), status
        return render_template(
            "errors/error.html", status=status, title=error.name, message=error.description
        ), status

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> tuple[str, int]:
        # Never show a traceback: log it and show the themed page.
        app.logger.exception("Unhandled error", exc_info=error)
        db.session.rollback()
        return render_template(
            "errors/error.html",
            status=500,
            title="Something went wrong",
            message="The error has been logged. Nothing was saved.",
        ), 500
