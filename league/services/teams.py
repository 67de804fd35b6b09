"""Teams: drafting, hiring and firing, staff purchases and the treasury ledger."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import N_, current_language, format_number, gettext, ngettext
from league.models import League, Player, Team, TreasuryEntry, User
from league.rules import SHIRT_NUMBERS, Decision, hire_decision, purchase_cost
from league.rules.model import RulesError
from league.rules.refusals import an_item, refusal_text
from league.rules.team_building import (
    PURCHASE_ITEM_NAMES,
    PURCHASE_ITEMS,
    PurchaseQuote,
    TeamCounts,
    give_back_decision,
    purchase_quote,
)
from league.services import audit, submissions
from league.services import events as domain_events
from league.services.access import (
    get_league,
    get_player,
    get_team,
    league_ruleset,
    may_change_roster,
    may_commission,
    may_draft,
    membership,
    require_commissioner,
    require_manager,
    roster,
    team_ruleset,
    team_type_of,
)
from league.services.errors import Conflict, DomainError, NotFound, RuleViolation
from league.services.labels import ledger_text, player_status_label
from league.services.paging import Page, page_in_sql
from league.services.text import checked_name, isolated
from league.services.users import find_user

#: What a team may buy, and what each is called (the rules name them).
ITEMS = PURCHASE_ITEMS
ITEM_NAMES = PURCHASE_ITEM_NAMES

#: The most gold a treasury holds: its column is a 32-bit integer.
MAX_TREASURY = 2**31 - 1
#: Far above anything a league hands out at once: a commissioner's correction is at most this.
MAX_ADJUSTMENT = 10_000_000


@dataclass(frozen=True, slots=True)
class NewTeam:
    league_id: int
    name: str
    team_type_id: str
    #: Username of the coach; None: the acting user coaches it.
    coach: str | None = None
    #: API teams skip the draft: active at once, empty roster, full treasury.
    active: bool = False


@dataclass(frozen=True, slots=True)
class HirePlayer:
    position_id: str
    name: str
    number: int | None = None


# ---------------------------------------------------------------------------
# Reading


def checked_player_name(name: str) -> str:
    """A player's name as stored, or a refusal naming the field "name"."""
    return checked_name(name, field="name", what=gettext("A player's name"), length=(1, 60))


def _require_not_retired(team: Team) -> None:
    if team.status == "retired":
        raise Conflict(gettext("%(team)s is retired and cannot change.", team=team.name))


# ---------------------------------------------------------------------------
# Treasury


def _balance_refusal(team: Team, amount: int, description: str) -> RuleViolation | None:
    """Why `amount` cannot be booked on the team's treasury: it would go below 0 or past
    the 32-bit column that holds it."""
    if team.treasury + amount > MAX_TREASURY:
        return RuleViolation(
            gettext(
                "%(team)s has %(treasury)s gold: %(amount)s more would pass %(max)s, "
                "the most a treasury holds (%(description)s).",
                team=team.name,
                treasury=format_number(team.treasury),
                amount=format_number(amount),
                max=format_number(MAX_TREASURY),
                description=description,
            ),
            code="treasury_full",
        )
    if team.treasury + amount < 0:
        return RuleViolation(
            gettext(
                "Not enough gold: %(team)s has %(treasury)s and this costs %(cost)s "
                "(%(description)s).",
                team=team.name,
                treasury=format_number(team.treasury),
                cost=format_number(-amount),
                description=description,
            ),
            code="insufficient_treasury",
        )
    return None


def post_entry(
    session: Session,
    team: Team,
    actor: User | None,
    amount: int,
    kind: str,
    description: str,
    *,
    item: str | None = None,
    match_id: int | None = None,
    season_id: int | None = None,
) -> TreasuryEntry:
    """Append a ledger row and keep the team's treasury equal to the ledger's sum."""
    # The refusal names the row as the ledger shows it, in the reader's language.
    shown = ledger_text(
        TreasuryEntry(kind=kind, description=description, item=item, match_id=match_id)
    )
    refusal = _balance_refusal(team, amount, shown)
    if refusal:
        raise refusal
    entry = TreasuryEntry(
        team=team,
        amount=amount,
        kind=kind,
        description=description,
        actor_id=actor and actor.id,
        item=item,
        match_id=match_id,
        season_id=season_id,
    )
    session.add(entry)
    team.treasury += amount
    return entry


