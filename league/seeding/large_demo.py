"""A large, deterministic demo data set for measuring the application at scale.

`flask seed-demo --large` builds it: by default 200 teams in four leagues (one
per shipped ruleset, every team type in use), ten seasons of fixtures of which
9.5 are played (about 6,700 results with per-player events and injuries), dead
players replaced, advancements bought as coaches would, re-rolls bought with
the winnings. A fixed random seed makes every run produce the same rows (only
the password and its hash differ).

The matches are simulated in Python with the rules engine (the same SPP, injury,
winnings and Expensive Mistakes functions the services call), and the rows are
then written with bulk inserts: going through `record_result` once per match
would recompute each team from its whole history every time. The caches the
services keep (SPP, injuries, status, fans, staff, treasury, value) are written
as the events say, so `recompute.check_all` finds nothing to repair.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

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
from league.models.league import TIE_BREAKERS
from league.rules import (
    CHARACTERISTICS,
    RANDOM_CHARACTERISTIC_KIND,
    AdvancementRequest,
    Decision,
    PlayerState,
    Position,
    RulesError,
    Ruleset,
    SppEvents,
    TeamType,
    accessible_categories,
    advancement_cost,
    advancement_kinds,
    casualty_outcome,
    characteristic_roll,
    expensive_mistake,
    expensive_mistake_loss,
    hire_decision,
    lasting_injury,
    legal_skills,
    load_ruleset,
    purchase_cost,
    random_skill_list,
    random_skill_result,
    refusal_text,
    resolve,
    roll,
    roll_random_skill_dice,
    rolls_earned,
    spp_for_events,
    winnings,
)
from league.rules.competitions import SideResult, outcome
from league.rules.team_building import fans_change_decision
from league.services.access import league_ruleset
from league.services.fixtures import round_robin

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
        return len(self.rulesets) * self.seasons * self.rounds_per_season + len(_TABLES)


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


# ---------------------------------------------------------------------------
# The simulation's state (plain objects; rows are written at the end)


@dataclass(slots=True)
class _Player:
    id: int
    team: _Team
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
class _Team:
    id: int
    league: _League
    team_type: TeamType
    coach_id: int
    name: str
    players: list[_Player] = field(default_factory=list)
    treasury: int = 0
    rerolls: int = 0
    apothecary: bool = False
    dedicated_fans: int = 0

    def roster(self) -> list[_Player]:
        return [p for p in self.players if p.on_roster]


@dataclass(slots=True)
class _League:
    id: int
    ruleset: Ruleset
    teams: list[_Team] = field(default_factory=list)
    season_ids: list[int] = field(default_factory=list)


_TABLES: tuple[type[Any], ...] = (
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


class _Builder:
    def __init__(self, size: LargeDemoSize, progress: Callable[[int], None]) -> None:
        self.size = size
        # Deterministic on purpose (a fixed seed): demo data, not secrets.
        self.rng = random.Random(size.seed)  # noqa: S311
        self.progress = progress
        self.rows: dict[type[Any], list[dict[str, Any]]] = {table: [] for table in _TABLES}
        self.ids: dict[type[Any], int] = dict.fromkeys(_TABLES, 0)
        self.commissioner_id = 0
        self.leagues: list[_League] = []
        self._legal_cache: dict[tuple[str, str, str, tuple[str, ...], str], list[Any]] = {}

    def next_id(self, table: type[Any]) -> int:
        self.ids[table] += 1
        return self.ids[table]

    def add(self, table: type[Any], **row: Any) -> dict[str, Any]:
        self.rows[table].append(row)
        return row

    # -- people, leagues, teams -------------------------------------------

    def build(self, password_hash: str) -> None:
        size = self.size
        self.commissioner_id = self._user(COMMISSIONER, password_hash, admin=False)
        per_league = [
            size.teams // len(size.rulesets) + (1 if i < size.teams % len(size.rulesets) else 0)
            for i in range(len(size.rulesets))
        ]
        coach_number = 0
        for ruleset_id, team_count in zip(size.rulesets, per_league, strict=True):
            league = self._league(ruleset_id)
            types = sorted(league.ruleset.team_types, key=lambda t: t.id)
            self.rng.shuffle(types)
            pool = [f"{place} {nick}" for place in PLACES for nick in NICKNAMES]
            self.rng.shuffle(pool)
            names = [
                pool[i % len(pool)] + (f" {i // len(pool) + 1}" if i >= len(pool) else "")
                for i in range(team_count)
            ]
            for index in range(team_count):
                coach_number += 1
                coach_id = self._user(f"coach{coach_number:03d}", password_hash, admin=False)
                self.add(
                    LeagueMember,
                    id=self.next_id(LeagueMember),
                    league_id=league.id,
                    user_id=coach_id,
                    role="coach",
                    created_at=FIRST_KICK_OFF - timedelta(days=30),
                    removed_at=None,
                )
                for attempt in range(len(types)):
                    team_type = types[(index + attempt) % len(types)]
                    if self._draft(league, team_type, coach_id, names[index]):
                        break
        for season_index in range(size.seasons):
            for league in self.leagues:
                self._season(league, season_index)

    def _user(self, username: str, password_hash: str, *, admin: bool) -> int:
        user_id = self.next_id(User)
        self.add(
            User,
            id=user_id,
            username=username,
            password_hash=password_hash,
            is_admin=admin,
            created_at=FIRST_KICK_OFF - timedelta(days=60),
        )
        return user_id

    def _league(self, ruleset_id: str) -> _League:
        league_id = self.next_id(League)
        # Each league starts teams on its edition's treasury (house rules: none).
        starting = load_ruleset(ruleset_id).team_building.starting_treasury
        self.add(
            League,
            id=league_id,
            name=LEAGUE_NAMES.get(ruleset_id, f"{ruleset_id} league"),
            ruleset_id=ruleset_id,
            starting_treasury=starting,
            points_win=3,
            points_draw=1,
            points_loss=0,
            tie_breakers=list(TIE_BREAKERS),
            house_rules={},
            table_dice_allowed=False,
            join_token=f"{self.rng.getrandbits(128):032x}",
            owner_id=self.commissioner_id,
            created_at=FIRST_KICK_OFF - timedelta(days=40),
        )
        self.add(
            LeagueMember,
            id=self.next_id(LeagueMember),
            league_id=league_id,
            user_id=self.commissioner_id,
            role="commissioner",
            created_at=FIRST_KICK_OFF - timedelta(days=40),
            removed_at=None,
        )
        ruleset = league_ruleset(
            League(ruleset_id=ruleset_id, starting_treasury=starting, house_rules={})
        )
        league = _League(league_id, ruleset)
        for number in range(1, self.size.seasons + 1):
            season_id = self.next_id(Season)
            league.season_ids.append(season_id)
            closed = None
            if number < self.size.seasons:
                closed = self._kick_off(number, 0) - timedelta(days=1)
            self.add(
                Season,
                id=season_id,
                league_id=league_id,
                number=number,
                name=f"Season {number}",
                created_at=self._kick_off(number - 1, 0) - timedelta(days=14),
                closed_at=closed,
            )
        self.leagues.append(league)
        return league

    def _kick_off(self, season_index: int, round_index: int) -> datetime:
        weeks = season_index * (self.size.rounds_per_season + SEASON_BREAK_WEEKS) + round_index
        return FIRST_KICK_OFF + timedelta(weeks=weeks)

    def _ledger(
        self,
        team: _Team,
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

    def _draft(self, league: _League, team_type: TeamType, coach_id: int, name: str) -> bool:
        """A legal draft for this team type, or False when the greedy plan cannot make one."""
        ruleset = league.ruleset
        building = ruleset.team_building
        rng = self.rng
        plan: list[Position] = []
        counts: dict[str, int] = {}
        treasury = building.starting_treasury
        rerolls = rng.randint(2, 3)
        reroll_price = purchase_cost(ruleset, team_type, "reroll", during_draft=True)
        reserve = reroll_price * rerolls
        apothecary = team_type.apothecary and rng.random() < 0.7
        apothecary_price = purchase_cost(ruleset, team_type, "apothecary", during_draft=True)
        if apothecary:
            reserve += apothecary_price
        target = rng.randint(building.min_players + 1, building.min_players + 3)
        while len(plan) < target:
            legal = [
                p
                for p in team_type.positions
                if hire_decision(ruleset, team_type, p.id, counts, treasury - reserve).allowed
            ]
            if not legal:
                break
            cheapest = min(p.cost for p in legal)
            left = max(building.min_players - len(plan) - 1, 0)
            affordable = [p for p in legal if p.cost + left * cheapest <= treasury - reserve]
            if not affordable:
                break
            # Specialists first while money allows, then the cheapest (linemen).
            specialists = [p for p in affordable if p.cost > cheapest]
            position = (
                rng.choice(specialists)
                if specialists and rng.random() < 0.55
                else min(affordable, key=lambda p: (p.cost, -p.max, p.id))
            )
            plan.append(position)
            counts[position.id] = counts.get(position.id, 0) + 1
            treasury -= position.cost
        if len(plan) < building.min_players:
            return False

        team = _Team(self.next_id(Team), league, team_type, coach_id, name)
        league.teams.append(team)
        created = FIRST_KICK_OFF - timedelta(days=21)
        self._ledger(
            team, building.starting_treasury, "starting", "Starting treasury", created, coach_id
        )
        plan.sort(key=lambda p: (-p.cost, p.id))
        for number, position in enumerate(plan, start=1):
            self._hire(team, position, number, created)
        for _ in range(rerolls):
            self._buy(team, "reroll", reroll_price, "Bought a team re-roll", created)
            team.rerolls += 1
        if apothecary:
            self._buy(team, "apothecary", apothecary_price, "Bought an apothecary", created)
            team.apothecary = True
        team.dedicated_fans = building.dedicated_fans.start
        fan_cost = purchase_cost(ruleset, team_type, "dedicated_fan", during_draft=True)
        extra_fans = rng.randint(0, min(2, building.dedicated_fans.max_at_draft))
        for _ in range(extra_fans):
            if team.treasury >= fan_cost:
                self._buy(team, "dedicated_fan", fan_cost, "Bought a dedicated fan", created)
                team.dedicated_fans += 1
        self.add(
            Team,
            id=team.id,
            league_id=league.id,
            coach_id=coach_id,
            name=name,
            team_type_id=team_type.id,
            status="active",
            treasury=0,  # the final caches are filled in by _finish_teams
            rerolls=0,
            assistant_coaches=0,
            cheerleaders=0,
            apothecary=False,
            dedicated_fans=0,
            created_at=created,
            confirmed_at=created + timedelta(hours=1),
        )
        return True

    def _buy(self, team: _Team, item: str, price: int, description: str, at: datetime) -> None:
        self._ledger(team, -price, "purchase", description, at, team.coach_id, item=item)

    def _hire(self, team: _Team, position: Position, number: int, at: datetime) -> _Player:
        first = FIRST_NAMES[self.rng.randrange(len(FIRST_NAMES))]
        last = LAST_NAMES[self.rng.randrange(len(LAST_NAMES))]
        player = _Player(
            self.next_id(Player),
            team,
            position,
            f"{first} {last}",
            number,
            at,
            value=position.cost,
            reductions=dict.fromkeys(team.league.ruleset.characteristics, 0),
        )
        team.players.append(player)
        self._ledger(
            team,
            -position.cost,
            "hire",
            f"Hired {player.name} ({position.name})",
            at,
            team.coach_id,
        )
        return player

    # -- seasons and matches ------------------------------------------------

    def _season(self, league: _League, season_index: int) -> None:
        size = self.size
        teams = list(league.teams)
        self.rng.shuffle(teams)
        rounds = round_robin(list(range(len(teams))))
        last_season = season_index == size.seasons - 1
        played_rounds = size.played_rounds_last_season if last_season else size.rounds_per_season
        season_id = league.season_ids[season_index]
        for round_index in range(size.rounds_per_season):
            pairs = rounds[round_index % len(rounds)] if rounds else []
            kick_off = self._kick_off(season_index, round_index)
            for slot, (home, away) in enumerate(pairs):
                self._match(
                    league,
                    season_id,
                    round_index + 1,
                    kick_off + timedelta(minutes=slot),
                    teams[home],
                    teams[away],
                    played=round_index < played_rounds,
                    created=self._kick_off(season_index, 0) - timedelta(days=7),
                )
            self.progress(1)
        if not last_season:
            for team in league.teams:
                self._season_purchases(team, kick_off + timedelta(days=3))

    def _match(
        self,
        league: _League,
        season_id: int,
        round_number: int,
        at: datetime,
        home: _Team,
        away: _Team,
        *,
        played: bool,
        created: datetime,
    ) -> None:
        match_id = self.next_id(Match)
        row = self.add(
            Match,
            id=match_id,
            league_id=league.id,
            season_id=season_id,
            round=round_number,
            scheduled_for=at.date(),
            state="scheduled",
            friendly=False,
            fan_attendance=None,
            idempotency_key=None,
            draft_report=None,
            played_at=None,
            recorded_by_id=None,
            created_at=created,
        )
        sides = {"home": home, "away": away}
        if not played:
            for side, team in sides.items():
                self._side_row(match_id, team, side)
            return
        row.update(state="played", played_at=at, recorded_by_id=self.commissioner_id)
        self._play(league.ruleset, match_id, row, sides, at)

    def _side_row(self, match_id: int, team: _Team, side: str, **result: Any) -> None:
        self.add(
            MatchTeam,
            id=self.next_id(MatchTeam),
            match_id=match_id,
            team_id=team.id,
            side=side,
            score=result.get("score", 0),
            conceded=False,
            winnings=result.get("winnings", 0),
            fans_change=result.get("fans_change", 0),
            mistake=result.get("mistake"),
            mistake_loss=result.get("mistake_loss", 0),
        )

    def _play(
        self,
        ruleset: Ruleset,
        match_id: int,
        row: dict[str, Any],
        sides: dict[str, _Team],
        at: datetime,
    ) -> None:
        rng = self.rng
        pitch = {}
        for side, team in sides.items():
            available = [p for p in team.players if p.status == "active"]
            pitch[side] = (
                sorted(rng.sample(available, 11), key=lambda p: p.id)
                if len(available) > 11
                else available
            )
        events: dict[int, dict[str, Any]] = {}

        def line(player: _Player) -> dict[str, Any]:
            if player.id not in events:
                events[player.id] = {
                    "player": player,
                    "td": 0,
                    "cas": 0,
                    "comp": 0,
                    "interceptions": 0,
                    "deflection": 0,
                    "throw_completion": 0,
                    "safe_landing": 0,
                    "mvp": 0,
                    "injury": None,
                    "lasting": None,
                    "apothecary_used": False,
                }
            return events[player.id]

        awards = ruleset.spp.awards
        scores = {}
        apothecaries: set[int] = set()  # teams whose apothecary was used this match
        for side in sides:
            own = pitch[side]
            other = pitch["away" if side == "home" else "home"]
            if not own:
                scores[side] = 0
                continue
            tds = rng.choices((0, 1, 2, 3, 4), weights=(22, 34, 27, 12, 5))[0]
            for _ in range(tds):
                line(rng.choice(own))["td"] += 1
            scores[side] = tds
            for _ in range(rng.choices((0, 1, 2, 3), weights=(30, 40, 22, 8))[0]):
                line(rng.choice(own))["comp"] += 1
            if rng.random() < 0.08:
                line(rng.choice(own))["interceptions"] += 1
            if awards.get("deflection") and rng.random() < 0.15:
                line(rng.choice(own))["deflection"] += 1
            if awards.get("throw_completion") and rng.random() < 0.05:
                line(rng.choice(own))["throw_completion"] += 1
            victims = [p for p in other if events.get(p.id, {}).get("injury") is None]
            for _ in range(rng.choices((0, 1, 2, 3), weights=(30, 38, 22, 10))[0]):
                if not victims:
                    break
                victim = victims.pop(rng.randrange(len(victims)))
                line(rng.choice(own))["cas"] += 1
                victim_team = sides["away" if side == "home" else "home"]
                self._injure(ruleset, line(victim), victim, victim_team, apothecaries)
            line(rng.choice(own))["mvp"] += 1

        attendance = sum(rng.randint(1, 3) + team.dedicated_fans for team in sides.values())
        row["fan_attendance"] = attendance
        money: dict[str, dict[str, Any]] = {}
        for side, team in sides.items():
            opponent = "away" if side == "home" else "home"
            decided = outcome(SideResult(scores[side]), SideResult(scores[opponent]))
            won = decided == "won"
            if ruleset.winnings is None:
                gold = 0
            elif ruleset.winnings.formula == "fan_attendance":
                gold = winnings(
                    ruleset,
                    touchdowns=scores[side],
                    fan_attendance=attendance,
                    stalled=rng.random() < 0.1,
                )
            else:
                gold = winnings(ruleset, d6=rng.randint(1, 6), fame=rng.randint(0, 2), won=won)
            mistake, loss = None, 0
            rules = ruleset.expensive_mistakes
            if rules is not None and team.treasury + gold >= rules.min_treasury:
                mistake = expensive_mistake(ruleset, team.treasury + gold, rng.randint(1, 6))
                dice = roll(rules.dice_for(mistake), rng.randint)
                loss = expensive_mistake_loss(ruleset, mistake, team.treasury + gold, dice)
            allowed = [
                step
                for step in (1, -1)
                if fans_change_decision(ruleset, step, team.dedicated_fans, result=decided)
            ]
            change = 0
            if 1 in allowed and rng.random() < 0.5:
                change = 1
            elif -1 in allowed and rng.random() < 0.5:
                change = -1
            money[side] = {
                "score": scores[side],
                "winnings": gold,
                "fans_change": change,
                "mistake": mistake,
                "mistake_loss": loss,
            }
        for side, team in sides.items():
            result = money[side]
            self._side_row(match_id, team, side, **result)
            team.dedicated_fans += result["fans_change"]
            if result["winnings"]:
                self._ledger(
                    team,
                    result["winnings"],
                    "winnings",
                    f"Winnings, match #{match_id}",
                    at,
                    self.commissioner_id,
                    match_id=match_id,
                )
            if result["mistake_loss"]:
                self._ledger(
                    team,
                    -result["mistake_loss"],
                    "mistake",
                    f"Expensive mistakes ({result['mistake']}), match #{match_id}",
                    at,
                    self.commissioner_id,
                    match_id=match_id,
                )

        missing: set[int] = set()
        for entry in sorted(events.values(), key=lambda e: e["player"].id):
            player: _Player = entry.pop("player")
            effect = entry.pop("_effect", None)
            team = player.team
            earned = spp_for_events(
                ruleset,
                SppEvents(
                    td=entry["td"],
                    cas=entry["cas"],
                    comp=entry["comp"],
                    deflection=entry["deflection"],
                    throw_completion=entry["throw_completion"],
                    safe_landing=entry["safe_landing"],
                    mvp=entry["mvp"],
                    int=entry["interceptions"],
                ),
                team.team_type,
            )
            self.add(
                MatchPlayer,
                id=self.next_id(MatchPlayer),
                match_id=match_id,
                player_id=player.id,
                team_id=team.id,
                spp=earned,
                **entry,
            )
            player.spp_earned += earned
            if effect in ("mng", "niggling", "lasting"):
                missing.add(player.id)
        # Statuses as `recompute_team` derives them from the team's latest match.
        for team in sides.values():
            for player in team.players:
                if player.on_roster:
                    player.status = "mng" if player.id in missing else "active"
        after = at + timedelta(days=1)
        for team in sides.values():
            for player in team.roster():
                self._advance(ruleset, player, after)
            self._replace_dead(team, after)

    def _injure(
        self,
        ruleset: Ruleset,
        entry: dict[str, Any],
        victim: _Player,
        team: _Team,
        apothecaries: set[int],
    ) -> None:
        rng = self.rng
        table = ruleset.casualty_table
        roll = (
            rng.randint(1, 16) if table.die == "d16" else 10 * rng.randint(1, 6) + rng.randint(1, 8)
        )
        result = casualty_outcome(ruleset, roll, victim.niggling)
        if (
            team.apothecary
            and result.effect in ("dead", "lasting", "niggling")
            and team.id not in apothecaries
            and rng.random() < 0.5
        ):
            apothecaries.add(team.id)
            # The apothecary patched him up: only badly hurt.
            entry["apothecary_used"] = True
            entry["injury"] = "badly_hurt"
            return
        entry["injury"] = result.code
        if result.effect == "dead":
            victim.status = "dead"
        elif result.effect == "niggling":
            victim.niggling += 1
        elif result.effect == "lasting":
            characteristic = result.characteristic or lasting_injury(ruleset, rng.randint(1, 6))
            entry["lasting"] = characteristic
            victim.reductions[characteristic] += 1
        # Read (and dropped) by _play: whether he misses the team's next match.
        entry["_effect"] = result.effect

    # -- between matches: advancements, replacements, purchases -------------

    def _held(self, player: _Player) -> list[str]:
        return [*player.position.skill_names, *player.gained]

    def _legal(self, ruleset: Ruleset, player: _Player, kind: str) -> list[Any]:
        # Position ids repeat across team types (a classic "blitzer"): the team type is part of it.
        key = (ruleset.id, player.team.team_type.id, player.position.id, tuple(player.gained), kind)
        found = self._legal_cache.get(key)
        if found is None:
            categories = accessible_categories(ruleset, player.position, kind)
            found = [
                s
                for s in legal_skills(ruleset, player.position, self._held(player), kind)
                if s.category in categories
            ]
            self._legal_cache[key] = found
        return found

    def _state(self, ruleset: Ruleset, player: _Player) -> PlayerState:
        """The player as the advancement resolver reads him."""
        return PlayerState.of(
            ruleset,
            player.position,
            skills=player.gained,
            improvements=Counter(player.improvements),
            reductions=player.reductions,
            advancements_taken=player.advancements,
            spp=player.spp_earned
            if ruleset.advancement.mode == "roll"
            else player.spp_earned - player.spp_spent,
        )

    def _advance(self, ruleset: Ruleset, player: _Player, at: datetime) -> None:
        """At most one advancement per match, chosen the way coaches usually do."""
        if player.advancements >= ruleset.advancement.max_advancements:
            return
        if ruleset.advancement.mode == "roll":
            if rolls_earned(ruleset, player.spp_earned) > player.advancements:
                self._star_player_roll(ruleset, player, at)
            return
        rng = self.rng
        number = player.advancements + 1
        kinds = advancement_kinds(ruleset)
        available = player.spp_earned - player.spp_spent

        def affordable(kind: str) -> bool:
            return kind in kinds and available >= advancement_cost(ruleset, kind, number)

        choice = rng.random()
        if affordable(RANDOM_CHARACTERISTIC_KIND) and choice < 0.35:
            table = ruleset.characteristic_table
            assert table is not None  # noqa: S101 - spend-mode rulesets have one
            roll = rng.randint(1, table.die)
            options = characteristic_roll(ruleset, self._state(ruleset, player), (roll,))
            if not isinstance(options, Decision) and options.characteristics:
                self._take_characteristic(ruleset, player, at, options.characteristics, [roll])
                return
        if (
            affordable("chosen_primary")
            and (choice < 0.8 or not affordable("random_primary"))
            and self._take_legal_skill(ruleset, player, at, "chosen_primary")
        ):
            return
        if affordable("random_primary") and rng.random() < 0.45:
            self._random_skill(ruleset, player, at, "random_primary")

    def _random_skill(self, ruleset: Ruleset, player: _Player, at: datetime, kind: str) -> None:
        rng = self.rng
        position = player.position
        categories = [
            code
            for code in accessible_categories(ruleset, position, kind)
            if random_skill_list(ruleset, code)
        ]
        rng.shuffle(categories)
        held = self._held(player)
        for category in categories:
            try:
                dice = roll_random_skill_dice(ruleset, position, held, kind, category, rng)
            except RulesError:
                continue  # nothing left to roll in this category
            result = random_skill_result(ruleset, position, held, kind, category, dice)
            if result.skill is None and result.candidates:
                picked = rng.choice(result.candidates).name
                result = random_skill_result(ruleset, position, held, kind, category, dice, picked)
            if result.skill is not None:
                self._take(
                    ruleset,
                    player,
                    at,
                    kind,
                    skill=result.skill.name,
                    dice=list(dice),
                    category=category,
                )
                return

    def _star_player_roll(self, ruleset: Ruleset, player: _Player, at: datetime) -> None:
        """Classic: 2D6; a characteristic when the roll allows one, else a skill."""
        rng = self.rng
        roll_table = ruleset.improvement_roll
        assert roll_table is not None  # noqa: S101 - roll-mode rulesets have one
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        options = characteristic_roll(ruleset, self._state(ruleset, player), (d1, d2))
        if isinstance(options, Decision):
            raise RulesError(refusal_text(options, player.name))
        if options.characteristics and rng.random() < 0.85:
            self._take_characteristic(ruleset, player, at, options.characteristics, [d1, d2])
            return
        kinds = list(options.skill_kinds)
        if len(kinds) > 1 and rng.random() < 0.5:
            kinds.reverse()  # take the doubles skill
        for kind in kinds:
            if self._take_legal_skill(ruleset, player, at, kind, dice=[d1, d2]):
                return

    def _take_characteristic(
        self,
        ruleset: Ruleset,
        player: _Player,
        at: datetime,
        characteristics: Sequence[str],
        dice: list[int],
    ) -> None:
        """Improve one of the characteristics the roll allows, picked at random."""
        characteristic = self.rng.choice(characteristics)
        self._take(
            ruleset,
            player,
            at,
            RANDOM_CHARACTERISTIC_KIND,
            characteristic=characteristic,
            dice=dice,
        )

    def _take_legal_skill(
        self,
        ruleset: Ruleset,
        player: _Player,
        at: datetime,
        kind: str,
        *,
        dice: list[int] | None = None,
    ) -> bool:
        """Take a skill the player may learn with `kind`, picked at random; False if none."""
        skills = self._legal(ruleset, player, kind)
        if not skills:
            return False
        skill = self.rng.choice(skills)
        self._take(ruleset, player, at, kind, skill=skill.name, dice=dice)
        return True

    def _take(
        self,
        ruleset: Ruleset,
        player: _Player,
        at: datetime,
        kind: str,
        *,
        skill: str | None = None,
        characteristic: str | None = None,
        dice: list[int] | None = None,
        category: str | None = None,
    ) -> None:
        number = player.advancements + 1
        # Replayed through the resolver, as the service would take it.
        request = AdvancementRequest(
            kind,
            skill=skill,
            category=category,
            dice=tuple(dice) if dice is not None else None,
            characteristic=characteristic,
        )
        taken = resolve(ruleset, self._state(ruleset, player), request)
        if taken.status != "taken":
            raise RulesError(f"the seeder asked for an advancement the rules refuse: {request}")
        cost, value = taken.cost, taken.value
        roll_id = None
        if dice is not None:  # the server's roll, in the player's dice log
            roll_id = self.next_id(DiceRoll)
            self.add(
                DiceRoll,
                id=roll_id,
                player_id=player.id,
                kind=kind,
                category=category,
                dice=dice,
                by_id=player.team.coach_id,
                created_at=at,
                void_reason=None,
            )
        advancement_id = self.next_id(Advancement)
        self.add(
            Advancement,
            id=advancement_id,
            player_id=player.id,
            number=number,
            kind=kind,
            spp_cost=cost,
            skill=skill,
            characteristic=characteristic,
            category=category,
            dice=dice,
            dice_source="server" if dice is not None else None,
            dice_roll_id=roll_id,
            value_increase=value,
            by_id=player.team.coach_id,
            created_at=at,
            undone_at=None,
        )
        if skill:
            self.add(
                PlayerSkill,
                player_id=player.id,
                skill=skill,
                source="advancement",
                advancement_id=advancement_id,
            )
            player.gained.append(skill)
        if characteristic:
            player.improvements.append(characteristic)
        player.advancements = number
        player.spp_spent += cost
        player.value += value

    def _replace_dead(self, team: _Team, at: datetime) -> None:
        ruleset = team.league.ruleset
        roster = team.roster()
        wanted = ruleset.team_building.min_players + 1
        while len(roster) < wanted:
            counts: dict[str, int] = {}
            for player in roster:
                counts[player.position.id] = counts.get(player.position.id, 0) + 1
            legal = [
                p
                for p in team.team_type.positions
                if hire_decision(ruleset, team.team_type, p.id, counts, team.treasury).allowed
            ]
            if not legal:
                return
            position = min(legal, key=lambda p: (p.cost, -p.max, p.id))
            taken = {p.number for p in roster}
            number = next(n for n in range(1, 100) if n not in taken)
            roster.append(self._hire(team, position, number, at))

    def _season_purchases(self, team: _Team, at: datetime) -> None:
        ruleset = team.league.ruleset
        building = ruleset.team_building
        price = purchase_cost(ruleset, team.team_type, "reroll")
        if team.rerolls < min(building.max_rerolls, 5) and team.treasury >= price + 100_000:
            self._buy(team, "reroll", price, "Bought a team re-roll", at)
            team.rerolls += 1

    # -- writing -----------------------------------------------------------

    def finish(self) -> None:
        """Put the final caches on the team and player rows."""
        teams = {team.id: team for league in self.leagues for team in league.teams}
        for row in self.rows[Team]:
            team = teams[row["id"]]
            row.update(
                treasury=team.treasury,
                rerolls=team.rerolls,
                apothecary=team.apothecary,
                dedicated_fans=team.dedicated_fans,
            )
        for league in self.leagues:
            characteristics = league.ruleset.characteristics
            for team in league.teams:
                for player in team.players:
                    self.add(
                        Player,
                        id=player.id,
                        team_id=team.id,
                        position_id=player.position.id,
                        name=player.name,
                        number=player.number,
                        status=player.status,
                        cost=player.position.cost,
                        value=player.value,
                        spp_earned=player.spp_earned,
                        spp_spent=player.spp_spent,
                        niggling_injuries=player.niggling,
                        **{
                            f"{c}_reduction": player.reductions.get(c, 0)
                            if c in characteristics
                            else 0
                            for c in CHARACTERISTICS
                        },
                        created_at=player.created_at,
                    )
        self.rows[Player].sort(key=lambda row: row["id"])
        self.add(
            AuditEntry,
            id=self.next_id(AuditEntry),
            at=FIRST_KICK_OFF - timedelta(days=60),
            actor_id=None,
            action="demo.seed_large",
            entity_type="league",
            entity_id=None,
            detail={"teams": self.size.teams, "seasons": self.size.seasons, "seed": self.size.seed},
        )


def _insert(session: Session, table: type[Any], rows: list[dict[str, Any]]) -> None:
    statement = table.__table__.insert()
    chunk = 5_000
    for start in range(0, len(rows), chunk):
        session.execute(statement, rows[start : start + chunk])


def _reset_sequences(session: Session, tables: Iterable[type[Any]]) -> None:
    """PostgreSQL: move each id sequence past the ids written explicitly."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for table in tables:
        name = table.__tablename__
        if "id" not in table.__table__.c:
            continue
        session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('\"{name}\"', 'id'), "  # noqa: S608 (our table names)
                f'GREATEST((SELECT MAX(id) FROM "{name}"), 1))'
            )
        )


