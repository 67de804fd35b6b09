"""The wording registry: the words people read for every refusal the rules give.

Reasons carry a namespaced code and the numbers behind it (``advancement.not_enough_spp``,
``match_day.over_budget``, ``postgame.mvp_die``): the namespace names the rules that
refuse, so a reason given in two places is worded for where it was given.
:data:`WORDINGS` maps each code to its words in the reader's language (`league.i18n`);
:func:`refusal_text` is the one way a code becomes a sentence. Names that are not rules
data (the team's, the player's) are passed in. Sentences that name a purchase item have
one message per item, so that each language can decline the item's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from league.i18n import N_, format_list, format_number, gettext, ngettext
from league.rules.characteristics import stat_label
from league.rules.model import Decision, Reason
from league.rules.resolver import Resolution, alternatives

__all__ = [
    "WORDINGS",
    "Wording",
    "an_item",
    "reason_phrase",
    "reason_sentence",
    "refusal_text",
    "wording",
]

#: Words from a reason's parameters and the name of what it concerns (the team,
#: or the player as "who").
Words = Callable[[Mapping[str, Any], str], str]


@dataclass(frozen=True, slots=True)
class Wording:
    """The words for one reason code; a code with none reads as its own words
    ("no random table").

    ``sentence``: a whole sentence. ``short``: a few words, for a table cell or a
    list of refused options. ``about``: what the player (``who``) cannot do, without
    the full stop ("Grim needs 6 SPP and has 3"). ``form``: the sentence the
    advancement form shows beside the field it is about.
    """

    sentence: Words | None = None
    short: Words | None = None
    about: Words | None = None
    form: Words | None = None


# ---------------------------------------------------------------------------
# Helpers the wordings share


def _says(message: str) -> Words:
    """Words that need no parameters: ``message`` (marked with ``N_``) translated."""
    return lambda params, who: gettext(message)


def _gold(amount: object) -> str:
    return format_number(amount) if isinstance(amount, int) else str(amount)


def _skills(params: Mapping[str, Any]) -> str:
    return alternatives(map(str, params.get("skills") or ()))


def _as_sentence(text: str) -> str:
    """Capital first, full stop last."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _dice_form(p: Mapping[str, Any], who: str) -> str:
    """Dice that cannot be the roll, as the form says it (how many dice to type in)."""
    text = str(p.get("text"))
    if "count" in p:
        text = (
            gettext("%(text)s: enter two dice", text=text)
            if p["count"] == 2
            else gettext("%(text)s: enter one die", text=text)
        )
    return _as_sentence(text)


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


def _not_allowed(p: Mapping[str, Any], team: str) -> str:
    item = str(p.get("item", ""))
    if item in _NOT_ALLOWED:
        return gettext(_NOT_ALLOWED[item], team_type=p.get("team_type_name"))
    return gettext(
        "%(team_type)s teams cannot hire %(item)s.", team_type=p.get("team_type_name"), item=item
    )


def _nothing_to_give_back(p: Mapping[str, Any], team: str) -> str:
    item = str(p.get("item", ""))
    if item in _NOTHING_TO_GIVE_BACK:
        return gettext(_NOTHING_TO_GIVE_BACK[item], team=team)
    return gettext("%(team)s has no %(item)s to give back.", team=team, item=item)


def _limit_reached(p: Mapping[str, Any], team: str) -> str:
    item = str(p.get("item", ""))
    maximum = int(p["max"])
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


# ---------------------------------------------------------------------------
# Advancement (league.rules.advancement, league.rules.resolver)

