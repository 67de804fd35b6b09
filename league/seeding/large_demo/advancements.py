"""Advancements: what a player takes after a match, replayed through the resolver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from league.models import (
    Advancement,
    DiceRoll,
    PlayerSkill,
)
from league.rules import (
    RANDOM_CHARACTERISTIC_KIND,
    AdvancementRequest,
    Decision,
    PlayerState,
    RulesError,
    Ruleset,
    accessible_categories,
    advancement_cost,
    advancement_kinds,
    characteristic_roll,
    legal_skills,
    random_skill_list,
    random_skill_result,
    refusal_text,
    resolve,
    roll_random_skill_dice,
    rolls_earned,
)
from league.seeding.large_demo.state import DemoPlayer
from league.seeding.large_demo.teams import TeamSeeder


class AdvancementSeeder(TeamSeeder):
    """Spends SPP (or rolls) the way coaches usually do."""

    def _held(self, player: DemoPlayer) -> list[str]:
        return [*player.position.skill_names, *player.gained]

    def _legal(self, ruleset: Ruleset, player: DemoPlayer, kind: str) -> list[Any]:
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

    def _state(self, ruleset: Ruleset, player: DemoPlayer) -> PlayerState:
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

    def _advance(self, ruleset: Ruleset, player: DemoPlayer, at: datetime) -> None:
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

    def _random_skill(self, ruleset: Ruleset, player: DemoPlayer, at: datetime, kind: str) -> None:
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

    def _star_player_roll(self, ruleset: Ruleset, player: DemoPlayer, at: datetime) -> None:
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
        player: DemoPlayer,
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
        player: DemoPlayer,
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
        player: DemoPlayer,
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
