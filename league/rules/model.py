"""Frozen value objects of the rules engine.

Everything here is plain data: a :class:`Ruleset` is built once by the loader
(from TOML) and never changes. Sequences are tuples and mappings are
read-only views, so a cached ruleset cannot be altered by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from league.rules.base import RulesError as RulesError
from league.rules.base import RulesetError as RulesetError
from league.rules.base import frozen_mapping as frozen_mapping
from league.rules.base import starting_stats
from league.rules.match_day_model import Inducement as Inducement
from league.rules.match_day_model import JourneymanHire as JourneymanHire
from league.rules.match_day_model import JourneymenRules as JourneymenRules
from league.rules.match_day_model import MatchDay as MatchDay
from league.rules.match_day_model import MercenaryRules as MercenaryRules
from league.rules.match_day_model import PettyCashRules as PettyCashRules
from league.rules.match_day_model import ReducedPrice as ReducedPrice
from league.rules.match_day_model import StarPair as StarPair
from league.rules.match_day_model import StarPlayer as StarPlayer
from league.rules.match_day_model import StarPlayerRules as StarPlayerRules

if TYPE_CHECKING:
    from league.rules.texts import RulesText

#: Characteristic keys, in roster-sheet order.
CHARACTERISTICS: tuple[str, ...] = ("ma", "st", "ag", "pa", "av")

#: Skill advancement kinds (the cost-table and value-table keys).
SKILL_KINDS: tuple[str, ...] = (
    "random_primary",
    "chosen_primary",
    "random_secondary",
    "chosen_secondary",
)
#: Every advancement kind a spend-mode cost table may price.
ADVANCEMENT_KINDS: tuple[str, ...] = (*SKILL_KINDS, "random_characteristic")

#: Counters a match report may carry for one player.
SPP_EVENTS: tuple[str, ...] = (
    "td",
    "cas",
    "comp",
    "int",
    "deflection",
    "throw_completion",
    "safe_landing",
    "mvp",
)

#: What a casualty does to a player in the long run.
CASUALTY_EFFECTS: tuple[str, ...] = ("badly_hurt", "mng", "niggling", "lasting", "dead")


# ---------------------------------------------------------------------------
# Decisions


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something is refused: a namespaced code plus parameters.

    ``key`` names the rules that refuse and the reason ("match_day.over_budget");
    :mod:`league.rules.refusals` words each key. ``code`` is the part after the
    namespace ("over_budget"), the snake_case code services and the API answer with.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=frozen_mapping)

    @property
    def code(self) -> str:
        """The reason without its namespace ("over_budget")."""
        return self.key.rpartition(".")[2]

    @property
    def domain(self) -> str:
        """The rules that refuse ("match_day"); empty for a code without a namespace."""
        return self.key.rpartition(".")[0]

    def __str__(self) -> str:
        if not self.params:
            return self.code
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({args})"


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer to a "may I?" question, with reasons when the answer is no."""

    allowed: bool
    reasons: tuple[Reason, ...] = ()

    @classmethod
    def allow(cls) -> Decision:
        return cls(allowed=True)

    @classmethod
    def deny(cls, code: str, **params: Any) -> Decision:
        return cls(allowed=False, reasons=(make_reason(code, **params),))

    @classmethod
    def from_reasons(cls, reasons: tuple[Reason, ...] | list[Reason]) -> Decision:
        """Allowed when there is no reason against it."""
        reasons = tuple(reasons)
        return cls(allowed=not reasons, reasons=reasons)

    def __bool__(self) -> bool:
        return self.allowed

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(reason.code for reason in self.reasons)

    def reason(self, code: str) -> Reason | None:
        """The first reason with ``code`` (bare or namespaced), if any."""
        return next((r for r in self.reasons if code in (r.code, r.key)), None)


def make_reason(code: str, **params: Any) -> Reason:
    """A :class:`Reason` (``code`` namespaced: "match_day.over_budget") whose list
    parameters are frozen into tuples."""
    frozen = {
        k: tuple(v) if isinstance(v, list | set | frozenset) else v for k, v in params.items()
    }
    return Reason(code, frozen_mapping(frozen))


# ---------------------------------------------------------------------------
# Skills and rosters


