"""Words people read for codes and English stored in the database: a player's status, a
team's, an Expensive Mistakes result, a season's default name, a treasury ledger row.

The code stays what is stored, sent by the API and used in class names; pages and
messages show these labels, looked up in the reader's language (`league.i18n`). The
templates ask the same functions (`league.web.labels`, `templates/_macros/labels.html`),
so a status reads the same in a table and in a sentence.
"""

from __future__ import annotations

import re

from league.i18n import DEFAULT_LANGUAGE, N_, format_number, gettext, in_language
from league.models import TreasuryEntry
from league.rules import RulesText
from league.rules.refusals import an_item
from league.services.text import isolated, ordinal, place_name

__all__ = [
    "MISTAKE_NAMES",
    "PLAYER_STATUS_LABELS",
    "TEAM_STATUS_LABELS",
    "ledger_text",
    "mistake_name",
    "player_status_label",
    "season_name",
    "team_status_label",
]

#: league.models.player.PLAYER_STATUSES
PLAYER_STATUS_LABELS = {
    "active": N_("active"),
    # Translators: short for "Miss Next Game", a player's status.
    "mng": N_("MNG"),
    "dead": N_("dead"),
    "retired": N_("retired"),
    "fired": N_("fired"),
    # Match-day players: taken on for one match (league.services.postgame).
    "journeyman": N_("journeyman"),
    "mercenary": N_("mercenary"),
    "star": N_("star player"),
}

#: league.models.team.TEAM_STATUSES
TEAM_STATUS_LABELS = {
    "draft": N_("draft"),
    "active": N_("active"),
    "retired": N_("retired"),
}


def player_status_label(status: str) -> str:
    """ "dead", "MNG": a player's status in the reader's language (an unknown code as is)."""
    label = PLAYER_STATUS_LABELS.get(status)
    return gettext(label) if label is not None else status


def team_status_label(status: str) -> str:
    """ "draft", "active", "retired": a team's status in the reader's language."""
    label = TEAM_STATUS_LABELS.get(status)
    return gettext(label) if label is not None else status


#: An Expensive Mistakes result (MatchTeam.mistake).
MISTAKE_NAMES = {
    "crisis_averted": N_("Crisis averted"),
    "minor": N_("Minor incident"),
    "major": N_("Major incident"),
    "catastrophe": N_("Catastrophe"),
}


def mistake_name(code: str | None) -> str | None:
    """ "Minor incident" for ``minor``; an unknown code as it is stored."""
    if code is None:
        return None
    name = MISTAKE_NAMES.get(code)
    return gettext(name) if name else code


# ---------------------------------------------------------------------------
# Seasons

#: The name a season is given when it opens (league.services.seasons), stored in English.
_DEFAULT_SEASON_NAME = re.compile(r"Season (\d+)")


def season_name(name: str) -> str:
    """A season's stored name as the reader reads it: the default "Season 2" in the
    reader's language, any other name (given by hand, imported) as it is."""
    default = _DEFAULT_SEASON_NAME.fullmatch(name)
    if default is None:
        return name
    return gettext("Season %(number)s", number=default.group(1))


# ---------------------------------------------------------------------------
# The treasury ledger

#: Stored descriptions (English, written by the services) and the sentence each reads as.
#: A row whose text does not have its kind's form (typed by a commissioner, imported,
#: written before) is shown as stored.
_HIRED = re.compile(r"Hired (?P<name>.+) \((?P<position>[^()]+)\)")
_REMOVED = re.compile(r"Draft: removed (?P<name>.+)")
_MISTAKE = re.compile(r"Expensive mistakes \((?P<mistake>[^()]*)\), match #(?P<id>\d+)")
_CORRECTED = re.compile(r"Match #(?P<id>\d+) (?P<what>voided|corrected)")
_PRIZE = re.compile(r"(?P<place>\d+)\S* place, (?P<season>.+)")
_REDRAFT_BUDGET = re.compile(
    r"Re-draft budget after (?P<season>.+): (?P<total>[\d,]+)"
    r"(?:, (?P<lost>[\d,]+) lost to the cap)?"
)
_REDRAFT_KEPT = re.compile(r"Re-draft after (?P<season>.+): players, staff and re-rolls kept")


def _gold(digits: str) -> str:
    return format_number(int(digits.replace(",", "")))


def english_ordinal(number: int) -> str:
    """ "1st": an ordinal for a text stored in English (a ledger row)."""
    with in_language(DEFAULT_LANGUAGE):
        return ordinal(number)


def ledger_text(entry: TreasuryEntry, rules: RulesText | None = None) -> str:
    """What a ledger row says, in the reader's language where its kind is one the
    services word; the stored description otherwise (the API sends that as is).
    ``rules``: the team's ruleset in that language, for the position of a hire."""
    text = entry.description
    kind, item = entry.kind, entry.item
    if kind == "starting" and text == "Starting treasury":
        return gettext("Starting treasury")
    if kind in ("purchase", "refund") and item is not None:
        phrase = an_item(item, translated=False)
        if kind == "purchase" and text == f"Bought {phrase}":
            return gettext("Bought %(item)s", item=an_item(item))
        if kind == "refund" and text == f"Draft: gave back {phrase}":
            return gettext("Draft: gave back %(item)s", item=an_item(item))
    if kind == "hire" and (found := _HIRED.fullmatch(text)):
        position = found["position"]
        return gettext(
            "Hired %(name)s (%(position)s)",
            name=isolated(found["name"]),
            position=rules.position_name(position) if rules else position,
        )
    if kind == "refund" and item is None and (found := _REMOVED.fullmatch(text)):
        return gettext("Draft: removed %(name)s", name=isolated(found["name"]))
    if kind == "winnings" and text == f"Winnings, match #{entry.match_id}":
        return gettext("Winnings, match #%(id)s", id=entry.match_id)
    if kind == "mistake" and (found := _MISTAKE.fullmatch(text)):
        return gettext(
            "Expensive mistakes (%(mistake)s), match #%(id)s",
            mistake=mistake_name(found["mistake"]),
            id=found["id"],
        )
    if kind == "correction" and text == f"Winnings corrected, match #{entry.match_id}":
        return gettext("Winnings corrected, match #%(id)s", id=entry.match_id)
    if kind == "correction" and (found := _CORRECTED.fullmatch(text)):
        if found["what"] == "voided":
            return gettext("Match #%(id)s voided", id=found["id"])
        return gettext("Match #%(id)s corrected", id=found["id"])
    if kind == "prize" and (found := _PRIZE.fullmatch(text)):
        return gettext(
            "%(place)s place, %(season)s",
            place=place_name(int(found["place"])),
            season=season_name(found["season"]),
        )
    if kind == "redraft" and (found := _REDRAFT_BUDGET.fullmatch(text)):
        if found["lost"]:
            return gettext(
                "Re-draft budget after %(season)s: %(total)s, %(lost)s lost to the cap",
                season=season_name(found["season"]),
                total=_gold(found["total"]),
                lost=_gold(found["lost"]),
            )
        return gettext(
            "Re-draft budget after %(season)s: %(total)s",
            season=season_name(found["season"]),
            total=_gold(found["total"]),
        )
    if kind == "redraft" and (found := _REDRAFT_KEPT.fullmatch(text)):
        return gettext(
            "Re-draft after %(season)s: players, staff and re-rolls kept",
            season=season_name(found["season"]),
        )
    return text
