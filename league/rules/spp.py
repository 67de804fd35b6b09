"""Star Player Points earned in a match."""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass, fields

from league.rules.model import SPP_EVENTS, RulesError, Ruleset, SppVariant, TeamType, frozen_mapping

__all__ = ["SppEvents", "spp_awards", "spp_for_events", "spp_variants"]


@dataclass(frozen=True, slots=True)
class SppEvents:
    """One player's counters from one match (keys as in the API; pass them by name)."""

    td: builtins.int = 0
    cas: builtins.int = 0
    comp: builtins.int = 0
    deflection: builtins.int = 0
    throw_completion: builtins.int = 0
    safe_landing: builtins.int = 0
    mvp: builtins.int = 0
    #: Interceptions (named as in the API; declared last so it shadows nothing).
    int: builtins.int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                object.__setattr__(self, f.name, builtins.int(value))
            elif not isinstance(value, builtins.int) or value < 0:
                raise RulesError(f"{f.name} must be a whole number >= 0, got {value!r}")

    @classmethod
    def from_mapping(cls, counters: Mapping[str, object]) -> SppEvents:
        """From a dict such as a player's entry in an API match report (``mvp`` may be a bool)."""
        unknown = sorted(set(counters) - set(SPP_EVENTS))
        if unknown:
            raise RulesError(f"unknown SPP events: {', '.join(unknown)}")
        # Values from outside (JSON): __post_init__ refuses any that is not a whole number.
        return cls(**counters)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, builtins.int]:
        return {name: getattr(self, name) for name in SPP_EVENTS}


def spp_variants(ruleset: Ruleset, team_type: TeamType | None) -> tuple[SppVariant, ...]:
    """The team rules that change the SPP a team's players earn (BB2025 Brawlin' Brutes)."""
    if team_type is None:
        return ()
    return tuple(v for v in ruleset.spp.variants if team_type.has_special_rule(v.special_rule))


def spp_awards(ruleset: Ruleset, team_type: TeamType | None = None) -> Mapping[str, int]:
    """SPP per event for a team (BB2025 Brawlin' Brutes teams get their variant)."""
    awards = dict(ruleset.spp.awards)
    for variant in spp_variants(ruleset, team_type):
        awards.update(variant.awards)
    return frozen_mapping(awards)


def spp_for_events(
    ruleset: Ruleset,
    events: SppEvents | Mapping[str, object],
    team_type: TeamType | None = None,
) -> int:
    """Total SPP a player earns for ``events``."""
    if not isinstance(events, SppEvents):
        events = SppEvents.from_mapping(events)
    awards = spp_awards(ruleset, team_type)
    return sum(count * awards[name] for name, count in events.as_dict().items())
