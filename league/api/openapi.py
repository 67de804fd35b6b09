"""The OpenAPI 3.1 document of API v1: `GET /api/v1/openapi.json`.

Generated with apispec from the code itself:

- the paths, methods and path parameters come from the Flask URL map (every
  rule of the `api` blueprint), the parameters' types from the rules'
  converters (`<id:...>` is an integer up to the largest 32-bit id);
- each view's docstring gives the operation: its first paragraph is the
  summary, the rest up to `---` the description, and the YAML after `---`
  the tags, query parameters, request body and responses, naming the
  marshmallow schemas of `league.api.schemas`;
- views behind `token_required` get the bearer security requirement and a 401
  response; the others are public (`security: []`).

The YAML may use four shorthands, expanded here:

```yaml
post:
  tags: [Leagues]
  parameters: [season]                     # query parameters of QUERY_PARAMETERS, by name
  requestBody: NewLeague                   # a JSON body of that schema, required
                                           # ("NewLeague?": one the client may leave out)
  responses:
    201: League                            # a JSON response of that schema
    200: {schema: League, description: When the key was seen before.}
  errors:                                  # JSON error responses: {"error": {...}}
    400: The body is malformed.
    422: The rules refuse it.
```
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Flask, current_app
from marshmallow import Schema
from werkzeug.routing import Rule
from werkzeug.routing.converters import NumberConverter

from league.api import bp, schemas

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.0.0"
JSON = "application/json"
#: The key under app.extensions where the built document is kept.
EXTENSION_KEY = "league_openapi"
SECURITY_SCHEME = "bearerAuth"
#: The error statuses the API answers with (docs/api.md), in ascending order.
ERROR_STATUSES = ("400", "401", "403", "404", "409", "422")
HTTP_METHODS = ("get", "post", "put", "patch", "delete")

DESCRIPTION = """\
Scripts, Discord bots and other leagues' tools talk to the league manager
through this API. JSON in and out, UTF-8. Money is in gold pieces as integers
(`85000`); characteristics are integers, and for target-number stats (AG, PA,
AV in BB2020 and BB2025) the integer is the target (`3` means 3+); a missing
PA is `null`.

**Authentication.** Send `Authorization: Bearer <token>`. Reading public data
(rulesets, leagues, teams, players, matches, standings) needs no token.
Writes need the token of a user allowed to do them: the league's commissioner,
or the team's coach for roster and advancement actions; a site admin may do
anything. `flask --app app users token NAME` prints a new token.

