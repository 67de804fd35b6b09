"""Advancement pages: the player's panel, choosing, confirming, rolling and undoing.

The flow works without JavaScript: GET /players/<id>/advance?kind=... lists the
legal choices; POSTing a choice shows a confirmation computed without writing
(cost, value, TV before and after); confirming calls the service. Server dice
are rolled by the service and kept on the player until used, so asking again
shows the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league.extensions import db
from league.models import Advancement, DiceRoll, Player, Team
from league.rules import (
    CHARACTERISTIC_KIND,
    AdvancementOption,
    AdvancementOptions,
    CharacteristicOptions,
    Decision,
    Position,
    RandomSkillResult,
    Reason,
    RulesError,
    Ruleset,
    Skill,
    accessible_categories,
    characteristic_options,
    improvement_roll_options,
    random_skill_list,
    random_skill_result,
    rolls_earned,
    skill_choices,
    skill_decision,
    value_increase,
)
from league.services import teams
from league.services.advancement import (
    RANDOM_SKILL_KINDS,
    AdvancementRequest,
    PendingRoll,
    buy_advancement,
    held_skills,
    improvements,
    options_for,
    undo_last_advancement,
)
from league.services.errors import DomainError, Forbidden, NotFound, RuleViolation
from league.services.rosters import current_stats, team_values
from league.services.unit_of_work import unit_of_work
from league.web.forms import EmptyForm
from league.web.forms.advancement import AdvanceForm
from league.web.helpers import attach_error

bp = Blueprint("advancement", __name__)

MINUS = "\u2212"
ARROW = "\u2192"

KIND_LABELS = {
    "random_primary": "Random primary skill",
    "chosen_primary": "Chosen primary skill",
    "random_secondary": "Random secondary skill",
    "chosen_secondary": "Chosen secondary skill",
    CHARACTERISTIC_KIND: "Characteristic improvement",
}
#: Classic (roll mode): what a Star Player Roll may give.
ROLL_KIND_LABELS = {
    "chosen_primary": "Normal skill",
    "chosen_secondary": "Doubles skill",
    CHARACTERISTIC_KIND: "Characteristic increase",
}
#: Service error fields and the form field they belong next to.
ERROR_FIELDS = {"skill": "choice", "characteristic": "choice", "kind": None}


def ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def kind_label(ruleset: Ruleset, kind: str) -> str:
    labels = ROLL_KIND_LABELS if ruleset.advancement.mode == "roll" else KIND_LABELS
    return labels.get(kind, kind.replace("_", " "))


def reason_text(reason: Reason) -> str:
    """A short phrase for one refusal reason (pages list several)."""
    p = reason.params
    texts = {
        "already_held": "already has it",
        "excluded_by": f"cannot be taken together with {p.get('by')}",
        "requires": f"needs {' or '.join(map(str, p.get('skills') or ()))} first",
        "trait": "a trait: traits cannot be learned",
        "not_buyable": "cannot be taken as an advancement",
        "not_primary": "not a primary category for this position",
        "not_secondary": "a primary category: take it as a primary skill",
        "category_not_accessible": "the position has no access to this category",
        "not_enough_spp": f"needs {p.get('needed')} SPP, has {p.get('have')}",
        "no_roll_pending": f"the next Star Player Roll comes at {p.get('needed')} SPP",
        "max_advancements": f"all {p.get('max')} advancements taken",
        "kind_not_available": "not offered by this ruleset",
        "max_improvements": f"already improved {p.get('max')} times",
        "at_maximum": "already at its best",
        "max_increase_from_start": f"already +{p.get('limit')} over the starting value",
        "unknown_skill": "no such skill in this ruleset",
    }
    return texts.get(reason.code, reason.code.replace("_", " "))


def decision_text(decision: Decision) -> str:
    return "; ".join(dict.fromkeys(reason_text(r) for r in decision.reasons))


def gained_text(advancement: Advancement) -> str:
    """What an advancement gave: the skill, or "+1 ST"."""
    return advancement.skill or f"+1 {(advancement.characteristic or '').upper()}"


def dice_text(dice: tuple[int, ...] | list[int]) -> str:
    """ "1 2", or "1 2 / 1 3" for BB2025's two 2D6 rolls of one random skill."""
    values = [str(d) for d in dice]
    if len(values) == 4:
        return f"{' '.join(values[:2])} / {' '.join(values[2:])}"
    return " ".join(values)


# ---------------------------------------------------------------------------
# What a page offers


@dataclass(frozen=True, slots=True)
class SkillOffer:
    skill: Skill
    value: int
    #: The advancement kind it is taken as (classic and characteristic fallbacks).
    kind: str


