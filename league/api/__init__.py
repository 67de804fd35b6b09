"""JSON API v1 (contract: the OpenAPI document, docs/api.md); bearer-token authenticated."""

from __future__ import annotations

from flask import Blueprint, jsonify
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from league.api.serializers import IdConverter
from league.services.errors import DomainError

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# Routes name ids `<id:...>`; the converter must be on the map before they are added.
bp.record_once(lambda state: state.app.url_map.converters.setdefault("id", IdConverter))


def error_response(status: int, code: str, message: str) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message}}), status


@bp.errorhandler(DomainError)
def domain_error(error: DomainError) -> tuple[Response, int]:
    return error_response(error.status, error.code, error.message)


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[Response, int]:
    status = error.code or 500
    code = (error.name or "error").lower().replace(" ", "_")
    return error_response(status, code, error.description or "")


from league.api import (  # noqa: E402, F401  (routes register on bp)
    advancement,
    exchange,
    fixtures,
    leagues,
    matches,
    me,
    membership,
    openapi,
    rulesets,
    seasons,
    teams,
    webhooks,
)
