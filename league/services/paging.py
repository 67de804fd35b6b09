"""Long lists a page at a time: in memory (`page_of`) or in SQL (`page_in_sql`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

Item = TypeVar("Item")
Other = TypeVar("Other")

#: Rows a long list (players, graves, matches, ledger entries) shows at once: a page
#: stays small however long the league runs.
LIST_PAGE = 50


@dataclass(frozen=True, slots=True)
class Page(Generic[Item]):
    """One page of a long list: its items, which page (from 1) and of how many."""

    items: Sequence[Item]
    number: int
    pages: int
    total: int
    first: int  # the first item's place in the whole list, from 1 (0 when it is empty)

    def map(self, make: Callable[[Item], Other]) -> Page[Other]:
        """The same page, each item made into another."""
        items = [make(item) for item in self.items]
        return Page(items, self.number, self.pages, self.total, self.first)


def _page_count(total: int, size: int) -> int:
    return max(1, -(-total // size))


def page_of(items: Sequence[Item], number: int | None, size: int | None = None) -> Page[Item]:
    """Page `number` of `items`, `size` (LIST_PAGE) to a page; a number out of range (or
    none, or not a number) gives the nearest page rather than an error."""
    size = size or LIST_PAGE
    pages = _page_count(len(items), size)
    number = min(max(number or 1, 1), pages)
    start = (number - 1) * size
    shown = items[start : start + size]
    return Page(shown, number, pages, len(items), start + 1 if shown else 0)


def page_in_sql(
    session: Session, query: Select[Any], number: int | None, size: int | None = None
) -> Page[tuple[Any, ...]]:
    """`page_of` the rows `query` selects, in its order, read a page at a time: LIMIT and
    OFFSET, with the total counted by the same statement (COUNT(*) OVER ()). Only a page
    past the end costs more: the count, then the last page."""
    size = size or LIST_PAGE
    number = max(number or 1, 1)
    counted = query.add_columns(func.count().over())

    def read(page: int) -> list[tuple[Any, ...]]:
        rows = session.execute(counted.limit(size).offset((page - 1) * size))
        return [tuple(row) for row in rows]

    rows = read(number)
    if rows:
        total = int(rows[0][-1])
    elif number == 1:
        total = 0
    else:
        everything = query.order_by(None).subquery()
        total = session.scalar(select(func.count()).select_from(everything)) or 0
        if number > _page_count(total, size):
            number = _page_count(total, size)
            rows = read(number) if total else []
    start = (number - 1) * size
    items = [row[:-1] for row in rows]
    return Page(items, number, _page_count(total, size), total, start + 1 if items else 0)
