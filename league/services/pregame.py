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

from league.i18n import format_list, gettext, ngettext
from league.models import Match, PregameItem, PregameSide, Team, User
from league.models.match import SIDES
from league.rules import (
    AllowanceBasis,
    Decision,
    MercenaryOrder,
    Position,
    PreGameOrder,
    PreGameSide,
    RosterPlayer,
    Ruleset,
    StarHire,
    TeamType,
    ctv_with_journeymen,
    eligible_inducements,
    eligible_stars,
    inducement_limit,
    inducement_price,
    journeyman_decision,
    journeyman_positions,
    journeymen_needed,
    match_day_rules,
    mercenary_cost,
    order_cost,
    order_decision,
    petty_cash,
    settle,
    star_decision,
    star_hire,
    stars_fielded,
    treasury_allowance,
    treasury_allowance_basis,
    turn_decision,
)
from league.rules.model import frozen_mapping
from league.rules.refusals import refusal_text
from league.services import audit
from league.services.access import can_manage, may_manage_team, roster, team_ruleset, team_type_of
from league.services.errors import Conflict, RuleViolation
from league.services.matches import get_match
from league.services.postgame import sync_match_day_players
from league.services.rosters import team_values

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


def _no_pregame(ruleset: Ruleset) -> RuleViolation:
    return RuleViolation(
        gettext("%(ruleset)s has no pre-game sequence.", ruleset=ruleset.name), code="no_pregame"
    )


def _journeymen(facts: SideFacts, asked: tuple[str, ...]) -> tuple[str, ...]:
    """The journeymen's positions, checked; the only position fills in when none is named."""
    team_type = team_type_of(facts.team)
    positions = journeyman_positions(facts.ruleset, team_type)
    if not asked and len(positions) == 1:
        asked = (positions[0].id,) * facts.journeymen_needed
    if len(asked) != facts.journeymen_needed:
        raise RuleViolation(
            ngettext(
                "%(team)s needs %(num)d journeyman (%(named)d named); choose a position for "
                "him (%(positions)s).",
                "%(team)s needs %(num)d journeymen (%(named)d named); choose a position for "
                "each (%(positions)s).",
                facts.journeymen_needed,
                team=facts.team.name,
                named=len(asked),
                positions=format_list([p.name for p in positions], "or"),
            ),
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
        " ".join(dict.fromkeys(refusal_text(r) for r in decision.reasons)),
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
    #: The most of its treasury it may spend on inducements, and the rule behind it.
    treasury_allowance: int
    allowance_basis: AllowanceBasis
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
            allowance_basis=treasury_allowance_basis(ruleset, ctv, other_ctv),
            turn=turn_decision(ruleset, ctv, other_ctv, saved[other] is not None),
            saved=saved[side],
        )
    return PregameView(home=views["home"], away=views["away"])


def record_side(
    session: Session, actor: User, match_id: int, side: str, choices: SideChoices
) -> PregameSide:
    """Save one side's pre-game choices, or refuse with the rules' reason (nothing saved)."""
    if side not in SIDES:
        raise RuleViolation(gettext("The side is home or away."), code="invalid_side", field="side")
    match = get_match(session, match_id, for_update=True)
    if match.state != "scheduled":
        raise Conflict(gettext("The pre-game is chosen before the result is recorded."))
    own_team = match.side(side).team
    other_side = "away" if side == "home" else "home"
    other_team = match.side(other_side).team
    may_manage_team(own_team, actor, "pregame").require()
    facts = side_facts(own_team)
    ruleset = facts.ruleset
    if ruleset.match_day is None:
        raise _no_pregame(ruleset)
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
            gettext(
                "%(team)s has chosen with the petty cash your CTV and spending gave it; "
                "a commissioner must clear its choices before yours change.",
                team=other_team.name,
            )
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


# ---------------------------------------------------------------------------
# What the pre-match page and the API read

#: Where the pre-game stands: the higher team must choose first ("home_first" /
#: "away_first"), either side may choose ("open"), both have ("ready"), or the match
#: is no longer scheduled ("closed").
STAGES = ("home_first", "away_first", "open", "ready", "closed")


def has_pregame(match: Match) -> bool:
    """Does the match's ruleset have a pre-game sequence?"""
    return team_ruleset(match.home.team).match_day is not None


def stage(match: Match, view: PregameView) -> str:
    if match.state != "scheduled":
        return "closed"
    if view.home.saved is not None and view.away.saved is not None:
        return "ready"
    for side in (view.home, view.away):
        if not side.turn:
            return "away_first" if side.side == "home" else "home_first"
    return "open"


