"""The import's building blocks: the limits, the problems found and the plan a checked
document becomes.

A document is read whole: a `Reader` gathers every problem in the document's order, and
`InvalidDocument` reports them all at once. What passes is a `TeamPlan` (its players'
`PlayerPlan`, their `AdvancementPlan`, the `LedgerPlan` entries) that `writes` stores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from league.i18n import gettext, ngettext
from league.rules import Position, TeamType
from league.services.errors import Problem, RuleViolation
from league.services.team_document import Loaded

#: Team statuses a document may carry (a retired team is not imported).
IMPORTABLE_STATUSES = ("draft", "active")
#: Generous limits that keep a hostile document from costing much.
MAX_PLAYERS = 500
MAX_LEDGER = 10_000
#: At most this many problems are listed (a hopeless document need not list thousands).
MAX_PROBLEMS = 200


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


class Reader:
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
class AdvancementPlan:
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
class PlayerPlan:
    name: str
    number: int
    position: Position
    status: str
    spp_earned: int
    spp_spent: int
    niggling_injuries: int
    reductions: dict[str, int]
    advancements: list[AdvancementPlan] = field(default_factory=list)


@dataclass(slots=True)
class LedgerPlan:
    amount: int
    kind: str
    description: str
    item: str | None


@dataclass(slots=True)
class TeamPlan:
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
    players: list[PlayerPlan]
    ledger: list[LedgerPlan]


def check_objects(
    reader: Reader,
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
