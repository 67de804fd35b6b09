"""Team export and import: a versioned JSON document that carries a team to another league.

The document (``format`` "bbleague-team", ``version`` 1) holds what a team *is*,
without ids or users: the team's staff and treasury, every player who was ever
on it (with SPP, injuries and the advancements still in force) and the treasury
ledger. Importing recreates the team in a league of the same ruleset, in one
transaction, after checking everything against that league's rules; a document
with any problem imports nothing and every problem is reported at once.

The match events behind a player's SPP and injuries (and a team's dedicated
fans) stay in the league the team came from. An imported team therefore gets an
opening balance (``TeamOpening``, ``PlayerOpening``): the caches start from it
and this league's matches add to it (services.recompute.recompute_team), so
``flask recompute --check`` holds. Export, import and export again give the
same document.

Who may import: a commissioner of the receiving league (or a site admin), for
any coach of that league. Coaches cannot import their own teams: a document is
plain JSON anybody can edit, so the SPP and gold it brings need the
commissioner's say-so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from marshmallow import Schema
from sqlalchemy.orm import Session

from league.i18n import format_number, gettext, ngettext
from league.models import (
    Advancement,
    DiceRoll,
    League,
    Player,
    PlayerOpening,
    PlayerSkill,
    Team,
    TeamOpening,
    User,
)
from league.models.ledger import ENTRY_KINDS
from league.models.player import ON_ROSTER, PLAYER_STATUSES
from league.rules import (
    RANDOM_CHARACTERISTIC_KIND,
    RANDOM_SKILL_KINDS,
    AdvancementRequest,
    Decision,
    PlayerState,
    Position,
    Resolution,
    RulesError,
    Ruleset,
    TeamType,
    advancement_cost,
    advancement_kinds,
    needs_dice,
    reason_sentence,
    refusal_text,
    resolve,
    rolls_earned,
    skill_decision,
)
from league.services import audit
from league.services.access import (
    get_league,
    get_team,
    league_ruleset,
    membership,
    require_commissioner,
    team_ruleset,
)
from league.services.errors import NotFound, Problem, RuleViolation
from league.services.recompute import recompute_team
from league.services.team_document import (
    ADVANCEMENT_KINDS,
    DICE_SOURCES,
    MAX_INT,
    Boolean,
    Choice,
    Dice,
    DocumentAdvancementSchema,
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
    dump_team,
    load,
    loader,
    position_member,
    show,
    team_type_member,
)
from league.services.teams import ITEMS, post_entry
from league.services.users import find_user

#: Team statuses a document may carry (a retired team is not imported).
IMPORTABLE_STATUSES = ("draft", "active")
#: Generous limits that keep a hostile document from costing much.
MAX_PLAYERS = 500
MAX_LEDGER = 10_000
#: At most this many problems are listed (a hopeless document need not list thousands).
MAX_PROBLEMS = 200


# ---------------------------------------------------------------------------
# Export


def team_document(team: Team) -> dict[str, Any]:
    """The team as a version 1 document, dumped through the document's one shape."""
    return dump_team(team, team_ruleset(team))


def export_team(session: Session, team_id: int) -> dict[str, Any]:
    return team_document(get_team(session, team_id))


# ---------------------------------------------------------------------------
# Problems


class InvalidDocument(RuleViolation):
    """The document cannot be imported; `problems` lists everything found wrong."""

    code = "invalid_document"

    def __init__(self, problems: Sequence[Problem]) -> None:
        count = len(problems)
        shown = problems[:MAX_PROBLEMS]
        if count > len(shown):
            message = gettext(
                "The team document has %(count)s problems (the first %(shown)s are listed); "
                "nothing was imported.",
                count=count,
                shown=len(shown),
            )
        else:
            message = ngettext(
                "The team document has %(num)d problem; nothing was imported.",
                "The team document has %(num)d problems; nothing was imported.",
                count,
            )
        super().__init__(message, problems=shown)


_T = TypeVar("_T")


