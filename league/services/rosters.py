"""Read-side views of teams: TV and CTV from the rules, rows for league pages."""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, Select, and_, bindparam, func, inspect, select
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from league.i18n import current_language
from league.models import Advancement, League, Player, Team, TreasuryEntry, User
from league.models.player import ON_ROSTER
from league.rules import (
    Decision,
    Position,
    Ruleset,
    TeamType,
    can_advance,
    current_characteristics,
    must_spend,
    player_level,
)
from league.rules.refusals import refusal_text
from league.rules.team_building import give_back_decision
from league.rules.team_value import RosterPlayer, Staff, current_team_value, team_value
from league.services.access import roster, team_ruleset, team_type_of
from league.services.teams import ITEM_NAMES, ITEMS, hire_refusals, item_quote, team_counts


@dataclass(frozen=True, slots=True)
class TeamValues:
    team_value: int
    current_team_value: int


def team_values(team: Team) -> TeamValues:
    """TV and CTV of the team as it stands, by the league's ruleset."""
    return _values(team, [(p.position_id, p.value, p.cost, p.status) for p in roster(team)])


def _values(team: Team, on_roster: Iterable[tuple[str, int, int, str]]) -> TeamValues:
    """TV and CTV from the roster's (position, value, cost, status) rows."""
    ruleset = team_ruleset(team)
    team_type = team_type_of(team)
    players = [
        RosterPlayer(
            position=position_id,
            value_increases=value - cost,
            miss_next_game=status == "mng",
        )
        for position_id, value, cost, status in on_roster
    ]
    staff = Staff(
        rerolls=team.rerolls,
        assistant_coaches=team.assistant_coaches,
        cheerleaders=team.cheerleaders,
        apothecary=team.apothecary,
        dedicated_fans=team.dedicated_fans,
        league_trophy=team.league_trophy,
    )
    return TeamValues(
        team_value(ruleset, team_type, players, **staff),
        current_team_value(ruleset, team_type, players, **staff),
    )


@dataclass(frozen=True, slots=True)
class TeamRow:
    team: Team
    #: In the reader's language.
    team_type_name: str
    players: int
    values: TeamValues


