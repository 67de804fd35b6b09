"""The pre-game sequence: journeymen, CTV, petty cash, inducements, stars, mercenaries.

Every number comes from the ruleset's ``match_day.toml`` and
``star_players.toml`` (``Ruleset.match_day``). Refusals are :class:`Decision`
reasons; :func:`reason_text` turns one into a sentence for people.

The sequence, as the editions run it: each short team takes journeymen up to
``fill_to`` available players; both CTVs are worked out with them; the team
with the higher CTV may buy from its treasury (first, where the edition says
so); the lower team gets petty cash (the CTV gap, plus what the higher team
spent where the edition says so) and may add treasury up to a cap. Petty cash
is spent before treasury; what is left of it is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from league.i18n import format_number, gettext
from league.rules.model import (
    Decision,
    Inducement,
    JourneymenRules,
    MatchDay,
    Position,
    Reason,
    ReducedPrice,
    RulesError,
    Ruleset,
    StarPlayer,
    TeamType,
    frozen_mapping,
    make_reason,
    parse_skill_ref,
)
from league.rules.team_value import RosterPlayer, is_low_cost_lineman

__all__ = [
    "AllowanceBasis",
    "MercenaryOrder",
    "PreGameOrder",
    "PreGameSide",
    "Settlement",
    "StarHire",
    "available_players",
    "ctv_with_journeymen",
    "eligible_inducements",
    "eligible_stars",
    "inducement_decision",
    "inducement_limit",
    "inducement_price",
    "is_journeyman_position",
    "journeyman_decision",
    "journeyman_hire_decision",
    "journeyman_hire_price",
    "journeyman_positions",
    "journeyman_value",
    "journeymen_needed",
    "match_day_rules",
    "mercenary_cost",
    "order_cost",
    "order_decision",
    "petty_cash",
    "reason_text",
    "rule_matches",
    "settle",
    "star_decision",
    "star_hire",
    "stars_fielded",
    "treasury_allowance",
    "treasury_allowance_basis",
    "turn_decision",
]


def match_day_rules(ruleset: Ruleset) -> MatchDay:
    """The ruleset's pre-game rules (a :class:`RulesError` when it has none)."""
    if ruleset.match_day is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no match-day rules")
    return ruleset.match_day


def rule_matches(pattern: str, rule: str) -> bool:
    """``"Favoured of..."`` matches every rule starting with ``"Favoured of"``."""
    if pattern.endswith("..."):
        return rule.startswith(pattern[:-3])
    return rule == pattern


# ---------------------------------------------------------------------------
# Journeymen


def is_journeyman_position(rules: JourneymenRules, position: Position) -> bool:
    """May ``position`` provide journeymen (its quantity, and keyword where set)?"""
    if position.max not in rules.position_max:
        return False
    return rules.keyword is None or rules.keyword in position.keywords


def journeyman_positions(ruleset: Ruleset, team_type: TeamType) -> tuple[Position, ...]:
    """The positions a journeyman of this team may take (the coach picks if several)."""
    rules = match_day_rules(ruleset).journeymen
    return tuple(p for p in team_type.positions if is_journeyman_position(rules, p))


def available_players(players: Iterable[RosterPlayer]) -> int:
    """Players who can take the field: not dead, not missing the game, not retired."""
    return sum(1 for p in players if not (p.dead or p.miss_next_game or p.temporarily_retired))


def journeymen_needed(ruleset: Ruleset, players: Iterable[RosterPlayer]) -> int:
    """Journeymen that bring the team up to ``fill_to`` (11) available players."""
    return max(0, match_day_rules(ruleset).journeymen.fill_to - available_players(players))


def journeyman_value(ruleset: Ruleset, team_type: TeamType, position: Position) -> int:
    """What one journeyman adds to CTV: the position's fee, 0 for Low Cost Linemen."""
    if not match_day_rules(ruleset).journeymen.counts_in_ctv:
        return 0
    if is_low_cost_lineman(ruleset, team_type, position):
        return 0
    return position.cost


