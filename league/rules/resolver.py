"""The advancement resolver: one answer to "what does this player get for this request?".

A request (kind, and the skill, category, characteristic and dice it names) is
resolved against a ruleset and a :class:`PlayerState` into one of four answers:

- ``taken``: legal; the skill or characteristic gained, its SPP cost and value;
- ``roll``: legal so far, but the kind takes dice and none were given;
- ``choose``: the dice are known but leave a choice (BB2025's two rolled skills,
  a characteristic roll, a classic Star Player Roll);
- ``refused``: with the reasons (codes of :mod:`league.rules.advancement` plus
  the request's own: ``field_not_taken``, ``no_such_category``,
  ``category_required``, ``skill_required``, ``invalid_dice``, ``not_offered``,
  ``not_a_double``, all ``advancement.*``) and the request field they are about.

:func:`league.rules.refusals.refusal_text` words a refusal for people, and
:func:`choice_text` what a ``choose`` answer leaves to the coach.
Services write what ``taken`` says, pages preview it, import and the seeders
replay through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from league.i18n import N_, gettext
from league.rules.advancement import (
    RANDOM_CHARACTERISTIC_KIND,
    RANDOM_SKILL_KINDS,
    CharacteristicOptions,
    advancement_cost,
    advancement_decision,
    characteristic_options,
    improvement_roll_options,
    needs_dice,
    random_skill_result,
    request_fields,
    skill_decision,
    value_increase,
)
from league.rules.characteristics import current_characteristics
from league.rules.model import (
    Decision,
    Position,
    Reason,
    RulesError,
    Ruleset,
    Skill,
    frozen_mapping,
)

__all__ = [
    "MAX_DICE",
    "MAX_DIE",
    "SKILL_KIND_WORDS",
    "AdvancementRequest",
    "PlayerState",
    "Resolution",
    "alternatives",
    "characteristic_roll",
    "choice_text",
    "request_refusal",
    "resolve",
    "skill_kind_words",
    "star_player_roll_kind",
]

#: The most dice one advancement takes: BB2025's random skill is two rolls of
#: 2D6, kept or not (four dice); every other kind takes one or two.
MAX_DICE = 4
#: The biggest die any advancement rolls: the D16 characteristic table of
#: BB2020 and classic-spend (BB2025's is a D8; classic-spend's longest learnable
#: skill list, General, takes a D14).
MAX_DIE = 16


@dataclass(frozen=True, slots=True)
class AdvancementRequest:
    """What the coach asks for. Random kinds name a category; dice None: not rolled yet."""

    kind: str
    skill: str | None = None
    category: str | None = None
    dice: tuple[int, ...] | None = None
    characteristic: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player as the advancement rules see him; build it with :meth:`of`.

    ``spp`` is the unspent balance in spend mode and every SPP earned in roll
    mode (classic never spends SPP). ``characteristics`` are today's values
    (improvements and lasting injuries applied), worked out once.
    """

    position: Position
    #: Skills gained by advancements (the position's own are in ``held``).
    skills: tuple[str, ...]
    improvements: Mapping[str, int]
    reductions: Mapping[str, int]
    advancements_taken: int
    spp: int
    characteristics: Mapping[str, int | None]

    @classmethod
    def of(
        cls,
        ruleset: Ruleset,
        position: Position,
        *,
        skills: Iterable[str] = (),
        improvements: Mapping[str, int] | None = None,
        reductions: Mapping[str, int] | None = None,
        advancements_taken: int = 0,
        spp: int = 0,
    ) -> PlayerState:
        improved = {c: n for c, n in (improvements or {}).items() if n}
        reduced = {c: n for c, n in (reductions or {}).items() if n}
        return cls(
            position,
            tuple(skills),
            frozen_mapping(improved),
            frozen_mapping(reduced),
            advancements_taken,
            spp,
            frozen_mapping(current_characteristics(ruleset, position.stats, improved, reduced)),
        )

    @property
    def held(self) -> tuple[str, ...]:
        """Every skill he has: the position's plus those gained."""
        return (*self.position.skill_names, *self.skills)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The resolver's answer (see the module docstring for the four statuses)."""

    status: Literal["taken", "roll", "choose", "refused"]
    request: AdvancementRequest
    #: The dice it was resolved with (None: none given).
    dice: tuple[int, ...] | None = None
    # taken
    skill: str | None = None
    characteristic: str | None = None
    #: The kind whose value applies (a skill taken instead of a characteristic
    #: follows its skill kind; a characteristic follows the characteristic kind).
    value_kind: str | None = None
    cost: int = 0
    value: int = 0
    # choose
    #: BB2025: the rolled skills, one to keep.
    candidates: tuple[Skill, ...] = ()
    #: A characteristic roll or Star Player Roll: what the dice allow.
    options: CharacteristicOptions | None = None
    # refused
    decision: Decision = field(default_factory=Decision.allow)
    #: The request field the refusal is about (``kind``, ``skill``, ...).
    field: str | None = None
    #: A chosen skill refused: its name, as asked.
    named: str | None = None

    @property
    def reason(self) -> Reason:
        """The first reason of a refusal."""
        return self.decision.reasons[0]


