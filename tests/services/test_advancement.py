"""Spending SPP on advancements, with every number from RULES-FACTS worked out by hand."""

from __future__ import annotations

import random

import pytest

from league.extensions import db
from league.models import Advancement, League, Player, PlayerSkill
from league.services.advancement import (
    AdvancementRequest,
    PendingRoll,
    buy_advancement,
    undo_last_advancement,
)
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.rosters import team_sheet
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user


@pytest.fixture
def coach():
    return make_user("coach")


def _blitzer(coach, ruleset_id: str, position_id: str, *, table_dice: bool = True) -> Player:
    league = make_league(make_user("commish"), ruleset_id, coach)
    league = db.session.get(League, league.id)
    league.table_dice_allowed = table_dice
    db.session.commit()
    lineman = "lineman" if ruleset_id.startswith("classic") else "human-lineman"
    team = make_active_team(coach, league, "human", "Reavers", ((position_id, 1), (lineman, 10)))
    return next(p for p in team.players if p.position_id == position_id)


def _give_spp(player: Player, spp: int) -> None:
    player.spp_earned = spp  # as if earned in matches
    db.session.commit()


def _buy(coach, player: Player, **request) -> Advancement:
    with unit_of_work() as session:
        return buy_advancement(session, coach, player.id, AdvancementRequest(**request))


