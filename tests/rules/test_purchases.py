"""Buying, giving back and hiring, Dedicated Fans after a match, lasting injuries:
the decisions league.rules gives and the sentences refusal_text makes of them.

Every number is worked out by hand from the ruleset data, which carries the
rules (RULES-FACTS §6b table "Team building": re-rolls 0-8 at the roster price,
double after the draft; assistant coaches 0-6 and cheerleaders 0-12 (BB2020) or
0-6 (BB2025) at 10,000; an apothecary 0-1 at 50,000 where the roster allows one;
Dedicated Fans after a win rise, after a loss fall, max 7, min 1).
"""

from __future__ import annotations

import pytest

from league.rules import Decision, load_ruleset
from league.rules.injuries import injury_entry_decision, lasting_characteristics
from league.rules.refusals import an_item, refusal_text
from league.rules.team_building import (
    TeamCounts,
    concession_fans_change,
    concession_fans_changes,
    fans_change_decision,
    give_back_decision,
    hire_decision,
    purchase_quote,
)

RULESETS = ("bb2025", "bb2020", "classic", "classic-spend")


def texts(decision: Decision, team: str = "Gouged Eye") -> list[str]:
    return [refusal_text(reason, team=team) for reason in decision.reasons]


# ---------------------------------------------------------------------------
# Prices


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_orc_reroll_costs_its_roster_price_then_double(ruleset_id: str) -> None:
    # Orc re-rolls cost 60,000 in every shipped ruleset (RULES-FACTS Orc row; classic-spend
    # borrows the classic rosters); after the draft x2 (re-rolls "double price when bought
    # later"): 120,000.
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    during = purchase_quote(ruleset, orc, "reroll", TeamCounts(), 1_000_000, during_draft=True)
    after = purchase_quote(ruleset, orc, "reroll", TeamCounts(), 1_000_000)
    assert (during.price, after.price) == (60_000, 120_000)
    assert during.decision.allowed
    assert after.decision.allowed


@pytest.mark.parametrize(
    ("ruleset_id", "prices"),
    [
        # (apothecary, assistant coach, cheerleader, dedicated fan)
        ("bb2025", (50_000, 10_000, 10_000, 5_000)),
        ("bb2020", (50_000, 10_000, 10_000, 10_000)),
        ("classic", (50_000, 10_000, 10_000, 10_000)),
        ("classic-spend", (50_000, 10_000, 10_000, 10_000)),
    ],
)
def test_staff_prices(ruleset_id: str, prices: tuple[int, int, int, int]) -> None:
    # Apothecary 50,000, coaches and cheerleaders 10,000 (RULES-FACTS §6b); a Dedicated
    # Fan at the draft 5,000 in BB2025, 10,000 in BB2020 and the classic rules.
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    items = ("apothecary", "assistant_coach", "cheerleader", "dedicated_fan")
    quotes = [purchase_quote(ruleset, orc, i, TeamCounts(), 0, during_draft=True) for i in items]
    assert tuple(q.price for q in quotes) == prices
    # An empty treasury refuses each, naming the price and what is there.
    assert [texts(q.decision) for q in quotes] == [
        [f"Costs {price:,}; the treasury holds 0."] for price in prices
    ]


# ---------------------------------------------------------------------------
# Limits, with the sentence a coach reads


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_ninth_reroll_is_refused(ruleset_id: str) -> None:
    # Team re-rolls 0-8 in every ruleset.
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    assert purchase_quote(ruleset, orc, "reroll", TeamCounts(rerolls=7), None).decision.allowed
    refused = purchase_quote(ruleset, orc, "reroll", TeamCounts(rerolls=8), None).decision
    assert texts(refused) == ["A team may have at most 8 team re-rolls."]


@pytest.mark.parametrize(
    ("ruleset_id", "most", "refused"),
    [
        # Cheerleaders 0-6 (BB2025), 0-12 (BB2020); the classic data sets no limit.
        ("bb2025", 6, ["A team may have at most 6 cheerleaders."]),
        ("bb2020", 12, ["A team may have at most 12 cheerleaders."]),
        ("classic", 12, []),
        ("classic-spend", 12, []),
    ],
)
def test_cheerleader_limit(ruleset_id: str, most: int, refused: list[str]) -> None:
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    decision = purchase_quote(
        ruleset, orc, "cheerleader", TeamCounts(cheerleaders=most), None
    ).decision
    assert texts(decision) == refused