**Errors** have the status 400 (malformed), 401 or 403 (authentication), 404,
409 (conflict with the current state) or 422 (the rules say no), and the body
`{"error": {"code": "snake_case_code", "message": "what a person reads"}}`.
Nothing a client sends gives a 500; should the server fail all the same, the
answer has that body too, with the code `internal`.
Creating calls answer 201 with what they created.
"""

TAGS = (
    {"name": "Users", "description": "Who a token belongs to; coaches' profiles and ratings."},
    {"name": "Rules", "description": "Rulesets, skills and team types (public)."},
    {"name": "Leagues", "description": "Leagues, their standings and their teams."},
    {"name": "Teams", "description": "Team sheets, hiring and purchases."},
    {"name": "Players", "description": "Players: reading and firing."},
    {"name": "Matches", "description": "Recording and voiding match results."},
    {"name": "Advancement", "description": "Spending Star Player Points."},
    {
        "name": "Seasons",
        "description": "Between seasons: the off-season re-draft; playoffs; Swiss rounds.",
    },
    {"name": "Members", "description": "Who belongs to a league, its roles and join link."},
    {"name": "Fixtures", "description": "A season's schedule: generated or added one by one."},
    {"name": "Webhooks", "description": "Messages sent to other tools when something happens."},
    {"name": "Documentation", "description": "This document."},
)

#: Path parameters by name: what they name.
PARAMETER_DESCRIPTIONS = {
    "ruleset_id": "Ruleset id, e.g. `bb2025` (GET /api/v1/rulesets lists them).",
    "team_type_id": "Team type id within the ruleset, e.g. `human`.",
    "league_id": "League id.",
    "season_number": "Season number within the league (1 for the first).",
    "team_id": "Team id.",
    "player_id": "Player id.",
    "match_id": "Match id.",
    "user_id": "User id of a member (GET /leagues/{league_id}/members lists them).",
    "webhook_id": "Webhook id.",
    "side": "`home` or `away`.",
    "username": "A user's name, as they sign in with it.",
}

#: Query parameters, declared once (`components/parameters`); a docstring names one
#: by its key in `parameters` (`parameters: [season]`), the document refers to it.
QUERY_PARAMETERS: dict[str, dict[str, Any]] = {
    "season": {
        "required": False,
        "description": "Season number (default the current season).",
        "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
    },
    "scope": {
        "required": False,
        "description": (
            "`season` (one season's records) or `all` (all time); by default `season` "
            "when `season` is given, else `all`."
        ),
        "schema": {"type": "string", "enum": ["season", "all"]},
    },
    "coach": {
        "required": False,
        "description": "Username of the coach of the imported team (default the caller).",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
    },
}

ERROR_DESCRIPTIONS = {
    "400": "Malformed: the body is not a JSON object or a field has the wrong type.",
    "401": "No valid API token: send `Authorization: Bearer <token>`.",
    "403": "The token's user may not do this.",
    "404": "Not found.",
    "409": "In conflict with the current state.",
    "422": "The rules say no.",
}


def requires_token(view: Callable[..., Any]) -> bool:
    """Is the view behind `token_required`? (league.api.auth marks the wrapper.)"""
    return bool(getattr(view, "requires_token", False))


def schema_classes() -> list[type[Schema]]:
    """The schemas of `league.api.schemas`, module by module in the order they are defined."""
    return schemas.schema_classes()


def component_name(schema: type[Schema]) -> str:
    return schema.__name__.removesuffix("Schema")


def _docstring_head(view: Callable[..., Any]) -> tuple[str | None, str | None]:
    """The summary (first paragraph) and description (the rest) before `---`."""
    doc = inspect.cleandoc(view.__doc__ or "").split("\n---", 1)[0].strip()
    if not doc:
        return None, None
    summary, _, description = doc.partition("\n\n")
    return " ".join(summary.split()), description.strip() or None


class LeagueApiPlugin(BasePlugin):
    """Summary and description from the docstring, security, and the shorthands."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec

    def operation_helper(
        self,
        path: str | None = None,
        operations: dict[str, Any] | None = None,
        *,
        view: Callable[..., Any] | None = None,
        rule: Rule | None = None,
        **kwargs: Any,
    ) -> None:
        if operations is None or view is None or rule is None:
            raise TypeError("LeagueApiPlugin needs the operations, the view and its rule.")
        declared = {method for method in operations if method in HTTP_METHODS}
        served = {method.lower() for method in rule.methods or ()} - {"head", "options"}
        if declared != served:
            raise ValueError(
                f"{view.__module__}.{view.__name__}: the docstring describes {sorted(declared)} "
                f"but {rule.rule} serves {sorted(served)}."
            )
        summary, description = _docstring_head(view)
        for method in declared:
            operation = operations[method]
            operation.setdefault("operationId", rule.endpoint.removeprefix(f"{bp.name}."))
            if summary:
                operation.setdefault("summary", summary)
            if description:
                operation.setdefault("description", description)
            self._expand(operation, protected=requires_token(view))

    def _expand(self, operation: dict[str, Any], *, protected: bool) -> None:
        body = operation.get("requestBody")
        if isinstance(body, str):
            # "Name?" is a body the client may leave out.
            name = body.removesuffix("?")
            operation["requestBody"] = {
                "required": name == body,
                "description": _schema_summary(name),
                "content": {JSON: {"schema": name}},
            }
        responses = operation.setdefault("responses", {})
        for status, response in list(responses.items()):
            if isinstance(response, str):
                response = {"schema": response}
            if isinstance(response, dict) and "schema" in response:
                name = response.pop("schema")
                response.setdefault("description", _schema_summary(name))
                response["content"] = {JSON: {"schema": name}}
            responses[str(status)] = response
        declared = operation.pop("errors", None) or {}
        errors = {str(status): text for status, text in declared.items()}
        if protected:
            operation["security"] = [{SECURITY_SCHEME: []}]
            errors.setdefault("401", ERROR_DESCRIPTIONS["401"])
        else:
            operation["security"] = []
        for status in sorted(errors):
            if status not in ERROR_STATUSES:
                raise ValueError(f"{status} is not an error status of the API (docs/api.md).")
            responses[status] = {
                "description": errors[status] or ERROR_DESCRIPTIONS[status],
                "content": {JSON: {"schema": "Error"}},
            }


