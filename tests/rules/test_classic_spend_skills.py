"""Classic-spend's skill list is the one seed 000 describes (the system it implements).

Seed 000 gives each skill a heading "Name (Category): ..."; the list below was typed by
hand from those headings, in the seed's order. It holds 82 headings: the heading
"Claw / Claws" is one skill, spelled "Claw" as the classic rosters carry it.
"""

from __future__ import annotations

import pytest

from league.rules import load_ruleset, skill_decision

G, S, A, P, M, E = "G", "S", "A", "P", "M", "E"

#: Seed 000's skill headings, in the seed's order: name -> category code
#: (General, Strength, Agility, Passing, Mutation, Extraordinary).
SEED_000_SKILLS = {
    "Accurate": P,
    "Always Hungry": E,
    "Animosity": E,
    "Arm Bar": S,
    "Big Hand": M,
    "Block": G,
    "Bombardier": E,  # heading "Bombardier [Secret Weapon]"
    "Bone-head": E,
    "Brawler": S,
    "Break Tackle": S,
    "Cannoneer": P,
    "Catch": A,
    "Chainsaw": E,  # heading "Chainsaw [Secret Weapon]"
    "Claw": M,  # heading "Claw / Claws"
    "Cloud Burster": P,
    "Dauntless": G,
    "Defensive": A,
    "Dirty Player": G,
    "Disturbing Presence": M,
    "Diving Catch": A,
    "Diving Tackle": A,
    "Dodge": A,
    "Dump-Off": P,
    "Extra Arms": M,
    "Fan Favorite": E,
    "Fend": G,
    "Foul Appearance": M,
    "Frenzy": G,
    "Fumblerooskie": P,
    "Grab": S,
    "Guard": S,
    "Gun Arm": E,
    "Hail Mary Pass": P,
    "Horns": M,
    "Hypnotic Gaze": E,
    "Iron Hard Skin": M,
    "Juggernaut": S,
    "Jump Up": A,
    "Kick": G,
    "Kick-Off Return": G,
    "Leader": P,
    "Leap": A,
    "Loner": E,
    "Mighty Blow": S,
    "Multiple Block": S,
    "Monstrous Mouth": M,
    "Nerves of Steel": P,
    "No Hands": E,
    "On the Ball": P,
    "Pass": P,
    "Pass Block": G,
    "Photosynthesis": E,
    "Piledriver": S,
    "Prehensile Tail": M,
    "Pro": G,
    "Projectile Vomit": E,
    "Right Stuff": E,
    "Running Pass": P,
    "Safe Pair of Hands": A,
    "Safe Throw": P,
    "Secret Weapon": E,
    "Shadowing": G,
    "Side Step": A,
    "Sneaky Git": A,
    "Sprint": A,
    "Stab": E,  # heading "Stab [Secret Weapon]"
    "Stand Firm": S,
    "Strip Ball": G,
    "Strong Arm": S,
    "Stunty": E,
    "Sure Feet": A,
    "Sure Hands": G,
    "Tackle": G,
    "Take Root": E,
    "Tentacles": M,
    "Thick Skull": S,
    "Throw Team-Mate": E,
    "Timmm-ber!": E,
    "Titchy": E,
    "Two Heads": M,
    "Very Long Legs": M,
    "Wrestle": G,
}

#: Skills the classic rosters carry that seed 000 does not describe: starting skills only.
ROSTER_ONLY = {
    "Ball & Chain",
    "Blood Lust",
    "Decay",
    "Nurgle's Rot",
    "Really Stupid",
    "Regeneration",
    "Wild Animal",
}


def test_seed_000_list_as_typed() -> None:
    assert len(SEED_000_SKILLS) == 82
    counts = {code: list(SEED_000_SKILLS.values()).count(code) for code in "GSAPME"}
    assert counts == {"G": 14, "S": 12, "A": 12, "P": 12, "M": 12, "E": 20}


