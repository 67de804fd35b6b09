"""Advancement: costs, levels, which skills a player may take, value increases.

Spend mode (BB2020, BB2025, classic-spend): SPP are spent; the Nth advancement
of a kind costs ``costs[kind][N - 1]``. Roll mode (classic): SPP are never
spent; each threshold crossed earns a 2D6 improvement roll.

"May I?" questions return a :class:`~league.rules.model.Decision` whose reason
codes a page can show:

``unknown_kind`` ``kind_not_available`` ``max_advancements`` ``not_enough_spp``
``no_roll_pending`` ``unknown_skill`` ``already_held`` ``trait`` ``not_buyable``
``excluded_by`` ``requires`` ``not_primary`` ``not_secondary``
``category_not_accessible`` ``unknown_category`` ``no_random_table`` ``reroll_required``
``pick_required`` ``not_rolled`` ``unknown_characteristic`` ``max_improvements``
``at_maximum`` ``max_increase_from_start``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from league.i18n import gettext
from league.rules.base import check_die
from league.rules.improvements import (
    CharacteristicOptions,
    characteristic_decision,
    characteristic_options,
    improvement_roll_options,
)
from league.rules.model import (
    SKILL_KINDS,
    Decision,
    Position,
    Reason,
    RulesError,
    Ruleset,
    Skill,
    SkillCategory,
    frozen_mapping,
    make_reason,
    parse_skill_ref,
)

__all__ = [
    "RANDOM_CHARACTERISTIC_KIND",
    "RANDOM_SKILL_KINDS",
    "AdvancementOption",
    "AdvancementOptions",
    "CategoryChoices",
    "CharacteristicOptions",
    "RandomSkillResult",
    "SkillChoice",
    "TopLevel",
    "accessible_categories",
    "advancement_cost",
    "advancement_decision",
    "advancement_kinds",
    "advancement_options",
    "characteristic_decision",
    "characteristic_options",
    "improvement_roll_options",
    "legal_skills",
    "level_for_spp",
    "level_name",
    "must_spend",
    "needs_dice",
    "player_level",
    "random_skill_from_dice",
    "random_skill_list",
    "random_skill_result",
    "request_fields",
    "roll_random_skill_dice",
    "roll_serves",
    "rolls_earned",
    "skill_choices",
    "skill_decision",
    "top_level",
    "value_increase",
]

#: The kind rolled on the characteristic table (spend mode), or a characteristic
#: taken from a Star Player Roll (roll mode).
RANDOM_CHARACTERISTIC_KIND = "random_characteristic"
RANDOM_SKILL_KINDS = ("random_primary", "random_secondary")


# ---------------------------------------------------------------------------
# Kinds, costs, levels


def advancement_kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """Kinds a player of this ruleset may take.

    Spend mode: the priced kinds. Roll mode: the improvement roll's skill kinds
    plus ``random_characteristic`` (the rolled characteristic).
    """
    adv = ruleset.advancement
    if adv.mode == "spend":
        return adv.cost_table.kinds()
    roll = ruleset.improvement_roll
    assert roll is not None  # noqa: S101 - the loader guarantees it in roll mode
    kinds = [roll.skill_kind]
    if roll.doubles_kind is not None:
        kinds.append(roll.doubles_kind)
    return (*kinds, RANDOM_CHARACTERISTIC_KIND)


def request_fields(ruleset: Ruleset, kind: str) -> frozenset[str]:
    """What a request for an advancement of ``kind`` may name besides the kind.

    Every kind may name a ``skill`` (the one chosen, picked from a roll, or taken
    instead of a characteristic). Only the random skill kinds roll on a
    ``category``. The kinds that roll take ``dice``: the random ones, the
    characteristic roll and, in roll mode, every improvement roll. A
    ``characteristic`` is picked after a characteristic roll, or from any
    improvement roll in roll mode.
    """
    fields = {"skill"}
    if needs_dice(ruleset, kind):
        fields.add("dice")
    if kind in RANDOM_SKILL_KINDS:
        fields.add("category")
    if kind == RANDOM_CHARACTERISTIC_KIND or ruleset.advancement.mode == "roll":
        fields.add("characteristic")
    return frozenset(fields)


def needs_dice(ruleset: Ruleset, kind: str) -> bool:
    """Whether an advancement of ``kind`` comes from dice.

    The random skill kinds and the characteristic roll do; in roll mode (classic)
    every advancement is taken from a 2D6 Star Player Roll.
    """
    return (
        ruleset.advancement.mode == "roll"
        or kind in RANDOM_SKILL_KINDS
        or kind == RANDOM_CHARACTERISTIC_KIND
    )


def advancement_cost(ruleset: Ruleset, kind: str, number: int) -> int:
    """SPP cost of advancement ``number`` (1-based: the one about to be taken)."""
    adv = ruleset.advancement
    if adv.mode != "spend":
        raise RulesError(f"ruleset {ruleset.id!r} does not spend SPP (mode {adv.mode!r})")
    if kind not in adv.costs:
        raise RulesError(
            f"ruleset {ruleset.id!r} has no advancement kind {kind!r} "
            f"(known: {', '.join(adv.cost_table.kinds())})"
        )
    if not 1 <= number <= adv.max_advancements:
        raise RulesError(
            f"advancement number {number} is outside 1-{adv.max_advancements} "
            f"in ruleset {ruleset.id!r}"
        )
    return adv.costs[kind][number - 1]


def level_name(ruleset: Ruleset, advancements_taken: int) -> str:
    """Level of a player who has taken ``advancements_taken`` advancements."""
    levels = ruleset.advancement.levels
    if not 0 <= advancements_taken < len(levels):
        raise RulesError(
            f"{advancements_taken} advancements is outside 0-{len(levels) - 1} "
            f"in ruleset {ruleset.id!r}"
        )
    return levels[advancements_taken]


def rolls_earned(ruleset: Ruleset, spp: int) -> int:
    """Roll mode: improvement rolls earned by ``spp`` SPP in total."""
    adv = ruleset.advancement
    if adv.mode != "roll":
        raise RulesError(f"ruleset {ruleset.id!r} spends SPP; it has no SPP thresholds")
    if spp < 0:
        raise RulesError(f"SPP cannot be negative ({spp})")
    return sum(1 for threshold in adv.thresholds if spp >= threshold)


def level_for_spp(ruleset: Ruleset, spp: int) -> str:
    """Roll mode: level name for an SPP total (Rookie below the first threshold)."""
    return ruleset.advancement.levels[rolls_earned(ruleset, spp)]


def player_level(ruleset: Ruleset, advancements_taken: int, spp_earned: int = 0) -> str:
    """A player's level: by advancements taken (spend mode) or SPP earned (roll mode)."""
    if ruleset.advancement.mode == "roll":
        return level_for_spp(ruleset, spp_earned)
    return level_name(ruleset, advancements_taken)


