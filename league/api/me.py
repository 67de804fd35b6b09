from __future__ import annotations

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.schemas import MeSchema


@bp.get("/me")
@token_required
def me() -> dict[str, object]:
    """The user the token belongs to.
    ---
    get:
      tags: [Users]
      responses:
        200: Me
    """
    return MeSchema.body({"username": g.api_user.username, "admin": g.api_user.is_admin})