def test_bb2025_six_advancements_then_refused(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")  # 85,000, G S / A D
    _give_spp(player, 104)
    steps = [
        # (request, SPP spent so far, value so far)
        ({"kind": "chosen_primary", "skill": "Mighty Blow"}, 6, 85_000 + 30_000),  # elite
        (
            {"kind": "random_primary", "category": "G", "dice": (1, 2, 1, 3), "skill": "Fend"},
            6 + 4,
            115_000 + 20_000,
        ),
        ({"kind": "chosen_secondary", "skill": "Dodge"}, 10 + 16, 135_000 + 50_000),  # elite
        (
            {"kind": "random_characteristic", "dice": (7,), "characteristic": "st"},
            26 + 24,
            185_000 + 60_000,
        ),
        ({"kind": "chosen_primary", "skill": "Guard"}, 50 + 20, 245_000 + 30_000),  # elite
        ({"kind": "chosen_secondary", "skill": "Jump Up"}, 70 + 34, 275_000 + 40_000),
    ]
    for request, spent, value in steps:
        _buy(coach, player, **request)
        assert (player.spp_spent, player.value) == (spent, value), request
    assert player.spp_available == 0
    line = next(line for line in team_sheet(player.team).lines if line.player is player)
    assert line.stats["st"] == 4
    assert line.level == "Legend"
    assert line.gained_skills == ("Mighty Blow", "Fend", "Dodge", "Guard", "Jump Up")
    _give_spp(player, 200)
    with pytest.raises(RuleViolation, match="most advancements") as refused:
        _buy(coach, player, kind="chosen_primary", skill="Wrestle")
    assert refused.value.code == "max_advancements"


def test_bb2020_six_advancements_with_reroll_and_fallback(coach) -> None:
    player = _blitzer(coach, "bb2020", "blitzer")  # 85,000, Block, G S / A P
    _give_spp(player, 127)
    with pytest.raises(RuleViolation, match="roll again") as refused:  # (1,1) = Block, held
        _buy(coach, player, kind="random_primary", category="G", dice=(1, 1))
    assert refused.value.code == "skill_not_allowed"
    steps = [
        ({"kind": "random_primary", "category": "G", "dice": (1, 2)}, "Dauntless", 3, 95_000),
        ({"kind": "chosen_primary", "skill": "Mighty Blow"}, "Mighty Blow", 11, 115_000),
        ({"kind": "random_secondary", "category": "A", "dice": (1, 1)}, "Catch", 23, 135_000),
        ({"kind": "chosen_secondary", "skill": "Dodge"}, "Dodge", 45, 175_000),
        (
            {"kind": "random_characteristic", "dice": (16,), "characteristic": "ma"},
            None,
            77,
            195_000,
        ),
        # D16 15 allows ST or AG; the coach takes a secondary skill instead (+40,000).
        (
            {"kind": "random_characteristic", "dice": (15,), "skill": "Sure Feet"},
            "Sure Feet",
            127,
            235_000,
        ),
    ]
    for request, skill, spent, value in steps:
        advancement = _buy(coach, player, **request)
        assert advancement.skill == skill
        assert (player.spp_spent, player.value) == (spent, value), request
    with pytest.raises(RuleViolation) as refused:
        _buy(coach, player, kind="chosen_primary", skill="Wrestle")
    assert refused.value.code == "max_advancements"


def test_classic_spend_costs_and_values(coach) -> None:
    player = _blitzer(coach, "classic-spend", "blitzer")  # 90,000 in LRB6
    _give_spp(player, 3 + 8)
    _buy(coach, player, kind="random_primary", category="G", dice=(2,))  # 2nd General skill
    assert (player.spp_spent, player.value) == (3, 90_000 + 20_000)
    _buy(coach, player, kind="chosen_primary", skill="Tackle")
    assert (player.spp_spent, player.value) == (11, 130_000)


def test_classic_spend_six_advancements_then_refused(coach) -> None:
    # Costs: BB2020 (RULES-FACTS 1a); values: classic (RULES-FACTS 2c), no elite surcharge.
    player = _blitzer(coach, "classic-spend", "blitzer")  # 90,000, Block, G S / A P
    _give_spp(player, 126)
    steps = [
        # (request, skill gained, SPP spent so far, value so far)
        ({"kind": "chosen_primary", "skill": "Tackle"}, "Tackle", 6, 90_000 + 20_000),
        # roll_list: one die over the General list in skills.toml order; 4 = Fend.
        (
            {"kind": "random_primary", "category": "G", "dice": (4,)},
            "Fend",
            6 + 4,
            110_000 + 20_000,
        ),
        ({"kind": "chosen_secondary", "skill": "Dodge"}, "Dodge", 10 + 18, 130_000 + 30_000),
        # Agility list (seed 000): Catch, Defensive, Diving Catch, Diving Tackle, Dodge,
        # Jump Up, Leap: 7 = Leap.
        (
            {"kind": "random_secondary", "category": "A", "dice": (7,)},
            "Leap",
            28 + 16,
            160_000 + 30_000,
        ),
        (
            {"kind": "random_characteristic", "dice": (16,), "characteristic": "st"},
            None,
            44 + 32,
            190_000 + 50_000,
        ),
        # D16 15 allows ST or AG; the coach takes a secondary skill instead (+30,000).
        (
            {"kind": "random_characteristic", "dice": (15,), "skill": "Sure Feet"},
            "Sure Feet",
            76 + 50,
            240_000 + 30_000,
        ),
    ]
    for request, skill, spent, value in steps:
        advancement = _buy(coach, player, **request)
        assert advancement.skill == skill, request
        assert (player.spp_spent, player.value) == (spent, value), request
    assert (player.spp_spent, player.value, player.spp_available) == (126, 270_000, 0)
    line = next(line for line in team_sheet(player.team).lines if line.player is player)
    assert line.stats["st"] == 4
    assert line.level == "Legend"
    assert line.gained_skills == ("Tackle", "Fend", "Dodge", "Leap", "Sure Feet")
    _give_spp(player, 300)
    with pytest.raises(RuleViolation, match="most advancements") as refused:
        _buy(coach, player, kind="chosen_primary", skill="Wrestle")
    assert refused.value.code == "max_advancements"
    assert (player.spp_spent, player.value, len(player.active_advancements)) == (126, 270_000, 6)


def test_refusals_name_the_reason(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")
    _give_spp(player, 6 + 12)
    _buy(coach, player, kind="chosen_primary", skill="Grab")  # 6 SPP; 12 left
    cases = [
        (
            {"kind": "random_characteristic", "dice": (8,)},
            "insufficient_spp",
            "needs 16 SPP and has 12",
        ),
        ({"kind": "chosen_primary", "skill": "Block"}, "already_has_skill", "already has"),
        ({"kind": "chosen_primary", "skill": "Dodge"}, "skill_not_allowed", "no primary access"),
        ({"kind": "chosen_primary", "skill": "Stunty"}, "skill_not_allowed", "traits"),
        ({"kind": "chosen_primary", "skill": "Frenzy"}, "skill_not_allowed", "together with Grab"),
        ({"kind": "random_secondary", "category": "A"}, "skill_not_allowed", "this ruleset"),
    ]
    for request, code, text in cases:
        with pytest.raises(RuleViolation) as refused:
            _buy(coach, player, **request)
        assert refused.value.code == code, request
        assert text in refused.value.message, refused.value.message
    assert (player.spp_spent, len(player.active_advancements)) == (6, 1)
    _buy(coach, player, kind="chosen_secondary", skill="Dodge")  # 2nd advancement: 12 SPP
    assert player.spp_available == 0


def test_skill_with_a_missing_requirement_is_refused(coach) -> None:
    # BB2025 skills.toml: Strong Arm (S) requires_any = ["Throw Team-mate"].
    player = _blitzer(coach, "bb2025", "human-blitzer")  # 85,000, G S / A D
    _give_spp(player, 20)
    with pytest.raises(RuleViolation, match="needs Throw Team-mate first") as refused:
        _buy(coach, player, kind="chosen_primary", skill="Strong Arm")
    assert refused.value.code == "skill_not_allowed"
    assert (player.spp_spent, player.value, player.spp_available) == (0, 85_000, 20)
    assert player.active_advancements == []
    assert db.session.get(PlayerSkill, (player.id, "Strong Arm")) is None
    _buy(coach, player, kind="chosen_primary", skill="Grab")  # same category, no requirement
    assert (player.spp_spent, player.value) == (6, 105_000)


def test_characteristic_caps_and_table(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")  # MA 7
    _give_spp(player, 200)
    _buy(coach, player, kind="random_characteristic", dice=(6,), characteristic="ma")  # AG or MA
    _buy(coach, player, kind="random_characteristic", dice=(6,), characteristic="ma")
    with pytest.raises(RuleViolation) as refused:  # a third MA: twice per characteristic
        _buy(coach, player, kind="random_characteristic", dice=(6,), characteristic="ma")
    assert refused.value.code == "characteristic_capped"
    with pytest.raises(RuleViolation, match="does not allow ST"):  # D8 5 = MA or PA
        _buy(coach, player, kind="random_characteristic", dice=(5,), characteristic="st")
    with pytest.raises(RuleViolation) as refused:
        _buy(coach, player, kind="random_characteristic", dice=(9,), characteristic="ma")
    assert refused.value.code == "invalid_dice"
    line = next(line for line in team_sheet(player.team).lines if line.player is player)
    assert line.stats["ma"] == 9  # 7 + 2, the BB2025 maximum


def test_bb2025_random_skill_needs_a_pick_between_two_rolls(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")
    _give_spp(player, 3)
    with pytest.raises(RuleViolation, match="pick") as refused:  # Dauntless or Fend
        _buy(coach, player, kind="random_primary", category="G", dice=(1, 2, 1, 3))
    assert refused.value.code == "choice_required"
    with pytest.raises(RuleViolation):  # a skill the dice did not give
        _buy(coach, player, kind="random_primary", category="G", dice=(1, 2, 1, 3), skill="Pro")
    advancement = _buy(
        coach, player, kind="random_primary", category="G", dice=(1, 2, 1, 3), skill="Dauntless"
    )
    assert (advancement.skill, advancement.dice, advancement.dice_source) == (
        "Dauntless",
        [1, 2, 1, 3],
        "table",
    )


def test_server_dice_are_kept_until_used(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer", table_dice=False)
    _give_spp(player, 14)
    with pytest.raises(RuleViolation, match="server dice only"):
        _buy(coach, player, kind="random_characteristic", dice=(8,), characteristic="st")
    with unit_of_work() as session:
        pending = buy_advancement(
            session,
            coach,
            player.id,
            AdvancementRequest(kind="random_characteristic"),
            rng=random.Random(3),
        )
    assert isinstance(pending, PendingRoll)
    assert "choose" in pending.message
    rolled = player.pending_roll["dice"]  # stored, although nothing was bought yet
    assert player.spp_spent == 0
    with unit_of_work() as session:  # asking again (another rng) cannot re-roll
        again = buy_advancement(
            session,
            coach,
            player.id,
            AdvancementRequest(kind="random_characteristic"),
            rng=random.Random(99),
        )
    assert list(again.dice) == rolled
    with pytest.raises(Conflict, match="finish that one first"):
        _buy(coach, player, kind="random_primary", category="G")


def test_classic_star_player_rolls(coach) -> None:
    player = _blitzer(coach, "classic", "blitzer")  # G S normal, A P on doubles; 90,000
    _give_spp(player, 5)
    with pytest.raises(RuleViolation) as refused:
        _buy(coach, player, kind="chosen_primary", dice=(3, 4), skill="Tackle")
    assert refused.value.code == "insufficient_spp"  # no roll before 6 SPP
    _give_spp(player, 6)
    with pytest.raises(RuleViolation, match="not a double"):
        _buy(coach, player, kind="chosen_secondary", dice=(3, 4), skill="Dodge")
    _buy(coach, player, kind="chosen_primary", dice=(3, 4), skill="Tackle")
    assert (player.spp_spent, player.value) == (0, 90_000 + 20_000)
    _give_spp(player, 16)
    _buy(coach, player, kind="chosen_secondary", dice=(5, 5), skill="Dodge")  # doubles skill
    assert player.value == 110_000 + 30_000
    _give_spp(player, 31)
    with pytest.raises(RuleViolation, match="does not allow ST"):  # 11: AG only
        _buy(coach, player, kind="random_characteristic", dice=(5, 6), characteristic="st")
    _buy(coach, player, kind="random_characteristic", dice=(6, 6), characteristic="st")
    assert player.value == 140_000 + 50_000
    line = next(line for line in team_sheet(player.team).lines if line.player is player)
    assert (line.stats["st"], line.level) == (4, "Emerging Star")


def test_undo_restores_exact_balances(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")
    _give_spp(player, 20)
    _buy(coach, player, kind="chosen_primary", skill="Mighty Blow")
    _buy(coach, player, kind="chosen_primary", skill="Wrestle")
    assert (player.spp_spent, player.value) == (14, 135_000)
    with unit_of_work() as session:
        undone = undo_last_advancement(session, coach, player.id)
    assert undone.skill == "Wrestle"
    assert undone.undone_at is not None
    assert (player.spp_spent, player.value) == (6, 115_000)
    assert db.session.get(PlayerSkill, (player.id, "Wrestle")) is None
    _buy(coach, player, kind="chosen_primary", skill="Wrestle")  # may be taken again
    assert player.spp_spent == 14
    stranger = make_user("stranger")
    with pytest.raises(Forbidden), unit_of_work() as session:
        undo_last_advancement(session, stranger, player.id)


def _buy_with(coach, player: Player, seed: int, **request) -> Advancement | PendingRoll:
    """Buy with server dice from a random generator seeded with `seed`."""
    with unit_of_work() as session:
        return buy_advancement(
            session, coach, player.id, AdvancementRequest(**request), rng=random.Random(seed)
        )


def _undo(coach, player: Player) -> Advancement:
    with unit_of_work() as session:
        return undo_last_advancement(session, coach, player.id)


# BB2025 characteristic table (D8, RULES-FACTS 3b): one characteristic each result allows.
BB2025_D8_TAKES = {1: "av", 2: "av", 3: "av", 4: "av", 5: "ma", 6: "ma", 7: "st", 8: "st"}


def test_undo_gives_back_the_server_dice_not_a_new_roll(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer", table_dice=False)
    _give_spp(player, 14)
    # Seeds 1..4 give different D8s (the bug: every cycle rolled again).
    assert len({random.Random(seed).randint(1, 8) for seed in (1, 2, 3, 4)}) > 1
    first = _buy_with(coach, player, 1, kind="random_characteristic")
    assert isinstance(first, PendingRoll)
    (die,) = first.dice
    for seed in (2, 3, 4):
        taken = _buy_with(
            coach, player, seed, kind="random_characteristic", characteristic=BB2025_D8_TAKES[die]
        )
        assert taken.dice == [die]
        assert player.spp_spent == 14  # BB2025 first characteristic: 14 SPP (RULES-FACTS 3)
        _undo(coach, player)
        assert player.pending_roll == {
            "kind": "random_characteristic",
            "category": None,
            "dice": [die],
        }
        assert player.spp_spent == 0
    with pytest.raises(Conflict, match="finish that one first"):  # the kept dice come first
        _buy_with(coach, player, 5, kind="random_primary", category="G")


def test_undo_gives_back_a_random_skill_roll(coach) -> None:
    # BB2020 random skills: one 2D6 roll on the category's table (RULES-FACTS 3a).
    player = _blitzer(coach, "bb2020", "blitzer", table_dice=False)
    _give_spp(player, 20)
    first = _buy_with(coach, player, 1, kind="random_primary", category="G")
    assert isinstance(first, Advancement)
    _undo(coach, player)
    assert player.pending_roll == {"kind": "random_primary", "category": "G", "dice": first.dice}
    again = _buy_with(coach, player, 2, kind="random_primary", category="G")
    assert (again.skill, again.dice, again.dice_source) == (first.skill, first.dice, "server")
    assert player.pending_roll is None


def test_undo_gives_back_a_classic_star_player_roll(coach) -> None:
    player = _blitzer(coach, "classic", "blitzer")  # G S normal; 6 SPP = one roll (LRB6)
    _give_spp(player, 6)
    first = _buy_with(coach, player, 1, kind="chosen_primary", skill="Tackle")
    assert isinstance(first, Advancement)
    assert len(first.dice) == 2
    _undo(coach, player)
    assert player.pending_roll["dice"] == first.dice
    # The one Star Player Roll serves whatever the coach takes from it.
    again = _buy_with(coach, player, 2, kind="chosen_primary", skill="Wrestle")
    assert (again.skill, again.dice) == ("Wrestle", first.dice)


def test_the_dice_log_lists_every_roll_and_its_uses(coach) -> None:
    player = _blitzer(coach, "bb2020", "blitzer", table_dice=False)
    _give_spp(player, 20)
    first = _buy_with(coach, player, 1, kind="random_primary", category="G")
    _undo(coach, player)
    again = _buy_with(coach, player, 2, kind="random_primary", category="G")
    (roll,) = player.dice_rolls
    assert (roll.kind, roll.category, roll.dice) == ("random_primary", "G", first.dice)
    assert roll.uses == [first, again]
    assert (first.undone_at is not None, again.undone_at is None) == (True, True)
    assert not roll.waiting


def test_a_refused_request_keeps_the_new_server_dice(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer", table_dice=False)
    _give_spp(player, 14)
    die = random.Random(1).randint(1, 8)
    refused = next(c for c in ("ma", "st", "ag", "pa", "av") if c not in _D8_BANDS[die])
    answer = _buy_with(coach, player, 1, kind="random_characteristic", characteristic=refused)
    # Refusing with a rollback would let the coach ask until the die suits him.
    assert isinstance(answer, PendingRoll)
    assert answer.dice == (die,)
    assert f"does not allow {refused.upper()}" in answer.message
    assert player.pending_roll["dice"] == [die]
    assert player.spp_spent == 0


# The whole BB2025 D8 table (RULES-FACTS 3b).
_D8_BANDS = {
    1: ("av",),
    2: ("av", "pa"),
    3: ("av", "ma", "pa"),
    4: ("av", "ma", "pa"),
    5: ("ma", "pa"),
    6: ("ag", "ma"),
    7: ("ag", "st"),
    8: ("ma", "st", "ag", "pa", "av"),
}


def test_a_kept_random_skill_the_player_now_holds_is_rolled_again(coach) -> None:
    player = _blitzer(coach, "bb2020", "blitzer", table_dice=False)
    _give_spp(player, 20)
    first = _buy_with(coach, player, 1, kind="random_primary", category="G")
    _undo(coach, player)
    _buy(coach, player, kind="chosen_primary", skill=first.skill)  # takes the rolled skill
    again = _buy_with(coach, player, 2, kind="random_primary", category="G")
    assert again.skill not in (first.skill, "Block")  # Block: a starting skill
    kept, new = player.dice_rolls
    assert kept.void_reason == f"{player.name} may no longer take {first.skill}: rolled again"
    assert new.uses == [again]


def test_a_confirmation_sent_twice_takes_one_advancement(coach) -> None:
    player = _blitzer(coach, "bb2025", "human-blitzer")
    _give_spp(player, 12)
    # BB2025: a first chosen primary skill costs 6 SPP and adds 20,000 (Fend is not elite).
    wanted = AdvancementRequest(kind="chosen_primary", skill="Fend")
    with unit_of_work() as session:
        buy_advancement(session, coach, player.id, wanted, number=1)
    with pytest.raises(Resubmitted) as refused, unit_of_work() as session:
        buy_advancement(session, coach, player.id, wanted, number=1)
    assert refused.value.message == (
        "Player 1's 1st advancement is already recorded (the form was sent twice)."
    )
    db.session.expire_all()
    player = db.session.get(Player, player.id)
    assert (len(player.active_advancements), player.spp_spent, player.value) == (1, 6, 105_000)
