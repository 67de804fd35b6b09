"""The off-season re-draft of a BB2025 team, from the closed season to the approved roster."""

from __future__ import annotations

import dataclasses

import pytest

from league.extensions import db
from league.models import Player, Team, TreasuryEntry, User
from league.rules.seasons import RedraftBudget, redraft_rules
from league.services import seasons
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import PlayerEvents
from league.services.recompute import check_all
from league.services.redraft import (
    RedraftChoice,
    approve_redraft,
    choice_problems,
    redraft_plan,
    submit_redraft,
)
from league.services.unit_of_work import unit_of_work
from tests.factories import buy, hire, make_active_team, make_league, make_user
from tests.services.test_standings import play

LINEMEN = (("human-lineman", 11),)


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


@pytest.fixture
def season_played(commissioner: User, coach: User) -> tuple[Team, Team, Player]:
    """Season 1 of a BB2025 league, closed: Reavers won once and drew once, and
    played a friendly; their no. 1 took part, the others did not."""
    league = make_league(commissioner, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    buy(coach, reavers, "reroll", 2)
    scorer = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(commissioner, league, reavers, gouged, 1, 0, PlayerEvents(scorer.id, td=1))
    play(commissioner, league, reavers, gouged, 0, 0)
    play(commissioner, league, reavers, gouged, 1, 1, friendly=True)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    return reavers, gouged, scorer


def test_budget_and_prices(season_played: tuple[Team, Team, Player]) -> None:
    reavers, _, scorer = season_played
    plan = redraft_plan(db.session, reavers.id)
    treasury = db.session.get(Team, reavers.id).treasury
    # BB2025: 1,000,000 + treasury + 2 league fixtures x 20,000 + 1 win x 20,000
    # + 1 draw x 10,000; the friendly does not count. Capped at 1,300,000.
    assert plan.budget.fixtures == 40_000
    assert plan.budget.wins == 20_000
    assert plan.budget.draws == 10_000
    assert plan.budget.uncapped == 1_070_000 + treasury
    assert plan.budget.total == 1_300_000
    costs = {p.player_id: (p.seasons_played, p.cost) for p in plan.players}
    # BB2025 re-draft: a player's value plus the agent's fee of 20,000 for each season he
    # has been on the team. The scorer and the ten linemen who did nothing of note were all
    # on the roster when Reavers played Season 1: 50,000 + 20,000 each.
    assert costs.pop(scorer.id) == (1, 70_000)
    assert set(costs.values()) == {(1, 70_000)}
    assert plan.prices.reroll == 50_000  # the Human roster price, not doubled


def test_submit_and_approve(
    season_played: tuple[Team, Team, Player], coach: User, commissioner: User
) -> None:
    reavers, _, _ = season_played
    plan = redraft_plan(db.session, reavers.id)
    dropped = max(plan.players, key=lambda p: p.number).player_id
    keep = frozenset(p.player_id for p in plan.players) - {dropped}
    choice = RedraftChoice(keep, rerolls=2, assistant_coaches=0, cheerleaders=0, apothecary=False)
    # 10 players x (50,000 + one season's agent's fee of 20,000) + 2 re-rolls x 50,000.
    assert plan.cost(choice) == 800_000
    treasury_before = db.session.get(Team, reavers.id).treasury
    with unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, choice)
    # Nothing changes until a commissioner approves.
    assert db.session.get(Team, reavers.id).treasury == treasury_before
    with pytest.raises(Forbidden), unit_of_work() as session:
        approve_redraft(session, coach, reavers.id)
    with unit_of_work() as session:
        approve_redraft(session, commissioner, reavers.id)
    team = db.session.get(Team, reavers.id)
    assert team.treasury == 1_300_000 - 800_000
    assert db.session.get(Player, dropped).status == "retired"
    assert sorted(p.id for p in team.players if p.status == "active") == sorted(keep)
    entries = db.session.query(TreasuryEntry).filter_by(team_id=team.id, kind="redraft")
    lost = 1_070_000 + treasury_before - 1_300_000
    assert [(e.amount, e.description) for e in entries.order_by(TreasuryEntry.id)] == [
        (
            1_300_000 - treasury_before,
            f"Re-draft budget after Season 1: 1,300,000, {lost:,} lost to the cap",
        ),
        (-800_000, "Re-draft after Season 1: players, staff and re-rolls kept"),
    ]
    assert check_all(db.session) == []
    with pytest.raises(Conflict), unit_of_work() as session:
        approve_redraft(session, commissioner, reavers.id)


def test_refusals_name_the_field(season_played: tuple[Team, Team, Player], coach: User) -> None:
    reavers, gouged, _ = season_played
    plan = redraft_plan(db.session, reavers.id)
    stranger = next(iter(redraft_plan(db.session, gouged.id).current.keep))
    too_many = dataclasses.replace(plan.current, rerolls=9)
    assert choice_problems(plan, too_many) == {"rerolls": "From 0 to 8 team re-rolls."}
    assert "keep" in choice_problems(plan, dataclasses.replace(plan.current, keep={stranger}))
    # Keeping everything: 11 x (50,000 + 20,000) + 2 re-rolls x 50,000 = 870,000.
    poor = dataclasses.replace(plan, budget=RedraftBudget(100_000, 0, 0, 0, 0, None))
    assert choice_problems(poor, plan.current) == {
        "keep": "This costs 870,000, over the budget of 100,000."
    }
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        submit_redraft(session, coach, reavers.id, too_many)
    assert refused.value.field == "rerolls"


def test_the_agent_counts_the_seasons_on_the_roster_when_the_team_played(
    commissioner: User, coach: User
) -> None:
    """BB2025 re-draft: "20,000 for each season the player has been on the team" (the
    agent_fee_per_season of the ruleset data). Two seasons on the roster, one of them
    without a single event, is two fees; a player hired after the team's last match of a
    season was not on the team when it played, and pays no fee for it."""
    league = make_league(commissioner, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    veteran = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(commissioner, league, reavers, gouged, 0, 0)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    play(commissioner, league, reavers, gouged, 1, 0, PlayerEvents(veteran.id, td=1))
    (late,) = hire(coach, reavers, "human-lineman")
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 2)
    plan = redraft_plan(db.session, reavers.id)
    fees = {p.player_id: (p.seasons_played, p.cost) for p in plan.players}
    assert redraft_rules(plan.ruleset).agent_fee_per_season == 20_000
    # 50,000 + 2 x 20,000: on the roster for both seasons, an event in the second only.
    assert fees.pop(veteran.id) == (2, 90_000)
    assert fees.pop(late.id) == (0, 50_000)
    assert set(fees.values()) == {(2, 90_000)}


def test_editions_without_a_redraft_refuse(commissioner: User, coach: User) -> None:
    league = make_league(commissioner, "classic", coach)
    team = make_active_team(coach, league, "human", "Reavers", (("lineman", 11),))
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    with pytest.raises(RuleViolation, match="no off-season re-draft"):
        redraft_plan(db.session, team.id)
