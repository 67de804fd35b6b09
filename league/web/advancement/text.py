"""Words of the advancement pages: labels, dice and refusals."""

from __future__ import annotations

from league.i18n import N_, current_language, gettext
from league.models import Advancement
from league.rules import RANDOM_CHARACTERISTIC_KIND, Decision, Ruleset, refusal_text, stat_label

MINUS = "\u2212"
ARROW = "\u2192"

KIND_LABELS = {
    "random_primary": N_("Random primary skill"),
    "chosen_primary": N_("Chosen primary skill"),
    "random_secondary": N_("Random secondary skill"),
    "chosen_secondary": N_("Chosen secondary skill"),
    RANDOM_CHARACTERISTIC_KIND: N_("Characteristic improvement"),
}
#: Classic (roll mode): what a Star Player Roll may give.
ROLL_KIND_LABELS = {
    "chosen_primary": N_("Normal skill"),
    "chosen_secondary": N_("Doubles skill"),
    RANDOM_CHARACTERISTIC_KIND: N_("Characteristic increase"),
}


def kind_label(ruleset: Ruleset, kind: str) -> str:
    labels = ROLL_KIND_LABELS if ruleset.advancement.mode == "roll" else KIND_LABELS
    label = labels.get(kind)
    return gettext(label) if label else kind.replace("_", " ")


def decision_text(decision: Decision) -> str:
    """The reasons of a refusal as the pages list them beside an option."""
    return refusal_text(decision)


def gained_text(advancement: Advancement, ruleset: Ruleset) -> str:
    """What an advancement gave: the skill (in the reader's language), or "+1 ST"."""
    if advancement.skill:
        return ruleset.text(current_language()).skill_name(advancement.skill)
    return gettext(
        "+1 %(characteristic)s", characteristic=stat_label(advancement.characteristic or "")
    )


def dice_text(dice: tuple[int, ...] | list[int]) -> str:
    """ "1 2", or "1 2 / 1 3" for BB2025's two 2D6 rolls of one random skill."""
    values = [str(d) for d in dice]
    if len(values) == 4:
        return f"{' '.join(values[:2])} / {' '.join(values[2:])}"
    return " ".join(values)


def dice_help(ruleset: Ruleset, kind: str | None) -> str:
    """How to type in the dice of this kind."""
    if ruleset.advancement.mode == "roll":
        return gettext("2D6, e.g. 3 4.")
    if kind == RANDOM_CHARACTERISTIC_KIND:
        table = ruleset.characteristic_table
        return gettext("One D%(die)s, e.g. 7.", die=table.die if table else 6)
    procedure = ruleset.advancement.random_skill
    if procedure == "roll_twice_pick_one":
        return gettext(
            "Two rolls of 2D6 (four dice), e.g. 1 2 4 5; then keep one of the two skills."
        )
    if procedure == "roll_list":
        return gettext(
            "One die numbered 1 to the size of the category's list (shown above), e.g. 3."
        )
    return gettext(
        "2D6, e.g. 2 5: the first die picks the half of the table (1-3: rows 1-6, "
        "4-6: rows 7-12), the second the row."
    )
