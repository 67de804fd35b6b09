"""Read rulesets from TOML, validate them, and cache the result.

A ruleset is a folder ``data/<id>/`` holding ``ruleset.toml``, ``skills.toml``,
``rosters/*.toml`` and, for the pre-game, ``match_day.toml`` and
``star_players.toml`` (see ``data/FORMAT.md``). Every problem found raises
:class:`RulesetError` naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from league.rules.match_day import is_journeyman_position, rule_matches
from league.rules.model import (
    ADVANCEMENT_KINDS,
    BONUS_KINDS,
    BYE_RESULTS,
    CASUALTY_EFFECTS,
    CHARACTERISTICS,
    PLAIN_SEASON,
    PLAYOFF_DRAWS,
    PLAYOFF_SEEDINGS,
    SKILL_KINDS,
    SPP_EVENTS,
    AdvancementRules,
    BonusRule,
    CasualtyResult,
    CasualtyTable,
    CharacteristicBand,
    CharacteristicLimits,
    CharacteristicTable,
    CostTable,
    DedicatedFans,
    Dice,
    ExpensiveMistakes,
    ImprovementRoll,
    Inducement,
    JourneymanHire,
    JourneymenRules,
    LastingInjury,
    LowCostLinemen,
    MatchDay,
    MatchedPlay,
    MercenaryRules,
    PettyCashRules,
    Playoffs,
    Position,
    Prizes,
    Redraft,
    ReducedPrice,
    Ruleset,
    RulesetError,
    RulesTranslation,
    SeasonRules,
    Skill,
    SkillCategory,
    SkillRef,
    SppAwards,
    SppVariant,
    StaffRule,
    StarPair,
    StarPlayer,
    StarPlayerRules,
    TeamBuilding,
    TeamType,
    TextEntry,
    Tournament,
    ValueIncreaseTable,
    Winnings,
    frozen_mapping,
    parse_skill_ref,
)

__all__ = [
    "DATA_DIR",
    "DEFAULT_RULESET_ID",
    "RulesetError",
    "load_ruleset",
    "load_ruleset_from_path",
    "merge_house_rules",
    "ruleset_ids",
    "validate_ruleset",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_RULESET_ID = "bb2025"

RANDOM_SKILL_PROCEDURES = ("none", "roll_once", "roll_twice_pick_one", "roll_list")
#: Procedures that roll 2D6 on a 12-row category table.
TABLE_PROCEDURES = ("roll_once", "roll_twice_pick_one")
MUST_SPEND_RULES = ("none", "characteristic_cost")
CASUALTY_CODES = ("badly_hurt", "seriously_hurt", "serious_injury", "lasting_injury", "dead")
EXPENSIVE_MISTAKE_OUTCOMES = ("crisis_averted", "minor", "major", "catastrophe")
DICE = {"d6": tuple(range(1, 7)), "d8": tuple(range(1, 9)), "d16": tuple(range(1, 17))}
DICE["d68"] = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 9))
DICE["2d6"] = tuple(range(2, 13))

# ---------------------------------------------------------------------------
# Public entry points


@functools.cache
def ruleset_ids() -> tuple[str, ...]:
    """Ids of the shipped rulesets (folders with a ``ruleset.toml``), sorted."""
    return tuple(sorted(p.name for p in DATA_DIR.iterdir() if (p / "ruleset.toml").is_file()))


@functools.cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    """The shipped ruleset ``ruleset_id``, loaded and validated once."""
    if ruleset_id not in ruleset_ids():
        raise RulesetError(
            f"{ruleset_id}/ruleset.toml", "", f"no such ruleset (known: {', '.join(ruleset_ids())})"
        )
    return _load(DATA_DIR, ruleset_id)


def load_ruleset_from_path(path: str | Path) -> Ruleset:
    """Load (uncached) the ruleset in folder ``path``; ``based_on`` looks in its parent."""
    folder = Path(path)
    if not (folder / "ruleset.toml").is_file():
        raise RulesetError(f"{folder.name}/ruleset.toml", "", "file not found")
    return _load(folder.parent, folder.name)


# ---------------------------------------------------------------------------
# Reading helpers


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Table:
    """A TOML table plus where it came from, with typed accessors."""

    def __init__(self, file: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.file = file
        self.data = data
        self.prefix = prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str, message: str) -> RulesetError:
        return RulesetError(self.file, self.key(name) if name else self.prefix, message)

    def only(self, *allowed: str) -> None:
        for name in self.data:
            if name not in allowed:
                raise self.error(name, f"unknown key (allowed: {', '.join(allowed)})")

    def has(self, name: str) -> bool:
        return name in self.data

    def _get(self, name: str, check: Callable[[Any], bool], what: str, default: Any) -> Any:
        if name not in self.data:
            if default is _REQUIRED:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        if not check(value):
            raise self.error(name, f"expected {what}, got {value!r}")
        return value

    def text(self, name: str, default: Any = None) -> Any:
        return self._get(name, lambda v: isinstance(v, str) and v != "", "a text", default)

    def flag(self, name: str, default: Any = None) -> Any:
        return self._get(name, lambda v: isinstance(v, bool), "true or false", default)

    def integer(self, name: str, default: Any = None, minimum: int | None = 0) -> Any:
        value = self._get(name, _is_int, "a whole number", default)
        if _is_int(value) and minimum is not None and value < minimum:
            raise self.error(name, f"must be at least {minimum}, got {value}")
        return value

    def texts(self, name: str, default: Any = None) -> Any:
        value = self._get(
            name,
            lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
            "a list of texts",
            default,
        )
        return tuple(value) if isinstance(value, list) else value

    def integers(self, name: str, default: Any = None) -> Any:
        value = self._get(
            name,
            lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
            "a list of whole numbers",
            default,
        )
        if isinstance(value, list):
            for i, number in enumerate(value):
                if number < 0:
                    raise self.error(f"{name}[{i}]", f"must not be negative, got {number}")
            return tuple(value)
        return value

    def table(self, name: str) -> _Table:
        found = self.maybe_table(name)
        if found is None:
            raise self.error(name, "missing table")
        return found

    def maybe_table(self, name: str) -> _Table | None:
        if name not in self.data:
            return None
        value = self.data[name]
        if not isinstance(value, dict):
            raise self.error(name, "expected a table")
        return _Table(self.file, value, self.key(name))

    def subs(self, name: str, required: bool = True) -> list[_Table]:
        if name not in self.data:
            if required:
                raise self.error(name, "missing list of tables")
            return []
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error(name, "expected a list of tables")
        return [_Table(self.file, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value)]


_REQUIRED: Any = object()


def _read_toml(root: Path, relative: str) -> _Table:
    path = root / relative
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise RulesetError(relative, "", "file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(relative, "", f"invalid TOML: {exc}") from None
    return _Table(relative, data)


def _check_bands(table: _Table, name: str, bands: Iterable[tuple[int, int]], die: str) -> None:
    """Bands must cover every result of ``die`` exactly once."""
    covered: dict[int, int] = {}
    for index, (low, high) in enumerate(bands):
        if low > high:
            raise table.error(f"{name}[{index}]", f"min {low} is above max {high}")
        for roll in DICE[die]:
            if low <= roll <= high:
                if roll in covered:
                    raise table.error(
                        f"{name}[{index}]",
                        f"roll {roll} already covered by {name}[{covered[roll]}]",
                    )
                covered[roll] = index
        if not any(low <= roll <= high for roll in DICE[die]):
            raise table.error(f"{name}[{index}]", f"covers no {die} result")
    missing = [roll for roll in DICE[die] if roll not in covered]
    if missing:
        raise table.error(name, f"{die} results not covered: {missing}")


def _choice(table: _Table, name: str, options: Iterable[str], default: Any = _REQUIRED) -> Any:
    options = tuple(options)
    value = table.text(name, default)
    if value is not None and value not in options:
        raise table.error(name, f"must be one of {', '.join(options)}, got {value!r}")
    return value


# ---------------------------------------------------------------------------
# ruleset.toml


def _read_ruleset_numbers(doc: _Table, ruleset_id: str) -> dict[str, Any]:
    doc.only(
        "id",
        "name",
        "edition",
        "stat_style",
        "based_on",
        "advancement",
        "characteristic_table",
        "improvement_roll",
        "characteristic_limits",
        "value_increase",
        "spp",
        "casualty",
        "lasting_injury",
        "team_building",
        "winnings",
        "expensive_mistakes",
        "season",
        "matched_play",
    )
    file_id = doc.text("id", _REQUIRED)
    if file_id != ruleset_id:
        raise doc.error("id", f"{file_id!r} does not match the folder name {ruleset_id!r}")
    out: dict[str, Any] = {
        "id": file_id,
        "name": doc.text("name", _REQUIRED),
        "edition": doc.text("edition", _REQUIRED),
        "stat_style": _choice(doc, "stat_style", ("target", "value")),
        "based_on": doc.text("based_on"),
    }
    limits = _read_limits(doc, out["stat_style"])
    characteristics = tuple(c for c in CHARACTERISTICS if c in limits.best)
    out["limits"] = limits
    out["advancement"] = _read_advancement(doc)
    out["characteristic_table"] = _read_characteristic_table(doc, characteristics)
    out["improvement_roll"] = _read_improvement_roll(doc, characteristics)
    out["value_increase"] = _read_value_increase(doc)
    out["spp"] = _read_spp(doc)
    casualty, lasting = _read_casualties(doc, characteristics)
    out["casualty_table"] = casualty
    out["lasting_injuries"] = lasting
    out["team_building"] = _read_team_building(doc)
    out["winnings"] = _read_winnings(doc)
    out["expensive_mistakes"] = _read_expensive_mistakes(doc)
    out["season"] = _read_season(doc)
    out["matched_play"] = _read_matched_play(doc)
    return out


def _read_advancement(doc: _Table) -> AdvancementRules:
    adv = doc.table("advancement")
    adv.only(
        "mode", "max_advancements", "levels", "costs", "thresholds", "must_spend", "random_skill"
    )
    mode = _choice(adv, "mode", ("spend", "roll"))
    max_adv = adv.integer("max_advancements", _REQUIRED, minimum=1)
    levels = adv.texts("levels", _REQUIRED)
    if len(levels) != max_adv + 1:
        raise adv.error(
            "levels",
            f"expected {max_adv + 1} names (Rookie + one per advancement), got {len(levels)}",
        )
    costs: dict[str, tuple[int, ...]] = {}
    thresholds: tuple[int, ...] = ()
    cost_table = adv.maybe_table("costs")
    if mode == "spend":
        if cost_table is None:
            raise adv.error("costs", "missing table (mode = 'spend')")
        cost_table.only(*ADVANCEMENT_KINDS)
        for kind in ADVANCEMENT_KINDS:
            if cost_table.has(kind):
                costs[kind] = _cost_row(cost_table, kind, max_adv)
        if "random_characteristic" not in costs:
            raise cost_table.error("random_characteristic", "missing")
        if adv.has("thresholds"):
            raise adv.error("thresholds", "only for mode = 'roll'")
    else:
        if cost_table is not None:
            raise adv.error("costs", "only for mode = 'spend'")
        thresholds = adv.integers("thresholds", _REQUIRED)
        if len(thresholds) != max_adv:
            raise adv.error("thresholds", f"expected {max_adv} numbers, got {len(thresholds)}")
        if any(b <= a for a, b in itertools.pairwise(thresholds)):
            raise adv.error("thresholds", "must be strictly increasing")
    random_skill = _choice(adv, "random_skill", RANDOM_SKILL_PROCEDURES, "none")
    has_random_kind = any(k in costs for k in ("random_primary", "random_secondary"))
    if has_random_kind and random_skill == "none":
        raise adv.error("random_skill", "random skill kinds are priced but random_skill = 'none'")
    return AdvancementRules(
        mode=mode,
        max_advancements=max_adv,
        levels=levels,
        cost_table=CostTable(frozen_mapping(costs)),
        thresholds=thresholds,
        must_spend=_choice(adv, "must_spend", MUST_SPEND_RULES, "none"),
        random_skill=random_skill,
    )


def _cost_row(table: _Table, kind: str, max_adv: int) -> tuple[int, ...]:
    row: tuple[int, ...] = table.integers(kind, _REQUIRED)
    if len(row) != max_adv:
        raise table.error(kind, f"expected {max_adv} costs (one per advancement), got {len(row)}")
    return row


def _read_bands(
    table: _Table, characteristics: tuple[str, ...], die: str
) -> tuple[CharacteristicBand, ...]:
    bands = []
    for band in table.subs("bands"):
        band.only("min", "max", "characteristics")
        chars = band.texts("characteristics", _REQUIRED)
        for i, char in enumerate(chars):
            if char not in characteristics:
                raise band.error(
                    f"characteristics[{i}]",
                    f"unknown characteristic {char!r} "
                    f"(this ruleset has {', '.join(characteristics)})",
                )
        bands.append(
            CharacteristicBand(
                band.integer("min", _REQUIRED), band.integer("max", _REQUIRED), chars
            )
        )
    _check_bands(table, "bands", ((b.min, b.max) for b in bands), die)
    return tuple(bands)


def _read_characteristic_table(
    doc: _Table, characteristics: tuple[str, ...]
) -> CharacteristicTable | None:
    table = doc.maybe_table("characteristic_table")
    if table is None:
        return None
    table.only("die", "bands", "fallback")
    die = _choice(table, "die", ("d8", "d16"))
    fallback = table.texts("fallback", ())
    for i, kind in enumerate(fallback):
        if kind not in SKILL_KINDS:
            raise table.error(f"fallback[{i}]", f"unknown skill kind {kind!r}")
    return CharacteristicTable(int(die[1:]), _read_bands(table, characteristics, die), fallback)


def _read_improvement_roll(doc: _Table, characteristics: tuple[str, ...]) -> ImprovementRoll | None:
    table = doc.maybe_table("improvement_roll")
    if table is None:
        return None
    table.only("bands", "skill_kind", "doubles_kind")
    skill_kind = _choice(table, "skill_kind", SKILL_KINDS)
    doubles_kind = _choice(table, "doubles_kind", SKILL_KINDS, None)
    return ImprovementRoll(_read_bands(table, characteristics, "2d6"), skill_kind, doubles_kind)


def _read_limits(doc: _Table, stat_style: str) -> CharacteristicLimits:
    table = doc.table("characteristic_limits")
    table.only(
        "best",
        "worst",
        "max_improvements",
        "max_increase_from_start",
        "max_decrease_from_start",
        "pa_from_none",
    )
    best_table = table.table("best")
    worst_table = table.table("worst")
    best_table.only(*CHARACTERISTICS)
    worst_table.only(*CHARACTERISTICS)
    best = {c: best_table.integer(c, minimum=0) for c in CHARACTERISTICS if best_table.has(c)}
    worst = {c: worst_table.integer(c, minimum=0) for c in CHARACTERISTICS if worst_table.has(c)}
    if set(best) != set(worst):
        raise table.error("worst", "must name the same characteristics as best")
    for required in ("ma", "st", "ag", "av"):
        if required not in best:
            raise best_table.error(required, "missing")
    if stat_style == "target" and "pa" not in best:
        raise best_table.error("pa", "missing (target-style rulesets have PA)")
    return CharacteristicLimits(
        best=frozen_mapping(best),
        worst=frozen_mapping(worst),
        max_improvements=table.integer("max_improvements", minimum=1),
        max_increase_from_start=table.integer("max_increase_from_start", minimum=1),
        max_decrease_from_start=table.integer("max_decrease_from_start", minimum=1),
        pa_from_none=table.integer("pa_from_none", minimum=1),
    )


def _read_value_increase(doc: _Table) -> ValueIncreaseTable:
    table = doc.table("value_increase")
    table.only(*ValueIncreaseTable.KEYS, "elite_surcharge")
    values = {key: table.integer(key) for key in ValueIncreaseTable.KEYS}
    return ValueIncreaseTable(**values, elite_surcharge=table.integer("elite_surcharge", 0))


#: Per-match SPP rules read from [spp] beside the awards.
SPP_MATCH_RULES = (
    "mvps_per_team",
    "extra_mvps_on_concession",
    "concession_forfeits_spp",
    "mvp_nominees",
    "concession_departure_advancements",
    "concession_departure_on",
)


def _read_spp(doc: _Table) -> SppAwards:
    table = doc.table("spp")
    table.only(*SPP_EVENTS, *SPP_MATCH_RULES, "variant")
    awards = {event: table.integer(event, _REQUIRED) for event in SPP_EVENTS}
    variants = []
    for variant in table.subs("variant", required=False):
        variant.only("special_rule", *SPP_EVENTS)
        changed = {event: variant.integer(event) for event in SPP_EVENTS if variant.has(event)}
        if not changed:
            raise variant.error("", "changes no award")
        variants.append(
            SppVariant(variant.text("special_rule", _REQUIRED), frozen_mapping(changed))
        )
    return SppAwards(
        frozen_mapping(awards),
        tuple(variants),
        mvps_per_team=table.integer("mvps_per_team", _REQUIRED),
        extra_mvps_on_concession=table.integer("extra_mvps_on_concession", _REQUIRED),
        concession_forfeits_spp=table.flag("concession_forfeits_spp", _REQUIRED),
        mvp_nominees=table.integer("mvp_nominees", 0),
        concession_departure_advancements=table.integer("concession_departure_advancements", 0),
        concession_departure_on=table.integer("concession_departure_on", 0),
    )


def _read_casualties(
    doc: _Table, characteristics: tuple[str, ...]
) -> tuple[CasualtyTable, tuple[LastingInjury, ...]]:
    table = doc.table("casualty")
    table.only("die", "niggling_modifier", "results")
    die = _choice(table, "die", ("d16", "d68"))
    results = []
    for row in table.subs("results"):
        row.only("min", "max", "name", "code", "effect", "characteristic")
        effect = _choice(row, "effect", CASUALTY_EFFECTS)
        characteristic = _choice(row, "characteristic", characteristics, None)
        if characteristic is not None and effect != "lasting":
            raise row.error("characteristic", "only for effect = 'lasting'")
        results.append(
            CasualtyResult(
                min=row.integer("min", _REQUIRED),
                max=row.integer("max", _REQUIRED),
                name=row.text("name", _REQUIRED),
                code=_choice(row, "code", CASUALTY_CODES),
                effect=effect,
                characteristic=characteristic,
            )
        )
    _check_bands(table, "results", ((r.min, r.max) for r in results), die)
    casualty = CasualtyTable(die, tuple(results), table.integer("niggling_modifier", 0))

    lasting: list[LastingInjury] = []
    lasting_table = doc.maybe_table("lasting_injury")
    if lasting_table is not None:
        lasting_table.only("results")
        for row in lasting_table.subs("results"):
            row.only("min", "max", "name", "characteristic")
            lasting.append(
                LastingInjury(
                    row.integer("min", _REQUIRED),
                    row.integer("max", _REQUIRED),
                    row.text("name", _REQUIRED),
                    _choice(row, "characteristic", characteristics),
                )
            )
        _check_bands(lasting_table, "results", ((r.min, r.max) for r in lasting), "d6")
    needs_d6 = [r for r in results if r.effect == "lasting" and r.characteristic is None]
    if needs_d6 and not lasting:
        raise doc.error("lasting_injury", "missing (a casualty result rolls on it)")
    return casualty, tuple(lasting)


def _staff(table: _Table, name: str) -> StaffRule:
    staff = table.table(name)
    staff.only("cost", "max")
    return StaffRule(staff.integer("cost", _REQUIRED), staff.integer("max"))


def _read_team_building(doc: _Table) -> TeamBuilding:
    table = doc.table("team_building")
    table.only(
        "starting_treasury",
        "min_players",
        "max_players",
        "apothecary_cost",
        "rerolls",
        "assistant_coaches",
        "cheerleaders",
        "dedicated_fans",
        "low_cost_linemen",
    )
    rerolls = table.table("rerolls")
    rerolls.only("max", "after_draft_multiplier")
    fans = table.table("dedicated_fans")
    fans.only("start", "cost", "max_at_draft", "max", "counts_in_team_value", "concession_loss")
    low_cost = table.maybe_table("low_cost_linemen")
    low_cost_rule = None
    if low_cost is not None:
        low_cost.only("special_rule", "keyword")
        low_cost_rule = LowCostLinemen(
            low_cost.text("special_rule", _REQUIRED), low_cost.text("keyword", _REQUIRED)
        )
    min_players = table.integer("min_players", _REQUIRED)
    max_players = table.integer("max_players", _REQUIRED, minimum=1)
    if min_players > max_players:
        raise table.error("min_players", f"{min_players} is above max_players {max_players}")
    return TeamBuilding(
        starting_treasury=table.integer("starting_treasury", _REQUIRED),
        min_players=min_players,
        max_players=max_players,
        max_rerolls=rerolls.integer("max", _REQUIRED),
        reroll_after_draft_multiplier=rerolls.integer(
            "after_draft_multiplier", _REQUIRED, minimum=1
        ),
        assistant_coaches=_staff(table, "assistant_coaches"),
        cheerleaders=_staff(table, "cheerleaders"),
        apothecary_cost=table.integer("apothecary_cost", _REQUIRED),
        dedicated_fans=DedicatedFans(
            start=fans.integer("start", _REQUIRED),
            cost=fans.integer("cost", _REQUIRED),
            max_at_draft=fans.integer("max_at_draft", _REQUIRED),
            max=fans.integer("max"),
            counts_in_team_value=fans.flag("counts_in_team_value", False),
            concession_loss=(
                _read_dice(fans, "concession_loss") if fans.has("concession_loss") else None
            ),
        ),
        low_cost_linemen=low_cost_rule,
    )


def _read_winnings(doc: _Table) -> Winnings | None:
    table = doc.maybe_table("winnings")
    if table is None:
        return None
    table.only(
        "formula",
        "unit",
        "fan_attendance_divisor",
        "per_touchdown",
        "no_stalling_bonus",
        "win_bonus",
        "concession_fan_attendance_divisor",
        "concession_no_stalling_bonus",
    )
    return Winnings(
        formula=_choice(table, "formula", ("fan_attendance", "d6_fame")),
        unit=table.integer("unit", _REQUIRED, minimum=1),
        fan_attendance_divisor=table.integer("fan_attendance_divisor", 2, minimum=1),
        per_touchdown=table.integer("per_touchdown", 1),
        no_stalling_bonus=table.integer("no_stalling_bonus", 0),
        win_bonus=table.integer("win_bonus", 0),
        concession_fan_attendance_divisor=table.integer(
            "concession_fan_attendance_divisor", None, minimum=1
        ),
        concession_no_stalling_bonus=table.integer("concession_no_stalling_bonus", 0),
    )


def _read_expensive_mistakes(doc: _Table) -> ExpensiveMistakes | None:
    table = doc.maybe_table("expensive_mistakes")
    if table is None:
        return None
    table.only(
        "min_treasury",
        "columns",
        "rows",
        "minor_dice",
        "minor_loss_per_pip",
        "major_divisor",
        "major_round_down_to",
        "catastrophe_dice",
        "catastrophe_kept_per_pip",
    )
    columns = table.integers("columns", _REQUIRED)
    if not columns or any(b <= a for a, b in itertools.pairwise(columns)):
        raise table.error("columns", "must be a non-empty, strictly increasing list")
    raw_rows = table.data.get("rows")
    if not isinstance(raw_rows, list) or len(raw_rows) != 6:
        raise table.error("rows", "expected 6 rows (D6 1-6)")
    rows = []
    for i, row in enumerate(raw_rows):
        if not isinstance(row, list) or len(row) != len(columns):
            raise table.error(f"rows[{i}]", f"expected {len(columns)} outcomes")
        for j, outcome in enumerate(row):
            if outcome not in EXPENSIVE_MISTAKE_OUTCOMES:
                raise table.error(
                    f"rows[{i}][{j}]",
                    f"must be one of {', '.join(EXPENSIVE_MISTAKE_OUTCOMES)}, got {outcome!r}",
                )
        rows.append(tuple(row))
    return ExpensiveMistakes(
        table.integer("min_treasury", _REQUIRED),
        columns,
        tuple(rows),
        minor_dice=_read_dice(table, "minor_dice"),
        minor_loss_per_pip=table.integer("minor_loss_per_pip", _REQUIRED),
        major_divisor=table.integer("major_divisor", _REQUIRED),
        major_round_down_to=table.integer("major_round_down_to", _REQUIRED),
        catastrophe_dice=_read_dice(table, "catastrophe_dice"),
        catastrophe_kept_per_pip=table.integer("catastrophe_kept_per_pip", _REQUIRED),
    )


def _read_season(doc: _Table) -> SeasonRules:
    table = doc.maybe_table("season")
    if table is None:
        return PLAIN_SEASON
    table.only("prizes", "redraft", "playoffs", "tournament")
    return SeasonRules(
        playoffs=_read_playoffs(table),
        prizes=_read_prizes(table),
        redraft=_read_redraft(table),
        tournament=_read_tournament(table),
    )


def _read_tournament(season: _Table) -> Tournament:
    table = season.maybe_table("tournament")
    if table is None:
        return PLAIN_SEASON.tournament
    return _tournament(table, PLAIN_SEASON.tournament)


#: Far beyond any tournament: points, thresholds and a bye's touchdowns stay small.
TOURNAMENT_MAX_NUMBER = 100
TOURNAMENT_MAX_BONUS_RULES = 10
TOURNAMENT_KEYS = ("bye_result", "bye_touchdowns", "points", "bonus")


def _tournament(table: _Table, base: Tournament) -> Tournament:
    """``[season.tournament]`` (or the league's house rule ``tournament``) over ``base``."""
    table.only(*TOURNAMENT_KEYS)

    def small(values: tuple[int, ...], name: str, count: int, what: str) -> tuple[int, ...]:
        if len(values) != count:
            raise table.error(name, f"expected {count} numbers: {what}")
        if max(values) > TOURNAMENT_MAX_NUMBER:
            raise table.error(name, f"must be at most {TOURNAMENT_MAX_NUMBER}")
        return values

    touchdowns = small(
        table.integers("bye_touchdowns", base.bye_touchdowns), "bye_touchdowns", 2, "for, against"
    )
    points = table.integers("points", base.points)
    if points is not None:
        points = small(points, "points", 3, "win, draw, loss")
        if not points[0] >= points[1] >= points[2]:
            raise table.error("points", "a win is worth at least a draw, a draw at least a loss")
    bonus = base.bonus
    if table.has("bonus"):
        rules = table.subs("bonus")
        if len(rules) > TOURNAMENT_MAX_BONUS_RULES:
            raise table.error("bonus", f"at most {TOURNAMENT_MAX_BONUS_RULES} bonus rules")
        bonus = tuple(_bonus_rule(rule) for rule in rules)
    return Tournament(
        bye_result=_choice(table, "bye_result", BYE_RESULTS, base.bye_result),
        bye_touchdowns=(touchdowns[0], touchdowns[1]),
        points=(points[0], points[1], points[2]) if points is not None else None,
        bonus=bonus,
    )


def _bonus_rule(table: _Table) -> BonusRule:
    table.only("kind", "threshold", "points")
    numbers = {name: table.integer(name, _REQUIRED, minimum=1) for name in ("threshold", "points")}
    for name, number in numbers.items():
        if number > TOURNAMENT_MAX_NUMBER:
            raise table.error(name, f"must be at most {TOURNAMENT_MAX_NUMBER}")
    return BonusRule(_choice(table, "kind", BONUS_KINDS), **numbers)


def _read_playoffs(season: _Table) -> Playoffs:
    table = season.maybe_table("playoffs")
    if table is None:
        return PLAIN_SEASON.playoffs
    table.only("seeding", "no_same_division_first_round", "draw", "third_place_match")
    return Playoffs(
        seeding=_choice(table, "seeding", PLAYOFF_SEEDINGS),
        no_same_division_first_round=table.flag("no_same_division_first_round", False),
        draw=_choice(table, "draw", PLAYOFF_DRAWS),
        third_place_match=table.flag("third_place_match", True),
    )


def _read_prizes(season: _Table) -> Prizes | None:
    table = season.maybe_table("prizes")
    if table is None:
        return None
    table.only("gold", "after_expensive_mistakes", "trophy_reroll")
    gold = table.integers("gold", _REQUIRED)
    if any(lower > higher for higher, lower in itertools.pairwise(gold)):
        raise table.error("gold", "a lower place may not win more than a higher one")
    return Prizes(
        gold=gold,
        after_expensive_mistakes=table.flag("after_expensive_mistakes", _REQUIRED),
        trophy_reroll=table.flag("trophy_reroll", False),
    )


def _read_redraft(season: _Table) -> Redraft | None:
    table = season.maybe_table("redraft")
    if table is None:
        return None
    table.only(
        "base",
        "per_fixture",
        "per_win",
        "per_draw",
        "cap",
        "agent_fee_per_season",
        "friendlies_count",
        "niggling_heals_on",
        "niggling_apothecary_bonus",
    )
    redraft = Redraft(
        base=table.integer("base", _REQUIRED),
        per_fixture=table.integer("per_fixture", _REQUIRED),
        per_win=table.integer("per_win", _REQUIRED),
        per_draw=table.integer("per_draw", _REQUIRED),
        cap=table.integer("cap", None),
        agent_fee_per_season=table.integer("agent_fee_per_season", _REQUIRED),
        friendlies_count=table.flag("friendlies_count", _REQUIRED),
        niggling_heals_on=table.integer("niggling_heals_on", None, minimum=2),
        niggling_apothecary_bonus=table.integer("niggling_apothecary_bonus", 0),
    )
    if redraft.niggling_heals_on is not None and redraft.niggling_heals_on > 7:
        raise table.error("niggling_heals_on", "a D6 roll (plus a bonus) must be able to reach it")
    if redraft.cap is not None and redraft.cap < redraft.base:
        raise table.error("cap", "the cap may not be below the base budget")
    return redraft


def _read_dice(table: _Table, key: str) -> Dice:
    """`[count, sides]`: `[1, 3]` is a D3, `[2, 6]` is 2D6."""
    pair = table.integers(key, _REQUIRED)
    if len(pair) != 2 or min(pair) < 1:
        raise table.error(key, "expected [count, sides], both at least 1")
    return Dice(*pair)


# ---------------------------------------------------------------------------
# skills.toml


def _read_skills(doc: _Table) -> tuple[tuple[SkillCategory, ...], tuple[Skill, ...]]:
    doc.only("category", "skill")
    categories: list[SkillCategory] = []
    codes: set[str] = set()
    names: set[str] = set()
    for table in doc.subs("category"):
        table.only("code", "name", "table", "learnable")
        code = table.text("code", _REQUIRED)
        if len(code) != 1 or not code.isupper():
            raise table.error("code", f"expected one upper-case letter, got {code!r}")
        if code in codes:
            raise table.error("code", f"duplicate category code {code!r}")
        name = table.text("name", _REQUIRED)
        if name in names:
            raise table.error("name", f"duplicate category name {name!r}")
        codes.add(code)
        names.add(name)
        random_table = table.texts("table", ())
        if random_table and len(random_table) != 12:
            raise table.error("table", f"expected 12 skills (rows 1-12), got {len(random_table)}")
        categories.append(SkillCategory(code, name, random_table, table.flag("learnable", True)))
    learnable = {c.code: c.learnable for c in categories}

    skills: list[Skill] = []
    seen: set[str] = set()
    for table in doc.subs("skill"):
        table.only(
            "name",
            "category",
            "summary",
            "elite",
            "trait",
            "buyable",
            "excludes",
            "requires_any",
            "parameter",
        )
        name = table.text("name", _REQUIRED)
        if name in seen:
            raise table.error("name", f"duplicate skill {name!r}")
        seen.add(name)
        category = table.text("category", _REQUIRED)
        if category not in learnable:
            raise table.error("category", f"unknown category code {category!r} (skill {name!r})")
        trait = table.flag("trait", False)
        skills.append(
            Skill(
                name=name,
                category=category,
                summary=table.text("summary", ""),
                trait=trait,
                buyable=table.flag("buyable", not trait and learnable[category]),
                elite=table.flag("elite", False),
                excludes=table.texts("excludes", ()),
                requires_any=table.texts("requires_any", ()),
                parameter=table.text("parameter"),
            )
        )
    by_name = {s.name: s for s in skills}
    tables = doc.subs("skill")
    for table, skill in zip(tables, skills, strict=True):
        for field_name in ("excludes", "requires_any"):
            for i, other in enumerate(getattr(skill, field_name)):
                if other not in by_name:
                    raise table.error(
                        f"{field_name}[{i}]", f"unknown skill {other!r} (in skill {skill.name!r})"
                    )
                if other == skill.name:
                    raise table.error(f"{field_name}[{i}]", f"skill {skill.name!r} names itself")
    for table, category in zip(doc.subs("category"), categories, strict=True):
        for row, name in enumerate(category.table):
            if name not in by_name:
                raise table.error(f"table[{row}]", f"unknown skill {name!r}")
            if by_name[name].category != category.code:
                raise table.error(
                    f"table[{row}]",
                    f"skill {name!r} is in category {by_name[name].category!r}, "
                    f"not {category.code!r}",
                )
        if len(set(category.table)) != len(category.table):
            raise table.error("table", "a skill appears twice")
    return tuple(categories), tuple(skills)


# ---------------------------------------------------------------------------
# rosters/*.toml


def _read_roster(
    doc: _Table, file_id: str, skills: Mapping[str, Skill], codes: set[str], stat_style: str
) -> TeamType:
    doc.only(
        "id",
        "name",
        "reroll_cost",
        "apothecary",
        "tier",
        "special_rules",
        "max_big_guys",
        "position",
        "notes",
    )
    team_id = doc.text("id", _REQUIRED)
    if team_id != file_id:
        raise doc.error("id", f"{team_id!r} does not match the file name {file_id!r}.toml")
    positions: list[Position] = []
    position_ids: set[str] = set()
    position_names: set[str] = set()
    for table in doc.subs("position"):
        table.only(
            "id",
            "name",
            "keywords",
            "max",
            "cost",
            "ma",
            "st",
            "ag",
            "pa",
            "av",
            "skills",
            "primary",
            "secondary",
            "notes",
        )
        position_id = table.text("id", _REQUIRED)
        if position_id in position_ids:
            raise table.error("id", f"duplicate position id {position_id!r}")
        position_ids.add(position_id)
        name = table.text("name", _REQUIRED)
        if name in position_names:
            raise table.error("name", f"duplicate position name {name!r}")
        position_names.add(name)
        refs = []
        for i, text in enumerate(table.texts("skills", ())):
            ref = parse_skill_ref(text)
            if ref.name not in skills:
                raise table.error(
                    f"skills[{i}]", f"unknown skill {ref.name!r} (position {position_id!r})"
                )
            refs.append(ref)
        access: dict[str, tuple[str, ...]] = {}
        for field_name in ("primary", "secondary"):
            access[field_name] = table.texts(field_name, ())
            for i, code in enumerate(access[field_name]):
                if code not in codes:
                    raise table.error(
                        f"{field_name}[{i}]",
                        f"unknown category code {code!r} (position {position_id!r})",
                    )
        overlap = set(access["primary"]) & set(access["secondary"])
        if overlap:
            raise table.error("secondary", f"categories also primary: {sorted(overlap)}")
        pa = table.integer("pa")
        if stat_style == "value" and pa is not None:
            raise table.error("pa", "value-style rulesets have no PA")
        positions.append(
            Position(
                id=position_id,
                name=name,
                max=table.integer("max", _REQUIRED, minimum=1),
                cost=table.integer("cost", _REQUIRED),
                ma=table.integer("ma", _REQUIRED, minimum=1),
                st=table.integer("st", _REQUIRED, minimum=1),
                ag=table.integer("ag", _REQUIRED, minimum=1),
                pa=pa,
                av=table.integer("av", _REQUIRED, minimum=1),
                skills=tuple(refs),
                primary=access["primary"],
                secondary=access["secondary"],
                keywords=table.texts("keywords", ()),
                notes=table.text("notes", ""),
            )
        )
    if not positions:
        raise doc.error("position", "a team type needs at least one position")
    return TeamType(
        id=team_id,
        name=doc.text("name", _REQUIRED),
        reroll_cost=doc.integer("reroll_cost", _REQUIRED),
        apothecary=doc.flag("apothecary", _REQUIRED),
        positions=tuple(positions),
        tier=doc.integer("tier"),
        special_rules=doc.texts("special_rules", ()),
        max_big_guys=doc.integer("max_big_guys"),
        notes=doc.text("notes", ""),
    )


# ---------------------------------------------------------------------------
# match_day.toml and star_players.toml

SAME_STAR_RULES = ("both", "neither")
JOURNEYMAN_PRICES = ("current_value", "position_cost")
MERCENARY_SKILL_ACCESS = ("primary",)


def _match_day_source(root: Path, ruleset_id: str, based_on: str | None, name: str) -> str | None:
    """The folder whose ``name`` file this ruleset uses: its own, else ``based_on``'s."""
    for folder in (ruleset_id, based_on):
        if folder is not None and (root / folder / name).is_file():
            return folder
    return None


def _known_rule(pattern: str, team_types: tuple[TeamType, ...]) -> bool:
    return any(rule_matches(pattern, r) for t in team_types for r in t.special_rules)


def _skill_ref(table: _Table, name: str, skills: Mapping[str, Skill], value: str) -> SkillRef:
    ref = parse_skill_ref(value)
    if ref.name not in skills:
        raise table.error(name, f"unknown skill {ref.name!r}")
    return ref


def _read_match_day(
    root: Path,
    ruleset_id: str,
    numbers: Mapping[str, Any],
    skills: Mapping[str, Skill],
    team_types: tuple[TeamType, ...],
) -> MatchDay | None:
    based_on = numbers["based_on"]
    source = _match_day_source(root, ruleset_id, based_on, "match_day.toml")
    star_source = _match_day_source(root, ruleset_id, based_on, "star_players.toml")
    if source is None:
        if star_source is not None:
            raise RulesetError(
                f"{star_source}/star_players.toml", "", "star players need a match_day.toml"
            )
        return None
    doc = _read_toml(root, f"{source}/match_day.toml")
    doc.only("petty_cash", "journeymen", "mercenaries", "star_players", "inducement")
    team_ids = {t.id for t in team_types}
    journeymen = _read_journeymen(doc, skills, team_types)
    match_day = MatchDay(
        petty_cash=_read_petty_cash(doc),
        journeymen=journeymen,
        mercenaries=_read_mercenaries(doc, skills),
        star_rules=_read_star_rules(doc),
        inducements=_read_inducements(doc, team_ids, team_types),
    )
    if star_source is None:
        return match_day
    # Star skills are checked against the skills of the folder that holds the
    # file: a borrowed list keeps its own edition's skill names.
    star_skills = skills
    if star_source != ruleset_id:
        _, own = _read_skills(_read_toml(root, f"{star_source}/skills.toml"))
        star_skills = {s.name: s for s in own}
    stars, pairs = _read_stars(
        _read_toml(root, f"{star_source}/star_players.toml"),
        star_skills,
        team_ids,
        team_types,
        numbers["stat_style"],
    )
    hire_ids = {s.id for s in stars} | {p.id for p in pairs}
    for index, item in enumerate(match_day.inducements):
        for star_id in item.excludes_stars:
            if star_id not in hire_ids:
                raise RulesetError(
                    f"{source}/match_day.toml",
                    f"inducement[{index}].excludes_stars",
                    f"unknown star player {star_id!r}",
                )
    return dataclasses.replace(match_day, stars=stars, pairs=pairs)


def _read_petty_cash(doc: _Table) -> PettyCashRules:
    table = doc.table("petty_cash")
    table.only(
        "higher_spends_first",
        "higher_spend_adds_to_petty_cash",
        "lower_adds_treasury_max",
        "equal_ctv_treasury",
    )
    return PettyCashRules(
        higher_spends_first=table.flag("higher_spends_first", _REQUIRED),
        higher_spend_adds_to_petty_cash=table.flag("higher_spend_adds_to_petty_cash", _REQUIRED),
        lower_adds_treasury_max=table.integer("lower_adds_treasury_max"),
        equal_ctv_treasury=table.flag("equal_ctv_treasury", _REQUIRED),
    )


def _read_journeymen(
    doc: _Table, skills: Mapping[str, Skill], team_types: tuple[TeamType, ...]
) -> JourneymenRules:
    table = doc.table("journeymen")
    table.only("fill_to", "keyword", "position_max", "trait", "counts_in_ctv", "hire")
    position_max = table.integers("position_max", _REQUIRED)
    if not position_max:
        raise table.error("position_max", "name at least one position quantity")
    hire = table.table("hire")
    hire.only("price", "needs_room", "loses_trait", "keeps_spp")
    rules = JourneymenRules(
        fill_to=table.integer("fill_to", _REQUIRED, minimum=1),
        position_max=position_max,
        keyword=table.text("keyword"),
        trait=_skill_ref(table, "trait", skills, table.text("trait", _REQUIRED)),
        counts_in_ctv=table.flag("counts_in_ctv", _REQUIRED),
        hire=JourneymanHire(
            price=_choice(hire, "price", JOURNEYMAN_PRICES),
            needs_room=hire.flag("needs_room", _REQUIRED),
            loses_trait=hire.flag("loses_trait", _REQUIRED),
            keeps_spp=hire.flag("keeps_spp", _REQUIRED),
        ),
    )
    for team in team_types:
        if not any(is_journeyman_position(rules, p) for p in team.positions):
            raise table.error("position_max", f"team type {team.id!r} has no journeyman position")
    return rules


def _read_mercenaries(doc: _Table, skills: Mapping[str, Skill]) -> MercenaryRules:
    table = doc.table("mercenaries")
    table.only("extra_cost", "skill_cost", "max_skills", "skill_access", "trait", "max")
    return MercenaryRules(
        extra_cost=table.integer("extra_cost", _REQUIRED),
        skill_cost=table.integer("skill_cost", _REQUIRED),
        max_skills=table.integer("max_skills", _REQUIRED),
        skill_access=_choice(table, "skill_access", MERCENARY_SKILL_ACCESS),
        trait=_skill_ref(table, "trait", skills, table.text("trait", _REQUIRED)),
        max=table.integer("max", minimum=1),
    )


def _read_star_rules(doc: _Table) -> StarPlayerRules:
    table = doc.table("star_players")
    table.only("max", "same_star")
    return StarPlayerRules(
        max=table.integer("max", _REQUIRED, minimum=1),
        same_star=_choice(table, "same_star", SAME_STAR_RULES),
    )


def _check_rules_exist(
    table: _Table, name: str, patterns: tuple[str, ...], team_types: tuple[TeamType, ...]
) -> None:
    """A rule no team has is a typo (it would silently never match)."""
    for i, pattern in enumerate(patterns):
        if not _known_rule(pattern, team_types):
            raise table.error(f"{name}[{i}]", f"no team type has the special rule {pattern!r}")


def _check_team_ids(table: _Table, name: str, ids: tuple[str, ...], known: set[str]) -> None:
    for i, team_id in enumerate(ids):
        if team_id not in known:
            raise table.error(f"{name}[{i}]", f"unknown team type {team_id!r}")


def _read_tiers(table: _Table, team_types: tuple[TeamType, ...]) -> tuple[int, ...]:
    """An inducement's team tiers; a tier no team type has is a typo (it would match none)."""
    tiers: tuple[int, ...] = table.integers("tiers", ())
    known = {t.tier for t in team_types}
    for i, tier in enumerate(tiers):
        if tier not in known:
            raise table.error(f"tiers[{i}]", f"no team type is of tier {tier}")
    return tiers


def _read_inducements(
    doc: _Table, team_ids: set[str], team_types: tuple[TeamType, ...]
) -> tuple[Inducement, ...]:
    items: list[Inducement] = []
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for table in doc.subs("inducement"):
        table.only(
            "id",
            "name",
            "cost",
            "max",
            "summary",
            "special_rules",
            "team_types",
            "needs_apothecary",
            "tiers",
            "reduced",
            "notes",
            "excludes_stars",
        )
        item_id = table.text("id", _REQUIRED)
        name = table.text("name", _REQUIRED)
        if item_id in seen_ids:
            raise table.error("id", f"duplicate inducement id {item_id!r}")
        if name in seen_names:
            raise table.error("name", f"duplicate inducement name {name!r}")
        seen_ids.add(item_id)
        seen_names.add(name)
        special_rules = table.texts("special_rules", ())
        _check_rules_exist(table, "special_rules", special_rules, team_types)
        teams = table.texts("team_types", ())
        _check_team_ids(table, "team_types", teams, team_ids)
        reduced = []
        for sub in table.subs("reduced", required=False):
            sub.only("special_rule", "team_type", "cost", "max")
            rule, team = sub.text("special_rule"), sub.text("team_type")
            if (rule is None) == (team is None):
                raise sub.error("", "name exactly one of special_rule and team_type")
            if rule is not None:
                _check_rules_exist(sub, "special_rule", (rule,), team_types)
            if team is not None:
                _check_team_ids(sub, "team_type", (team,), team_ids)
            reduced.append(
                ReducedPrice(
                    cost=sub.integer("cost", _REQUIRED),
                    special_rule=rule,
                    team_type=team,
                    max=sub.integer("max", minimum=1),
                )
            )
        items.append(
            Inducement(
                id=item_id,
                name=name,
                cost=table.integer("cost", _REQUIRED),
                max=table.integer("max", _REQUIRED, minimum=1),
                summary=table.text("summary", ""),
                special_rules=special_rules,
                team_types=teams,
                needs_apothecary=table.flag("needs_apothecary", False),
                tiers=_read_tiers(table, team_types),
                reduced=tuple(reduced),
                notes=table.text("notes", ""),
                excludes_stars=table.texts("excludes_stars", ()),
            )
        )
    return tuple(items)


def _read_stars(
    doc: _Table,
    skills: Mapping[str, Skill],
    team_ids: set[str],
    team_types: tuple[TeamType, ...],
    stat_style: str,
) -> tuple[tuple[StarPlayer, ...], tuple[StarPair, ...]]:
    doc.only("star", "pair")
    pairs: dict[str, StarPair] = {}
    for table in doc.subs("pair", required=False):
        table.only("id", "name", "cost", "members")
        pair = StarPair(
            id=table.text("id", _REQUIRED),
            name=table.text("name", _REQUIRED),
            cost=table.integer("cost", _REQUIRED),
            members=table.texts("members", _REQUIRED),
        )
        if pair.id in pairs:
            raise table.error("id", f"duplicate pair id {pair.id!r}")
        if len(pair.members) != 2 or len(set(pair.members)) != 2:
            raise table.error("members", "a pair has two different members")
        pairs[pair.id] = pair
    stars: list[StarPlayer] = []
    names: set[str] = set()
    for table in doc.subs("star"):
        table.only(
            "id",
            "name",
            "cost",
            "ma",
            "st",
            "ag",
            "pa",
            "av",
            "skills",
            "special_rule",
            "plays_for",
            "plays_for_teams",
            "any_team",
            "plays_for_except",
            "mega_star",
            "pair",
        )
        star_id = table.text("id", _REQUIRED)
        if star_id in {s.id for s in stars} or star_id in pairs:
            raise table.error("id", f"duplicate star or pair id {star_id!r}")
        name = table.text("name", _REQUIRED)
        if name in names:
            raise table.error("name", f"duplicate star name {name!r}")
        names.add(name)
        pair_id = table.text("pair")
        if pair_id is None:
            cost = table.integer("cost", _REQUIRED)
        elif table.has("cost"):
            raise table.error("cost", "a pair member has no fee of its own (the pair's cost)")
        elif pair_id not in pairs or star_id not in pairs[pair_id].members:
            raise table.error("pair", f"no [[pair]] {pair_id!r} listing {star_id!r}")
        else:
            cost = pairs[pair_id].cost
        pa = table.integer("pa", minimum=1)
        if stat_style == "value" and pa is not None:
            raise table.error("pa", "value-style rulesets have no PA")
        plays_for = table.texts("plays_for", ())
        _check_rules_exist(table, "plays_for", plays_for, team_types)
        excepted = table.texts("plays_for_except", ())
        _check_rules_exist(table, "plays_for_except", excepted, team_types)
        teams = table.texts("plays_for_teams", ())
        _check_team_ids(table, "plays_for_teams", teams, team_ids)
        any_team = table.flag("any_team", False)
        if not (any_team or plays_for or teams):
            raise table.error("plays_for", "name the leagues, rules or teams he plays for")
        stars.append(
            StarPlayer(
                id=star_id,
                name=name,
                cost=cost,
                ma=table.integer("ma", _REQUIRED, minimum=1),
                st=table.integer("st", _REQUIRED, minimum=1),
                ag=table.integer("ag", _REQUIRED, minimum=1),
                pa=pa,
                av=table.integer("av", _REQUIRED, minimum=1),
                skills=tuple(
                    _skill_ref(table, f"skills[{i}]", skills, text)
                    for i, text in enumerate(table.texts("skills", ()))
                ),
                special_rule=table.text("special_rule", ""),
                plays_for=plays_for,
                plays_for_teams=teams,
                any_team=any_team,
                plays_for_except=excepted,
                mega_star=table.flag("mega_star", False),
                pair=pair_id,
            )
        )
    star_ids = {s.id for s in stars}
    for pair in pairs.values():
        for member in pair.members:
            if member not in star_ids:
                raise RulesetError(doc.file, f"pair {pair.id}", f"unknown member {member!r}")
    return tuple(stars), tuple(pairs.values())


# ---------------------------------------------------------------------------
# Assembly


# The organiser's matched-play settings (house rule ``matched_play``); ``elite_cap`` is
# the edition's and only the ruleset data sets it.
MATCHED_PLAY_SETTINGS = (
    "budget",
    "skill_points",
    "primary_cost",
    "secondary_cost",
    "max_secondary",
    "elite_costs_extra",
)
#: Far beyond any tournament: a budget stays 32-bit, points and counts stay small.
MATCHED_PLAY_MAX_BUDGET = 10_000_000
MATCHED_PLAY_MAX_NUMBER = 100


def _read_matched_play(doc: _Table) -> MatchedPlay | None:
    table = doc.maybe_table("matched_play")
    if table is None:
        return None
    table.only(*MATCHED_PLAY_SETTINGS, "elite_cap")
    return MatchedPlay(
        budget=table.integer("budget", _REQUIRED),
        skill_points=_skill_points(table, None),
        primary_cost=table.integer("primary_cost", _REQUIRED, minimum=1),
        secondary_cost=table.integer("secondary_cost", _REQUIRED, minimum=1),
        max_secondary=table.integer("max_secondary", None),
        elite_costs_extra=table.flag("elite_costs_extra", False),
        elite_cap=table.integer("elite_cap", None, minimum=1),
    )


def _skill_points(table: _Table, tiers: int | None) -> tuple[int, ...]:
    points: tuple[int, ...] = table.integers("skill_points", _REQUIRED)
    if not points:
        raise table.error("skill_points", "give the skill points of each team tier")
    if tiers is not None and len(points) != tiers:
        raise table.error(
            "skill_points", f"expected {tiers} numbers (one per team tier), got {len(points)}"
        )
    return points


def _house_matched_play(ruleset: Ruleset, doc: _Table) -> MatchedPlay:
    base = ruleset.matched_play
    if base is None:
        raise doc.error("matched_play", f"ruleset {ruleset.id!r} has no matched-play rules")
    table = doc.table("matched_play")
    table.only(*MATCHED_PLAY_SETTINGS)
    changes: dict[str, Any] = {}
    if table.has("budget"):
        changes["budget"] = table.integer("budget")
        if changes["budget"] > MATCHED_PLAY_MAX_BUDGET:
            raise table.error("budget", f"must be at most {MATCHED_PLAY_MAX_BUDGET}")
    if table.has("skill_points"):
        changes["skill_points"] = _skill_points(table, len(base.skill_points))
        if max(changes["skill_points"]) > MATCHED_PLAY_MAX_NUMBER:
            raise table.error("skill_points", f"must be at most {MATCHED_PLAY_MAX_NUMBER}")
    for key in ("primary_cost", "secondary_cost", "max_secondary"):
        if table.has(key):
            changes[key] = table.integer(key, minimum=0 if key == "max_secondary" else 1)
            if changes[key] > MATCHED_PLAY_MAX_NUMBER:
                raise table.error(key, f"must be at most {MATCHED_PLAY_MAX_NUMBER}")
    if table.has("elite_costs_extra"):
        changes["elite_costs_extra"] = table.flag("elite_costs_extra")
    return dataclasses.replace(base, **changes)


def _load(root: Path, ruleset_id: str) -> Ruleset:
    numbers = _read_ruleset_numbers(_read_toml(root, f"{ruleset_id}/ruleset.toml"), ruleset_id)
    roster_source = numbers["based_on"] or ruleset_id
    if numbers["based_on"] is not None and not (root / roster_source / "ruleset.toml").is_file():
        raise RulesetError(
            f"{ruleset_id}/ruleset.toml", "based_on", f"no ruleset folder {roster_source!r}"
        )
    # Skills are always the ruleset's own; ``based_on`` only lends the rosters.
    categories, skills = _read_skills(_read_toml(root, f"{ruleset_id}/skills.toml"))
    by_name = {s.name: s for s in skills}
    codes = {c.code for c in categories}
    roster_dir = root / roster_source / "rosters"
    if not roster_dir.is_dir():
        raise RulesetError(f"{roster_source}/rosters", "", "folder not found")
    team_types: list[TeamType] = []
    team_names: dict[str, str] = {}
    for path in sorted(roster_dir.glob("*.toml")):
        relative = f"{roster_source}/rosters/{path.name}"
        doc = _read_toml(root, relative)
        team = _read_roster(doc, path.stem, by_name, codes, numbers["stat_style"])
        if team.name in team_names:
            raise doc.error(
                "name", f"duplicate team name {team.name!r} (also in {team_names[team.name]})"
            )
        team_names[team.name] = relative
        team_types.append(team)
    if not team_types:
        raise RulesetError(f"{roster_source}/rosters", "", "no roster files")
    ruleset = Ruleset(
        **numbers,
        skill_categories=categories,
        skills=skills,
        team_types=tuple(team_types),
        match_day=_read_match_day(root, ruleset_id, numbers, by_name, tuple(team_types)),
    )
    validate_ruleset(ruleset, f"{ruleset_id}/ruleset.toml")
    translations = _read_translations(root, ruleset_id, ruleset)
    if numbers["based_on"] is not None:
        translations = _borrow_translations(
            translations, _read_translations(root, numbers["based_on"], ruleset, borrowed=True)
        )
    return dataclasses.replace(ruleset, translations=frozen_mapping(translations))


# ---------------------------------------------------------------------------
# i18n/<language>.toml

SKILL_NAME_CONVENTIONS = ("translated", "english")


def _read_translations(
    root: Path, folder: str, ruleset: Ruleset, borrowed: bool = False
) -> dict[str, RulesTranslation]:
    """The ``i18n/*.toml`` files of ``folder``, checked against ``ruleset``.

    ``borrowed``: the folder is the ``based_on`` of ``ruleset``; only its
    inducement, team type, position and level texts are used (the skills are the ruleset's own),
    and entries the ruleset does not have are skipped rather than refused.
    """
    directory = root / folder / "i18n"
    if not directory.is_dir():
        return {}
    found: dict[str, RulesTranslation] = {}
    for path in sorted(directory.glob("*.toml")):
        doc = _read_toml(root, f"{folder}/i18n/{path.name}")
        translation = _read_translation(doc, path.stem, ruleset, borrowed)
        found[translation.language] = translation
    return found


def _read_translation(
    doc: _Table, file_language: str, ruleset: Ruleset, borrowed: bool
) -> RulesTranslation:
    doc.only(
        "language",
        "skill_names",
        "categories",
        "skills",
        "inducements",
        "team_types",
        "positions",
        "levels",
    )
    language = doc.text("language", _REQUIRED)
    if language != file_language:
        raise doc.error("language", f"expected {file_language!r} (the file name), got {language!r}")
    if not (2 <= len(language) <= 3 and language.isalpha() and language.islower()):
        raise doc.error("language", f"expected a language code such as 'fr', got {language!r}")
    if language == "en":
        raise doc.error("language", "English is the data itself; no translation file for it")
    skill_names = _choice(doc, "skill_names", SKILL_NAME_CONVENTIONS)

    def known_keys(table: _Table, known: Iterable[str], what: str) -> list[str]:
        """The table's keys the ruleset knows; an unknown one is an error, except in a
        file borrowed from another ruleset (it may name what this one lacks)."""
        wanted = set(known)
        unknown = [key for key in table.data if key not in wanted]
        if unknown and not borrowed:
            raise table.error(unknown[0], f"unknown {what} {unknown[0]!r}")
        return [key for key in table.data if key in wanted]

    def entries(
        name: str, known: Iterable[str], what: str, allow_name: bool = True
    ) -> dict[str, TextEntry]:
        table = doc.maybe_table(name)
        if table is None:
            return {}
        result: dict[str, TextEntry] = {}
        for key in known_keys(table, known, what):
            entry = table.table(key)
            entry.only("name", "summary")
            if entry.has("name") and not allow_name:
                raise entry.error(
                    "name", 'this file keeps the English skill names (skill_names = "english")'
                )
            text = TextEntry(entry.text("name", ""), entry.text("summary", ""))
            if not text.name and not text.summary:
                raise entry.error("", "expected a name or a summary")
            result[key] = text
        return result

    def names(name: str, known: Iterable[str], what: str) -> dict[str, str]:
        table = doc.maybe_table(name)
        if table is None:
            return {}
        return {key: table.text(key, _REQUIRED) for key in known_keys(table, known, what)}

    match_day = ruleset.match_day
    inducement_ids = [item.id for item in match_day.inducements] if match_day else []
    position_names = {p.name for t in ruleset.team_types for p in t.positions}
    team_types = frozen_mapping(
        names("team_types", (t.id for t in ruleset.team_types), "team type")
    )
    positions = frozen_mapping(names("positions", position_names, "position"))
    levels = frozen_mapping(names("levels", ruleset.advancement.levels, "level"))
    if borrowed:
        return RulesTranslation(
            language=language,
            skill_names=skill_names,
            inducements=frozen_mapping(entries("inducements", inducement_ids, "inducement")),
            team_types=team_types,
            positions=positions,
            levels=levels,
        )
    return RulesTranslation(
        language=language,
        skill_names=skill_names,
        skills=frozen_mapping(
            entries(
                "skills",
                (s.name for s in ruleset.skills),
                "skill",
                allow_name=skill_names == "translated",
            )
        ),
        categories=frozen_mapping(
            names("categories", (c.code for c in ruleset.skill_categories), "skill category")
        ),
        inducements=frozen_mapping(entries("inducements", inducement_ids, "inducement")),
        team_types=team_types,
        positions=positions,
        levels=levels,
    )


def _borrow_translations(
    own: Mapping[str, RulesTranslation], lent: Mapping[str, RulesTranslation]
) -> dict[str, RulesTranslation]:
    """``own`` completed with the inducement and team type texts of the ``based_on`` folder."""
    merged = dict(own)
    for language, other in lent.items():
        mine = merged.get(language)
        if mine is None:
            merged[language] = other
            continue
        merged[language] = dataclasses.replace(
            mine,
            inducements=frozen_mapping({**other.inducements, **mine.inducements}),
            team_types=frozen_mapping({**other.team_types, **mine.team_types}),
            positions=frozen_mapping({**other.positions, **mine.positions}),
            levels=frozen_mapping({**other.levels, **mine.levels}),
        )
    return merged


def validate_ruleset(ruleset: Ruleset, file: str) -> None:
    """Cross-checks between the numbers and the skills (also run after house rules)."""
    adv = ruleset.advancement
    values = ruleset.value_increase
    if adv.mode == "spend":
        for kind, row in adv.costs.items():
            if len(row) != adv.max_advancements:
                raise RulesetError(
                    file,
                    f"advancement.costs.{kind}",
                    f"expected {adv.max_advancements} costs, got {len(row)}",
                )
            if kind in SKILL_KINDS and getattr(values, kind) is None:
                raise RulesetError(
                    file, f"value_increase.{kind}", f"{kind} has a cost but no value increase"
                )
        if ruleset.characteristic_table is None:
            raise RulesetError(file, "characteristic_table", "missing (spend mode)")
        for kind in ruleset.characteristic_table.fallback:
            if getattr(values, kind) is None:
                raise RulesetError(file, f"value_increase.{kind}", f"missing (fallback {kind})")
    else:
        if ruleset.improvement_roll is None:
            raise RulesetError(file, "improvement_roll", "missing (roll mode)")
        improvement = ruleset.improvement_roll
        for rolled_kind in (improvement.skill_kind, improvement.doubles_kind):
            if rolled_kind is not None and getattr(values, rolled_kind) is None:
                raise RulesetError(
                    file, f"value_increase.{rolled_kind}", f"missing (kind {rolled_kind})"
                )
    for char in ruleset.characteristics:
        if getattr(values, char) is None:
            raise RulesetError(file, f"value_increase.{char}", "missing")
    matched = ruleset.matched_play
    if matched is not None:
        for team_type in ruleset.team_types:
            if team_type.tier is None or not 1 <= team_type.tier <= len(matched.skill_points):
                raise RulesetError(
                    file,
                    "matched_play.skill_points",
                    f"no skill points for team type {team_type.id!r} (tier {team_type.tier})",
                )
    if adv.random_skill in TABLE_PROCEDURES:
        for category in ruleset.skill_categories:
            if category.learnable and not category.table:
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has no random table "
                    f"(skills.toml) but random_skill = {adv.random_skill!r}",
                )
    elif adv.random_skill == "roll_list":
        # One die over the category's skills in skills.toml order: a 2D6 table
        # would give the category a second, different random order.
        for category in ruleset.skill_categories:
            if not category.learnable:
                continue
            if category.table:
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has a 2D6 random table (skills.toml); "
                    "random_skill = 'roll_list' is for categories without one",
                )
            if not any(s.category == category.code for s in ruleset.skills):
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has no skills to roll "
                    "(random_skill = 'roll_list')",
                )


