"""Teams: the draft, hires, replacements for the dead and purchases between seasons."""

from __future__ import annotations

from datetime import datetime, timedelta

from league.models import (
    Player,
    Team,
)
from league.rules import (
    Position,
    Ruleset,
    TeamType,
    hire_decision,
    purchase_cost,
)
from league.seeding.large_demo.state import (
    FIRST_KICK_OFF,
    FIRST_NAMES,
    LAST_NAMES,
    DemoLeague,
    DemoPlayer,
    DemoTeam,
    Rows,
)


class TeamSeeder(Rows):
    """Drafts teams and keeps their rosters filled."""

    def _draft(self, league: DemoLeague, team_type: TeamType, coach_id: int, name: str) -> bool:
        """A legal draft for this team type, or False when the greedy plan cannot make one."""
        ruleset = league.ruleset
        building = ruleset.team_building
        rng = self.rng
        rerolls = rng.randint(2, 3)
        reroll_price = purchase_cost(ruleset, team_type, "reroll", during_draft=True)
        reserve = reroll_price * rerolls
        apothecary = team_type.apothecary and rng.random() < 0.7
        apothecary_price = purchase_cost(ruleset, team_type, "apothecary", during_draft=True)
        if apothecary:
            reserve += apothecary_price
        plan = self._plan(ruleset, team_type, reserve)
        if len(plan) < building.min_players:
            return False

        team = DemoTeam(self.next_id(Team), league, team_type, coach_id, name)
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

    def _plan(self, ruleset: Ruleset, team_type: TeamType, reserve: int) -> list[Position]:
        """The positions to hire, specialists first while money allows, keeping `reserve`."""
        building = ruleset.team_building
        rng = self.rng
        plan: list[Position] = []
        counts: dict[str, int] = {}
        treasury = building.starting_treasury
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
        return plan

    def _hire(self, team: DemoTeam, position: Position, number: int, at: datetime) -> DemoPlayer:
        first = FIRST_NAMES[self.rng.randrange(len(FIRST_NAMES))]
        last = LAST_NAMES[self.rng.randrange(len(LAST_NAMES))]
        player = DemoPlayer(
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

    def _replace_dead(self, team: DemoTeam, at: datetime) -> None:
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

    def _season_purchases(self, team: DemoTeam, at: datetime) -> None:
        ruleset = team.league.ruleset
        building = ruleset.team_building
        price = purchase_cost(ruleset, team.team_type, "reroll")
        if team.rerolls < min(building.max_rerolls, 5) and team.treasury >= price + 100_000:
            self._buy(team, "reroll", price, "Bought a team re-roll", at)
            team.rerolls += 1
