"""Spending SPP (or Star Player Rolls) on skills and characteristics.

One purchase is one transaction: the player's row is locked, every rule is
checked again inside the lock, then the advancement row, the gained skill and
the player's caches (SPP spent, value) are written together.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import (
    Advancement,
    DiceRoll,
    Match,
    MatchTeam,
    Player,
    PlayerSkill,
    Team,
    User,
)
from league.rules import (
    CHARACTERISTIC_KIND,
    SKILL_KINDS,
    AdvancementOptions,
    CharacteristicOptions,
    Decision,
    Position,
    RulesError,
    Ruleset,
    advancement_cost,
    advancement_decision,
    advancement_options,
    characteristic_options,
    improvement_roll_options,
    random_skill_result,
    request_fields,
    roll_random_skill_dice,
    roll_serves,
    skill_decision,
    value_increase,
)
from league.services import audit
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.leagues import role_in
from league.services.submissions import Resubmitted
from league.services.team_views import current_stats
from league.services.teams import can_manage, get_player, get_team, team_ruleset, team_type_of
from league.services.text import ordinal

# Reason codes of the rules engine, turned into the API's error codes.
ERROR_CODES = {
    "not_enough_spp": "insufficient_spp",
    "no_roll_pending": "insufficient_spp",
    "max_advancements": "max_advancements",
    "already_held": "already_has_skill",
    "max_improvements": "characteristic_capped",
    "at_maximum": "characteristic_capped",
    "max_increase_from_start": "characteristic_capped",
}

RANDOM_SKILL_KINDS = ("random_primary", "random_secondary")


@dataclass(frozen=True, slots=True)
class PendingRoll:
    """The server rolled; the coach still has to choose what the dice allow."""

    player: Player
    dice: tuple[int, ...]
    message: str


@dataclass(frozen=True, slots=True)
class AdvancementRequest:
    """What the coach asks for. Random kinds name a category; dice None: the server rolls."""

    kind: str
    skill: str | None = None
    category: str | None = None
    dice: tuple[int, ...] | None = None
    characteristic: str | None = None


# ---------------------------------------------------------------------------
# The player's state as the rules see it


def held_skills(position: Position, player: Player) -> list[str]:
    """Starting skills plus those gained by advancements."""
    return [*position.skill_names, *(a.skill for a in player.active_advancements if a.skill)]


def improvements(player: Player) -> dict[str, int]:
    counts: dict[str, int] = {}
    for advancement in player.active_advancements:
        if advancement.characteristic:
            counts[advancement.characteristic] = counts.get(advancement.characteristic, 0) + 1
    return counts


def spp_for_rules(ruleset: Ruleset, player: Player) -> int:
    """Spend mode: the unspent balance. Roll mode: every SPP earned (nothing is spent)."""
    return player.spp_earned if ruleset.advancement.mode == "roll" else player.spp_available


def options_for(player: Player) -> AdvancementOptions:
    """Every kind with its cost, affordability, value and legal skills (for pages and API)."""
    ruleset = team_ruleset(player.team)
    position = team_type_of(player.team).position(player.position_id)
    return advancement_options(
        ruleset,
        position,
        held_skills(position, player),
        len(player.active_advancements),
        spp_for_rules(ruleset, player),
    )


def _refuse(decision: Decision, message: str, field: str | None = None) -> RuleViolation:
    code = decision.reasons[0].code if decision.reasons else "rule_violation"
    return RuleViolation(message, code=ERROR_CODES.get(code, "skill_not_allowed"), field=field)


def _describe(decision: Decision) -> str:
    """A person's sentence for the first reason of a refusal."""
    reason = decision.reasons[0]
    p = dict(reason.params)
    texts = {
        "not_enough_spp": f"needs {p.get('needed')} SPP and has {p.get('have')}",
        "no_roll_pending": f"has no Star Player Roll due (the next comes at {p.get('needed')} SPP)",
        "max_advancements": f"already has the most advancements ({p.get('max')})",
        "already_held": "already has that skill",
        "excluded_by": f"cannot take it together with {p.get('by')}",
        "requires": f"needs {' or '.join(p.get('skills', ()) or ())} first",
        "trait": "cannot learn traits",
        "not_buyable": "cannot take that skill as an advancement",
        "not_primary": "has no primary access to that category",
        "not_secondary": "has no secondary access to that category",
        "category_not_accessible": "has no access to that category",
        "kind_not_available": "cannot take that kind of advancement in this ruleset",
        "max_improvements": "has improved that characteristic as often as allowed",
        "at_maximum": "already has that characteristic at its best",
        "max_increase_from_start": "has raised that characteristic as far as allowed",
        "unknown_skill": "asked for a skill this ruleset does not have",
        "unknown_category": "asked for an unknown skill category",
        "reroll_required": "rolled a skill he cannot take: roll again",
        "pick_required": "must pick one of the two rolled skills",
    }
    return texts.get(reason.code, reason.code.replace("_", " "))