# ---------------------------------------------------------------------------
# House rules

HOUSE_RULE_KEYS = (
    "costs",
    "value_increase",
    "spp_awards",
    "starting_treasury",
    "redraft_cap",
    "matched_play",
    "tournament",
)
HOUSE_RULES_FILE = "house rules"


def _house_redraft_cap(ruleset: Ruleset, doc: _Table) -> SeasonRules:
    redraft = ruleset.season.redraft
    if redraft is None:
        raise doc.error("redraft_cap", f"ruleset {ruleset.id!r} has no off-season re-draft")
    cap = doc.integer("redraft_cap")
    if cap and cap < redraft.base:
        raise doc.error("redraft_cap", f"may not be below the base budget of {redraft.base}")
    return dataclasses.replace(
        ruleset.season, redraft=dataclasses.replace(redraft, cap=cap or None)
    )


def merge_house_rules(ruleset: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    """A new ruleset with a league's overrides applied and validated.

    ``overrides`` may hold ``costs`` ({kind: [SPP per advancement]}),
    ``value_increase`` ({key: gold}), ``spp_awards`` ({event: SPP}),
    ``starting_treasury`` (gold), ``redraft_cap`` (gold; 0 lifts the cap) and
    ``matched_play`` ({setting: value}, see ``MATCHED_PLAY_SETTINGS``; an empty table
    keeps the ruleset's defaults) and ``tournament`` (any of ``[season.tournament]``'s
    keys, see ``TOURNAMENT_KEYS``). Anything else raises :class:`RulesetError`.
    """
    if not overrides:
        return ruleset
    if not isinstance(overrides, Mapping):
        raise RulesetError(HOUSE_RULES_FILE, "", "expected a table of overrides")
    doc = _Table(HOUSE_RULES_FILE, overrides)
    doc.only(*HOUSE_RULE_KEYS)
    changes: dict[str, Any] = {}
    adv = ruleset.advancement

    costs_table = doc.maybe_table("costs")
    if costs_table is not None:
        if adv.mode != "spend":
            raise doc.error(
                "costs", f"ruleset {ruleset.id!r} does not spend SPP (mode = {adv.mode})"
            )
        costs_table.only(*ADVANCEMENT_KINDS)
        costs = dict(adv.costs)
        for kind in costs_table.data:
            costs[kind] = _cost_row(costs_table, kind, adv.max_advancements)
        if any(k in costs for k in ("random_primary", "random_secondary")) and (
            adv.random_skill == "none"
        ):
            raise costs_table.error("", f"ruleset {ruleset.id!r} has no random skill tables")
        changes["advancement"] = dataclasses.replace(
            adv, cost_table=CostTable(frozen_mapping(costs))
        )

    value_table = doc.maybe_table("value_increase")
    if value_table is not None:
        value_table.only(*ValueIncreaseTable.KEYS, "elite_surcharge")
        new_values = {key: value_table.integer(key) for key in value_table.data}
        changes["value_increase"] = dataclasses.replace(ruleset.value_increase, **new_values)

    spp_table = doc.maybe_table("spp_awards")
    if spp_table is not None:
        spp_table.only(*SPP_EVENTS)
        awards = dict(ruleset.spp.awards)
        awards.update({event: spp_table.integer(event) for event in spp_table.data})
        changes["spp"] = dataclasses.replace(ruleset.spp, awards=frozen_mapping(awards))

    if doc.has("starting_treasury"):
        changes["team_building"] = dataclasses.replace(
            ruleset.team_building, starting_treasury=doc.integer("starting_treasury")
        )

    if doc.has("redraft_cap"):
        changes["season"] = _house_redraft_cap(ruleset, doc)

    if doc.has("matched_play"):
        changes["matched_play"] = _house_matched_play(ruleset, doc)

    if doc.has("tournament"):
        season = changes.get("season", ruleset.season)
        tournament = _tournament(doc.table("tournament"), season.tournament)
        changes["season"] = dataclasses.replace(season, tournament=tournament)

    merged = dataclasses.replace(ruleset, **changes)
    validate_ruleset(merged, HOUSE_RULES_FILE)
    return merged
