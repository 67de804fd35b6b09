"""Which skills a player may take, and random skill tables (RULES-FACTS §8)."""

from __future__ import annotations

import random

import pytest

from league.rules import (
    Position,
    RulesError,
    legal_skills,
    load_ruleset,
    random_skill_from_dice,
    random_skill_list,
    random_skill_result,
    roll_random_skill_dice,
    skill_choices,
    skill_decision,
)


def position(ruleset_id: str, team: str, position_id: str) -> Position:
    return load_ruleset(ruleset_id).team_type(team).position(position_id)


# (ruleset, team, position, skills gained so far, skill, kind, expected reason codes)
DECISIONS = [
    # Frenzy excludes Grab (both editions), checked both ways.
    ("bb2025", "khorne", "bloodseeker", [], "Grab", "chosen_primary", ["excluded_by"]),
    ("bb2025", "black-orc", "black-orc", [], "Frenzy", "chosen_primary", ["excluded_by"]),
    ("bb2025", "orc", "orc-blitzer", ["Frenzy"], "Grab", "chosen_primary", ["excluded_by"]),
    ("bb2025", "orc", "orc-blitzer", ["Grab"], "Frenzy", "chosen_primary", ["excluded_by"]),
    ("bb2025", "orc", "orc-blitzer", [], "Frenzy", "chosen_primary", []),
    ("bb2020", "norse", "norse-berzerker", [], "Grab", "chosen_primary", ["excluded_by"]),
    ("bb2020", "black-orc", "black-orc", [], "Frenzy", "chosen_primary", ["excluded_by"]),
    # Frenzy excludes Multiple Block; in BB2025 also Hit and Run.
    ("bb2025", "norse", "norse-berserker", [], "Multiple Block", "chosen_primary", ["excluded_by"]),
    ("bb2025", "dark-elf", "witch-elf", [], "Hit and Run", "chosen_primary", ["excluded_by"]),
    ("bb2025", "dark-elf", "dark-elf-assassin", [], "Frenzy", "chosen_secondary", ["excluded_by"]),
    # Strong Arm and Bullseye need Throw Team-mate (BB2025).
    ("bb2025", "orc", "big-un-blocker", [], "Strong Arm", "chosen_primary", ["requires"]),
    ("bb2025", "ogre", "ogre-blocker", [], "Strong Arm", "chosen_primary", []),
    ("bb2025", "orc", "big-un-blocker", [], "Bullseye", "chosen_primary", ["requires"]),
    ("bb2025", "orc", "troll", [], "Bullseye", "chosen_primary", []),
    ("bb2020", "human", "blitzer", [], "Strong Arm", "chosen_primary", ["requires"]),
    ("bb2020", "human", "ogre", [], "Strong Arm", "chosen_primary", []),
    # Saboteur needs Secret Weapon (BB2025).
    ("bb2025", "goblin", "goblin-lineman", [], "Saboteur", "chosen_primary", ["requires"]),
    ("bb2025", "goblin", "looney", [], "Saboteur", "chosen_primary", []),
    ("bb2025", "goblin", "bomma", [], "Saboteur", "chosen_primary", []),
    # Lethal Flight needs Right Stuff (BB2025).
    ("bb2025", "goblin", "goblin-lineman", [], "Lethal Flight", "chosen_primary", []),
    ("bb2025", "orc", "orc-lineman", [], "Lethal Flight", "chosen_secondary", ["requires"]),
    # Category access.
    ("bb2025", "orc", "orc-blitzer", [], "Dodge", "chosen_primary", ["not_primary"]),
    ("bb2025", "orc", "orc-blitzer", [], "Dodge", "chosen_secondary", []),
    ("bb2025", "orc", "orc-blitzer", [], "Tackle", "chosen_secondary", ["not_secondary"]),
    ("bb2025", "orc", "orc-blitzer", [], "Claws", "chosen_secondary", ["category_not_accessible"]),
    ("bb2025", "orc", "orc-blitzer", [], "Pass", "chosen_primary", ["category_not_accessible"]),
    ("bb2025", "orc", "orc-blitzer", [], "Tackle", "random_primary", []),
    ("bb2020", "human", "blitzer", [], "Dodge", "random_secondary", []),
    # Held already (starting skill or advancement); parameters ignored.
    ("bb2025", "orc", "orc-blitzer", [], "Block", "chosen_primary", ["already_held"]),
    ("bb2025", "orc", "orc-lineman", ["Tackle"], "Tackle", "chosen_primary", ["already_held"]),
    (
        "bb2020",
        "human",
        "ogre",
        ["Mighty Blow (+1)"],
        "Mighty Blow",
        "chosen_primary",
        ["already_held"],
    ),
    # Traits are never taken.
    ("bb2025", "orc", "orc-blitzer", [], "Loner", "chosen_primary", ["trait"]),
    ("bb2025", "orc", "orc-blitzer", [], "Regeneration", "chosen_secondary", ["trait"]),
    # Kinds.
    ("bb2025", "orc", "orc-blitzer", [], "Dodge", "random_secondary", ["kind_not_available"]),
    ("bb2025", "orc", "orc-blitzer", [], "Dodge", "secondary", ["unknown_kind"]),
    ("bb2025", "orc", "orc-blitzer", [], "Headbutt", "chosen_primary", ["unknown_skill"]),
    ("classic", "human", "blitzer", [], "Dodge", "chosen_secondary", []),
    ("classic", "human", "blitzer", [], "Dodge", "chosen_primary", ["not_primary"]),
    ("classic", "human", "blitzer", [], "Dodge", "random_secondary", ["kind_not_available"]),
]


