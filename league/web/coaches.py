"""Coach profiles: a coach's teams in every league, record and ratings; how the
ratings are worked out (the NAF ranking formula)."""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.i18n import format_number
from league.rules.ratings import K_FACTOR, MAX_COACHES, SCALE, STARTING_RATING
from league.services.coaches import coach_profile

bp = Blueprint("coaches", __name__)


@bp.app_template_filter("rating")
def rating_filter(value: float) -> str:
    """A rating to one decimal place, as the reader's language writes numbers."""
    return format_number(round(value, 1))


@bp.get("/coaches/<username>")
def profile(username: str) -> str | Response:
    def render() -> str:
        return render_template(
            "coaches/profile.html", profile=coach_profile(db.session(), username)
        )

    # The same page for everyone: it shows nothing a viewer may or may not do.
    return caching.revision_cached(render, lambda: "everyone")


@bp.get("/ratings")
def about_ratings() -> str:
    """How coach ratings are worked out, with the formula's numbers from the rules."""
    return render_template(
        "coaches/ratings.html",
        start=format_number(STARTING_RATING),
        scale=format_number(SCALE),
        cap=MAX_COACHES,
        k_factor=format_number(K_FACTOR),
    )