_ADVANCEMENT: dict[str, Wording] = {
    "advancement.not_enough_spp": Wording(
        about=lambda p, who: gettext(
            "%(who)s needs %(needed)s SPP and has %(have)s",
            who=who,
            needed=p.get("needed"),
            have=p.get("have"),
        ),
        short=lambda p, who: gettext(
            "needs %(needed)s SPP, has %(have)s", needed=p.get("needed"), have=p.get("have")
        ),
    ),
    "advancement.no_roll_pending": Wording(
        about=lambda p, who: gettext(
            "%(who)s has no Star Player Roll due (the next comes at %(needed)s SPP)",
            who=who,
            needed=p.get("needed"),
        ),
        short=lambda p, who: gettext(
            "the next Star Player Roll comes at %(needed)s SPP", needed=p.get("needed")
        ),
    ),
    "advancement.max_advancements": Wording(
        about=lambda p, who: gettext(
            "%(who)s already has the most advancements (%(max)s)", who=who, max=p.get("max")
        ),
        short=lambda p, who: gettext("all %(max)s advancements taken", max=p.get("max")),
    ),
    "advancement.already_held": Wording(
        about=lambda p, who: gettext("%(who)s already has that skill", who=who),
        short=_says(N_("already has it")),
    ),
    "advancement.excluded_by": Wording(
        about=lambda p, who: gettext(
            "%(who)s cannot take it together with %(by)s", who=who, by=p.get("by")
        ),
        short=lambda p, who: gettext("cannot be taken together with %(by)s", by=p.get("by")),
    ),
    "advancement.requires": Wording(
        about=lambda p, who: gettext("%(who)s needs %(skills)s first", who=who, skills=_skills(p)),
        short=lambda p, who: gettext("needs %(skills)s first", skills=_skills(p)),
    ),
    "advancement.trait": Wording(
        about=lambda p, who: gettext("%(who)s cannot learn traits", who=who),
        short=_says(N_("a trait: traits cannot be learned")),
    ),
    "advancement.not_buyable": Wording(
        about=lambda p, who: gettext("%(who)s cannot take that skill as an advancement", who=who),
        short=_says(N_("cannot be taken as an advancement")),
    ),
    "advancement.not_primary": Wording(
        about=lambda p, who: gettext("%(who)s has no primary access to that category", who=who),
        short=_says(N_("not a primary category for this position")),
    ),
    "advancement.not_secondary": Wording(
        about=lambda p, who: gettext("%(who)s has no secondary access to that category", who=who),
        short=_says(N_("a primary category: take it as a primary skill")),
    ),
    "advancement.category_not_accessible": Wording(
        about=lambda p, who: gettext("%(who)s has no access to that category", who=who),
        short=_says(N_("the position has no access to this category")),
    ),
    "advancement.kind_not_available": Wording(
        about=lambda p, who: gettext(
            "%(who)s cannot take that kind of advancement in this ruleset", who=who
        ),
        short=_says(N_("not offered by this ruleset")),
    ),
    "advancement.max_improvements": Wording(
        about=lambda p, who: gettext(
            "%(who)s has improved that characteristic as often as allowed", who=who
        ),
        short=lambda p, who: gettext("already improved %(max)s times", max=p.get("max")),
    ),
    "advancement.at_maximum": Wording(
        about=lambda p, who: gettext(
            "%(who)s already has that characteristic at its best", who=who
        ),
        short=_says(N_("already at its best")),
    ),
    "advancement.max_increase_from_start": Wording(
        about=lambda p, who: gettext(
            "%(who)s has raised that characteristic as far as allowed", who=who
        ),
        short=lambda p, who: gettext(
            "already +%(limit)s over the starting value", limit=p.get("limit")
        ),
    ),
    "advancement.unknown_skill": Wording(
        about=lambda p, who: gettext(
            "%(who)s asked for a skill this ruleset does not have", who=who
        ),
        short=_says(N_("no such skill in this ruleset")),
    ),
    "advancement.unknown_category": Wording(
        about=lambda p, who: gettext("%(who)s asked for an unknown skill category", who=who),
    ),
    "advancement.reroll_required": Wording(
        about=lambda p, who: gettext("%(who)s rolled a skill he cannot take: roll again", who=who),
        form=lambda p, who: gettext(
            "The dice give %(skills)s, which %(name)s cannot take: roll again.",
            skills=format_list(p.get("skills", ())),
            name=who,
        ),
    ),
    "advancement.pick_required": Wording(
        about=lambda p, who: gettext("%(who)s must pick one of the two rolled skills", who=who),
    ),
    "advancement.not_rolled": Wording(
        form=lambda p, who: gettext(
            "Keep one of the rolled skills: %(skills)s.",
            skills=format_list(p.get("options", ()), style="or"),
        ),
    ),
    "advancement.unknown_kind": Wording(),
    "advancement.no_random_table": Wording(),
    "advancement.unknown_characteristic": Wording(),
    # Refusals of the request itself: whole sentences, no player named.
    "advancement.field_not_taken": Wording(
        sentence=lambda p, who: gettext(
            "A %(kind)s advancement takes no %(field)s: leave it out.",
            kind=str(p.get("kind")).replace("_", " "),
            field=p.get("field"),
        ),
    ),
    "advancement.no_such_category": Wording(
        sentence=lambda p, who: gettext(
            "%(ruleset)s has no skill category %(category)s.",
            ruleset=p.get("ruleset"),
            category=repr(p.get("category")),
        ),
    ),
    "advancement.category_required": Wording(
        sentence=_says(N_("Pick the skill category to roll on.")),
        form=_says(N_("Pick the skill category to roll on.")),
    ),
    "advancement.skill_required": Wording(
        sentence=_says(N_("Name the skill to take.")),
        form=_says(N_("Pick the skill to take.")),
    ),
    "advancement.invalid_dice": Wording(
        sentence=lambda p, who: str(p.get("text")),
        form=_dice_form,
    ),
    "advancement.not_offered": Wording(
        sentence=lambda p, who: gettext(
            "A roll of %(roll)s does not allow %(characteristic)s.",
            roll=p.get("roll"),
            characteristic=str(p.get("characteristic")).upper(),
        ),
        form=lambda p, who: gettext(
            "A roll of %(roll)s does not allow %(characteristic)s.",
            roll=p.get("roll"),
            characteristic=stat_label(str(p.get("characteristic"))),
        ),
    ),
    "advancement.not_a_double": Wording(
        sentence=lambda p, who: gettext(
            "A roll of %(first)s+%(second)s is not a double: no doubles skill.",
            first=p.get("first"),
            second=p.get("second"),
        ),
        form=lambda p, who: gettext(
            "A roll of %(first)s + %(second)s is not a double: no doubles skill.",
            first=p.get("first"),
            second=p.get("second"),
        ),
    ),
    # The advancement form's own: a category the dice cannot be rolled on for him.
    "advancement.not_a_roll_category": Wording(
        form=lambda p, who: gettext(
            "%(category)s is not a category %(name)s can roll on for this kind.",
            category=p.get("category"),
            name=who,
        ),
    ),
}