def ctv_with_journeymen(
    ruleset: Ruleset, team_type: TeamType, ctv: int, journeymen: Iterable[str | Position]
) -> int:
    """The team's CTV once its journeymen (positions or position ids) are added."""
    total = ctv
    for journeyman in journeymen:
        position = (
            journeyman if isinstance(journeyman, Position) else team_type.position(journeyman)
        )
        total += journeyman_value(ruleset, team_type, position)
    return total


def journeyman_decision(
    ruleset: Ruleset, team_type: TeamType, position_id: str, needed: int, taken: int
) -> Decision:
    """May the team take one more journeyman of ``position_id``?"""
    reasons: list[Reason] = []
    allowed = {p.id for p in journeyman_positions(ruleset, team_type)}
    if position_id not in allowed:
        reasons.append(
            make_reason("not_journeyman_position", position=position_id, allowed=sorted(allowed))
        )
    if taken >= needed:
        reasons.append(make_reason("journeymen_not_needed", needed=needed))
    return Decision.from_reasons(reasons)


def journeyman_hire_price(ruleset: Ruleset, position: Position, value_increases: int) -> int:
    """Gold to keep a journeyman after the game, as the edition prices it."""
    if match_day_rules(ruleset).journeymen.hire.price == "position_cost":
        return position.cost
    return position.cost + value_increases


def journeyman_hire_decision(
    ruleset: Ruleset, price: int, treasury: int, roster_size: int
) -> Decision:
    """May the team hire the journeyman permanently (``roster_size``: without him)?"""
    reasons: list[Reason] = []
    if match_day_rules(ruleset).journeymen.hire.needs_room and (
        roster_size >= ruleset.team_building.max_players
    ):
        reasons.append(make_reason("roster_full", max=ruleset.team_building.max_players))
    if price > treasury:
        reasons.append(make_reason("not_enough_gold", cost=price, treasury=treasury))
    return Decision.from_reasons(reasons)


# ---------------------------------------------------------------------------
# Petty cash and the treasury


def petty_cash(ruleset: Ruleset, own_ctv: int, other_ctv: int, other_treasury_spent: int) -> int:
    """Petty cash of one side: 0 for the higher (or equal) team.

    The lower team gets the CTV gap, plus what the higher team spent from its
    treasury where the edition adds it.
    """
    if own_ctv >= other_ctv:
        return 0
    rules = match_day_rules(ruleset).petty_cash
    extra = other_treasury_spent if rules.higher_spend_adds_to_petty_cash else 0
    return other_ctv - own_ctv + extra


@dataclass(frozen=True, slots=True)
class AllowanceBasis:
    """Why a side may spend what it may of its treasury: its CTV against the other's
    ("higher", "equal" or "lower"), whether it may spend any, and the edition's cap."""

    standing: str
    allowed: bool
    cap: int | None


def treasury_allowance_basis(ruleset: Ruleset, own_ctv: int, other_ctv: int) -> AllowanceBasis:
    """The rule behind `treasury_allowance`, for a page to explain the figure."""
    rules = match_day_rules(ruleset).petty_cash
    if own_ctv > other_ctv:
        return AllowanceBasis("higher", True, None)
    if own_ctv == other_ctv:
        return AllowanceBasis("equal", rules.equal_ctv_treasury, None)
    cap = rules.lower_adds_treasury_max
    return AllowanceBasis("lower", cap != 0, cap)


def treasury_allowance(ruleset: Ruleset, own_ctv: int, other_ctv: int, treasury: int) -> int:
    """The most of its treasury one side may spend on inducements."""
    basis = treasury_allowance_basis(ruleset, own_ctv, other_ctv)
    treasury = max(0, treasury)
    if not basis.allowed:
        return 0
    return treasury if basis.cap is None else min(treasury, basis.cap)