def test_classic_spend_skill_list_is_seed_000() -> None:
    ruleset = load_ruleset("classic-spend")
    categories = {c.code: c.name for c in ruleset.skill_categories}
    assert [categories[code] for code in "GSAPME"] == [
        "General",
        "Strength",
        "Agility",
        "Passing",
        "Mutation",
        "Extraordinary",
    ]
    listed = {s.name: s.category for s in ruleset.skills if s.category in "GSAPME"}
    assert listed == SEED_000_SKILLS
    # Everything else is a roster skill seed 000 does not describe, in its own category.
    others = [s for s in ruleset.skills if s.name not in SEED_000_SKILLS]
    assert {s.name for s in others} == ROSTER_ONLY
    assert {s.category for s in others} == {"R"}
    assert not next(c for c in ruleset.skill_categories if c.code == "R").learnable


def test_classic_spend_skills_have_a_summary() -> None:
    for skill in load_ruleset("classic-spend").skills:
        assert 20 <= len(skill.summary) <= 400, skill.name


def test_classic_spend_rosters_carry_only_listed_skills() -> None:
    ruleset = load_ruleset("classic-spend")
    carried = {
        name
        for team in ruleset.team_types
        for position in team.positions
        for name in position.skill_names
    }
    assert carried - set(SEED_000_SKILLS) == ROSTER_ONLY


def test_classic_spend_only_seed_skills_outside_extraordinary_are_bought() -> None:
    ruleset = load_ruleset("classic-spend")
    buyable = {s.name for s in ruleset.skills if s.buyable}
    assert buyable == {name for name, code in SEED_000_SKILLS.items() if code != E}
    assert not any(c.learnable for c in ruleset.skill_categories if c.code in ("E", "R"))


# (team, position, skills gained, skill, kind, reason codes)
DECISIONS = [
    # Extraordinary skills are never bought, even with the category otherwise open.
    ("human", "ogre", [], "Gun Arm", "chosen_primary", ["not_buyable"]),
    ("lizardmen", "kroxigor", [], "Hypnotic Gaze", "chosen_secondary", ["not_buyable"]),
    ("human", "lineman", [], "Fan Favorite", "chosen_primary", ["not_buyable"]),
    # Starting-only roster skills cannot be bought either.
    ("human", "lineman", [], "Regeneration", "chosen_primary", ["not_buyable"]),
    # Piling On is not a skill of this ruleset.
    ("human", "blitzer", [], "Piling On", "chosen_primary", ["unknown_skill"]),
    # Skills seed 000 adds to the classic list are bought like any other.
    ("human", "blitzer", [], "Piledriver", "chosen_primary", []),
    ("human", "blitzer", [], "Arm Bar", "chosen_primary", []),
    ("human", "lineman", [], "Safe Pair of Hands", "chosen_secondary", []),
    ("human", "thrower", [], "Cannoneer", "chosen_primary", []),
    ("human", "lineman", [], "Brawler", "chosen_secondary", []),
    # Seed 000's Grab text: never Grab and Frenzy together.
    ("human", "blitzer", ["Frenzy"], "Grab", "chosen_primary", ["excluded_by"]),
]


@pytest.mark.parametrize(("team", "pos", "held", "skill", "kind", "codes"), DECISIONS)
def test_classic_spend_skill_decisions(
    team: str, pos: str, held: list[str], skill: str, kind: str, codes: list[str]
) -> None:
    ruleset = load_ruleset("classic-spend")
    position = ruleset.team_type(team).position(pos)
    decision = skill_decision(ruleset, position, held, skill, kind)
    assert list(decision.codes) == codes


def test_piling_on_is_not_buyable_in_classic_spend() -> None:
    ruleset = load_ruleset("classic-spend")
    assert "Piling On" not in {s.name for s in ruleset.skills}
    # ... while classic (LRB6) still sells it.
    assert load_ruleset("classic").skill("Piling On").buyable
