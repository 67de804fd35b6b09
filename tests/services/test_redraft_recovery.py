"""The re-draft's rest and recovery rolls and its new hires (BB2025).

RULES-FACTS 5b "Off-season" (BB2025, 1-SRC): each niggling injury heals on a D6
roll of 4+, +1 with an apothecary. Re-hiring: RULES-FACTS 6b "Re-draft".
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from league.extensions import db
from league.models import League, Player, Redraft, Team, TreasuryEntry, User
from league.services import seasons
from league.services.errors import RuleViolation
from league.services.matches import PlayerEvents
from league.services.recompute import check_all
from league.services.redraft import (
    approve_redraft,
    choice_problems,
    redraft_plan,
    submit_redraft,
)
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.services.test_standings import play

LINEMEN = (("human-lineman", 11),)


class Dice(random.Random):
    """Server dice that show the given values, in order."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self._values: Iterator[int] = iter(values)

    def randint(self, a: int, b: int) -> int:
        return next(self._values)


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


@pytest.fixture
def injured(commissioner: User, coach: User) -> tuple[Team, Player]:
    """Season 1 closed: the Reavers' no. 1 took two Serious Injuries (two niggling injuries)."""
    league = make_league(commissioner, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    hurt = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    serious = PlayerEvents(hurt.id, injury="serious_injury")
    play(commissioner, league, reavers, gouged, 0, 1, serious)
    play(commissioner, league, reavers, gouged, 0, 1)  # he misses this one
    play(commissioner, league, reavers, gouged, 0, 1, serious)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    assert db.session.get(Player, hurt.id).niggling_injuries == 2
    return reavers, hurt


def test_server_dice_rolled_once_healed_on_approval(
    injured: tuple[Team, Player], coach: User, commissioner: User
) -> None:
    reavers, hurt = injured
    plan = redraft_plan(db.session, reavers.id)
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, plan.current, rng=Dice(3, 4))
    plan = redraft_plan(db.session, reavers.id)
    # 3 stays, 4 heals: one of two niggling injuries healed.
    assert [(r.player_id, r.dice, r.source, r.healed) for r in plan.recovery] == [
        (hurt.id, (3, 4), "server", 1)
    ]
    # Submitting again (now with an apothecary) rolls nothing new: 3 + 1 and 4 + 1 both heal.
    with_apo = dataclasses.replace(plan.current, apothecary=True)
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, with_apo, rng=Dice(1, 1))
    plan = redraft_plan(db.session, reavers.id)
    assert [(r.dice, r.healed) for r in plan.recovery] == [((3, 4), 2)]
    with unit_of_work() as session:
        approve_redraft(session, commissioner, reavers.id)
    assert db.session.get(Player, hurt.id).niggling_injuries == 0
    assert db.session.get(Redraft, plan.submitted.id).recovery == [
        {"player_id": hurt.id, "dice": [3, 4], "source": "server", "healed": 2}
    ]
    # The recompute from events keeps the healing, the apothecary the re-draft
    # bought, and the end of the game he was to miss (hurt in the last match).
    assert db.session.get(Player, hurt.id).status == "active"
    assert check_all(db.session) == []


def test_table_dice_only_where_the_league_allows(injured: tuple[Team, Player], coach: User) -> None:
    reavers, hurt = injured
    plan = redraft_plan(db.session, reavers.id)
    with (
        pytest.raises(RuleViolation, match="uses server dice only") as refused,
        unit_of_work() as s,
    ):
        submit_redraft(s, coach, reavers.id, plan.current, table_dice={hurt.id: [5, 1]})
    assert refused.value.field == "recovery"
    db.session.get(League, reavers.league_id).table_dice_allowed = True
    db.session.commit()
    with pytest.raises(RuleViolation, match="rolls 2 D6") as refused, unit_of_work() as s:
        submit_redraft(s, coach, reavers.id, plan.current, table_dice={hurt.id: [5]})
    assert db.session.query(Redraft).count() == 0
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, plan.current, table_dice={hurt.id: [5, 1]})
    # 5 heals, 1 does not (no apothecary).
    recovery = redraft_plan(db.session, reavers.id).recovery
    assert [(r.dice, r.source, r.healed) for r in recovery] == [((5, 1), "table", 1)]


def test_new_hires_within_the_budget(
    injured: tuple[Team, Player], coach: User, commissioner: User
) -> None:
    reavers, _ = injured
    plan = redraft_plan(db.session, reavers.id)
    too_many = dataclasses.replace(
        plan.current, hires=("human-blitzer", "human-blitzer", "human-blitzer")
    )
    # BB2025 Humans: 0-2 Blitzers.
    assert choice_problems(plan, too_many) == {
        "hires": "Reavers already has 2 Human Blitzers; the roster allows 2."
    }
    choice = dataclasses.replace(
        plan.current, hires=("human-blitzer", "human-blitzer", "human-thrower")
    )
    # 11 linemen at 50,000, each with Season 1 on the team behind him (+ 20,000 agent's
    # fee each); new: 2 Blitzers x 85,000 + 1 Thrower x 75,000 = 245,000.
    kept = 11 * (50_000 + 20_000)  # 770,000, worked out by hand, not read from the plan
    assert sum(p.cost for p in plan.players) == kept == 770_000
    assert plan.hire_cost(choice) == 245_000
    assert plan.cost(choice) == kept + 245_000
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, choice, rng=Dice(1, 1))
    with unit_of_work() as session:
        approve_redraft(session, commissioner, reavers.id)
    team = db.session.get(Team, reavers.id)
    new = sorted((p.number, p.position_id, p.value) for p in team.players if p.number > 11)
    assert new == [
        (12, "human-blitzer", 85_000),
        (13, "human-blitzer", 85_000),
        (14, "human-thrower", 75_000),
    ]
    rows = db.session.query(TreasuryEntry).filter_by(team_id=team.id, kind="redraft")
    assert [e.amount for e in rows.order_by(TreasuryEntry.id)][1:] == [-kept, -245_000]
    # BB2025 budget: 1,000,000 + treasury 450,000 + 3 fixtures x 20,000, over the cap:
    # 1,300,000; what the kept players and the hires cost leaves the treasury.
    assert team.treasury == 1_300_000 - 770_000 - 245_000 == 285_000
    assert check_all(db.session) == []


def test_bb2020_rolls_nothing_for_niggling_injuries(commissioner: User, coach: User) -> None:
    # RULES-FACTS documents the off-season niggling roll for BB2025 only.
    league = make_league(commissioner, "bb2020", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    hurt = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(
        commissioner, league, reavers, gouged, 0, 1, PlayerEvents(hurt.id, injury="serious_injury")
    )
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    plan = redraft_plan(db.session, reavers.id)
    assert [p.niggling for p in plan.players if p.player_id == hurt.id] == [1]
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, plan.current, rng=Dice())
    with unit_of_work() as session:
        approve_redraft(session, commissioner, reavers.id)
    assert redraft_plan(db.session, reavers.id).recovery == ()
    assert db.session.get(Player, hurt.id).niggling_injuries == 1
    assert check_all(db.session) == []