def turn_decision(ruleset: Ruleset, own_ctv: int, other_ctv: int, other_done: bool) -> Decision:
    """May this side choose now? The lower team waits for the higher where the edition says."""
    rules = match_day_rules(ruleset).petty_cash
    if rules.higher_spends_first and own_ctv < other_ctv and not other_done:
        return Decision.deny("not_your_turn")
    return Decision.allow()


@dataclass(frozen=True, slots=True)
class Settlement:
    """Who pays for a side's purchases."""

    from_petty_cash: int
    from_treasury: int
    #: Petty cash left over: it is lost, never added to the treasury.
    petty_cash_lost: int


def settle(petty: int, cost: int) -> Settlement:
    """Petty cash pays first; the treasury pays only the rest."""
    if petty < 0 or cost < 0:
        raise RulesError("petty cash and cost cannot be negative")
    used = min(petty, cost)
    return Settlement(from_petty_cash=used, from_treasury=cost - used, petty_cash_lost=petty - used)


# ---------------------------------------------------------------------------
# Inducements


def inducement_price(ruleset: Ruleset, team_type: TeamType, inducement_id: str) -> int:
    """Price of one ``inducement_id`` for this team (a reduced price where it applies)."""
    item = match_day_rules(ruleset).inducement(inducement_id)
    reduced = _reduction(item, team_type)
    return item.cost if reduced is None else reduced.cost


def inducement_limit(ruleset: Ruleset, team_type: TeamType, inducement_id: str) -> int:
    item = match_day_rules(ruleset).inducement(inducement_id)
    reduced = _reduction(item, team_type)
    return item.max if reduced is None or reduced.max is None else reduced.max


def _reduction(item: Inducement, team_type: TeamType) -> ReducedPrice | None:
    return next((r for r in item.reduced if r.applies_to(team_type)), None)


def _eligible(item: Inducement, team_type: TeamType) -> bool:
    if item.needs_apothecary and not team_type.apothecary:
        return False
    if item.team_types and team_type.id not in item.team_types:
        return False
    if item.tiers and team_type.tier not in item.tiers:
        return False
    # "Favoured of..." (Death Zone) stands for every Favoured of rule.
    return not item.special_rules or any(
        rule_matches(pattern, rule)
        for pattern in item.special_rules
        for rule in team_type.special_rules
    )


def inducement_decision(
    ruleset: Ruleset, team_type: TeamType, inducement_id: str, count: int
) -> Decision:
    """May the team hold ``count`` of ``inducement_id``? (Budget: :func:`order_decision`.)"""
    md = match_day_rules(ruleset)
    if inducement_id not in {i.id for i in md.inducements}:
        return Decision.deny("unknown_inducement", item=inducement_id)
    item = md.inducement(inducement_id)
    reasons: list[Reason] = []
    if not _eligible(item, team_type):
        reasons.append(make_reason("not_eligible", item=item.name, team=team_type.name))
    limit = inducement_limit(ruleset, team_type, inducement_id)
    if count > limit:
        reasons.append(make_reason("over_limit", item=item.name, max=limit, count=count))
    return Decision.from_reasons(reasons)


def eligible_inducements(ruleset: Ruleset, team_type: TeamType) -> tuple[Inducement, ...]:
    return tuple(i for i in match_day_rules(ruleset).inducements if _eligible(i, team_type))


# ---------------------------------------------------------------------------
# Star players


@dataclass(frozen=True, slots=True)
class StarHire:
    """One star choice: a single star, or a pair hired together for one fee."""

    id: str
    name: str
    cost: int
    members: tuple[StarPlayer, ...]

    @property
    def roster_places(self) -> int:
        return len(self.members)


def star_hire(ruleset: Ruleset, hire_id: str) -> StarHire:
    """The hire behind a star id or a pair id (a pair member's id hires the pair)."""
    md = match_day_rules(ruleset)
    pair_id = hire_id if hire_id in {p.id for p in md.pairs} else md.star(hire_id).pair
    if pair_id is None:
        star = md.star(hire_id)
        return StarHire(star.id, star.name, star.cost, (star,))
    pair = md.pair(pair_id)
    return StarHire(pair.id, pair.name, pair.cost, tuple(md.star(m) for m in pair.members))


