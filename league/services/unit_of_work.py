"""One transaction per user action: commit on success, roll back on any error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from league.extensions import WRITES, db
from league.i18n import gettext
from league.services import events
from league.services.errors import ConcurrentChange

#: session.info key: what to run once the open transaction has committed.
AFTER_COMMIT = "after_commit"


def after_commit(session: Session, callback: Callable[[], None]) -> None:
    """Run `callback` once the unit of work's transaction commits; never if it rolls back
    (outgoing webhooks are sent this way: only what was saved is announced)."""
    session.info.setdefault(AFTER_COMMIT, []).append(callback)


def _run_after_commit(session: Session) -> None:
    for callback in session.info.pop(AFTER_COMMIT, []):
        callback()
    events.hand_on_committed(session)


def _forget(session: Session) -> None:
    """Rolled back: nothing of the transaction is run or told."""
    session.info.pop(AFTER_COMMIT, None)
    events.forget(session)


@contextmanager
def unit_of_work() -> Iterator[Session]:
    """The block's transaction: committed if it ends normally, rolled back on any error.

    The domain events the block recorded (`league.services.events`) go to the before-commit
    subscribers as it commits, and to the after-commit ones, with the `after_commit`
    callbacks, once it has."""
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
        _forget(session)
        session.rollback()
        if not _unique_violation(error):
            raise
        # The services check what they can first; only a twin request slipping past the
        # check at the same moment gets here: a 409 with a message, never a 500.
        raise ConcurrentChange(
            gettext(
                "Someone made the same change at the same moment; nothing was saved. "
                "Reload the page to see it."
            )
        ) from error
    except BaseException:
        _forget(session)
        session.rollback()
        raise
    _run_after_commit(session)


def _unique_violation(error: IntegrityError) -> bool:
    """PostgreSQL's unique_violation (SQLSTATE 23505) or SQLite's UNIQUE constraint."""
    orig = error.orig
    return (
        getattr(orig, "sqlstate", None) == "23505"
        or getattr(orig, "sqlite_errorname", None) == "SQLITE_CONSTRAINT_UNIQUE"
    )