@dataclass(frozen=True, slots=True)
class SkillGroup:
    code: str
    name: str
    kind: str
    kind_label: str
    offers: tuple[SkillOffer, ...]
    #: (skill name, why not) of this category's skills the player may not take.
    refused: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ClosedCategory:
    """A category the kind cannot draw from at all, with its skills."""

    code: str
    name: str
    reason: str
    skills: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CharacteristicOffer:
    code: str
    value: int


@dataclass(frozen=True, slots=True)
class Rolled:
    """Dice known (rolled by the server or typed in) and the choice they leave."""

    dice: tuple[int, ...]
    source: str
    kind: str
    category: str | None
    heading: str
    characteristics: tuple[CharacteristicOffer, ...] = ()
    #: (characteristic, why not) for results the caps refuse.
    refused: tuple[tuple[str, str], ...] = ()
    skill_groups: tuple[SkillGroup, ...] = ()
    #: BB2025: the two rolled skills, one to keep.
    candidates: tuple[SkillOffer, ...] = ()

    @property
    def dice_text(self) -> str:
        return dice_text(self.dice)


@dataclass(frozen=True, slots=True)
class Context:
    """The player as the rules see him, loaded once per request."""

    player: Player
    team: Team
    ruleset: Ruleset
    position: Position
    options: AdvancementOptions
    held: list[str]

    @property
    def roll_mode(self) -> bool:
        return self.ruleset.advancement.mode == "roll"

    @property
    def number(self) -> int:
        return self.options.advancements_taken + 1

    def option(self, kind: str) -> AdvancementOption | None:
        return next((o for o in self.options.options if o.kind == kind), None)

    def value(
        self, kind: str, skill: Skill | None = None, characteristic: str | None = None
    ) -> int:
        return value_increase(self.ruleset, kind, skill=skill, characteristic=characteristic)

    def category_name(self, code: str | None) -> str:
        if code and self.ruleset.has_category(code):
            return self.ruleset.category(code).name
        return code or ""


def context_for(player: Player, team: Team | None = None) -> Context:
    """The player's context; pass his team when it is loaded already (one query less)."""
    if team is None or team.id != player.team_id:
        team = teams.get_team(db.session, player.team_id)
    ruleset = teams.team_ruleset(team)
    position = teams.team_type_of(team).position(player.position_id)
    return Context(
        player, team, ruleset, position, options_for(player), held_skills(position, player)
    )


def _closed_reason(ctx: Context, access: str | None, kind: str, learnable: bool) -> str:
    if not learnable:
        return "cannot be learned"
    if access == "secondary" and kind.endswith("_primary"):
        return "secondary category: take these as a secondary skill"
    if access == "primary" and kind.endswith("_secondary"):
        return "primary category: take these as a primary skill"
    if access is not None:
        return "no random table for this category"
    return f"not open to a {ctx.position.name}"


def skill_groups(
    ctx: Context, kind: str
) -> tuple[tuple[SkillGroup, ...], tuple[ClosedCategory, ...]]:
    """Legal skills of ``kind`` by category, with the refused ones and closed categories."""
    open_codes = accessible_categories(ctx.ruleset, ctx.position, kind)
    groups: list[SkillGroup] = []
    closed: list[ClosedCategory] = []
    for group in skill_choices(ctx.ruleset, ctx.position, ctx.held, kind):
        code = group.category.code
        if code not in open_codes:
            names = tuple(choice.skill.name for choice in group.choices)
            if names:
                reason = _closed_reason(ctx, group.access, kind, group.category.learnable)
                closed.append(ClosedCategory(code, group.category.name, reason, names))
            continue
        offers = tuple(
            SkillOffer(choice.skill, ctx.value(kind, choice.skill), kind)
            for choice in group.choices
            if choice.decision.allowed
        )
        refused = tuple(
            (choice.skill.name, decision_text(choice.decision))
            for choice in group.choices
            if not choice.decision.allowed
        )
        groups.append(
            SkillGroup(
                code, group.category.name, kind, kind_label(ctx.ruleset, kind), offers, refused
            )
        )
    return tuple(groups), tuple(closed)


@dataclass(frozen=True, slots=True)
class RandomCategory:
    code: str
    name: str
    #: Skills the dice may give him (illegal results are re-rolled).
    results: tuple[Skill, ...]
    #: Classic-spend: the die has one face per skill of the list.
    die: int | None = None


def random_categories(ctx: Context, kind: str) -> tuple[RandomCategory, ...]:
    option = ctx.option(kind)
    if option is None:
        return ()
    legal = set(option.skills)
    result = []
    for code in option.categories:
        table = random_skill_list(ctx.ruleset, code)
        die = len(table) if ctx.ruleset.advancement.random_skill == "roll_list" else None
        skills = tuple(ctx.ruleset.skill(name) for name in dict.fromkeys(table) if name in legal)
        result.append(RandomCategory(code, ctx.category_name(code), skills, die))
    return tuple(result)