# ---------------------------------------------------------------------------
# Team building (league.rules.team_building): ``who`` names the team

_POSITION_FULL = Wording(
    sentence=lambda p, team: ngettext(
        "%(team)s already has %(num)d %(position)s; the roster allows %(max)s.",
        "%(team)s already has %(num)d %(position)ss; the roster allows %(max)s.",
        int(p["have"]),
        team=team,
        position=p["position"],
        max=p["max"],
    ),
    short=_says(N_("full")),
)
_ROSTER_FULL = Wording(
    sentence=lambda p, team: gettext(
        "%(team)s already has %(max)s players, the most a team may have.",
        team=team,
        max=p.get("max"),
    ),
    short=_says(N_("roster full")),
)
_NOT_ENOUGH_GOLD = Wording(
    sentence=lambda p, team: gettext(
        "Costs %(needed)s; the treasury holds %(have)s.",
        needed=format_number(p["needed"]),
        have=format_number(p["have"]),
    ),
    short=_says(N_("not enough gold")),
)

_TEAM_BUILDING: dict[str, Wording] = {
    "team_building.unknown_item": Wording(
        sentence=lambda p, team: gettext(
            "Unknown item %(item)s.", item=repr(str(p.get("item", "")))
        )
    ),
    "team_building.not_allowed": Wording(sentence=_not_allowed),
    "team_building.draft_only": Wording(
        sentence=_says(
            N_("Dedicated fans are bought only while drafting; after that they change after games.")
        )
    ),
    "team_building.limit_reached": Wording(sentence=_limit_reached),
    "team_building.not_enough_gold": _NOT_ENOUGH_GOLD,
    "team_building.draft_over": Wording(
        sentence=_says(N_("Items can be given back only during the draft."))
    ),
    "team_building.nothing_to_give_back": Wording(sentence=_nothing_to_give_back),
    "team_building.unknown_position": Wording(
        sentence=lambda p, team: gettext(
            "%(team_type)s teams have no position %(position)s.",
            team_type=p.get("team_type_name"),
            position=repr(p.get("position")),
        )
    ),
    "team_building.position_full": _POSITION_FULL,
    "team_building.roster_full": _ROSTER_FULL,
    "team_building.big_guys_full": Wording(
        sentence=lambda p, team: ngettext(
            "A %(team_type)s team may have %(num)d Big Guy in all.",
            "A %(team_type)s team may have %(num)d Big Guys in all.",
            int(p["max"]),
            team_type=p["team_type_name"],
        ),
        short=_says(N_("Big Guys full")),
    ),
    "team_building.fans_step": Wording(sentence=_says(N_("Dedicated fans change by -1, 0 or +1."))),
    "team_building.concession_fans": Wording(
        sentence=lambda p, team: gettext(
            "A team that concedes loses %(dice)s Dedicated Fans, never below %(start)s: "
            "change them by %(changes)s.",
            dice=p.get("dice"),
            start=p.get("start"),
            changes=p.get("changes"),
        )
    ),
    "team_building.rise_needs_win": Wording(
        sentence=_says(N_("Dedicated fans only rise after a win."))
    ),
    "team_building.fall_needs_loss": Wording(
        sentence=_says(N_("Dedicated fans only fall after a loss."))
    ),
    "team_building.fans_at_max": Wording(
        sentence=lambda p, team: gettext("Dedicated fans are already at %(max)s.", max=p.get("max"))
    ),
    "team_building.fans_at_start": Wording(
        sentence=lambda p, team: gettext(
            "Dedicated fans cannot fall below %(start)s.", start=p.get("start")
        )
    ),
}