@pytest.mark.parametrize(("ruleset_id", "team", "pos", "held", "skill", "kind", "codes"), DECISIONS)
def test_skill_decision(
    ruleset_id: str,
    team: str,
    pos: str,
    held: list[str],
    skill: str,
    kind: str,
    codes: list[str],
) -> None:
    ruleset = load_ruleset(ruleset_id)
    decision = skill_decision(ruleset, position(ruleset_id, team, pos), held, skill, kind)
    assert list(decision.codes) == codes
    assert decision.allowed is (not codes)


def test_reason_parameters() -> None:
    ruleset = load_ruleset("bb2025")
    blocker = position("bb2025", "orc", "big-un-blocker")
    requires = skill_decision(ruleset, blocker, [], "Strong Arm", "chosen_primary").reasons[0]
    assert dict(requires.params) == {"skill": "Strong Arm", "skills": ("Throw Team-mate",)}
    bloodseeker = position("bb2025", "khorne", "bloodseeker")
    excluded = skill_decision(ruleset, bloodseeker, [], "Grab", "chosen_primary").reasons[0]
    assert dict(excluded.params) == {"skill": "Grab", "by": "Frenzy"}
    blitzer = position("bb2025", "orc", "orc-blitzer")
    access = skill_decision(ruleset, blitzer, [], "Dodge", "chosen_primary").reasons[0]
    assert dict(access.params) == {"skill": "Dodge", "category": "A"}


def test_several_reasons_at_once() -> None:
    ruleset = load_ruleset("bb2025")
    witch = position("bb2025", "dark-elf", "witch-elf")
    decision = skill_decision(ruleset, witch, ["Hit and Run"], "Hit and Run", "chosen_secondary")
    assert decision.codes == ("already_held", "not_secondary", "excluded_by")


# BB2025 Violent Innovator: only a player with a Trait that grants a Special Action may have
# it. (position, skill kind, expected reason codes)
VIOLENT_INNOVATOR = [
    # Throw Team-mate is an ordinary Action: an Ogre Blocker (D secondary) does not qualify.
    ("ogre", "ogre-blocker", "chosen_secondary", ["requires"]),
    # Kick Team-mate is a Special Action (Ogre Runt Punter, D secondary).
    ("ogre", "ogre-runt-punter", "chosen_secondary", []),
    # Stab and Bombardier are Special Actions (both with D primary).
    ("chaos-dwarf", "sneaky-stabba", "chosen_primary", []),
    ("goblin", "bomma", "chosen_primary", []),
    # Hypnotic Gaze is a Special Action (the FAQ says so): a Vampire Runner fails only on
    # access to Devious, not on the requirement.
    ("vampire", "vampire-runner", "chosen_secondary", ["category_not_accessible"]),
]


