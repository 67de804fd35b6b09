"""The pre-game sequence: journeymen, CTV, petty cash, purchases (hand-worked numbers).

Rules cited: BB2025 league play "Inducements" and "Journeymen" (RULES-FACTS §6c,
MATCH-DAY.md "Key rule numbers"), BB2020 with the May 2025 errata, classic LRB6.
"""

from __future__ import annotations

import re
from pathlib import Path

import league.rules.match_day as match_day_module
from league.rules import (
    MercenaryOrder,
    PreGameOrder,
    PreGameSide,
    RosterPlayer,
    Ruleset,
    ctv_with_journeymen,
    eligible_inducements,
    eligible_stars,
    inducement_decision,
    inducement_price,
    journeyman_decision,
    journeyman_hire_decision,
    journeyman_hire_price,
    journeyman_positions,
    journeymen_needed,
    mercenary_cost,
    order_cost,
    order_decision,
    petty_cash,
    refusal_text,
    settle,
    star_decision,
    star_hire,
    stars_fielded,
    treasury_allowance,
)
from league.rules.model import make_reason
from tests.fake_i18n import bracketing

HIGHER, LOWER = 1_150_000, 1_000_000


def _side(ruleset: Ruleset, team: str, ctv: int, treasury: int, players: int = 11) -> PreGameSide:
    return PreGameSide(ruleset.team_type(team), ctv=ctv, treasury=treasury, players=players)


def _order(**inducements: int) -> PreGameOrder:
    return PreGameOrder(inducements={k.replace("_", "-"): v for k, v in inducements.items()})


# BB2025: 290,000 of the lower team's inducements:
# 2 x Extra Team Training (200,000) + Blitzer's Best Kegs (50,000)
# + Weather Mage (25,000) + Prayers to Nuffle (10,000) + Temp Agency Cheerleaders (5,000).
BB2025_LOWER_ORDER = _order(
    extra_team_training=2,
    blitzers_best_kegs=1,
    weather_mage=1,
    prayers_to_nuffle=1,
    temp_agency_cheerleaders=1,
)


def test_bb2025_petty_cash_and_treasury(bb2025: Ruleset) -> None:
    higher = _side(bb2025, "human", HIGHER, treasury=120_000)
    lower = _side(bb2025, "orc", LOWER, treasury=80_000)
    # The higher team has no petty cash; it spends 100,000 of treasury on a Bribe.
    assert petty_cash(bb2025, HIGHER, LOWER, 0) == 0
    bribe = _order(bribes=1)
    assert order_cost(bb2025, higher.team_type, bribe) == 100_000
    assert order_decision(bb2025, higher, bribe, petty=0, other_ctv=LOWER, other_done=False)
    assert settle(0, 100_000).from_treasury == 100_000
    # Lower team: CTV gap 150,000 + the 100,000 the higher team spent = 250,000.
    petty = petty_cash(bb2025, LOWER, HIGHER, 100_000)
    assert petty == 250_000
    # It may add at most 50,000 of its 80,000 treasury: it may spend 300,000.
    assert treasury_allowance(bb2025, LOWER, HIGHER, 80_000) == 50_000
    assert order_cost(bb2025, lower.team_type, BB2025_LOWER_ORDER) == 290_000
    assert order_decision(bb2025, lower, BB2025_LOWER_ORDER, petty=petty, other_ctv=HIGHER)
    # Petty cash pays first: the treasury drops only by 290,000 - 250,000 = 40,000.
    paid = settle(petty, 290_000)
    assert (paid.from_petty_cash, paid.from_treasury, paid.petty_cash_lost) == (250_000, 40_000, 0)
    # Spending only 200,000: no treasury, and the other 50,000 of petty cash is lost.
    paid = settle(petty, 200_000)
    assert (paid.from_petty_cash, paid.from_treasury, paid.petty_cash_lost) == (200_000, 0, 50_000)
    # 310,000 is over the 300,000 the team may spend.
    over = _order(extra_team_training=3, weather_mage=1)
    refused = order_decision(bb2025, lower, over, petty=petty, other_ctv=HIGHER)
    assert refused.codes == ("over_budget",)
    assert refusal_text(refused.reasons[0]) == (
        "This costs 325,000 but the team may spend 300,000."
    )


def test_bb2025_lower_team_waits_for_the_higher(bb2025: Ruleset) -> None:
    lower = _side(bb2025, "orc", LOWER, treasury=0)
    early = order_decision(
        bb2025, lower, _order(bribes=1), petty=150_000, other_ctv=HIGHER, other_done=False
    )
    assert early.codes == ("not_your_turn",)
    assert "higher CTV chooses first" in refusal_text(early.reasons[0])