# ---------------------------------------------------------------------------
# The pre-game (league.rules.match_day)

_MATCH_DAY: dict[str, Wording] = {
    "match_day.not_your_turn": Wording(
        sentence=_says(N_("The team with the higher CTV chooses first; wait for its choices."))
    ),
    "match_day.unknown_inducement": Wording(
        sentence=lambda p, team: gettext(
            "There is no inducement %(item)s in this ruleset.", item=repr(p.get("item"))
        )
    ),
    "match_day.not_eligible": Wording(
        sentence=lambda p, team: gettext(
            "%(team)s teams may not buy %(item)s.", team=p.get("team"), item=p.get("item")
        )
    ),
    "match_day.over_limit": Wording(
        sentence=lambda p, team: gettext(
            "%(item)s: at most %(max)s (asked for %(count)s).",
            item=p.get("item"),
            max=p.get("max"),
            count=p.get("count"),
        )
    ),
    "match_day.negative_count": Wording(
        sentence=lambda p, team: gettext(
            "%(item)s: the number cannot be negative.", item=p.get("item")
        )
    ),
    "match_day.unknown_star": Wording(
        sentence=lambda p, team: gettext(
            "There is no star player %(item)s in this ruleset.", item=repr(p.get("item"))
        )
    ),
    "match_day.star_not_eligible": Wording(
        sentence=lambda p, team: gettext(
            "%(item)s does not play for %(team)s teams.", item=p.get("item"), team=p.get("team")
        )
    ),
    "match_day.duplicate_star": Wording(
        sentence=lambda p, team: gettext("%(item)s is chosen twice.", item=p.get("item"))
    ),
    "match_day.excludes_star": Wording(
        sentence=lambda p, team: gettext(
            "A team that buys %(item)s may not also hire %(star)s.",
            item=p.get("item"),
            star=p.get("star"),
        )
    ),
    "match_day.too_many_stars": Wording(
        sentence=lambda p, team: gettext(
            "At most %(max)s star players per game (a pair counts once); %(count)s chosen.",
            max=p.get("max"),
            count=p.get("count"),
        )
    ),
    "match_day.too_many_mercenaries": Wording(
        sentence=lambda p, team: gettext(
            "At most %(max)s mercenaries; %(count)s chosen.", max=p.get("max"), count=p.get("count")
        )
    ),
    "match_day.unknown_position": Wording(
        sentence=lambda p, team: gettext(
            "This team has no position %(position)s.", position=repr(p.get("position"))
        )
    ),
    "match_day.unknown_skill": Wording(
        sentence=lambda p, team: gettext(
            "There is no skill %(skill)s in this ruleset.", skill=repr(p.get("skill"))
        )
    ),
    "match_day.skill_already_held": Wording(
        sentence=lambda p, team: gettext(
            "A %(position)s already has %(skill)s.",
            position=p.get("position"),
            skill=p.get("skill"),
        )
    ),
    "match_day.skill_not_primary": Wording(
        sentence=lambda p, team: gettext(
            "%(skill)s is not a primary skill of the %(position)s.",
            skill=p.get("skill"),
            position=p.get("position"),
        )
    ),
    "match_day.position_full": Wording(
        sentence=lambda p, team: gettext(
            "The team may field at most %(max)s %(position)s.",
            max=p.get("max"),
            position=p.get("position"),
        )
    ),
    "match_day.no_roster_place": Wording(
        sentence=lambda p, team: gettext(
            "Stars and mercenaries would take the team over %(max)s players.", max=p.get("max")
        )
    ),
    "match_day.over_budget": Wording(
        sentence=lambda p, team: gettext(
            "This costs %(cost)s but the team may spend %(budget)s.",
            cost=_gold(p.get("cost")),
            budget=_gold(p.get("budget")),
        )
    ),
    "match_day.not_journeyman_position": Wording(
        sentence=lambda p, team: gettext(
            "Journeymen come from %(allowed)s, not %(position)s.",
            allowed=", ".join(p.get("allowed") or ()) or gettext("no position"),
            position=repr(p.get("position")),
        )
    ),
    "match_day.journeymen_not_needed": Wording(
        sentence=lambda p, team: gettext(
            "The team needs only %(needed)s journeymen.", needed=p.get("needed")
        )
    ),
    "match_day.roster_full": Wording(
        sentence=lambda p, team: gettext(
            "The roster already has %(max)s players.", max=p.get("max")
        )
    ),
    "match_day.not_enough_gold": Wording(
        sentence=lambda p, team: gettext(
            "This costs %(cost)s; the treasury holds %(treasury)s.",
            cost=_gold(p.get("cost")),
            treasury=_gold(p.get("treasury")),
        )
    ),
}