@pytest.mark.parametrize(
    ("ruleset_id", "refused"),
    [
        # Assistant coaches 0-6 in BB2020/BB2025; no limit in the classic data.
        ("bb2025", ["A team may have at most 6 assistant coachs."]),
        ("bb2020", ["A team may have at most 6 assistant coachs."]),
        ("classic", []),
        ("classic-spend", []),
    ],
)
def test_assistant_coach_limit(ruleset_id: str, refused: list[str]) -> None:
    # The sentence is the one the team page has always shown ("coachs" included).
    ruleset = load_ruleset(ruleset_id)
    counts = TeamCounts(assistant_coaches=6)
    decision = purchase_quote(ruleset, ruleset.team_type("orc"), "assistant_coach", counts, None)
    assert texts(decision.decision) == refused


@pytest.mark.parametrize(
    ("ruleset_id", "no_apothecary", "name"),
    [
        ("bb2025", "nurgle", "Nurgle"),
        ("bb2020", "nurgle", "Nurgle"),
        # LRB6: Nurgle teams may not buy one (they may induce Igor instead).
        ("classic", "nurgle", "Nurgle"),
        ("classic-spend", "nurgle", "Nurgle"),
    ],
)
def test_apothecary_only_where_the_roster_allows_one(
    ruleset_id: str, no_apothecary: str, name: str
) -> None:
    ruleset = load_ruleset(ruleset_id)
    refused = purchase_quote(
        ruleset, ruleset.team_type(no_apothecary), "apothecary", TeamCounts(), 1_000_000
    ).decision
    assert texts(refused) == [f"{name} teams cannot hire an apothecary."]
    # 0-1: a second one is refused, naming the team.
    second = purchase_quote(
        ruleset, ruleset.team_type("orc"), "apothecary", TeamCounts(apothecary=True), 1_000_000
    ).decision
    assert texts(second) == ["Gouged Eye already has an apothecary."]


