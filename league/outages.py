"""Outages that pass: the database busy beyond its wait, the job queue out of reach.

Either one is answered 503 with Retry-After (a page, or the API's error body), not as a
500: the request's transaction was rolled back, nothing was saved, and the same request
may simply be sent again a little later.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import ServiceUnavailable

from league.i18n import gettext

#: Seconds to wait before trying again: a SQLite write lock held past the busy timeout
#: (a backup, a long import) is usually gone by then.
DATABASE_RETRY_AFTER = 10
#: Seconds to wait when the job queue (Redis) does not answer: a restart takes longer.
QUEUE_RETRY_AFTER = 30


class QueueUnavailable(Exception):
    """The job queue's store (Redis, or its SQLite file) did not answer."""


def sqlite_busy(error: BaseException) -> bool:
    """SQLite's "database is locked": another connection kept the write lock for longer
    than the busy timeout. The error comes raw from the driver when our own BEGIN
    IMMEDIATE fails (league._sqlite_begin), wrapped by SQLAlchemy from a statement."""
    driver_error = error.orig if isinstance(error, DBAPIError) else error
    return isinstance(driver_error, sqlite3.OperationalError) and str(
        getattr(driver_error, "sqlite_errorname", "")
    ).startswith("SQLITE_BUSY")


def as_unavailable(error: BaseException) -> ServiceUnavailable | None:
    """The 503 for an error that is a passing outage, None for any other error."""
    if sqlite_busy(error):
        return ServiceUnavailable(
            gettext(
                "The database is busy with other changes and nothing was saved. "
                "Try again in a few seconds."
            ),
            retry_after=DATABASE_RETRY_AFTER,
        )
    if isinstance(error, QueueUnavailable):
        return ServiceUnavailable(
            gettext("Background jobs are unavailable for now. Try again in a minute."),
            retry_after=QUEUE_RETRY_AFTER,
        )
    return None
