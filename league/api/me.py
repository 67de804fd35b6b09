from __future__ import annotations

from flask import g

from league.api import bp
from league.api.auth import token_required


@bp.get("/me")
@token_required
def me() -> dict[str, object]:
    return {"username": g.api_user.username, "admin": g.api_user.is_admin}
