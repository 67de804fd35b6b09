"""The API fuzzer's tests get an id each."""

from __future__ import annotations

import pytest
from schemathesis.pytest.plugin import SchemathesisFunction


def pytest_itemcollected(item: pytest.Item) -> None:
    """schemathesis names each operation's test `test_api[GET /api/v1/...]`, but pytest 9
    builds the id from the function's name alone, so all 58 shared the id `test_api`, and
    pytest-xdist, which hands tests out by id, ran 3 of them. The id from the full name."""
    if (
        isinstance(item, SchemathesisFunction)
        and item.parent is not None
        and item.name != item.originalname
    ):
        operation = item.name.removeprefix(f"{item.originalname}[").removesuffix("]")
        item._id = item.parent.id.child(item.originalname).with_params(operation)