# ---------------------------------------------------------------------------
# After the game (league.rules.postgame): a journeyman hired, the MVP drawn

_POSTGAME: dict[str, Wording] = {
    # Hiring a journeyman for good is a hire: the team-building words.
    "postgame.roster_full": _ROSTER_FULL,
    "postgame.not_enough_gold": _NOT_ENOUGH_GOLD,
    "postgame.no_mvp_draw": Wording(
        sentence=lambda p, team: gettext(
            "%(ruleset)s does not draw the MVP.", ruleset=p.get("ruleset")
        )
    ),
    "postgame.mvp_nominees": Wording(
        sentence=lambda p, team: ngettext(
            "Nominate %(num)d player for MVP (%(count)d nominated).",
            "Nominate %(num)d players for MVP (%(count)d nominated).",
            int(p.get("needed") or 0),
            count=p.get("count"),
        )
    ),
    "postgame.mvp_die": Wording(
        sentence=lambda p, team: gettext(
            "The die names a nominee from 1 to %(count)d; %(die)d names nobody: roll again.",
            count=p.get("count"),
            die=p.get("die"),
        )
    ),
}

# ---------------------------------------------------------------------------
# Injuries, competitions, seasons, matched play

_OTHERS: dict[str, Wording] = {
    "injuries.lasting_without_injury": Wording(
        sentence=_says(N_("a lasting injury needs the casualty result too."))
    ),
    "injuries.unknown_injury": Wording(
        sentence=lambda p, team: gettext("unknown injury %(injury)s.", injury=repr(p.get("injury")))
    ),
    "injuries.lasting_characteristic_needed": Wording(
        sentence=_says(N_("say which characteristic the lasting injury hits."))
    ),
    "injuries.not_lasting": Wording(
        sentence=_says(N_("only a lasting injury reduces a characteristic."))
    ),
    "competitions.bracket_size": Wording(sentence=_says(N_("A bracket has 4, 8 or 16 teams."))),
    "competitions.not_enough_teams": Wording(
        sentence=lambda p, team: gettext(
            "The table has %(teams)s teams: too few for a bracket of %(size)s.",
            teams=p.get("teams"),
            size=p.get("size"),
        )
    ),
    "competitions.same_division_pairing": Wording(
        sentence=lambda p, team: gettext(
            "No first round of %(size)s avoids a match between two teams of the same division.",
            size=p.get("size"),
        )
    ),
    "seasons.no_redraft": Wording(
        sentence=lambda p, team: gettext(
            "%(ruleset)s has no off-season re-draft.", ruleset=p.get("ruleset")
        )
    ),
    "matched_play.roster_over_budget": Wording(
        sentence=lambda p, team: gettext(
            "The roster costs %(cost)s, %(over)s over the budget of %(budget)s.",
            cost=format_number(p["cost"]),
            over=format_number(p["over"]),
            budget=format_number(p["budget"]),
        )
    ),
    "matched_play.over_skill_points": Wording(
        sentence=lambda p, team: gettext(
            "The skills added cost %(used)s skill points; a tier %(tier)s team has %(allowed)s.",
            used=p["used"],
            tier=p["tier"],
            allowed=p["allowed"],
        )
    ),
    "matched_play.too_many_secondary_skills": Wording(
        sentence=lambda p, team: ngettext(
            "%(count)s secondary skills added; at most %(num)d is allowed.",
            "%(count)s secondary skills added; at most %(num)d are allowed.",
            int(p["max"]),
            count=p["count"],
        )
    ),
    "matched_play.roster_locked": Wording(
        sentence=lambda p, team: gettext(
            "%(team)s's roster is approved and locked; the organiser can unlock it.", team=team
        )
    ),
    "matched_play.corrections_closed": Wording(
        sentence=lambda p, team: gettext(
            "The correction deadline has passed: only the organiser changes %(team)s.", team=team
        )
    ),
    "matched_play.elite_skill_over_cap": Wording(
        sentence=lambda p, team: ngettext(
            "%(skill)s is added %(count)s times; an elite skill may be added at most %(num)d time.",
            "%(skill)s is added %(count)s times; "
            "an elite skill may be added at most %(num)d times.",
            int(p["max"]),
            skill=p["skill"],
            count=p["count"],
        )
    ),
}

