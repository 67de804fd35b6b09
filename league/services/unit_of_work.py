"""One transaction per user action: commit on success, roll back on any error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from league.extensions import WRITES, db
from league.services.errors import ConcurrentChange


@contextmanager
def unit_of_work() -> Iterator[Session]:
    session = db.session()
    try:
        if session.in_transaction():
            # What the caller read before was a transaction of its own (a page's reads): the
            # unit starts afresh, so its checks read under its own lock, never a stale snapshot.
            session.commit()
        # A transaction that writes: on SQLite it holds the write lock from its first read.
        session.connection(execution_options={WRITES: True})
        yield session
        session.commit()
    except IntegrityError as error:
        session.rollback()
        if not _unique_violation(error):
            raise
        # The services check what they can first; only a twin request slipping past the
        # check at the same moment gets here: a 409 with a message, never a 500.
        raise ConcurrentChange(
            "Someone made the same change at the same moment; nothing was saved. "
            "Reload the page to see it."
        ) from error
    except BaseException:
        session.rollback()
        raise


def _unique_violation(error: IntegrityError) -> bool:
    """PostgreSQL's unique_violation (SQLSTATE 23505) or SQLite's UNIQUE constraint."""
    orig = error.orig
    return (
        getattr(orig, "sqlstate", None) == "23505"
        or getattr(orig, "sqlite_errorname", None) == "SQLITE_CONSTRAINT_UNIQUE"
    )
