"""The API reference page, `/api`: the OpenAPI document rendered for people.

Server-side, from the very document `GET /api/v1/openapi.json` serves: endpoints
grouped by tag with their parameters, request bodies and responses, then every
schema with its fields. No JavaScript.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup, escape

from league.api.openapi import SECURITY_SCHEME, document

bp = Blueprint("api_docs", __name__)

SCHEMA_REF = "#/components/schemas/"
PARAMETER_REF = "#/components/parameters/"
METHOD_ORDER = ("get", "post", "put", "patch", "delete")

#: A type as shown: pieces of text, each with the anchor it links to (or None).
TypeText = list[tuple[str, str | None]]


@dataclass(frozen=True)
class Field:
    name: str
    type: TypeText
    required: bool
    description: str
    constraints: list[str]


@dataclass(frozen=True)
class Parameter:
    name: str
    location: str
    type: TypeText
    required: bool
    description: str
    constraints: list[str]


@dataclass(frozen=True)
class Body:
    description: str
    type: TypeText
    schema: str | None


@dataclass(frozen=True)
class Response:
    status: str
    description: str
    type: TypeText
    is_error: bool


@dataclass(frozen=True)
class Operation:
    anchor: str
    method: str
    path: str
    summary: str
    description: str
    needs_token: bool
    parameters: list[Parameter]
    body: Body | None
    responses: list[Response]


@dataclass
class Tag:
    name: str
    description: str
    operations: list[Operation] = field(default_factory=list)


@dataclass(frozen=True)
class SchemaDoc:
    name: str
    description: str
    fields: list[Field]
    closed: bool


@dataclass(frozen=True)
class Reference:
    title: str
    version: str
    openapi: str
    description: str
    tags: list[Tag]
    schemas: list[SchemaDoc]


def schema_anchor(name: str) -> str:
    return f"schema-{name}"


def _ref_name(ref: str) -> str:
    return ref.removeprefix(SCHEMA_REF)


def type_text(schema: dict[str, Any]) -> TypeText:
    """A schema's type in words: `integer or null`, `array of Player`, ..."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return [(name, f"#{schema_anchor(name)}")]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            parts: TypeText = []
            for index, option in enumerate(schema[key]):
                if index:
                    parts.append((" or ", None))
                parts.extend(type_text(option))
            return parts
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    if not types:
        return [("any", None)]
    parts = []
    for index, kind in enumerate(types):
        if index:
            parts.append((" or ", None))
        if kind == "array" and "items" in schema:
            parts.append(("array of ", None))
            parts.extend(type_text(schema["items"]))
        elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            parts.append(("object of ", None))
            parts.extend(type_text(schema["additionalProperties"]))
        else:
            parts.append((kind, None))
    return parts


def constraints(schema: dict[str, Any]) -> list[str]:
    """Bounds, lengths, choices and patterns, in words."""
    result = []
    if "enum" in schema:
        choices = ("null" if value is None else str(value) for value in schema["enum"])
        result.append("one of: " + ", ".join(choices))
    if "const" in schema:
        result.append(f"always {schema['const']}")
    for key, label in (
        ("minimum", "at least"),
        ("maximum", "at most"),
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
    ):
        if key in schema:
            value = schema[key]
            text = label.format(value) if "{}" in label else f"{label} {value:,}"
            result.append(text)
    if schema.get("pattern") == r"^[^\x00]*$":
        result.append("no NUL characters")
    elif "pattern" in schema:
        result.append(f"matches {schema['pattern']}")
    items = schema.get("items")
    if isinstance(items, dict) and "$ref" not in items:
        result.extend(f"each {text}" for text in constraints(items))
    return result


def _referenced(schema: dict[str, Any]) -> str | None:
    """The name of the schema a property refers to (directly, nullable, or as items)."""
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    for option in schema.get("anyOf", ()):
        if "$ref" in option:
            return _ref_name(option["$ref"])
    items = schema.get("items")
    return _referenced(items) if isinstance(items, dict) else None


def _fields(schema: dict[str, Any], schemas: dict[str, Any]) -> list[Field]:
    """The schema's properties; one without a description borrows its schema's."""
    required = set(schema.get("required", ()))
    result = []
    for name, prop in schema.get("properties", {}).items():
        description = prop.get("description", "")
        target = _referenced(prop)
        if not description and target in schemas:
            description = schemas[target].get("description", "")
        result.append(
            Field(
                name=name,
                type=type_text(prop),
                required=name in required,
                description=description,
                constraints=constraints(prop),
            )
        )
    return result


