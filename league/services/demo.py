"""The demo data `make run` seeds into an empty database."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.models import League, User
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.teams import (
    HirePlayer,
    NewTeam,
    buy_team_item,
    confirm_draft,
    create_team,
    hire_player,
)
from league.services.users import NewUser, create_user

DEMO_COMMISSIONER = "commissioner"
DEMO_COACHES = ("coach_anna", "coach_bram")


@dataclass(frozen=True, slots=True)
class DemoTeam:
    name: str
    team_type_id: str
    #: (position id, how many) in hiring order.
    hires: tuple[tuple[str, int], ...]
    #: (item, how many) bought during the draft.
    items: tuple[tuple[str, int], ...]


# Each league: two teams of different types, one per demo coach; every draft is legal.
DEMO_LEAGUES: dict[str, tuple[str, tuple[DemoTeam, DemoTeam]]] = {
    "bb2025": (
        "Old World Demo League",
        (
            DemoTeam(
                "Reikland Reavers",
                "human",
                (
                    ("human-lineman", 7),
                    ("human-catcher", 2),
                    ("human-thrower", 1),
                    ("human-blitzer", 2),
                ),
                (("reroll", 3), ("apothecary", 1), ("dedicated_fan", 2)),
            ),
            DemoTeam(
                "Gouged Eye",
                "orc",
                (("orc-lineman", 6), ("orc-thrower", 1), ("orc-blitzer", 2), ("big-un-blocker", 2)),
                (("reroll", 3), ("apothecary", 1)),
            ),
        ),
    ),
    "bb2020": (
        "Second Season Classic Cup",
        (
            DemoTeam(
                "Grudgebearers",
                "dwarf",
                (("dwarf-blocker-lineman", 6), ("runner", 1), ("blitzer", 2), ("troll-slayer", 2)),
                (("reroll", 2),),
            ),
            DemoTeam(
                "Skavenblight Scramblers",
                "skaven",
                (
                    ("skaven-clanrat-lineman", 7),
                    ("thrower", 1),
                    ("gutter-runner", 2),
                    ("blitzer", 1),
                    ("rat-ogre", 1),
                ),
                (("reroll", 2), ("apothecary", 1)),
            ),
        ),
    ),
}

PLAYER_NAMES = (
    "Grim",
    "Hild",
    "Brokk",
    "Ulla",
    "Snik",
    "Varg",
    "Otto",
    "Mira",
    "Krug",
    "Tess",
    "Bram",
    "Ada",
    "Rolf",
    "Zed",
    "Ingrid",
    "Wulf",
)


@dataclass(frozen=True, slots=True)
class DemoAccounts:
    username: str
    password: str
    coaches: tuple[str, ...]


def _draft(session: Session, coach: User, league: League, demo: DemoTeam) -> None:
    team = create_team(session, coach, NewTeam(league.id, demo.name, demo.team_type_id))
    number = 0
    for position_id, count in demo.hires:
        for _ in range(count):
            number += 1
            name = PLAYER_NAMES[(number - 1) % len(PLAYER_NAMES)]
            hire_player(session, coach, team.id, HirePlayer(position_id, name, number))
    for item, count in demo.items:
        for _ in range(count):
            buy_team_item(session, coach, team.id, item)
    confirm_draft(session, coach, team.id)


def seed_demo(session: Session) -> DemoAccounts | None:
    """Seed demo leagues when the database holds no users; None when it is not empty."""
    if session.scalar(select(func.count(User.id))):
        return None
    password = secrets.token_urlsafe(9)
    commissioner = create_user(session, NewUser(DEMO_COMMISSIONER, password))
    coaches = [create_user(session, NewUser(name, password)) for name in DEMO_COACHES]
    for ruleset_id, (league_name, demo_teams) in DEMO_LEAGUES.items():
        league = create_league(session, commissioner, LeagueSettings(league_name, ruleset_id))
        for coach, demo in zip(coaches, demo_teams, strict=True):
            add_member(session, commissioner, league, coach, "coach")
            _draft(session, coach, league, demo)
    return DemoAccounts(DEMO_COMMISSIONER, password, DEMO_COACHES)