#: Every reason code the rules give, namespaced, with its words.
WORDINGS: Mapping[str, Wording] = MappingProxyType(
    {**_ADVANCEMENT, **_TEAM_BUILDING, **_MATCH_DAY, **_POSTGAME, **_OTHERS}
)


def wording(reason: Reason) -> Wording | None:
    """The registry's words for ``reason`` (None for a code it does not know)."""
    return WORDINGS.get(reason.key)


def _plain(reason: Reason) -> str:
    """A code without words of its own, read as words ("no random table")."""
    return reason.code.replace("_", " ")


def reason_phrase(reason: Reason) -> str:
    """A short phrase for one reason (pages list several next to an option)."""
    words = wording(reason)
    return words.short(reason.params, "") if words and words.short else _plain(reason)


def reason_sentence(reason: Reason, who: str) -> str:
    """What ``who`` cannot do, without a full stop ("Grim needs 6 SPP and has 3")."""
    words = wording(reason)
    if words is None or words.about is None:
        return gettext("%(who)s %(reason)s", who=who, reason=_plain(reason))
    return words.about(reason.params, who)


def refusal_text(
    refusal: Reason | Decision | Resolution,
    who: str | None = None,
    *,
    team: str = "",
    short: bool = False,
    on_form: bool = False,
) -> str:
    """What a person reads for a refusal, in the reader's language.

    One :class:`Reason`: its sentence; ``team`` names the team it concerns, and
    ``short`` asks for a few words for a table cell where the row already says
    what was refused (the sentence where the code has no short form).

    A :class:`Decision` or an advancement :class:`Resolution`: with ``who`` (the
    player's name), one sentence about the first reason, as the services answer
    ("Grim needs 6 SPP and has 3."), or with ``on_form`` as the advancement page
    shows it beside the form field it is about. Without: the short phrases of
    every reason, joined by semicolons, as pages list them beside an option.
    """
    if isinstance(refusal, Reason):
        words = wording(refusal)
        if words is not None and short and words.short is not None:
            return words.short(refusal.params, team)
        if words is not None and words.sentence is not None:
            return words.sentence(refusal.params, team)
        return _plain(refusal)
    decision = refusal.decision if isinstance(refusal, Resolution) else refusal
    if who is None:
        return "; ".join(dict.fromkeys(reason_phrase(r) for r in decision.reasons))
    if on_form:
        return _form_sentence(refusal, who)
    reason = decision.reasons[0]
    words = wording(reason)
    if words is not None and words.sentence is not None:
        return words.sentence(reason.params, who)
    text = reason_sentence(reason, who)
    named = refusal.named if isinstance(refusal, Resolution) else None
    if named:
        # The refusal, then the skill it concerns.
        return gettext("%(refusal)s: %(skill)s.", refusal=text, skill=named)
    return gettext("%(sentence)s.", sentence=text)