@dataclass(frozen=True, slots=True)
class TopLevel:
    """The ruleset's highest level and what reaching it takes: ``advancements`` taken
    (spend mode) or ``spp`` earned (roll mode), at least ``at_least`` of them."""

    name: str
    by: str  # "advancements" | "spp"
    at_least: int


def top_level(ruleset: Ruleset) -> TopLevel:
    """The last of the ruleset's levels ("Legend"): every advancement taken in spend mode,
    every SPP threshold crossed in roll mode (`player_level` reads the same numbers)."""
    adv = ruleset.advancement
    if adv.mode == "roll":
        return TopLevel(adv.levels[-1], "spp", adv.thresholds[-1])
    return TopLevel(adv.levels[-1], "advancements", adv.max_advancements)


def must_spend(ruleset: Ruleset, available_spp: int, advancements_taken: int) -> bool:
    """True when the player may no longer bank SPP (BB2020/BB2025 rule)."""
    adv = ruleset.advancement
    if adv.mode != "spend" or adv.must_spend == "none":
        return False
    if advancements_taken >= adv.max_advancements:
        return False
    cost = advancement_cost(ruleset, RANDOM_CHARACTERISTIC_KIND, advancements_taken + 1)
    return available_spp >= cost


def can_advance(ruleset: Ruleset, advancements_taken: int, available_spp: int) -> bool:
    """True when some advancement kind is open to the player now (the roster's badge)."""
    return any(
        advancement_decision(ruleset, kind, advancements_taken, available_spp).allowed
        for kind in advancement_kinds(ruleset)
    )