def _characteristic_roll(ctx: Context, dice: tuple[int, ...]) -> CharacteristicOptions:
    """What the dice of a characteristic roll (or a classic Star Player Roll) allow."""
    stats = current_stats(ctx.ruleset, ctx.position, ctx.player)
    taken = improvements(ctx.player)
    try:
        if ctx.roll_mode:
            if len(dice) != 2:
                raise RulesError("a Star Player Roll is two D6: enter two dice")
            return improvement_roll_options(
                ctx.ruleset, dice[0], dice[1], taken, stats, ctx.position.stats
            )
        if len(dice) != 1:
            raise RulesError("a characteristic roll is one die: enter one die")
        return characteristic_options(ctx.ruleset, dice[0], taken, stats, ctx.position.stats)
    except RulesError as error:
        raise RuleViolation(_sentence(str(error)), code="invalid_dice", field="dice") from error


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _offers_for_kinds(ctx: Context, kinds: tuple[str, ...]) -> tuple[SkillGroup, ...]:
    groups: list[SkillGroup] = []
    for kind in kinds:
        open_groups, _ = skill_groups(ctx, kind)
        groups.extend(g for g in open_groups if g.offers)
    return tuple(groups)


def rolled_view(
    ctx: Context, kind: str, category: str | None, dice: tuple[int, ...], source: str
) -> Rolled:
    """The choice left by known dice; raises RuleViolation (field dice) for impossible dice."""
    if kind in RANDOM_SKILL_KINDS and not ctx.roll_mode:
        result = _random_result(ctx, kind, category, dice, None)
        offers = tuple(
            SkillOffer(skill, ctx.value(kind, skill), kind)
            for skill in dict.fromkeys(result.candidates)
        )
        names = " or ".join(o.skill.name for o in offers)
        heading = f"The dice ({dice_text(dice)}) give {names}: keep one."
        return Rolled(dice, source, kind, category, heading, candidates=offers)
    options = _characteristic_roll(ctx, dice)
    chars = tuple(
        CharacteristicOffer(c, ctx.value(CHARACTERISTIC_KIND, characteristic=c))
        for c in options.characteristics
    )
    refused = tuple((c.upper(), decision_text(d)) for c, d in options.refused)
    if ctx.roll_mode:
        total = f"{dice[0]} + {dice[1]} = {options.roll}"
        double = " (a double: doubles skills are open too)" if options.doubles else ""
        heading = f"Star Player Roll: {total}{double}."
    else:
        table = ctx.ruleset.characteristic_table
        die = f"D{table.die}" if table else "die"
        allowed = " or ".join(c.upper() for c in options.offered)
        heading = f"The {die} shows {options.roll}: {allowed}, or a skill instead."
    return Rolled(
        dice,
        source,
        kind,
        category,
        heading,
        characteristics=chars,
        refused=refused,
        skill_groups=_offers_for_kinds(ctx, options.skill_kinds),
    )


def _random_result(
    ctx: Context, kind: str, category: str | None, dice: tuple[int, ...], picked: str | None
) -> RandomSkillResult:
    if not category:
        raise RuleViolation("Pick the skill category to roll on.", field="category")
    try:
        result = random_skill_result(
            ctx.ruleset, ctx.position, ctx.held, kind, category, dice, picked
        )
    except RulesError as error:
        raise RuleViolation(_sentence(str(error)), code="invalid_dice", field="dice") from error
    decision = result.decision
    if decision.reason("reroll_required"):
        skills = " and ".join(decision.reasons[0].params.get("skills", ()))
        raise RuleViolation(
            f"The dice give {skills}, which {ctx.player.name} cannot take: roll again.",
            code="skill_not_allowed",
            field="dice",
        )
    if (
        not decision.allowed
        and not decision.reason("pick_required")
        and not decision.reason("not_rolled")
    ):
        field_name = "category" if decision.codes[0] != "kind_not_available" else None
        raise RuleViolation(
            f"{ctx.player.name} cannot roll on that category: {decision_text(decision)}.",
            code="skill_not_allowed",
            field=field_name,
        )
    return result


# ---------------------------------------------------------------------------
# The confirmation, computed without writing


@dataclass(frozen=True, slots=True)
class Preview:
    request: AdvancementRequest
    source: str
    #: The whole sentence: "Grim takes Tackle as his 2nd advancement: -8 SPP, value ...".
    text: str
    button: str