@pytest.mark.parametrize(("team", "pos", "kind", "codes"), VIOLENT_INNOVATOR)
def test_bb2025_violent_innovator_needs_a_special_action_trait(
    team: str, pos: str, kind: str, codes: list[str]
) -> None:
    ruleset = load_ruleset("bb2025")
    player = position("bb2025", team, pos)
    decision = skill_decision(ruleset, player, [], "Violent Innovator", kind)
    assert list(decision.codes) == codes


def test_bb2025_violent_innovator_requirement_lists_the_special_action_traits() -> None:
    requires = load_ruleset("bb2025").skill("Violent Innovator").requires_any
    assert sorted(requires) == [
        "Ball & Chain",
        "Bombardier",
        "Breathe Fire",
        "Chainsaw",
        "Hypnotic Gaze",
        "Kick Team-mate",
        "Projectile Vomit",
        "Stab",
    ]


def test_bb2020_frenzy_excludes_only_grab() -> None:
    # BB2020 Frenzy: never together with Grab. Multiple Block only cannot be *used* in the
    # same activation as Frenzy, so a Norse Berzerker (G S primary) may learn it.
    ruleset = load_ruleset("bb2020")
    berzerker = position("bb2020", "norse", "norse-berzerker")
    assert ruleset.skill("Frenzy").excludes == ("Grab",)
    multiple = skill_decision(ruleset, berzerker, [], "Multiple Block", "chosen_primary")
    assert multiple.allowed
    grab = skill_decision(ruleset, berzerker, [], "Grab", "chosen_primary")
    assert grab.codes == ("excluded_by",)
    # Also the other way round: a Blitzer with Multiple Block may still learn Frenzy.
    blitzer = position("bb2020", "human", "blitzer")
    frenzy = skill_decision(ruleset, blitzer, ["Multiple Block"], "Frenzy", "chosen_primary")
    assert frenzy.allowed


def test_legal_skills() -> None:
    ruleset = load_ruleset("bb2025")
    blitzer = position("bb2025", "orc", "orc-blitzer")
    primary = [s.name for s in legal_skills(ruleset, blitzer, [], "chosen_primary")]
    assert primary[:3] == ["Dauntless", "Fend", "Frenzy"]  # General table order, Block held
    assert "Block" not in primary
    assert "Strong Arm" not in primary  # needs Throw Team-mate
    assert "Mighty Blow" in primary
    assert {ruleset.skill(name).category for name in primary} == {"G", "S"}
    with_frenzy = [s.name for s in legal_skills(ruleset, blitzer, ["Frenzy"], "chosen_primary")]
    assert "Grab" not in with_frenzy
    assert "Multiple Block" not in with_frenzy
    assert len(with_frenzy) == len(primary) - 3  # Frenzy, Grab, Multiple Block


def test_skill_choices_groups_everything_with_reasons() -> None:
    ruleset = load_ruleset("bb2025")
    blitzer = position("bb2025", "orc", "orc-blitzer")
    groups = skill_choices(ruleset, blitzer, [], "chosen_secondary")
    assert [g.category.code for g in groups] == [c.code for c in ruleset.skill_categories]
    access = {g.category.code: g.access for g in groups}
    assert access["G"] == "primary"
    assert access["A"] == "secondary"
    assert access["M"] is None
    total = sum(len(g.choices) for g in groups)
    assert total == len(ruleset.skills)
    by_name = {c.skill.name: c.decision for g in groups for c in g.choices}
    assert by_name["Dodge"].allowed
    assert by_name["Tackle"].codes == ("not_secondary",)
    assert by_name["Claws"].codes == ("category_not_accessible",)


def test_skill_choices_for_a_kind_not_offered() -> None:
    ruleset = load_ruleset("bb2025")
    blitzer = position("bb2025", "orc", "orc-blitzer")
    groups = skill_choices(ruleset, blitzer, [], "random_secondary")
    assert all(c.decision.codes == ("kind_not_available",) for g in groups for c in g.choices)


