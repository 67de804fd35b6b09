"""View models of the advancement pages, built from what the rules resolve.

The skill groups and rolled choices of the choice page, and the preview a
confirmation shows (worked out without writing); the panel on the player page is
`panel`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from league.extensions import db
from league.i18n import current_language, format_list, format_number, gettext
from league.models import Player, Team
from league.rules import (
    RANDOM_CHARACTERISTIC_KIND,
    RANDOM_SKILL_KINDS,
    AdvancementOption,
    AdvancementOptions,
    AdvancementRequest,
    CharacteristicOptions,
    Decision,
    PlayerState,
    Position,
    Resolution,
    Ruleset,
    RulesText,
    Skill,
    accessible_categories,
    characteristic_roll,
    needs_dice,
    random_skill_list,
    refusal_text,
    request_fields,
    resolve,
    skill_choices,
    star_player_roll_kind,
    stat_label,
    value_increase,
)
from league.services import access
from league.services.advancement import options_for, player_state
from league.services.errors import RuleViolation
from league.services.rosters import team_values
from league.services.text import ordinal
from league.web.advancement.text import decision_text, dice_text, kind_label
from league.web.forms.advancement import AdvanceForm

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
    #: The player as the resolver reads him (held skills, today's characteristics).
    state: PlayerState

    @property
    def held(self) -> list[str]:
        return list(self.state.held)

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

    @property
    def text(self) -> RulesText:
        """The ruleset's names in the reader's language (the ruleset's i18n files)."""
        return self.ruleset.text(current_language())

    @property
    def position_name(self) -> str:
        return self.text.position_name(self.position.name)

    def category_name(self, code: str | None) -> str:
        """The category's name in the reader's language."""
        if code and self.ruleset.has_category(code):
            return self.text.category_name(code)
        return code or ""


def context_for(player: Player, team: Team | None = None) -> Context:
    """The player's context; pass his team when it is loaded already (one query less)."""
    if team is None or team.id != player.team_id:
        team = access.get_team(db.session(), player.team_id)
    ruleset = access.team_ruleset(team)
    position = access.team_type_of(team).position(player.position_id)
    return Context(
        player,
        team,
        ruleset,
        position,
        options_for(player),
        player_state(ruleset, position, player),
    )


def _closed_reason(ctx: Context, access: str | None, kind: str, learnable: bool) -> str:
    if not learnable:
        return gettext("cannot be learned")
    if access == "secondary" and kind.endswith("_primary"):
        return gettext("secondary category: take these as a secondary skill")
    if access == "primary" and kind.endswith("_secondary"):
        return gettext("primary category: take these as a primary skill")
    if access is not None:
        return gettext("no random table for this category")
    return gettext("not open to this position (%(position)s)", position=ctx.position_name)


def _either(names: list[str] | tuple[str, ...]) -> str:
    """ "A, B, or C", as the reader's language lists alternatives."""
    return format_list(names, style="or")


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
                closed.append(ClosedCategory(code, ctx.category_name(code), reason, names))
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
                code,
                ctx.category_name(code),
                kind,
                kind_label(ctx.ruleset, kind),
                offers,
                refused,
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
    options = characteristic_roll(ctx.ruleset, ctx.state, dice)
    if isinstance(options, Decision):
        raise _violation(ctx, options, field="dice", code="invalid_dice")
    return options


#: Refusals the form shows beside a field of their own.
_CODE_FIELDS = {
    "invalid_dice": "dice",
    "skill_required": "choice",
    "category_required": "category",
    "reroll_required": "dice",
    "not_rolled": "choice",
    "not_offered": "choice",
    "not_a_double": "choice",
    "no_such_category": "category",
}


def _violation(
    ctx: Context,
    refused: Resolution | Decision,
    *,
    field: str | None = None,
    code: str | None = None,
) -> RuleViolation:
    """A refusal as the rules word it for the form, next to ``field``."""
    return RuleViolation(
        refusal_text(refused, ctx.player.name, on_form=True), code=code, field=field
    )


#: The error codes of refusals about the dice or the category rolled on.
_DICE_CODES = {
    "invalid_dice": "invalid_dice",
    "reroll_required": "skill_not_allowed",
    "no_such_category": "skill_not_allowed",
}


def refusal(ctx: Context, refused: Resolution) -> RuleViolation:
    """A refusal of the resolver as the page shows it, next to the field it is about."""
    code = refused.reason.code
    if code in _CODE_FIELDS:
        return _violation(ctx, refused, field=_CODE_FIELDS[code], code=_DICE_CODES.get(code))
    if refused.field == "dice":  # the dice give him nothing he may take from that category
        field = None if code == "kind_not_available" else "category"
        return _violation(ctx, refused, field=field, code="skill_not_allowed")
    in_choice = refused.field in ("skill", "characteristic")
    return _violation(ctx, refused, field="choice" if in_choice else "kind")


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
        asked = AdvancementRequest(kind, category=category, dice=dice)
        resolution = resolve(ctx.ruleset, ctx.state, asked)
        if resolution.status == "refused":
            raise refusal(ctx, resolution)
        offers = tuple(
            SkillOffer(skill, ctx.value(kind, skill), kind)
            for skill in dict.fromkeys(resolution.candidates)
        )
        heading = gettext(
            "The dice (%(dice)s) give %(skills)s: keep one.",
            dice=dice_text(dice),
            skills=_either([o.skill.name for o in offers]),
        )
        return Rolled(dice, source, kind, category, heading, candidates=offers)
    options = _characteristic_roll(ctx, dice)
    chars = tuple(
        CharacteristicOffer(c, ctx.value(RANDOM_CHARACTERISTIC_KIND, characteristic=c))
        for c in options.characteristics
    )
    refused = tuple((stat_label(c), decision_text(d)) for c, d in options.refused)
    if ctx.roll_mode:
        total = {"first": dice[0], "second": dice[1], "total": options.roll}
        heading = (
            gettext(
                "Star Player Roll: %(first)s + %(second)s = %(total)s "
                "(a double: doubles skills are open too).",
                **total,
            )
            if options.doubles
            else gettext("Star Player Roll: %(first)s + %(second)s = %(total)s.", **total)
        )
    else:
        table = ctx.ruleset.characteristic_table
        allowed = _either([stat_label(c) for c in options.offered])
        heading = (
            gettext(
                "The D%(sides)s shows %(roll)s: %(allowed)s, or a skill instead.",
                sides=table.die,
                roll=options.roll,
                allowed=allowed,
            )
            if table
            else gettext(
                "The die shows %(roll)s: %(allowed)s, or a skill instead.",
                roll=options.roll,
                allowed=allowed,
            )
        )
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
                gettext(
                    "%(league)s uses server dice only: let the server roll.",
                    league=ctx.team.league.name,
                ),
                code="invalid_dice",
                field="dice",
            )
        dice = form.dice_values()
        if dice is None:
            raise RuleViolation(gettext("Enter the dice rolled at the table."), field="dice")
        return dice, "table"
    return None, "server"