def advancement_decision(
    ruleset: Ruleset,
    kind: str,
    advancements_taken: int,
    available_spp: int,
) -> Decision:
    """May a player take one more advancement of ``kind`` now?

    Spend mode: ``available_spp`` is the unspent balance. Roll mode:
    ``available_spp`` is the player's SPP total (nothing is spent) and the
    answer is yes while an earned improvement roll is unused.
    """
    if kind not in (*SKILL_KINDS, RANDOM_CHARACTERISTIC_KIND):
        return Decision.deny("advancement.unknown_kind", kind=kind)
    if kind not in advancement_kinds(ruleset):
        return Decision.deny("advancement.kind_not_available", kind=kind, ruleset=ruleset.id)
    adv = ruleset.advancement
    if advancements_taken >= adv.max_advancements:
        return Decision.deny("advancement.max_advancements", max=adv.max_advancements)
    if adv.mode == "roll":
        earned = rolls_earned(ruleset, available_spp)
        if earned <= advancements_taken:
            nxt = adv.thresholds[advancements_taken]
            return Decision.deny("advancement.no_roll_pending", needed=nxt, have=available_spp)
        return Decision.allow()
    cost = advancement_cost(ruleset, kind, advancements_taken + 1)
    if available_spp < cost:
        return Decision.deny("advancement.not_enough_spp", needed=cost, have=available_spp)
    return Decision.allow()


# ---------------------------------------------------------------------------
# Which skills


def _held_names(position: Position | None, held: Iterable[str]) -> set[str]:
    """Skill names held: roster skills plus ``held`` (parameters such as "(4+)" dropped)."""
    names = {parse_skill_ref(name).name for name in held}
    if position is not None:
        names.update(position.skill_names)
    return names


def _side(kind: str) -> str:
    return "primary" if kind.endswith("_primary") else "secondary"


def accessible_categories(ruleset: Ruleset, position: Position, kind: str) -> tuple[str, ...]:
    """Category codes a skill of ``kind`` may come from (learnable ones only)."""
    codes = position.primary if _side(kind) == "primary" else position.secondary
    result = []
    for code in codes:
        category = ruleset.category(code)
        if not category.learnable:
            continue
        if kind in RANDOM_SKILL_KINDS and not random_skill_list(ruleset, code):
            continue
        result.append(code)
    return tuple(result)


def _category_reason(position: Position, skill: Skill, kind: str) -> Reason | None:
    side = _side(kind)
    code = skill.category
    if side == "primary":
        if code in position.primary:
            return None
        if code in position.secondary:
            return make_reason("advancement.not_primary", skill=skill.name, category=code)
    else:
        if code in position.secondary:
            return None
        if code in position.primary:
            return make_reason("advancement.not_secondary", skill=skill.name, category=code)
    return make_reason("advancement.category_not_accessible", skill=skill.name, category=code)


def _kind_decision(ruleset: Ruleset, kind: str) -> Decision | None:
    if kind not in SKILL_KINDS:
        return Decision.deny("advancement.unknown_kind", kind=kind)
    if kind not in advancement_kinds(ruleset):
        return Decision.deny("advancement.kind_not_available", kind=kind, ruleset=ruleset.id)
    return None