def _plays_for(star: StarPlayer, team_type: TeamType) -> bool:
    if any(rule_matches(p, r) for p in star.plays_for_except for r in team_type.special_rules):
        return False
    if star.any_team or team_type.id in star.plays_for_teams:
        return True
    return any(rule_matches(p, r) for p in star.plays_for for r in team_type.special_rules)


def star_decision(ruleset: Ruleset, team_type: TeamType, hire_id: str) -> Decision:
    """Does this star (or pair) play for the team?"""
    md = match_day_rules(ruleset)
    if hire_id not in {s.id for s in md.stars} | {p.id for p in md.pairs}:
        return Decision.deny("unknown_star", item=hire_id)
    hire = star_hire(ruleset, hire_id)
    if all(_plays_for(star, team_type) for star in hire.members):
        return Decision.allow()
    return Decision.deny("star_not_eligible", item=hire.name, team=team_type.name)


def eligible_stars(ruleset: Ruleset, team_type: TeamType) -> tuple[StarPlayer, ...]:
    """Stars who play for this team ("who can this team hire?")."""
    return tuple(s for s in match_day_rules(ruleset).stars if _plays_for(s, team_type))


def stars_fielded(ruleset: Ruleset, own: Iterable[str], other: Iterable[str]) -> tuple[str, ...]:
    """Own star hires that take the field when the other side hired ``other``.

    A star both teams hired plays for both ("both") or for neither ("neither",
    and he keeps both fees).
    """
    own_ids = [star_hire(ruleset, h).id for h in own]
    if match_day_rules(ruleset).star_rules.same_star == "both":
        return tuple(own_ids)
    theirs = {star_hire(ruleset, h).id for h in other}
    return tuple(h for h in own_ids if h not in theirs)


# ---------------------------------------------------------------------------
# Mercenaries


def mercenary_cost(ruleset: Ruleset, position: Position, skill: str | None = None) -> int:
    """Position fee + the mercenary surcharge (+ the price of one extra skill)."""
    rules = match_day_rules(ruleset).mercenaries
    return position.cost + rules.extra_cost + (rules.skill_cost if skill else 0)


@dataclass(frozen=True, slots=True)
class MercenaryOrder:
    position: str
    skill: str | None = None


def _mercenary_reasons(ruleset: Ruleset, team_type: TeamType, merc: MercenaryOrder) -> list[Reason]:
    try:
        position = team_type.position(merc.position)
    except RulesError:
        return [make_reason("unknown_position", position=merc.position)]
    if not merc.skill:
        return []
    skill = ruleset.find_skill(merc.skill)
    name = parse_skill_ref(merc.skill).name
    if skill is None:
        return [make_reason("unknown_skill", skill=name)]
    if name in position.skill_names:
        return [make_reason("skill_already_held", skill=name, position=position.name)]
    if skill.trait or not skill.buyable or skill.category not in position.primary:
        return [make_reason("skill_not_primary", skill=name, position=position.name)]
    return []


# ---------------------------------------------------------------------------
# One side's whole order


@dataclass(frozen=True, slots=True)
class PreGameOrder:
    """What one side buys: inducement counts, star (or pair) ids, mercenaries."""

    inducements: Mapping[str, int] = field(default_factory=frozen_mapping)
    stars: tuple[str, ...] = ()
    mercenaries: tuple[MercenaryOrder, ...] = ()


@dataclass(frozen=True, slots=True)
class PreGameSide:
    """What the rules need to know of one side."""

    team_type: TeamType
    #: CTV after journeymen.
    ctv: int
    treasury: int
    #: Players who take the field (available players plus journeymen).
    players: int
    #: Rostered players per position id (for the mercenaries' position limits).
    position_counts: Mapping[str, int] = field(default_factory=frozen_mapping)


