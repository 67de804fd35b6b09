"""One transaction per user action: commit on success, roll back on any error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session

from league.extensions import WRITES, db


@contextmanager
def unit_of_work() -> Iterator[Session]:
    session = db.session()
    if session.in_transaction():
        # What the caller read before was a transaction of its own (a page's reads): the unit
        # starts afresh, so that its checks read under its own lock, never a stale snapshot.
        session.commit()
    # A transaction that writes: on SQLite it holds the write lock from its first read.
    session.connection(execution_options={WRITES: True})
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
