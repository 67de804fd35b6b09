"""Helpers for the page tests: sign in through the form, read pages the way a person does."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from tests.factories import DEFAULT_PASSWORD


def login(client: FlaskClient, username: str, password: str = DEFAULT_PASSWORD) -> None:
    """Sign in through the login form (as `username` only: whoever was signed in is logged
    out first, since the form ignores a signed-in visitor), then clear the messages."""
    client.post("/logout")
    response = client.post("/login", data={"username": username, "password": password})
    assert response.status_code == 302, response.text
    client.get("/")  # show (and so clear) the "Logged in" message


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def flashes(page: str) -> list[str]:
    return [text_of(m) for m in re.findall(r'<p class="flash[^"]*">(.*?)</p>', page, re.S)]


def field_errors(page: str, field_id: str) -> list[str]:
    """The errors shown next to a form field (`<ul class="errors" id="<field_id>-errors">`)."""
    found = re.search(
        rf'<ul class="errors" id="{re.escape(field_id)}-errors"[^>]*>(.*?)</ul>', page, re.S
    )
    if found is None:
        return []
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def form_errors(page: str) -> list[str]:
    """Messages above a form (not about one field)."""
    blocks = re.findall(r'<div class="form-errors"[^>]*>(.*?)</div>', page, re.S)
    return [text_of(p) for block in blocks for p in re.findall(r"<p>(.*?)</p>", block, re.S)]


def input_value(page: str, field_id: str) -> str | None:
    found = re.search(rf'<input[^>]*\bid="{re.escape(field_id)}"[^>]*>', page)
    assert found is not None, f"no input {field_id}"
    value = re.search(r'\bvalue="([^"]*)"', found.group(0))
    return html.unescape(value.group(1)) if value else None


def table_rows(page: str, after: str) -> list[list[str]]:
    """Cell texts of the body rows of the first table after the marker `after`."""
    start = page.index(after)
    table = page[page.index("<tbody>", start) : page.index("</tbody>", start)]
    return [
        [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    ]


#: The league form's required fields (creation and settings), filled in; add a name.
LEAGUE_FORM = {
    "ruleset_id": "bb2025",
    "starting_treasury": "1000000",
    "points_win": "3",
    "points_draw": "1",
    "points_loss": "0",
    "tie_breaker_1": "points",
}


def league_form(name: str = "Old World Cup", **changes: str) -> dict[str, str]:
    """The league form filled in (LEAGUE_FORM and a name), with ``changes`` to its boxes."""
    return {"name": name, **LEAGUE_FORM, **changes}