def _schema_summary(name: str) -> str:
    """The first line of a schema's docstring, for a response's description."""
    schema = next((s for s in schemas.schema_classes() if s.__name__ == f"{name}Schema"), None)
    doc = inspect.cleandoc(schema.__doc__ or "") if schema else ""
    return doc.split("\n", 1)[0] or name


def path_parameters(rule: Rule) -> list[dict[str, Any]]:
    """The rule's variables as OpenAPI path parameters, typed by their converters."""
    parameters = []
    for name, converter in rule._converters.items():
        schema: dict[str, Any]
        if isinstance(converter, NumberConverter):
            schema = {"type": "integer" if converter.num_convert is int else "number"}
            minimum = converter.min
            if minimum is None and not converter.signed:
                minimum = 0
            if minimum is not None:
                schema["minimum"] = minimum
            if converter.max is not None:
                schema["maximum"] = converter.max
        else:
            schema = {"type": "string", "minLength": 1, "pattern": "^[^/]+$"}
        parameters.append(
            {
                "name": name,
                "in": "path",
                "required": True,
                "description": PARAMETER_DESCRIPTIONS.get(name, name.replace("_", " ")),
                "schema": schema,
            }
        )
    return parameters


def api_rules(app: Flask) -> Iterable[Rule]:
    """Every URL rule of the API blueprint, by path."""
    prefix = f"{bp.name}."
    return sorted(
        (rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith(prefix)),
        key=lambda rule: (rule.rule, rule.endpoint),
    )


def build_document(app: Flask) -> dict[str, Any]:
    """The OpenAPI document of the app's API, as a dict ready for JSON."""
    spec = APISpec(
        title="Blood Bowl League Manager API",
        version=API_VERSION,
        openapi_version=OPENAPI_VERSION,
        plugins=[FlaskPlugin(), MarshmallowPlugin(), LeagueApiPlugin()],
        info={"description": DESCRIPTION},
        tags=list(TAGS),
    )
    spec.components.security_scheme(
        SECURITY_SCHEME,
        {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token: `flask --app app users token NAME` prints one.",
        },
    )
    for name, parameter in QUERY_PARAMETERS.items():
        spec.components.parameter(name, "query", parameter)
    for schema in schema_classes():
        doc = inspect.cleandoc(schema.__doc__ or "")
        spec.components.schema(component_name(schema), {"description": doc}, schema=schema)
    for rule in api_rules(app):
        view = app.view_functions[rule.endpoint]
        spec.path(view=view, app=app, rule=rule, parameters=path_parameters(rule))
    return spec.to_dict()


def document(app: Flask | None = None) -> dict[str, Any]:
    """The app's document, built once per app."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    if EXTENSION_KEY not in app.extensions:
        app.extensions[EXTENSION_KEY] = build_document(app)
    document: dict[str, Any] = app.extensions[EXTENSION_KEY]
    return document


@bp.get("/openapi.json")
def openapi_json() -> dict[str, Any]:
    """This OpenAPI document.

    Generated from the code's own schemas and routes; the page `/api` shows it to people.
    ---
    get:
      tags: [Documentation]
      responses:
        200:
          description: An OpenAPI 3.1 document.
          content:
            application/json:
              schema:
                type: object
                required: [openapi, info, paths]
                properties:
                  openapi: {type: string, const: "3.1.0"}
                  info: {type: object}
                  paths: {type: object}
                  components: {type: object}
                  tags: {type: array}
    """
    return document()