def _skill_reasons(
    ruleset: Ruleset, position: Position, held: set[str], skill: Skill, kind: str
) -> list[Reason]:
    reasons: list[Reason] = []
    if skill.name in held:
        reasons.append(make_reason("advancement.already_held", skill=skill.name))
    category = ruleset.category(skill.category)
    if skill.trait:
        reasons.append(make_reason("advancement.trait", skill=skill.name))
    elif not skill.buyable or not category.learnable:
        reasons.append(make_reason("advancement.not_buyable", skill=skill.name))
    else:
        category_reason = _category_reason(position, skill, kind)
        if category_reason is not None:
            reasons.append(category_reason)
    for other_name in sorted(held):
        if other_name == skill.name:
            continue
        other = ruleset.find_skill(other_name)
        conflict = other_name in skill.excludes or (
            other is not None and skill.name in other.excludes
        )
        if conflict:
            reasons.append(make_reason("advancement.excluded_by", skill=skill.name, by=other_name))
    if skill.requires_any and not any(name in held for name in skill.requires_any):
        reasons.append(
            make_reason("advancement.requires", skill=skill.name, skills=skill.requires_any)
        )
    return reasons


def skill_decision(
    ruleset: Ruleset,
    position: Position,
    held_skill_names: Iterable[str],
    skill_name: str,
    kind: str,
) -> Decision:
    """May a player of ``position`` holding ``held_skill_names`` gain ``skill_name``?

    ``held_skill_names`` are the skills gained so far (starting skills of the
    position are added automatically; "Loner (4+)" style names are fine).
    Random kinds check the same category rules as chosen ones.
    """
    refused = _kind_decision(ruleset, kind)
    if refused is not None:
        return refused
    skill = ruleset.find_skill(skill_name)
    if skill is None:
        return Decision.deny("advancement.unknown_skill", skill=skill_name)
    held = _held_names(position, held_skill_names)
    return Decision.from_reasons(_skill_reasons(ruleset, position, held, skill, kind))


def legal_skills(
    ruleset: Ruleset, position: Position, held_skill_names: Iterable[str], kind: str
) -> list[Skill]:
    """Skills the player may take as ``kind``, by category then table order."""
    return [
        choice.skill
        for group in skill_choices(ruleset, position, held_skill_names, kind)
        for choice in group.choices
        if choice.decision.allowed
    ]


@dataclass(frozen=True, slots=True)
class SkillChoice:
    skill: Skill
    decision: Decision


@dataclass(frozen=True, slots=True)
class CategoryChoices:
    category: SkillCategory
    #: "primary" | "secondary" | None (not accessible to this position)
    access: str | None
    choices: tuple[SkillChoice, ...]


def skill_choices(
    ruleset: Ruleset, position: Position, held_skill_names: Iterable[str], kind: str
) -> tuple[CategoryChoices, ...]:
    """Every skill with its decision, grouped by category (ruleset order)."""
    refused = _kind_decision(ruleset, kind)
    held = _held_names(position, held_skill_names)
    groups = []
    for category in ruleset.skill_categories:
        access = (
            "primary"
            if category.code in position.primary
            else "secondary"
            if category.code in position.secondary
            else None
        )
        choices = tuple(
            SkillChoice(
                skill,
                refused
                if refused is not None
                else Decision.from_reasons(_skill_reasons(ruleset, position, held, skill, kind)),
            )
            for skill in ruleset.skills_in(category.code)
        )
        groups.append(CategoryChoices(category, access, choices))
    return tuple(groups)


# ---------------------------------------------------------------------------
# Random skills


def random_skill_list(ruleset: Ruleset, category_code: str) -> tuple[str, ...]:
    """Skill names a random skill of this category is rolled over, in roll order.

    ``roll_list``: every skill of the category in skills.toml order (one die
    with that many faces). Otherwise the category's 2D6 table (empty: none).
    """
    category = ruleset.category(category_code)
    if ruleset.advancement.random_skill == "roll_list":
        return tuple(s.name for s in ruleset.skills if s.category == category.code)
    return category.table