def _dice_for(ctx: Context, form: AdvanceForm) -> tuple[tuple[int, ...] | None, str]:
    """(dice, source): the server's kept dice, the table's typed ones, or none yet."""
    pending = ctx.player.pending_roll
    if pending:
        return tuple(pending["dice"]), "server"
    if form.table_dice:
        if not ctx.team.league.table_dice_allowed:
            raise RuleViolation(
                f"{ctx.team.league.name} uses server dice only: let the server roll.",
                code="invalid_dice",
                field="dice",
            )
        dice = form.dice_values()
        if dice is None:
            raise RuleViolation("Enter the dice rolled at the table.", field="dice")
        return dice, "table"
    return None, "server"


def _needs_dice(ctx: Context, kind: str) -> bool:
    return ctx.roll_mode or kind in RANDOM_SKILL_KINDS or kind == CHARACTERISTIC_KIND


def _classic_kind(ctx: Context, skill: str) -> str:
    roll = ctx.ruleset.improvement_roll
    assert roll is not None  # noqa: S101 - roll-mode rulesets have one (loader)
    kinds = [roll.skill_kind, *([roll.doubles_kind] if roll.doubles_kind else [])]
    for kind in kinds:
        if skill_decision(ctx.ruleset, ctx.position, ctx.held, skill, kind):
            return kind
    return roll.skill_kind


def request_kind(ctx: Context, form: AdvanceForm) -> str:
    """The kind asked for: the form's, the pending roll's, or (classic) what the choice is."""
    pending = ctx.player.pending_roll
    choice = (form.choice.data or "").strip()
    if ctx.roll_mode:
        if choice in ctx.ruleset.characteristics:
            return CHARACTERISTIC_KIND
        if choice:
            return _classic_kind(ctx, choice)
        roll = ctx.ruleset.improvement_roll
        return roll.skill_kind if roll else "chosen_primary"
    if pending:
        return str(pending["kind"])
    return (form.kind.data or "").strip()


def build_request(ctx: Context, form: AdvanceForm) -> tuple[AdvancementRequest, str]:
    """The service request for the posted form, and who rolls."""
    kind = request_kind(ctx, form)
    choice = (form.choice.data or "").strip() or None
    pending = ctx.player.pending_roll
    category = (
        pending.get("category") if pending and not ctx.roll_mode else form.category.data or None
    )
    dice, source = (None, "server")
    if _needs_dice(ctx, kind):
        dice, source = _dice_for(ctx, form)
        if source == "server":
            dice = None  # the service rolls them, or uses the ones it kept
    characteristic = choice if choice in ctx.ruleset.characteristics else None
    skill = None if characteristic else choice
    if kind in RANDOM_SKILL_KINDS:
        return AdvancementRequest(kind, skill=skill, category=category, dice=dice), source
    if kind == CHARACTERISTIC_KIND or ctx.roll_mode:
        return AdvancementRequest(
            kind, skill=skill, dice=dice, characteristic=characteristic
        ), source
    return AdvancementRequest(kind, skill=skill), source


def _check_kind(ctx: Context, kind: str) -> AdvancementOption:
    option = ctx.option(kind)
    if option is None:
        raise RuleViolation(
            f"{ctx.ruleset.name} offers no {kind.replace('_', ' ')} advancement.", field="kind"
        )
    if not option.affordable:
        raise RuleViolation(
            f"{ctx.player.name} cannot take this advancement now: "
            f"{decision_text(option.decision)}.",
            field="kind",
        )
    return option


def _costs(ctx: Context, option: AdvancementOption, value: int | None) -> str:
    tv = team_values(ctx.team).team_value
    parts = [] if option.cost is None else [f"{MINUS}{option.cost} SPP"]
    if value is not None:
        parts += [f"value +{value:,}", f"TV {tv:,} {ARROW} {tv + value:,}"]
    return ", ".join(parts)


def _skill_or_error(ctx: Context, name: str, kind: str) -> Skill:
    decision = skill_decision(ctx.ruleset, ctx.position, ctx.held, name, kind)
    if not decision.allowed:
        raise RuleViolation(f"{name}: {decision_text(decision)}.", field="choice")
    return ctx.ruleset.skill(name)


