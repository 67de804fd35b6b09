"""Import checks: the document against the receiving league's ruleset, the team, its ledger,
its players and their roster; every problem at once, or the plan to write."""

from __future__ import annotations

from collections import Counter
from typing import Any

from marshmallow import Schema

from league.i18n import format_number, gettext
from league.models import League
from league.models.ledger import ENTRY_KINDS
from league.models.player import ON_ROSTER, PLAYER_STATUSES
from league.rules import Position, Ruleset, TeamType, rolls_earned
from league.services.errors import Problem
from league.services.exchange.advancements import advancement_schema, check_advancements
from league.services.exchange.document import (
    IMPORTABLE_STATUSES,
    MAX_LEDGER,
    MAX_PLAYERS,
    InvalidDocument,
    LedgerPlan,
    PlayerPlan,
    Reader,
    TeamPlan,
    check_objects,
)
from league.services.team_document import (
    MAX_INT,
    Boolean,
    Choice,
    DocumentLedgerEntrySchema,
    DocumentPlayerSchema,
    DocumentTeamSchema,
    Format,
    Integer,
    List,
    Loaded,
    Object,
    Reductions,
    TeamDocumentSchema,
    Text,
    Version,
    load,
    loader,
    position_member,
    show,
    team_type_member,
)
from league.services.teams import ITEMS


def check_document(ruleset: Ruleset, league: League, document: object) -> TeamPlan:
    """The document checked against the league's ruleset, or InvalidDocument with every problem."""
    reader = Reader()
    if not isinstance(document, dict):
        raise InvalidDocument([Problem("", gettext("The document must be a JSON object."))])
    header = load(
        loader(TeamDocumentSchema, part=True, format=Format(), version=Version()), document, ""
    )
    if not header.ok:  # Nothing else can be read reliably.
        raise InvalidDocument(header.problems())
    if document.get("ruleset") != league.ruleset_id:
        reader.add(
            "ruleset",
            gettext(
                "%(league)s plays %(ruleset)s; the team comes from %(theirs)s. "
                "A team moves only between leagues of the same ruleset.",
                league=league.name,
                ruleset=league.ruleset_id,
                theirs=show(document.get("ruleset")),
            ),
        )
        raise InvalidDocument(reader.problems)

    plan = _check_team(reader, ruleset, league, document)
    if reader.problems or plan is None:
        raise InvalidDocument(reader.problems)
    return plan


def _check_team(
    reader: Reader, ruleset: Ruleset, league: League, document: dict[str, Any]
) -> TeamPlan | None:
    body = load(
        loader(
            TeamDocumentSchema,
            part=True,
            team=Object(),
            players=List(MAX_PLAYERS),
            ledger=List(MAX_LEDGER),
        ),
        document,
        "",
    )
    reader.report(body)
    raw_team, raw_players, raw_ledger = body.get("team"), body.get("players"), body.get("ledger")
    if raw_team is None:
        return None
    team = _load_team(ruleset, league, raw_team)
    reader.report(team)
    ledger = _check_ledger(reader, raw_ledger) if raw_ledger is not None else None
    fans_change = _check_ledger_totals(reader, ruleset, team, ledger) if ledger is not None else 0
    team_type: TeamType | None = team.get("team_type")
    status = team.get("status")
    players = (
        _check_players(reader, ruleset, team_type, status, raw_players)
        if raw_players is not None and team_type is not None
        else None
    )
    members = {member: team.get(member) for member in team.members}
    if reader.problems or None in members.values() or players is None or ledger is None:
        return None
    return TeamPlan(**members, fans_change=fans_change, players=players, ledger=ledger)


def _load_team(ruleset: Ruleset, league: League, raw_team: dict[str, Any]) -> Loaded:
    """The document's team, loaded against the ruleset's team building and the league."""
    building = ruleset.team_building
    fans_rule = building.dedicated_fans
    team = load(
        loader(
            DocumentTeamSchema,
            name=Text(length=(2, 80), one_line=True),
            team_type=team_type_member(ruleset),
            status=Choice(IMPORTABLE_STATUSES),
            treasury=Integer(),
            rerolls=Integer(maximum=building.max_rerolls),
            apothecary=Boolean(),
            assistant_coaches=Integer(maximum=_limit(building.assistant_coaches.max)),
            cheerleaders=Integer(maximum=_limit(building.cheerleaders.max)),
            dedicated_fans=Integer(minimum=fans_rule.start, maximum=_limit(fans_rule.max)),
        ),
        raw_team,
        "team",
    )
    name = team.get("name")
    if name is not None and any(t.name.lower() == name.lower() for t in league.teams):
        team.refuse(
            "name",
            gettext(
                "%(league)s already has a team called %(name)s.", league=league.name, name=name
            ),
        )
    team_type: TeamType | None = team.get("team_type")
    if team.get("apothecary") and team_type is not None and not team_type.apothecary:
        team.refuse(
            "apothecary",
            gettext("%(team_type)s teams cannot have an apothecary.", team_type=team_type.name),
        )
    return team


