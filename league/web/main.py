"""The home page."""

from __future__ import annotations

from flask import Blueprint, render_template

from league.extensions import db
from league.services.leagues import list_leagues

bp = Blueprint("main", __name__)


@bp.route("/")
def index() -> str:
    return render_template("main/index.html", leagues=list_leagues(db.session))
