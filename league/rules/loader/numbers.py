"""``ruleset.toml``: advancement, characteristics, SPP and casualties."""

from __future__ import annotations

import itertools
from typing import Any

from league.rules.loader.matched_play import read_matched_play
from league.rules.loader.season import read_season
from league.rules.loader.tables import REQUIRED, Table, check_bands, choice
from league.rules.loader.team_building import (
    read_expensive_mistakes,
    read_team_building,
    read_winnings,
)
from league.rules.model import (
    ADVANCEMENT_KINDS,
    CASUALTY_EFFECTS,
    CHARACTERISTICS,
    SKILL_KINDS,
    SPP_EVENTS,
    AdvancementRules,
    CasualtyResult,
    CasualtyTable,
    CharacteristicBand,
    CharacteristicLimits,
    CharacteristicTable,
    CostTable,
    ImprovementRoll,
    LastingInjury,
    SppAwards,
    SppVariant,
    ValueIncreaseTable,
    frozen_mapping,
)

RANDOM_SKILL_PROCEDURES = ("none", "roll_once", "roll_twice_pick_one", "roll_list")
#: Procedures that roll 2D6 on a 12-row category table.
TABLE_PROCEDURES = ("roll_once", "roll_twice_pick_one")
MUST_SPEND_RULES = ("none", "characteristic_cost")
CASUALTY_CODES = ("badly_hurt", "seriously_hurt", "serious_injury", "lasting_injury", "dead")


