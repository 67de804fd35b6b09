"""Finding a time to play a fixture: each team's coach offers up to `MAX_SLOTS` times; the
earliest time both teams offer is proposed, and either coach (or a commissioner)
accepting it dates the fixture, which the calendars then show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from league.i18n import gettext, ngettext
from league.models import FixtureSlot, Match, Team, User
from league.services import audit
from league.services.access import may_manage_team, may_report
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.matches import get_match

#: How many times one team may offer for a fixture.
MAX_SLOTS = 3


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored in UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class SlotState:
    """A fixture's offers: each team's times, the time proposed, the time agreed."""

    offers: dict[int, tuple[datetime, ...]]
    proposed: datetime | None
    agreed: datetime | None


def slot_state(session: Session, match: Match) -> SlotState:
    rows = session.scalars(
        select(FixtureSlot)
        .where(FixtureSlot.match_id == match.id)
        .order_by(FixtureSlot.starts_at, FixtureSlot.id)
    ).all()
    offers: dict[int, list[datetime]] = {side.team_id: [] for side in match.sides}
    for row in rows:
        offers.setdefault(row.team_id, []).append(_aware(row.starts_at))
    agreed = next((_aware(r.starts_at) for r in rows if r.accepted_at is not None), None)
    team_times = [set(times) for times in offers.values()]
    shared = sorted(set.intersection(*team_times)) if len(team_times) == 2 else []
    return SlotState(
        {team_id: tuple(times) for team_id, times in offers.items()},
        shared[0] if shared else None,
        agreed,
    )


def _open_match(session: Session, match_id: int) -> Match:
    match = get_match(session, match_id, for_update=True)
    if match.state != "scheduled":
        raise Conflict(gettext("Times are offered for a fixture still to play."))
    return match


def offer_slots(
    session: Session,
    actor: User,
    match_id: int,
    team_id: int,
    times: Sequence[datetime],
    now: datetime,
) -> SlotState:
    """The team's offers for the fixture, replacing its earlier ones."""
    match = _open_match(session, match_id)
    side = next((s for s in match.sides if s.team_id == team_id), None)
    if side is None:
        raise NotFound(gettext("That team does not play this fixture."))
    team: Team = side.team
    may_manage_team(team, actor, "any").require()
    wanted = sorted({_aware(t).astimezone(UTC).replace(second=0, microsecond=0) for t in times})
    if not wanted or len(wanted) > MAX_SLOTS:
        raise RuleViolation(
            ngettext(
                "Offer from one to %(num)d time.",
                "Offer from one to %(num)d times.",
                MAX_SLOTS,
            ),
            field="slots",
        )
    if any(t <= now for t in wanted):
        raise RuleViolation(gettext("Offer times still to come."), field="slots")
    session.execute(
        delete(FixtureSlot).where(FixtureSlot.match_id == match.id, FixtureSlot.team_id == team_id)
    )
    session.add_all(FixtureSlot(match_id=match.id, team_id=team_id, starts_at=t) for t in wanted)
    session.flush()
    audit.record(session, actor, "match.slots", "match", match.id, team_id=team_id)
    return slot_state(session, match)


def accept_proposed(session: Session, actor: User, match_id: int, now: datetime) -> datetime:
    """Agree to the proposed time: the fixture is dated that day (UTC)."""
    match = _open_match(session, match_id)
    may_report(match, actor, "times").require()
    state = slot_state(session, match)
    if state.proposed is None:
        raise Conflict(gettext("The two teams have offered no time in common yet."))
    for slot in session.scalars(select(FixtureSlot).where(FixtureSlot.match_id == match.id)):
        slot.accepted_at = now if _aware(slot.starts_at) == state.proposed else None
    match.scheduled_for = state.proposed.date()
    audit.record(session, actor, "match.time_agreed", "match", match.id)
    return state.proposed