def test_bb2020_lower_team_may_not_add_treasury(bb2020: Ruleset) -> None:
    lower = _side(bb2020, "orc", LOWER, treasury=80_000)
    petty = petty_cash(bb2020, LOWER, HIGHER, 100_000)
    assert petty == 250_000  # same gap + spend as BB2025
    assert treasury_allowance(bb2020, LOWER, HIGHER, 80_000) == 0  # errata: no top-up
    # 2 x Extra Team Training + Bloodweiser Kegs + 2 x Temp Agency Cheerleaders = 290,000.
    order = _order(extra_team_training=2, bloodweiser_kegs=1, temp_agency_cheerleaders=2)
    assert order_cost(bb2020, lower.team_type, order) == 290_000
    refused = order_decision(bb2020, lower, order, petty=petty, other_ctv=HIGHER)
    assert refused.codes == ("over_budget",)
    assert refused.reasons[0].params["budget"] == 250_000
    exact = _order(extra_team_training=2, bloodweiser_kegs=1)
    assert order_decision(bb2020, lower, exact, petty=petty, other_ctv=HIGHER)
    assert settle(petty, 250_000).from_treasury == 0


def test_equal_ctv_gives_no_inducements(bb2020: Ruleset, bb2025: Ruleset) -> None:
    for ruleset in (bb2020, bb2025):
        side = _side(ruleset, "human", LOWER, treasury=500_000)
        assert petty_cash(ruleset, LOWER, LOWER, 0) == 0
        assert treasury_allowance(ruleset, LOWER, LOWER, 500_000) == 0
        refused = order_decision(ruleset, side, _order(bribes=1), petty=0, other_ctv=LOWER)
        assert refused.codes == ("over_budget",)
        assert refused.reasons[0].params["budget"] == 0


def test_journeymen_for_ten_players_one_missing(bb2025: Ruleset, bb2020: Ruleset) -> None:
    human = bb2025.team_type("human")
    players = [RosterPlayer("human-lineman") for _ in range(9)]
    players.append(RosterPlayer("human-blitzer", miss_next_game=True))
    # 9 available players: two journeymen bring the team to 11.
    assert journeymen_needed(bb2025, players) == 2
    # A dead player counts for nothing either.
    assert journeymen_needed(bb2025, [*players, RosterPlayer("human-lineman", dead=True)]) == 2
    # BB2025: the Lineman position of quantity 0-16; the journeyman gains Loner (4+).
    assert [p.id for p in journeyman_positions(bb2025, human)] == ["human-lineman"]
    assert str(bb2025.match_day.journeymen.trait) == "Loner (4+)"  # type: ignore[union-attr]
    assert journeyman_decision(bb2025, human, "human-lineman", needed=2, taken=1)
    assert journeyman_decision(bb2025, human, "human-blitzer", 2, 0).codes == (
        "not_journeyman_position",
    )
    assert journeyman_decision(bb2025, human, "human-lineman", 2, 2).codes == (
        "journeymen_not_needed",
    )
    # CTV counts them at the position fee: 2 x 50,000.
    assert ctv_with_journeymen(bb2025, human, 900_000, ["human-lineman"] * 2) == 1_000_000
    # BB2020 also allows 0-12 Lineman positions (Black Orc Goblin Bruisers).
    black_orc = bb2020.team_type("black-orc")
    assert [p.id for p in journeyman_positions(bb2020, black_orc)] == ["goblin-bruiser-lineman"]


def test_low_cost_linemen_journeymen_add_nothing(bb2025: Ruleset) -> None:
    ogre = bb2025.team_type("ogre")
    assert [p.id for p in journeyman_positions(bb2025, ogre)] == ["gnoblar-lineman"]
    # Low Cost Linemen: a Gnoblar's 15,000 fee counts 0 in CTV (RULES-FACTS §6c).
    assert ctv_with_journeymen(bb2025, ogre, 900_000, ["gnoblar-lineman"] * 2) == 900_000


def test_hiring_a_journeyman_after_the_game(
    bb2025: Ruleset, bb2020: Ruleset, classic: Ruleset
) -> None:
    lineman = bb2025.team_type("human").position("human-lineman")
    # BB2025: hiring fee 50,000 + a 20,000 advancement gained in the game.
    assert journeyman_hire_price(bb2025, lineman, 20_000) == 70_000
    assert journeyman_hire_decision(bb2025, 70_000, treasury=70_000, roster_size=15)
    # BB2020: only with room under 16 players.
    refused = journeyman_hire_decision(bb2020, 50_000, treasury=10_000, roster_size=16)
    assert refused.codes == ("roster_full", "not_enough_gold")
    # Classic (OBBLM): the position's base cost, advancements or not.
    classic_lineman = classic.team_type("human").position("lineman")
    assert journeyman_hire_price(classic, classic_lineman, 20_000) == 50_000