def request_kind(ctx: Context, form: AdvanceForm) -> str:
    """The kind asked for: the form's, the pending roll's, or (classic) what the choice is."""
    if ctx.roll_mode:
        return star_player_roll_kind(ctx.ruleset, ctx.state, (form.choice.data or "").strip())
    pending = ctx.player.pending_roll
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
    if needs_dice(ctx.ruleset, kind):
        dice, source = _dice_for(ctx, form)
        if source == "server":
            dice = None  # the service rolls them, or uses the ones it kept
    characteristic = choice if choice in ctx.ruleset.characteristics else None
    takes = request_fields(ctx.ruleset, kind)  # what the kind may name; the rest is left out
    return AdvancementRequest(
        kind,
        skill=None if characteristic else choice,
        category=category if "category" in takes else None,
        dice=dice if "dice" in takes else None,
        characteristic=characteristic if "characteristic" in takes else None,
    ), source


def _check_kind(ctx: Context, kind: str) -> AdvancementOption:
    option = ctx.option(kind)
    if option is None:
        raise RuleViolation(
            gettext(
                "%(ruleset)s offers no %(kind)s advancement.",
                ruleset=ctx.ruleset.name,
                kind=kind.replace("_", " "),
            ),
            field="kind",
        )
    if not option.affordable:
        raise _violation(ctx, option.decision, field="kind")
    return option


def _costs(ctx: Context, option: AdvancementOption, value: int | None) -> str:
    tv = team_values(ctx.team).team_value
    parts = [] if option.cost is None else [gettext("\u2212%(spp)s SPP", spp=option.cost)]
    if value is not None:
        parts += [
            gettext("value +%(value)s", value=format_number(value)),
            gettext(
                "TV %(tv)s \u2192 %(after)s",
                tv=format_number(tv),
                after=format_number(tv + value),
            ),
        ]
    return gettext(", ").join(parts)


def preview(ctx: Context, form: AdvanceForm) -> Preview | Rolled:
    """What confirming would do, or the choice the dice still leave (raises RuleViolation).

    The rules' resolver decides; this only words its answer.
    """
    wanted, source = build_request(ctx, form)
    option = _check_kind(ctx, wanted.kind)
    pending = ctx.player.pending_roll
    dice = tuple(pending["dice"]) if pending else wanted.dice
    resolution = resolve(ctx.ruleset, ctx.state, replace(wanted, dice=dice))
    unknown_category = (
        resolution.status == "refused" and resolution.reason.code == "no_such_category"
    )
    if resolution.status == "roll" or (dice is None and unknown_category):
        return _roll_preview(ctx, wanted, option)  # the server is about to roll
    if resolution.status == "refused":
        raise refusal(ctx, resolution)
    if resolution.status == "choose":
        assert dice is not None  # noqa: S101 - a choice is left by known dice
        return rolled_view(ctx, wanted.kind, wanted.category, dice, source)
    return Preview(wanted, source, *_taken_text(ctx, option, resolution))


