"""Spending SPP (or Star Player Rolls) on skills and characteristics.

One purchase is one transaction: lock the player's row, ask the rules'
resolver (``league.rules.resolve``) inside the lock, then write what it took:
the advancement row, the gained skill and the player's caches (SPP spent,
value) together.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
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
    RANDOM_SKILL_KINDS,
    AdvancementOptions,
    AdvancementRequest,
    PlayerState,
    Position,
    Resolution,
    RulesError,
    Ruleset,
    advancement_options,
    choice_text,
    needs_dice,
    random_skill_result,
    refusal_text,
    resolve,
    roll_random_skill_dice,
    roll_serves,
)
from league.services import audit
from league.services import events as domain_events
from league.services.access import (
    get_player,
    get_team,
    may_change_roster,
    role_in,
    team_ruleset,
    team_type_of,
)
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.labels import player_status_label
from league.services.submissions import Resubmitted
from league.services.text import ordinal

__all__ = [
    "AdvancementRequest",
    "PendingRoll",
    "buy_advancement",
    "held_skills",
    "improvements",
    "options_for",
    "player_state",
    "spp_for_rules",
    "undo_last_advancement",
]

# Reason codes of the rules engine, turned into the API's error codes
# (any other refusal is "skill_not_allowed").
ERROR_CODES = {
    "not_enough_spp": "insufficient_spp",
    "no_roll_pending": "insufficient_spp",
    "max_advancements": "max_advancements",
    "already_held": "already_has_skill",
    "max_improvements": "characteristic_capped",
    "at_maximum": "characteristic_capped",
    "max_increase_from_start": "characteristic_capped",
    "not_offered": "characteristic_capped",
    "field_not_taken": "field_not_taken",
    "invalid_dice": "invalid_dice",
}


@dataclass(frozen=True, slots=True)
class PendingRoll:
    """The server rolled; the coach still has to choose what the dice allow."""

    player: Player
    dice: tuple[int, ...]
    message: str


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


def player_state(ruleset: Ruleset, position: Position, player: Player) -> PlayerState:
    """The player's row as the advancement resolver reads it."""
    active = player.active_advancements
    return PlayerState.of(
        ruleset,
        position,
        skills=[a.skill for a in active if a.skill],
        improvements=improvements(player),
        reductions={c: player.reduction(c) for c in ruleset.characteristics},
        advancements_taken=len(active),
        spp=spp_for_rules(ruleset, player),
    )


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


def _violation(refused: Resolution, who: str) -> RuleViolation:
    """The refusal as the service's error: the resolver's sentence, the API's code."""
    code = ERROR_CODES.get(refused.reason.code, "skill_not_allowed")
    return RuleViolation(refusal_text(refused, who), code=code, field=refused.field)


# ---------------------------------------------------------------------------
# Buying


