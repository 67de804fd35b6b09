"""Domain events: what a use case did, told to whoever listens, once it is saved.

A use case records what happened (`record(session, MatchFinalised(...))`) and goes on; it
does not know who listens. The listeners subscribe when the app starts (`subscribe`):

- `before_commit` subscribers get the transaction's events just before it commits, in the
  same transaction, so what they write (the webhooks' outbox rows) is saved with the
  change or not at all, and what they read (the standings of a payload) is what the use
  case left;
- `after_commit` subscribers get them once the unit of work has committed
  (`unit_of_work`), never after a rollback.

An event is a small frozen dataclass of ids: the subscriber reads the rest in the
transaction. Events recorded in a transaction that rolls back are dropped with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

#: session.info keys: the events recorded since the transaction began, then those of the
#: transaction that committed (until the unit of work hands them on).
PENDING = "domain_events"
COMMITTED = "domain_events_committed"


@dataclass(frozen=True, slots=True)
class DomainEvent:
    """Something that happened in a league."""

    league_id: int


@dataclass(frozen=True, slots=True)
class TeamCreated(DomainEvent):
    team_id: int


@dataclass(frozen=True, slots=True)
class TeamRedrafted(DomainEvent):
    """A team's off-season re-draft was approved."""

    team_id: int


@dataclass(frozen=True, slots=True)
class PlayerAdvanced(DomainEvent):
    advancement_id: int


@dataclass(frozen=True, slots=True)
class MatchFinalised(DomainEvent):
    """A result was recorded (a concession included)."""

    match_id: int


@dataclass(frozen=True, slots=True)
class MatchCorrected(DomainEvent):
    match_id: int


@dataclass(frozen=True, slots=True)
class MatchVoided(DomainEvent):
    """A match was voided: a result undone, or a fixture cancelled before it was played."""

    match_id: int


@dataclass(frozen=True, slots=True)
class FixturesGenerated(DomainEvent):
    """A season's fixtures (a round robin, or one Swiss round) were scheduled."""

    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeasonClosed(DomainEvent):
    season_id: int


@dataclass(frozen=True, slots=True)
class FixtureReminder(DomainEvent):
    """A fixture's reminder came due: no time agreed, a pre-game to fill, a result to report."""

    match_id: int
    kind: str


BeforeCommit = Callable[[Session, Sequence[DomainEvent]], None]
AfterCommit = Callable[[Sequence[DomainEvent]], None]

# Keyed by the subscriber itself: an app made twice (the tests) subscribes once.
_before_commit: dict[BeforeCommit, None] = {}
_after_commit: dict[AfterCommit, None] = {}


def subscribe(
    *, before_commit: BeforeCommit | None = None, after_commit: AfterCommit | None = None
) -> None:
    """Hand every transaction's events to these subscribers (called at app start)."""
    if before_commit is not None:
        _before_commit[before_commit] = None
    if after_commit is not None:
        _after_commit[after_commit] = None


def unsubscribe(
    *, before_commit: BeforeCommit | None = None, after_commit: AfterCommit | None = None
) -> None:
    """The subscribers stop hearing of the events (a test's own listener)."""
    if before_commit is not None:
        _before_commit.pop(before_commit, None)
    if after_commit is not None:
        _after_commit.pop(after_commit, None)


def record(session: Session, happened: DomainEvent) -> None:
    """Note that `happened` in the session's open transaction."""
    session.info.setdefault(PENDING, []).append(happened)


def hand_on_committed(session: Session) -> None:
    """After the commit (`unit_of_work`): the committed events to the after-commit subscribers."""
    committed: list[DomainEvent] = session.info.pop(COMMITTED, [])
    if not committed:
        return
    for subscriber in list(_after_commit):
        subscriber(committed)


def forget(session: Session) -> None:
    """A rollback: nothing recorded in the transaction happened."""
    session.info.pop(PENDING, None)
    session.info.pop(COMMITTED, None)


def _before_the_commit(session: Session) -> None:
    pending: list[DomainEvent] = session.info.pop(PENDING, [])
    if not pending:
        return
    for subscriber in list(_before_commit):
        subscriber(session, pending)
    if _after_commit:
        session.info.setdefault(COMMITTED, []).extend(pending)


def _rolled_back(session: Session, transaction: SessionTransaction) -> None:
    if not transaction.nested:  # a savepoint rolled back leaves the transaction's events
        forget(session)


# First among the session's before-commit listeners: what the subscribers write is in
# the transaction before the data revision takes its token (league.models.revision).
event.listen(Session, "before_commit", _before_the_commit, insert=True)
event.listen(Session, "after_soft_rollback", _rolled_back)