def order_cost(ruleset: Ruleset, team_type: TeamType, order: PreGameOrder) -> int:
    """Gold the whole order costs (a pair's fee once)."""
    total = sum(
        inducement_price(ruleset, team_type, item_id) * count
        for item_id, count in order.inducements.items()
    )
    total += sum(star_hire(ruleset, hire_id).cost for hire_id in order.stars)
    total += sum(
        mercenary_cost(ruleset, team_type.position(m.position), m.skill) for m in order.mercenaries
    )
    return total


def order_decision(
    ruleset: Ruleset,
    side: PreGameSide,
    order: PreGameOrder,
    petty: int,
    other_ctv: int,
    other_done: bool = True,
) -> Decision:
    """May this side buy ``order``? Checks turn, eligibility, limits, roster places, budget."""
    md = match_day_rules(ruleset)
    team_type = side.team_type
    reasons: list[Reason] = list(turn_decision(ruleset, side.ctv, other_ctv, other_done).reasons)
    for item_id, count in order.inducements.items():
        if count < 0:
            reasons.append(make_reason("negative_count", item=item_id))
        elif count:
            reasons.extend(inducement_decision(ruleset, team_type, item_id, count).reasons)
    hires: list[StarHire] = []
    for hire_id in order.stars:
        decision = star_decision(ruleset, team_type, hire_id)
        reasons.extend(decision.reasons)
        if decision.reason("unknown_star") is None:
            hire = star_hire(ruleset, hire_id)
            if hire.id in {h.id for h in hires}:
                reasons.append(make_reason("duplicate_star", item=hire.name))
            else:
                hires.append(hire)
    chosen = {h.id for h in hires}
    for item_id, count in order.inducements.items():
        if count > 0 and item_id in {i.id for i in md.inducements}:
            item = md.inducement(item_id)
            for star_id in item.excludes_stars:
                if star_hire(ruleset, star_id).id in chosen:
                    reasons.append(
                        make_reason(
                            "excludes_star",
                            item=item.name,
                            star=star_hire(ruleset, star_id).name,
                        )
                    )
    if len(hires) > md.star_rules.max:
        reasons.append(make_reason("too_many_stars", max=md.star_rules.max, count=len(hires)))
    merc_rules = md.mercenaries
    if merc_rules.max is not None and len(order.mercenaries) > merc_rules.max:
        reasons.append(
            make_reason("too_many_mercenaries", max=merc_rules.max, count=len(order.mercenaries))
        )
    per_position: dict[str, int] = {}
    for merc in order.mercenaries:
        merc_reasons = _mercenary_reasons(ruleset, team_type, merc)
        reasons.extend(merc_reasons)
        if not merc_reasons:
            per_position[merc.position] = per_position.get(merc.position, 0) + 1
    for position_id, extra in per_position.items():
        position = team_type.position(position_id)
        if side.position_counts.get(position_id, 0) + extra > position.max:
            reasons.append(make_reason("position_full", position=position.name, max=position.max))
    places = side.players + sum(h.roster_places for h in hires) + len(order.mercenaries)
    if (hires or order.mercenaries) and places > ruleset.team_building.max_players:
        reasons.append(make_reason("no_roster_place", max=ruleset.team_building.max_players))
    if not reasons:
        cost = order_cost(ruleset, team_type, order)
        budget = petty + treasury_allowance(ruleset, side.ctv, other_ctv, side.treasury)
        if cost > budget:
            reasons.append(make_reason("over_budget", cost=cost, budget=budget))
    return Decision.from_reasons(reasons)


# ---------------------------------------------------------------------------
# Words for people


def _gold(amount: object) -> str:
    return format_number(amount) if isinstance(amount, int) else str(amount)


