"""One transaction per user action: commit on success, roll back on any error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session

from league.extensions import db


@contextmanager
def unit_of_work() -> Iterator[Session]:
    session = db.session
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