#: The team's member that counts each item the ledger buys (dedicated fans aside).
ITEM_MEMBERS = {
    "reroll": "rerolls",
    "apothecary": "apothecary",
    "assistant_coach": "assistant_coaches",
    "cheerleader": "cheerleaders",
}


def _check_ledger_totals(
    reader: Reader, ruleset: Ruleset, team: Loaded, ledger: list[LedgerPlan]
) -> int:
    """The ledger against the team: its balance is the treasury, its purchases less
    refunds are the staff and re-rolls. The dedicated fans the team's matches changed
    (beyond the start and those bought): a draft team's are none."""
    treasury, fans = team.get("treasury"), team.get("dedicated_fans")
    balance = sum(entry.amount for entry in ledger)
    if treasury is not None and balance != treasury:
        reader.add(
            "ledger",
            gettext(
                "The ledger adds up to %(balance)s gold but the treasury says %(treasury)s.",
                balance=format_number(balance),
                treasury=format_number(treasury),
            ),
        )
    bought = dict.fromkeys(ITEMS, 0)
    for entry in ledger:
        if entry.item is not None:
            bought[entry.item] += 1 if entry.kind == "purchase" else -1
    for item, member in ITEM_MEMBERS.items():
        count = team.get(member)
        if count is not None and bought[item] != int(count):
            reader.add(
                f"team.{member}",
                gettext(
                    "The team has %(count)s but its ledger shows %(bought)s bought "
                    "(purchases less refunds of %(item)s).",
                    count=int(count),
                    bought=bought[item],
                    item=repr(item),
                ),
            )
    if bought["dedicated_fan"] < 0:
        reader.add("ledger", gettext("The ledger gives back more dedicated fans than it bought."))
    if fans is None:
        return 0
    start = ruleset.team_building.dedicated_fans.start
    fans_change: int = fans - start - bought["dedicated_fan"]
    if team.get("status") == "draft" and fans_change != 0:
        reader.add(
            "team.dedicated_fans",
            gettext(
                "A draft team has %(start)s dedicated fans plus those its ledger "
                "bought (%(expected)s), not %(fans)s.",
                start=start,
                expected=start + bought["dedicated_fan"],
                fans=fans,
            ),
        )
    return fans_change


def _limit(maximum: int | None) -> int:
    return MAX_INT if maximum is None else maximum


def _check_ledger(reader: Reader, raw: list[Any]) -> list[LedgerPlan] | None:
    balance = 0
    entry_schema = loader(
        DocumentLedgerEntrySchema,
        amount=Integer(minimum=None),
        kind=Choice(ENTRY_KINDS),
        description=Text(length=(1, 200)),
        item=Choice((None, *ITEMS)),
    )

    def check_entry(_index: int, path: str, raw_entry: dict[str, Any]) -> LedgerPlan | None:
        nonlocal balance
        entry = load(entry_schema, raw_entry, path)
        amount, kind, description, item = (
            entry.get("amount"),
            entry.get("kind"),
            entry.get("description"),
            entry.get("item"),
        )
        if item is not None and kind not in ("purchase", "refund"):
            entry.refuse("item", gettext("Only purchases and refunds name an item."))
        reader.report(entry)
        if not entry.ok or amount is None or kind is None or description is None:
            return None
        balance += amount
        if not 0 <= balance <= MAX_INT:
            reader.add(
                f"{path}.amount",
                gettext(
                    "The treasury would stand at %(balance)s gold after this entry; it can "
                    "never be negative.",
                    balance=format_number(balance),
                ),
            )
        return LedgerPlan(amount, kind, description, item)

    return check_objects(reader, raw, "ledger", check_entry)


def _check_players(
    reader: Reader,
    ruleset: Ruleset,
    team_type: TeamType,
    team_status: str | None,
    raw: list[Any],
) -> list[PlayerPlan] | None:
    # The player's members, then an advancement's.
    schemas = (
        loader(
            DocumentPlayerSchema,
            name=Text(length=(1, 60), one_line=True),
            number=Integer(minimum=1, maximum=99),
            position=position_member(team_type),
            status=Choice(PLAYER_STATUSES),
            spp_earned=Integer(),
            spp_spent=Integer(),
            niggling_injuries=Integer(),
            reductions=Reductions(ruleset),
            advancements=List(ruleset.advancement.max_advancements),
        ),
        advancement_schema(),
    )

    def check_entry(_index: int, path: str, raw_player: dict[str, Any]) -> PlayerPlan | None:
        player = _check_player(reader, ruleset, schemas, path, raw_player)
        if player is None or team_status != "draft":
            return player
        if (
            player.status != "active"
            or player.spp_earned
            or player.advancements
            or player.niggling_injuries
            or any(player.reductions.values())
        ):
            reader.add(path, gettext("A draft team has not played: its players are fresh."))
        return player

    players = check_objects(reader, raw, "players", check_entry)
    if players is None:
        return None
    _check_roster(reader, ruleset, team_type, players)
    return players


