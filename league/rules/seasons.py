"""Between seasons: the prizes paid when a season closes and the re-draft budget.

Pure functions over :class:`~league.rules.model.SeasonRules`; the services
book the gold they return as ledger rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.rules.model import Decision, Redraft, RulesError, Ruleset


@dataclass(frozen=True, slots=True)
class Prize:
    """What one team wins for its final place."""

    team_id: int
    place: int  # 1-based
    gold: int
    trophy: bool


def season_prizes(ruleset: Ruleset, final_order: Sequence[int]) -> tuple[Prize, ...]:
    """The prizes of a closed season, given team ids from first place down.

    Only places the edition pays appear; an edition without prizes pays none.
    """
    prizes = ruleset.season.prizes
    if prizes is None:
        return ()
    return tuple(
        Prize(
            team_id=team_id,
            place=place,
            gold=gold,
            trophy=place == 1 and prizes.trophy_reroll,
        )
        for place, (team_id, gold) in enumerate(zip(final_order, prizes.gold, strict=False), 1)
    )


@dataclass(frozen=True, slots=True)
class RedraftBudget:
    """The working of a team's re-draft budget, line by line."""

    base: int
    treasury: int
    fixtures: int
    wins: int
    draws: int
    #: The cap applied, or None when the league lifted it (or the edition has none).
    cap: int | None

    @property
    def uncapped(self) -> int:
        return self.base + self.treasury + self.fixtures + self.wins + self.draws

    @property
    def total(self) -> int:
        return self.uncapped if self.cap is None else min(self.uncapped, self.cap)

    @property
    def lost_to_cap(self) -> int:
        return self.uncapped - self.total


def redraft_rules(ruleset: Ruleset) -> Redraft:
    redraft = ruleset.season.redraft
    if redraft is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no off-season re-draft")
    return redraft


def redraft_decision(ruleset: Ruleset) -> Decision:
    """Whether the edition has an off-season re-draft at all."""
    if ruleset.season.redraft is None:
        return Decision.deny("seasons.no_redraft", ruleset=ruleset.name)
    return Decision.allow()


def redraft_budget(
    ruleset: Ruleset,
    *,
    treasury: int,
    league_fixtures: int,
    friendlies: int,
    wins: int,
    draws: int,
    capped: bool = True,
) -> RedraftBudget:
    """A team's budget for the re-draft after a season.

    ``league_fixtures`` and ``friendlies`` are games played; ``wins`` and
    ``draws`` count league games only. ``capped`` is False when the league's
    house rules lift the recommended cap.
    """
    if min(treasury, league_fixtures, friendlies, wins, draws) < 0:
        raise RulesError("counts and treasury may not be negative")
    if wins + draws > league_fixtures:
        raise RulesError("more wins and draws than league fixtures played")
    rules = redraft_rules(ruleset)
    games = league_fixtures + (friendlies if rules.friendlies_count else 0)
    return RedraftBudget(
        base=rules.base,
        treasury=treasury,
        fixtures=games * rules.per_fixture,
        wins=wins * rules.per_win,
        draws=draws * rules.per_draw,
        cap=rules.cap if capped else None,
    )


def rehire_cost(ruleset: Ruleset, current_value: int, seasons_played: int) -> int:
    """What keeping a player through the re-draft costs.

    His current value plus the agent's fee for every season he has played;
    the fee is paid, not added to his value.
    """
    if seasons_played < 0 or current_value < 0:
        raise RulesError("value and seasons played may not be negative")
    return current_value + seasons_played * redraft_rules(ruleset).agent_fee_per_season


def recovery_rolls_needed(ruleset: Ruleset, niggling_injuries: int) -> int:
    """How many D6 rest and recovery rolls a re-hired player makes: one per niggling injury.

    Zero where the edition's data has no off-season roll (``niggling_heals_on``).
    """
    if niggling_injuries < 0:
        raise RulesError("niggling injuries may not be negative")
    if redraft_rules(ruleset).niggling_heals_on is None:
        return 0
    return niggling_injuries


def niggling_healed(
    ruleset: Ruleset, niggling_injuries: int, dice: Sequence[int], *, apothecary: bool
) -> int:
    """How many of a player's niggling injuries the off-season heals, given his D6 rolls.

    One die per niggling injury; each heals on the edition's target or more, the
    apothecary's bonus added when the team has one (BB2025: 4+, +1).
    """
    rules = redraft_rules(ruleset)
    needed = recovery_rolls_needed(ruleset, niggling_injuries)
    if len(dice) != needed:
        raise RulesError(f"{needed} dice expected for rest and recovery, got {len(dice)}")
    if any(not 1 <= die <= 6 for die in dice):
        raise RulesError("a D6 shows 1 to 6")
    if rules.niggling_heals_on is None:
        return 0
    bonus = niggling_roll_bonus(ruleset, apothecary=apothecary)
    return sum(1 for die in dice if die + bonus >= rules.niggling_heals_on)


def niggling_roll_bonus(ruleset: Ruleset, *, apothecary: bool) -> int:
    """What a rest and recovery die gets added: the apothecary's bonus when the team has one."""
    return redraft_rules(ruleset).niggling_apothecary_bonus if apothecary else 0
