"""The live match log: which events an edition has, what they put in the report, and the
casualty roll the server makes when the league's dice are the server's.

Nothing here is a number of its own: a counter kind exists in an edition when its
ruleset awards SPP for it (to any team: BB2025's Brawlin' Brutes variant counts), and
stalling exists where the winnings formula pays a bonus for not stalling (BB2025).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from league.rules.injuries import casualty_outcome, lasting_characteristics, lasting_injury
from league.rules.model import Ruleset

__all__ = [
    "COUNTER_OF_KIND",
    "HALVES",
    "INJURY_KINDS",
    "LOG_KINDS",
    "PLAYERLESS_KINDS",
    "TURNS_PER_HALF",
    "CasualtyRoll",
    "log_kinds",
    "roll_casualty",
]

#: Each coach has eight turns a half, in every edition the project ships (BB2025, BB2020,
#: classic LRB6): an event is logged at a turn from 1 to this.
TURNS_PER_HALF = 8
#: The halves an event is logged in: the two halves, then overtime (3).
HALVES: tuple[int, ...] = (1, 2, 3)

#: Every kind of event the log knows, in the order the page offers them.
LOG_KINDS: tuple[str, ...] = (
    "td",
    "comp",
    "throw_completion",
    "safe_landing",
    "int",
    "deflection",
    "cas",
    "injury",
    "ko",
    "sent_off",
    "mvp",
    "stalling",
    "concession",
)
#: Kinds that count in the report as the SPP counter of the same name (API names).
COUNTER_OF_KIND: dict[str, str] = {
    "td": "td",
    "comp": "comp",
    "throw_completion": "throw_completion",
    "safe_landing": "safe_landing",
    "int": "int",
    "deflection": "deflection",
    "cas": "cas",
    "mvp": "mvp",
}
#: Kinds that carry an injury: a casualty (on the victim) and an injury nobody caused.
INJURY_KINDS: tuple[str, ...] = ("cas", "injury")
#: Kinds that name no player: the side concedes.
PLAYERLESS_KINDS: tuple[str, ...] = ("concession",)
#: Kinds every edition has, whatever it awards for them.
_ALWAYS = ("td", "cas", "injury", "ko", "sent_off", "mvp", "concession")


def log_kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """The kinds a match of this edition may log, in `LOG_KINDS` order."""
    awarded = {name for name, points in ruleset.spp.awards.items() if points > 0}
    for variant in ruleset.spp.variants:
        awarded |= {name for name, points in variant.awards.items() if points > 0}
    has = set(_ALWAYS) | {kind for kind, counter in COUNTER_OF_KIND.items() if counter in awarded}
    if ruleset.winnings is not None and ruleset.winnings.no_stalling_bonus > 0:
        has.add("stalling")
    return tuple(kind for kind in LOG_KINDS if kind in has)


@dataclass(frozen=True, slots=True)
class CasualtyRoll:
    """The server's casualty roll: the natural die, its result's code, and for a lasting
    injury the characteristic (and the D6 when the edition rolls it on its own table)."""

    dice: tuple[int, ...]
    injury: str
    lasting: str | None


def _casualty_die(ruleset: Ruleset, randint: Callable[[int, int], int]) -> int:
    if ruleset.casualty_table.die == "d68":
        return 10 * randint(1, 6) + randint(1, 8)
    return randint(1, 16)


def roll_casualty(
    ruleset: Ruleset, randint: Callable[[int, int], int], niggling_injuries: int = 0
) -> CasualtyRoll:
    """Roll the casualty table (and the lasting-injury D6 where the edition has one)."""
    die = _casualty_die(ruleset, randint)
    result = casualty_outcome(ruleset, die, niggling_injuries)
    if result.effect != "lasting":
        return CasualtyRoll((die,), result.code, None)
    if result.characteristic is not None:
        return CasualtyRoll((die,), result.code, result.characteristic)
    if ruleset.lasting_injuries:
        d6 = randint(1, 6)
        return CasualtyRoll((die, d6), result.code, lasting_injury(ruleset, d6))
    return CasualtyRoll((die,), result.code, lasting_characteristics(ruleset, result.code)[0])