def league_team_rows(session: Session, league: League) -> list[TeamRow]:
    """Every team of the league with its roster size and TV, in one query.

    The teams (with their coaches) come with the columns the values need of the players
    on their rosters (not whole players with their advancements), a row per player; a
    league loaded without its teams (`access.get_league`) gets them as it would have.
    """
    teams: dict[int, Team] = {}
    rosters: dict[int, list[tuple[str, int, int, str]]] = {}
    for team, *row in session.execute(
        select(Team, Player.position_id, Player.value, Player.cost, Player.status)
        .outerjoin(Player, and_(Player.team_id == Team.id, Player.status.in_(ON_ROSTER)))
        .where(Team.league_id == league.id)
        .order_by(Team.name, Team.id, Player.number, Player.id)
        .options(joinedload(Team.coach))
    ):
        teams.setdefault(team.id, team)
        players = rosters.setdefault(team.id, [])
        if row[0] is not None:  # a team without players has one row, without a player
            players.append(tuple(row))
    if "teams" in inspect(league).unloaded:
        set_committed_value(league, "teams", list(teams.values()))
    return [
        TeamRow(
            team,
            team_ruleset(team).text(current_language()).team_type_name(team.team_type_id),
            len(rosters[team.id]),
            _values(team, rosters[team.id]),
        )
        for team in teams.values()
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
    """A roster position: price, how many taken, and why one more cannot be hired (if not)."""

    position: Position
    hired: int
    #: The rules' first reason against one more, in a few words; None: it may be hired.
    refusal: str | None = None

    @property
    def can_hire(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True, slots=True)
class ItemLine:
    item: str
    #: English; pages show `league.rules.purchase_item_name(item)`, in the reader's language.
    name: str
    count: int
    price: int
    refusal: str | None
    #: During the draft, one of these may be given back for its price.
    can_give_back: bool = False


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


def _first_refusal(decision: Decision, team: Team, *, short: bool = False) -> str | None:
    """The rules' first reason against it, phrased; None when it is allowed."""
    if decision:
        return None
    return refusal_text(decision.reasons[0], team=team.name, short=short)


def current_stats(ruleset: Ruleset, position: Position, player: Player) -> dict[str, int | None]:
    """The position's characteristics with the player's improvements and injuries applied."""
    improved = Counter(a.characteristic for a in player.active_advancements if a.characteristic)
    reductions = {c: player.reduction(c) for c in ruleset.characteristics}
    return current_characteristics(ruleset, position.stats, improved, reductions)


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
    # Match-day players (unhired journeymen, mercenaries, stars) were never on the books.
    former = [
        _line(ruleset, team_type, p)
        for p in team.players
        if not p.on_roster and not p.match_day_only
    ]
    hires = hire_refusals(team)
    slots = [
        PositionSlot(
            position,
            sum(1 for p in on_roster if p.position_id == position.id),
            _first_refusal(hires[position.id], team, short=True),
        )
        for position in team_type.positions
    ]
    counts = {
        "reroll": team.rerolls,
        "apothecary": int(team.apothecary),
        "assistant_coach": team.assistant_coaches,
        "cheerleader": team.cheerleaders,
        "dedicated_fan": team.dedicated_fans,
    }
    held, drafting = team_counts(team), team.status == "draft"
    items = []
    for item in ITEMS:
        if item == "apothecary" and not team_type.apothecary:
            continue
        quote = item_quote(team, item)
        items.append(
            ItemLine(
                item,
                ITEM_NAMES[item],
                counts[item],
                quote.price,
                _first_refusal(quote.decision, team),
                bool(give_back_decision(ruleset, item, held, drafting)),
            )
        )
    return TeamSheet(team, ruleset, team_type, team_values(team), lines, former, slots, items)


def team_page_version(session: Session, team_id: int) -> str | None:
    """A fingerprint of everything the team page and the roster API show; None: no team.

    Two small queries instead of loading the team: the team row with its league,
    coach and the ledger's and advancements' totals, and the players' rows. Any
    change a service makes shows in it: team and player rows are read whole, the
    ledger is append-only (count, last id and time, sum) and advancements are only
    ever added or undone (count, last id and time, undone count, last undo). The
    timestamps (microseconds) tell apart rows of a database restored from a backup
    and changed differently since.
    """
    head_query, players_query = _version_queries()
    # Plain Core statements on the session's connection: no ORM machinery per row.
    connection = session.connection()
    head = connection.execute(head_query, {"team_id": team_id}).first()
    if head is None:
        return None
    players = connection.execute(players_query, {"team_id": team_id}).all()
    digest = hashlib.blake2b(digest_size=16)
    for row in (head, *players):
        digest.update(repr(tuple(row)).encode())
        digest.update(b"\n")
    return digest.hexdigest()


@functools.cache
def _version_queries() -> tuple[Select[Any], Select[Any]]:
    """The two statements of `team_page_version`, built once (they run on every visit)."""
    team_id = bindparam("team_id", type_=Integer)
    of_team = Player.team_id == team_id
    advancements = [
        select(aggregate)
        .join(Player, Player.id == Advancement.player_id)
        .where(of_team)
        .scalar_subquery()
        for aggregate in (
            func.count(Advancement.id),
            func.max(Advancement.id),
            func.max(Advancement.created_at),
            func.count(Advancement.undone_at),
            func.max(Advancement.undone_at),
        )
    ]
    ledger = [
        select(aggregate).where(TreasuryEntry.team_id == team_id).scalar_subquery()
        for aggregate in (
            func.count(TreasuryEntry.id),
            func.max(TreasuryEntry.id),
            func.max(TreasuryEntry.created_at),
            func.sum(TreasuryEntry.amount),
        )
    ]
    head = (
        select(
            *Team.__table__.columns,
            League.name,
            League.ruleset_id,
            League.starting_treasury,
            League.house_rules,
            League.table_dice_allowed,
            League.default_language,
            League.roster_deadline,
            League.correction_deadline,
            User.username,
            *advancements,
            *ledger,
        )
        .join(League, League.id == Team.league_id)
        .join(User, User.id == Team.coach_id)
        .where(Team.id == team_id)
    )
    players = select(*Player.__table__.columns).where(of_team).order_by(Player.id)
    return head, players
