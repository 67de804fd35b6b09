"""The home page, and the site icon browsers ask for at /favicon.ico."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, send_from_directory

from league.extensions import db
from league.services.leagues import list_leagues

bp = Blueprint("main", __name__)


@bp.route("/")
def index() -> str:
    return render_template("main/index.html", leagues=list_leagues(db.session()))


@bp.route("/favicon.ico")
def favicon() -> Response:
    assert current_app.static_folder is not None  # noqa: S101 - set by create_app
    return send_from_directory(
        current_app.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon"
    )