# ---------------------------------------------------------------------------
# Buying


def _require_coach(team: Team, actor: User) -> None:
    if not can_manage(team, actor):
        raise Forbidden(f"Only {team.name}'s coach or a commissioner can advance its players.")


def _server_roll(
    session: Session,
    actor: User,
    ruleset: Ruleset,
    player: Player,
    position: Position,
    request: AdvancementRequest,
    rng: random.Random,
) -> tuple[DiceRoll, bool]:
    """(the dice the server uses for this request, whether they were rolled just now).

    Dice once rolled wait in the player's dice log until an advancement uses them
    (undoing it puts them back), so neither asking again nor undoing re-rolls them.
    """
    for waiting in player.waiting_rolls:
        if _void_if_unusable(ruleset, player, position, waiting):
            continue
        if roll_serves(ruleset, (waiting.kind, waiting.category), (request.kind, request.category)):
            return waiting, False
        raise Conflict(
            f"{player.name} has dice waiting ({', '.join(map(str, waiting.dice))}) for a "
            f"{waiting.kind.replace('_', ' ')} advancement; finish that one first.",
            code="roll_pending",
        )
    if request.kind in RANDOM_SKILL_KINDS:
        try:
            dice = roll_random_skill_dice(
                ruleset,
                position,
                held_skills(position, player),
                request.kind,
                request.category or "",
                rng,
            )
        except RulesError as error:
            raise RuleViolation(str(error), code="skill_not_allowed", field="category") from error
    elif ruleset.advancement.mode == "roll":
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    else:
        table = ruleset.characteristic_table
        assert table is not None  # noqa: S101 - spend-mode rulesets have one (loader)
        dice = (rng.randint(1, table.die),)
    roll = DiceRoll(
        player=player,
        kind=request.kind,
        category=request.category,
        dice=list(dice),
        by_id=actor.id,
    )
    session.add(roll)
    session.flush()
    audit.record(session, actor, "player.roll", "player", player.id, dice=list(dice))
    return roll, True


def _void_if_unusable(ruleset: Ruleset, player: Player, position: Position, roll: DiceRoll) -> bool:
    """A kept random-skill roll whose skill the player may no longer take is rolled again.

    (As at the table: such a result is re-rolled.) The roll stays in the log, voided.
    """
    if roll.kind not in RANDOM_SKILL_KINDS or roll.category is None:
        return False
    held = held_skills(position, player)
    result = random_skill_result(ruleset, position, held, roll.kind, roll.category, roll.dice)
    reroll = result.decision.reason("reroll_required")
    if reroll is None:
        return False
    skills = " or ".join(reroll.params.get("skills", ()))
    roll.void_reason = f"{player.name} may no longer take {skills}: rolled again"
    return True