def preview(ctx: Context, form: AdvanceForm) -> Preview | Rolled:
    """What confirming would do, or the choice the dice still leave (raises RuleViolation)."""
    wanted, source = build_request(ctx, form)
    kind = wanted.kind
    option = _check_kind(ctx, kind)
    who, nth = ctx.player.name, ordinal(ctx.number)
    choice = wanted.skill or wanted.characteristic
    dice = tuple(ctx.player.pending_roll["dice"]) if ctx.player.pending_roll else wanted.dice

    if not _needs_dice(ctx, kind):  # a chosen skill
        if not choice:
            raise RuleViolation("Pick the skill to take.", field="choice")
        skill = _skill_or_error(ctx, choice, kind)
        value = ctx.value(kind, skill)
        text = f"{who} takes {skill.name} as his {nth} advancement: {_costs(ctx, option, value)}"
        return Preview(wanted, source, text, f"Take {skill.name}")

    if dice is None:  # the server is about to roll
        return _roll_preview(ctx, wanted, option)

    if kind in RANDOM_SKILL_KINDS and not ctx.roll_mode:
        result = _random_result(ctx, kind, wanted.category, dice, choice)
        if result.skill is None:
            if choice:  # not one of the rolled skills
                names = " or ".join(s.name for s in result.candidates)
                raise RuleViolation(f"Keep one of the rolled skills: {names}.", field="choice")
            return rolled_view(ctx, kind, wanted.category, dice, source)
        skill = result.skill
        value = ctx.value(kind, skill)
        text = (
            f"{who} takes {skill.name} (random {ctx.category_name(wanted.category)} skill, "
            f"dice {dice_text(dice)}) as his {nth} advancement: {_costs(ctx, option, value)}"
        )
        return Preview(wanted, source, text, f"Take {skill.name}")

    roll = _characteristic_roll(ctx, dice)
    if not choice:
        return rolled_view(ctx, kind, None, dice, source)
    what = (
        f"with his {nth} Star Player Roll ({dice[0]} + {dice[1]})"
        if ctx.roll_mode
        else f"as his {nth} advancement"
    )
    rolled = f"roll {roll.roll}"
    if wanted.characteristic:
        code = wanted.characteristic
        refused = dict(roll.refused).get(code)
        if refused is not None:
            raise RuleViolation(f"{code.upper()}: {decision_text(refused)}.", field="choice")
        if code not in roll.characteristics:
            raise RuleViolation(
                f"A roll of {roll.roll} does not allow {code.upper()}.", field="choice"
            )
        value = ctx.value(CHARACTERISTIC_KIND, characteristic=code)
        head = (
            f"{who} gains +1 {code.upper()} {what}"
            if ctx.roll_mode
            else f"{who} improves {code.upper()} ({rolled}) {what}"
        )
        return Preview(
            wanted, source, f"{head}: {_costs(ctx, option, value)}", f"Take +1 {code.upper()}"
        )
    skill_kind = next(
        (
            k
            for k in roll.skill_kinds
            if skill_decision(ctx.ruleset, ctx.position, ctx.held, choice, k)
        ),
        None,
    )
    if skill_kind is None:
        if ctx.roll_mode and kind not in roll.skill_kinds:
            raise RuleViolation(
                f"A roll of {dice[0]} + {dice[1]} is not a double: no doubles skill.",
                field="choice",
            )
        _skill_or_error(ctx, choice, roll.skill_kinds[0] if roll.skill_kinds else kind)
        raise RuleViolation(f"{choice} is not among the choices.", field="choice")
    skill = ctx.ruleset.skill(choice)
    value = ctx.value(skill_kind, skill)
    head = (
        f"{who} takes {skill.name} {what}"
        if ctx.roll_mode
        else f"{who} takes {skill.name} instead of a characteristic ({rolled}) {what}"
    )
    return Preview(wanted, source, f"{head}: {_costs(ctx, option, value)}", f"Take {skill.name}")


def _roll_preview(ctx: Context, wanted: AdvancementRequest, option: AdvancementOption) -> Preview:
    who, nth = ctx.player.name, ordinal(ctx.number)
    kind = wanted.kind
    if ctx.roll_mode:
        text = (
            f"{who} makes his {nth} Star Player Roll (2D6). The dice are kept: "
            "then you pick what they allow"
        )
        return Preview(wanted, "server", text, "Roll 2D6")
    if kind == CHARACTERISTIC_KIND:
        table = ctx.ruleset.characteristic_table
        die = f"D{table.die}" if table else "die"
        text = (
            f"{who} rolls a {die} on the characteristic table for his {nth} advancement. "
            f"The dice are kept: then you pick what they allow ({MINUS}{option.cost} SPP)"
        )
        return Preview(wanted, "server", text, f"Roll the {die}")
    category = wanted.category
    if not category:
        raise RuleViolation("Pick the skill category to roll on.", field="category")
    if category not in option.categories:
        raise RuleViolation(
            f"{ctx.category_name(category)} is not a category {who} can roll on for this kind.",
            field="category",
        )
    name = ctx.category_name(category)
    value = ctx.value(kind)
    twice = ctx.ruleset.advancement.random_skill == "roll_twice_pick_one"
    what = (
        f"rolls twice for a random {name} skill and keeps one"
        if twice
        else f"rolls for a random {name} skill"
    )
    text = f"{who} {what} as his {nth} advancement: {_costs(ctx, option, value)}"
    surcharge = ctx.ruleset.value_increase.elite_surcharge
    results = next((c.results for c in random_categories(ctx, kind) if c.code == category), ())
    if surcharge and any(s.elite for s in results):
        text += f" (+{surcharge:,} more for an elite skill)"
    return Preview(wanted, "server", text, "Roll the dice")


