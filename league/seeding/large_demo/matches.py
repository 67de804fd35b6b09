"""Seasons and matches: fixtures, results, winnings, injuries and SPP."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from league.models import (
    Match,
    MatchPlayer,
    MatchTeam,
)
from league.rules import (
    Ruleset,
    SppEvents,
    casualty_outcome,
    expensive_mistake,
    expensive_mistake_loss,
    lasting_injury,
    roll,
    spp_for_events,
    winnings,
)
from league.rules.competitions import SideResult, outcome
from league.rules.team_building import fans_change_decision
from league.seeding.large_demo.advancements import AdvancementSeeder
from league.seeding.large_demo.state import DemoLeague, DemoPlayer, DemoTeam
from league.services.fixtures import round_robin


class MatchSeeder(AdvancementSeeder):
    """Schedules the seasons and plays their matches."""

    def _season(self, league: DemoLeague, season_index: int) -> None:
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
        league: DemoLeague,
        season_id: int,
        round_number: int,
        at: datetime,
        home: DemoTeam,
        away: DemoTeam,
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

    def _side_row(self, match_id: int, team: DemoTeam, side: str, **result: Any) -> None:
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
        sides: dict[str, DemoTeam],
        at: datetime,
    ) -> None:
        pitch = self._pitch(sides)
        events, scores = self._events(ruleset, sides, pitch)
        attendance = sum(self.rng.randint(1, 3) + team.dedicated_fans for team in sides.values())
        row["fan_attendance"] = attendance
        money = {
            side: self._money(ruleset, team, scores[side], scores[_other(side)], attendance)
            for side, team in sides.items()
        }
        for side, team in sides.items():
            self._book(match_id, team, side, money[side], at)
        missing = self._player_lines(ruleset, match_id, events)
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

    def _pitch(self, sides: dict[str, DemoTeam]) -> dict[str, list[DemoPlayer]]:
        """The eleven (or fewer) players of each side who take the pitch."""
        pitch = {}
        for side, team in sides.items():
            available = [p for p in team.players if p.status == "active"]
            pitch[side] = (
                sorted(self.rng.sample(available, 11), key=lambda p: p.id)
                if len(available) > 11
                else available
            )
        return pitch

    def _events(
        self, ruleset: Ruleset, sides: dict[str, DemoTeam], pitch: dict[str, list[DemoPlayer]]
    ) -> tuple[dict[int, dict[str, Any]], dict[str, int]]:
        """Each player's line of the match (by player id) and each side's touchdowns."""
        rng = self.rng
        events: dict[int, dict[str, Any]] = {}
        awards = ruleset.spp.awards
        scores = {}
        apothecaries: set[int] = set()  # teams whose apothecary was used this match
        for side in sides:
            own = pitch[side]
            other = pitch[_other(side)]
            if not own:
                scores[side] = 0
                continue
            tds = rng.choices((0, 1, 2, 3, 4), weights=(22, 34, 27, 12, 5))[0]
            for _ in range(tds):
                _line(events, rng.choice(own))["td"] += 1
            scores[side] = tds
            for _ in range(rng.choices((0, 1, 2, 3), weights=(30, 40, 22, 8))[0]):
                _line(events, rng.choice(own))["comp"] += 1
            if rng.random() < 0.08:
                _line(events, rng.choice(own))["interceptions"] += 1
            if awards.get("deflection") and rng.random() < 0.15:
                _line(events, rng.choice(own))["deflection"] += 1
            if awards.get("throw_completion") and rng.random() < 0.05:
                _line(events, rng.choice(own))["throw_completion"] += 1
            victims = [p for p in other if events.get(p.id, {}).get("injury") is None]
            for _ in range(rng.choices((0, 1, 2, 3), weights=(30, 38, 22, 10))[0]):
                if not victims:
                    break
                victim = victims.pop(rng.randrange(len(victims)))
                _line(events, rng.choice(own))["cas"] += 1
                victim_team = sides[_other(side)]
                self._injure(ruleset, _line(events, victim), victim, victim_team, apothecaries)
            _line(events, rng.choice(own))["mvp"] += 1
        return events, scores

    def _money(
        self, ruleset: Ruleset, team: DemoTeam, score: int, against: int, attendance: int
    ) -> dict[str, Any]:
        """One side's score, winnings, fan change and Expensive Mistakes."""
        rng = self.rng
        decided = outcome(SideResult(score), SideResult(against))
        won = decided == "won"
        if ruleset.winnings is None:
            gold = 0
        elif ruleset.winnings.formula == "fan_attendance":
            gold = winnings(
                ruleset,
                touchdowns=score,
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
        return {
            "score": score,
            "winnings": gold,
            "fans_change": change,
            "mistake": mistake,
            "mistake_loss": loss,
        }

    def _book(
        self, match_id: int, team: DemoTeam, side: str, result: dict[str, Any], at: datetime
    ) -> None:
        """The side's row, its fans, and its winnings and losses in the treasury."""
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

    def _player_lines(
        self, ruleset: Ruleset, match_id: int, events: dict[int, dict[str, Any]]
    ) -> set[int]:
        """Write each player's line with its SPP; the ids of those who miss the next match."""
        missing: set[int] = set()
        for entry in sorted(events.values(), key=lambda e: e["player"].id):
            player: DemoPlayer = entry.pop("player")
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
        return missing

    def _injure(
        self,
        ruleset: Ruleset,
        entry: dict[str, Any],
        victim: DemoPlayer,
        team: DemoTeam,
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


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def _line(events: dict[int, dict[str, Any]], player: DemoPlayer) -> dict[str, Any]:
    """The player's line of the match, started empty the first time he does something."""
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
