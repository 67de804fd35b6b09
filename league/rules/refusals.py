"""One sentence for each refusal the team-building and match-report rules give.

The rules answer with a `Decision` whose reasons carry a code and the numbers
behind it; this module turns one reason into the text a coach reads, in the
reader's language (`league.i18n`). Names that are not rules data (the team's,
the player's) are passed in.

Sentences that name a purchase item have one message per item, so that each
language can decline the item's name and choose its article.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from league.i18n import N_, format_number, gettext, ngettext
from league.rules.match_day import reason_text as match_day_text
from league.rules.model import Reason

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
    "position_full": N_("full"),
    "roster_full": N_("roster full"),
    "big_guys_full": N_("Big Guys full"),
    "not_enough_gold": N_("not enough gold"),
}

#: The item with its indefinite article, as a phrase on its own ("a team re-roll").
_AN_ITEM = {
    "reroll": N_("a team re-roll"),
    "apothecary": N_("an apothecary"),
    "assistant_coach": N_("an assistant coach"),
    "cheerleader": N_("a cheerleader"),
    "dedicated_fan": N_("a dedicated fan"),
}

#: "<team type> teams cannot hire <item>.", one sentence per item.
_NOT_ALLOWED = {
    "reroll": N_("%(team_type)s teams cannot hire a team re-roll."),
    "apothecary": N_("%(team_type)s teams cannot hire an apothecary."),
    "assistant_coach": N_("%(team_type)s teams cannot hire an assistant coach."),
    "cheerleader": N_("%(team_type)s teams cannot hire a cheerleader."),
    "dedicated_fan": N_("%(team_type)s teams cannot hire a dedicated fan."),
}

#: "<team> has no <item> to give back.", one sentence per item.
_NOTHING_TO_GIVE_BACK = {
    "reroll": N_("%(team)s has no team re-roll to give back."),
    "apothecary": N_("%(team)s has no apothecary to give back."),
    "assistant_coach": N_("%(team)s has no assistant coach to give back."),
    "cheerleader": N_("%(team)s has no cheerleader to give back."),
    "dedicated_fan": N_("%(team)s has no dedicated fan to give back."),
}


def _limit_reached(item: str, maximum: int, team: str) -> str:
    if item == "reroll":
        return ngettext(
            "A team may have at most %(num)d team re-roll.",
            "A team may have at most %(num)d team re-rolls.",
            maximum,
        )
    if item == "apothecary":
        return gettext("%(team)s already has an apothecary.", team=team)
    if item == "dedicated_fan":
        return ngettext(
            "A new team may start with at most %(num)d dedicated fan.",
            "A new team may start with at most %(num)d dedicated fans.",
            maximum,
        )
    if item == "assistant_coach":
        return ngettext(
            "A team may have at most %(num)d assistant coach.",
            # The English text the team page has always shown ("coachs", tests pin it).
            "A team may have at most %(num)d assistant coachs.",
            maximum,
        )
    if item == "cheerleader":
        return ngettext(
            "A team may have at most %(num)d cheerleader.",
            "A team may have at most %(num)d cheerleaders.",
            maximum,
        )
    return gettext("A team may have at most %(max)s of %(item)s.", max=maximum, item=item)


def refusal_text(reason: Reason, *, team: str = "", short: bool = False) -> str:
    """What a person reads for ``reason``; ``team`` names the team it concerns.

    ``short``: a few words for a table cell where the row already says what was
    refused (falls back to the sentence for codes without a short form).
    """
    p = reason.params
    if short and reason.code in _SHORT:
        return gettext(_SHORT[reason.code])
    if _is_match_day(reason):
        return match_day_text(reason)
    item = str(p.get("item", ""))
    if reason.code == "limit_reached":
        return _limit_reached(item, int(p["max"]), team)
    if reason.code == "position_full":
        return ngettext(
            "%(team)s already has %(num)d %(position)s; the roster allows %(max)s.",
            "%(team)s already has %(num)d %(position)ss; the roster allows %(max)s.",
            int(p["have"]),
            team=team,
            position=p["position"],
            max=p["max"],
        )
    if reason.code == "not_enough_gold":
        return gettext(
            "Costs %(needed)s; the treasury holds %(have)s.",
            needed=format_number(p["needed"]),
            have=format_number(p["have"]),
        )
    if reason.code == "big_guys_full":
        return ngettext(
            "A %(team_type)s team may have %(num)d Big Guy in all.",
            "A %(team_type)s team may have %(num)d Big Guys in all.",
            int(p["max"]),
            team_type=p["team_type_name"],
        )
    texts = {
        **_team_building_texts(p, item, team),
        **_match_report_texts(p),
        **_season_texts(p),
    }
    text = texts.get(reason.code)
    return text() if text is not None else reason.code.replace("_", " ")


def _team_building_texts(
    p: Mapping[str, Any], item: str, team: str
) -> dict[str, Callable[[], str]]:
    """Hiring, buying and giving back while a team is built."""
    return {
        "unknown_item": lambda: gettext("Unknown item %(item)s.", item=repr(item)),
        "not_allowed": lambda: (
            gettext(_NOT_ALLOWED[item], team_type=p.get("team_type_name"))
            if item in _NOT_ALLOWED
            else gettext(
                "%(team_type)s teams cannot hire %(item)s.",
                team_type=p.get("team_type_name"),
                item=item,
            )
        ),
        "draft_only": lambda: gettext(
            "Dedicated fans are bought only while drafting; after that they change after games."
        ),
        "draft_over": lambda: gettext("Items can be given back only during the draft."),
        "nothing_to_give_back": lambda: (
            gettext(_NOTHING_TO_GIVE_BACK[item], team=team)
            if item in _NOTHING_TO_GIVE_BACK
            else gettext("%(team)s has no %(item)s to give back.", team=team, item=item)
        ),
        "unknown_position": lambda: gettext(
            "%(team_type)s teams have no position %(position)s.",
            team_type=p.get("team_type_name"),
            position=repr(p.get("position")),
        ),
        "roster_full": lambda: gettext(
            "%(team)s already has %(max)s players, the most a team may have.",
            team=team,
            max=p.get("max"),
        ),
    }


def _match_report_texts(p: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
    """Dedicated Fans and injuries in a match report."""
    return {
        "fans_step": lambda: gettext("Dedicated fans change by -1, 0 or +1."),
        "concession_fans": lambda: gettext(
            "A team that concedes loses %(dice)s Dedicated Fans, never below %(start)s: "
            "change them by %(changes)s.",
            dice=p.get("dice"),
            start=p.get("start"),
            changes=p.get("changes"),
        ),
        "rise_needs_win": lambda: gettext("Dedicated fans only rise after a win."),
        "fall_needs_loss": lambda: gettext("Dedicated fans only fall after a loss."),
        "fans_at_max": lambda: gettext("Dedicated fans are already at %(max)s.", max=p.get("max")),
        "fans_at_start": lambda: gettext(
            "Dedicated fans cannot fall below %(start)s.", start=p.get("start")
        ),
        "lasting_without_injury": lambda: gettext(
            "a lasting injury needs the casualty result too."
        ),
        "unknown_injury": lambda: gettext(
            "unknown injury %(injury)s.", injury=repr(p.get("injury"))
        ),
        "lasting_characteristic_needed": lambda: gettext(
            "say which characteristic the lasting injury hits."
        ),
        "not_lasting": lambda: gettext("only a lasting injury reduces a characteristic."),
    }


def _season_texts(p: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
    """Re-drafts, brackets and a matched-play roster."""
    return {
        "no_redraft": lambda: gettext(
            "%(ruleset)s has no off-season re-draft.", ruleset=p.get("ruleset")
        ),
        "bracket_size": lambda: gettext("A bracket has 4, 8 or 16 teams."),
        "not_enough_teams": lambda: gettext(
            "The table has %(teams)s teams: too few for a bracket of %(size)s.",
            teams=p.get("teams"),
            size=p.get("size"),
        ),
        "roster_over_budget": lambda: gettext(
            "The roster costs %(cost)s, %(over)s over the budget of %(budget)s.",
            cost=format_number(p["cost"]),
            over=format_number(p["over"]),
            budget=format_number(p["budget"]),
        ),
        "over_skill_points": lambda: gettext(
            "The skills added cost %(used)s skill points; a tier %(tier)s team has %(allowed)s.",
            used=p["used"],
            tier=p["tier"],
            allowed=p["allowed"],
        ),
        "too_many_secondary_skills": lambda: ngettext(
            "%(count)s secondary skills added; at most %(num)d is allowed.",
            "%(count)s secondary skills added; at most %(num)d are allowed.",
            int(p["max"]),
            count=p["count"],
        ),
        "elite_skill_over_cap": lambda: ngettext(
            "%(skill)s is added %(count)s times; an elite skill may be added at most %(num)d time.",
            "%(skill)s is added %(count)s times; "
            "an elite skill may be added at most %(num)d times.",
            int(p["max"]),
            skill=p["skill"],
            count=p["count"],
        ),
        "same_division_pairing": lambda: gettext(
            "No first round of %(size)s avoids a match between two teams of the same division.",
            size=p.get("size"),
        ),
    }


def an_item(item: str, *, translated: bool = True) -> str:
    """'a team re-roll', 'an apothecary': the item as a phrase on its own (a label).

    ``translated=False``: the English phrase, for text stored as data (ledger entries).
    """
    phrase = _AN_ITEM.get(item)
    if phrase is not None:
        return gettext(phrase) if translated else phrase
    return f"{'an' if item[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {item}"