def buy_advancement(
    session: Session,
    actor: User,
    player_id: int,
    request: AdvancementRequest,
    *,
    rng: random.Random | None = None,
    number: int | None = None,
) -> Advancement | PendingRoll:
    """Take one advancement; raises RuleViolation (with the API's code) when the rules say no.

    `number` is the advancement a confirmation form was shown for: when it is taken
    already, the form was sent twice and Resubmitted says so, changing nothing.

    When the server rolls and the dice leave a choice (BB2025's two skills, a
    characteristic) or do not allow what was asked, the dice wait in the player's
    dice log and a PendingRoll comes back: the next request of the same kind uses
    them, so they cannot be re-rolled.
    """
    player = get_player(session, player_id, for_update=True)
    team = get_team(session, player.team_id, history=False)
    _require_coach(team, actor)
    if number is not None and len(player.active_advancements) + 1 != number:
        raise Resubmitted(
            f"{player.name}'s {ordinal(number)} advancement is already recorded "
            "(the form was sent twice)."
        )
    if not player.on_roster:
        raise Conflict(f"{player.name} is {player.status} and cannot advance.")
    ruleset = team_ruleset(team)
    position = team_type_of(team).position(player.position_id)
    taken = len(player.active_advancements)
    available = spp_for_rules(ruleset, player)
    number = taken + 1

    decision = advancement_decision(ruleset, request.kind, taken, available)
    if not decision.allowed:
        raise _refuse(decision, f"{player.name} {_describe(decision)}.", field="kind")
    _check_request(ruleset, request)

    source = "table"
    dice = request.dice
    roll: DiceRoll | None = None
    fresh = False
    needs_dice = "dice" in request_fields(ruleset, request.kind)
    if needs_dice and dice is None:
        roll, fresh = _server_roll(
            session, actor, ruleset, player, position, request, rng or random.SystemRandom()
        )
        dice = tuple(roll.dice)
        source = "server"
    elif needs_dice and not team.league.table_dice_allowed:
        raise RuleViolation(
            f"{team.league.name} uses server dice only: leave the dice out.",
            code="invalid_dice",
            field="dice",
        )

    try:
        skill, characteristic, value_kind = _resolve(ruleset, player, position, request, dice or ())
    except _ChoiceNeeded as needed:
        message = f"{player.name} rolled {', '.join(map(str, dice or ()))}: {needed.message}"
        if roll is not None:  # the dice wait in the log for the coach's choice
            return PendingRoll(player, tuple(roll.dice), message)
        raise RuleViolation(
            message,
            code="choice_required",
            field="dice",
        ) from None
    except RuleViolation as refused:
        if roll is not None and fresh:
            # Refusing would roll the new dice back with the request, and asking
            # again would roll new ones: they are kept, and the refusal is told.
            rolled = f"{player.name} rolled {', '.join(map(str, roll.dice))}"
            return PendingRoll(player, tuple(roll.dice), f"{rolled}: {refused.message}")
        raise

    cost = (
        0 if ruleset.advancement.mode == "roll" else advancement_cost(ruleset, request.kind, number)
    )
    value = value_increase(
        ruleset,
        value_kind,
        skill=skill,
        characteristic=characteristic,
    )
    advancement = Advancement(
        player=player,
        number=number,
        kind=request.kind,
        spp_cost=cost,
        skill=skill,
        characteristic=characteristic,
        category=request.category,
        dice=list(dice) if needs_dice else None,
        dice_source=source if needs_dice else None,
        dice_roll=roll,
        value_increase=value,
        by_id=actor.id,
    )
    session.add(advancement)
    session.flush()
    if skill:
        session.add(PlayerSkill(player_id=player.id, skill=skill, advancement_id=advancement.id))
    _refresh_caches(player)
    session.flush()
    audit.record(
        session,
        actor,
        "player.advance",
        "player",
        player.id,
        kind=request.kind,
        skill=skill,
        characteristic=characteristic,
        spp=cost,
        value=value,
        dice=list(dice) if needs_dice else None,
    )
    return advancement


def _check_request(ruleset: Ruleset, request: AdvancementRequest) -> None:
    """Refuse what the kind does not take and names the ruleset does not know,
    before anything is rolled or stored (a chosen skill's category would be kept)."""
    given = {
        "skill": request.skill,
        "category": request.category,
        "dice": request.dice,
        "characteristic": request.characteristic,
    }
    kind = request.kind.replace("_", " ")
    for name in sorted(set(given) - request_fields(ruleset, request.kind)):
        if given[name] is not None:
            raise RuleViolation(
                f"A {kind} advancement takes no {name}: leave it out.",
                code="field_not_taken",
                field=name,
            )
    if request.category is not None and not ruleset.has_category(request.category):
        raise RuleViolation(
            f"{ruleset.name} has no skill category {request.category!r}.",
            code="skill_not_allowed",
            field="category",
        )