def large_demo_rows(
    size: LargeDemoSize,
    password_hash: str,
    progress: Callable[[int], None] = lambda _steps: None,
) -> dict[str, list[dict[str, Any]]]:
    """Every row of the data set, by table name, in insertion order (no database needed).

    The same size gives the same rows (and the same ids, counted from 1).
    """
    builder = _Builder(size, progress)
    builder.build(password_hash)
    builder.finish()
    return {table.__tablename__: builder.rows[table] for table in _TABLES}


def seed_large_demo(
    session: Session,
    size: LargeDemoSize = LargeDemoSize(),
    *,
    progress: Callable[[int], None] = lambda _steps: None,
    password: str | None = None,
) -> LargeDemoResult | None:
    """Build the large data set into an empty database; None when it already has users.

    `progress` is called with a number of steps done (in all, `size.steps`).
    """
    if session.scalar(select(func.count(User.id))):
        return None
    password = password or secrets.token_urlsafe(9)
    rows = large_demo_rows(size, generate_password_hash(password, method="scrypt"), progress)
    for table in _TABLES:
        _insert(session, table, rows[table.__tablename__])
        progress(1)
    _reset_sequences(session, _TABLES)
    # Fresh planner statistics: without them PostgreSQL picks poor plans on the new rows
    # (until autovacuum gets round to them), and SQLite has none at all.
    session.execute(text("ANALYZE"))
    session.expire_all()
    matches = rows[Match.__tablename__]
    return LargeDemoResult(
        username=COMMISSIONER,
        password=password,
        league_ids=tuple(row["id"] for row in rows[League.__tablename__]),
        teams=len(rows[Team.__tablename__]),
        players=len(rows[Player.__tablename__]),
        matches_played=sum(1 for row in matches if row["state"] == "played"),
        matches_scheduled=sum(1 for row in matches if row["state"] == "scheduled"),
        player_lines=len(rows[MatchPlayer.__tablename__]),
        advancements=len(rows[Advancement.__tablename__]),
    )