def _check_roster(
    reader: Reader, ruleset: Ruleset, team_type: TeamType, players: list[PlayerPlan]
) -> None:
    """The limits on players still on the roster: numbers, team size, positions."""
    on_roster = [(i, p) for i, p in enumerate(players) if p.status in ON_ROSTER]
    numbers = Counter(p.number for _, p in on_roster)
    for index, player in on_roster:
        if numbers[player.number] > 1:
            reader.add(
                f"players[{index}].number",
                gettext(
                    "Number %(number)s is worn by %(count)s players on the roster.",
                    number=player.number,
                    count=numbers[player.number],
                ),
            )
    building = ruleset.team_building
    if len(on_roster) > building.max_players:
        reader.add(
            "players",
            gettext(
                "%(count)s players are on the roster; a team may have %(max)s.",
                count=len(on_roster),
                max=building.max_players,
            ),
        )
    positions = Counter(p.position.id for _, p in on_roster)
    for position in team_type.positions:
        if positions[position.id] > position.max:
            reader.add(
                "players",
                gettext(
                    "%(count)s %(position)s players are on the roster; the roster allows %(max)s.",
                    count=positions[position.id],
                    position=position.name,
                    max=position.max,
                ),
            )
    if team_type.max_big_guys is not None:
        big = sum(1 for _, p in on_roster if "Big Guy" in p.position.keywords)
        if big > team_type.max_big_guys:
            reader.add(
                "players",
                gettext(
                    "%(count)s Big Guys are on the roster; "
                    "the %(team_type)s roster allows %(max)s.",
                    count=big,
                    team_type=team_type.name,
                    max=team_type.max_big_guys,
                ),
            )


def _check_player(
    reader: Reader,
    ruleset: Ruleset,
    schemas: tuple[Schema, Schema],
    path: str,
    raw: dict[str, Any],
) -> PlayerPlan | None:
    before = len(reader.problems)
    player_schema, advancement_schema = schemas
    loaded = load(player_schema, raw, path)
    earned, spent = loaded.get("spp_earned"), loaded.get("spp_spent")
    if earned is not None and spent is not None and spent > earned:
        loaded.refuse(
            "spp_spent",
            gettext(
                "%(spent)s SPP spent is more than the %(earned)s earned.",
                spent=spent,
                earned=earned,
            ),
        )
    reader.report(loaded)
    name, number, status = loaded.get("name"), loaded.get("number"), loaded.get("status")
    niggling = loaded.get("niggling_injuries")
    position: Position | None = loaded.get("position")
    reductions: dict[str, int] | None = loaded.get("reductions")
    raw_advancements = loaded.get("advancements")
    if position is None or raw_advancements is None or reductions is None:
        return None
    advancements = check_advancements(
        reader, ruleset, advancement_schema, position, reductions, path, raw_advancements
    )
    if advancements is not None:
        cost = sum(a.spp_cost for a in advancements)
        if spent is not None and cost != spent:
            reader.add(
                f"{path}.spp_spent",
                gettext(
                    "The advancements cost %(cost)s SPP in all; the player says %(spent)s "
                    "were spent.",
                    cost=cost,
                    spent=spent,
                ),
            )
        if (
            ruleset.advancement.mode == "roll"
            and earned is not None
            and len(advancements) > rolls_earned(ruleset, earned)
        ):
            reader.add(
                f"{path}.advancements",
                gettext(
                    "%(earned)s SPP earn %(rolls)s Star Player Roll(s); the player took %(took)s.",
                    earned=earned,
                    rolls=rolls_earned(ruleset, earned),
                    took=len(advancements),
                ),
            )
    if (
        len(reader.problems) > before
        or name is None
        or number is None
        or status is None
        or earned is None
        or spent is None
        or niggling is None
        or advancements is None
    ):
        return None
    return PlayerPlan(
        name=name,
        number=number,
        position=position,
        status=status,
        spp_earned=earned,
        spp_spent=spent,
        niggling_injuries=niggling,
        reductions=reductions,
        advancements=advancements,
    )
