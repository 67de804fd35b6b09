"""Loading from disk: broken data is refused with the file and key named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from league.rules import (
    RulesetError,
    advancement_cost,
    load_ruleset,
    load_ruleset_from_path,
    merge_house_rules,
    random_skill_from_dice,
    random_skill_result,
    skill_decision,
    spp_for_events,
)
from league.rules.model import BonusRule, Tournament

Edit = Callable[[Path, str, str], None]


def test_the_mini_ruleset_loads(mini_ruleset_dir: Path) -> None:
    ruleset = load_ruleset_from_path(mini_ruleset_dir)
    assert ruleset.id == "mini"
    lineman = ruleset.team_type("humans").position("lineman")
    assert [str(ref) for ref in lineman.skills] == ["Loner (4+)"]
    assert lineman.skills[0].parameter == "4+"
    assert ruleset.skill("Loner (4+)").name == "Loner"
    assert skill_decision(ruleset, lineman, ["Frenzy"], "Grab", "chosen_primary").codes == (
        "trait",
        "excluded_by",
    )


# (file, old text, new text, file named in the error, key named, words in the message)
BROKEN = [
    pytest.param(
        "rosters/humans.toml", 'skills = ["Block"]', 'skills = ["Blok"]',
        "mini/rosters/humans.toml", "position[1].skills[0]", "unknown skill 'Blok'",
        id="unknown-skill",
    ),
    pytest.param(
        "rosters/humans.toml", 'skills = ["Loner (4+)"]', 'skills = ["Lonely (4+)"]',
        "mini/rosters/humans.toml", "position[0].skills[0]", "unknown skill 'Lonely'",
        id="unknown-skill-with-parameter",
    ),
    pytest.param(
        "rosters/humans.toml",
        'secondary = []\n\n[[position]]',
        'secondary = ["Q"]\n\n[[position]]',
        "mini/rosters/humans.toml", "position[0].secondary[0]", "unknown category code 'Q'",
        id="unknown-category-in-roster",
    ),
    pytest.param(
        "skills.toml", 'category = "T"\nsummary = "Chooses', 'category = "X"\nsummary = "Chooses',
        "mini/skills.toml", "skill[12].category", "unknown category code 'X'",
        id="unknown-category-in-skills",
    ),
    pytest.param(
        "ruleset.toml", "chosen_primary = [6, 8, 12, 16, 20, 30]", "chosen_primary = [6, 8, 12]",
        "mini/ruleset.toml", "advancement.costs.chosen_primary", "expected 6 costs",
        id="cost-table-too-short",
    ),
    pytest.param(
        "ruleset.toml", "random_primary = [3, 4, 6, 8, 10, 15]",
        "random_primary = [3, 4, 6, 8, 10, 15, 20]",
        "mini/ruleset.toml", "advancement.costs.random_primary", "expected 6 costs",
        id="cost-table-too-long",
    ),
    pytest.param(
        "rosters/humans.toml", 'id = "blitzer"', 'id = "lineman"',
        "mini/rosters/humans.toml", "position[1].id", "duplicate position id 'lineman'",
        id="duplicate-position-id",
    ),
    pytest.param(
        "skills.toml", 'excludes = ["Grab"]', 'excludes = ["Grabb"]',
        "mini/skills.toml", "skill[11].excludes[0]", "unknown skill 'Grabb'",
        id="excludes-unknown-skill",
    ),
    pytest.param(
        "skills.toml", 'excludes = ["Grab"]', 'requires_any = ["Secret Weapon"]',
        "mini/skills.toml", "skill[11].requires_any[0]", "unknown skill 'Secret Weapon'",
        id="requires-unknown-skill",
    ),
    pytest.param(
        "skills.toml", '"Tackle", "Taunt"', '"Tackle", "Grab"',
        "mini/skills.toml", "category[0].table[10]", "is in category 'T', not 'G'",
        id="table-entry-not-in-its-category",
    ),
    pytest.param(
        "skills.toml", '"Tackle", "Taunt"', '"Tackle", "Taunts"',
        "mini/skills.toml", "category[0].table[10]", "unknown skill 'Taunts'",
        id="table-entry-unknown",
    ),
    pytest.param(
        "skills.toml", '"Tackle", "Taunt", ', '"Tackle", ',
        "mini/skills.toml", "category[0].table", "expected 12 skills",
        id="table-too-short",
    ),
    pytest.param(
        "skills.toml", 'name = "Kick"', 'name = "Block"',
        "mini/skills.toml", "skill[3].name", "duplicate skill 'Block'",
        id="duplicate-skill",
    ),
    pytest.param(
        "skills.toml", 'code = "T"', 'code = "G"',
        "mini/skills.toml", "category[1].code", "duplicate category code 'G'",
        id="duplicate-category",
    ),
    pytest.param(
        "rosters/humans.toml", 'id = "humans"', 'id = "human"',
        "mini/rosters/humans.toml", "id", "does not match the file name",
        id="roster-id-not-file-name",
    ),
    pytest.param(
        "ruleset.toml", 'id = "mini"', 'id = "other"',
        "mini/ruleset.toml", "id", "does not match the folder name",
        id="ruleset-id-not-folder",
    ),
    pytest.param(
        "ruleset.toml", "mvp = 4", "mvp = -4",
        "mini/ruleset.toml", "spp.mvp", "must be at least 0",
        id="negative-spp",
    ),
    pytest.param(
        "ruleset.toml", "mvp = 4", 'mvp = "four"',
        "mini/ruleset.toml", "spp.mvp", "expected a whole number",
        id="text-for-number",
    ),
    pytest.param(
        "ruleset.toml", "mvp = 4", "mvp = 4\nmvps = 1",
        "mini/ruleset.toml", "spp.mvps", "unknown key",
        id="unknown-key",
    ),
    pytest.param(
        "ruleset.toml", "{ min = 9, max = 10,", "{ min = 10, max = 10,",
        "mini/ruleset.toml", "casualty.results", "not covered: [9]",
        id="casualty-gap",
    ),
    pytest.param(
        "ruleset.toml",
        "{ min = 3, max = 4, characteristics",
        "{ min = 2, max = 4, characteristics",
        "mini/ruleset.toml", "characteristic_table.bands[2]", "roll 2 already covered",
        id="characteristic-overlap",
    ),
    pytest.param(
        "ruleset.toml", 'characteristics = ["av"] }', 'characteristics = ["xx"] }',
        "mini/ruleset.toml", "characteristic_table.bands[0].characteristics[0]",
        "unknown characteristic 'xx'",
        id="unknown-characteristic",
    ),
    pytest.param(
        "ruleset.toml", '"Superstar", "Legend"]', '"Legend"]',
        "mini/ruleset.toml", "advancement.levels", "expected 7 names",
        id="levels-wrong-length",
    ),
    pytest.param(
        "ruleset.toml", 'mode = "spend"', 'mode = "buy"',
        "mini/ruleset.toml", "advancement.mode", "must be one of spend, roll",
        id="unknown-mode",
    ),
    pytest.param(
        "ruleset.toml", "chosen_secondary = 40000\n", "",
        "mini/ruleset.toml", "value_increase.chosen_secondary", "has a cost but no value increase",
        id="priced-kind-without-value",
    ),
    pytest.param(
        "ruleset.toml", "minor_dice = [1, 3]", "minor_dice = [3]",
        "mini/ruleset.toml", "expensive_mistakes.minor_dice", "expected [count, sides]",
        id="dice-without-sides",
    ),
    pytest.param(
        "ruleset.toml", "catastrophe_dice = [2, 6]", "catastrophe_dice = [2, 0]",
        "mini/ruleset.toml", "expensive_mistakes.catastrophe_dice", "both at least 1",
        id="dice-without-faces",
    ),
    pytest.param(
        "ruleset.toml", "major_round_down_to = 5000\n", "",
        "mini/ruleset.toml", "expensive_mistakes.major_round_down_to", "",
        id="expensive-mistake-amount-missing",
    ),
    pytest.param(
        "ruleset.toml", 'bye_result = "win"', 'bye_result = "loss"',
        "mini/ruleset.toml", "season.tournament.bye_result", "must be one of win, draw",
        id="bye-result-unknown",
    ),
    pytest.param(
        "ruleset.toml", "bye_touchdowns = [1, 0]", "bye_touchdowns = [2]",
        "mini/ruleset.toml", "season.tournament.bye_touchdowns", "expected 2 numbers",
        id="bye-score-not-a-pair",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "named_file", "key", "message"), BROKEN)
def test_broken_data_names_file_and_key(
    mini_ruleset_dir: Path,
    edit_file: Edit,
    file: str,
    old: str,
    new: str,
    named_file: str,
    key: str,
    message: str,
) -> None:
    edit_file(mini_ruleset_dir / file, old, new)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_from_path(mini_ruleset_dir)
    error = caught.value
    assert error.file == named_file
    assert error.key == key
    assert message in str(error)
    assert str(error).startswith(f"{named_file}: {key}: ")


def test_missing_file(mini_ruleset_dir: Path) -> None:
    (mini_ruleset_dir / "skills.toml").unlink()
    with pytest.raises(RulesetError, match=r"mini/skills.toml: file not found"):
        load_ruleset_from_path(mini_ruleset_dir)


def test_invalid_toml(mini_ruleset_dir: Path) -> None:
    (mini_ruleset_dir / "rosters" / "humans.toml").write_text("id = ", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"mini/rosters/humans.toml: invalid TOML"):
        load_ruleset_from_path(mini_ruleset_dir)


def test_no_ruleset_folder(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset\.toml: file not found"):
        load_ruleset_from_path(tmp_path / "nothing")


def test_unknown_shipped_ruleset() -> None:
    with pytest.raises(RulesetError, match="no such ruleset"):
        load_ruleset("bb1987")


def test_based_on_reuses_rosters_not_skills(mini_ruleset_dir: Path, edit_file: Edit) -> None:
    sibling = mini_ruleset_dir.parent / "mini-variant"
    sibling.mkdir()
    text = (mini_ruleset_dir / "ruleset.toml").read_text(encoding="utf-8")
    text = text.replace('id = "mini"', 'id = "mini-variant"\nbased_on = "mini"')
    (sibling / "ruleset.toml").write_text(text, encoding="utf-8")
    # The skills are always the ruleset's own: without a skills.toml it does not load.
    with pytest.raises(RulesetError, match=r"mini-variant/skills\.toml: file not found"):
        load_ruleset_from_path(sibling)
    skills = (mini_ruleset_dir / "skills.toml").read_text(encoding="utf-8")
    (sibling / "skills.toml").write_text(skills.replace("Blocks twice.", "Hits twice."), "utf-8")
    variant = load_ruleset_from_path(sibling)
    assert variant.based_on == "mini"
    assert [t.id for t in variant.team_types] == ["humans"]
    assert variant.skill("Frenzy").summary == "Hits twice."
    # The borrowed rosters are checked against the ruleset's own skills.
    edit_file(sibling / "skills.toml", 'name = "Loner"', 'name = "Lone Wolf"')
    with pytest.raises(RulesetError, match=r"mini/rosters/humans\.toml: .*'Loner'"):
        load_ruleset_from_path(sibling)
    edit_file(sibling / "ruleset.toml", 'based_on = "mini"', 'based_on = "nowhere"')
    with pytest.raises(RulesetError, match=r"mini-variant/ruleset\.toml: based_on: no ruleset"):
        load_ruleset_from_path(sibling)


# --- house rules ----------------------------------------------------------------


def test_house_rules_replace_numbers() -> None:
    base = load_ruleset("bb2025")
    merged = merge_house_rules(
        base,
        {
            "costs": {"chosen_primary": [5, 7, 11, 15, 19, 29]},
            "value_increase": {"chosen_primary": 15000, "elite_surcharge": 0},
            "spp_awards": {"cas": 3},
            "starting_treasury": 1_100_000,
        },
    )
    assert merged is not base
    assert advancement_cost(merged, "chosen_primary", 1) == 5
    assert advancement_cost(merged, "chosen_secondary", 1) == 10  # untouched
    assert merged.value_increase.chosen_primary == 15000
    assert merged.value_increase.elite_surcharge == 0
    assert spp_for_events(merged, {"cas": 1}) == 3
    assert merged.team_building.starting_treasury == 1_100_000
    # the cached ruleset is unchanged
    assert advancement_cost(base, "chosen_primary", 1) == 6
    assert spp_for_events(base, {"cas": 1}) == 2
    assert load_ruleset("bb2025").team_building.starting_treasury == 1_000_000


def test_house_rules_may_add_a_priced_kind() -> None:
    merged = merge_house_rules(
        load_ruleset("bb2025"),
        {
            "costs": {"random_secondary": [6, 8, 12, 16, 20, 30]},
            "value_increase": {"random_secondary": 30000},
        },
    )
    assert advancement_cost(merged, "random_secondary", 2) == 8


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_house_rules(overrides: dict[str, object] | None) -> None:
    base = load_ruleset("bb2020")
    assert merge_house_rules(base, overrides) is base


BAD_HOUSE_RULES = [
    pytest.param({"dice": 3}, "", "dice: unknown key", id="unknown-key"),
    pytest.param({"costs": {"chosen_primary": [1, 2, 3]}}, "bb2025",
                 "costs.chosen_primary: expected 6 costs", id="wrong-length"),
    pytest.param({"costs": {"chosen_primary": [6, 8, -1, 16, 20, 30]}}, "bb2025",
                 "costs.chosen_primary[2]: must not be negative", id="negative-cost"),
    pytest.param({"costs": {"extra_skill": [1, 2, 3, 4, 5, 6]}}, "bb2025",
                 "costs.extra_skill: unknown key", id="unknown-kind"),
    pytest.param({"costs": {"random_secondary": [6, 8, 12, 16, 20, 30]}}, "bb2025",
                 "value_increase.random_secondary: random_secondary has a cost but no value",
                 id="kind-without-value"),
    pytest.param({"costs": {"chosen_primary": [6, 8, 12, 16, 20, 30]}}, "classic",
                 "costs: ruleset 'classic' does not spend SPP", id="costs-in-roll-mode"),
    pytest.param({"value_increase": {"st": -5}}, "bb2025",
                 "value_increase.st: must be at least 0", id="negative-value"),
    pytest.param({"value_increase": {"strength": 5}}, "bb2025",
                 "value_increase.strength: unknown key", id="unknown-value-key"),
    pytest.param({"spp_awards": {"td": -3}}, "bb2025",
                 "spp_awards.td: must be at least 0", id="negative-spp"),
    pytest.param({"spp_awards": {"td": 2.5}}, "bb2025",
                 "spp_awards.td: expected a whole number", id="fractional-spp"),
    pytest.param({"spp_awards": {"goals": 1}}, "bb2025",
                 "spp_awards.goals: unknown key", id="unknown-event"),
    pytest.param({"starting_treasury": -1}, "bb2025",
                 "starting_treasury: must be at least 0", id="negative-treasury"),
    pytest.param({"starting_treasury": True}, "bb2025",
                 "starting_treasury: expected a whole number", id="bool-treasury"),
    pytest.param({"costs": [1, 2]}, "bb2025", "costs: expected a table", id="costs-not-a-table"),
    pytest.param({"tournament": {"points": [3, 1]}}, "bb2025",
                 "tournament.points: expected 3 numbers: win, draw, loss", id="points-not-three"),
    pytest.param({"tournament": {"points": [1, 3, 0]}}, "bb2025",
                 "tournament.points: a win is worth at least a draw", id="draw-above-win"),
    pytest.param({"tournament": {"points": [101, 1, 0]}}, "bb2025",
                 "tournament.points: must be at most 100", id="points-too-many"),
    pytest.param({"tournament": {"bonus": [{"kind": "fouls", "threshold": 1, "points": 1}]}},
                 "bb2025", "tournament.bonus[0].kind: must be one of touchdowns, casualties, "
                 "close_loss", id="bonus-kind-unknown"),
    pytest.param({"tournament": {"bonus": [{"kind": "touchdowns", "threshold": 0, "points": 1}]}},
                 "bb2025", "tournament.bonus[0].threshold: must be at least 1",
                 id="bonus-threshold-zero"),
    pytest.param({"tournament": {"bonus": [{"kind": "touchdowns", "threshold": 3}]}},
                 "bb2025", "tournament.bonus[0].points: missing", id="bonus-without-points"),
    pytest.param({"tournament": {"bonus": [{"kind": "casualties", "threshold": 1,
                                            "points": 1}] * 11}},
                 "bb2025", "tournament.bonus: at most 10 bonus rules", id="bonus-too-many"),
    pytest.param({"tournament": {"bye_result": "loss"}}, "bb2025",
                 "tournament.bye_result: must be one of win, draw", id="bye-result-unknown"),
    pytest.param({"tournament": {"bye_touchdowns": [1, 0, 0]}}, "bb2025",
                 "tournament.bye_touchdowns: expected 2 numbers: for, against",
                 id="bye-score-not-a-pair"),
    pytest.param({"tournament": {"seeding": "swiss"}}, "bb2025",
                 "tournament.seeding: unknown key", id="tournament-unknown-key"),
]  # fmt: skip


def test_house_rule_tournament_overrides_only_what_it_names() -> None:
    # BB2025 data: a bye is a 1-0 win, no tournament points of its own, no bonus.
    base = load_ruleset("bb2025")
    assert base.season.tournament == Tournament()
    merged = merge_house_rules(
        base,
        {
            "redraft_cap": 0,
            "tournament": {
                "points": [3, 1, 0],
                "bonus": [{"kind": "close_loss", "threshold": 1, "points": 1}],
                "bye_touchdowns": [2, 0],
            },
        },
    )
    # The bye keeps its result from the data, takes the house score; the re-draft
    # cap set in the same house rules is not lost.
    assert merged.season.tournament == Tournament(
        bye_result="win",
        bye_touchdowns=(2, 0),
        points=(3, 1, 0),
        bonus=(BonusRule("close_loss", 1, 1),),
    )
    assert merged.season.redraft is not None
    assert merged.season.redraft.cap is None


@pytest.mark.parametrize(("overrides", "ruleset_id", "message"), BAD_HOUSE_RULES)
def test_bad_house_rules(overrides: dict[str, object], ruleset_id: str, message: str) -> None:
    ruleset = load_ruleset(ruleset_id or "bb2025")
    with pytest.raises(RulesetError) as caught:
        merge_house_rules(ruleset, overrides)
    assert caught.value.file == "house rules"
    assert message in str(caught.value)


# --- random-skill procedures and the tables they need ------------------------------

# (procedure, keep the 2D6 table of category G, add an empty learnable category Z,
#  words in the error or None when the ruleset loads)
PROCEDURES = [
    pytest.param("roll_twice_pick_one", True, False, None, id="2d6-twice-with-table"),
    pytest.param("roll_once", True, False, None, id="2d6-once-with-table"),
    pytest.param("roll_list", False, False, None, id="list-without-table"),
    pytest.param("roll_once", False, False, "category 'G' has no random table",
                 id="2d6-once-without-table"),
    pytest.param("roll_twice_pick_one", False, False, "category 'G' has no random table",
                 id="2d6-twice-without-table"),
    pytest.param("roll_list", True, False, "category 'G' has a 2D6 random table",
                 id="list-with-table"),
    pytest.param("roll_list", False, True, "category 'Z' has no skills to roll",
                 id="list-empty-category"),
    pytest.param("none", True, False, "random skill kinds are priced", id="none-but-priced"),
    pytest.param("roll_d6", True, False, "must be one of", id="unknown-procedure"),
]  # fmt: skip


@pytest.mark.parametrize(("procedure", "table", "empty", "message"), PROCEDURES)
def test_random_skill_procedure_and_tables(
    mini_ruleset_dir: Path,
    edit_file: Edit,
    procedure: str,
    table: bool,
    empty: bool,
    message: str | None,
) -> None:
    edit_file(
        mini_ruleset_dir / "ruleset.toml",
        'random_skill = "roll_twice_pick_one"',
        f'random_skill = "{procedure}"',
    )
    skills = mini_ruleset_dir / "skills.toml"
    if not table:
        lines = skills.read_text(encoding="utf-8").splitlines()
        skills.write_text("\n".join(x for x in lines if not x.startswith("table = ")), "utf-8")
    if empty:
        edit_file(skills, "[[skill]]", '[[category]]\ncode = "Z"\nname = "Empty"\n\n[[skill]]')
    if message is None:
        ruleset = load_ruleset_from_path(mini_ruleset_dir)
        assert ruleset.advancement.random_skill == procedure
        return
    with pytest.raises(RulesetError) as caught:
        load_ruleset_from_path(mini_ruleset_dir)
    assert caught.value.file == "mini/ruleset.toml"
    assert caught.value.key == "advancement.random_skill"
    assert message in str(caught.value)


def test_roll_list_follows_the_skills_toml_order(mini_ruleset_dir: Path, edit_file: Edit) -> None:
    edit_file(
        mini_ruleset_dir / "ruleset.toml",
        'random_skill = "roll_twice_pick_one"',
        'random_skill = "roll_list"',
    )
    skills = mini_ruleset_dir / "skills.toml"
    lines = skills.read_text(encoding="utf-8").splitlines()
    skills.write_text("\n".join(x for x in lines if not x.startswith("table = ")), "utf-8")
    ruleset = load_ruleset_from_path(mini_ruleset_dir)
    # The mini skills.toml lists Frenzy last among the 12 General skills.
    rolled = [random_skill_from_dice(ruleset, "G", n).name for n in range(1, 13)]
    assert rolled[:3] == ["Block", "Dauntless", "Fend"]
    assert rolled[-1] == "Frenzy"
    lineman = ruleset.team_type("humans").position("lineman")
    result = random_skill_result(ruleset, lineman, [], "random_primary", "G", [12])
    assert result.skill is not None
    assert result.skill.name == "Frenzy"