def _refused(
    request: AdvancementRequest,
    decision: Decision,
    field_name: str | None,
    dice: tuple[int, ...] | None = None,
    named: str | None = None,
) -> Resolution:
    return Resolution("refused", request, dice, decision=decision, field=field_name, named=named)


def _deny(
    request: AdvancementRequest,
    field_name: str | None,
    code: str,
    dice: tuple[int, ...] | None = None,
    **params: object,
) -> Resolution:
    return _refused(request, Decision.deny(code, **params), field_name, dice)


def request_refusal(ruleset: Ruleset, request: AdvancementRequest) -> Resolution | None:
    """What the kind does not take, or a category the ruleset does not know."""
    given = {
        "skill": request.skill,
        "category": request.category,
        "dice": request.dice,
        "characteristic": request.characteristic,
    }
    for name in sorted(set(given) - request_fields(ruleset, request.kind)):
        if given[name] is not None:
            return _deny(
                request, name, "advancement.field_not_taken", kind=request.kind, field=name
            )
    if request.category is not None and not ruleset.has_category(request.category):
        return _deny(
            request,
            "category",
            "advancement.no_such_category",
            category=request.category,
            ruleset=ruleset.name,
        )
    return None


def resolve(ruleset: Ruleset, state: PlayerState, request: AdvancementRequest) -> Resolution:
    """Resolve ``request`` (with ``request.dice``, or none) for a player in ``state``."""
    decision = advancement_decision(ruleset, request.kind, state.advancements_taken, state.spp)
    if not decision.allowed:
        return _refused(request, decision, "kind")
    refused = request_refusal(ruleset, request)
    if refused is not None:
        return refused
    dice = request.dice
    if not needs_dice(ruleset, request.kind):
        return _chosen_skill(ruleset, state, request, request.kind, None)
    if dice is None:
        return Resolution("roll", request)
    if ruleset.advancement.mode == "roll":
        return _star_player_roll(ruleset, state, request, dice)
    if request.kind in RANDOM_SKILL_KINDS:
        return _random_skill(ruleset, state, request, dice)
    options = characteristic_roll(ruleset, state, dice)
    if isinstance(options, Decision):
        return _refused(request, options, "dice", dice)
    return _characteristic_choice(ruleset, state, request, dice, options)


def characteristic_roll(
    ruleset: Ruleset, state: PlayerState, dice: tuple[int, ...]
) -> CharacteristicOptions | Decision:
    """What the dice of a characteristic roll (or a Star Player Roll) allow,
    or the refusal (``invalid_dice``) of dice that cannot be such a roll."""
    try:
        if ruleset.advancement.mode == "roll":
            if len(dice) != 2:
                return Decision.deny(
                    "advancement.invalid_dice",
                    text=gettext("a Star Player Roll is two D6"),
                    count=2,
                )
            return improvement_roll_options(
                ruleset,
                dice[0],
                dice[1],
                state.improvements,
                state.characteristics,
                state.position.stats,
            )
        if len(dice) != 1:
            return Decision.deny(
                "advancement.invalid_dice",
                text=gettext("a characteristic roll is one die"),
                count=1,
            )
        return characteristic_options(
            ruleset, dice[0], state.improvements, state.characteristics, state.position.stats
        )
    except RulesError as error:
        return Decision.deny("advancement.invalid_dice", text=str(error))


