from __future__ import annotations

from flask import current_app
from werkzeug.wrappers import Response

from league import caching
from league.api import bp
from league.api.schemas import CoachSchema
from league.extensions import db
from league.models.revision import current_revision
from league.services.coaches import coach_profile


@bp.get("/coaches/<username>")
def get_coach(username: str) -> Response:
    """A coach's profile: their teams in every league here, record and ratings.

    Ratings follow the NAF ranking formula over the played matches stored here
    (docs/ratings.md); a void or a correction changes them. The same for every
    caller: kept until the next write, with an ETag (304 on `If-None-Match`).
    ---
    get:
      tags: [Users]
      responses:
        200: Coach
      errors:
        404: No such user.
    """

    def render() -> str:
        return current_app.json.dumps(CoachSchema.body(coach_profile(db.session(), username)))

    version = current_revision(db.session())
    if version is None:
        return Response(render(), mimetype="application/json")
    return caching.cached_response(
        f"api-coach:{username}", version, render, mimetype="application/json"
    )
