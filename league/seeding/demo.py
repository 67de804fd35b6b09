"""The demo data `make run` seeds into an empty database."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.models import League, Match, User
from league.services.access import get_team
from league.services.fixtures import generate_fixtures
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_result
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
        fixtures = generate_fixtures(
            session, commissioner, league.id, double=True, start_date=date.today(), shuffle=False
        )
        _play_first_fixture(session, commissioner, fixtures[0])
    return DemoAccounts(DEMO_COMMISSIONER, password, DEMO_COACHES)


def _play_first_fixture(session: Session, commissioner: User, match: Match) -> None:
    """A played match: touchdowns, a casualty, an MVP; the return fixture stays to play."""
    home, away = (get_team(session, side.team_id) for side in match.sides)
    scorer, thrower = home.players[-1], home.players[-3]
    bruiser, victim = away.players[-1], home.players[0]
    report = MatchReport(
        # D6 6 on Expensive Mistakes: no incident, so the demo's treasuries are predictable.
        home=SideReport(score=2, fans_change=1, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(
            PlayerEvents(scorer.id, td=2, mvp=1),
            PlayerEvents(thrower.id, comp=2),
            PlayerEvents(bruiser.id, td=1, cas=1, mvp=1),
            PlayerEvents(victim.id, injury="seriously_hurt"),
        ),
        fan_attendance=6,
    )
    record_result(session, commissioner, match.id, report)
