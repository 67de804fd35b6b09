"""The data revision: a token that changes with every transaction that writes.

The public league pages (home, standings, fixtures, statistics) show a little of
everything in a league: results, rosters, deaths, advancements, members, settings.
Instead of fingerprinting all of that on each visit, every committed write sets a
new random token on the single row of `data_revision`, and a page rendered at one
token is served from memory for as long as the token stays (league.caching).

The token is set at commit, after the transaction's own writes and locks, so the
row's lock is the last one a writer takes and no two writers wait on each other
through it. Random rather than counted: two databases (a restored backup, a new
one) never share a token, so a process never takes one's page for the other's.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import Connection, String, Table, event, insert, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from league.extensions import Model

#: session.info key: the transaction has written something since it began.
_WROTE = "league_wrote"


class DataRevision(Model):
    """One row: the token of the last committed write."""

    __tablename__ = "data_revision"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    token: Mapped[str] = mapped_column(String(32))


def new_token() -> str:
    return secrets.token_hex(16)


def current_revision(session: Session) -> str | None:
    """The token of the last committed write (one query); None if there is no row.

    On PostgreSQL, outside a transaction, the token is read in autocommit mode: one round
    trip instead of three (BEGIN, SELECT, ROLLBACK), and a cached page needs nothing else
    from the database. Not on SQLite, where there is no round trip to save and the driver's
    autocommit switch would commit whatever another session has open on a shared
    connection. Inside a transaction, the transaction's own view is read.
    """
    bind = session.get_bind()
    if (
        session.in_transaction()
        or isinstance(bind, Connection)
        or bind.dialect.name != "postgresql"
    ):
        return session.connection().execute(_TOKEN).scalar()
    with bind.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        return connection.execute(_TOKEN).scalar()


_TOKEN = select(DataRevision.token).where(DataRevision.id == 1)


def mark_written(session: Session) -> None:
    """The transaction writes: its commit sets a new token."""
    session.info[_WROTE] = True


@event.listens_for(DataRevision.__table__, "after_create")
def _first_row(target: Table, connection: Connection, **_kw: Any) -> None:
    connection.execute(insert(target).values(id=1, token=new_token()))


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context: Any) -> None:
    if session.new or session.dirty or session.deleted:
        mark_written(session)


@event.listens_for(Session, "do_orm_execute")
def _bulk_statement(state: Any) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        mark_written(state.session)


@event.listens_for(Session, "before_commit")
def _new_token(session: Session) -> None:
    # The transaction's own writes first, then the revision row last. Flushed before the
    # check: a change made and committed without a flush in between is marked only then.
    session.flush()
    if not session.info.get(_WROTE):
        return
    session.info.pop(_WROTE, None)
    session.connection().execute(
        update(DataRevision).where(DataRevision.id == 1).values(token=new_token())
    )


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_WROTE, None)
