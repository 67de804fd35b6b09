"""SPP awards per event (RULES-FACTS §4)."""

from __future__ import annotations

import pytest

from league.rules import (
    SPP_EVENTS,
    RulesError,
    SppEvents,
    load_ruleset,
    spp_awards,
    spp_for_events,
)

AWARDS = {
    "bb2020": {"td": 3, "cas": 2, "comp": 1, "int": 2, "deflection": 1,
               "throw_completion": 1, "safe_landing": 0, "mvp": 4},
    "bb2025": {"td": 3, "cas": 2, "comp": 1, "int": 2, "deflection": 0,
               "throw_completion": 1, "safe_landing": 1, "mvp": 4},
    "classic": {"td": 3, "cas": 2, "comp": 1, "int": 2, "deflection": 0,
                "throw_completion": 0, "safe_landing": 0, "mvp": 5},
}  # fmt: skip
AWARDS["classic-spend"] = AWARDS["classic"]

CASES = [
    (ruleset_id, event, spp) for ruleset_id, table in AWARDS.items() for event, spp in table.items()
]


@pytest.mark.parametrize(("ruleset_id", "event", "spp"), CASES)
def test_one_event(ruleset_id: str, event: str, spp: int) -> None:
    ruleset = load_ruleset(ruleset_id)
    assert spp_for_events(ruleset, {event: 1}) == spp
    assert spp_for_events(ruleset, SppEvents(**{event: 2})) == 2 * spp


@pytest.mark.parametrize("ruleset_id", list(AWARDS))
def test_award_table(ruleset_id: str) -> None:
    assert dict(spp_awards(load_ruleset(ruleset_id))) == AWARDS[ruleset_id]


BRUTES = ["black-orc", "dwarf", "khorne", "nurgle", "ogre", "orc"]


@pytest.mark.parametrize("team", BRUTES)
def test_brawlin_brutes_bb2025(team: str) -> None:
    ruleset = load_ruleset("bb2025")
    team_type = ruleset.team_type(team)
    assert team_type.has_special_rule("Brawlin' Brutes")
    assert spp_for_events(ruleset, {"td": 1}, team_type) == 2
    assert spp_for_events(ruleset, {"cas": 1}, team_type) == 3
    assert spp_for_events(ruleset, {"comp": 1, "mvp": 1}, team_type) == 5


@pytest.mark.parametrize("team", ["human", "skaven", "wood-elf"])
def test_other_bb2025_teams_use_the_normal_awards(team: str) -> None:
    ruleset = load_ruleset("bb2025")
    team_type = ruleset.team_type(team)
    assert spp_for_events(ruleset, {"td": 1, "cas": 1}, team_type) == 5


@pytest.mark.parametrize("ruleset_id", ["bb2020", "classic"])
def test_no_brutes_variant_elsewhere(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    orc = ruleset.team_type("orc")
    assert spp_for_events(ruleset, {"td": 1, "cas": 1}, orc) == 5


def test_a_whole_match_line() -> None:
    ruleset = load_ruleset("bb2025")
    events = SppEvents(td=2, cas=1, comp=3, int=1, throw_completion=1, safe_landing=1, mvp=1)
    assert spp_for_events(ruleset, events) == 6 + 2 + 3 + 2 + 1 + 1 + 4
    assert spp_for_events(ruleset, events, ruleset.team_type("orc")) == 4 + 3 + 3 + 2 + 1 + 1 + 4


def test_mvp_may_be_a_bool() -> None:
    ruleset = load_ruleset("bb2020")
    assert spp_for_events(ruleset, {"td": 1, "mvp": True}) == 7
    assert spp_for_events(ruleset, {"mvp": False}) == 0


def test_empty_events() -> None:
    assert spp_for_events(load_ruleset("bb2025"), {}) == 0
    assert set(SppEvents().as_dict()) == set(SPP_EVENTS)


@pytest.mark.parametrize(
    ("events", "match"),
    [({"touchdowns": 1}, "unknown SPP events"), ({"td": -1}, "td must be"), ({"cas": 1.5}, "cas")],
)
def test_bad_events(events: dict[str, object], match: str) -> None:
    with pytest.raises(RulesError, match=match):
        spp_for_events(load_ruleset("bb2025"), events)


@pytest.mark.parametrize(
    ("ruleset_id", "mvps", "extra", "forfeit"),
    [
        ("bb2025", 1, 1, True),
        ("bb2020", 1, 0, False),
        ("classic", 1, 0, False),
        ("classic-spend", 1, 0, False),
    ],
)
def test_mvp_and_concession_rules(ruleset_id, mvps, extra, forfeit) -> None:
    spp = load_ruleset(ruleset_id).spp
    assert spp.mvps_per_team == mvps
    assert spp.extra_mvps_on_concession == extra
    assert spp.concession_forfeits_spp is forfeit
