"""Reading requests: route ids and JSON bodies.

`IdConverter` reads the `<id:...>` of a route; `json_object` turns a body into a JSON
object or a 400 (`bad_request`); the request schemas (`league.api.schemas`) load its
members (a 400 `invalid_field` naming the field), so a service only ever sees
well-typed input. Responses are dumped by the response schemas of the same package.
"""

from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter, Map, ValidationError

from league.api.errors import BadRequest, invalid_field
from league.api.schemas.base import MAX_ID
from league.services.text import is_valid_unicode


class IdConverter(IntegerConverter):
    """`<id:name>` in a route: a database id; one beyond the 32-bit range is a 404.

    Werkzeug's own `<int(max=...)>` treats an out-of-range value as no match, which
    becomes a 405 where another method serves the same path (GET and POST
    `/players/<id>/advancements`); an id that cannot exist is simply not found.
    """

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, max=MAX_ID)

    def to_python(self, value: str) -> int:
        try:
            number: int = super().to_python(value)
        except ValidationError:
            raise NotFound(f"There is nothing with the id {value}.") from None
        return number


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or a 400.

    JSON may escape half of a surrogate pair on its own (`"\\ud800"`); Python reads it
    into a string no database can store, so the whole body is refused here, naming
    the member that holds it, before any view or service sees it.
    """
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:  # absurdly nested arrays or objects; not a ValueError
        body = None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object as the request body.")
    where = _not_unicode(body)
    if where is not None:
        raise invalid_field(
            where, f"'{where}' must be valid Unicode text (it has a lone surrogate)."
        )
    return body


def _not_unicode(body: dict[str, Any]) -> str | None:
    """The path (`players[2].name`) of the first string or member name that is not
    valid Unicode, or None. A loop, not recursion: the body may be nested deeply."""
    pending: list[tuple[str, Any]] = [("", body)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, str):
            if not is_valid_unicode(value):
                return path or "body"
        elif isinstance(value, dict):
            for key, member in value.items():
                where = f"{path}.{key}" if path else key
                if not is_valid_unicode(key):
                    # Named as far as it can be shown: the bad half pair as an escape.
                    return where.encode("utf-8", "backslashreplace").decode()
                pending.append((where, member))
        elif isinstance(value, list):
            pending.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None
