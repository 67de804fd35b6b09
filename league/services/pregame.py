"""A match's pre-game: each side records its journeymen, inducements, stars and mercenaries.

The rules (league.rules.match_day) decide every number; this module reads the
teams, asks the rules, checks who may write, and stores the side's choices. The
treasury is not touched here: what a side spends from it is stored on the side
(`treasury_spent`) for the result to book; petty cash never reaches a treasury.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import Match, PregameItem, PregameSide, Team, User
from league.models.match import SIDES
from league.rules import (
    Decision,
    MercenaryOrder,
    Position,
    PreGameOrder,
    PreGameSide,
    RosterPlayer,
    Ruleset,
    TeamType,
    ctv_with_journeymen,
    inducement_price,
    journeyman_decision,
    journeyman_positions,
    journeymen_needed,
    mercenary_cost,
    order_cost,
    order_decision,
    petty_cash,
    reason_text,
    settle,
    star_hire,
    treasury_allowance,
    turn_decision,
)
from league.rules.model import frozen_mapping
from league.services import audit
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import get_match
from league.services.postgame import sync_match_day_players
from league.services.rosters import team_values
from league.services.teams import can_manage, roster, team_ruleset, team_type_of

#: The form / API field each refusal belongs to.
REASON_FIELDS = {
    "not_journeyman_position": "journeymen",
    "journeymen_not_needed": "journeymen",
    "unknown_inducement": "inducements",
    "not_eligible": "inducements",
    "over_limit": "inducements",
    "negative_count": "inducements",
    "unknown_star": "star_players",
    "star_not_eligible": "star_players",
    "duplicate_star": "star_players",
    "too_many_stars": "star_players",
    "too_many_mercenaries": "mercenaries",
    "unknown_position": "mercenaries",
    "unknown_skill": "mercenaries",
    "skill_already_held": "mercenaries",
    "skill_not_primary": "mercenaries",
    "position_full": "mercenaries",
    "no_roster_place": "star_players",
    "over_budget": "treasury",
}


@dataclass(frozen=True, slots=True)
class SideChoices:
    """What a coach asks for one side (API: PUT /matches/{id}/pregame/{side})."""

    #: One position id per journeyman (empty: the only journeyman position, as needed).
    journeymen: tuple[str, ...] = ()
    inducements: Mapping[str, int] = field(default_factory=frozen_mapping)
    stars: tuple[str, ...] = ()
    mercenaries: tuple[MercenaryOrder, ...] = ()
    #: Most of its treasury the side will spend (None: as much as the rules allow).
    treasury: int | None = None


@dataclass(frozen=True, slots=True)
class SideFacts:
    """One side as the rules see it before it chooses."""

    team: Team
    ruleset: Ruleset
    available: int
    journeymen_needed: int
    #: CTV without journeymen.
    ctv: int
    position_counts: Mapping[str, int]


def side_facts(team: Team) -> SideFacts:
    ruleset = team_ruleset(team)
    players = [
        RosterPlayer(p.position_id, p.value - p.cost, miss_next_game=p.status == "mng")
        for p in roster(team)
    ]
    needed = journeymen_needed(ruleset, players)
    return SideFacts(
        team=team,
        ruleset=ruleset,
        available=sum(1 for p in players if not p.miss_next_game),
        journeymen_needed=needed,
        ctv=team_values(team).current_team_value,
        position_counts=Counter(p.position_id for p in roster(team)),
    )


def saved_side(session: Session, match: Match, side: str) -> PregameSide | None:
    return session.scalar(
        select(PregameSide).where(PregameSide.match_id == match.id, PregameSide.side == side)
    )


def _journeymen(facts: SideFacts, asked: tuple[str, ...]) -> tuple[str, ...]:
    """The journeymen's positions, checked; the only position fills in when none is named."""
    team_type = team_type_of(facts.team)
    positions = journeyman_positions(facts.ruleset, team_type)
    if not asked and len(positions) == 1:
        asked = (positions[0].id,) * facts.journeymen_needed
    if len(asked) != facts.journeymen_needed:
        raise RuleViolation(
            f"{facts.team.name} needs {facts.journeymen_needed} journeymen "
            f"({len(asked)} named); choose a position for each "
            f"({', '.join(p.name for p in positions)}).",
            code="journeymen_count",
            field="journeymen",
        )
    for taken, position_id in enumerate(asked):
        _refuse_unless(
            journeyman_decision(
                facts.ruleset, team_type, position_id, facts.journeymen_needed, taken
            )
        )
    return asked


def _refuse_unless(decision: Decision) -> None:
    if decision:
        return
    first = decision.reasons[0]
    raise RuleViolation(
        " ".join(dict.fromkeys(reason_text(r) for r in decision.reasons)),
        code=first.code,
        field=REASON_FIELDS.get(first.code),
    )


def _default_ctv(facts: SideFacts) -> int:
    """CTV of a side that has not chosen yet, with its first journeyman position."""
    positions = journeyman_positions(facts.ruleset, team_type_of(facts.team))
    journeymen = [positions[0]] * facts.journeymen_needed if positions else []
    return ctv_with_journeymen(facts.ruleset, team_type_of(facts.team), facts.ctv, journeymen)


def _standing(saved: PregameSide | None, team: Team) -> tuple[int, int]:
    """A side's CTV and treasury spend: as saved, or (not chosen yet) with default journeymen."""
    if saved is not None:
        return saved.ctv, saved.treasury_spent
    return _default_ctv(side_facts(team)), 0


