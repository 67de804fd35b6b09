"""``ruleset.toml`` ``[season]``: the tournament table, playoffs, prizes and the re-draft."""

from __future__ import annotations

import itertools
from typing import Any

from league.rules.loader.tables import REQUIRED, Table, choice
from league.rules.model import (
    BONUS_KINDS,
    BYE_RESULTS,
    PLAIN_SEASON,
    PLAYOFF_DRAWS,
    PLAYOFF_SEEDINGS,
    BonusRule,
    Playoffs,
    Prizes,
    Redraft,
    SeasonRules,
    Tournament,
)


def read_season(doc: Table) -> SeasonRules:
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


def _read_tournament(season: Table) -> Tournament:
    table = season.maybe_table("tournament")
    if table is None:
        return PLAIN_SEASON.tournament
    return merged_tournament(table, PLAIN_SEASON.tournament)


#: Far beyond any tournament: points, thresholds and a bye's touchdowns stay small.
TOURNAMENT_MAX_NUMBER = 100
TOURNAMENT_MAX_BONUS_RULES = 10
TOURNAMENT_KEYS = (
    "bye_result",
    "bye_touchdowns",
    "points",
    "bonus",
    "concession_points",
    "concession_score",
)


def merged_tournament(table: Table, base: Tournament) -> Tournament:
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
        bye_result=choice(table, "bye_result", BYE_RESULTS, base.bye_result),
        bye_touchdowns=(touchdowns[0], touchdowns[1]),
        points=(points[0], points[1], points[2]) if points is not None else None,
        bonus=bonus,
        **_concessions(table, base),
    )


def _concessions(table: Table, base: Tournament) -> dict[str, Any]:
    """``concession_points`` (a conceding team's points, from -MAX to MAX) and
    ``concession_score`` (the score a conceded match counts as: winner's, loser's)."""
    points = table.integer(
        "concession_points", base.concession_points, minimum=-TOURNAMENT_MAX_NUMBER
    )
    if points is not None and points > TOURNAMENT_MAX_NUMBER:
        raise table.error("concession_points", f"must be at most {TOURNAMENT_MAX_NUMBER}")
    score = table.integers("concession_score", base.concession_score)
    if score is not None:
        if len(score) != 2:
            raise table.error("concession_score", "expected 2 numbers: winner, conceding team")
        if max(score) > TOURNAMENT_MAX_NUMBER:
            raise table.error("concession_score", f"must be at most {TOURNAMENT_MAX_NUMBER}")
        if score[0] <= score[1]:
            raise table.error(
                "concession_score", "a conceded match's winner must score more than the loser"
            )
        score = (score[0], score[1])
    return {"concession_points": points, "concession_score": score}


def _bonus_rule(table: Table) -> BonusRule:
    table.only("kind", "threshold", "points")
    numbers = {name: table.integer(name, REQUIRED, minimum=1) for name in ("threshold", "points")}
    for name, number in numbers.items():
        if number > TOURNAMENT_MAX_NUMBER:
            raise table.error(name, f"must be at most {TOURNAMENT_MAX_NUMBER}")
    return BonusRule(choice(table, "kind", BONUS_KINDS), **numbers)


def _read_playoffs(season: Table) -> Playoffs:
    table = season.maybe_table("playoffs")
    if table is None:
        return PLAIN_SEASON.playoffs
    table.only("seeding", "no_same_division_first_round", "draw", "third_place_match")
    return Playoffs(
        seeding=choice(table, "seeding", PLAYOFF_SEEDINGS),
        no_same_division_first_round=table.flag("no_same_division_first_round", False),
        draw=choice(table, "draw", PLAYOFF_DRAWS),
        third_place_match=table.flag("third_place_match", True),
    )


def _read_prizes(season: Table) -> Prizes | None:
    table = season.maybe_table("prizes")
    if table is None:
        return None
    table.only("gold", "after_expensive_mistakes", "trophy_reroll")
    gold = table.integers("gold", REQUIRED)
    if any(lower > higher for higher, lower in itertools.pairwise(gold)):
        raise table.error("gold", "a lower place may not win more than a higher one")
    return Prizes(
        gold=gold,
        after_expensive_mistakes=table.flag("after_expensive_mistakes", REQUIRED),
        trophy_reroll=table.flag("trophy_reroll", False),
    )


def _read_redraft(season: Table) -> Redraft | None:
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
        base=table.integer("base", REQUIRED),
        per_fixture=table.integer("per_fixture", REQUIRED),
        per_win=table.integer("per_win", REQUIRED),
        per_draw=table.integer("per_draw", REQUIRED),
        cap=table.integer("cap", None),
        agent_fee_per_season=table.integer("agent_fee_per_season", REQUIRED),
        friendlies_count=table.flag("friendlies_count", REQUIRED),
        niggling_heals_on=table.integer("niggling_heals_on", None, minimum=2),
        niggling_apothecary_bonus=table.integer("niggling_apothecary_bonus", 0),
    )
    if redraft.niggling_heals_on is not None and redraft.niggling_heals_on > 7:
        raise table.error("niggling_heals_on", "a D6 roll (plus a bonus) must be able to reach it")
    if redraft.cap is not None and redraft.cap < redraft.base:
        raise table.error("cap", "the cap may not be below the base budget")
    return redraft
