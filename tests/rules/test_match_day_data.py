"""Match-day data (match_day.toml, star_players.toml): what ships, and what the loader refuses.

Numbers checked against the compiled references (inducements.json,
bb2025_star_players.json, bb2020_star_players.json, MATCH-DAY.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from league.rules import Ruleset, RulesetError, load_ruleset_from_path
from league.rules.loader import DATA_DIR


def test_bb2025_rule_blocks(bb2025: Ruleset) -> None:
    md = bb2025.match_day
    assert md is not None
    # MATCH-DAY.md "Key rule numbers": the lower team may add up to 50,000 of treasury.
    assert md.petty_cash.lower_adds_treasury_max == 50000
    assert md.petty_cash.higher_spends_first
    assert not md.petty_cash.equal_ctv_treasury
    # Mercenary: fee + 30,000, one primary skill + 50,000, Loner (4+), 0-3.
    merc = md.mercenaries
    assert (merc.extra_cost, merc.skill_cost, merc.max, str(merc.trait)) == (
        30000,
        50000,
        3,
        "Loner (4+)",
    )
    # Journeymen: a Lineman position of quantity 0-16, Loner (4+), up to 11 players.
    assert md.journeymen.position_max == (16,)
    assert md.journeymen.keyword == "Lineman"
    assert md.journeymen.fill_to == 11
    assert str(md.journeymen.trait) == "Loner (4+)"
    assert md.star_rules.max == 2
    assert md.star_rules.same_star == "both"
    assert md.inducement("temp-agency-cheerleaders").cost == 5000
    bribes = md.inducement("bribes")
    assert (bribes.cost, bribes.max) == (100000, 3)
    assert [(r.special_rule, r.cost, r.max) for r in bribes.reduced] == [
        ("Bribery and Corruption", 50000, 6)
    ]


def test_bb2020_and_classic_rule_blocks(bb2020: Ruleset, classic: Ruleset) -> None:
    md20 = bb2020.match_day
    assert md20 is not None
    # BB2020 errata: the lower team adds no treasury; a star both hire plays for neither.
    assert md20.petty_cash.lower_adds_treasury_max == 0
    assert md20.star_rules.same_star == "neither"
    assert md20.mercenaries.max is None
    assert md20.journeymen.position_max == (12, 16)
    assert md20.inducement("weather-mage").cost == 30000
    classic_md = classic.match_day
    assert classic_md is not None
    assert classic_md.petty_cash.lower_adds_treasury_max is None  # no cap found
    assert str(classic_md.journeymen.trait) == "Loner"
    assert classic_md.journeymen.hire.price == "position_cost"
    assert [r.team_type for r in classic_md.inducement("bribes").reduced] == ["goblin"]


def test_star_numbers_carry_over(bb2025: Ruleset, bb2020: Ruleset, classic: Ruleset) -> None:
    md = bb2025.match_day
    assert md is not None
    assert len(md.stars) == 66
    assert len(md.pairs) == 3
    eldril = md.star("eldril-sidewinder")
    assert eldril.cost == 220000  # MATCH-DAY.md judgment (230,000 is the BB2020 price)
    assert "Stunty" in {ref.name for ref in md.star("the-black-gobbo").skills}
    morg = md.star("morg-n-thorg")
    assert morg.mega_star
    assert morg.plays_for_except == ("Sylvanian Spotlight",)
    swift = md.star("lucien-swift")
    assert swift.pair == "the-swift-twins"
    assert swift.cost == 300000
    assert md.pair("the-swift-twins").members == ("lucien-swift", "valen-swift")
    md20 = bb2020.match_day
    assert md20 is not None
    assert md20.star("hakflem-skuttlespike").cost == 210000  # FAQ May 2025
    assert md20.star("lucien-swift").cost == 340000
    classic_md = classic.match_day
    assert classic_md is not None
    assert classic_md.pair("brick-farth-grotty").cost == 290000
    assert classic_md.star("barik-farblast").plays_for_teams == ("dwarf",)
    assert classic_md.star("barik-farblast").pa is None  # classic has no PA


def test_classic_spend_borrows_classic_match_day(classic: Ruleset, classic_spend: Ruleset) -> None:
    assert classic_spend.match_day is not None
    assert classic.match_day is not None
    assert classic_spend.match_day.inducements == classic.match_day.inducements
    # Stars keep classic's skill names (Stakes), which classic-spend's skills.toml lacks.
    assert classic_spend.match_day.star("zara-the-slayer") == classic.match_day.star(
        "zara-the-slayer"
    )
    assert classic_spend.find_skill("Stakes") is None


@pytest.fixture
def bb2025_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "bb2025"
    shutil.copytree(DATA_DIR / "bb2025", folder)
    return folder


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "old", "new", "key", "message"),
    [
        (
            "match_day.toml",
            "lower_adds_treasury_max = 50000",
            "lower_add_treasury = 50000",
            "petty_cash.lower_add_treasury",
            "unknown key",
        ),
        (
            "match_day.toml",
            'trait = "Loner (4+)"\ncounts',
            'trait = "Lonely (4+)"\ncounts',
            "journeymen.trait",
            "unknown skill 'Lonely'",
        ),
        (
            "match_day.toml",
            "position_max = [16]",
            "position_max = [14]",
            "journeymen.position_max",
            "has no journeyman position",
        ),
        (
            "match_day.toml",
            'special_rules = ["Masters of Undeath"]',
            'special_rules = ["Masters of Undead"]',
            "special_rules[0]",
            "no team type has the special rule",
        ),
        (
            "match_day.toml",
            'special_rules = ["Masters of Undeath"]',
            "tiers = [7]",
            "tiers[0]",
            "no team type is of tier 7",
        ),
        (
            "match_day.toml",
            'team_type = "halfling"',
            'team_type = "hobbit"',
            "team_type[0]",
            "unknown team type 'hobbit'",
        ),
        (
            "match_day.toml",
            'same_star = "both"',
            'same_star = "sometimes"',
            "star_players.same_star",
            "must be one of both, neither",
        ),
        (
            "match_day.toml",
            'id = "team-mascot"',
            'id = "bribes"',
            "inducement[6].id",
            "duplicate inducement id",
        ),
        (
            "star_players.toml",
            'plays_for = ["Lustrian Superleague"]',
            'plays_for = ["Lustria Superleague"]',
            "star[1].plays_for[0]",
            "no team type has the special rule",
        ),
        (
            "star_players.toml",
            '"Grab", "Loner (4+)"',
            '"Grabby", "Loner (4+)"',
            "star[1].skills[1]",
            "unknown skill 'Grabby'",
        ),
        (
            "star_players.toml",
            'members = ["crumbleberry", "grak"]',
            'members = ["crumbleberry", "grok"]',
            "pair",
            "no [[pair]]",
        ),
    ],
)
def test_broken_match_day_data_names_file_and_key(
    bb2025_copy: Path, name: str, old: str, new: str, key: str, message: str
) -> None:
    _edit(bb2025_copy, name, old, new)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_from_path(bb2025_copy)
    assert caught.value.file == f"bb2025/{name}"
    assert key in caught.value.key
    assert message in caught.value.detail


def test_stars_need_match_day_rules(bb2025_copy: Path) -> None:
    (bb2025_copy / "match_day.toml").unlink()
    with pytest.raises(RulesetError, match=r"star players need a match_day\.toml"):
        load_ruleset_from_path(bb2025_copy)


def test_a_ruleset_without_match_day_has_none(bb2025_copy: Path) -> None:
    (bb2025_copy / "match_day.toml").unlink()
    (bb2025_copy / "star_players.toml").unlink()
    # The translations name the inducements, which are gone with match_day.toml.
    shutil.rmtree(bb2025_copy / "i18n")
    assert load_ruleset_from_path(bb2025_copy).match_day is None