# ---------------------------------------------------------------------------
# The panel on the player page


@dataclass(frozen=True, slots=True)
class KindRow:
    kind: str
    label: str
    cost: int | None
    affordable: bool
    refusal: str
    value: str


@dataclass(frozen=True, slots=True)
class HistoryRow:
    advancement: Advancement
    label: str
    gained: str
    dice: str


@dataclass(frozen=True, slots=True)
class DiceLogRow:
    """One roll the server made: the dice, what for, and every use of them."""

    roll: DiceRoll
    rolled_for: str
    dice: str
    uses: tuple[str, ...]
    state: str


@dataclass(frozen=True, slots=True)
class Panel:
    ctx: Context
    spp: int
    level: str
    next_level: str | None
    next_level_note: str
    kinds: tuple[KindRow, ...]
    history: tuple[HistoryRow, ...]
    can_advance: bool
    can_undo: bool
    pending: str | None
    spr_due: bool = False
    dice_log: tuple[DiceLogRow, ...] = ()


def _value_text(ctx: Context, option: AdvancementOption) -> str:
    if option.value_increase is None:
        return " · ".join(
            f"{c.upper()} +{v:,}" for c, v in option.characteristic_value_increases.items()
        )
    surcharge = ctx.ruleset.value_increase.elite_surcharge
    text = f"+{option.value_increase:,}"
    if surcharge and option.kind != CHARACTERISTIC_KIND:
        text += f" (elite skills +{option.value_increase + surcharge:,})"
    return text


def _history(ctx: Context) -> tuple[HistoryRow, ...]:
    rows = []
    for adv in ctx.player.advancements:
        gained = gained_text(adv)
        dice = f"{dice_text(adv.dice)} ({adv.dice_source})" if adv.dice else ""
        rows.append(HistoryRow(adv, kind_label(ctx.ruleset, adv.kind), gained, dice))
    return tuple(rows)


def _dice_log(ctx: Context) -> tuple[DiceLogRow, ...]:
    rows = []
    for roll in ctx.player.dice_rolls:
        category = f" ({ctx.category_name(roll.category)})" if roll.category else ""
        uses = tuple(
            f"#{a.number} {gained_text(a)}" + (" (undone)" if a.undone_at else "")
            for a in roll.uses
        )
        if roll.void_reason:
            state = roll.void_reason
        elif roll.waiting:
            state = "waiting for the next " + (
                "Star Player Roll" if ctx.roll_mode else "advancement of this kind"
            )
        else:
            state = "used"
        rows.append(
            DiceLogRow(
                roll,
                kind_label(ctx.ruleset, roll.kind) + category,
                dice_text(roll.dice),
                uses,
                state,
            )
        )
    return tuple(rows)


def panel_for(player: Player, team: Team | None = None) -> Panel:
    """Everything the player page's advancement panel shows."""
    ctx = context_for(player, team)
    options = ctx.options
    levels = ctx.ruleset.advancement.levels
    taken = options.advancements_taken
    spp = options.available_spp
    if ctx.roll_mode:
        thresholds = ctx.ruleset.advancement.thresholds
        earned = rolls_earned(ctx.ruleset, spp)
        level = levels[earned]
        next_level = levels[earned + 1] if earned < len(thresholds) else None
        note = f"at {thresholds[earned]} SPP" if next_level else ""
    else:
        level = levels[min(taken, len(levels) - 1)]
        next_level = levels[taken + 1] if options.next_advancement else None
        note = "with the next advancement" if next_level else ""
    kinds = tuple(
        KindRow(
            o.kind,
            kind_label(ctx.ruleset, o.kind),
            o.cost,
            o.affordable,
            "" if o.affordable else decision_text(o.decision),
            _value_text(ctx, o),
        )
        for o in options.options
    )
    manage = teams.can_manage(ctx.team, current_user) and player.on_roster
    pending = None
    if player.pending_roll:
        pending = (
            f"Dice waiting ({dice_text(player.pending_roll['dice'])}): finish this advancement."
        )
    return Panel(
        ctx=ctx,
        spp=spp,
        level=level,
        next_level=next_level,
        next_level_note=note,
        kinds=kinds,
        history=_history(ctx),
        can_advance=manage and ctx.team.status != "draft",
        can_undo=manage and bool(player.active_advancements),
        pending=pending,
        spr_due=ctx.roll_mode and options.pending_rolls > 0,
        dice_log=_dice_log(ctx),
    )


# ---------------------------------------------------------------------------
# Views


def _player_or_404(player_id: int) -> Player:
    try:
        return teams.get_player(db.session, player_id)
    except NotFound as error:
        abort(404, description=error.message)


