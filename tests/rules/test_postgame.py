"""After the game (league.rules.postgame): a journeyman's price, the MVP draw, departures.

Rules cited: BB2025 "Journeymen" (hired at the hiring fee plus value increases) and
post-game sequence (six MVP nominees and a D6; a conceding team's players with three or
more advancements leave on 1-3), RULES-FACTS 4 and 6; BB2020 "Journeymen" (current
value, with room under 16); classic as its match_day.toml (the position's cost).
"""

from __future__ import annotations

from league.rules import Ruleset
from league.rules.postgame import (
    journeyman_hire_terms,
    leaves_on_concession,
    mvp_draw_decision,
    mvp_nominees_needed,
    rolls_to_leave,
)


def _lineman(ruleset: Ruleset, team_type: str = "human", position: str = "human-lineman"):
    return ruleset.team_type(team_type).position(position)


def test_bb2025_price_is_the_fee_plus_value_increases(bb2025: Ruleset) -> None:
    # A 50,000 Human Lineman who gained 20,000 of value: 70,000; loses Loner, keeps SPP.
    terms = journeyman_hire_terms(
        bb2025, _lineman(bb2025), value=70_000, cost=50_000, treasury=70_000, roster_size=11
    )
    assert (terms.price, terms.loses_trait, terms.keeps_spp, bool(terms.decision)) == (
        70_000,
        True,
        True,
        True,
    )
    short = journeyman_hire_terms(
        bb2025, _lineman(bb2025), value=70_000, cost=50_000, treasury=60_000, roster_size=11
    )
    assert [(r.code, dict(r.params)) for r in short.decision.reasons] == [
        ("not_enough_gold", {"needed": 70_000, "have": 60_000})
    ]


def test_bb2020_needs_room_under_sixteen(bb2020: Ruleset) -> None:
    full = journeyman_hire_terms(
        bb2020, _lineman(bb2020), value=50_000, cost=50_000, treasury=500_000, roster_size=16
    )
    assert full.price == 50_000
    assert [r.code for r in full.decision.reasons] == ["roster_full"]
    room = journeyman_hire_terms(
        bb2020, _lineman(bb2020), value=50_000, cost=50_000, treasury=500_000, roster_size=15
    )
    assert room.decision


def test_classic_pays_the_position_cost(classic: Ruleset) -> None:
    # classic match_day.toml: price = "position_cost", whatever he gained.
    terms = journeyman_hire_terms(
        classic,
        _lineman(classic, "human", "lineman"),
        value=70_000,
        cost=50_000,
        treasury=500_000,
        roster_size=11,
    )
    assert terms.price == 50_000


def test_bb2025_mvp_draw(bb2025: Ruleset, bb2020: Ruleset) -> None:
    assert mvp_nominees_needed(bb2025, 14) == 6
    assert mvp_nominees_needed(bb2025, 4) == 4  # fewer could play: all of them
    assert mvp_draw_decision(bb2025, 6, 14, 5)
    assert mvp_draw_decision(bb2025, 6, 14, None)  # the server rolls
    assert mvp_draw_decision(bb2025, 5, 14, None).codes == ("mvp_nominees",)
    # Four nominees: a 5 names nobody and is rolled again.
    assert mvp_draw_decision(bb2025, 4, 4, 5).codes == ("mvp_die",)
    assert mvp_draw_decision(bb2020, 6, 14, 3).codes == ("no_mvp_draw",)


def test_bb2025_concession_departures(bb2025: Ruleset, bb2020: Ruleset) -> None:
    assert not rolls_to_leave(bb2025, 2)
    assert rolls_to_leave(bb2025, 3)
    assert [leaves_on_concession(bb2025, 3, die) for die in range(1, 7)] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert not leaves_on_concession(bb2025, 2, 1)
    assert not rolls_to_leave(bb2020, 5)  # BB2020 has no departure roll