class _ChoiceNeeded(Exception):
    """The dice are known but the coach still has to choose (BB2025 pick, characteristic)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _resolve(
    ruleset: Ruleset,
    player: Player,
    position: Position,
    request: AdvancementRequest,
    dice: tuple[int, ...],
) -> tuple[str | None, str | None, str]:
    """(skill, characteristic, kind whose value applies) for a legal request."""
    held = held_skills(position, player)
    if ruleset.advancement.mode == "roll":
        return _resolve_roll(ruleset, player, position, request, dice, held)
    if request.kind in ("chosen_primary", "chosen_secondary"):
        return (
            _chosen_skill(ruleset, player, position, held, request.kind, request.skill),
            None,
            request.kind,
        )
    if request.kind in RANDOM_SKILL_KINDS:
        if not request.category:
            raise RuleViolation(
                "Pick the skill category to roll on.", code="skill_not_allowed", field="category"
            )
        try:
            result = random_skill_result(
                ruleset, position, held, request.kind, request.category, dice, request.skill
            )
        except RulesError as error:
            raise RuleViolation(str(error), code="invalid_dice", field="dice") from error
        if result.decision.allowed and result.skill is not None:
            return result.skill.name, None, request.kind
        if result.decision.reason("pick_required") and result.candidates:
            names = " or ".join(s.name for s in result.candidates)
            raise _ChoiceNeeded(f"pick {names}.")
        raise _refuse(result.decision, f"{player.name} {_describe(result.decision)}.", "dice")
    # A characteristic improvement (or the skill the table allows instead).
    options = _characteristic_options(ruleset, player, position, dice)
    return _characteristic_choice(ruleset, player, position, held, request, options)


def _characteristic_options(
    ruleset: Ruleset, player: Player, position: Position, dice: tuple[int, ...]
) -> CharacteristicOptions:
    current = current_stats(ruleset, position, player)
    try:
        if ruleset.advancement.mode == "roll":
            if len(dice) != 2:
                raise RulesError("a Star Player Roll is two D6")
            return improvement_roll_options(
                ruleset, dice[0], dice[1], improvements(player), current, position.stats
            )
        if len(dice) != 1:
            raise RulesError("a characteristic roll is one die")
        return characteristic_options(
            ruleset, dice[0], improvements(player), current, position.stats
        )
    except RulesError as error:
        raise RuleViolation(str(error), code="invalid_dice", field="dice") from error


def _characteristic_choice(
    ruleset: Ruleset,
    player: Player,
    position: Position,
    held: list[str],
    request: AdvancementRequest,
    options: CharacteristicOptions,
) -> tuple[str | None, str | None, str]:
    if request.characteristic:
        if request.characteristic in options.characteristics:
            return None, request.characteristic, CHARACTERISTIC_KIND
        refused = dict(options.refused).get(request.characteristic)
        if refused is not None:
            raise _refuse(refused, f"{player.name} {_describe(refused)}.", "characteristic")
        raise RuleViolation(
            f"A roll of {options.roll} does not allow {request.characteristic.upper()}.",
            code="characteristic_capped",
            field="characteristic",
        )
    if request.skill:
        skill = ruleset.find_skill(request.skill)
        kinds = [
            kind
            for kind in options.skill_kinds
            if skill is not None and skill_decision(ruleset, position, held, skill.name, kind)
        ]
        if not kinds:
            chosen = options.skill_kinds[0] if options.skill_kinds else "chosen_secondary"
            decision = skill_decision(ruleset, position, held, request.skill, chosen)
            raise _refuse(decision, f"{player.name} {_describe(decision)}.", "skill")
        return skill.name, None, kinds[0]  # type: ignore[union-attr]
    allowed = ", ".join(c.upper() for c in options.characteristics) or "no characteristic"
    instead = " or ".join(k.replace("chosen_", "a ").replace("_", " ") for k in options.skill_kinds)
    raise _ChoiceNeeded(f"choose {allowed}, or take {instead} skill instead.")


def _chosen_skill(
    ruleset: Ruleset,
    player: Player,
    position: Position,
    held: list[str],
    kind: str,
    skill_name: str | None,
) -> str:
    if not skill_name:
        raise RuleViolation("Name the skill to take.", code="skill_not_allowed", field="skill")
    decision = skill_decision(ruleset, position, held, skill_name, kind)
    if not decision.allowed:
        raise _refuse(decision, f"{player.name} {_describe(decision)}: {skill_name}.", "skill")
    return ruleset.skill(skill_name).name


def _resolve_roll(
    ruleset: Ruleset,
    player: Player,
    position: Position,
    request: AdvancementRequest,
    dice: tuple[int, ...],
    held: list[str],
) -> tuple[str | None, str | None, str]:
    """Classic: a Star Player Roll; the coach takes what the 2D6 allow."""
    options = _characteristic_options(ruleset, player, position, dice)
    if request.kind == CHARACTERISTIC_KIND:
        if not request.characteristic:
            raise _ChoiceNeeded(_roll_choices(options))
        return _characteristic_choice(ruleset, player, position, held, request, options)
    if request.kind not in options.skill_kinds:
        raise RuleViolation(
            f"A roll of {dice[0]}+{dice[1]} is not a double: no doubles skill.",
            code="skill_not_allowed",
            field="kind",
        )
    if not request.skill:
        raise _ChoiceNeeded(_roll_choices(options))
    return (
        _chosen_skill(ruleset, player, position, held, request.kind, request.skill),
        None,
        (request.kind),
    )


def _roll_choices(options: CharacteristicOptions) -> str:
    parts = [f"+1 {c.upper()}" for c in options.characteristics]
    parts.append("a skill" + (" (doubles: any accessible category)" if options.doubles else ""))
    return "choose " + " or ".join(parts) + "."


def _refresh_caches(player: Player) -> None:
    active = player.active_advancements
    player.spp_spent = sum(a.spp_cost for a in active)
    player.value = player.cost + sum(a.value_increase for a in active)


# ---------------------------------------------------------------------------
# Undoing


def undo_last_advancement(session: Session, actor: User, player_id: int) -> Advancement:
    """Give back the last advancement: SPP and value return exactly.

    Server dice it used go back to the player's waiting roll: the next advancement
    of that kind gets the same dice. Commissioners may always; the coach only until
    his team's next match is recorded.
    """
    player = get_player(session, player_id, for_update=True)
    team = get_team(session, player.team_id, history=False)
    _require_coach(team, actor)
    active = player.active_advancements
    if not active:
        raise Conflict(f"{player.name} has no advancement to undo.")
    last = active[-1]
    if role_in(team.league, actor) != "commissioner" and _played_since(session, team, last):
        raise Forbidden(
            f"{team.name} has played since {player.name} took that advancement; "
            "ask a commissioner to undo it."
        )
    last.undone_at = datetime.now(UTC)
    if last.skill:
        held = session.get(PlayerSkill, (player.id, last.skill))
        if held is not None:
            session.delete(held)
    _refresh_caches(player)
    session.flush()
    audit.record(session, actor, "player.undo_advance", "player", player.id, number=last.number)
    return last


def _played_since(session: Session, team: Team, advancement: Advancement) -> bool:
    return (
        session.scalar(
            select(Match.id)
            .join(MatchTeam, MatchTeam.match_id == Match.id)
            .where(
                MatchTeam.team_id == team.id,
                Match.state == "played",
                Match.played_at > advancement.created_at,
            )
            .limit(1)
        )
        is not None
    )


def kinds_needing_dice(ruleset: Ruleset) -> tuple[str, ...]:
    """Kinds whose result comes from dice (shown with a dice field where table dice are allowed)."""
    if ruleset.advancement.mode == "roll":
        return tuple(k for k in (*SKILL_KINDS, CHARACTERISTIC_KIND))
    return (*RANDOM_SKILL_KINDS, CHARACTERISTIC_KIND)
