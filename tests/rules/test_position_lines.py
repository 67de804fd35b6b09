"""Complete position lines, written out by hand from the public reference data (issue 3).

Each row is one roster line of a team type: position, max count, cost, MA ST AG PA AV,
starting skills and traits, primary and secondary skill access. The values are copied from
the public reference, not from ``league/rules/data``:

* bb2025 / bb2020: ``reference/<ruleset>_rosters.json`` beside this file and the roster
  tables of the rules facts sheet, §7a / §7b (docs/rules-sources.md);
* classic: ``reference/lrb6_rosters/<team>.yaml`` beside this file (the YAML key is
  given in a comment; primary = ``available_skills``, secondary = ``available_skills_on_double``).

Characteristics are written as on a roster sheet: ``"MA ST AG PA AV"``, with ``+`` on
target numbers (BB2020 / BB2025) and ``-`` where there is no value (no PA in LRB6, or a
"-" PA in the reference). Skills and access letters are compared as sets: their order is
not a rule. Positions listed in ``reference_diffs_<ruleset>.toml`` (known differences from
the reference) are left out on purpose.
"""

from __future__ import annotations

import pytest

from league.rules import load_ruleset

# fmt: off
LINES: dict[str, list[tuple[str, str, int, int, str, str, str, str]]] = {
    # (team, position, max, cost, "MA ST AG PA AV", skills, primary, secondary)
    "bb2025": [
        ("human", "human-blitzer", 2, 85000, "7 3 3+ 4+ 9+", "Block, Tackle", "GS", "AD"),
        ("black-orc", "black-orc", 6, 90000, "4 4 4+ 5+ 10+", "Brawler, Grab", "GS", "AD"),
        ("dwarf", "troll-slayer", 2, 95000, "5 3 4+ 5+ 9+",
         "Block, Dauntless, Frenzy, Hatred (Troll), Thick Skull", "GS", "D"),
        ("wood-elf", "wardancer", 2, 130000, "8 3 2+ 3+ 8+", "Block, Dodge, Leap", "GA", "PS"),
        ("skaven", "gutter-runner", 2, 85000, "9 2 2+ 4+ 8+", "Dodge, Stab", "GAD", "MS"),
        ("lizardmen", "saurus-blocker", 6, 90000, "6 4 5+ 6+ 10+",
         "Juggernaut, Unsteady", "GS", "A"),
        ("chaos-chosen", "chaos-chosen", 4, 100000, "5 4 3+ 5+ 10+", "Arm Bar", "GMS", "AD"),
    ],
    "bb2020": [
        ("human", "blitzer", 4, 85000, "7 3 3+ 4+ 9+", "Block", "GS", "AP"),
        ("black-orc", "black-orc", 6, 90000, "4 4 4+ 5+ 10+", "Brawler, Grab", "GS", "AP"),
        ("dwarf", "dwarf-blocker-lineman", 12, 70000, "4 3 4+ 5+ 10+",
         "Block, Tackle, Thick Skull", "GS", "A"),
        ("dwarf", "troll-slayer", 2, 95000, "5 3 4+ - 9+",
         "Block, Dauntless, Frenzy, Thick Skull", "GS", "A"),
        ("wood-elf", "wardancer", 2, 125000, "8 3 2+ 4+ 8+", "Block, Dodge, Leap", "GA", "PS"),
        ("skaven", "gutter-runner", 4, 85000, "9 2 2+ 4+ 8+", "Dodge", "GA", "MPS"),
        ("lizardmen", "saurus-blocker", 6, 85000, "6 4 5+ 6+ 10+", "", "GS", "A"),
        ("chaos-chosen", "chosen-blocker", 4, 100000, "5 4 3+ 5+ 10+", "", "GMS", "A"),
    ],
    "classic": [
        ("human", "blitzer", 4, 90000, "7 3 3 - 8", "Block", "GS", "AP"),  # human: blitzer
        ("orc", "black-orc-blocker", 4, 80000, "4 4 2 - 9", "", "GS", "AP"),  # orc: black_ork
        ("orc", "blitzer", 4, 80000, "6 3 3 - 9", "Block", "GS", "AP"),  # orc: blitzer
        ("dwarf", "blocker", 16, 70000, "4 3 2 - 9", "Block, Tackle, Thick Skull", "GS", "AP"),
        ("dwarf", "troll-slayer", 2, 90000, "5 3 2 - 8",  # dwarf: slayer
         "Block, Dauntless, Frenzy, Thick Skull", "GS", "AP"),
        ("skaven", "gutter-runner", 4, 80000, "9 2 4 - 7", "Dodge", "GA", "MPS"),
        ("chaos", "chaos-warrior", 4, 100000, "5 4 3 - 9", "", "GMS", "AP"),  # chaos: warrior
    ],
}
# fmt: on

CASES = [
    pytest.param(ruleset, *line, id=f"{ruleset}-{line[0]}-{line[1]}")
    for ruleset, lines in LINES.items()
    for line in lines
]


def characteristic(text: str) -> int | None:
    """``"3+"`` -> 3, ``"7"`` -> 7, ``"-"`` -> None."""
    return None if text == "-" else int(text.removesuffix("+"))


@pytest.mark.parametrize(
    ("ruleset", "team", "position_id", "max_count", "cost", "stats", "skills", "pri", "sec"),
    CASES,
)
def test_position_line(
    ruleset: str,
    team: str,
    position_id: str,
    max_count: int,
    cost: int,
    stats: str,
    skills: str,
    pri: str,
    sec: str,
) -> None:
    position = load_ruleset(ruleset).team_type(team).position(position_id)

    assert position.max == max_count
    assert position.cost == cost
    ma, st, ag, pa, av = (characteristic(value) for value in stats.split())
    assert (position.ma, position.st, position.ag, position.pa, position.av) == (ma, st, ag, pa, av)
    expected_skills = sorted(skill for skill in skills.split(", ") if skill)
    assert sorted(str(skill) for skill in position.skills) == expected_skills
    assert sorted(position.primary) == sorted(pri)
    assert sorted(position.secondary) == sorted(sec)


@pytest.mark.parametrize("ruleset", list(LINES))
def test_five_position_lines_from_five_teams_per_ruleset(ruleset: str) -> None:
    lines = LINES[ruleset]
    assert len({(team, position) for team, position, *_ in lines}) >= 5
    assert len({team for team, *_ in lines}) >= 5