def test_stars_for_old_world_classic(bb2025: Ruleset) -> None:
    human, orc = bb2025.team_type("human"), bb2025.team_type("orc")
    # Griff Oberwald plays only for Old World Classic teams.
    assert bb2025.match_day.star("griff-oberwald").plays_for == (  # type: ignore[union-attr]
        "Old World Classic",
    )
    assert star_decision(bb2025, human, "griff-oberwald")
    refused = star_decision(bb2025, orc, "griff-oberwald")
    assert refused.codes == ("star_not_eligible",)
    assert refusal_text(refused.reasons[0]) == "Griff Oberwald does not play for Orc teams."
    assert "griff-oberwald" in {s.id for s in eligible_stars(bb2025, human)}
    assert "griff-oberwald" not in {s.id for s in eligible_stars(bb2025, orc)}
    # Morg 'n' Thorg plays for anyone but Sylvanian Spotlight teams.
    assert not star_decision(bb2025, bb2025.team_type("vampire"), "morg-n-thorg")


def test_two_stars_at_most_and_a_pair_takes_two_places(bb2025: Ruleset) -> None:
    side = _side(bb2025, "human", HIGHER, treasury=2_000_000, players=13)
    three = PreGameOrder(stars=("griff-oberwald", "helmut-wulf", "ivar-eriksson"))
    assert "too_many_stars" in order_decision(bb2025, side, three, 0, LOWER).codes
    # A pair is one choice: Griff + Grak and Crumbleberry is two choices, one fee for the pair.
    pair = star_hire(bb2025, "grak")
    assert (pair.id, pair.cost, pair.roster_places) == ("grak-and-crumbleberry", 250_000, 2)
    two = PreGameOrder(stars=("griff-oberwald", "grak"))
    assert order_cost(bb2025, side.team_type, two) == 300_000 + 250_000
    assert order_decision(bb2025, side, two, 0, LOWER)  # 13 players + 1 + 2 places = 16
    crowded = _side(bb2025, "human", HIGHER, treasury=2_000_000, players=15)
    refused = order_decision(bb2025, crowded, PreGameOrder(stars=("grak",)), 0, LOWER)
    # 15 players + the pair's two places = 17, over the 16-player limit.
    assert refused.codes == ("no_roster_place",)


def test_bugman_on_the_sideline_or_on_the_pitch(bb2025: Ruleset) -> None:
    side = _side(bb2025, "human", HIGHER, treasury=2_000_000)
    both = PreGameOrder(
        inducements={"infamous-coaching-staff-josef-bugman": 1}, stars=("josef-bugman",)
    )
    refused = order_decision(bb2025, side, both, 0, LOWER)
    assert refused.codes == ("excludes_star",)
    assert refusal_text(refused.reasons[0]) == (
        "A team that buys Infamous Coaching Staff: Josef Bugman may not also hire Josef Bugman."
    )


def test_a_star_both_teams_want(bb2025: Ruleset, bb2020: Ruleset) -> None:
    # BB2025: both teams field him.
    assert stars_fielded(bb2025, ["griff-oberwald"], ["griff-oberwald"]) == ("griff-oberwald",)
    # BB2020 league play: neither does (he keeps both fees); other stars still play.
    fielded = stars_fielded(bb2020, ["griff-oberwald", "grak"], ["griff-oberwald"])
    assert fielded == ("grak-and-crumbleberry",)


def test_mercenaries(bb2025: Ruleset, bb2020: Ruleset) -> None:
    human = bb2025.team_type("human")
    lineman = human.position("human-lineman")
    # Fee 50,000 + 30,000 surcharge + 50,000 for one primary skill.
    assert mercenary_cost(bb2025, lineman) == 80_000
    assert mercenary_cost(bb2025, lineman, "Block") == 130_000
    side = _side(bb2025, "human", HIGHER, treasury=1_000_000)
    four = PreGameOrder(mercenaries=(MercenaryOrder("human-lineman"),) * 4)
    assert "too_many_mercenaries" in order_decision(bb2025, side, four, 0, LOWER).codes
    dodge = PreGameOrder(mercenaries=(MercenaryOrder("human-lineman", "Dodge"),))
    assert order_decision(bb2025, side, dodge, 0, LOWER).codes == ("skill_not_primary",)
    # BB2020 has no cap beyond the roster (four are fine).
    side20 = _side(bb2020, "human", HIGHER, treasury=1_000_000)
    assert order_decision(bb2020, side20, four, 0, LOWER)


