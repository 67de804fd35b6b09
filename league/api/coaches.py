from __future__ import annotations

from typing import Any

from league.api import bp
from league.api.schemas import CoachSchema
from league.extensions import db
from league.services.coaches import coach_profile


@bp.get("/coaches/<username>")
def get_coach(username: str) -> dict[str, Any]:
    """A coach's profile: their teams in every league here, record and ratings.

    Ratings follow the NAF ranking formula over the played matches stored here
    (docs/ratings.md); a void or a correction changes them.
    ---
    get:
      tags: [Users]
      responses:
        200: Coach
      errors:
        404: No such user.
    """
    return CoachSchema.body(coach_profile(db.session(), username))
