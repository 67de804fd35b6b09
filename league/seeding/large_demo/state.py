"""The large demo's constants, sizes and the simulation's state: plain objects
whose rows are written at the end, and the rows written so far."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from league.models import (
    Advancement,
    AuditEntry,
    DiceRoll,
    League,
    LeagueMember,
    Match,
    MatchPlayer,
    MatchTeam,
    Player,
    PlayerSkill,
    Season,
    Team,
    TreasuryEntry,
    User,
)
from league.rules import (
    Position,
    Ruleset,
    TeamType,
)

COMMISSIONER = "commissioner"
#: Kick-off of the first round; every later date follows from it (deterministic).
FIRST_KICK_OFF = datetime(2016, 1, 4, 19, 0, tzinfo=UTC)
#: Weeks off between two seasons.
SEASON_BREAK_WEEKS = 3
LEAGUE_NAMES = {
    "bb2025": "Old World Grand League",
    "bb2020": "Second Season Open",
    "classic": "Living Rulebook Classic",
    "classic-spend": "Classic Skills Circuit",
}
PLACES = (
    "Altdorf", "Averheim", "Bögenhafen", "Carroburg", "Delberz", "Erengrad", "Frugelhofen",
    "Grimminhagen", "Helmgart", "Karak Azgal", "Kislev", "Marienburg", "Middenheim", "Nuln",
    "Praag", "Quenelles", "Talabheim", "Ubersreik", "Wissenburg", "Zhufbar",
)  # fmt: skip
NICKNAMES = (
    "Avengers", "Bashers", "Blitzers", "Butchers", "Crushers", "Dreadnoughts", "Gougers",
    "Grinders", "Hammers", "Howlers", "Marauders", "Maulers", "Raiders", "Reavers",
    "Rippers", "Stompers", "Thunder", "Vipers", "Warhounds", "Wolves",
)  # fmt: skip
FIRST_NAMES = (
    "Ada", "Brokk", "Bram", "Dagna", "Egil", "Fenna", "Grim", "Hild", "Ingrid", "Jorek",
    "Krug", "Lotte", "Mira", "Nogg", "Otto", "Petra", "Rolf", "Snik", "Tess", "Ulla",
    "Varg", "Wulf", "Yrsa", "Zed",
)  # fmt: skip
LAST_NAMES = (
    "Ashfoot", "Blackmane", "Bonebreaker", "Copperpot", "Deepdelver", "Fleetfoot",
    "Grimtooth", "Hammerhand", "Ironhide", "Longstride", "Mudguts", "Quickfingers",
    "Redbeard", "Skullsplitter", "Stonefist", "Thunderboots",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class LargeDemoSize:
    """How much to build. The default is the full large league set."""

    teams: int = 200
    seasons: int = 10
    #: Rounds each team plays per season (the last season plays half of them).
    rounds_per_season: int = 7
    #: One league per ruleset; the teams are shared out evenly.
    rulesets: tuple[str, ...] = ("bb2025", "bb2020", "classic", "classic-spend")
    seed: int = 20_260_101

    @property
    def played_rounds_last_season(self) -> int:
        return self.rounds_per_season // 2

    @property
    def steps(self) -> int:
        """Units of progress reported: one per round played or scheduled, one per table."""
        return len(self.rulesets) * self.seasons * self.rounds_per_season + len(TABLES)


#: The full large league set, the default.
FULL_SIZE = LargeDemoSize()
#: A scaled-down set for tests (one league of 20 teams, three seasons).
MID_SIZE = LargeDemoSize(teams=20, seasons=3, rulesets=("bb2025",))


@dataclass(frozen=True, slots=True)
class LargeDemoResult:
    username: str
    password: str
    league_ids: tuple[int, ...]
    teams: int
    players: int
    matches_played: int
    matches_scheduled: int
    player_lines: int
    advancements: int


@dataclass(slots=True)
class DemoPlayer:
    id: int
    team: DemoTeam
    position: Position
    name: str
    number: int
    created_at: datetime
    status: str = "active"
    value: int = 0
    spp_earned: int = 0
    spp_spent: int = 0
    niggling: int = 0
    reductions: dict[str, int] = field(default_factory=dict)
    #: Skill names gained, in order; improvements per characteristic.
    gained: list[str] = field(default_factory=list)
    improvements: list[str] = field(default_factory=list)
    advancements: int = 0

    @property
    def on_roster(self) -> bool:
        return self.status in ("active", "mng")


@dataclass(slots=True)
class DemoTeam:
    id: int
    league: DemoLeague
    team_type: TeamType
    coach_id: int
    name: str
    players: list[DemoPlayer] = field(default_factory=list)
    treasury: int = 0
    rerolls: int = 0
    apothecary: bool = False
    dedicated_fans: int = 0

    def roster(self) -> list[DemoPlayer]:
        return [p for p in self.players if p.on_roster]


@dataclass(slots=True)
class DemoLeague:
    id: int
    ruleset: Ruleset
    teams: list[DemoTeam] = field(default_factory=list)
    season_ids: list[int] = field(default_factory=list)


TABLES: tuple[type[Any], ...] = (
    User,
    League,
    LeagueMember,
    Season,
    Team,
    Player,
    Match,
    MatchTeam,
    MatchPlayer,
    DiceRoll,
    Advancement,
    PlayerSkill,
    TreasuryEntry,
    AuditEntry,
)


class Rows:
    """The rows written so far, their ids, the random generator and the treasury ledger."""

    def __init__(self, size: LargeDemoSize, progress: Callable[[int], None]) -> None:
        self.size = size
        # Deterministic on purpose (a fixed seed): demo data, not secrets.
        self.rng = random.Random(size.seed)  # noqa: S311
        self.progress = progress
        self.rows: dict[type[Any], list[dict[str, Any]]] = {table: [] for table in TABLES}
        self.ids: dict[type[Any], int] = dict.fromkeys(TABLES, 0)
        self.commissioner_id = 0
        self.leagues: list[DemoLeague] = []
        self._legal_cache: dict[tuple[str, str, str, tuple[str, ...], str], list[Any]] = {}

    def next_id(self, table: type[Any]) -> int:
        self.ids[table] += 1
        return self.ids[table]

    def add(self, table: type[Any], **row: Any) -> dict[str, Any]:
        self.rows[table].append(row)
        return row

    def _kick_off(self, season_index: int, round_index: int) -> datetime:
        weeks = season_index * (self.size.rounds_per_season + SEASON_BREAK_WEEKS) + round_index
        return FIRST_KICK_OFF + timedelta(weeks=weeks)

    def _ledger(
        self,
        team: DemoTeam,
        amount: int,
        kind: str,
        description: str,
        at: datetime,
        actor_id: int | None,
        *,
        item: str | None = None,
        match_id: int | None = None,
    ) -> None:
        team.treasury += amount
        self.add(
            TreasuryEntry,
            id=self.next_id(TreasuryEntry),
            team_id=team.id,
            amount=amount,
            kind=kind,
            description=description,
            actor_id=actor_id,
            match_id=match_id,
            item=item,
            created_at=at,
        )

    def _buy(self, team: DemoTeam, item: str, price: int, description: str, at: datetime) -> None:
        self._ledger(team, -price, "purchase", description, at, team.coach_id, item=item)