def random_skill_from_dice(
    ruleset: Ruleset, category_code: str, d6_first: int, d6_second: int | None = None
) -> Skill:
    """Look up one random-skill roll of a category.

    2D6 table (``roll_once``, ``roll_twice_pick_one``): the first die picks the
    half (1-3: rows 1-6, 4-6: rows 7-12), the second the row within it.
    ``roll_list``: ``d6_first`` is the single die with one face per skill of
    the category (1 = first skill in skills.toml order); ``d6_second`` must be
    left out.
    """
    if ruleset.advancement.random_skill == "roll_list":
        names = random_skill_list(ruleset, category_code)
        if d6_second is not None:
            raise RulesError(
                gettext(
                    "%(ruleset)s random skills take one die per roll, got two", ruleset=ruleset.id
                )
            )
        if not names:
            raise RulesError(f"category {category_code!r} of {ruleset.id!r} has no skills to roll")
        check_die(
            d6_first,
            len(names),
            gettext(
                "D%(sides)s roll for category %(category)s",
                sides=len(names),
                category=repr(category_code),
            ),
        )
        return ruleset.skill(names[d6_first - 1])
    if d6_second is None:
        raise RulesError(
            gettext(
                "%(ruleset)s random skills take two dice (2D6) per roll, got one",
                ruleset=ruleset.id,
            )
        )
    check_die(d6_first, 6, gettext("first die"))
    check_die(d6_second, 6, gettext("second die"))
    category = ruleset.category(category_code)
    if not category.table:
        raise RulesError(f"category {category_code!r} of {ruleset.id!r} has no random table")
    row = (0 if d6_first <= 3 else 6) + d6_second
    return ruleset.skill(category.table[row - 1])


def _dice_per_roll(ruleset: Ruleset) -> int:
    """Rolls of one random skill (0: no random skills)."""
    procedure = ruleset.advancement.random_skill
    return {"roll_once": 1, "roll_twice_pick_one": 2, "roll_list": 1}.get(procedure, 0)


def _dice_in_roll(ruleset: Ruleset) -> int:
    """Dice of one roll: 1 for ``roll_list``, 2 (2D6) for the tables."""
    return 1 if ruleset.advancement.random_skill == "roll_list" else 2


@dataclass(frozen=True, slots=True)
class RandomSkillResult:
    """Outcome of a random skill roll: the skill gained, or why not."""

    decision: Decision
    candidates: tuple[Skill, ...] = ()
    skill: Skill | None = None


def random_skill_result(
    ruleset: Ruleset,
    position: Position,
    held_skill_names: Iterable[str],
    kind: str,
    category_code: str,
    dice: Sequence[int],
    picked: str | None = None,
) -> RandomSkillResult:
    """Resolve a random skill from the dice rolled at the table.

    BB2020 (``roll_once``): ``dice`` = [d6, d6]. BB2025 (``roll_twice_pick_one``):
    [d6, d6, d6, d6] = two rolls; ``picked`` names the one kept (it may be
    omitted when both rolls gave the same skill). ``roll_list`` (classic-spend):
    [n], one die with as many faces as the category has skills (a result
    outside 1..len raises :class:`RulesError`). Any result the player may
    not take (held already, excluded, ...) must be re-rolled at the table:
    the answer is then ``reroll_required``.
    """
    if kind not in RANDOM_SKILL_KINDS:
        return RandomSkillResult(Decision.deny("advancement.unknown_kind", kind=kind))
    refused = _kind_decision(ruleset, kind)
    if refused is not None:
        return RandomSkillResult(refused)
    rolls = _dice_per_roll(ruleset)
    if not ruleset.has_category(category_code):
        return RandomSkillResult(
            Decision.deny("advancement.unknown_category", category=category_code)
        )
    category = ruleset.category(category_code)
    if category_code not in accessible_categories(ruleset, position, kind):
        side = _side(kind)
        if not random_skill_list(ruleset, category_code) or not category.learnable:
            code = (
                "advancement.no_random_table" if category.learnable else "advancement.not_buyable"
            )
            return RandomSkillResult(Decision.deny(code, category=category_code))
        other = position.secondary if side == "primary" else position.primary
        code = (
            ("advancement.not_primary" if side == "primary" else "advancement.not_secondary")
            if category_code in other
            else "advancement.category_not_accessible"
        )
        return RandomSkillResult(Decision.deny(code, category=category_code))
    per_roll = _dice_in_roll(ruleset)
    if len(dice) != per_roll * rolls:
        shape = "2D6" if per_roll == 2 else f"D{len(random_skill_list(ruleset, category_code))}"
        needed = per_roll * rolls
        raise RulesError(
            f"{ruleset.id} random skills take {needed} {'die' if needed == 1 else 'dice'} "
            f"({rolls} roll(s) of {shape}), got {len(dice)}"
        )
    candidates = tuple(
        random_skill_from_dice(ruleset, category_code, *dice[i : i + per_roll])
        for i in range(0, len(dice), per_roll)
    )
    held = _held_names(position, held_skill_names)
    illegal = [s.name for s in candidates if _skill_reasons(ruleset, position, held, s, kind)]
    if illegal:
        return RandomSkillResult(
            Decision.deny("advancement.reroll_required", skills=sorted(set(illegal))), candidates
        )
    names = [s.name for s in candidates]
    if picked is None:
        if len(set(names)) > 1:
            return RandomSkillResult(
                Decision.deny("advancement.pick_required", options=names), candidates
            )
        return RandomSkillResult(Decision.allow(), candidates, candidates[0])
    picked_name = parse_skill_ref(picked).name
    if picked_name not in names:
        return RandomSkillResult(
            Decision.deny("advancement.not_rolled", skill=picked_name, options=names), candidates
        )
    return RandomSkillResult(Decision.allow(), candidates, ruleset.skill(picked_name))