# --- random tables ---------------------------------------------------------------

RANDOM = [
    ("bb2025", "G", 1, 1, "Block"),
    ("bb2025", "G", 1, 6, "Pro"),
    ("bb2025", "G", 3, 2, "Dauntless"),
    ("bb2025", "G", 4, 1, "Steady Footing"),
    ("bb2025", "G", 4, 6, "Wrestle"),
    ("bb2025", "G", 6, 6, "Wrestle"),
    ("bb2025", "S", 6, 6, "Thick Skull"),
    ("bb2025", "D", 5, 3, "Saboteur"),
    ("bb2025", "A", 2, 4, "Dodge"),
    ("bb2025", "P", 4, 3, "On the Ball"),
    ("bb2025", "P", 5, 4, "Pass"),
    ("bb2025", "M", 1, 2, "Claws"),
    ("bb2020", "G", 1, 1, "Block"),
    ("bb2020", "G", 2, 3, "Dirty Player"),
    ("bb2020", "G", 4, 2, "Shadowing"),
    ("bb2020", "G", 5, 6, "Wrestle"),
    ("bb2020", "S", 1, 4, "Grab"),
]


@pytest.mark.parametrize(("ruleset_id", "category", "first", "second", "skill"), RANDOM)
def test_random_skill_from_dice(
    ruleset_id: str, category: str, first: int, second: int, skill: str
) -> None:
    assert random_skill_from_dice(load_ruleset(ruleset_id), category, first, second).name == skill


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
def test_every_row_of_every_table(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    for category in ruleset.skill_categories:
        if not category.table:
            continue
        rolled = [
            random_skill_from_dice(ruleset, category.code, first, second).name
            for first in (1, 4)
            for second in range(1, 7)
        ]
        assert rolled == list(category.table)


@pytest.mark.parametrize(
    ("ruleset_id", "category", "first", "second", "match"),
    [
        ("bb2025", "G", 0, 1, "first die"),
        ("bb2025", "G", 1, 7, "second die"),
        ("bb2025", "T", 1, 1, "no random table"),
        ("bb2025", "X", 1, 1, "no skill category"),
        ("classic", "G", 1, 1, "no random table"),
    ],
)
def test_random_skill_errors(
    ruleset_id: str, category: str, first: int, second: int, match: str
) -> None:
    with pytest.raises(RulesError, match=match):
        random_skill_from_dice(load_ruleset(ruleset_id), category, first, second)


RP, RS = "random_primary", "random_secondary"
# (ruleset, team/position, kind, category, dice, picked, reason codes, skill gained)
RANDOM_RESULTS = [
    # BB2020: one roll.
    ("bb2020", "human/human-lineman", RP, "G", [1, 2], None, "", "Dauntless"),
    ("bb2020", "human/blitzer", RP, "G", [1, 1], None, "reroll_required", None),
    ("bb2020", "human/blitzer", RS, "A", [2, 4], None, "", "Dodge"),
    ("bb2020", "human/blitzer", RP, "A", [2, 4], None, "not_primary", None),
    ("bb2020", "human/blitzer", RS, "M", [2, 4], None, "category_not_accessible", None),
    # BB2025: two rolls, keep one.
    ("bb2025", "orc/orc-lineman", RP, "G", [1, 1, 1, 2], None, "pick_required", None),
    ("bb2025", "orc/orc-lineman", RP, "G", [1, 1, 1, 2], "Dauntless", "", "Dauntless"),
    ("bb2025", "orc/orc-lineman", RP, "G", [1, 1, 1, 2], "Block", "", "Block"),
    ("bb2025", "orc/orc-lineman", RP, "G", [1, 1, 1, 1], None, "", "Block"),
    ("bb2025", "orc/orc-lineman", RP, "G", [1, 1, 1, 2], "Tackle", "not_rolled", None),
    ("bb2025", "orc/orc-blitzer", RP, "G", [1, 1, 1, 2], "Dauntless", "reroll_required", None),
    ("bb2025", "orc/orc-lineman", RS, "A", [1, 1, 1, 2], None, "kind_not_available", None),
    ("bb2025", "orc/orc-lineman", "chosen_primary", "G", [1, 1, 1, 2], None, "unknown_kind", None),
    ("bb2025", "orc/orc-lineman", RP, "T", [1, 1, 1, 2], None, "not_buyable", None),
]


@pytest.mark.parametrize(
    ("ruleset_id", "where", "kind", "category", "dice", "picked", "codes", "skill"),
    RANDOM_RESULTS,
)
def test_random_skill_result(
    ruleset_id: str,
    where: str,
    kind: str,
    category: str,
    dice: list[int],
    picked: str | None,
    codes: str,
    skill: str | None,
) -> None:
    ruleset = load_ruleset(ruleset_id)
    team, pos = where.split("/")
    result = random_skill_result(
        ruleset, position(ruleset_id, team, pos), [], kind, category, dice, picked
    )
    assert result.decision.codes == tuple(codes.split())
    assert (result.skill.name if result.skill else None) == skill


@pytest.mark.parametrize(("ruleset_id", "dice"), [("bb2020", [1, 1, 1, 1]), ("bb2025", [1, 1])])
def test_random_skill_needs_the_right_number_of_dice(ruleset_id: str, dice: list[int]) -> None:
    team, pos = ("human", "human-lineman")
    ruleset = load_ruleset(ruleset_id)
    with pytest.raises(RulesError, match="dice"):
        random_skill_result(
            ruleset, position(ruleset_id, team, pos), [], "random_primary", "G", dice
        )


@pytest.mark.parametrize("ruleset_id", ["bb2020", "bb2025"])
@pytest.mark.parametrize("seed", range(20))
def test_server_rolled_dice_always_resolve(ruleset_id: str, seed: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    team = ruleset.team_type("human")
    blitzer = next(p for p in team.positions if "Block" in p.skill_names and p.cost >= 85000)
    dice = roll_random_skill_dice(
        ruleset, blitzer, ["Tackle"], "random_primary", "G", random.Random(seed)
    )
    assert len(dice) == (2 if ruleset_id == "bb2020" else 4)
    names = {
        random_skill_from_dice(ruleset, "G", *dice[i : i + 2]).name for i in (0, len(dice) - 2)
    }
    picked = sorted(names)[0]
    result = random_skill_result(ruleset, blitzer, ["Tackle"], "random_primary", "G", dice, picked)
    assert result.decision.allowed
    assert result.skill is not None
    assert result.skill.name not in ("Block", "Tackle")


# --- classic-spend: one die over the category's skill list ("roll_list") ------------

CLASSIC_LISTS = {"G": 14, "A": 12, "P": 12, "S": 12, "M": 12}  # seed 000's skill table


def test_classic_spend_rolls_over_the_skills_toml_order() -> None:
    ruleset = load_ruleset("classic-spend")
    assert ruleset.advancement.random_skill == "roll_list"
    for code, size in CLASSIC_LISTS.items():
        in_file_order = tuple(s.name for s in ruleset.skills if s.category == code)
        assert random_skill_list(ruleset, code) == in_file_order
        assert len(in_file_order) == size, code
        rolled = tuple(random_skill_from_dice(ruleset, code, n).name for n in range(1, size + 1))
        assert rolled == in_file_order, code


# (category, die, skill)
ROLL_LIST = [
    ("G", 1, "Block"),  # the first General skill
    ("G", 2, "Dauntless"),
    ("G", 14, "Wrestle"),
    ("A", 1, "Catch"),
    ("A", 5, "Dodge"),
    ("A", 12, "Sure Feet"),
    ("P", 2, "Cannoneer"),
    ("P", 12, "Safe Throw"),
    ("S", 7, "Mighty Blow"),
    ("S", 9, "Piledriver"),
    ("M", 12, "Very Long Legs"),
]


@pytest.mark.parametrize(("category", "die", "skill"), ROLL_LIST)
def test_classic_spend_random_skill_from_dice(category: str, die: int, skill: str) -> None:
    assert random_skill_from_dice(load_ruleset("classic-spend"), category, die).name == skill


# (ruleset, category, dice, words in the error)
ROLL_LIST_ERRORS = [
    ("classic-spend", "G", (15,), "1-14"),  # beyond the list
    ("classic-spend", "P", (13,), "1-12"),
    ("classic-spend", "G", (0,), "1-14"),
    ("classic-spend", "G", (1, 1), "one die"),  # a 2D6 roll is not this procedure
    ("classic-spend", "X", (1,), "no skill category"),
    ("bb2020", "G", (1,), "two dice"),  # 2D6 tables still need both dice
]


@pytest.mark.parametrize(("ruleset_id", "category", "dice", "match"), ROLL_LIST_ERRORS)
def test_roll_list_errors(
    ruleset_id: str, category: str, dice: tuple[int, ...], match: str
) -> None:
    with pytest.raises(RulesError, match=match):
        random_skill_from_dice(load_ruleset(ruleset_id), category, *dice)


# (position, skills gained, kind, category, dice, reason codes, skill gained)
CLASSIC_SPEND_RESULTS = [
    ("lineman", [], RP, "G", [1], "", "Block"),
    ("lineman", [], RP, "G", [14], "", "Wrestle"),
    ("lineman", [], RS, "A", [5], "", "Dodge"),
    ("lineman", [], RS, "P", [12], "", "Safe Throw"),
    # A result the player may not take is re-rolled at the table.
    ("blitzer", [], RP, "G", [1], "reroll_required", None),  # Block is a starting skill
    ("lineman", ["Dauntless"], RP, "G", [2], "reroll_required", None),  # gained already
    ("blitzer", ["Frenzy"], RP, "S", [4], "reroll_required", None),  # Grab excludes Frenzy
    # Category access, as for chosen skills.
    ("lineman", [], RP, "A", [4], "not_primary", None),
    ("lineman", [], RS, "G", [1], "not_secondary", None),
    ("lineman", [], RS, "M", [1], "category_not_accessible", None),
    ("ogre", [], RP, "E", [1], "not_buyable", None),  # Extraordinary: never bought
    ("lineman", [], "chosen_primary", "G", [1], "unknown_kind", None),
]


@pytest.mark.parametrize(
    ("pos", "held", "kind", "category", "dice", "codes", "skill"), CLASSIC_SPEND_RESULTS
)
def test_classic_spend_random_skill_result(
    pos: str,
    held: list[str],
    kind: str,
    category: str,
    dice: list[int],
    codes: str,
    skill: str | None,
) -> None:
    ruleset = load_ruleset("classic-spend")
    result = random_skill_result(
        ruleset, position("classic-spend", "human", pos), held, kind, category, dice
    )
    assert result.decision.codes == tuple(codes.split())
    assert (result.skill.name if result.skill else None) == skill
    if codes == "reroll_required":
        assert len(result.candidates) == 1


@pytest.mark.parametrize(
    ("dice", "match"), [([15], "1-14"), ([1, 1], "take 1 die"), ([], "take 1 die")]
)
def test_classic_spend_random_skill_result_bad_dice(dice: list[int], match: str) -> None:
    ruleset = load_ruleset("classic-spend")
    lineman = position("classic-spend", "human", "lineman")
    with pytest.raises(RulesError, match=match):
        random_skill_result(ruleset, lineman, [], RP, "G", dice)


@pytest.mark.parametrize("seed", range(20))
def test_classic_spend_server_rolled_die_always_resolves(seed: int) -> None:
    ruleset = load_ruleset("classic-spend")
    blitzer = position("classic-spend", "human", "blitzer")
    dice = roll_random_skill_dice(ruleset, blitzer, ["Tackle"], RP, "G", random.Random(seed))
    assert len(dice) == 1
    assert 1 <= dice[0] <= CLASSIC_LISTS["G"]
    result = random_skill_result(ruleset, blitzer, ["Tackle"], RP, "G", dice)
    assert result.decision.allowed
    assert result.skill is not None
    assert result.skill.name not in ("Block", "Tackle")