@dataclass(frozen=True, slots=True)
class SkillCategory:
    code: str
    name: str
    #: Random-skill table, rows 1-12 (empty: no random table).
    table: tuple[str, ...] = ()
    learnable: bool = True


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    category: str
    summary: str = ""
    trait: bool = False
    buyable: bool = True
    elite: bool = False
    excludes: tuple[str, ...] = ()
    requires_any: tuple[str, ...] = ()
    #: Parameter placeholder (e.g. "X+") when the skill carries one on rosters.
    parameter: str | None = None


@dataclass(frozen=True, slots=True)
class SkillRef:
    """A skill as written on a roster: name plus optional parameter ("4+")."""

    name: str
    parameter: str | None = None

    def __str__(self) -> str:
        return f"{self.name} ({self.parameter})" if self.parameter else self.name


def parse_skill_ref(text: str) -> SkillRef:
    """Split ``"Loner (4+)"`` into ``SkillRef("Loner", "4+")``."""
    text = text.strip()
    if text.endswith(")") and " (" in text:
        name, _, rest = text.rpartition(" (")
        return SkillRef(name.strip(), rest[:-1].strip())
    return SkillRef(text)


@dataclass(frozen=True, slots=True)
class Position:
    id: str
    name: str
    max: int
    cost: int
    ma: int
    st: int
    ag: int
    pa: int | None
    av: int
    skills: tuple[SkillRef, ...] = ()
    primary: tuple[str, ...] = ()
    secondary: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    notes: str = ""

    @property
    def skill_names(self) -> tuple[str, ...]:
        return tuple(ref.name for ref in self.skills)

    @property
    def stats(self) -> Mapping[str, int | None]:
        """Starting characteristics keyed ``ma st ag pa av``."""
        return starting_stats(self)


@dataclass(frozen=True, slots=True)
class TeamType:
    id: str
    name: str
    reroll_cost: int
    apothecary: bool
    positions: tuple[Position, ...]
    tier: int | None = None
    special_rules: tuple[str, ...] = ()
    max_big_guys: int | None = None
    notes: str = ""

    def position(self, position_id: str) -> Position:
        for position in self.positions:
            if position.id == position_id:
                return position
        raise RulesError(f"team type {self.id!r} has no position {position_id!r}")

    def has_special_rule(self, rule: str) -> bool:
        return rule in self.special_rules


# ---------------------------------------------------------------------------
# Advancement


@dataclass(frozen=True, slots=True)
class CharacteristicBand:
    """A band of a die table: rolls ``min``-``max`` allow ``characteristics``."""

    min: int
    max: int
    characteristics: tuple[str, ...]

    def covers(self, roll: int) -> bool:
        return self.min <= roll <= self.max


@dataclass(frozen=True, slots=True)
class CharacteristicTable:
    """Spend mode: the table rolled for a random characteristic improvement."""

    die: int
    bands: tuple[CharacteristicBand, ...]
    #: Skill kinds the coach may take instead of the rolled improvement.
    fallback: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ImprovementRoll:
    """Roll mode (classic): the 2D6 table rolled for each new level."""

    bands: tuple[CharacteristicBand, ...]
    #: Kind of the skill any result may take instead.
    skill_kind: str
    #: Kind of the extra skill a double allows (None: doubles change nothing).
    doubles_kind: str | None


@dataclass(frozen=True, slots=True)
class CostTable:
    """SPP cost per kind; index 0 prices the first advancement."""

    costs: Mapping[str, tuple[int, ...]]

    def kinds(self) -> tuple[str, ...]:
        return tuple(k for k in ADVANCEMENT_KINDS if k in self.costs)


@dataclass(frozen=True, slots=True)
class AdvancementRules:
    mode: str  # "spend" | "roll"
    max_advancements: int
    levels: tuple[str, ...]
    cost_table: CostTable
    #: Roll mode: SPP totals that each earn one improvement roll.
    thresholds: tuple[int, ...] = ()
    #: "characteristic_cost" (must advance once SPP reach the next characteristic cost) | "none"
    must_spend: str = "none"
    #: "roll_once" | "roll_twice_pick_one" (2D6 tables) | "roll_list" (one die over the
    #: category's skills in skills.toml order) | "none"
    random_skill: str = "none"

    @property
    def costs(self) -> Mapping[str, tuple[int, ...]]:
        return self.cost_table.costs