@contextlib.contextmanager
def unless_spent(code: str, message: str, **values: object) -> Iterator[None]:
    """Around a ledger row that takes back gold the team may have spent since (winnings
    corrected, prizes returned, a pre-game paid late): the balance refusal of
    `post_entry` becomes a Conflict with `code`, worded by `message` (marked with N_)
    with `values` and the refusal as ``%(reason)s``."""
    try:
        yield
    except RuleViolation as error:
        raise Conflict(gettext(message, reason=error.message, **values), code=code) from error


#: Far above anything a league hands out; keeps a treasury inside its 32-bit column.
MAX_ADJUSTMENT = 10_000_000
#: The ledger's description column holds this many characters.
MAX_REASON = 200


def adjustment_refusal(team: Team, amount: int, reason: str) -> RuleViolation | None:
    """Why a treasury adjustment of `team` cannot be made, or None when it can."""
    reason = reason.strip()
    if not reason:
        return RuleViolation(gettext("Say why the treasury changes."), field="reason")
    if len(reason) > MAX_REASON:
        return RuleViolation(
            gettext("A reason has at most %(max)s characters.", max=MAX_REASON), field="reason"
        )
    if amount == 0:
        return RuleViolation(gettext("An adjustment needs an amount other than 0."), field="amount")
    if abs(amount) > MAX_ADJUSTMENT:
        return RuleViolation(
            gettext(
                "An adjustment is at most %(max)s gold either way.",
                max=format_number(MAX_ADJUSTMENT),
            ),
            field="amount",
        )
    return _balance_refusal(team, amount, reason)


def adjust_treasury(
    session: Session,
    actor: User,
    team_id: int,
    amount: int,
    reason: str,
    *,
    form_token: str | None = None,
) -> TreasuryEntry:
    """A commissioner's manual correction of a team's gold, with a reason.

    `form_token` is the form's one-time token: the same form sent again is refused
    (submissions.Resubmitted) and changes nothing. So for the other services that take it.
    """
    claimed = submissions.claim(
        session, actor, form_token, "team.adjust_treasury", team_id, amount, reason
    )
    team = get_team(session, team_id, for_update=True)
    may_commission(team.league, actor, "treasury").require()
    refusal = adjustment_refusal(team, amount, reason)
    if refusal:
        raise refusal
    reason = reason.strip()
    entry = post_entry(session, team, actor, amount, "adjustment", reason)
    submissions.done(
        claimed,
        gettext(
            "%(team)s's treasury changed by %(amount)s: %(reason)s.",
            team=team.name,
            amount=("+" if amount > 0 else "") + format_number(amount),
            reason=reason,
        ),
    )
    session.flush()
    audit.record(session, actor, "team.adjust_treasury", "team", team.id, amount=amount)
    return entry


# ---------------------------------------------------------------------------
# Creating and confirming


def create_team(session: Session, actor: User, command: NewTeam) -> Team:
    league = get_league(session, command.league_id)
    ruleset = league_ruleset(league)
    may_draft(league, actor).require()
    coach = actor
    if command.coach and command.coach.strip().lower() != actor.username.lower():
        may_commission(league, actor, "team_for_another").require()
        named = find_user(session, command.coach)
        if named is None or membership(league, named) is None:
            raise NotFound(
                gettext(
                    "%(coach)s is not a coach in %(league)s.",
                    coach=repr(command.coach),
                    league=league.name,
                ),
                field="coach",
            )
        coach = named
    name = checked_name(command.name, field="name", what=gettext("A team name"), length=(2, 80))
    try:
        team_type = ruleset.team_type(command.team_type_id)
    except RulesError:
        raise RuleViolation(
            gettext(
                "%(ruleset)s has no team type %(id)s.",
                ruleset=ruleset.name,
                id=repr(command.team_type_id),
            ),
            field="team_type_id",
        ) from None
    if any(t.name.lower() == name.lower() for t in league.teams):
        raise Conflict(
            gettext(
                "%(league)s already has a team called %(name)s.", league=league.name, name=name
            ),
            field="name",
        )
    team = Team(
        league=league,
        coach_id=coach.id,
        name=name,
        team_type_id=team_type.id,
        status="active" if command.active else "draft",
        treasury=0,
        rerolls=0,
        assistant_coaches=0,
        cheerleaders=0,
        apothecary=False,
        dedicated_fans=ruleset.team_building.dedicated_fans.start,
        confirmed_at=datetime.now(UTC) if command.active else None,
    )
    session.add(team)
    post_entry(
        session,
        team,
        actor,
        ruleset.team_building.starting_treasury,
        "starting",
        "Starting treasury",
    )
    session.flush()
    audit.record(session, actor, "team.create", "team", team.id, team_type=team_type.id)
    domain_events.record(session, domain_events.TeamCreated(team.league_id, team.id))
    return team