def may_choose(match: Match, side: str, actor: User | None) -> bool:
    """May ``actor`` fill in ``side`` (its coach, or a commissioner) while it is scheduled?"""
    return match.state == "scheduled" and can_manage(match.side(side).team, actor)


@dataclass(frozen=True, slots=True)
class InducementOffer:
    id: str
    name: str
    price: int
    limit: int
    summary: str


@dataclass(frozen=True, slots=True)
class SideOffer:
    """What one team may choose: its eligible inducements, star hires and positions."""

    inducements: tuple[InducementOffer, ...]
    #: Eligible stars, a pair as one hire (its fee once, two roster places).
    stars: tuple[StarHire, ...]
    #: Positions a mercenary may take.
    mercenary_positions: tuple[Position, ...]


def side_offer(team: Team) -> SideOffer:
    ruleset = team_ruleset(team)
    team_type = team_type_of(team)
    inducements = tuple(
        InducementOffer(
            item.id,
            item.name,
            inducement_price(ruleset, team_type, item.id),
            inducement_limit(ruleset, team_type, item.id),
            item.summary,
        )
        for item in eligible_inducements(ruleset, team_type)
    )
    hires: dict[str, StarHire] = {}
    for star in eligible_stars(ruleset, team_type):
        hire = star_hire(ruleset, star.id)
        if hire.id not in hires and star_decision(ruleset, team_type, hire.id):
            hires[hire.id] = hire
    return SideOffer(
        inducements=inducements,
        stars=tuple(sorted(hires.values(), key=lambda h: (h.cost, h.name))),
        mercenary_positions=team_type.positions,
    )


@dataclass(frozen=True, slots=True)
class ChosenStar:
    hire: StarHire
    #: False: the other team hired him too and the edition fields him for neither.
    plays: bool


def chosen_stars(view: PregameView, side: str) -> tuple[ChosenStar, ...]:
    """A side's saved star hires, each with whether he takes the field (BB2020: a star
    both teams hired plays for neither; BB2025: for both)."""
    own = view.home if side == "home" else view.away
    other = view.away if side == "home" else view.home
    if own.saved is None:
        return ()
    ruleset = own.facts.ruleset
    own_ids = [i.ref for i in own.saved.items if i.kind == "star"]
    other_ids = [i.ref for i in other.saved.items if i.kind == "star"] if other.saved else []
    fielded = set(stars_fielded(ruleset, own_ids, other_ids))
    return tuple(ChosenStar(star_hire(ruleset, h), h in fielded) for h in own_ids)


def saved_choices(saved: PregameSide | None) -> SideChoices:
    """A saved side as the choices that would save it again (to fill in a form)."""
    if saved is None:
        return SideChoices()
    items = saved.items
    return SideChoices(
        journeymen=tuple(i.ref for i in items if i.kind == "journeyman"),
        inducements=frozen_mapping({i.ref: i.count for i in items if i.kind == "inducement"}),
        stars=tuple(i.ref for i in items if i.kind == "star"),
        mercenaries=tuple(MercenaryOrder(i.ref, i.skill) for i in items if i.kind == "mercenary"),
    )


def get_pregame(session: Session, match_id: int) -> tuple[Match, PregameView]:
    """The match and both sides of its pre-game (a RuleViolation when the ruleset has none)."""
    match = get_match(session, match_id)
    if not has_pregame(match):
        raise _no_pregame(team_ruleset(match.home.team))
    return match, pregame_view(session, match)


@dataclass(frozen=True, slots=True)
class ItemLine:
    """One saved choice of a side, named for people."""

    kind: str
    ref: str
    name: str
    count: int
    cost: int
    skill: str | None = None


def item_lines(view: SideView) -> tuple[ItemLine, ...]:
    """The side's saved journeymen, inducements, stars and mercenaries, with their names."""
    if view.saved is None:
        return ()
    ruleset = view.facts.ruleset
    md = match_day_rules(ruleset)
    team_type = team_type_of(view.facts.team)
    lines = []
    for item in view.saved.items:
        if item.kind in ("journeyman", "mercenary"):
            name = team_type.position(item.ref).name
        elif item.kind == "inducement":
            name = md.inducement(item.ref).name
        else:
            name = star_hire(ruleset, item.ref).name
        lines.append(ItemLine(item.kind, item.ref, name, item.count, item.cost, item.skill))
    return tuple(lines)