def test_reduced_prices_and_eligibility(bb2025: Ruleset, classic: Ruleset) -> None:
    goblin = bb2025.team_type("goblin")  # Bribery and Corruption
    assert inducement_price(bb2025, goblin, "bribes") == 50_000
    assert inducement_decision(bb2025, goblin, "bribes", 6)
    assert inducement_decision(bb2025, bb2025.team_type("human"), "bribes", 4).codes == (
        "over_limit",
    )
    assert inducement_price(bb2025, bb2025.team_type("halfling"), "halfling-master-chef") == (
        100_000
    )
    undead = bb2025.team_type("shambling-undead")  # no apothecary, Masters of Undeath
    offered = {i.id for i in eligible_inducements(bb2025, undead)}
    assert "mortuary-assistant" in offered
    assert "wandering-apothecary" not in offered
    refused = inducement_decision(bb2025, undead, "wandering-apothecary", 1)
    assert refusal_text(refused.reasons[0]) == (
        "Shambling Undead teams may not buy Wandering Apothecary."
    )
    assert inducement_price(classic, classic.team_type("goblin"), "bribes") == 50_000
    assert inducement_decision(classic, classic.team_type("undead"), "igor", 1)
    assert not inducement_decision(classic, classic.team_type("human"), "igor", 1)


def test_bb2020_death_zone_eligibility_and_prices(bb2020: Ruleset) -> None:
    halfling = bb2020.team_type("halfling")  # tier 3, Halfling Thimble Cup, Old World Classic
    human = bb2020.team_type("human")  # tier 2, Old World Classic
    nurgle = bb2020.team_type("nurgle")  # Favoured of Nurgle
    # Bottles of Heady Brew: 0-3, 40,000 each, "any team belonging to Tier 3".
    assert inducement_decision(bb2020, halfling, "bottles-of-heady-brew", 3)
    assert inducement_decision(bb2020, halfling, "bottles-of-heady-brew", 4).codes == (
        "over_limit",
    )
    assert inducement_decision(bb2020, human, "bottles-of-heady-brew", 1).codes == ("not_eligible",)
    # Halfling Hot Pot: 80,000, or 60,000 with Halfling Thimble Cup.
    assert inducement_price(bb2020, human, "halfling-hot-pot") == 80_000
    assert inducement_price(bb2020, halfling, "halfling-hot-pot") == 60_000
    # Kari Coldsteel: 50,000 (BBBase, wrightomated and BSData; NAFLM says 80,000).
    assert inducement_price(bb2020, human, "famous-coaching-staff-kari-coldsteel") == 50_000
    # Cavorting Nurglings (0-3, 30,000) only for Favoured of Nurgle.
    offered = {i.id for i in eligible_inducements(bb2020, nurgle)}
    assert {"cavorting-nurglings", "wizard-horticulturalist-of-nurgle"} <= offered
    assert "cavorting-nurglings" not in {i.id for i in eligible_inducements(bb2020, human)}
    # Any team: Ayleen Andar 100,000, Team Mascot 30,000, Medicinal Unguent 60,000.
    assert inducement_price(bb2020, human, "famous-coaching-staff-ayleen-andar") == 100_000
    assert inducement_price(bb2020, nurgle, "team-mascot") == 30_000
    assert inducement_price(bb2020, halfling, "medicinal-unguent") == 60_000


def test_every_refusal_reads_as_a_sentence() -> None:
    """Each code match_day.py refuses with has its own words (not the bare code)."""
    source = Path(match_day_module.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'(?:make_reason|Decision\.deny)\(\s*"(match_day\.\w+)"', source))
    assert len(codes) >= 15
    for code in sorted(codes):
        text = refusal_text(make_reason(code))
        assert text != code.partition(".")[2].replace("_", " "), code
        assert text.endswith("."), code


def test_every_refusal_is_looked_up_in_the_readers_language() -> None:
    """Issue 20: each sentence is one message id with its numbers put in, no f-string."""
    source = Path(match_day_module.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'(?:make_reason|Decision\.deny)\(\s*"(match_day\.\w+)"', source))
    with bracketing() as backend:
        for code in sorted(codes):
            text = refusal_text(make_reason(code, cost=325_000, budget=300_000, allowed=()))
            assert text.startswith("⟦"), (code, text)
            assert text.endswith(".⟧"), (code, text)
        over = refusal_text(make_reason("match_day.over_budget", cost=325_000, budget=300_000))
        journeymen = refusal_text(make_reason("match_day.not_journeyman_position", position="x"))
    assert over == "⟦This costs #325000 but the team may spend #300000.⟧"
    assert journeymen == "⟦Journeymen come from ⟦no position⟧, not 'x'.⟧"
    assert "This costs %(cost)s but the team may spend %(budget)s." in backend.asked