def confirm_refusal(team: Team) -> DomainError | None:
    """Why the draft of `team` cannot be confirmed now, or None when it can."""
    if team.status != "draft":
        return Conflict(gettext("%(team)s is not a draft any more.", team=team.name))
    building = team_ruleset(team).team_building
    players = len(roster(team))
    if players < building.min_players:
        return RuleViolation(
            ngettext(
                "%(team)s has %(num)d player; a team needs at least %(min)s "
                "before the draft is confirmed.",
                "%(team)s has %(num)d players; a team needs at least %(min)s "
                "before the draft is confirmed.",
                players,
                team=team.name,
                min=building.min_players,
            ),
            code="too_few_players",
        )
    return None


def confirm_draft(session: Session, actor: User, team_id: int) -> Team:
    """Finish the draft: the team becomes active and later re-rolls cost more."""
    team = get_team(session, team_id, for_update=True)
    require_manager(team, actor)
    refusal = confirm_refusal(team)
    if refusal:
        raise refusal
    players = len(roster(team))
    team.status = "active"
    team.confirmed_at = datetime.now(UTC)
    audit.record(session, actor, "team.confirm", "team", team.id, players=players)
    return team


def reassign_team(session: Session, actor: User, team_id: int, coach: str) -> Team:
    """A commissioner hands a team to another member of its league (say, after its coach left)."""
    team = get_team(session, team_id, for_update=True, history=False)
    require_commissioner(team.league, actor)
    new_coach = find_user(session, coach)
    if new_coach is None or membership(team.league, new_coach) is None:
        raise NotFound(
            gettext(
                "%(coach)s is not a member of %(league)s.",
                coach=repr(coach),
                league=team.league.name,
            ),
            field="coach",
        )
    if new_coach.id == team.coach_id and team.coachless_since is None:
        raise Conflict(
            gettext(
                "%(coach)s already coaches %(team)s.", coach=new_coach.username, team=team.name
            ),
            field="coach",
        )
    team.coach = new_coach
    team.coachless_since = None
    audit.record(session, actor, "team.reassign", "team", team.id, coach=new_coach.username)
    return team


# ---------------------------------------------------------------------------
# Players


def next_free_number(team: Team) -> int | None:
    taken = {p.number for p in roster(team)}
    return next((n for n in SHIRT_NUMBERS if n not in taken), None)


def _check_number(team: Team, number: int, player: Player | None = None) -> None:
    if number not in SHIRT_NUMBERS:
        raise RuleViolation(
            gettext(
                "Shirt numbers run from %(first)s to %(last)s.",
                first=SHIRT_NUMBERS[0],
                last=SHIRT_NUMBERS[-1],
            ),
            field="number",
        )
    holder = next((p for p in roster(team) if p.number == number and p is not player), None)
    if holder is not None:
        raise Conflict(
            gettext("Number %(number)s is taken by %(name)s.", number=number, name=holder.name),
            field="number",
        )


def _hire_decision(team: Team, position_id: str, treasury: int | None) -> Decision:
    counts = Counter(p.position_id for p in roster(team))
    return hire_decision(team_ruleset(team), team_type_of(team), position_id, counts, treasury)


def hire_refusals(team: Team) -> dict[str, Decision]:
    """For each position of the team's roster: may one more be hired now, gold included?"""
    return {p.id: _hire_decision(team, p.id, team.treasury) for p in team_type_of(team).positions}


#: Which refusal a hire reports first when several apply: a full roster says the most.
_HIRE_REFUSALS = ("roster_full", "position_full", "big_guys_full")


def _refuse_hire(team: Team, decision: Decision) -> None:
    for code in _HIRE_REFUSALS:
        reason = decision.reason(code)
        if reason is not None:
            raise RuleViolation(
                refusal_text(reason, team=team.name),
                code=code,
                field=None if code == "roster_full" else "position_id",
            )