class _Reader:
    """Every problem found in the document, in the document's order."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def report(self, loaded: Loaded) -> None:
        """What loading an object refused (the schema's and the rules' refusals)."""
        self.problems.extend(loaded.problems())


# ---------------------------------------------------------------------------
# The import plan: the document, checked


@dataclass(slots=True)
class _AdvancementPlan:
    number: int
    kind: str
    spp_cost: int
    skill: str | None
    characteristic: str | None
    category: str | None
    dice: list[int] | None
    dice_source: str | None
    value_increase: int


@dataclass(slots=True)
class _PlayerPlan:
    name: str
    number: int
    position: Position
    status: str
    spp_earned: int
    spp_spent: int
    niggling_injuries: int
    reductions: dict[str, int]
    advancements: list[_AdvancementPlan] = field(default_factory=list)


@dataclass(slots=True)
class _LedgerPlan:
    amount: int
    kind: str
    description: str
    item: str | None


@dataclass(slots=True)
class _TeamPlan:
    name: str
    team_type: TeamType
    status: str
    treasury: int
    rerolls: int
    apothecary: bool
    assistant_coaches: int
    cheerleaders: int
    dedicated_fans: int
    fans_change: int
    players: list[_PlayerPlan]
    ledger: list[_LedgerPlan]


def check_document(ruleset: Ruleset, league: League, document: object) -> _TeamPlan:
    """The document checked against the league's ruleset, or InvalidDocument with every problem."""
    reader = _Reader()
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
    reader: _Reader, ruleset: Ruleset, league: League, document: dict[str, Any]
) -> _TeamPlan | None:
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
    return _TeamPlan(**members, fans_change=fans_change, players=players, ledger=ledger)


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
    reader: _Reader, ruleset: Ruleset, team: Loaded, ledger: list[_LedgerPlan]
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


def _check_objects(
    reader: _Reader,
    raw: list[Any],
    path: str,
    check: Callable[[int, str, dict[str, Any]], _T | None],
) -> list[_T] | None:
    """Every entry of a document list, in order, checked by `check`; None if any failed.

    An entry that is not an object is a problem; `check` gets each object with its
    index and path (``players[2]``) and returns None when it cannot be used. Every
    entry is checked, so that all of the list's problems are reported at once.
    """
    checked: list[_T] = []
    ok = True
    for index, entry in enumerate(raw):
        where = f"{path}[{index}]"
        if not isinstance(entry, dict):
            reader.add(where, gettext("must be an object."))
            ok = False
            continue
        result = check(index, where, entry)
        if result is None:
            ok = False
            continue
        checked.append(result)
    return checked if ok else None


def _check_ledger(reader: _Reader, raw: list[Any]) -> list[_LedgerPlan] | None:
    balance = 0
    entry_schema = loader(
        DocumentLedgerEntrySchema,
        amount=Integer(minimum=None),
        kind=Choice(ENTRY_KINDS),
        description=Text(length=(1, 200)),
        item=Choice((None, *ITEMS)),
    )

    def check_entry(_index: int, path: str, raw_entry: dict[str, Any]) -> _LedgerPlan | None:
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
        return _LedgerPlan(amount, kind, description, item)

    return _check_objects(reader, raw, "ledger", check_entry)


def _check_players(
    reader: _Reader,
    ruleset: Ruleset,
    team_type: TeamType,
    team_status: str | None,
    raw: list[Any],
) -> list[_PlayerPlan] | None:
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
        _advancement_schema(),
    )

    def check_entry(_index: int, path: str, raw_player: dict[str, Any]) -> _PlayerPlan | None:
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

    players = _check_objects(reader, raw, "players", check_entry)
    if players is None:
        return None
    _check_roster(reader, ruleset, team_type, players)
    return players


