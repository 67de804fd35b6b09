"""Leagues: creation and membership."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League, LeagueMember, User
from league.services import audit
from league.services.errors import Conflict, Forbidden, RuleViolation


@dataclass(frozen=True, slots=True)
class NewLeague:
    name: str
    ruleset_id: str


def create_league(session: Session, actor: User, command: NewLeague) -> League:
    """Create a league; its creator becomes its commissioner."""
    name = command.name.strip()
    if not 3 <= len(name) <= 80:
        raise RuleViolation("A league name has 3 to 80 characters.", field="name")
    league = League(name=name, ruleset_id=command.ruleset_id)
    league.members.append(LeagueMember(user_id=actor.id, role="commissioner"))
    session.add(league)
    session.flush()
    audit.record(session, actor, "league.create", "league", league.id, name=name)
    return league


def add_member(session: Session, actor: User, league: League, user: User, role: str) -> None:
    """Add `user` to `league`; only its commissioners may."""
    if role_in(league, actor) != "commissioner":
        raise Forbidden("Only a commissioner of this league can add members.")
    if role_in(league, user) is not None and not user.is_admin:
        raise Conflict(f"{user.username} is already a member of {league.name}.")
    league.members.append(LeagueMember(user_id=user.id, role=role))
    session.flush()
    audit.record(session, actor, "league.add_member", "league", league.id, user=user.username)


def role_in(league: League, user: User | None) -> str | None:
    """'commissioner', 'coach' or None; site admins act as commissioners."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_admin:
        return "commissioner"
    return next((m.role for m in league.members if m.user_id == user.id), None)


def list_leagues(session: Session) -> list[League]:
    return list(session.scalars(select(League).order_by(League.name)))