def _json_schema(content: dict[str, Any] | None) -> dict[str, Any] | None:
    if not content:
        return None
    media = content.get("application/json") or next(iter(content.values()))
    schema: dict[str, Any] | None = media.get("schema")
    return schema


def _operation(path: str, method: str, item: dict[str, Any], spec: dict[str, Any]) -> Operation:
    operation = item[method]
    shared = spec.get("components", {}).get("parameters", {})
    parameters = [
        shared[parameter["$ref"].removeprefix(PARAMETER_REF)] if "$ref" in parameter else parameter
        for parameter in (*item.get("parameters", ()), *operation.get("parameters", ()))
    ]
    body = operation.get("requestBody")
    body_schema = _json_schema(body.get("content")) if body else None
    responses = [
        Response(
            status=status,
            description=response.get("description", ""),
            type=type_text(schema) if (schema := _json_schema(response.get("content"))) else [],
            is_error=status.startswith(("4", "5")),
        )
        for status, response in sorted(operation.get("responses", {}).items())
    ]
    security = operation.get("security", spec.get("security", []))
    return Operation(
        anchor=f"op-{operation.get('operationId') or method + path}",
        method=method.upper(),
        path=path,
        summary=operation.get("summary", ""),
        description=operation.get("description", ""),
        needs_token=any(SECURITY_SCHEME in requirement for requirement in security),
        parameters=[
            Parameter(
                name=parameter["name"],
                location=parameter["in"],
                type=type_text(parameter.get("schema", {})),
                required=parameter.get("required", False),
                description=parameter.get("description", ""),
                constraints=constraints(parameter.get("schema", {})),
            )
            for parameter in parameters
        ],
        body=Body(
            description=body.get("description", ""),
            type=type_text(body_schema) if body_schema else [],
            schema=_referenced(body_schema) if body_schema else None,
        )
        if body
        else None,
        responses=responses,
    )


def reference(spec: dict[str, Any]) -> Reference:
    """The page's content, from an OpenAPI document."""
    tags = {t["name"]: Tag(t["name"], t.get("description", "")) for t in spec.get("tags", ())}
    for path, item in spec.get("paths", {}).items():
        for method in METHOD_ORDER:
            if method not in item:
                continue
            operation = _operation(path, method, item, spec)
            for name in item[method].get("tags") or ["Other"]:
                tags.setdefault(name, Tag(name, "")).operations.append(operation)
    schemas = spec.get("components", {}).get("schemas", {})
    return Reference(
        title=spec["info"]["title"],
        version=spec["info"]["version"],
        openapi=spec["openapi"],
        description=spec["info"].get("description", ""),
        tags=[tag for tag in tags.values() if tag.operations],
        schemas=[
            SchemaDoc(
                name=name,
                description=schema.get("description", ""),
                fields=_fields(schema, schemas),
                closed=schema.get("additionalProperties") is False,
            )
            for name, schema in schemas.items()
        ],
    )


_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")


def inline_markdown(text: str) -> Markup:
    """`code` and **bold**, everything else escaped."""
    out: list[str] = []
    position = 0
    for match in _INLINE.finditer(text):
        out.append(str(escape(text[position : match.start()])))
        code, bold = match.groups()
        if code is not None:
            out.append(f"<code>{escape(code)}</code>")
        else:
            out.append(f"<strong>{escape(bold)}</strong>")
        position = match.end()
    out.append(str(escape(text[position:])))
    return Markup("".join(out))  # noqa: S704  (every piece is escaped above)


def paragraphs(text: str) -> list[Markup]:
    """Blank-line separated paragraphs, each with inline markdown."""
    return [inline_markdown(" ".join(p.split())) for p in re.split(r"\n\s*\n", text) if p.strip()]


@bp.app_template_filter("api_markdown")
def api_markdown_filter(text: str) -> Markup:
    return inline_markdown(text or "")


@bp.app_template_filter("api_paragraphs")
def api_paragraphs_filter(text: str) -> list[Markup]:
    return paragraphs(text or "")


@bp.get("/api")
def index() -> str:
    """The API reference, for people."""
    return render_template("api/docs.html", ref=reference(document()))