def _server_roll(
    session: Session,
    actor: User,
    ruleset: Ruleset,
    player: Player,
    state: PlayerState,
    request: AdvancementRequest,
    rng: random.Random,
) -> tuple[DiceRoll, bool]:
    """(the dice the server uses for this request, whether they were rolled just now).

    Dice once rolled wait in the player's dice log until an advancement uses them
    (undoing it puts them back), so neither asking again nor undoing re-rolls them.
    """
    for waiting in player.waiting_rolls:
        if _void_if_unusable(ruleset, player, state, waiting):
            continue
        if roll_serves(ruleset, (waiting.kind, waiting.category), (request.kind, request.category)):
            return waiting, False
        raise Conflict(
            gettext(
                "%(name)s has dice waiting (%(dice)s) for a %(kind)s advancement; "
                "finish that one first.",
                name=player.name,
                dice=", ".join(map(str, waiting.dice)),
                kind=waiting.kind.replace("_", " "),
            ),
            code="roll_pending",
        )
    if request.kind in RANDOM_SKILL_KINDS:
        try:
            dice = roll_random_skill_dice(
                ruleset, state.position, state.held, request.kind, request.category or "", rng
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


def _void_if_unusable(ruleset: Ruleset, player: Player, state: PlayerState, roll: DiceRoll) -> bool:
    """A kept random-skill roll whose skill the player may no longer take is rolled again.

    (As at the table: such a result is re-rolled.) The roll stays in the log, voided.
    """
    if roll.kind not in RANDOM_SKILL_KINDS or roll.category is None:
        return False
    result = random_skill_result(
        ruleset, state.position, state.held, roll.kind, roll.category, roll.dice
    )
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

    Lock the player, ask the resolver, write what it says. `number` is the
    advancement a confirmation form was shown for: when it is taken already, the
    form was sent twice and Resubmitted says so, changing nothing.

    When the server rolls and the dice leave a choice (BB2025's two skills, a
    characteristic) or do not allow what was asked, the dice wait in the player's
    dice log and a PendingRoll comes back: the next request of the same kind uses
    them, so they cannot be re-rolled.
    """
    player = get_player(session, player_id, for_update=True)
    team = get_team(session, player.team_id, history=False, players=False)
    may_change_roster(team, actor, "advance", session).require()
    _require_may_advance(player, number)
    ruleset = team_ruleset(team)
    state = player_state(ruleset, team_type_of(team).position(player.position_id), player)

    rolls = needs_dice(ruleset, request.kind)
    # Dice kinds: first everything but the dice, so nothing is rolled for a refused request.
    resolution = resolve(ruleset, state, replace(request, dice=None) if rolls else request)
    if resolution.status == "refused":
        raise _violation(resolution, player.name)

    source = "table"
    roll: DiceRoll | None = None
    fresh = False
    if rolls:
        dice = request.dice
        if dice is None:
            roll, fresh = _server_roll(
                session, actor, ruleset, player, state, request, rng or random.SystemRandom()
            )
            dice = tuple(roll.dice)
            source = "server"
        elif not team.league.table_dice_allowed:
            raise RuleViolation(
                gettext(
                    "%(league)s uses server dice only: leave the dice out.",
                    league=team.league.name,
                ),
                code="invalid_dice",
                field="dice",
            )
        resolution = resolve(ruleset, state, replace(request, dice=dice))

    if resolution.status == "choose":
        rolled = ", ".join(map(str, resolution.dice or ()))
        message = gettext(
            "%(name)s rolled %(dice)s: %(choice)s",
            name=player.name,
            dice=rolled,
            choice=choice_text(ruleset, resolution),
        )
        if roll is not None:  # the dice wait in the log for the coach's choice
            return PendingRoll(player, tuple(roll.dice), message)
        raise RuleViolation(message, code="choice_required", field="dice")
    if resolution.status == "refused":
        if roll is not None and fresh:
            # Refusing would roll the new dice back with the request, and asking
            # again would roll new ones: they are kept, and the refusal is told.
            message = gettext(
                "%(name)s rolled %(dice)s: %(refusal)s",
                name=player.name,
                dice=", ".join(map(str, roll.dice)),
                refusal=refusal_text(resolution, player.name),
            )
            return PendingRoll(player, tuple(roll.dice), message)
        raise _violation(resolution, player.name)
    return _write(session, actor, player, resolution, source if rolls else None, roll)


def _require_may_advance(player: Player, number: int | None) -> None:
    """Refuse a form sent twice (its advancement is taken already) and a player off the roster."""
    if number is not None and len(player.active_advancements) + 1 != number:
        raise Resubmitted(
            gettext(
                "%(name)s's %(nth)s advancement is already recorded (the form was sent twice).",
                name=player.name,
                nth=ordinal(number),
            )
        )
    if not player.on_roster:
        raise Conflict(
            gettext(
                "%(name)s is %(status)s and cannot advance.",
                name=player.name,
                status=player_status_label(player.status),
            )
        )


def _write(
    session: Session,
    actor: User,
    player: Player,
    taken: Resolution,
    source: str | None,
    roll: DiceRoll | None,
) -> Advancement:
    """Store what the resolver took: the advancement, the skill, the caches, the audit."""
    dice = list(taken.dice) if source is not None and taken.dice is not None else None
    advancement = Advancement(
        player=player,
        number=len(player.active_advancements) + 1,
        kind=taken.request.kind,
        spp_cost=taken.cost,
        skill=taken.skill,
        characteristic=taken.characteristic,
        category=taken.request.category,
        dice=dice,
        dice_source=source,
        dice_roll=roll,
        value_increase=taken.value,
        by_id=actor.id,
    )
    session.add(advancement)
    session.flush()
    if taken.skill:
        session.add(
            PlayerSkill(player_id=player.id, skill=taken.skill, advancement_id=advancement.id)
        )
    _refresh_caches(player)
    session.flush()
    audit.record(
        session,
        actor,
        "player.advance",
        "player",
        player.id,
        kind=taken.request.kind,
        skill=taken.skill,
        characteristic=taken.characteristic,
        spp=taken.cost,
        value=taken.value,
        dice=dice,
    )
    domain_events.record(
        session, domain_events.PlayerAdvanced(player.team.league_id, advancement.id)
    )
    return advancement


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
    may_change_roster(team, actor, "advance", session).require()
    active = player.active_advancements
    if not active:
        raise Conflict(gettext("%(name)s has no advancement to undo.", name=player.name))
    last = active[-1]
    if role_in(team.league, actor, session) != "commissioner" and _played_since(
        session, team, last
    ):
        raise Forbidden(
            gettext(
                "%(team)s has played since %(name)s took that advancement; "
                "ask a commissioner to undo it.",
                team=team.name,
                name=player.name,
            )
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
