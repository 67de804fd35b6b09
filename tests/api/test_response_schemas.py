"""Every response is what its schema says: the document cannot drift from what is sent.

The views dump their responses through the marshmallow schemas the OpenAPI document
is built from (`league.api.schemas`). Here, on the seeded demo, every GET operation of
the document is called with every id of the kind its path names, and each body is
checked twice: against the document's JSON Schema for the status, and by loading it
back with the marshmallow schema of that name (closed: a field the schema does not
declare is refused, a required one missing is refused). Every GET operation must
answer with a success at least once. And each view names, in its code, the schema of
every success its docstring documents: the schema it dumps through.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from marshmallow import Schema
from sqlalchemy import select

from league.api import schemas
from league.api.openapi import api_rules, document
from league.extensions import db
from league.models import League, Match, Player, Team, User, Webhook
from league.models.webhook import WEBHOOK_EVENTS
from league.rules import ruleset_ids
from league.seeding.demo import seed_demo
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.receiver import receiver

API = "/api/v1"
SCHEMA_REF = "#/components/schemas/"
#: How many ids of each kind a path is tried with (players are many).
IDS_PER_KIND = 6
#: Operations described by an inline JSON Schema rather than a component.
INLINE = {"/api/v1/openapi.json"}


@pytest.fixture
def seeded(app: Flask, client: FlaskClient) -> tuple[FlaskClient, dict[str, str]]:
    """The demo, with a season closed (a re-draft to read) and one league checking
    tournament rosters (a matched-play check to read); a commissioner's token."""
    with unit_of_work() as session:
        accounts = seed_demo(session)
        assert accounts is not None
        boss = session.scalar(select(User).where(User.username == accounts.username))
        token = issue_token(session, boss)
        # NAF names and numbers, so the leagues' NAF reports can be written.
        for number, user in enumerate(session.scalars(select(User).order_by(User.id)), 1):
            user.naf_name, user.naf_number = user.username, 9000 + number
    headers = {"Authorization": f"Bearer {token}"}
    league = db.session.scalars(select(League).where(League.ruleset_id == "bb2025")).first()
    assert league is not None
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True)
    with receiver() as listening:
        hooked = client.post(
            f"{API}/leagues/{league.id}/webhooks",
            json={"url": listening.url, "events": [WEBHOOK_EVENTS[0]]},
            headers=headers,
        )
    assert hooked.status_code == 201, hooked.json
    checked = client.patch(
        f"{API}/leagues/{league.id}",
        json={"house_rules": {**league.house_rules, "matched_play": {}}},
        headers=headers,
    )
    assert checked.status_code == 200, checked.json
    closed = client.post(f"{API}/leagues/{league.id}/seasons/1/close", json={}, headers=headers)
    assert closed.status_code == 200, closed.json
    return client, headers


def _ids() -> dict[str, list[Any]]:
    def first(model: Any) -> list[int]:
        return list(db.session.scalars(select(model.id).order_by(model.id)))[:IDS_PER_KIND]

    return {
        "league_id": first(League),
        "team_id": first(Team),
        "player_id": first(Player),
        "match_id": first(Match),
        "webhook_id": first(Webhook),
        "user_id": first(User),
        "username": list(db.session.scalars(select(User.username).order_by(User.id)))[:6],
        "season_number": [1, 2],
        "ruleset_id": list(ruleset_ids()),
        "team_type_id": ["human", "orc"],
        "side": ["home", "away"],
    }


def _urls(path: str, ids: dict[str, list[Any]]) -> list[str]:
    urls = [path]
    for name in re.findall(r"{([^}]+)}", path):
        urls = [url.replace(f"{{{name}}}", str(value)) for url in urls for value in ids[name]]
    return urls


def _schema_name(operation: dict[str, Any], status: int) -> str | None:
    response = operation["responses"].get(str(status))
    assert response is not None, f"{status} is not documented"
    content = response.get("content", {}).get("application/json")
    if content is None:
        return None
    ref = content["schema"].get("$ref", "")
    return ref.removeprefix(SCHEMA_REF) or None


def _marshmallow(name: str) -> Schema:
    schema_class: type[Schema] = getattr(schemas, f"{name}Schema")
    return schema_class()


def test_every_get_answers_what_its_schema_says(
    app: Flask, seeded: tuple[FlaskClient, dict[str, str]]
) -> None:
    client, headers = seeded
    spec = document(app)
    components = spec["components"]
    ids = _ids()
    succeeded = set()
    checked = 0
    for path, item in spec["paths"].items():
        operation = item.get("get")
        if operation is None or path in INLINE:
            continue
        for url in _urls(path, ids):
            response = client.get(url, headers=headers)
            if response.mimetype != "application/json":
                assert response.status_code == 200, url
                succeeded.add(path)
                continue
            name = _schema_name(operation, response.status_code)
            assert name is not None, (url, response.status_code)
            body = response.json
            validator = Draft202012Validator({"$ref": SCHEMA_REF + name, "components": components})
            problems = [error.message for error in validator.iter_errors(body)]
            assert not problems, (url, name, problems)
            assert _marshmallow(name).validate(body) == {}, (url, name)
            checked += 1
            if response.status_code < 300:
                succeeded.add(path)
    every_get = {path for path, item in spec["paths"].items() if "get" in item} - INLINE
    assert succeeded == every_get
    assert checked > 50


def test_each_view_dumps_through_the_schemas_its_docstring_documents(app: Flask) -> None:
    spec = document(app)
    for rule in api_rules(app):
        view = inspect.unwrap(app.view_functions[rule.endpoint])
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        source = inspect.getsource(inspect.getmodule(view))  # type: ignore[arg-type]
        body = inspect.getsource(view)
        for method, operation in spec["paths"][path].items():
            if method not in {m.lower() for m in rule.methods or ()}:
                continue
            for status, response in operation["responses"].items():
                if not status.startswith("2") or path in INLINE:
                    continue
                ref = response.get("content", {}).get("application/json", {}).get("schema", {})
                name = ref.get("$ref", "").removeprefix(SCHEMA_REF)
                if not name:
                    continue  # not JSON (a PDF, an XML report)
                schema = getattr(schemas, f"{name}Schema")
                if not schema.__module__.startswith(schemas.__name__):
                    # A shape declared with its service (the team document) is dumped there.
                    owner = inspect.getsource(inspect.getmodule(schema))  # type: ignore[arg-type]
                    assert f"{name}Schema().dump(" in owner, (rule.endpoint, status, name)
                    continue
                # The view, or a helper of its module, dumps through the schema.
                assert f"{name}Schema.body(" in body or f"{name}Schema.body(" in source, (
                    rule.endpoint,
                    status,
                    name,
                )