def _managed(player_id: int) -> Player:
    player = _player_or_404(player_id)
    team = teams.get_team(db.session, player.team_id)
    if not teams.can_manage(team, current_user):
        abort(
            403, description=f"Only {team.name}'s coach or a commissioner can advance its players."
        )
    return player


def _player_page(player: Player) -> Response:
    return redirect(url_for("teams.player", player_id=player.id, _anchor="advancement"))


def _page_kind(ctx: Context, kind: str | None) -> str | None:
    if ctx.player.pending_roll and not ctx.roll_mode:
        return str(ctx.player.pending_roll["kind"])
    if ctx.roll_mode:
        return None
    return kind


def _pending_rolled(ctx: Context) -> Rolled | None:
    pending = ctx.player.pending_roll
    if not pending:
        return None
    kind = str(pending.get("kind"))
    try:
        return rolled_view(ctx, kind, pending.get("category"), tuple(pending["dice"]), "server")
    except RuleViolation:
        return None


def dice_help(ctx: Context, kind: str | None) -> str:
    """How to type in the dice of this kind."""
    if ctx.roll_mode:
        return "2D6, e.g. 3 4."
    if kind == CHARACTERISTIC_KIND:
        table = ctx.ruleset.characteristic_table
        return f"One D{table.die if table else 6}, e.g. 7."
    procedure = ctx.ruleset.advancement.random_skill
    if procedure == "roll_twice_pick_one":
        return "Two rolls of 2D6 (four dice), e.g. 1 2 4 5; then keep one of the two skills."
    if procedure == "roll_list":
        return "One die numbered 1 to the size of the category's list (shown above), e.g. 3."
    return (
        "2D6, e.g. 2 5: the first die picks the half of the table (1-3: rows 1-6, "
        "4-6: rows 7-12), the second the row."
    )


def _render_choose(
    player: Player, form: AdvanceForm, status: int = 200, rolled: Rolled | None = None
) -> tuple[str, int]:
    ctx = context_for(player)
    kind = _page_kind(ctx, form.kind.data)
    rolled = rolled or _pending_rolled(ctx)
    groups: tuple[SkillGroup, ...] = ()
    closed: tuple[ClosedCategory, ...] = ()
    categories: tuple[RandomCategory, ...] = ()
    if kind and not _needs_dice(ctx, kind):
        groups, closed = skill_groups(ctx, kind)
    elif kind in RANDOM_SKILL_KINDS:
        categories = random_categories(ctx, kind)
    roll = ctx.ruleset.improvement_roll
    option_kind = roll.skill_kind if ctx.roll_mode and roll else kind
    return render_template(
        "advancement/choose.html",
        ctx=ctx,
        kind=kind,
        option=ctx.option(option_kind) if option_kind else None,
        form=form,
        rolled=rolled,
        groups=groups,
        closed=closed,
        categories=categories,
        label=kind_label(ctx.ruleset, kind) if kind else "Star Player Roll",
        nth=ordinal(ctx.number),
        table_dice=ctx.team.league.table_dice_allowed,
        needs_dice=ctx.roll_mode or (bool(kind) and _needs_dice(ctx, kind or "")),
        dice_help=dice_help(ctx, kind),
        kind_label=kind_label,
        decision_text=decision_text,
    ), status


def _known_kind(ctx: Context, kind: str | None) -> None:
    if ctx.roll_mode or ctx.player.pending_roll:
        return
    if kind not in KIND_LABELS or ctx.option(kind) is None:
        abort(404, description=f"{ctx.ruleset.name} offers no such advancement.")


@bp.get("/players/<int:player_id>/advance")
@login_required
def choose(player_id: int) -> Response | tuple[str, int]:
    player = _managed(player_id)
    if not player.on_roster:
        flash(f"{player.name} is {player.status} and cannot advance.", "error")
        return _player_page(player)
    form = AdvanceForm(formdata=None)
    kind = request.args.get("kind")
    ctx = context_for(player)
    if not kind and not ctx.roll_mode and not player.pending_roll:
        return _player_page(player)
    _known_kind(ctx, kind)
    form.kind.data = _page_kind(ctx, kind) or ""
    return _render_choose(player, form)


def _show_error(form: AdvanceForm, error: DomainError) -> None:
    field_name = ERROR_FIELDS.get(error.field or "", error.field)
    if field_name is None:
        form.form_errors.append(error.message)
    else:
        attach_error(form, error, field_name)