@dataclass(frozen=True, slots=True)
class CharacteristicLimits:
    #: Best and worst value of each characteristic (keys name the characteristics
    #: this ruleset has; target-style AG/PA/AV are target numbers).
    best: Mapping[str, int]
    worst: Mapping[str, int]
    max_improvements: int | None = None
    max_increase_from_start: int | None = None
    max_decrease_from_start: int | None = None
    #: Target-style: the PA a player without PA gets from a PA improvement.
    pa_from_none: int | None = None


@dataclass(frozen=True, slots=True)
class ValueIncreaseTable:
    """Gold added to a player's value per advancement (None: kind not offered)."""

    random_primary: int | None
    chosen_primary: int | None
    random_secondary: int | None
    chosen_secondary: int | None
    ma: int | None
    st: int | None
    ag: int | None
    pa: int | None
    av: int | None
    elite_surcharge: int = 0

    KEYS = (
        "random_primary",
        "chosen_primary",
        "random_secondary",
        "chosen_secondary",
        "ma",
        "st",
        "ag",
        "pa",
        "av",
    )

    def as_dict(self) -> dict[str, int | None]:
        return {key: getattr(self, key) for key in self.KEYS}


@dataclass(frozen=True, slots=True)
class SppVariant:
    """Award overrides for teams with a special rule (BB2025 Brawlin' Brutes)."""

    special_rule: str
    awards: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class SppAwards:
    awards: Mapping[str, int]
    variants: tuple[SppVariant, ...] = ()
    #: MVP awards a team may hand out per match, and extra ones when the opponent concedes.
    mvps_per_team: int = 1
    extra_mvps_on_concession: int = 0
    #: The conceding team's players lose the SPP they earned in that match.
    concession_forfeits_spp: bool = False
    #: Players the coach nominates for MVP, one of them drawn with a die (0: no draw).
    mvp_nominees: int = 0
    #: A conceding team's players with at least this many advancements roll to leave
    #: (0: nobody does) ...
    concession_departure_advancements: int = 0
    #: ... and leave on a D6 at or below this.
    concession_departure_on: int = 0


# ---------------------------------------------------------------------------
# Injuries


@dataclass(frozen=True, slots=True)
class CasualtyResult:
    """One band of the casualty table."""

    min: int
    max: int
    name: str
    #: API injury code: badly_hurt | seriously_hurt | serious_injury | lasting_injury | dead
    code: str
    #: badly_hurt | mng | niggling | lasting | dead
    effect: str
    #: Lasting effects with a fixed characteristic (classic D68); None: roll the D6 table.
    characteristic: str | None = None

    def covers(self, roll: int) -> bool:
        return self.min <= roll <= self.max

    @property
    def miss_next_game(self) -> bool:
        return self.effect in ("mng", "niggling", "lasting")


@dataclass(frozen=True, slots=True)
class CasualtyTable:
    die: str  # "d16" | "d68"
    results: tuple[CasualtyResult, ...]
    #: Added to the roll per Niggling Injury the player already has.
    niggling_modifier: int = 0


@dataclass(frozen=True, slots=True)
class LastingInjury:
    min: int
    max: int
    name: str
    characteristic: str


@dataclass(frozen=True, slots=True)
class InjuryEffect:
    """What a casualty does to a player after the game."""

    result: CasualtyResult
    miss_next_game: bool
    niggling_injuries: int = 0
    dead: bool = False
    #: Characteristic reduced and its new value (None when nothing is reduced).
    characteristic: str | None = None
    new_value: int | None = None
    #: A lasting reduction that could not apply (already at the minimum).
    reduction_blocked: bool = False


# ---------------------------------------------------------------------------
# Team building and the post-game sequence


@dataclass(frozen=True, slots=True)
class StaffRule:
    cost: int
    max: int | None = None  # None: no limit