def reason_text(reason: Reason) -> str:
    """One refusal as a sentence a coach reads, in the reader's language."""
    p = reason.params
    texts = {**_inducement_texts(p), **_star_texts(p), **_hire_texts(p)}
    text = texts.get(reason.code)
    return text() if text is not None else reason.code.replace("_", " ")


def _inducement_texts(p: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
    """Whose turn it is, and which inducements and how many."""
    return {
        "not_your_turn": lambda: gettext(
            "The team with the higher CTV chooses first; wait for its choices."
        ),
        "unknown_inducement": lambda: gettext(
            "There is no inducement %(item)s in this ruleset.", item=repr(p.get("item"))
        ),
        "not_eligible": lambda: gettext(
            "%(team)s teams may not buy %(item)s.", team=p.get("team"), item=p.get("item")
        ),
        "over_limit": lambda: gettext(
            "%(item)s: at most %(max)s (asked for %(count)s).",
            item=p.get("item"),
            max=p.get("max"),
            count=p.get("count"),
        ),
        "negative_count": lambda: gettext(
            "%(item)s: the number cannot be negative.", item=p.get("item")
        ),
    }


def _star_texts(p: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
    """Star players and mercenaries chosen."""
    return {
        "unknown_star": lambda: gettext(
            "There is no star player %(item)s in this ruleset.", item=repr(p.get("item"))
        ),
        "star_not_eligible": lambda: gettext(
            "%(item)s does not play for %(team)s teams.", item=p.get("item"), team=p.get("team")
        ),
        "duplicate_star": lambda: gettext("%(item)s is chosen twice.", item=p.get("item")),
        "excludes_star": lambda: gettext(
            "A team that buys %(item)s may not also hire %(star)s.",
            item=p.get("item"),
            star=p.get("star"),
        ),
        "too_many_stars": lambda: gettext(
            "At most %(max)s star players per game (a pair counts once); %(count)s chosen.",
            max=p.get("max"),
            count=p.get("count"),
        ),
        "too_many_mercenaries": lambda: gettext(
            "At most %(max)s mercenaries; %(count)s chosen.", max=p.get("max"), count=p.get("count")
        ),
    }


def _hire_texts(p: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
    """Positions, skills, journeymen, places and gold of a hire."""
    return {
        "unknown_position": lambda: gettext(
            "This team has no position %(position)s.", position=repr(p.get("position"))
        ),
        "unknown_skill": lambda: gettext(
            "There is no skill %(skill)s in this ruleset.", skill=repr(p.get("skill"))
        ),
        "skill_already_held": lambda: gettext(
            "A %(position)s already has %(skill)s.",
            position=p.get("position"),
            skill=p.get("skill"),
        ),
        "skill_not_primary": lambda: gettext(
            "%(skill)s is not a primary skill of the %(position)s.",
            skill=p.get("skill"),
            position=p.get("position"),
        ),
        "position_full": lambda: gettext(
            "The team may field at most %(max)s %(position)s.",
            max=p.get("max"),
            position=p.get("position"),
        ),
        "no_roster_place": lambda: gettext(
            "Stars and mercenaries would take the team over %(max)s players.", max=p.get("max")
        ),
        "over_budget": lambda: gettext(
            "This costs %(cost)s but the team may spend %(budget)s.",
            cost=_gold(p.get("cost")),
            budget=_gold(p.get("budget")),
        ),
        "not_journeyman_position": lambda: gettext(
            "Journeymen come from %(allowed)s, not %(position)s.",
            allowed=", ".join(p.get("allowed") or ()) or gettext("no position"),
            position=repr(p.get("position")),
        ),
        "journeymen_not_needed": lambda: gettext(
            "The team needs only %(needed)s journeymen.", needed=p.get("needed")
        ),
        "roster_full": lambda: gettext("The roster already has %(max)s players.", max=p.get("max")),
        "not_enough_gold": lambda: gettext(
            "This costs %(cost)s; the treasury holds %(treasury)s.",
            cost=_gold(p.get("cost")),
            treasury=_gold(p.get("treasury")),
        ),
    }