def roll_serves(
    ruleset: Ruleset,
    rolled_for: tuple[str, str | None],
    wanted: tuple[str, str | None],
) -> bool:
    """Whether dice rolled for one (kind, category) are the dice of a request for another.

    A classic Star Player Roll (roll mode) is one 2D6 roll that serves whatever the
    coach takes from it; otherwise dice belong to the kind and skill category they
    were rolled for.
    """
    return ruleset.advancement.mode == "roll" or rolled_for == wanted


def roll_random_skill_dice(
    ruleset: Ruleset,
    position: Position,
    held_skill_names: Iterable[str],
    kind: str,
    category_code: str,
    rng: random.Random,
) -> tuple[int, ...]:
    """Roll the dice for a random skill on the coach's behalf.

    Each roll (2D6, or one die over the list for ``roll_list``) is repeated
    until it gives a skill the player may take (as at the table), so the dice
    returned always resolve with :func:`random_skill_result`.
    """
    held = list(held_skill_names)
    names = random_skill_list(ruleset, category_code)
    if not any(
        s.category == category_code
        for s in legal_skills(ruleset, position, held, kind)
        if s.name in names
    ):
        raise RulesError(f"no skill in category {category_code!r} can be rolled for this player")
    sides = (6, 6) if _dice_in_roll(ruleset) == 2 else (len(names),)
    dice: list[int] = []
    for _ in range(_dice_per_roll(ruleset)):
        while True:
            roll = tuple(rng.randint(1, n) for n in sides)
            skill = random_skill_from_dice(ruleset, category_code, *roll)
            if skill_decision(ruleset, position, held, skill.name, kind).allowed:
                dice.extend(roll)
                break
    return tuple(dice)


# ---------------------------------------------------------------------------
# Value


def value_increase(
    ruleset: Ruleset,
    kind: str,
    skill: Skill | str | None = None,
    characteristic: str | None = None,
) -> int:
    """Gold the advancement adds to the player's value.

    Skill kinds: the table value, plus the elite surcharge (BB2025) when
    ``skill`` is elite. ``random_characteristic`` (or ``"characteristic"``):
    the value of ``characteristic``.
    """
    table = ruleset.value_increase
    if kind in (RANDOM_CHARACTERISTIC_KIND, "characteristic"):
        if characteristic not in ruleset.characteristics:
            raise RulesError(
                f"a characteristic advancement needs one of {', '.join(ruleset.characteristics)}"
                f", got {characteristic!r}"
            )
        value = getattr(table, characteristic)
    elif kind in SKILL_KINDS:
        value = getattr(table, kind)
        if value is None:
            raise RulesError(f"ruleset {ruleset.id!r} offers no {kind} advancement")
        if skill is not None:
            found = ruleset.skill(skill) if isinstance(skill, str) else skill
            if found.elite:
                value += table.elite_surcharge
    else:
        raise RulesError(f"unknown advancement kind {kind!r}")
    if value is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no value for {characteristic!r}")
    return int(value)