def read_ruleset_numbers(doc: Table, ruleset_id: str) -> dict[str, Any]:
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
    file_id = doc.text("id", REQUIRED)
    if file_id != ruleset_id:
        raise doc.error("id", f"{file_id!r} does not match the folder name {ruleset_id!r}")
    out: dict[str, Any] = {
        "id": file_id,
        "name": doc.text("name", REQUIRED),
        "edition": doc.text("edition", REQUIRED),
        "stat_style": choice(doc, "stat_style", ("target", "value")),
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
    out["team_building"] = read_team_building(doc)
    out["winnings"] = read_winnings(doc)
    out["expensive_mistakes"] = read_expensive_mistakes(doc)
    out["season"] = read_season(doc)
    out["matched_play"] = read_matched_play(doc)
    return out


def _read_advancement(doc: Table) -> AdvancementRules:
    adv = doc.table("advancement")
    adv.only(
        "mode", "max_advancements", "levels", "costs", "thresholds", "must_spend", "random_skill"
    )
    mode = choice(adv, "mode", ("spend", "roll"))
    max_adv = adv.integer("max_advancements", REQUIRED, minimum=1)
    levels = adv.texts("levels", REQUIRED)
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
                costs[kind] = cost_row(cost_table, kind, max_adv)
        if "random_characteristic" not in costs:
            raise cost_table.error("random_characteristic", "missing")
        if adv.has("thresholds"):
            raise adv.error("thresholds", "only for mode = 'roll'")
    else:
        if cost_table is not None:
            raise adv.error("costs", "only for mode = 'spend'")
        thresholds = adv.integers("thresholds", REQUIRED)
        if len(thresholds) != max_adv:
            raise adv.error("thresholds", f"expected {max_adv} numbers, got {len(thresholds)}")
        if any(b <= a for a, b in itertools.pairwise(thresholds)):
            raise adv.error("thresholds", "must be strictly increasing")
    random_skill = choice(adv, "random_skill", RANDOM_SKILL_PROCEDURES, "none")
    has_random_kind = any(k in costs for k in ("random_primary", "random_secondary"))
    if has_random_kind and random_skill == "none":
        raise adv.error("random_skill", "random skill kinds are priced but random_skill = 'none'")
    return AdvancementRules(
        mode=mode,
        max_advancements=max_adv,
        levels=levels,
        cost_table=CostTable(frozen_mapping(costs)),
        thresholds=thresholds,
        must_spend=choice(adv, "must_spend", MUST_SPEND_RULES, "none"),
        random_skill=random_skill,
    )


def cost_row(table: Table, kind: str, max_adv: int) -> tuple[int, ...]:
    row: tuple[int, ...] = table.integers(kind, REQUIRED)
    if len(row) != max_adv:
        raise table.error(kind, f"expected {max_adv} costs (one per advancement), got {len(row)}")
    return row


def _read_bands(
    table: Table, characteristics: tuple[str, ...], die: str
) -> tuple[CharacteristicBand, ...]:
    bands = []
    for band in table.subs("bands"):
        band.only("min", "max", "characteristics")
        chars = band.texts("characteristics", REQUIRED)
        for i, char in enumerate(chars):
            if char not in characteristics:
                raise band.error(
                    f"characteristics[{i}]",
                    f"unknown characteristic {char!r} "
                    f"(this ruleset has {', '.join(characteristics)})",
                )
        bands.append(
            CharacteristicBand(band.integer("min", REQUIRED), band.integer("max", REQUIRED), chars)
        )
    check_bands(table, "bands", ((b.min, b.max) for b in bands), die)
    return tuple(bands)


def _read_characteristic_table(
    doc: Table, characteristics: tuple[str, ...]
) -> CharacteristicTable | None:
    table = doc.maybe_table("characteristic_table")
    if table is None:
        return None
    table.only("die", "bands", "fallback")
    die = choice(table, "die", ("d8", "d16"))
    fallback = table.texts("fallback", ())
    for i, kind in enumerate(fallback):
        if kind not in SKILL_KINDS:
            raise table.error(f"fallback[{i}]", f"unknown skill kind {kind!r}")
    return CharacteristicTable(int(die[1:]), _read_bands(table, characteristics, die), fallback)


def _read_improvement_roll(doc: Table, characteristics: tuple[str, ...]) -> ImprovementRoll | None:
    table = doc.maybe_table("improvement_roll")
    if table is None:
        return None
    table.only("bands", "skill_kind", "doubles_kind")
    skill_kind = choice(table, "skill_kind", SKILL_KINDS)
    doubles_kind = choice(table, "doubles_kind", SKILL_KINDS, None)
    return ImprovementRoll(_read_bands(table, characteristics, "2d6"), skill_kind, doubles_kind)


def _read_limits(doc: Table, stat_style: str) -> CharacteristicLimits:
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


def _read_value_increase(doc: Table) -> ValueIncreaseTable:
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


def _read_spp(doc: Table) -> SppAwards:
    table = doc.table("spp")
    table.only(*SPP_EVENTS, *SPP_MATCH_RULES, "variant")
    awards = {event: table.integer(event, REQUIRED) for event in SPP_EVENTS}
    variants = []
    for variant in table.subs("variant", required=False):
        variant.only("special_rule", *SPP_EVENTS)
        changed = {event: variant.integer(event) for event in SPP_EVENTS if variant.has(event)}
        if not changed:
            raise variant.error("", "changes no award")
        variants.append(SppVariant(variant.text("special_rule", REQUIRED), frozen_mapping(changed)))
    return SppAwards(
        frozen_mapping(awards),
        tuple(variants),
        mvps_per_team=table.integer("mvps_per_team", REQUIRED),
        extra_mvps_on_concession=table.integer("extra_mvps_on_concession", REQUIRED),
        concession_forfeits_spp=table.flag("concession_forfeits_spp", REQUIRED),
        mvp_nominees=table.integer("mvp_nominees", 0),
        concession_departure_advancements=table.integer("concession_departure_advancements", 0),
        concession_departure_on=table.integer("concession_departure_on", 0),
    )


def _read_casualties(
    doc: Table, characteristics: tuple[str, ...]
) -> tuple[CasualtyTable, tuple[LastingInjury, ...]]:
    table = doc.table("casualty")
    table.only("die", "niggling_modifier", "results")
    die = choice(table, "die", ("d16", "d68"))
    results = []
    for row in table.subs("results"):
        row.only("min", "max", "name", "code", "effect", "characteristic")
        effect = choice(row, "effect", CASUALTY_EFFECTS)
        characteristic = choice(row, "characteristic", characteristics, None)
        if characteristic is not None and effect != "lasting":
            raise row.error("characteristic", "only for effect = 'lasting'")
        results.append(
            CasualtyResult(
                min=row.integer("min", REQUIRED),
                max=row.integer("max", REQUIRED),
                name=row.text("name", REQUIRED),
                code=choice(row, "code", CASUALTY_CODES),
                effect=effect,
                characteristic=characteristic,
            )
        )
    check_bands(table, "results", ((r.min, r.max) for r in results), die)
    casualty = CasualtyTable(die, tuple(results), table.integer("niggling_modifier", 0))

    lasting: list[LastingInjury] = []
    lasting_table = doc.maybe_table("lasting_injury")
    if lasting_table is not None:
        lasting_table.only("results")
        for row in lasting_table.subs("results"):
            row.only("min", "max", "name", "characteristic")
            lasting.append(
                LastingInjury(
                    row.integer("min", REQUIRED),
                    row.integer("max", REQUIRED),
                    row.text("name", REQUIRED),
                    choice(row, "characteristic", characteristics),
                )
            )
        check_bands(lasting_table, "results", ((r.min, r.max) for r in lasting), "d6")
    needs_d6 = [r for r in results if r.effect == "lasting" and r.characteristic is None]
    if needs_d6 and not lasting:
        raise doc.error("lasting_injury", "missing (a casualty result rolls on it)")
    return casualty, tuple(lasting)
