"""Import checks of a player's advancements: each read, then replayed in order against the
rules, as if the player took them here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema

from league.i18n import format_number, gettext
from league.rules import (
    RANDOM_CHARACTERISTIC_KIND,
    RANDOM_SKILL_KINDS,
    AdvancementRequest,
    Decision,
    PlayerState,
    Position,
    Resolution,
    RulesError,
    Ruleset,
    advancement_cost,
    advancement_kinds,
    needs_dice,
    reason_sentence,
    refusal_text,
    resolve,
    skill_decision,
)
from league.services.exchange.document import AdvancementPlan, Reader, check_objects
from league.services.team_document import (
    ADVANCEMENT_KINDS,
    DICE_SOURCES,
    Choice,
    Dice,
    DocumentAdvancementSchema,
    Integer,
    Text,
    load,
    loader,
    show,
)


@dataclass(slots=True)
class _Progress:
    """What the player holds while his advancements are replayed in order."""

    held: list[str] = field(default_factory=list)
    improvements: Counter[str] = field(default_factory=Counter)


def check_advancements(
    reader: Reader,
    ruleset: Ruleset,
    advancement_schema: Schema,
    position: Position,
    reductions: dict[str, int],
    path: str,
    raw: list[Any],
) -> list[AdvancementPlan] | None:
    """Replay the advancements in order, as the rules would have allowed them."""
    progress = _Progress()

    def check_entry(
        index: int, where: str, raw_advancement: dict[str, Any]
    ) -> AdvancementPlan | None:
        before = len(reader.problems)
        plan = _read_advancement(reader, advancement_schema, where, raw_advancement)
        if plan is None:
            return None
        if plan.number != index + 1:
            reader.add(
                f"{where}.number",
                gettext("must be %(number)s (advancements count from 1).", number=index + 1),
            )
        try:
            _check_advancement(reader, ruleset, position, reductions, progress, where, plan)
        except RulesError as error:
            reader.add(where, gettext("The rules refuse it: %(error)s.", error=error))
        return plan if len(reader.problems) == before else None

    return check_objects(reader, raw, f"{path}.advancements", check_entry)


def _read_advancement(
    reader: Reader, advancement_schema: Schema, where: str, raw: dict[str, Any]
) -> AdvancementPlan | None:
    loaded = load(advancement_schema, raw, where)
    reader.report(loaded)
    if not loaded.ok:
        return None
    return AdvancementPlan(**loaded.values)


def advancement_schema() -> Schema:
    return loader(
        DocumentAdvancementSchema,
        number=Integer(minimum=1, maximum=99),
        kind=Choice(ADVANCEMENT_KINDS),
        spp_cost=Integer(),
        skill=Text(length=(1, 60), nullable=True),
        characteristic=Text(length=(2, 2), nullable=True),
        category=Text(length=(1, 2), nullable=True),
        dice=Dice(),
        dice_source=Choice((None, *DICE_SOURCES)),
        value_increase=Integer(),
    )


def _check_advancement(
    reader: Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: dict[str, int],
    progress: _Progress,
    where: str,
    plan: AdvancementPlan,
) -> None:
    kinds = advancement_kinds(ruleset)
    if plan.kind not in kinds:
        reader.add(
            f"{where}.kind",
            gettext(
                "%(ruleset)s has no %(kind)s advancement.", ruleset=ruleset.name, kind=plan.kind
            ),
        )
        return
    roll_mode = ruleset.advancement.mode == "roll"
    expected_cost = 0 if roll_mode else advancement_cost(ruleset, plan.kind, plan.number)
    if plan.spp_cost != expected_cost:
        reader.add(
            f"{where}.spp_cost",
            gettext(
                "Advancement %(number)s (%(kind)s) costs %(cost)s SPP in %(ruleset)s; "
                "the document says %(stated)s.",
                number=plan.number,
                kind=plan.kind,
                cost=expected_cost,
                ruleset=ruleset.name,
                stated=plan.spp_cost,
            ),
        )
    rolled = needs_dice(ruleset, plan.kind)
    if rolled and (plan.dice is None or plan.dice_source is None):
        reader.add(
            f"{where}.dice",
            gettext("A %(kind)s advancement records its dice and who rolled.", kind=plan.kind),
        )
        return
    if not rolled and (plan.dice is not None or plan.dice_source is not None):
        reader.add(f"{where}.dice", gettext("A %(kind)s advancement has no dice.", kind=plan.kind))
    if (plan.skill is None) == (plan.characteristic is None):
        reader.add(where, gettext("An advancement gives either a skill or a characteristic."))
        return
    if plan.skill is not None:
        expected_value = _check_skill(reader, ruleset, position, reductions, progress, where, plan)
    else:
        expected_value = _check_characteristic(
            reader, ruleset, position, reductions, progress, where, plan
        )
    if expected_value is not None and plan.value_increase != expected_value:
        reader.add(
            f"{where}.value_increase",
            gettext(
                "It adds %(value)s to the player's value in %(ruleset)s; "
                "the document says %(stated)s.",
                value=format_number(expected_value),
                ruleset=ruleset.name,
                stated=format_number(plan.value_increase),
            ),
        )


def _replay(
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    plan: AdvancementPlan,
) -> Resolution:
    """The resolver's answer to the advancement as the document records it.

    The player is given just the SPP it needs (the SPP totals are checked as a
    whole afterwards), so what is left is the rules of the choice itself.
    """
    number = plan.number
    if ruleset.advancement.mode == "roll":
        spp = ruleset.advancement.thresholds[number - 1]
    else:
        spp = advancement_cost(ruleset, plan.kind, number)
    state = PlayerState.of(
        ruleset,
        position,
        skills=progress.held,
        improvements=progress.improvements,
        reductions=reductions,
        advancements_taken=number - 1,
        spp=spp,
    )
    random_kind = plan.kind in RANDOM_SKILL_KINDS
    request = AdvancementRequest(
        plan.kind,
        skill=plan.skill,
        category=plan.category if random_kind else None,
        # A kind without dice was told about its dice already: its skill is checked alone.
        dice=tuple(plan.dice) if plan.dice is not None and needs_dice(ruleset, plan.kind) else None,
        characteristic=plan.characteristic,
    )
    return resolve(ruleset, state, request)


def _check_skill(
    reader: Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    where: str,
    plan: AdvancementPlan,
) -> int | None:
    assert plan.skill is not None  # noqa: S101 - the caller checked
    skill = ruleset.find_skill(plan.skill)
    if skill is None:
        reader.add(
            f"{where}.skill",
            gettext(
                "%(ruleset)s has no skill %(skill)s.", ruleset=ruleset.name, skill=repr(plan.skill)
            ),
        )
        return None
    if plan.kind in RANDOM_SKILL_KINDS and plan.category != skill.category:
        reader.add(
            f"{where}.category",
            gettext(
                "%(skill)s is in the %(category)s category; the document says %(stated)s.",
                skill=skill.name,
                category=skill.category,
                stated=show(plan.category),
            ),
        )
        return None
    resolution = _replay(ruleset, position, reductions, progress, plan)
    if resolution.status == "taken":
        progress.held.append(skill.name)
        return resolution.value
    code = resolution.reason.code if resolution.status == "refused" else ""
    refusal = resolution.decision
    # A refusal of the skill itself (access, held, trait...), not of the dice.
    skill_refused = resolution.field == "skill" or code not in ("reroll_required", "not_rolled", "")
    if code == "reroll_required" and skill.name in resolution.reason.params.get("skills", ()):
        # The recorded skill is one he may not take: say why, not just "re-roll".
        refusal = skill_decision(ruleset, position, progress.held, skill.name, plan.kind)
        skill_refused = True
    if code == "invalid_dice":
        raise RulesError(str(resolution.reason.params.get("text")))
    if code == "not_a_double":
        reader.add(
            f"{where}.kind",
            gettext("A roll of %(dice)s gives no %(kind)s skill.", dice=plan.dice, kind=plan.kind),
        )
    elif skill_refused:
        reader.add(
            f"{where}.skill",
            gettext(
                "%(refusal)s (%(skill)s, %(kind)s).",
                refusal=_refusal(refusal, position.name),
                skill=skill.name,
                kind=plan.kind,
            ),
        )
    else:  # the dice give another skill
        reader.add(
            f"{where}.dice",
            gettext(
                "The dice %(dice)s do not give %(skill)s in %(ruleset)s.",
                dice=plan.dice,
                skill=skill.name,
                ruleset=ruleset.name,
            ),
        )
    return None


def _check_characteristic(
    reader: Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    where: str,
    plan: AdvancementPlan,
) -> int | None:
    characteristic = plan.characteristic
    assert characteristic is not None  # noqa: S101 - the caller checked
    if plan.kind != RANDOM_CHARACTERISTIC_KIND:
        reader.add(
            f"{where}.kind",
            gettext("A characteristic comes from a %(kind)s.", kind=RANDOM_CHARACTERISTIC_KIND),
        )
        return None
    if characteristic not in ruleset.characteristics:
        reader.add(
            f"{where}.characteristic",
            gettext(
                "must be one of %(known)s; it is %(value)s.",
                known=", ".join(ruleset.characteristics),
                value=repr(characteristic),
            ),
        )
        return None
    resolution = _replay(ruleset, position, reductions, progress, plan)
    if resolution.status == "taken":
        progress.improvements[characteristic] += 1
        return resolution.value
    code = resolution.reason.code if resolution.status == "refused" else ""
    if code == "invalid_dice":
        raise RulesError(str(resolution.reason.params.get("text")))
    if code == "not_offered":
        who = gettext("A %(position)s", position=position.name)
        reader.add(f"{where}.characteristic", refusal_text(resolution, who))
    else:
        reader.add(
            f"{where}.characteristic",
            gettext(
                "%(refusal)s (%(characteristic)s).",
                refusal=_refusal(resolution.decision, position.name),
                characteristic=characteristic.upper(),
            ),
        )
    return None


def _refusal(decision: Decision, position: str) -> str:
    """Why a player of ``position`` may not have it ("A Blitzer needs 6 SPP and has 3")."""
    who = gettext("A %(position)s", position=position)
    if not decision.reasons:
        return gettext("%(who)s may not take it", who=who)
    return reason_sentence(decision.reasons[0], who)