def _taken_text(ctx: Context, option: AdvancementOption, taken: Resolution) -> tuple[str, str]:
    """(the confirmation's sentence, its button) for what the resolver took."""
    kind = taken.request.kind
    dice = taken.dice or ()
    args: dict[str, object] = {
        "name": ctx.player.name,
        "nth": ordinal(ctx.number),
        "costs": _costs(ctx, option, taken.value),
        "skill": taken.skill,
    }
    take_skill = gettext("Take %(skill)s", skill=taken.skill)
    if taken.characteristic is None and not needs_dice(ctx.ruleset, kind):  # a chosen skill
        return gettext(
            "%(name)s takes %(skill)s as his %(nth)s advancement: %(costs)s", **args
        ), take_skill
    if kind in RANDOM_SKILL_KINDS and not ctx.roll_mode:
        args["category"] = ctx.category_name(taken.request.category)
        args["dice"] = dice_text(dice)
        return gettext(
            "%(name)s takes %(skill)s (random %(category)s skill, dice %(dice)s) "
            "as his %(nth)s advancement: %(costs)s",
            **args,
        ), take_skill
    if ctx.roll_mode:
        args.update(first=dice[0], second=dice[1])
    else:
        args["roll"] = dice[0]  # spend mode: the one die of the characteristic table
    if taken.characteristic is not None:
        args["characteristic"] = stat_label(taken.characteristic)
        text = (
            gettext(
                "%(name)s gains +1 %(characteristic)s with his %(nth)s Star Player Roll "
                "(%(first)s + %(second)s): %(costs)s",
                **args,
            )
            if ctx.roll_mode
            else gettext(
                "%(name)s improves %(characteristic)s (roll %(roll)s) "
                "as his %(nth)s advancement: %(costs)s",
                **args,
            )
        )
        return text, gettext("Take +1 %(characteristic)s", characteristic=args["characteristic"])
    text = (
        gettext(
            "%(name)s takes %(skill)s with his %(nth)s Star Player Roll "
            "(%(first)s + %(second)s): %(costs)s",
            **args,
        )
        if ctx.roll_mode
        else gettext(
            "%(name)s takes %(skill)s instead of a characteristic (roll %(roll)s) "
            "as his %(nth)s advancement: %(costs)s",
            **args,
        )
    )
    return text, take_skill


def _roll_preview(ctx: Context, wanted: AdvancementRequest, option: AdvancementOption) -> Preview:
    who, nth = ctx.player.name, ordinal(ctx.number)
    kind = wanted.kind
    if ctx.roll_mode:
        text = gettext(
            "%(name)s makes his %(nth)s Star Player Roll (2D6). The dice are kept: "
            "then you pick what they allow",
            name=who,
            nth=nth,
        )
        return Preview(wanted, "server", text, gettext("Roll 2D6"))
    if kind == RANDOM_CHARACTERISTIC_KIND:
        table = ctx.ruleset.characteristic_table
        if table:
            text = gettext(
                "%(name)s rolls a D%(sides)s on the characteristic table for his %(nth)s "
                "advancement. The dice are kept: then you pick what they allow "
                "(\u2212%(spp)s SPP)",
                name=who,
                sides=table.die,
                nth=nth,
                spp=option.cost,
            )
            return Preview(wanted, "server", text, gettext("Roll the D%(sides)s", sides=table.die))
        text = gettext(
            "%(name)s rolls a die on the characteristic table for his %(nth)s advancement. "
            "The dice are kept: then you pick what they allow (\u2212%(spp)s SPP)",
            name=who,
            nth=nth,
            spp=option.cost,
        )
        return Preview(wanted, "server", text, gettext("Roll the die"))
    category = wanted.category
    if not category:
        raise _violation(ctx, Decision.deny("advancement.category_required"), field="category")
    if category not in option.categories:
        closed = Decision.deny(
            "advancement.not_a_roll_category", category=ctx.category_name(category)
        )
        raise _violation(ctx, closed, field="category")
    name = ctx.category_name(category)
    value = ctx.value(kind)
    twice = ctx.ruleset.advancement.random_skill == "roll_twice_pick_one"
    args = {"name": who, "category": name, "nth": nth, "costs": _costs(ctx, option, value)}
    text = (
        gettext(
            "%(name)s rolls twice for a random %(category)s skill and keeps one "
            "as his %(nth)s advancement: %(costs)s",
            **args,
        )
        if twice
        else gettext(
            "%(name)s rolls for a random %(category)s skill as his %(nth)s advancement: %(costs)s",
            **args,
        )
    )
    surcharge = ctx.ruleset.value_increase.elite_surcharge
    results = next((c.results for c in random_categories(ctx, kind) if c.code == category), ())
    if surcharge and any(s.elite for s in results):
        text = gettext(
            "%(text)s (+%(gold)s more for an elite skill)",
            text=text,
            gold=format_number(surcharge),
        )
    return Preview(wanted, "server", text, gettext("Roll the dice"))