def _taken(
    ruleset: Ruleset,
    state: PlayerState,
    request: AdvancementRequest,
    dice: tuple[int, ...] | None,
    value_kind: str,
    skill: Skill | None = None,
    characteristic: str | None = None,
) -> Resolution:
    cost = (
        0
        if ruleset.advancement.mode == "roll"
        else advancement_cost(ruleset, request.kind, state.advancements_taken + 1)
    )
    value = value_increase(ruleset, value_kind, skill=skill, characteristic=characteristic)
    return Resolution(
        "taken",
        request,
        dice,
        skill=skill.name if skill else None,
        characteristic=characteristic,
        value_kind=value_kind,
        cost=cost,
        value=value,
    )


def _chosen_skill(
    ruleset: Ruleset,
    state: PlayerState,
    request: AdvancementRequest,
    kind: str,
    dice: tuple[int, ...] | None,
) -> Resolution:
    name = request.skill
    if not name:
        return _deny(request, "skill", "advancement.skill_required", dice)
    decision = skill_decision(ruleset, state.position, state.held, name, kind)
    if not decision.allowed:
        return _refused(request, decision, "skill", dice, named=name)
    return _taken(ruleset, state, request, dice, kind, skill=ruleset.skill(name))


def _random_skill(
    ruleset: Ruleset, state: PlayerState, request: AdvancementRequest, dice: tuple[int, ...]
) -> Resolution:
    if not request.category:
        return _deny(request, "category", "advancement.category_required", dice)
    try:
        result = random_skill_result(
            ruleset,
            state.position,
            state.held,
            request.kind,
            request.category,
            dice,
            request.skill,
        )
    except RulesError as error:
        return _deny(request, "dice", "advancement.invalid_dice", dice, text=str(error))
    if result.decision.allowed and result.skill is not None:
        return _taken(ruleset, state, request, dice, request.kind, skill=result.skill)
    if result.decision.reason("pick_required") and result.candidates:
        return Resolution("choose", request, dice, candidates=result.candidates)
    return _refused(request, result.decision, "dice", dice)


def _characteristic_choice(
    ruleset: Ruleset,
    state: PlayerState,
    request: AdvancementRequest,
    dice: tuple[int, ...],
    options: CharacteristicOptions,
) -> Resolution:
    """A characteristic the roll allows, or the skill taken instead of one."""
    wanted = request.characteristic
    if wanted:
        if wanted in options.characteristics:
            return _taken(
                ruleset, state, request, dice, RANDOM_CHARACTERISTIC_KIND, characteristic=wanted
            )
        capped = dict(options.refused).get(wanted)
        if capped is not None:
            return _refused(request, capped, "characteristic", dice)
        return _deny(
            request,
            "characteristic",
            "advancement.not_offered",
            dice,
            roll=options.roll,
            characteristic=wanted,
        )
    if request.skill:
        skill = ruleset.find_skill(request.skill)
        if skill is not None:
            for kind in options.skill_kinds:
                if skill_decision(ruleset, state.position, state.held, skill.name, kind):
                    return _taken(ruleset, state, request, dice, kind, skill=skill)
        kind = options.skill_kinds[0] if options.skill_kinds else "chosen_secondary"
        decision = skill_decision(ruleset, state.position, state.held, request.skill, kind)
        return _refused(request, decision, "skill", dice)
    return Resolution("choose", request, dice, options=options)


def _star_player_roll(
    ruleset: Ruleset, state: PlayerState, request: AdvancementRequest, dice: tuple[int, ...]
) -> Resolution:
    """Classic: the coach takes what the 2D6 allow."""
    options = characteristic_roll(ruleset, state, dice)
    if isinstance(options, Decision):
        return _refused(request, options, "dice", dice)
    if request.kind == RANDOM_CHARACTERISTIC_KIND:
        if not request.characteristic:
            return Resolution("choose", request, dice, options=options)
        return _characteristic_choice(ruleset, state, request, dice, options)
    if request.kind not in options.skill_kinds:
        return _deny(
            request, "kind", "advancement.not_a_double", dice, first=dice[0], second=dice[1]
        )
    if not request.skill:
        return Resolution("choose", request, dice, options=options)
    return _chosen_skill(ruleset, state, request, request.kind, dice)


