"""Text a person typed, checked before it is stored: valid Unicode, and names on one line."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from league.i18n import N_, current_language, gettext, pgettext
from league.services.errors import RuleViolation

if TYPE_CHECKING:
    from league.models.team import Team

#: Characters a name must not hold: line breaks (CR, LF and the other line and paragraph
#: separators) would split it across lines in pages, PDFs and logs; the bidirectional
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) turn the text around
#: them, so "Orcs\u202eevil" would read differently from what it is.
_NOT_IN_NAMES = re.compile("[\r\n\v\f\x85\u2028\u2029\u202a-\u202e\u2066-\u2069]")


#: First strong isolate and pop directional isolate (names may not hold them).
FSI, PDI = "\u2068", "\u2069"


def isolated(name: str) -> str:
    """``name`` isolated from the plain text around it (a label, an option, a sentence),
    as ``<bdi>`` (the ``bdi`` filter) does in a page: a right-to-left name beside "(#4)"
    would otherwise carry the number into its direction and print "(4#)"."""
    return f"{FSI}{name}{PDI}"


def coach_name(team: Team) -> str:
    """The coach a page or sheet names for ``team``: a team its coach left (kept without a
    coach) says so, its former coach in brackets, as the pages' team label does."""
    if team.coachless_since is not None:
        return gettext("nobody (%(name)s left the league)", name=team.coach.username)
    return team.coach.username


def ordinal(number: int) -> str:
    """``number`` as an ordinal in the reader's language: 1st, 2nd, 3rd, 4th, 11th, 21st in
    English; elsewhere as the language's translator wrote it (docs/i18n.md, "Ordinals")."""
    if current_language() == "en":
        return f"{number}{_english_suffix(number)}"
    if number == 1:
        # Some languages write the first apart: French "1er" beside "2e".
        # Translators: the ordinal 1 ("his 1st advancement"): de "%(num)s.", fr "%(num)ser",
        # es/it "%(num)sº" (docs/i18n.md, "Ordinals and places").
        return pgettext("ordinal number, the first", "%(num)s.", num=number)
    # Translators: an ordinal other than 1 ("his 3rd advancement"): de "%(num)s.",
    # fr "%(num)se", es/it "%(num)sº" (docs/i18n.md, "Ordinals and places").
    return pgettext("ordinal number", "%(num)s.", num=number)


def place_name(place: int) -> str:
    """A place in a table ("1st", "2nd"; "1re", "2e"), apart from `ordinal` since some
    languages give the word "place" a gender of its own (French "1re place")."""
    if current_language() == "en":
        return f"{place}{_english_suffix(place)}"
    if place == 1:
        # Translators: first place in a table ("1st place 100,000"): de "%(num)s.",
        # fr "%(num)sre" (la place), es/it "%(num)sº" (docs/i18n.md, "Ordinals and places").
        return pgettext("place in a table, the first", "%(num)s.", num=place)
    # Translators: a place other than the first ("2nd place 60,000"): de "%(num)s.",
    # fr "%(num)se", es/it "%(num)sº" (docs/i18n.md, "Ordinals and places").
    return pgettext("place in a table", "%(num)s.", num=place)


def _english_suffix(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def is_valid_unicode(text: str) -> bool:
    """False for a lone surrogate (JSON's `"\\ud800"`): no encoding, no database stores it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_one_line(name: str) -> bool:
    """No line break and no text-direction control in `name` (and valid Unicode)."""
    return _NOT_IN_NAMES.search(name) is None and is_valid_unicode(name)


#: What a name that is not `is_one_line` should be.
ONE_LINE = N_("one line of text, without line breaks or text-direction controls")


def checked_name(
    value: str, *, field: str, what: str, length: tuple[int, int], code: str | None = None
) -> str:
    """`value` stripped, or a RuleViolation on `field` naming `what` ("A team name").

    `what` is already translated (the callers pass ``gettext("A team name")``).
    """
    name = value.strip()
    low, high = length
    if not low <= len(name) <= high:
        raise RuleViolation(
            gettext("%(what)s has %(low)s to %(high)s characters.", what=what, low=low, high=high),
            code=code,
            field=field,
        )
    if not is_one_line(name):
        raise RuleViolation(
            gettext(
                "%(what)s is one line of text, without line breaks or text-direction controls.",
                what=what,
            ),
            code=code or "invalid_name",
            field=field,
        )
    return name