def hire_player(
    session: Session,
    actor: User,
    team_id: int,
    command: HirePlayer,
    *,
    form_token: str | None = None,
) -> Player:
    claimed = submissions.claim(
        session,
        actor,
        form_token,
        "player.hire",
        team_id,
        command.position_id,
        command.name,
        command.number,
    )
    team = get_team(session, team_id, for_update=True)
    may_change_roster(team, actor, "hire").require()
    _require_not_retired(team)
    team_type = team_type_of(team)
    # The gold is left out: the ledger refuses a balance below zero in its own words.
    decision = _hire_decision(team, command.position_id, None)
    unknown = decision.reason("unknown_position")
    if unknown is not None:
        raise RuleViolation(refusal_text(unknown), field="position_id")
    position = team_type.position(command.position_id)
    name = checked_player_name(command.name)
    number = command.number if command.number is not None else next_free_number(team)
    if number is None:
        raise RuleViolation(gettext("Every shirt number is taken."), field="number")
    _check_number(team, number)
    _refuse_hire(team, decision)
    post_entry(session, team, actor, -position.cost, "hire", f"Hired {name} ({position.name})")
    player = Player(
        team=team,
        position_id=position.id,
        name=name,
        number=number,
        cost=position.cost,
        value=position.cost,
    )
    session.add(player)
    submissions.done(
        claimed,
        gettext(
            "Hired #%(number)s %(name)s (%(position)s).",
            number=number,
            name=isolated(name),
            position=team_ruleset(team).text(current_language()).position_name(position.name),
        ),
    )
    session.flush()
    audit.record(session, actor, "player.hire", "player", player.id, position=position.id)
    return player


def _managed_player(
    session: Session, actor: User, player_id: int, *, on_roster: bool = False
) -> tuple[Team, Player]:
    """The player and his team (locked), if ``actor`` manages it; ``on_roster``: Conflict
    when he has left the roster."""
    player = get_player(session, player_id)
    team = get_team(session, player.team_id, for_update=True)
    may_change_roster(team, actor).require()
    _require_not_retired(team)
    if on_roster and not player.on_roster:
        raise Conflict(
            gettext(
                "%(name)s is not on the roster (%(status)s).",
                name=player.name,
                status=player_status_label(player.status),
            )
        )
    return team, player


def fire_player(session: Session, actor: User, player_id: int) -> Player:
    """Fire a player: no refund, kept in history. During the draft the hire is undone."""
    team, player = _managed_player(session, actor, player_id, on_roster=True)
    if team.status == "draft":
        post_entry(session, team, actor, player.cost, "refund", f"Draft: removed {player.name}")
        audit.record(session, actor, "player.unhire", "player", player.id)
        team.players.remove(player)
        session.delete(player)
        session.flush()
        return player
    player.status = "fired"
    audit.record(session, actor, "player.fire", "player", player.id)
    return player


def retire_player(session: Session, actor: User, player_id: int) -> Player:
    team, player = _managed_player(session, actor, player_id, on_roster=True)
    if team.status == "draft":
        raise Conflict(gettext("A player cannot retire during the draft; remove him instead."))
    player.status = "retired"
    audit.record(session, actor, "player.retire", "player", player.id)
    return player


def rename_player(session: Session, actor: User, player_id: int, name: str, number: int) -> Player:
    team, player = _managed_player(session, actor, player_id)
    name = checked_player_name(name)
    _check_number(team, number, player)
    player.name = name
    player.number = number
    session.flush()
    audit.record(session, actor, "player.rename", "player", player.id, name=name, number=number)
    return player


# ---------------------------------------------------------------------------
# Staff, re-rolls, dedicated fans


def reroll_prices(team: Team) -> tuple[int, int]:
    """A team re-roll's price for `team` during the draft, and once it is confirmed."""
    ruleset, team_type = team_ruleset(team), team_type_of(team)
    return (
        purchase_cost(ruleset, team_type, "reroll", during_draft=True),
        purchase_cost(ruleset, team_type, "reroll"),
    )


def team_counts(team: Team) -> TeamCounts:
    """What the team holds now, as the purchase rules count it."""
    return TeamCounts(
        rerolls=team.rerolls,
        apothecary=team.apothecary,
        assistant_coaches=team.assistant_coaches,
        cheerleaders=team.cheerleaders,
        dedicated_fans=team.dedicated_fans,
    )


def item_quote(team: Team, item: str, *, with_gold: bool = True) -> PurchaseQuote:
    """What `item` costs this team now and whether the rules let it buy one.

    The rules price re-rolls higher after the draft. ``with_gold=False`` leaves the
    treasury out of the decision: buying books the price on the ledger, which
    refuses a balance below zero in its own words.
    """
    return purchase_quote(
        team_ruleset(team),
        team_type_of(team),
        item,
        team_counts(team),
        team.treasury if with_gold else None,
        during_draft=team.status == "draft",
    )


