"""Player value, team value (TV) and current team value (CTV)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict, Unpack

from league.rules.model import Position, RulesError, Ruleset, TeamType

__all__ = [
    "RosterPlayer",
    "Staff",
    "current_team_value",
    "is_low_cost_lineman",
    "player_value",
    "staff_value",
    "team_value",
]


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A player on the roster as team value sees him.

    Pass only players still on the roster (not fired or retired); a dead
    player counts for nothing.
    """

    position: str | Position  # position id or the Position itself
    value_increases: int = 0
    miss_next_game: bool = False
    temporarily_retired: bool = False
    dead: bool = False


class Staff(TypedDict, total=False):
    """A team's re-rolls and sideline staff as team value counts them (left out: 0, False)."""

    rerolls: int
    assistant_coaches: int
    cheerleaders: int
    apothecary: bool
    dedicated_fans: int
    #: The League Trophy's free re-roll (editions that have it).
    league_trophy: bool


def _total(value_increases: int | Iterable[int]) -> int:
    total = value_increases if isinstance(value_increases, int) else sum(value_increases)
    if total < 0:
        raise RulesError(f"value increases cannot be negative ({total})")
    return total


def player_value(
    ruleset: Ruleset, position: Position, value_increases: int | Iterable[int] = 0
) -> int:
    """Current value: hiring fee plus every value increase from advancements."""
    del ruleset  # same formula in every shipped ruleset; kept for a uniform signature
    return position.cost + _total(value_increases)


def is_low_cost_lineman(ruleset: Ruleset, team_type: TeamType, position: Position) -> bool:
    """True when the position's hiring fee counts 0 in CTV (Low Cost Linemen).

    A position is a lineman when it carries the rule's keyword; positions of
    rosters without keywords match on their name instead.
    """
    rule = ruleset.team_building.low_cost_linemen
    if rule is None or not team_type.has_special_rule(rule.special_rule):
        return False
    if position.keywords:
        return rule.keyword in position.keywords
    return rule.keyword.lower() in position.name.lower()


def _check_count(name: str, count: int, maximum: int | None) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RulesError(f"{name} must be a whole number >= 0, got {count!r}")
    if maximum is not None and count > maximum:
        raise RulesError(f"{name}: {count} is above the limit of {maximum}")


def staff_value(
    ruleset: Ruleset,
    team_type: TeamType,
    **staff: Unpack[Staff],
) -> int:
    """Value of re-rolls (at roster price) and sideline staff.

    Dedicated Fans count only where the ruleset says so (classic Fan Factor).
    The League Trophy's free re-roll counts at roster price, above the
    re-roll limit, where the edition has the trophy.
    """
    rerolls = staff.get("rerolls", 0)
    assistant_coaches = staff.get("assistant_coaches", 0)
    cheerleaders = staff.get("cheerleaders", 0)
    apothecary = staff.get("apothecary", False)
    dedicated_fans = staff.get("dedicated_fans", 0)
    building = ruleset.team_building
    _check_count("rerolls", rerolls, building.max_rerolls)
    _check_count("assistant_coaches", assistant_coaches, building.assistant_coaches.max)
    _check_count("cheerleaders", cheerleaders, building.cheerleaders.max)
    _check_count("dedicated_fans", dedicated_fans, None)
    if apothecary and not team_type.apothecary:
        raise RulesError(f"team type {team_type.id!r} may not have an apothecary")
    total = (
        rerolls * team_type.reroll_cost
        + assistant_coaches * building.assistant_coaches.cost
        + cheerleaders * building.cheerleaders.cost
        + (building.apothecary_cost if apothecary else 0)
    )
    if building.dedicated_fans.counts_in_team_value:
        total += dedicated_fans * building.dedicated_fans.cost
    prizes = ruleset.season.prizes
    if staff.get("league_trophy", False) and prizes is not None and prizes.trophy_reroll:
        total += team_type.reroll_cost
    return total


def _position(team_type: TeamType, player: RosterPlayer) -> Position:
    if isinstance(player.position, Position):
        return player.position
    return team_type.position(player.position)


def team_value(
    ruleset: Ruleset,
    team_type: TeamType,
    players: Iterable[RosterPlayer],
    **staff: Unpack[Staff],
) -> int:
    """TV: every rostered player's value plus staff and re-rolls at roster price."""
    players_total = sum(
        player_value(ruleset, _position(team_type, p), p.value_increases)
        for p in players
        if not p.dead
    )
    return players_total + staff_value(ruleset, team_type, **staff)


def current_team_value(
    ruleset: Ruleset,
    team_type: TeamType,
    players: Iterable[RosterPlayer],
    **staff: Unpack[Staff],
) -> int:
    """CTV: TV without players who miss the next game or are temporarily retired.

    Low Cost Linemen count only their value increases, not their fee.
    """
    players_total = 0
    for player in players:
        if player.dead or player.miss_next_game or player.temporarily_retired:
            continue
        position = _position(team_type, player)
        value = player_value(ruleset, position, player.value_increases)
        if is_low_cost_lineman(ruleset, team_type, position):
            value -= position.cost
        players_total += value
    return players_total + staff_value(ruleset, team_type, **staff)