@pytest.mark.parametrize(
    ("ruleset_id", "at_draft"),
    # Dedicated Fans bought at the draft: at most 3 (BB2025), 6 (BB2020), 9 (classic data).
    [("bb2025", 3), ("bb2020", 6), ("classic", 9), ("classic-spend", 9)],
)
def test_dedicated_fans_are_bought_only_while_drafting(ruleset_id: str, at_draft: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    below = TeamCounts(dedicated_fans=at_draft - 1)
    assert purchase_quote(ruleset, orc, "dedicated_fan", below, None, True).decision.allowed
    full = TeamCounts(dedicated_fans=at_draft)
    assert texts(purchase_quote(ruleset, orc, "dedicated_fan", full, None, True).decision) == [
        f"A new team may start with at most {at_draft} dedicated fans."
    ]
    after = purchase_quote(ruleset, orc, "dedicated_fan", below, None).decision
    assert texts(after) == [
        "Dedicated fans are bought only while drafting; after that they change after games."
    ]


def test_a_treasury_left_out_is_not_checked() -> None:
    # None: the ledger checks the gold when it moves, in its own words.
    ruleset = load_ruleset("bb2025")
    quote = purchase_quote(ruleset, ruleset.team_type("orc"), "reroll", TeamCounts(), None)
    assert quote.decision.allowed
    assert quote.price == 120_000


# ---------------------------------------------------------------------------
# Giving back during the draft


@pytest.mark.parametrize(
    ("ruleset_id", "start"),
    # A team starts with 1 Dedicated Fan in BB2020/BB2025 (min 1) and 0 in the classic data.
    [("bb2025", 1), ("bb2020", 1), ("classic", 0), ("classic-spend", 0)],
)
def test_only_bought_fans_can_be_given_back(ruleset_id: str, start: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    at_start = TeamCounts(dedicated_fans=start)
    refused = give_back_decision(ruleset, "dedicated_fan", at_start, during_draft=True)
    assert texts(refused) == ["Gouged Eye has no dedicated fan to give back."]
    one_bought = TeamCounts(dedicated_fans=start + 1)
    assert give_back_decision(ruleset, "dedicated_fan", one_bought, during_draft=True).allowed
    after = give_back_decision(ruleset, "dedicated_fan", one_bought, during_draft=False)
    assert texts(after) == ["Items can be given back only during the draft."]


def test_give_back_refusals_in_order() -> None:
    ruleset = load_ruleset("bb2025")
    # The draft is checked before the item's name, as the service always did.
    assert give_back_decision(ruleset, "bribe", TeamCounts(), False).codes == ("draft_over",)
    assert texts(give_back_decision(ruleset, "bribe", TeamCounts(), True)) == [
        "Unknown item 'bribe'."
    ]
    assert give_back_decision(ruleset, "reroll", TeamCounts(rerolls=2), True).allowed
    assert texts(give_back_decision(ruleset, "apothecary", TeamCounts(), True)) == [
        "Gouged Eye has no apothecary to give back."
    ]


# ---------------------------------------------------------------------------
# Hiring


@pytest.mark.parametrize(
    ("ruleset_id", "blitzers"),
    # 16 players at most in every ruleset; Orc Blitzers 0-2 in BB2025, 0-4 before.
    [("bb2025", 2), ("bb2020", 4), ("classic", 4), ("classic-spend", 4)],
)
def test_hire_refusals_long_and_short(ruleset_id: str, blitzers: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    blitzer = next(p for p in orc.positions if p.name in ("Orc Blitzer", "Blitzer"))
    full = {blitzer.id: blitzers, orc.positions[0].id: 16 - blitzers}
    decision = hire_decision(ruleset, orc, blitzer.id, full, None)
    assert decision.codes == ("position_full", "roster_full")
    assert texts(decision) == [
        f"Gouged Eye already has {blitzers} {blitzer.name}s; the roster allows {blitzers}.",
        "Gouged Eye already has 16 players, the most a team may have.",
    ]
    # One of a position: no plural.
    one = hire_decision(ruleset, orc, blitzer.id, {blitzer.id: 1}, None)
    assert one.allowed
    assert [refusal_text(r, short=True) for r in decision.reasons] == ["full", "roster full"]
    poor = hire_decision(ruleset, orc, blitzer.id, {}, blitzer.cost - 1)
    assert [refusal_text(r, short=True) for r in poor.reasons] == ["not enough gold"]
    unknown = hire_decision(ruleset, orc, "gnoblar", {}, None)
    assert texts(unknown) == ["Orc teams have no position 'gnoblar'."]


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020"])
def test_chaos_chosen_take_one_big_guy(ruleset_id: str) -> None:
    # Chaos Chosen: 0-1 Big Guy in all (the roster's footnote), whichever of them.
    ruleset = load_ruleset(ruleset_id)
    chosen = ruleset.team_type("chaos-chosen")
    first, second = [p for p in chosen.positions if "Big Guy" in p.keywords][:2]
    decision = hire_decision(ruleset, chosen, second.id, {first.id: 1}, None)
    assert texts(decision) == ["A Chaos Chosen team may have 1 Big Guy in all."]
    assert refusal_text(decision.reasons[0], short=True) == "Big Guys full"


# ---------------------------------------------------------------------------
# Dedicated Fans after a match


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020"])
def test_fans_after_a_match_bb(ruleset_id: str) -> None:
    # After a win they may rise, after a loss fall; max 7, min 1.
    ruleset = load_ruleset(ruleset_id)
    assert fans_change_decision(ruleset, 1, 6, result="won").allowed
    assert texts(fans_change_decision(ruleset, 1, 7, result="won")) == [
        "Dedicated fans are already at 7."
    ]
    assert fans_change_decision(ruleset, -1, 2, result="lost").allowed
    assert texts(fans_change_decision(ruleset, -1, 1, result="lost")) == [
        "Dedicated fans cannot fall below 1."
    ]
    # A draw moves nothing; every reason is listed, in order.
    assert texts(fans_change_decision(ruleset, 1, 7, result="drawn")) == [
        "Dedicated fans only rise after a win.",
        "Dedicated fans are already at 7.",
    ]
    assert texts(fans_change_decision(ruleset, -1, 3, result="won")) == [
        "Dedicated fans only fall after a loss."
    ]
    assert fans_change_decision(ruleset, 0, 3, result="drawn").allowed
    assert texts(fans_change_decision(ruleset, -2, 5, result="lost")) == [
        "Dedicated fans change by -1, 0 or +1."
    ]


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020"])
def test_fans_of_a_conceding_team(ruleset_id: str) -> None:
    # RULES-FACTS 6b: the conceding team loses D3 Dedicated Fans, never below 1.
    ruleset = load_ruleset(ruleset_id)
    # 5 fans: a D3 of 1, 2 or 3 takes 1, 2 or 3 of them.
    assert concession_fans_changes(ruleset, 5) == (-1, -2, -3)
    assert [concession_fans_change(ruleset, 5, roll) for roll in (1, 2, 3)] == [-1, -2, -3]
    # 3 fans: a 3 would leave 0, so it stops at 1 (-2); 1 fan: nothing to lose.
    assert concession_fans_changes(ruleset, 3) == (-1, -2)
    assert concession_fans_change(ruleset, 3, 3) == -2
    assert concession_fans_changes(ruleset, 1) == (0,)
    assert concession_fans_change(ruleset, 1, 2) == 0
    for change in (-1, -2, -3):
        assert fans_change_decision(ruleset, change, 5, result="lost", conceded=True).allowed
    # A conceding team's fans never rise, however the scoreboard stood; nor fall by 3 from 3.
    assert texts(fans_change_decision(ruleset, 1, 5, result="lost", conceded=True)) == [
        "A team that concedes loses D3 Dedicated Fans, never below 1: change them by -1, -2, -3."
    ]
    assert not fans_change_decision(ruleset, -3, 3, result="lost", conceded=True)


def test_classic_conceding_team_loses_no_fans() -> None:
    # The classic data has no concession loss: the usual -1, 0 or +1 after a loss.
    ruleset = load_ruleset("classic")
    assert concession_fans_changes(ruleset, 5) == ()
    assert fans_change_decision(ruleset, -1, 5, result="lost", conceded=True).allowed
    assert not fans_change_decision(ruleset, -2, 5, result="lost", conceded=True)


@pytest.mark.parametrize("ruleset_id", ["classic", "classic-spend"])
def test_fans_after_a_match_classic(ruleset_id: str) -> None:
    # The classic data has no maximum and starts at 0.
    ruleset = load_ruleset(ruleset_id)
    assert fans_change_decision(ruleset, 1, 20, result="won").allowed
    assert fans_change_decision(ruleset, -1, 1, result="lost").allowed
    assert texts(fans_change_decision(ruleset, -1, 0, result="lost")) == [
        "Dedicated fans cannot fall below 0."
    ]


# ---------------------------------------------------------------------------
# Lasting injuries on a match report


@pytest.mark.parametrize(
    ("ruleset_id", "characteristics"),
    [
        # BB2020/BB2025: a D6 says which characteristic, any of the five.
        ("bb2025", ("ma", "st", "ag", "pa", "av")),
        ("bb2020", ("ma", "st", "ag", "pa", "av")),
        # Classic D68 rows 53-58 each name theirs: MA, MA, AV, AV, AG, ST.
        ("classic", ("ma", "ma", "av", "av", "ag", "st")),
        ("classic-spend", ("ma", "ma", "av", "av", "ag", "st")),
    ],
)
def test_lasting_injury_entries(ruleset_id: str, characteristics: tuple[str, ...]) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert lasting_characteristics(ruleset, "lasting_injury") == characteristics
    assert injury_entry_decision(ruleset, "lasting_injury", characteristics[-1]).allowed
    assert injury_entry_decision(ruleset, None, None).allowed
    assert injury_entry_decision(ruleset, "dead", None).allowed
    refused = {
        (None, "st"): "a lasting injury needs the casualty result too.",
        ("eaten", None): "unknown injury 'eaten'.",
        ("lasting_injury", None): "say which characteristic the lasting injury hits.",
        ("seriously_hurt", "st"): "only a lasting injury reduces a characteristic.",
    }
    for (injury, lasting), text in refused.items():
        assert texts(injury_entry_decision(ruleset, injury, lasting)) == [text]


def test_classic_lasting_injury_cannot_hit_pa() -> None:
    # Classic has no PA characteristic at all; BB2025 may lose it.
    assert not injury_entry_decision(load_ruleset("classic"), "lasting_injury", "pa")
    assert injury_entry_decision(load_ruleset("bb2025"), "lasting_injury", "pa")


def test_an_item() -> None:
    assert [an_item(i) for i in ("reroll", "apothecary", "assistant_coach")] == [
        "a team re-roll",
        "an apothecary",
        "an assistant coach",
    ]
