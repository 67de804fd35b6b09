"""The demo league `make run` seeds into an empty database."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.models import User
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.users import NewUser, create_user

DEMO_COMMISSIONER = "commissioner"
DEMO_COACHES = ("coach_anna", "coach_bram")


@dataclass(frozen=True, slots=True)
class DemoAccounts:
    username: str
    password: str
    coaches: tuple[str, ...]


def seed_demo(session: Session, ruleset_id: str) -> DemoAccounts | None:
    """Seed a demo league when the database holds no users; None when it is not empty."""
    if session.scalar(select(func.count(User.id))):
        return None
    password = secrets.token_urlsafe(9)
    commissioner = create_user(session, NewUser(DEMO_COMMISSIONER, password))
    league = create_league(
        session, commissioner, LeagueSettings("Old World Demo League", ruleset_id)
    )
    for coach in DEMO_COACHES:
        coach_user = create_user(session, NewUser(coach, password))
        add_member(session, commissioner, league, coach_user, "coach")
    return DemoAccounts(DEMO_COMMISSIONER, password, DEMO_COACHES)
