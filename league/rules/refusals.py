"""One sentence for each refusal the team-building and match-report rules give.

The rules answer with a `Decision` whose reasons carry a code and the numbers
behind it; this module turns one reason into the text a coach reads. Names that
are not rules data (the team's, the player's) are passed in.
"""

from __future__ import annotations

from league.rules.match_day import reason_text as match_day_text
from league.rules.model import Reason
from league.rules.team_building import PURCHASE_ITEM_NAMES

__all__ = ["an_item", "refusal_text"]

#: The pre-game's own refusals (league.rules.match_day words them).
_MATCH_DAY_CODES = frozenset(
    {
        "not_your_turn",
        "unknown_inducement",
        "not_eligible",
        "over_limit",
        "negative_count",
        "unknown_star",
        "star_not_eligible",
        "duplicate_star",
        "excludes_star",
        "too_many_stars",
        "too_many_mercenaries",
        "unknown_skill",
        "skill_already_held",
        "skill_not_primary",
        "no_roster_place",
        "over_budget",
        "not_journeyman_position",
        "journeymen_not_needed",
    }
)


def _is_match_day(reason: Reason) -> bool:
    """A pre-game refusal? Codes shared with team building tell by their numbers."""
    p = reason.params
    return (
        reason.code in _MATCH_DAY_CODES
        or (reason.code == "position_full" and "have" not in p)
        or (reason.code == "not_enough_gold" and "cost" in p)
        or (reason.code == "unknown_position" and "team_type_name" not in p)
    )


#: Short forms for a table cell (the hire table says why a position cannot be hired).
_SHORT = {
    "position_full": "full",
    "roster_full": "roster full",
    "big_guys_full": "Big Guys full",
    "not_enough_gold": "not enough gold",
}


def refusal_text(reason: Reason, *, team: str = "", short: bool = False) -> str:
    """What a person reads for ``reason``; ``team`` names the team it concerns.

    ``short``: a few words for a table cell where the row already says what was
    refused (falls back to the sentence for codes without a short form).
    """
    p = reason.params
    if short and reason.code in _SHORT:
        return _SHORT[reason.code]
    if _is_match_day(reason):
        return match_day_text(reason)
    item = str(p.get("item", ""))
    name = PURCHASE_ITEM_NAMES.get(item, item)
    if reason.code == "limit_reached":
        if item == "reroll":
            return f"A team may have at most {p['max']} team re-rolls."
        if item == "apothecary":
            return f"{team} already has an apothecary."
        if item == "dedicated_fan":
            return f"A new team may start with at most {p['max']} dedicated fans."
        return f"A team may have at most {p['max']} {name}s."
    if reason.code == "position_full":
        have = p["have"]
        plural = "" if have == 1 else "s"
        return f"{team} already has {have} {p['position']}{plural}; the roster allows {p['max']}."
    if reason.code == "not_enough_gold":
        return f"Costs {p['needed']:,}; the treasury holds {p['have']:,}."
    if reason.code == "big_guys_full":
        plural = "" if p["max"] == 1 else "s"
        return f"A {p['team_type_name']} team may have {p['max']} Big Guy{plural} in all."
    texts = {
        "unknown_item": f"Unknown item {item!r}.",
        "not_allowed": f"{p.get('team_type_name')} teams cannot hire {an_item(item)}.",
        "draft_only": (
            "Dedicated fans are bought only while drafting; after that they change after games."
        ),
        "draft_over": "Items can be given back only during the draft.",
        "nothing_to_give_back": f"{team} has no {name} to give back.",
        "unknown_position": (
            f"{p.get('team_type_name')} teams have no position {p.get('position')!r}."
        ),
        "roster_full": f"{team} already has {p.get('max')} players, the most a team may have.",
        "rise_needs_win": "Dedicated fans only rise after a win.",
        "fall_needs_loss": "Dedicated fans only fall after a loss.",
        "fans_at_max": f"Dedicated fans are already at {p.get('max')}.",
        "fans_at_start": f"Dedicated fans cannot fall below {p.get('start')}.",
        "lasting_without_injury": "a lasting injury needs the casualty result too.",
        "unknown_injury": f"unknown injury {p.get('injury')!r}.",
        "lasting_characteristic_needed": "say which characteristic the lasting injury hits.",
        "not_lasting": "only a lasting injury reduces a characteristic.",
        "no_redraft": f"{p.get('ruleset')} has no off-season re-draft.",
        "bracket_size": "A bracket has 4, 8 or 16 teams.",
        "not_enough_teams": (
            f"The table has {p.get('teams')} teams: too few for a bracket of {p.get('size')}."
        ),
        "same_division_pairing": (
            f"No first round of {p.get('size')} avoids a match between two teams of the "
            "same division."
        ),
    }
    return texts.get(reason.code, reason.code.replace("_", " "))


def an_item(item: str) -> str:
    """'a team re-roll', 'an apothecary'."""
    name = PURCHASE_ITEM_NAMES.get(item, item)
    return f"{'an' if name[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {name}"
