"""JSON API v1 (contract: the OpenAPI document, docs/api.md); bearer-token authenticated."""

from __future__ import annotations

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from league.api.parsing import IdConverter

bp = Blueprint("api", __name__, url_prefix="/api/v1")


# Routes name ids `<id:...>`; the converter must be on the map before they are added.
def _add_id_converter(state: BlueprintSetupState) -> None:
    state.app.url_map.converters.setdefault("id", IdConverter)


bp.record_once(_add_id_converter)
# Errors are answered by league.api.errors.api_error (the app sends every /api/ one there).


from league.api import (  # noqa: E402, F401  (routes register on bp)
    advancement,
    coaches,
    entries,
    exchange,
    fixtures,
    leagues,
    live_log,
    matches,
    me,
    membership,
    openapi,
    pregame,
    rulesets,
    seasons,
    teams,
    webhooks,
)
