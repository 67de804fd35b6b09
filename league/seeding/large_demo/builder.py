"""The builder: users, leagues and seasons, then every season played, then the caches."""

from __future__ import annotations

from datetime import timedelta

from league.models import (
    AuditEntry,
    League,
    LeagueMember,
    Player,
    Season,
    Team,
    User,
)
from league.rules import (
    CHARACTERISTICS,
    load_ruleset,
)
from league.rules.competitions import DEFAULT_TIE_BREAKERS
from league.seeding.large_demo.matches import MatchSeeder
from league.seeding.large_demo.state import (
    COMMISSIONER,
    FIRST_KICK_OFF,
    LEAGUE_NAMES,
    NICKNAMES,
    PLACES,
    DemoLeague,
)
from league.services.access import league_ruleset


class Builder(MatchSeeder):
    """Every row of the data set, built in memory."""

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

    def _league(self, ruleset_id: str) -> DemoLeague:
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
            tie_breakers=list(DEFAULT_TIE_BREAKERS),
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
        league = DemoLeague(league_id, ruleset)
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