# ---------------------------------------------------------------------------
# Everything the advancement page needs


@dataclass(frozen=True, slots=True)
class AdvancementOption:
    kind: str
    #: SPP cost (None in roll mode or when no advancement is left).
    cost: int | None
    #: Base value increase of a skill kind (elite surcharge not included);
    #: None for the characteristic kind (see ``characteristic_value_increases``).
    value_increase: int | None
    affordable: bool
    decision: Decision
    #: Names of the skills legal for this kind (random kinds: the possible results).
    skills: tuple[str, ...] = ()
    #: Category codes the skill may come from.
    categories: tuple[str, ...] = ()
    characteristic_value_increases: Mapping[str, int] = field(default_factory=frozen_mapping)
    #: The value increase when the skill taken is elite, where the edition adds a
    #: surcharge for elite skills (BB2025); None otherwise.
    elite_value_increase: int | None = None


@dataclass(frozen=True, slots=True)
class AdvancementOptions:
    available_spp: int
    advancements_taken: int
    #: 1-based number of the next advancement, None when the player is maxed out.
    next_advancement: int | None
    level: str
    must_spend: bool
    options: tuple[AdvancementOption, ...]
    #: Roll mode: improvement rolls earned but not yet used.
    pending_rolls: int = 0


def advancement_options(
    ruleset: Ruleset,
    position: Position,
    held_skill_names: Iterable[str],
    advancements_taken: int,
    available_spp: int,
) -> AdvancementOptions:
    """Per kind: cost, affordability, value increase and legal skills.

    Spend mode: ``available_spp`` is the unspent balance. Roll mode: it is the
    player's SPP total (classic never spends SPP).
    """
    held = list(held_skill_names)
    adv = ruleset.advancement
    maxed = advancements_taken >= adv.max_advancements
    next_number = None if maxed else advancements_taken + 1
    pending = 0
    if adv.mode == "roll":
        pending = max(0, rolls_earned(ruleset, available_spp) - advancements_taken)
    char_values = frozen_mapping(
        {
            c: value_increase(ruleset, RANDOM_CHARACTERISTIC_KIND, characteristic=c)
            for c in ruleset.characteristics
        }
    )
    options = []
    for kind in advancement_kinds(ruleset):
        cost = None
        if adv.mode == "spend" and next_number is not None:
            cost = advancement_cost(ruleset, kind, next_number)
        decision = advancement_decision(ruleset, kind, advancements_taken, available_spp)
        if kind == RANDOM_CHARACTERISTIC_KIND:
            options.append(
                AdvancementOption(
                    kind=kind,
                    cost=cost,
                    value_increase=None,
                    affordable=decision.allowed,
                    decision=decision,
                    characteristic_value_increases=char_values,
                )
            )
            continue
        categories = accessible_categories(ruleset, position, kind)
        skills = tuple(
            s.name
            for s in legal_skills(ruleset, position, held, kind)
            if s.category in categories
            and (kind not in RANDOM_SKILL_KINDS or s.name in random_skill_list(ruleset, s.category))
        )
        options.append(
            AdvancementOption(
                kind=kind,
                cost=cost,
                value_increase=value_increase(ruleset, kind),
                affordable=decision.allowed,
                decision=decision,
                skills=skills,
                categories=categories,
                elite_value_increase=(
                    value_increase(ruleset, kind) + ruleset.value_increase.elite_surcharge
                    if ruleset.value_increase.elite_surcharge
                    else None
                ),
            )
        )
    return AdvancementOptions(
        available_spp=available_spp,
        advancements_taken=advancements_taken,
        next_advancement=next_number,
        level=level_name(ruleset, min(advancements_taken, adv.max_advancements)),
        must_spend=must_spend(ruleset, available_spp, advancements_taken),
        options=tuple(options),
        pending_rolls=pending,
    )
