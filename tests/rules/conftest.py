"""Fixtures for the rules-engine tests: shipped rulesets and a tiny ruleset on disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from league.rules import Ruleset, load_ruleset
from league.rules.loader import DATA_DIR


@pytest.fixture(scope="session")
def bb2025() -> Ruleset:
    return load_ruleset("bb2025")


@pytest.fixture(scope="session")
def bb2020() -> Ruleset:
    return load_ruleset("bb2020")


@pytest.fixture(scope="session")
def classic() -> Ruleset:
    return load_ruleset("classic")


@pytest.fixture(scope="session")
def classic_spend() -> Ruleset:
    return load_ruleset("classic-spend")


GENERAL = [
    "Block", "Dauntless", "Fend", "Frenzy", "Kick", "Pro",
    "Steady Footing", "Strip Ball", "Sure Hands", "Tackle", "Taunt", "Wrestle",
]  # fmt: skip

MINI_SKILLS = "\n".join(
    [
        "[[category]]",
        'code = "G"',
        'name = "General"',
        "table = [" + ", ".join(f'"{name}"' for name in GENERAL) + "]",
        "",
        "[[category]]",
        'code = "T"',
        'name = "Traits"',
        "learnable = false",
        "",
        *(
            f'[[skill]]\nname = "{name}"\ncategory = "G"\nsummary = "A general skill."\n'
            for name in GENERAL
            if name != "Frenzy"
        ),
        '[[skill]]\nname = "Frenzy"\ncategory = "G"\nsummary = "Blocks twice."\n'
        'excludes = ["Grab"]\n',
        '[[skill]]\nname = "Grab"\ncategory = "T"\nsummary = "Chooses the push."\ntrait = true\n',
        '[[skill]]\nname = "Loner"\ncategory = "T"\nsummary = "Poor team-mate."\n'
        'trait = true\nparameter = "X+"\n',
    ]
)

MINI_ROSTER = """\
id = "humans"
name = "Humans"
reroll_cost = 50000
apothecary = true
tier = 2
special_rules = []

[[position]]
id = "lineman"
name = "Lineman"
keywords = ["Lineman", "Human"]
max = 16
cost = 50000
ma = 6
st = 3
ag = 3
pa = 4
av = 9
skills = ["Loner (4+)"]
primary = ["G"]
secondary = []

[[position]]
id = "blitzer"
name = "Blitzer"
keywords = ["Blitzer", "Human"]
max = 2
cost = 85000
ma = 7
st = 3
ag = 3
pa = 4
av = 9
skills = ["Block"]
primary = ["G"]
secondary = []
"""


@pytest.fixture
def mini_ruleset_dir(tmp_path: Path) -> Path:
    """A small valid ruleset ``tmp_path/mini``: BB2025 numbers, 15 skills, one roster."""
    folder = tmp_path / "mini"
    (folder / "rosters").mkdir(parents=True)
    text = (DATA_DIR / "bb2025" / "ruleset.toml").read_text(encoding="utf-8")
    (folder / "ruleset.toml").write_text(text.replace('id = "bb2025"', 'id = "mini"'), "utf-8")
    (folder / "skills.toml").write_text(MINI_SKILLS, encoding="utf-8")
    (folder / "rosters" / "humans.toml").write_text(MINI_ROSTER, encoding="utf-8")
    return folder


@pytest.fixture
def edit_file() -> Callable[[Path, str, str], None]:
    """Replace ``old`` (which must occur) by ``new`` in a file."""

    def edit(path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {path}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit
