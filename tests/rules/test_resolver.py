"""The advancement resolver, table by table, for every shipped ruleset.

Each row: a player state, a request, and the answer worked out by hand from the
ruleset data (costs and values: RULES-FACTS §1-§2; the 2D6 skill tables: the
first die picks rows 1-6 or 7-12, the second the row; classic-spend rolls one
die over the category's skills in skills.toml order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from league.rules import (
    MAX_DICE,
    MAX_DIE,
    AdvancementRequest,
    PlayerState,
    Resolution,
    Ruleset,
    choice_text,
    load_ruleset,
    needs_dice,
    random_skill_list,
    refusal_text,
    resolve,
    skill_kind_words,
    star_player_roll_kind,
)
from tests.fake_i18n import bracketing

# (position id) per ruleset: a Human Blitzer, primary G and S, holding Block.
BLITZER = {
    "bb2025": "human-blitzer",  # G S / A D; Block, Tackle
    "bb2020": "blitzer",  # G S / A P; Block
    "classic": "blitzer",  # G S / A P; Block
    "classic-spend": "blitzer",  # G S / A P; Block
}


def _state(
    ruleset: Ruleset,
    *,
    spp: int,
    taken: int = 0,
    skills: tuple[str, ...] = (),
    improvements: Mapping[str, int] | None = None,
    reductions: Mapping[str, int] | None = None,
    position: str | None = None,
) -> PlayerState:
    found = ruleset.team_type("human").position(position or BLITZER[ruleset.id])
    return PlayerState.of(
        ruleset,
        found,
        skills=skills,
        improvements=improvements,
        reductions=reductions,
        advancements_taken=taken,
        spp=spp,
    )


def _resolve(ruleset_id: str, state: dict[str, Any], **request: Any) -> Resolution:
    ruleset = load_ruleset(ruleset_id)
    return resolve(ruleset, _state(ruleset, **state), AdvancementRequest(**request))


# (ruleset, state, request, skill, characteristic, SPP cost, value)
TAKEN = [
    # BB2020: 1st chosen primary costs 6 SPP and adds 20,000.
    ("bb2020", {"spp": 6}, {"kind": "chosen_primary", "skill": "Tackle"}, "Tackle", None, 6, 20000),
    # BB2020: 1st random primary costs 3 and adds 10,000; 4 then 4 is row 10 of G: Sure Hands.
    (
        "bb2020",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (4, 4)},
        "Sure Hands",
        None,
        3,
        10000,
    ),
    # BB2020: D16 15 gives ST or AG; 1st characteristic costs 18, +ST adds 80,000.
    (
        "bb2020",
        {"spp": 18},
        {"kind": "random_characteristic", "dice": (15,), "characteristic": "st"},
        None,
        "st",
        18,
        80000,
    ),
    # BB2020: the 2nd advancement of a kind costs the 2nd column (chosen secondary: 14).
    (
        "bb2020",
        {"spp": 14, "taken": 1, "skills": ("Tackle",)},
        {"kind": "chosen_secondary", "skill": "Dodge"},
        "Dodge",
        None,
        14,
        40000,
    ),
    # BB2025: chosen secondary costs 10; Dodge is elite: 40,000 + 10,000.
    (
        "bb2025",
        {"spp": 10},
        {"kind": "chosen_secondary", "skill": "Dodge"},
        "Dodge",
        None,
        10,
        50000,
    ),
    # BB2025: two rolls (1 2: Dauntless, 1 3: Fend), the coach keeps Fend; 3 SPP, 20,000.
    (
        "bb2025",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (1, 2, 1, 3), "skill": "Fend"},
        "Fend",
        None,
        3,
        20000,
    ),
    # BB2025: both rolls give Dauntless: nothing to pick.
    (
        "bb2025",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (1, 2, 1, 2)},
        "Dauntless",
        None,
        3,
        20000,
    ),
    # BB2025: D8 7 gives AG or ST; 1st characteristic costs 14, +ST adds 60,000.
    (
        "bb2025",
        {"spp": 14},
        {"kind": "random_characteristic", "dice": (7,), "characteristic": "st"},
        None,
        "st",
        14,
        60000,
    ),
    # BB2025: a skill instead of the characteristic follows its kind (chosen primary 20,000).
    (
        "bb2025",
        {"spp": 14},
        {"kind": "random_characteristic", "dice": (7,), "skill": "Fend"},
        "Fend",
        None,
        14,
        20000,
    ),
    # Classic: 6 SPP earn the 1st Star Player Roll; nothing is spent; a normal skill 20,000.
    (
        "classic",
        {"spp": 6},
        {"kind": "chosen_primary", "dice": (3, 4), "skill": "Tackle"},
        "Tackle",
        None,
        0,
        20000,
    ),
    # Classic: a double (2 2) opens the doubles categories: Dodge (A) for 30,000.
    (
        "classic",
        {"spp": 6},
        {"kind": "chosen_secondary", "dice": (2, 2), "skill": "Dodge"},
        "Dodge",
        None,
        0,
        30000,
    ),
    # Classic: 12 gives +1 ST, 50,000.
    (
        "classic",
        {"spp": 6},
        {"kind": "random_characteristic", "dice": (6, 6), "characteristic": "st"},
        None,
        "st",
        0,
        50000,
    ),
    # Classic-spend: one D14 over General (skills.toml order): 11 is Strip Ball; 3 SPP, 20,000.
    (
        "classic-spend",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (11,)},
        "Strip Ball",
        None,
        3,
        20000,
    ),
    # Classic-spend: D16 14 gives AG only; 18 SPP, +AG 40,000.
    (
        "classic-spend",
        {"spp": 18},
        {"kind": "random_characteristic", "dice": (14,), "characteristic": "ag"},
        None,
        "ag",
        18,
        40000,
    ),
]


@pytest.mark.parametrize(
    ("ruleset_id", "state", "request_", "skill", "characteristic", "cost", "value"), TAKEN
)
def test_taken(
    ruleset_id: str,
    state: dict[str, Any],
    request_: dict[str, Any],
    skill: str | None,
    characteristic: str | None,
    cost: int,
    value: int,
) -> None:
    resolution = _resolve(ruleset_id, state, **request_)
    assert resolution.status == "taken"
    assert (resolution.skill, resolution.characteristic) == (skill, characteristic)
    assert (resolution.cost, resolution.value) == (cost, value)


# (ruleset, state, request): legal so far, but the dice are still to roll.
ROLL = [
    ("bb2020", {"spp": 3}, {"kind": "random_primary", "category": "G"}),
    ("bb2025", {"spp": 14}, {"kind": "random_characteristic"}),
    ("classic", {"spp": 6}, {"kind": "chosen_primary"}),  # every classic advancement rolls
    ("classic-spend", {"spp": 6}, {"kind": "random_secondary", "category": "A"}),
]


@pytest.mark.parametrize(("ruleset_id", "state", "request_"), ROLL)
def test_needs_dice(ruleset_id: str, state: dict[str, Any], request_: dict[str, Any]) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert needs_dice(ruleset, request_["kind"])
    assert _resolve(ruleset_id, state, **request_).status == "roll"


def test_chosen_skills_need_no_dice_outside_classic() -> None:
    for ruleset_id in ("bb2020", "bb2025", "classic-spend"):
        assert not needs_dice(load_ruleset(ruleset_id), "chosen_primary")


# (ruleset, state, request, the choice left as the service words it)
CHOOSE = [
    # BB2025: 1 2 is Dauntless, 1 3 is Fend: keep one.
    (
        "bb2025",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (1, 2, 1, 3)},
        "pick Dauntless or Fend.",
    ),
    # BB2020: D16 8 gives MA, PA or AV; the fallback is a chosen secondary skill.
    (
        "bb2020",
        {"spp": 18},
        {"kind": "random_characteristic", "dice": (8,)},
        "choose MA, PA, AV, or take a secondary skill instead.",
    ),
    # BB2025: D8 6 gives AG or MA; the fallback is a chosen primary or secondary skill.
    (
        "bb2025",
        {"spp": 14},
        {"kind": "random_characteristic", "dice": (6,)},
        "choose AG, MA, or take a primary or a secondary skill instead.",
    ),
    # Classic: 3 + 4 = 7 gives no characteristic, not a double: a normal skill.
    ("classic", {"spp": 6}, {"kind": "chosen_primary", "dice": (3, 4)}, "choose a skill."),
    # Classic: 5 + 5 = 10 gives MA or AV, and a double opens the doubles categories.
    (
        "classic",
        {"spp": 6},
        {"kind": "random_characteristic", "dice": (5, 5)},
        "choose +1 MA or +1 AV or a skill (doubles: any accessible category).",
    ),
    # Classic-spend: D16 16 gives any characteristic.
    (
        "classic-spend",
        {"spp": 18},
        {"kind": "random_characteristic", "dice": (16,)},
        "choose MA, ST, AG, AV, or take a secondary skill instead.",
    ),
]


@pytest.mark.parametrize(("ruleset_id", "state", "request_", "text"), CHOOSE)
def test_needs_a_choice(
    ruleset_id: str, state: dict[str, Any], request_: dict[str, Any], text: str
) -> None:
    resolution = _resolve(ruleset_id, state, **request_)
    assert resolution.status == "choose"
    assert choice_text(load_ruleset(ruleset_id), resolution) == text


# (ruleset, state, request, reason code, field, the sentence about "Grim")
REFUSED = [
    # BB2020: the 1st chosen primary costs 6.
    (
        "bb2020",
        {"spp": 5},
        {"kind": "chosen_primary", "skill": "Tackle"},
        "not_enough_spp",
        "kind",
        "Grim needs 6 SPP and has 5.",
    ),
    # Six advancements at most.
    (
        "bb2025",
        {"spp": 99, "taken": 6},
        {"kind": "chosen_primary", "skill": "Fend"},
        "max_advancements",
        "kind",
        "Grim already has the most advancements (6).",
    ),
    # BB2025 has no random secondary skills.
    (
        "bb2025",
        {"spp": 99},
        {"kind": "random_secondary", "category": "A"},
        "kind_not_available",
        "kind",
        "Grim cannot take that kind of advancement in this ruleset.",
    ),
    # Classic: the 1st Star Player Roll comes at 6 SPP.
    (
        "classic",
        {"spp": 5},
        {"kind": "chosen_primary"},
        "no_roll_pending",
        "kind",
        "Grim has no Star Player Roll due (the next comes at 6 SPP).",
    ),
    # The Blitzer starts with Block.
    (
        "bb2020",
        {"spp": 6},
        {"kind": "chosen_primary", "skill": "Block"},
        "already_held",
        "skill",
        "Grim already has that skill: Block.",
    ),
    # Agility is secondary for a Blitzer.
    (
        "bb2020",
        {"spp": 6},
        {"kind": "chosen_primary", "skill": "Dodge"},
        "not_primary",
        "skill",
        "Grim has no primary access to that category: Dodge.",
    ),
    # Strength is primary for a Blitzer.
    (
        "classic-spend",
        {"spp": 12},
        {"kind": "chosen_secondary", "skill": "Mighty Blow"},
        "not_secondary",
        "skill",
        "Grim has no secondary access to that category: Mighty Blow.",
    ),
    # Mutations are neither primary nor secondary for a Human.
    (
        "bb2020",
        {"spp": 12},
        {"kind": "chosen_secondary", "skill": "Claws"},
        "category_not_accessible",
        "skill",
        "Grim has no access to that category: Claws.",
    ),
    # Loner is a trait.
    (
        "bb2025",
        {"spp": 10},
        {"kind": "chosen_secondary", "skill": "Loner"},
        "trait",
        "skill",
        "Grim cannot learn traits: Loner.",
    ),
    (
        "bb2020",
        {"spp": 6},
        {"kind": "chosen_primary", "skill": "Flying Kick"},
        "unknown_skill",
        "skill",
        "Grim asked for a skill this ruleset does not have: Flying Kick.",
    ),
    # BB2020: 1 1 is row 1 of General: Block, which he has: roll again.
    (
        "bb2020",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (1, 1)},
        "reroll_required",
        "dice",
        "Grim rolled a skill he cannot take: roll again.",
    ),
    # BB2025: Frenzy was not among the two rolled skills.
    (
        "bb2025",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (1, 2, 1, 3), "skill": "Frenzy"},
        "not_rolled",
        "dice",
        "Grim not rolled.",
    ),
    # BB2020: at most two improvements of one characteristic (MA 7 -> 9 already).
    (
        "bb2020",
        {"spp": 18, "improvements": {"ma": 2}},
        {"kind": "random_characteristic", "dice": (8,), "characteristic": "ma"},
        "max_improvements",
        "characteristic",
        "Grim has improved that characteristic as often as allowed.",
    ),
    # BB2020: MA 9 is the best there is; a Catcher (MA 8) improved once has it.
    (
        "bb2020",
        {"spp": 18, "improvements": {"ma": 1}, "position": "catcher"},
        {"kind": "random_characteristic", "dice": (8,), "characteristic": "ma"},
        "at_maximum",
        "characteristic",
        "Grim already has that characteristic at its best.",
    ),
    # Classic: AG 3 -> 5 already; a third +1 would be +3 over the start (limit +2).
    (
        "classic",
        {"spp": 6, "improvements": {"ag": 2}},
        {"kind": "random_characteristic", "dice": (5, 6), "characteristic": "ag"},
        "max_increase_from_start",
        "characteristic",
        "Grim has raised that characteristic as far as allowed.",
    ),
    # Classic-spend: ST 3 -> 5 already; a third +1 would be +3 over the start (limit +2).
    (
        "classic-spend",
        {"spp": 18, "improvements": {"st": 2}},
        {"kind": "random_characteristic", "dice": (15,), "characteristic": "st"},
        "max_increase_from_start",
        "characteristic",
        "Grim has raised that characteristic as far as allowed.",
    ),
    # BB2020: D16 8 allows MA, PA or AV, not ST.
    (
        "bb2020",
        {"spp": 18},
        {"kind": "random_characteristic", "dice": (8,), "characteristic": "st"},
        "not_offered",
        "characteristic",
        "A roll of 8 does not allow ST.",
    ),
    # Classic: 3 + 4 is no double: no doubles (secondary) skill.
    (
        "classic",
        {"spp": 6},
        {"kind": "chosen_secondary", "dice": (3, 4), "skill": "Dodge"},
        "not_a_double",
        "kind",
        "A roll of 3+4 is not a double: no doubles skill.",
    ),
    # BB2025's characteristic table is a D8.
    (
        "bb2025",
        {"spp": 14},
        {"kind": "random_characteristic", "dice": (9,)},
        "invalid_dice",
        "dice",
        "D8 roll must be a whole number 1-8, got 9",
    ),
    (
        "classic",
        {"spp": 6},
        {"kind": "chosen_primary", "dice": (3,)},
        "invalid_dice",
        "dice",
        "a Star Player Roll is two D6",
    ),
    # Classic-spend's General list has 14 skills: a D14.
    (
        "classic-spend",
        {"spp": 3},
        {"kind": "random_primary", "category": "G", "dice": (15,)},
        "invalid_dice",
        "dice",
        "D14 roll for category 'G' must be a whole number 1-14, got 15",
    ),
    (
        "bb2020",
        {"spp": 6},
        {"kind": "chosen_primary", "skill": "Tackle", "dice": (1, 1)},
        "field_not_taken",
        "dice",
        "A chosen primary advancement takes no dice: leave it out.",
    ),
    (
        "bb2020",
        {"spp": 3},
        {"kind": "random_primary", "category": "Z"},
        "no_such_category",
        "category",
        "Blood Bowl 2020 has no skill category 'Z'.",
    ),
    (
        "bb2020",
        {"spp": 3},
        {"kind": "random_primary", "dice": (1, 1)},
        "category_required",
        "category",
        "Pick the skill category to roll on.",
    ),
    (
        "classic-spend",
        {"spp": 6},
        {"kind": "chosen_primary"},
        "skill_required",
        "skill",
        "Name the skill to take.",
    ),
]


@pytest.mark.parametrize(("ruleset_id", "state", "request_", "code", "field", "text"), REFUSED)
def test_refused(
    ruleset_id: str,
    state: dict[str, Any],
    request_: dict[str, Any],
    code: str,
    field: str,
    text: str,
) -> None:
    resolution = _resolve(ruleset_id, state, **request_)
    assert resolution.status == "refused"
    assert (resolution.reason.code, resolution.field) == (code, field)
    assert refusal_text(resolution, "Grim") == text


def test_every_ruleset_has_rows_of_each_answer() -> None:
    for table in (TAKEN, ROLL, CHOOSE, REFUSED):
        assert {row[0] for row in table} == set(BLITZER)


def test_refusals_listed_beside_an_option_are_short_phrases() -> None:
    # BB2020 chosen primary: 6 SPP (RULES-FACTS §1).
    resolution = _resolve("bb2020", {"spp": 2}, kind="chosen_primary", skill="Tackle")
    assert refusal_text(resolution) == "needs 6 SPP, has 2"


def test_state_works_out_todays_characteristics_once() -> None:
    # BB2020 Blitzer MA 7, AV 9+: +1 MA twice is 9; two AV reductions are 7+.
    ruleset = load_ruleset("bb2020")
    state = _state(ruleset, spp=0, improvements={"ma": 2}, reductions={"av": 2})
    assert dict(state.characteristics) == {"ma": 9, "st": 3, "ag": 3, "pa": 4, "av": 7}
    assert state.held == ("Block",)


def test_dice_bounds_fit_every_ruleset() -> None:
    # BB2025 rolls 2D6 twice for a random skill: four dice. The biggest die is the
    # D16 characteristic table of BB2020 and classic-spend; classic-spend's random
    # skills roll one die over a category's list, at most General's 14 skills.
    rulesets = [load_ruleset(r) for r in BLITZER]
    assert MAX_DICE == 4
    tables = [r.characteristic_table.die for r in rulesets if r.characteristic_table]
    assert max(tables) == MAX_DIE == 16
    lists = [
        len(random_skill_list(r, c.code))
        for r in rulesets
        if r.advancement.random_skill == "roll_list"
        for c in r.skill_categories
        if c.learnable
    ]
    assert max(lists) == 14


def test_skill_kinds_as_words() -> None:
    """Issue 20: pages put these in sentences rather than the codes."""
    assert skill_kind_words("chosen_primary") == "chosen primary"
    assert skill_kind_words("random_secondary", side_only=True) == "secondary"
    assert skill_kind_words("new_kind") == "new kind"
    with bracketing() as backend:
        assert skill_kind_words("chosen_secondary") == "⟦chosen secondary⟧"
        assert skill_kind_words("chosen_primary", side_only=True) == "⟦primary⟧"
    assert backend.asked == ["chosen secondary", "primary"]


@pytest.mark.parametrize(
    ("choice", "kind"),
    [
        # Classic: a Star Player Roll gives a skill from the player's normal
        # categories (the blitzer's G and S), any category on a double (A, P too),
        # or +1 to a characteristic on the results that allow it (ruleset.toml
        # [improvement_roll]: normal = chosen_primary, doubles = chosen_secondary).
        (None, "chosen_primary"),
        ("Tackle", "chosen_primary"),  # General: a normal category
        ("Dodge", "chosen_secondary"),  # Agility: doubles only
        ("st", "random_characteristic"),
        ("Block", "chosen_primary"),  # held already: no kind allows it, the normal one stands
    ],
)
def test_star_player_roll_kind(choice: str | None, kind: str) -> None:
    ruleset = load_ruleset("classic")
    assert star_player_roll_kind(ruleset, _state(ruleset, spp=6), choice) == kind