def _form_sentence(refusal: Resolution | Decision, who: str) -> str:
    """A refusal as the advancement form shows it (see :func:`refusal_text`)."""
    resolution = refusal if isinstance(refusal, Resolution) else None
    decision = refusal.decision if isinstance(refusal, Resolution) else refusal
    reason = decision.reasons[0]
    words = wording(reason)
    if words is not None and words.form is not None:
        return words.form(reason.params, who)
    field_name = resolution.field if resolution else None
    if reason.key == "advancement.no_such_category" or field_name == "dice":
        # A category the dice cannot be rolled on for him.
        if reason.key == "advancement.no_such_category":
            decision = Decision.deny(
                "advancement.unknown_category", category=reason.params.get("category")
            )
        return gettext(
            "%(name)s cannot roll on that category: %(reason)s.",
            name=who,
            reason=refusal_text(decision),
        )
    if resolution and field_name in ("characteristic", "skill"):
        asked = resolution.request
        choice = (
            stat_label(asked.characteristic or "")
            if field_name == "characteristic"
            else asked.skill
        )
        return gettext("%(choice)s: %(reason)s.", choice=choice, reason=refusal_text(decision))
    return gettext(
        "%(name)s cannot take this advancement now: %(reason)s.",
        name=who,
        reason=refusal_text(decision),
    )


def an_item(item: str, *, translated: bool = True) -> str:
    """'a team re-roll', 'an apothecary': the item as a phrase on its own (a label).

    ``translated=False``: the English phrase, for text stored as data (ledger entries).
    """
    phrase = _AN_ITEM.get(item)
    if phrase is not None:
        return gettext(phrase) if translated else phrase
    return f"{'an' if item[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {item}"