@bp.post("/players/<int:player_id>/advance")
@login_required
def choice(player_id: int) -> Response | tuple[str, int]:
    """The coach's choice: the next sub-choice, errors next to the fields, or the confirmation."""
    player = _managed(player_id)
    if not player.on_roster:
        flash(f"{player.name} is {player.status} and cannot advance.", "error")
        return _player_page(player)
    form = AdvanceForm()
    if not form.validate_on_submit():
        return _render_choose(player, form, 400)
    ctx = context_for(player)
    try:
        result = preview(ctx, form)
    except RuleViolation as error:
        _show_error(form, error)
        rolled = _rolled_for_errors(ctx, form, error)
        return _render_choose(player, form, 400, rolled)
    if isinstance(result, Rolled):
        return _render_choose(player, form, 200, result)
    return render_template(
        "advancement/confirm.html",
        ctx=ctx,
        preview=result,
        form=form,
    ), 200


def _rolled_for_errors(ctx: Context, form: AdvanceForm, error: RuleViolation) -> Rolled | None:
    """Keep showing the rolled choice when the error is about the choice, not the dice."""
    if error.field != "choice" or ctx.player.pending_roll:
        return None
    try:
        wanted, source = build_request(ctx, form)
        if wanted.dice is None:
            return None
        return rolled_view(ctx, wanted.kind, wanted.category, wanted.dice, source)
    except RuleViolation:
        return None


@bp.post("/players/<int:player_id>/advance/confirm")
@login_required
def confirm(player_id: int) -> Response | tuple[str, int]:
    player = _managed(player_id)
    form = AdvanceForm()
    if not form.validate_on_submit():
        return _render_choose(player, form, 400)
    ctx = context_for(player)
    name = player.name
    try:
        wanted, _ = build_request(ctx, form)
        with unit_of_work() as session:
            # The confirmation names the advancement it is for: a second click finds it taken.
            locked = teams.get_player(session, player_id, for_update=True)
            if form.number.data and len(locked.active_advancements) + 1 != form.number.data:
                flash(
                    f"{name}'s {ordinal(form.number.data)} advancement is already recorded "
                    "(the form was sent twice).",
                    "info",
                )
                return _player_page(player)
            result = buy_advancement(session, current_user, player_id, wanted)
            message = _done_message(ctx, name, result)
    except DomainError as error:
        if isinstance(error, Forbidden):
            abort(403, description=error.message)
        db.session.expire_all()
        player = _player_or_404(player_id)
        _show_error(form, error)
        if not player.on_roster:
            flash(error.message, "error")
            return _player_page(player)
        return _render_choose(
            player, form, 400, _rolled_for_errors(context_for(player), form, error)
        )
    if isinstance(result, PendingRoll):
        flash(message, "info")
        return redirect(url_for("advancement.choose", player_id=player_id))
    flash(message, "success")
    return _player_page(player)


def _done_message(ctx: Context, name: str, result: Advancement | PendingRoll) -> str:
    if isinstance(result, PendingRoll):
        return (
            f"The server rolled {dice_text(result.dice)} for {name}. Now pick what the dice allow."
        )
    gained = gained_text(result)
    dice = f" (dice {dice_text(result.dice)})" if result.dice else ""
    spp = f"{MINUS}{result.spp_cost} SPP, " if not ctx.roll_mode else ""
    return (
        f"{name} took {gained}{dice} as his {ordinal(result.number)} advancement: "
        f"{spp}value +{result.value_increase:,}."
    )


@bp.route("/players/<int:player_id>/advance/undo", methods=["GET", "POST"])
@login_required
def undo(player_id: int) -> Response | str:
    player = _managed(player_id)
    active = player.active_advancements
    if not active:
        flash(f"{player.name} has no advancement to undo.", "error")
        return _player_page(player)
    last = active[-1]
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                undone = undo_last_advancement(session, current_user, player_id)
                gained = gained_text(undone)
                message = (
                    f"Undid {gained}: {undone.spp_cost} SPP back, "
                    f"value {MINUS}{undone.value_increase:,}."
                )
                if undone.dice_roll is not None:
                    message += (
                        f" The server's dice ({dice_text(undone.dice_roll.dice)}) are kept: "
                        "the next advancement of that kind uses them."
                    )
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash(message, "success")
        return _player_page(_player_or_404(player_id))
    ctx = context_for(player)
    tv = team_values(ctx.team).team_value
    gained = gained_text(last)
    spp = f"{last.spp_cost} SPP come back, " if last.spp_cost else ""
    explanation = (
        f"{player.name} gives up {gained} (his {ordinal(last.number)} advancement): {spp}"
        f"value {MINUS}{last.value_increase:,}, TV {tv:,} {ARROW} {tv - last.value_increase:,}."
    )
    if last.dice_roll is not None:
        next_use = (
            "Star Player Roll" if ctx.roll_mode else kind_label(ctx.ruleset, last.kind).lower()
        )
        explanation += (
            f" The server's dice ({dice_text(last.dice_roll.dice)}) are not rolled again: "
            f"they wait for his next {next_use}."
        )
    return render_template("advancement/undo.html", ctx=ctx, explanation=explanation, form=form)