# ---------------------------------------------------------------------------
# Words


def alternatives(items: Iterable[str]) -> str:
    """``items`` as alternatives: "Block or Tackle or Dodge"."""
    words = list(items)
    if not words:
        return ""
    text = words[0]
    for word in words[1:]:
        text = gettext("%(first)s or %(second)s", first=text, second=word)
    return text


def star_player_roll_kind(ruleset: Ruleset, state: PlayerState, choice: str | None) -> str:
    """Classic: the kind a Star Player Roll's pick counts as.

    A characteristic is the characteristic kind; a skill, the first of the roll's
    skill kinds (normal, then doubles) that allows it to him, else the normal
    kind; nothing picked yet, the normal kind.
    """
    roll = ruleset.improvement_roll
    assert roll is not None  # noqa: S101 - roll-mode rulesets have one (loader)
    if choice in ruleset.characteristics:
        return RANDOM_CHARACTERISTIC_KIND
    if choice:
        for kind in (roll.skill_kind, *([roll.doubles_kind] if roll.doubles_kind else [])):
            if skill_decision(ruleset, state.position, state.held, choice, kind):
                return kind
    return roll.skill_kind


#: The kinds of skill a spending ruleset offers instead of a characteristic.
_SKILL_KINDS = {
    "chosen_primary": N_("a primary"),
    "chosen_secondary": N_("a secondary"),
}

#: Each skill kind as words inside a sentence ("may take: a %(choices)s skill"): the
#: one place pages and messages find them, rather than the code with "_" replaced.
SKILL_KIND_WORDS = {
    # Translators: a kind of skill, inside a sentence ("...: chosen primary skill").
    "random_primary": N_("random primary"),
    # Translators: a kind of skill, inside a sentence ("...: chosen primary skill").
    "chosen_primary": N_("chosen primary"),
    # Translators: a kind of skill, inside a sentence ("...: chosen primary skill").
    "random_secondary": N_("random secondary"),
    # Translators: a kind of skill, inside a sentence ("...: chosen primary skill").
    "chosen_secondary": N_("chosen secondary"),
}
#: Only the side of the kind ("a primary or secondary skill").
SKILL_SIDE_WORDS = {
    # Translators: which categories a skill comes from, inside a sentence ("a primary skill").
    "primary": N_("primary"),
    # Translators: which categories a skill comes from, inside a sentence ("a secondary skill").
    "secondary": N_("secondary"),
}


def skill_kind_words(kind: str, *, side_only: bool = False) -> str:
    """``kind`` ("chosen_primary") as the reader's words: "chosen primary", or with
    ``side_only`` just "primary"; an unknown code reads with its "_" as spaces."""
    if side_only and kind.endswith(("_primary", "_secondary")):
        return gettext(SKILL_SIDE_WORDS[kind.rsplit("_", 1)[1]])
    if not side_only and kind in SKILL_KIND_WORDS:
        return gettext(SKILL_KIND_WORDS[kind])
    return kind.replace("_", " ")


def choice_text(ruleset: Ruleset, resolution: Resolution) -> str:
    """What a ``choose`` answer leaves to the coach ("choose ST or AG, or ...")."""
    if resolution.candidates:
        return gettext(
            "pick %(skills)s.", skills=alternatives(s.name for s in resolution.candidates)
        )
    options = resolution.options
    assert options is not None  # noqa: S101 - a choose answer has candidates or options
    if ruleset.advancement.mode != "roll":
        allowed = ", ".join(c.upper() for c in options.characteristics) or gettext(
            "no characteristic"
        )
        instead = alternatives(
            gettext(_SKILL_KINDS[k]) if k in _SKILL_KINDS else k.replace("_", " ")
            for k in options.skill_kinds
        )
        return gettext(
            "choose %(characteristics)s, or take %(kinds)s skill instead.",
            characteristics=allowed,
            kinds=instead,
        )
    parts = [f"+1 {c.upper()}" for c in options.characteristics]
    parts.append(
        gettext("a skill (doubles: any accessible category)")
        if options.doubles
        else gettext("a skill")
    )
    return gettext("choose %(options)s.", options=alternatives(parts))