def _check_roster(
    reader: _Reader, ruleset: Ruleset, team_type: TeamType, players: list[_PlayerPlan]
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
    reader: _Reader,
    ruleset: Ruleset,
    schemas: tuple[Schema, Schema],
    path: str,
    raw: dict[str, Any],
) -> _PlayerPlan | None:
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
    advancements = _check_advancements(
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
    return _PlayerPlan(
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


@dataclass(slots=True)
class _Progress:
    """What the player holds while his advancements are replayed in order."""

    held: list[str] = field(default_factory=list)
    improvements: Counter[str] = field(default_factory=Counter)


def _check_advancements(
    reader: _Reader,
    ruleset: Ruleset,
    advancement_schema: Schema,
    position: Position,
    reductions: dict[str, int],
    path: str,
    raw: list[Any],
) -> list[_AdvancementPlan] | None:
    """Replay the advancements in order, as the rules would have allowed them."""
    progress = _Progress()

    def check_entry(
        index: int, where: str, raw_advancement: dict[str, Any]
    ) -> _AdvancementPlan | None:
        before = len(reader.problems)
        plan = _read_advancement(reader, advancement_schema, where, raw_advancement)
        if plan is None:
            return None
        if plan.number != index + 1:
            reader.add(
                f"{where}.number",
                gettext("must be %(number)s (advancements count from 1).", number=index + 1),
            )
        try:
            _check_advancement(reader, ruleset, position, reductions, progress, where, plan)
        except RulesError as error:
            reader.add(where, gettext("The rules refuse it: %(error)s.", error=error))
        return plan if len(reader.problems) == before else None

    return _check_objects(reader, raw, f"{path}.advancements", check_entry)


def _read_advancement(
    reader: _Reader, advancement_schema: Schema, where: str, raw: dict[str, Any]
) -> _AdvancementPlan | None:
    loaded = load(advancement_schema, raw, where)
    reader.report(loaded)
    if not loaded.ok:
        return None
    return _AdvancementPlan(**loaded.values)


def _advancement_schema() -> Schema:
    return loader(
        DocumentAdvancementSchema,
        number=Integer(minimum=1, maximum=99),
        kind=Choice(ADVANCEMENT_KINDS),
        spp_cost=Integer(),
        skill=Text(length=(1, 60), nullable=True),
        characteristic=Text(length=(2, 2), nullable=True),
        category=Text(length=(1, 2), nullable=True),
        dice=Dice(),
        dice_source=Choice((None, *DICE_SOURCES)),
        value_increase=Integer(),
    )


def _check_advancement(
    reader: _Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: dict[str, int],
    progress: _Progress,
    where: str,
    plan: _AdvancementPlan,
) -> None:
    kinds = advancement_kinds(ruleset)
    if plan.kind not in kinds:
        reader.add(
            f"{where}.kind",
            gettext(
                "%(ruleset)s has no %(kind)s advancement.", ruleset=ruleset.name, kind=plan.kind
            ),
        )
        return
    roll_mode = ruleset.advancement.mode == "roll"
    expected_cost = 0 if roll_mode else advancement_cost(ruleset, plan.kind, plan.number)
    if plan.spp_cost != expected_cost:
        reader.add(
            f"{where}.spp_cost",
            gettext(
                "Advancement %(number)s (%(kind)s) costs %(cost)s SPP in %(ruleset)s; "
                "the document says %(stated)s.",
                number=plan.number,
                kind=plan.kind,
                cost=expected_cost,
                ruleset=ruleset.name,
                stated=plan.spp_cost,
            ),
        )
    rolled = needs_dice(ruleset, plan.kind)
    if rolled and (plan.dice is None or plan.dice_source is None):
        reader.add(
            f"{where}.dice",
            gettext("A %(kind)s advancement records its dice and who rolled.", kind=plan.kind),
        )
        return
    if not rolled and (plan.dice is not None or plan.dice_source is not None):
        reader.add(f"{where}.dice", gettext("A %(kind)s advancement has no dice.", kind=plan.kind))
    if (plan.skill is None) == (plan.characteristic is None):
        reader.add(where, gettext("An advancement gives either a skill or a characteristic."))
        return
    if plan.skill is not None:
        expected_value = _check_skill(reader, ruleset, position, reductions, progress, where, plan)
    else:
        expected_value = _check_characteristic(
            reader, ruleset, position, reductions, progress, where, plan
        )
    if expected_value is not None and plan.value_increase != expected_value:
        reader.add(
            f"{where}.value_increase",
            gettext(
                "It adds %(value)s to the player's value in %(ruleset)s; "
                "the document says %(stated)s.",
                value=format_number(expected_value),
                ruleset=ruleset.name,
                stated=format_number(plan.value_increase),
            ),
        )


def _replay(
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    plan: _AdvancementPlan,
) -> Resolution:
    """The resolver's answer to the advancement as the document records it.

    The player is given just the SPP it needs (the SPP totals are checked as a
    whole afterwards), so what is left is the rules of the choice itself.
    """
    number = plan.number
    if ruleset.advancement.mode == "roll":
        spp = ruleset.advancement.thresholds[number - 1]
    else:
        spp = advancement_cost(ruleset, plan.kind, number)
    state = PlayerState.of(
        ruleset,
        position,
        skills=progress.held,
        improvements=progress.improvements,
        reductions=reductions,
        advancements_taken=number - 1,
        spp=spp,
    )
    random_kind = plan.kind in RANDOM_SKILL_KINDS
    request = AdvancementRequest(
        plan.kind,
        skill=plan.skill,
        category=plan.category if random_kind else None,
        # A kind without dice was told about its dice already: its skill is checked alone.
        dice=tuple(plan.dice) if plan.dice is not None and needs_dice(ruleset, plan.kind) else None,
        characteristic=plan.characteristic,
    )
    return resolve(ruleset, state, request)


def _check_skill(
    reader: _Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    where: str,
    plan: _AdvancementPlan,
) -> int | None:
    assert plan.skill is not None  # noqa: S101 - the caller checked
    skill = ruleset.find_skill(plan.skill)
    if skill is None:
        reader.add(
            f"{where}.skill",
            gettext(
                "%(ruleset)s has no skill %(skill)s.", ruleset=ruleset.name, skill=repr(plan.skill)
            ),
        )
        return None
    if plan.kind in RANDOM_SKILL_KINDS and plan.category != skill.category:
        reader.add(
            f"{where}.category",
            gettext(
                "%(skill)s is in the %(category)s category; the document says %(stated)s.",
                skill=skill.name,
                category=skill.category,
                stated=show(plan.category),
            ),
        )
        return None
    resolution = _replay(ruleset, position, reductions, progress, plan)
    if resolution.status == "taken":
        progress.held.append(skill.name)
        return resolution.value
    code = resolution.reason.code if resolution.status == "refused" else ""
    refusal = resolution.decision
    # A refusal of the skill itself (access, held, trait...), not of the dice.
    skill_refused = resolution.field == "skill" or code not in ("reroll_required", "not_rolled", "")
    if code == "reroll_required" and skill.name in resolution.reason.params.get("skills", ()):
        # The recorded skill is one he may not take: say why, not just "re-roll".
        refusal = skill_decision(ruleset, position, progress.held, skill.name, plan.kind)
        skill_refused = True
    if code == "invalid_dice":
        raise RulesError(str(resolution.reason.params.get("text")))
    if code == "not_a_double":
        reader.add(
            f"{where}.kind",
            gettext("A roll of %(dice)s gives no %(kind)s skill.", dice=plan.dice, kind=plan.kind),
        )
    elif skill_refused:
        reader.add(
            f"{where}.skill",
            gettext(
                "%(refusal)s (%(skill)s, %(kind)s).",
                refusal=_refusal(refusal, position.name),
                skill=skill.name,
                kind=plan.kind,
            ),
        )
    else:  # the dice give another skill
        reader.add(
            f"{where}.dice",
            gettext(
                "The dice %(dice)s do not give %(skill)s in %(ruleset)s.",
                dice=plan.dice,
                skill=skill.name,
                ruleset=ruleset.name,
            ),
        )
    return None


def _check_characteristic(
    reader: _Reader,
    ruleset: Ruleset,
    position: Position,
    reductions: Mapping[str, int],
    progress: _Progress,
    where: str,
    plan: _AdvancementPlan,
) -> int | None:
    characteristic = plan.characteristic
    assert characteristic is not None  # noqa: S101 - the caller checked
    if plan.kind != RANDOM_CHARACTERISTIC_KIND:
        reader.add(
            f"{where}.kind",
            gettext("A characteristic comes from a %(kind)s.", kind=RANDOM_CHARACTERISTIC_KIND),
        )
        return None
    if characteristic not in ruleset.characteristics:
        reader.add(
            f"{where}.characteristic",
            gettext(
                "must be one of %(known)s; it is %(value)s.",
                known=", ".join(ruleset.characteristics),
                value=repr(characteristic),
            ),
        )
        return None
    resolution = _replay(ruleset, position, reductions, progress, plan)
    if resolution.status == "taken":
        progress.improvements[characteristic] += 1
        return resolution.value
    code = resolution.reason.code if resolution.status == "refused" else ""
    if code == "invalid_dice":
        raise RulesError(str(resolution.reason.params.get("text")))
    if code == "not_offered":
        who = gettext("A %(position)s", position=position.name)
        reader.add(f"{where}.characteristic", refusal_text(resolution, who))
    else:
        reader.add(
            f"{where}.characteristic",
            gettext(
                "%(refusal)s (%(characteristic)s).",
                refusal=_refusal(resolution.decision, position.name),
                characteristic=characteristic.upper(),
            ),
        )
    return None


def _refusal(decision: Decision, position: str) -> str:
    """Why a player of ``position`` may not have it ("A Blitzer needs 6 SPP and has 3")."""
    who = gettext("A %(position)s", position=position)
    if not decision.reasons:
        return gettext("%(who)s may not take it", who=who)
    return reason_sentence(decision.reasons[0], who)


# ---------------------------------------------------------------------------
# Import


def import_team(
    session: Session,
    actor: User,
    league_id: int,
    document: object,
    *,
    coach: str | None = None,
) -> Team:
    """Recreate the team of `document` in the league, coached by `coach` (default: the actor).

    One transaction: the team, its players, their advancements and skills, the
    ledger and the opening balances are written together, or nothing is.
    """
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    coach_user = actor
    if coach is not None and coach.strip().lower() != actor.username.lower():
        found = None if "\x00" in coach else find_user(session, coach)
        if found is None or membership(league, found) is None:
            raise NotFound(
                gettext(
                    "%(coach)s is not a coach in %(league)s.", coach=repr(coach), league=league.name
                ),
                field="coach",
            )
        coach_user = found
    ruleset = league_ruleset(league)
    plan = check_document(ruleset, league, document)
    now = datetime.now(UTC)
    team = Team(
        league=league,
        coach_id=coach_user.id,
        name=plan.name,
        team_type_id=plan.team_type.id,
        status=plan.status,
        treasury=0,
        rerolls=plan.rerolls,
        apothecary=plan.apothecary,
        assistant_coaches=plan.assistant_coaches,
        cheerleaders=plan.cheerleaders,
        dedicated_fans=plan.dedicated_fans,
        confirmed_at=now if plan.status == "active" else None,
    )
    session.add(team)
    for entry in plan.ledger:
        post_entry(
            session, team, actor, entry.amount, entry.kind, entry.description, item=entry.item
        )
    session.flush()
    session.add(TeamOpening(team_id=team.id, fans_change=plan.fans_change))
    for player_plan in plan.players:
        _create_player(session, team, player_plan)
    session.flush()
    differences = recompute_team(session, team, fix=False)
    if differences:  # A check above missed something: refuse rather than store it.
        raise InvalidDocument([Problem("", str(difference)) for difference in differences])
    audit.record(
        session,
        actor,
        "team.import",
        "team",
        team.id,
        coach=coach_user.username,
        players=len(plan.players),
    )
    return team


def _create_player(session: Session, team: Team, plan: _PlayerPlan) -> Player:
    cost = plan.position.cost
    player = Player(
        team=team,
        position_id=plan.position.id,
        name=plan.name,
        number=plan.number,
        status=plan.status,
        cost=cost,
        value=cost + sum(a.value_increase for a in plan.advancements),
        spp_earned=plan.spp_earned,
        spp_spent=plan.spp_spent,
        niggling_injuries=plan.niggling_injuries,
        **{f"{c}_reduction": n for c, n in plan.reductions.items()},
    )
    session.add(player)
    session.flush()
    session.add(
        PlayerOpening(
            player_id=player.id,
            spp=plan.spp_earned,
            niggling_injuries=plan.niggling_injuries,
            status=plan.status if plan.status in ("mng", "dead") else "active",
            **{f"{c}_reduction": n for c, n in plan.reductions.items()},
        )
    )
    for step in plan.advancements:
        advancement = Advancement(
            player=player,
            number=step.number,
            kind=step.kind,
            spp_cost=step.spp_cost,
            skill=step.skill and _skill_name(team, step.skill),
            characteristic=step.characteristic,
            category=step.category,
            dice=step.dice,
            dice_source=step.dice_source,
            # The server's dice go into the player's dice log (undoing gives them back).
            dice_roll=DiceRoll(
                player=player, kind=step.kind, category=step.category, dice=list(step.dice)
            )
            if step.dice_source == "server" and step.dice is not None
            else None,
            value_increase=step.value_increase,
        )
        session.add(advancement)
        session.flush()
        if advancement.skill:
            session.add(
                PlayerSkill(
                    player_id=player.id, skill=advancement.skill, advancement_id=advancement.id
                )
            )
    return player


def _skill_name(team: Team, name: str) -> str:
    """The ruleset's spelling of the skill (documents may write "Loner (4+)" style names)."""
    skill = team_ruleset(team).find_skill(name)
    return skill.name if skill else name
