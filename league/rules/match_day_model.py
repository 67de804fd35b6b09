"""Frozen value objects of the match day: journeymen, petty cash, inducements,
mercenaries, star players. Part of :mod:`league.rules.model` (a
:class:`~league.rules.model.Ruleset` holds its :class:`MatchDay`), which exports them too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from league.rules.base import RulesError, starting_stats

if TYPE_CHECKING:
    from league.rules.model import SkillRef, TeamType


@dataclass(frozen=True, slots=True)
class ReducedPrice:
    """A cheaper price (and maybe another maximum) for teams with a rule or of a type."""

    cost: int
    special_rule: str | None = None
    team_type: str | None = None
    max: int | None = None

    def applies_to(self, team: TeamType) -> bool:
        if self.team_type is not None:
            return team.id == self.team_type
        return self.special_rule is not None and team.has_special_rule(self.special_rule)


@dataclass(frozen=True, slots=True)
class Inducement:
    id: str
    name: str
    cost: int
    max: int
    summary: str = ""
    #: Only teams with one of these special rules may buy it (empty: no such condition).
    special_rules: tuple[str, ...] = ()
    #: Only these team types may buy it (empty: no such condition).
    team_types: tuple[str, ...] = ()
    #: Only teams whose roster may have an apothecary.
    needs_apothecary: bool = False
    #: Only team types of these tiers (empty: no such condition).
    tiers: tuple[int, ...] = ()
    reduced: tuple[ReducedPrice, ...] = ()
    notes: str = ""
    #: Star (or pair) ids a team buying this may not also hire.
    excludes_stars: tuple[str, ...] = ()

    @property
    def restricted(self) -> bool:
        return bool(self.special_rules or self.team_types or self.needs_apothecary or self.tiers)


@dataclass(frozen=True, slots=True)
class PettyCashRules:
    #: The higher-CTV team buys from its treasury before the lower team.
    higher_spends_first: bool
    #: The lower team's petty cash is the CTV gap plus what the higher team spent.
    higher_spend_adds_to_petty_cash: bool
    #: Treasury the lower team may add to its petty cash (None: no cap).
    lower_adds_treasury_max: int | None
    #: With equal CTVs, may the teams spend treasury on inducements?
    equal_ctv_treasury: bool


@dataclass(frozen=True, slots=True)
class JourneymanHire:
    #: "current_value" (fee + advancements) | "position_cost"
    price: str
    #: Hiring needs a free place under the roster maximum.
    needs_room: bool
    loses_trait: bool
    keeps_spp: bool


@dataclass(frozen=True, slots=True)
class JourneymenRules:
    fill_to: int
    #: Positions with one of these maximum quantities ...
    position_max: tuple[int, ...]
    #: ... and (when set) this keyword may provide journeymen.
    keyword: str | None
    trait: SkillRef
    counts_in_ctv: bool
    hire: JourneymanHire


@dataclass(frozen=True, slots=True)
class MercenaryRules:
    extra_cost: int
    skill_cost: int
    max_skills: int
    #: "primary": the extra skill comes from the position's primary categories.
    skill_access: str
    trait: SkillRef
    max: int | None = None  # None: only position and roster limits


@dataclass(frozen=True, slots=True)
class StarPlayerRules:
    #: Star choices per team and game (a pair is one choice).
    max: int
    #: A star both teams hired: "both" field him | "neither" does.
    same_star: str


@dataclass(frozen=True, slots=True)
class StarPlayer:
    id: str
    name: str
    cost: int
    ma: int
    st: int
    ag: int
    pa: int | None
    av: int
    skills: tuple[SkillRef, ...] = ()
    special_rule: str = ""
    #: Leagues / special rules he plays for; "X..." matches every rule starting with "X".
    plays_for: tuple[str, ...] = ()
    #: Team type ids he plays for (classic).
    plays_for_teams: tuple[str, ...] = ()
    any_team: bool = False
    plays_for_except: tuple[str, ...] = ()
    mega_star: bool = False
    #: Id of the pair he is hired with (the pair's fee is paid once for both).
    pair: str | None = None

    @property
    def stats(self) -> Mapping[str, int | None]:
        return starting_stats(self)


@dataclass(frozen=True, slots=True)
class StarPair:
    id: str
    name: str
    cost: int
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchDay:
    """One edition's pre-game sequence."""

    petty_cash: PettyCashRules
    journeymen: JourneymenRules
    mercenaries: MercenaryRules
    star_rules: StarPlayerRules
    inducements: tuple[Inducement, ...]
    stars: tuple[StarPlayer, ...] = ()
    pairs: tuple[StarPair, ...] = ()

    def inducement(self, inducement_id: str) -> Inducement:
        for item in self.inducements:
            if item.id == inducement_id:
                return item
        raise RulesError(f"no inducement {inducement_id!r}")

    def star(self, star_id: str) -> StarPlayer:
        for star in self.stars:
            if star.id == star_id:
                return star
        raise RulesError(f"no star player {star_id!r}")

    def pair(self, pair_id: str) -> StarPair:
        for pair in self.pairs:
            if pair.id == pair_id:
                return pair
        raise RulesError(f"no star pair {pair_id!r}")