def item_price(team: Team, item: str) -> int:
    """What `item` costs this team now."""
    return item_quote(team, item, with_gold=False).price


#: What a bought item's form did, one sentence per item (for a resent form's message).
_BOUGHT = {
    "reroll": N_("Bought a team re-roll for %(price)s."),
    "apothecary": N_("Bought an apothecary for %(price)s."),
    "assistant_coach": N_("Bought an assistant coach for %(price)s."),
    "cheerleader": N_("Bought a cheerleader for %(price)s."),
    "dedicated_fan": N_("Bought a dedicated fan for %(price)s."),
}
#: The same for an item given back during the draft.
_GAVE_BACK = {
    "reroll": N_("Gave back a team re-roll."),
    "apothecary": N_("Gave back an apothecary."),
    "assistant_coach": N_("Gave back an assistant coach."),
    "cheerleader": N_("Gave back a cheerleader."),
    "dedicated_fan": N_("Gave back a dedicated fan."),
}


def buy_team_item(
    session: Session, actor: User, team_id: int, item: str, *, form_token: str | None = None
) -> Team:
    if item not in ITEMS:
        raise RuleViolation(
            gettext(
                "Unknown item %(item)s; choose one of %(items)s.",
                item=repr(item),
                items=", ".join(ITEMS),
            ),
            code="unknown_item",
            field="item",
        )
    claimed = submissions.claim(session, actor, form_token, "team.buy", team_id, item)
    team = get_team(session, team_id, for_update=True)
    may_change_roster(team, actor).require()
    _require_not_retired(team)
    quote = item_quote(team, item, with_gold=False)
    if not quote.decision:
        text = refusal_text(quote.decision.reasons[0], team=team.name)
        raise RuleViolation(text, code="item_not_allowed", field="item")
    price = quote.price
    # Ledger descriptions are stored, so they stay in English (the data's language).
    post_entry(
        session,
        team,
        actor,
        -price,
        "purchase",
        f"Bought {an_item(item, translated=False)}",
        item=item,
    )
    submissions.done(claimed, gettext(_BOUGHT[item], price=format_number(price)))
    if item == "reroll":
        team.rerolls += 1
    elif item == "apothecary":
        team.apothecary = True
    elif item == "assistant_coach":
        team.assistant_coaches += 1
    elif item == "cheerleader":
        team.cheerleaders += 1
    else:
        team.dedicated_fans += 1
    session.flush()
    audit.record(session, actor, "team.buy", "team", team.id, item=item, price=price)
    return team


def undo_draft_item(
    session: Session, actor: User, team_id: int, item: str, *, form_token: str | None = None
) -> Team:
    """During the draft, give an item back for its full price."""
    claimed = submissions.claim(session, actor, form_token, "team.give_back", team_id, item)
    team = get_team(session, team_id, for_update=True)
    may_change_roster(team, actor).require()
    refused = give_back_decision(
        team_ruleset(team), item, team_counts(team), during_draft=team.status == "draft"
    ).reasons
    if refused:
        text = refusal_text(refused[0], team=team.name)
        if refused[0].code == "unknown_item":
            raise RuleViolation(text, code="unknown_item", field="item")
        raise Conflict(text)
    post_entry(
        session,
        team,
        actor,
        item_price(team, item),
        "refund",
        f"Draft: gave back {an_item(item, translated=False)}",
        item=item,
    )
    if item == "reroll":
        team.rerolls -= 1
    elif item == "apothecary":
        team.apothecary = False
    elif item == "assistant_coach":
        team.assistant_coaches -= 1
    elif item == "cheerleader":
        team.cheerleaders -= 1
    else:
        team.dedicated_fans -= 1
    submissions.done(claimed, gettext(_GAVE_BACK[item]))
    session.flush()
    audit.record(session, actor, "team.give_back", "team", team.id, item=item)
    return team


def teams_of_league(session: Session, league: League) -> list[Team]:
    return list(
        session.scalars(
            select(Team)
            .where(Team.league_id == league.id)
            .order_by(Team.name)
            .options(
                selectinload(Team.players).selectinload(Player.advancements),
                selectinload(Team.coach),
            )
        )
    )


def ledger_page(session: Session, team: Team, number: int | None) -> Page[TreasuryEntry]:
    """Page `number` of the team's ledger, newest entry first, read a page at a time."""
    entries = (
        select(TreasuryEntry)
        .where(TreasuryEntry.team_id == team.id)
        .order_by(TreasuryEntry.id.desc())
    )
    return page_in_sql(session, entries, number).map(lambda row: row[0])