@dataclass(frozen=True, slots=True)
class DedicatedFans:
    start: int
    cost: int
    max_at_draft: int
    max: int | None = None
    counts_in_team_value: bool = False
    #: What a team that concedes loses (BB2020/BB2025: D3, never below ``start``); None: nothing.
    concession_loss: Dice | None = None


@dataclass(frozen=True, slots=True)
class LowCostLinemen:
    """Teams with ``special_rule`` count the fee of ``keyword`` players as 0 in CTV."""

    special_rule: str
    keyword: str


@dataclass(frozen=True, slots=True)
class TeamBuilding:
    starting_treasury: int
    min_players: int
    max_players: int
    max_rerolls: int
    reroll_after_draft_multiplier: int
    assistant_coaches: StaffRule
    cheerleaders: StaffRule
    apothecary_cost: int
    dedicated_fans: DedicatedFans
    low_cost_linemen: LowCostLinemen | None = None


@dataclass(frozen=True, slots=True)
class Winnings:
    #: "fan_attendance" (BB2020/BB2025) | "d6_fame" (classic)
    formula: str
    unit: int
    fan_attendance_divisor: int = 2
    per_touchdown: int = 1
    no_stalling_bonus: int = 0
    win_bonus: int = 0
    #: The team whose opponent conceded: the attendance divided by this instead (1: all of
    #: it), and this bonus instead of ``no_stalling_bonus``. None: the usual formula.
    concession_fan_attendance_divisor: int | None = None
    concession_no_stalling_bonus: int = 0


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` sides, added up (D3: 1 x 3, 2D6: 2 x 6)."""

    count: int
    sides: int

    @property
    def lowest(self) -> int:
        return self.count

    @property
    def highest(self) -> int:
        return self.count * self.sides

    @property
    def name(self) -> str:
        """ "D3", "2D6"."""
        return f"{self.count if self.count > 1 else ''}D{self.sides}"


@dataclass(frozen=True, slots=True)
class ExpensiveMistakes:
    min_treasury: int
    #: Lower bound of each treasury column, ascending.
    columns: tuple[int, ...]
    #: D6 rows 1-6, one outcome code per column.
    rows: tuple[tuple[str, ...], ...]
    #: Minor Incident: lose `minor_dice` x `minor_loss_per_pip` gold.
    minor_dice: Dice
    minor_loss_per_pip: int
    #: Major Incident: lose the treasury divided by `major_divisor`, rounded down to this.
    major_divisor: int
    major_round_down_to: int
    #: Catastrophe: keep only `catastrophe_dice` x `catastrophe_kept_per_pip` gold.
    catastrophe_dice: Dice
    catastrophe_kept_per_pip: int

    @property
    def row_die(self) -> int:
        """The sides of the die that picks the row (a D6: one row per face)."""
        return len(self.rows)

    def dice_for(self, outcome: str) -> Dice | None:
        """The dice an outcome rolls for its amount (None: no roll)."""
        return {"minor": self.minor_dice, "catastrophe": self.catastrophe_dice}.get(outcome)


# ---------------------------------------------------------------------------
# Between seasons


@dataclass(frozen=True, slots=True)
class Prizes:
    """Gold paid at the end of a league season, by final place."""

    #: Gold for 1st, 2nd, 3rd ... place, in that order.
    gold: tuple[int, ...]
    #: Paid after the post-game Expensive Mistakes of the last match.
    after_expensive_mistakes: bool
    #: The champion holds the League Trophy: a free team re-roll counted in
    #: TV until the end of the next season.
    trophy_reroll: bool


@dataclass(frozen=True, slots=True)
class Redraft:
    """The off-season re-draft budget and the price of keeping a player."""

    base: int
    per_fixture: int
    per_win: int
    per_draw: int
    #: The recommended cap on the budget (a league may lift it); None: no cap.
    cap: int | None
    #: Added to a player's current value per season already played; paying
    #: it does not raise his value.
    agent_fee_per_season: int
    #: Whether friendly games count as fixtures played.
    friendlies_count: bool
    #: Rest and recovery: a D6 per niggling injury heals it on this or more;
    #: None: the edition's data has no such roll.
    niggling_heals_on: int | None = None
    #: Added to each of those rolls when the team has an apothecary.
    niggling_apothecary_bonus: int = 0


#: How playoff places are filled: from the overall table, or equally from
#: each division.
PLAYOFF_SEEDINGS: tuple[str, ...] = ("table", "divisions")
#: How a drawn knock-out match is settled.
PLAYOFF_DRAWS: tuple[str, ...] = ("extra_time_then_winner", "recorded_winner")
PLAYOFF_SIZES: tuple[int, ...] = (4, 8, 16)


@dataclass(frozen=True, slots=True)
class Playoffs:
    seeding: str
    no_same_division_first_round: bool
    draw: str
    third_place_match: bool = True


#: How a Swiss tournament's bye counts in the standings.
BYE_RESULTS: tuple[str, ...] = ("win", "draw")


#: What a bonus point is given for, in one match: scoring at least ``threshold``
#: touchdowns, causing at least ``threshold`` casualties, losing by ``threshold``
#: touchdowns or fewer.
BONUS_KINDS: tuple[str, ...] = ("touchdowns", "casualties", "close_loss")


@dataclass(frozen=True, slots=True)
class BonusRule:
    """``points`` more tournament points for a match that meets the rule (see BONUS_KINDS)."""

    kind: str
    threshold: int
    points: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """Swiss tournaments: what a bye (no opponent, odd number of teams) is worth, and
    how tournament points are scored."""

    #: The result the team with the bye is given ("win" or "draw").
    bye_result: str = "win"
    #: The score it is counted with (for the touchdown tie-breakers): for, against.
    bye_touchdowns: tuple[int, int] = (1, 0)
    #: Tournament points for a win, a draw and a loss (None: the league's own points).
    points: tuple[int, int, int] | None = None
    #: Bonus points on top of them, match by match (a league with some is scored as a
    #: tournament: its standings show each team's bonus points).
    bonus: tuple[BonusRule, ...] = ()
    #: Points the conceding team gets for a match it gave up (None: a loss's points).
    concession_points: int | None = None
    #: The score a conceded match counts as: the winner's, the conceding team's (None:
    #: the score as it stood when the match was given up).
    concession_score: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class SeasonRules:
    playoffs: Playoffs
    prizes: Prizes | None = None
    redraft: Redraft | None = None
    tournament: Tournament = Tournament()


@dataclass(frozen=True, slots=True)
class MatchedPlay:
    """Matched-play (tournament) roster rules.

    ``elite_cap`` is the edition's own rule (each elite skill at most that many times
    on a team; None: no cap). The rest are the organiser's settings, the ruleset data
    giving their defaults and the league's house rule ``matched_play`` overriding them.
    """

    budget: int
    #: Skill points by team tier: index 0 is tier 1.
    skill_points: tuple[int, ...]
    primary_cost: int
    secondary_cost: int
    #: The most secondary skills a roster may add (None: no limit).
    max_secondary: int | None = None
    #: Whether an elite skill costs one skill point more than its kind says.
    elite_costs_extra: bool = False
    elite_cap: int | None = None

    def points_for_tier(self, tier: int) -> int:
        return self.skill_points[tier - 1]


#: A ruleset without a season section: no prizes, no re-draft, playoffs from
#: the table with the winner of a draw recorded, a tournament bye a 1-0 win.
PLAIN_SEASON = SeasonRules(
    Playoffs("table", no_same_division_first_round=False, draw="recorded_winner")
)


# ---------------------------------------------------------------------------
# Translations of the rules data (``<ruleset>/i18n/<language>.toml``)


@dataclass(frozen=True, slots=True)
class TextEntry:
    """A translated name and/or summary; "" where the file gives none (English is shown)."""

    name: str = ""
    summary: str = ""


@dataclass(frozen=True, slots=True)
class RulesTranslation:
    """One language's texts for a ruleset's data, keyed as in the English files.

    ``skills`` by skill name, ``categories`` by category code, ``inducements`` and
    ``team_types`` by id, ``positions`` and ``levels`` by their English name (a
    position id such as "blitzer" is shared by teams whose positions differ).
    ``skill_names`` is the convention the file follows: "translated" (the community
    uses names in its language) or "english" (it keeps the English skill names; only
    the summaries are translated).
    """

    language: str
    skill_names: str
    skills: Mapping[str, TextEntry] = field(default_factory=lambda: frozen_mapping({}))
    categories: Mapping[str, str] = field(default_factory=lambda: frozen_mapping({}))
    inducements: Mapping[str, TextEntry] = field(default_factory=lambda: frozen_mapping({}))
    team_types: Mapping[str, str] = field(default_factory=lambda: frozen_mapping({}))
    positions: Mapping[str, str] = field(default_factory=lambda: frozen_mapping({}))
    levels: Mapping[str, str] = field(default_factory=lambda: frozen_mapping({}))


# ---------------------------------------------------------------------------
# The ruleset


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """One edition's rules. Compared and hashed by identity (it is cached)."""

    id: str
    name: str
    edition: str
    stat_style: str  # "target" | "value"
    advancement: AdvancementRules
    limits: CharacteristicLimits
    value_increase: ValueIncreaseTable
    spp: SppAwards
    casualty_table: CasualtyTable
    team_building: TeamBuilding
    skill_categories: tuple[SkillCategory, ...]
    skills: tuple[Skill, ...]
    team_types: tuple[TeamType, ...]
    based_on: str | None = None
    characteristic_table: CharacteristicTable | None = None
    improvement_roll: ImprovementRoll | None = None
    lasting_injuries: tuple[LastingInjury, ...] = ()
    winnings: Winnings | None = None
    expensive_mistakes: ExpensiveMistakes | None = None
    season: SeasonRules = PLAIN_SEASON
    #: The pre-game sequence (None: the ruleset has none).
    match_day: MatchDay | None = None
    #: Tournament roster rules (None: the edition has no matched-play data).
    matched_play: MatchedPlay | None = None
    #: Translations of names and summaries by language code ("fr", "de", ...).
    translations: Mapping[str, RulesTranslation] = field(default_factory=lambda: frozen_mapping({}))
    _skills_by_name: Mapping[str, Skill] = field(init=False, repr=False)
    _categories_by_code: Mapping[str, SkillCategory] = field(init=False, repr=False)
    _team_types_by_id: Mapping[str, TeamType] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_skills_by_name", frozen_mapping({s.name: s for s in self.skills})
        )
        object.__setattr__(
            self,
            "_categories_by_code",
            frozen_mapping({c.code: c for c in self.skill_categories}),
        )
        object.__setattr__(
            self, "_team_types_by_id", frozen_mapping({t.id: t for t in self.team_types})
        )

    @property
    def characteristics(self) -> tuple[str, ...]:
        """The characteristics players have in this ruleset (classic: no PA)."""
        return tuple(c for c in CHARACTERISTICS if c in self.limits.best)

    def text(self, locale: object = None) -> RulesText:
        """Names and summaries in ``locale`` ("fr", "fr_FR", a babel Locale), English fallback."""
        from league.rules.texts import localized

        return localized(self, locale)

    def skill(self, name: str) -> Skill:
        """The skill called ``name`` (a roster parameter such as "(4+)" is ignored)."""
        found = self.find_skill(name)
        if found is None:
            raise RulesError(f"ruleset {self.id!r} has no skill {name!r}")
        return found

    def find_skill(self, name: str) -> Skill | None:
        skill = self._skills_by_name.get(name)
        if skill is None:
            skill = self._skills_by_name.get(parse_skill_ref(name).name)
        return skill

    def category(self, code: str) -> SkillCategory:
        try:
            return self._categories_by_code[code]
        except KeyError:
            raise RulesError(f"ruleset {self.id!r} has no skill category {code!r}") from None

    def has_category(self, code: str) -> bool:
        return code in self._categories_by_code

    def team_type(self, team_type_id: str) -> TeamType:
        try:
            return self._team_types_by_id[team_type_id]
        except KeyError:
            raise RulesError(f"ruleset {self.id!r} has no team type {team_type_id!r}") from None

    def skills_in(self, code: str) -> tuple[Skill, ...]:
        """Skills of a category: table order first, then by name."""
        category = self.category(code)
        order = {name: i for i, name in enumerate(category.table)}
        members = [s for s in self.skills if s.category == code]
        return tuple(sorted(members, key=lambda s: (order.get(s.name, len(order)), s.name)))
