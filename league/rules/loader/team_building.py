"""``ruleset.toml``: team building, winnings and Expensive Mistakes."""

from __future__ import annotations

import itertools

from league.rules.loader.tables import REQUIRED, Table, choice, read_dice
from league.rules.model import (
    DedicatedFans,
    ExpensiveMistakes,
    LowCostLinemen,
    StaffRule,
    TeamBuilding,
    Winnings,
)

EXPENSIVE_MISTAKE_OUTCOMES = ("crisis_averted", "minor", "major", "catastrophe")


def _staff(table: Table, name: str) -> StaffRule:
    staff = table.table(name)
    staff.only("cost", "max")
    return StaffRule(staff.integer("cost", REQUIRED), staff.integer("max"))


def read_team_building(doc: Table) -> TeamBuilding:
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
            low_cost.text("special_rule", REQUIRED), low_cost.text("keyword", REQUIRED)
        )
    min_players = table.integer("min_players", REQUIRED)
    max_players = table.integer("max_players", REQUIRED, minimum=1)
    if min_players > max_players:
        raise table.error("min_players", f"{min_players} is above max_players {max_players}")
    return TeamBuilding(
        starting_treasury=table.integer("starting_treasury", REQUIRED),
        min_players=min_players,
        max_players=max_players,
        max_rerolls=rerolls.integer("max", REQUIRED),
        reroll_after_draft_multiplier=rerolls.integer(
            "after_draft_multiplier", REQUIRED, minimum=1
        ),
        assistant_coaches=_staff(table, "assistant_coaches"),
        cheerleaders=_staff(table, "cheerleaders"),
        apothecary_cost=table.integer("apothecary_cost", REQUIRED),
        dedicated_fans=DedicatedFans(
            start=fans.integer("start", REQUIRED),
            cost=fans.integer("cost", REQUIRED),
            max_at_draft=fans.integer("max_at_draft", REQUIRED),
            max=fans.integer("max"),
            counts_in_team_value=fans.flag("counts_in_team_value", False),
            concession_loss=(
                read_dice(fans, "concession_loss") if fans.has("concession_loss") else None
            ),
        ),
        low_cost_linemen=low_cost_rule,
    )


def read_winnings(doc: Table) -> Winnings | None:
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
        formula=choice(table, "formula", ("fan_attendance", "d6_fame")),
        unit=table.integer("unit", REQUIRED, minimum=1),
        fan_attendance_divisor=table.integer("fan_attendance_divisor", 2, minimum=1),
        per_touchdown=table.integer("per_touchdown", 1),
        no_stalling_bonus=table.integer("no_stalling_bonus", 0),
        win_bonus=table.integer("win_bonus", 0),
        concession_fan_attendance_divisor=table.integer(
            "concession_fan_attendance_divisor", None, minimum=1
        ),
        concession_no_stalling_bonus=table.integer("concession_no_stalling_bonus", 0),
    )


def read_expensive_mistakes(doc: Table) -> ExpensiveMistakes | None:
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
    columns = table.integers("columns", REQUIRED)
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
        table.integer("min_treasury", REQUIRED),
        columns,
        tuple(rows),
        minor_dice=read_dice(table, "minor_dice"),
        minor_loss_per_pip=table.integer("minor_loss_per_pip", REQUIRED),
        major_divisor=table.integer("major_divisor", REQUIRED),
        major_round_down_to=table.integer("major_round_down_to", REQUIRED),
        catastrophe_dice=read_dice(table, "catastrophe_dice"),
        catastrophe_kept_per_pip=table.integer("catastrophe_kept_per_pip", REQUIRED),
    )
