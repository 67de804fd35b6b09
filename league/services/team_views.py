"""Read-side views of teams: TV and CTV from the rules, rows for league pages."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from league.models import League, Player, Team
from league.rules import (
    Position,
    Ruleset,
    TeamType,
    can_advance,
    improved_value,
    must_spend,
    player_level,
    reduced_value,
)
from league.rules.team_value import RosterPlayer, current_team_value, team_value
from league.services.teams import (
    ITEM_NAMES,
    ITEMS,
    item_price,
    item_refusal,
    roster,
    team_ruleset,
    team_type_of,
    teams_of_league,
)


@dataclass(frozen=True, slots=True)
class TeamValues:
    team_value: int
    current_team_value: int


def team_values(team: Team) -> TeamValues:
    """TV and CTV of the team as it stands, by the league's ruleset."""
    ruleset = team_ruleset(team)
    team_type = team_type_of(team)
    players = [
        RosterPlayer(
            position=p.position_id,
            value_increases=p.value - p.cost,
            miss_next_game=p.status == "mng",
        )
        for p in roster(team)
    ]
    staff = {
        "rerolls": team.rerolls,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
        "dedicated_fans": team.dedicated_fans,
    }
    return TeamValues(
        team_value(ruleset, team_type, players, **staff),
        current_team_value(ruleset, team_type, players, **staff),
    )


@dataclass(frozen=True, slots=True)
class TeamRow:
    team: Team
    team_type_name: str
    players: int
    values: TeamValues


def league_team_rows(session: Session, league: League) -> list[TeamRow]:
    return [
        TeamRow(team, team_type_of(team).name, len(roster(team)), team_values(team))
        for team in teams_of_league(session, league)
    ]


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One row of the roster table, with everything the sheet shows."""

    player: Player
    position: Position
    stats: dict[str, int | None]
    skills: tuple[str, ...]
    level: str
    #: Skills gained by advancements (shown apart from the starting ones).
    gained_skills: tuple[str, ...] = ()
    #: Characteristics lowered by lasting injuries / raised by advancements.
    injured: frozenset[str] = frozenset()
    improved: frozenset[str] = frozenset()
    #: Some advancement is open to the player now (classic: a Star Player Roll is due).
    can_advance: bool = False
    #: BB2020/BB2025: enough SPP banked that the player must advance before the next game.
    must_spend: bool = False


@dataclass(frozen=True, slots=True)
class PositionSlot:
    """A roster position during the draft: price, how many taken, whether one more fits."""

    position: Position
    hired: int
    can_hire: bool


@dataclass(frozen=True, slots=True)
class ItemLine:
    item: str
    name: str
    count: int
    price: int
    refusal: str | None


@dataclass(frozen=True, slots=True)
class TeamSheet:
    team: Team
    ruleset: Ruleset
    team_type: TeamType
    values: TeamValues
    lines: list[PlayerLine]
    former: list[PlayerLine]
    slots: list[PositionSlot]
    items: list[ItemLine]


def current_stats(ruleset: Ruleset, position: Position, player: Player) -> dict[str, int | None]:
    """The position's characteristics with the player's improvements and injuries applied."""
    stats = dict(position.stats)
    for advancement in player.active_advancements:
        if advancement.characteristic:
            characteristic = advancement.characteristic
            stats[characteristic] = improved_value(ruleset, characteristic, stats[characteristic])
    for characteristic in ruleset.characteristics:
        start = stats[characteristic]
        for _ in range(player.reduction(characteristic)):
            reduced = reduced_value(ruleset, characteristic, stats[characteristic], start)
            if reduced is None:
                break
            stats[characteristic] = reduced
    return stats


def _line(ruleset: Ruleset, team_type: TeamType, player: Player) -> PlayerLine:
    position = team_type.position(player.position_id)
    stats = current_stats(ruleset, position, player)
    taken = len(player.active_advancements)
    gained = tuple(a.skill for a in player.active_advancements if a.skill)
    spp = player.spp_earned if ruleset.advancement.mode == "roll" else player.spp_available
    return PlayerLine(
        player=player,
        position=position,
        stats=stats,
        skills=tuple(str(ref) for ref in position.skills),
        gained_skills=gained,
        level=player_level(ruleset, taken, player.spp_earned),
        injured=frozenset(
            c for c in ruleset.characteristics if player.reduction(c) and stats[c] is not None
        ),
        improved=frozenset(
            a.characteristic for a in player.active_advancements if a.characteristic
        ),
        can_advance=player.on_roster and can_advance(ruleset, taken, spp),
        must_spend=player.on_roster and must_spend(ruleset, spp, taken),
    )


def team_sheet(team: Team) -> TeamSheet:
    """Everything the team page shows, computed once (templates do no arithmetic)."""
    ruleset = team_ruleset(team)
    team_type = team_type_of(team)
    on_roster = roster(team)
    lines = [_line(ruleset, team_type, p) for p in on_roster]
    former = [_line(ruleset, team_type, p) for p in team.players if not p.on_roster]
    slots = []
    for position in team_type.positions:
        hired = sum(1 for p in on_roster if p.position_id == position.id)
        slots.append(
            PositionSlot(
                position,
                hired,
                hired < position.max
                and len(on_roster) < ruleset.team_building.max_players
                and position.cost <= team.treasury,
            )
        )
    counts = {
        "reroll": team.rerolls,
        "apothecary": int(team.apothecary),
        "assistant_coach": team.assistant_coaches,
        "cheerleader": team.cheerleaders,
        "dedicated_fan": team.dedicated_fans,
    }
    items = []
    for item in ITEMS:
        if item == "apothecary" and not team_type.apothecary:
            continue
        price = item_price(team, item)
        refusal = item_refusal(team, item)
        if refusal is None and price > team.treasury:
            refusal = f"Costs {price:,}; the treasury holds {team.treasury:,}."
        items.append(ItemLine(item, ITEM_NAMES[item], counts[item], price, refusal))
    return TeamSheet(team, ruleset, team_type, team_values(team), lines, former, slots, items)