@dataclass(frozen=True, slots=True)
class SideView:
    """One side of the pre-game as a page or the API shows it."""

    side: str
    facts: SideFacts
    journeyman_positions: tuple[Position, ...]
    ctv: int
    petty_cash: int
    #: The most of its treasury it may spend on inducements.
    treasury_allowance: int
    #: May it choose now? (The lower team waits where the edition says so.)
    turn: Decision
    saved: PregameSide | None


@dataclass(frozen=True, slots=True)
class PregameView:
    home: SideView
    away: SideView


def pregame_view(session: Session, match: Match) -> PregameView:
    """Both sides: CTVs with journeymen, petty cash, treasury each may spend, whose turn."""
    saved = {side: saved_side(session, match, side) for side in SIDES}
    standing = {side: _standing(saved[side], match.side(side).team) for side in SIDES}
    views = {}
    for side in SIDES:
        other = "away" if side == "home" else "home"
        facts = side_facts(match.side(side).team)
        ruleset = facts.ruleset
        ctv, other_ctv = standing[side][0], standing[other][0]
        views[side] = SideView(
            side=side,
            facts=facts,
            journeyman_positions=journeyman_positions(ruleset, team_type_of(facts.team)),
            ctv=ctv,
            petty_cash=petty_cash(ruleset, ctv, other_ctv, standing[other][1]),
            treasury_allowance=treasury_allowance(
                ruleset, ctv, other_ctv, match.side(side).team.treasury
            ),
            turn=turn_decision(ruleset, ctv, other_ctv, saved[other] is not None),
            saved=saved[side],
        )
    return PregameView(home=views["home"], away=views["away"])


def record_side(
    session: Session, actor: User, match_id: int, side: str, choices: SideChoices
) -> PregameSide:
    """Save one side's pre-game choices, or refuse with the rules' reason (nothing saved)."""
    if side not in SIDES:
        raise RuleViolation("The side is home or away.", code="invalid_side", field="side")
    match = get_match(session, match_id, for_update=True)
    if match.state != "scheduled":
        raise Conflict("The pre-game is chosen before the result is recorded.")
    own_team = match.side(side).team
    other_side = "away" if side == "home" else "home"
    other_team = match.side(other_side).team
    if not can_manage(own_team, actor):
        raise Forbidden(f"Only {own_team.name}'s coach or a commissioner chooses its pre-game.")
    facts = side_facts(own_team)
    ruleset = facts.ruleset
    if ruleset.match_day is None:
        raise RuleViolation(f"{ruleset.name} has no pre-game sequence.", code="no_pregame")
    team_type = team_type_of(own_team)
    journeymen = _journeymen(facts, choices.journeymen)
    ctv = ctv_with_journeymen(ruleset, team_type, facts.ctv, journeymen)

    other_saved = saved_side(session, match, other_side)
    other_ctv, other_spent = _standing(other_saved, other_team)
    petty = petty_cash(ruleset, ctv, other_ctv, other_spent)
    treasury = own_team.treasury
    if choices.treasury is not None:
        treasury = max(0, min(treasury, choices.treasury))
    order = PreGameOrder(
        inducements=frozen_mapping({k: v for k, v in choices.inducements.items() if v}),
        stars=choices.stars,
        mercenaries=choices.mercenaries,
    )
    _refuse_unless(
        order_decision(
            ruleset,
            PreGameSide(
                team_type,
                ctv=ctv,
                treasury=treasury,
                players=facts.available + len(journeymen),
                position_counts=facts.position_counts,
            ),
            order,
            petty,
            other_ctv,
            other_done=other_saved is not None,
        )
    )
    paid = settle(petty, order_cost(ruleset, team_type, order))
    if other_saved is not None and other_saved.petty_cash != petty_cash(
        ruleset, other_saved.ctv, ctv, paid.from_treasury
    ):
        raise Conflict(
            f"{other_team.name} has chosen with the petty cash your CTV and spending gave it; "
            "a commissioner must clear its choices before yours change."
        )

    saved = saved_side(session, match, side) or PregameSide(
        match_id=match.id, side=side, team_id=own_team.id
    )
    saved.ctv = ctv
    saved.petty_cash = petty
    saved.total = paid.from_petty_cash + paid.from_treasury
    saved.treasury_spent = paid.from_treasury
    saved.updated_by_id = actor.id
    saved.items = _items(ruleset, team_type, journeymen, order)
    session.add(saved)
    session.flush()
    sync_match_day_players(session, match)  # the side's journeymen, mercenaries and stars
    audit.record(session, actor, "match.pregame", "match", match.id, side=side, total=saved.total)
    return saved


def _items(
    ruleset: Ruleset, team_type: TeamType, journeymen: tuple[str, ...], order: PreGameOrder
) -> list[PregameItem]:
    items = [PregameItem(kind="journeyman", ref=position_id) for position_id in journeymen]
    items += [
        PregameItem(
            kind="inducement",
            ref=item_id,
            count=count,
            cost=inducement_price(ruleset, team_type, item_id) * count,
        )
        for item_id, count in order.inducements.items()
    ]
    for hire_id in order.stars:
        hire = star_hire(ruleset, hire_id)
        items.append(PregameItem(kind="star", ref=hire.id, cost=hire.cost))
    items += [
        PregameItem(
            kind="mercenary",
            ref=merc.position,
            skill=merc.skill,
            cost=mercenary_cost(ruleset, team_type.position(merc.position), merc.skill),
        )
        for merc in order.mercenaries
    ]
    return items
