"""Drafting and managing teams through the services, with exact numbers."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from league.extensions import db
from league.models import Player, Team, TreasuryEntry
from league.services import access, teams
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.rosters import team_values
from league.services.unit_of_work import unit_of_work
from tests.factories import buy, hire, make_league, make_team, make_user


@pytest.fixture
def coach():
    return make_user("coach")


@pytest.fixture
def bb2025(coach):
    return make_league(make_user("commish"), "bb2025", coach)


@pytest.fixture
def bb2020(coach):
    return make_league(make_user("commish"), "bb2020", coach)


def _ledger_sum(team: Team) -> int:
    return db.session.scalar(
        select(func.sum(TreasuryEntry.amount)).where(TreasuryEntry.team_id == team.id)
    )


def test_legal_bb2025_human_draft(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    assert team.status == "draft"
    assert team.treasury == 1_000_000
    assert team.dedicated_fans == 1
    hire(coach, team, "human-lineman", 7)
    hire(coach, team, "human-catcher", 2)
    hire(coach, team, "human-thrower", 2)
    hire(coach, team, "human-blitzer", 2)
    buy(coach, team, "reroll", 2)
    buy(coach, team, "apothecary")
    buy(coach, team, "dedicated_fan")
    # 7x50k + 2x75k + 2x75k + 2x85k = 820k players; 2x50k re-rolls; 50k apothecary; 5k fan
    assert team.treasury == 1_000_000 - 820_000 - 100_000 - 50_000 - 5_000
    assert team.treasury == _ledger_sum(team)
    assert team.dedicated_fans == 2
    values = team_values(team)
    assert values.team_value == 820_000 + 100_000 + 50_000
    assert values.current_team_value == values.team_value
    with unit_of_work() as session:
        teams.confirm_draft(session, coach, team.id)
    assert team.status == "active"


def test_legal_bb2020_orc_draft(coach, bb2020) -> None:
    team = make_team(coach, bb2020, "orc", "Gouged Eye")
    hire(coach, team, "orc-lineman", 6)
    hire(coach, team, "thrower")
    hire(coach, team, "blitzer", 4)
    buy(coach, team, "reroll", 3)
    buy(coach, team, "apothecary")
    buy(coach, team, "assistant_coach", 2)
    buy(coach, team, "cheerleader")
    buy(coach, team, "dedicated_fan", 2)
    # 6x50k + 65k + 4x80k = 685k; 3x60k re-rolls; 50k; 2x10k coaches; 10k; 2x10k fans
    assert team.treasury == 1_000_000 - 685_000 - 180_000 - 50_000 - 20_000 - 10_000 - 20_000
    assert team.dedicated_fans == 3
    assert team_values(team).team_value == 685_000 + 180_000 + 50_000 + 20_000 + 10_000


def test_over_budget_is_refused_and_changes_nothing(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "ogre")
    hire(coach, team, "ogre-blocker", 4)  # 560k
    hire(coach, team, "ogre-runt-punter")  # 145k
    hire(coach, team, "gnoblar-lineman", 6)  # 90k -> 205k left
    buy(coach, team, "reroll", 2)  # 140k -> 65k left
    with pytest.raises(RuleViolation, match="has 65,000 and this costs 70,000"):
        buy(coach, team, "reroll")
    with pytest.raises(RuleViolation, match="has 65,000 and this costs 140,000"):
        hire(coach, team, "ogre-blocker")
    db.session.expire_all()
    assert team.treasury == 65_000
    assert team.rerolls == 2
    assert len(access.roster(team)) == 11


def test_seventeenth_player_is_refused(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "ogre")
    hire(coach, team, "gnoblar-lineman", 16)
    with pytest.raises(RuleViolation, match="already has 16 players"):
        hire(coach, team, "gnoblar-lineman")


def test_one_blitzer_more_than_the_roster_allows(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    hire(coach, team, "human-blitzer", 2)
    with pytest.raises(RuleViolation, match="already has 2 Human Blitzers; the roster allows 2"):
        hire(coach, team, "human-blitzer")
    assert team.treasury == 1_000_000 - 170_000


def test_big_guy_cap_across_positions(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "chaos-chosen")
    hire(coach, team, "troll")
    with pytest.raises(RuleViolation, match="1 Big Guy in all"):
        hire(coach, team, "ogre")


def test_duplicate_shirt_number(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    hire(coach, team, "human-lineman")
    with pytest.raises(Conflict, match="Number 1 is taken by Player 1"), unit_of_work() as s:
        teams.hire_player(s, coach, team.id, teams.HirePlayer("human-lineman", "Dup", 1))
    with pytest.raises(RuleViolation, match="1 to 99"), unit_of_work() as s:
        teams.hire_player(s, coach, team.id, teams.HirePlayer("human-lineman", "Big", 100))


def test_apothecary_for_a_team_without_one(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "shambling-undead")
    with pytest.raises(RuleViolation, match="teams cannot hire an apothecary"):
        buy(coach, team, "apothecary")
    assert team.treasury == 1_000_000


def test_reroll_price_doubles_after_the_draft(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    buy(coach, team, "reroll")
    assert team.treasury == 950_000
    hire(coach, team, "human-lineman", 11)
    with unit_of_work() as session:
        teams.confirm_draft(session, coach, team.id)
    buy(coach, team, "reroll")
    assert team.treasury == 950_000 - 550_000 - 100_000
    # Team value counts every re-roll at the roster price.
    assert team_values(team).team_value == 550_000 + 2 * 50_000


def test_cheerleader_cap(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    buy(coach, team, "cheerleader", 6)
    with pytest.raises(RuleViolation, match="at most 6 cheerleaders"):
        buy(coach, team, "cheerleader")


def test_dedicated_fans_cap_at_draft(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    buy(coach, team, "dedicated_fan", 2)
    with pytest.raises(RuleViolation, match="at most 3 dedicated fans"):
        buy(coach, team, "dedicated_fan")


def test_confirm_needs_eleven_players(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    hire(coach, team, "human-lineman", 10)
    with (
        pytest.raises(RuleViolation, match="has 10 players; a team needs at least 11"),
        unit_of_work() as session,
    ):
        teams.confirm_draft(session, coach, team.id)
    assert team.status == "draft"


def test_firing_during_the_draft_refunds_and_afterwards_does_not(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    first, *_ = hire(coach, team, "human-lineman", 11)
    with unit_of_work() as session:
        teams.fire_player(session, coach, first.id)
    assert team.treasury == 1_000_000 - 500_000
    assert db.session.get(Player, first.id) is None
    hire(coach, team, "human-lineman")
    with unit_of_work() as session:
        teams.confirm_draft(session, coach, team.id)
    victim = access.roster(team)[0]
    with unit_of_work() as session:
        teams.fire_player(session, coach, victim.id)
    assert victim.status == "fired"
    assert team.treasury == 450_000
    assert victim not in access.roster(team)
    # The fired player's number is free again; history keeps him.
    hire(coach, team, "human-lineman")
    assert len(access.roster(team)) == 11
    assert len(team.players) == 12


def test_others_cannot_change_a_team(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    stranger = make_user("stranger")
    with pytest.raises(Forbidden):
        hire(stranger, team, "human-lineman")
    commissioner = bb2025.members[0].user
    hire(commissioner, team, "human-lineman")  # a commissioner may


def test_strangers_cannot_draft_in_a_league(bb2025) -> None:
    stranger = make_user("stranger")
    with pytest.raises(Forbidden, match="Join bb2025 league"):
        make_team(stranger, bb2025, "human")


def test_commissioner_treasury_adjustment(coach, bb2025) -> None:
    team = make_team(coach, bb2025, "human")
    commissioner = bb2025.members[0].user
    with unit_of_work() as session:
        teams.adjust_treasury(session, commissioner, team.id, 20_000, "Prize for best name")
    assert team.treasury == 1_020_000 == _ledger_sum(team)
    with pytest.raises(Forbidden), unit_of_work() as session:
        teams.adjust_treasury(session, coach, team.id, 5_000, "I want gold")
    with (
        pytest.raises(RuleViolation, match="has 1,020,000 and this costs 2,000,000"),
        unit_of_work() as session,
    ):
        teams.adjust_treasury(session, commissioner, team.id, -2_000_000, "Fine")


def test_an_adjustment_beyond_the_bound_is_refused_by_the_service(coach, bb2025) -> None:
    """The service holds the bound itself, whatever form or script calls it."""
    team = make_team(coach, bb2025, "human")
    commissioner = bb2025.members[0].user
    for amount in (10_000_001, -10_000_001, 2**31, -(2**63)):
        with (
            pytest.raises(RuleViolation, match="at most 10,000,000 gold either way"),
            unit_of_work() as session,
        ):
            teams.adjust_treasury(session, commissioner, team.id, amount, "Typo")
    db.session.expire_all()
    assert team.treasury == 1_000_000 == _ledger_sum(team)


def test_no_entry_takes_a_treasury_past_its_column(coach, bb2025) -> None:
    """2**31 - 1 is the most a treasury holds (a 32-bit column): a 500 on PostgreSQL before."""
    team = make_team(coach, bb2025, "human")
    commissioner = bb2025.members[0].user
    with unit_of_work() as session:
        teams.adjust_treasury(session, commissioner, team.id, 10_000_000, "Jackpot")
    with unit_of_work() as session:
        # As if after a very long career: 10,000 short of the largest treasury.
        session.get(Team, team.id).treasury = teams.MAX_TREASURY - 10_000
    with (
        pytest.raises(RuleViolation, match="the most a treasury holds") as refused,
        unit_of_work() as session,
    ):
        teams.adjust_treasury(session, commissioner, team.id, 10_001, "One coin too many")
    assert refused.value.code == "treasury_full"
    with unit_of_work() as session:  # up to the last coin is fine
        teams.adjust_treasury(session, commissioner, team.id, 10_000, "Exactly full")
    db.session.expire_all()
    assert db.session.get(Team, team.id).treasury == teams.MAX_TREASURY


@pytest.mark.parametrize(
    "name", ["Two\nLines", "Carriage\rReturn", "Para\u2029graph", "Evil\u202eOrcs", "Iso\u2067x"]
)
def test_names_are_one_line_without_direction_controls(coach, bb2025, name: str) -> None:
    """CR/LF and the bidirectional controls (U+202A-U+202E, U+2066-U+2069) are refused."""
    with pytest.raises(RuleViolation, match="A team name is one line of text") as refused:
        make_team(coach, bb2025, "human", name=name)
    assert (refused.value.code, refused.value.field) == ("invalid_name", "name")
    team = make_team(coach, bb2025, "human")
    with (
        pytest.raises(RuleViolation, match="A player's name is one line of text"),
        unit_of_work() as session,
    ):
        teams.hire_player(session, coach, team.id, teams.HirePlayer("human-lineman", name))
    (player,) = hire(coach, team, "human-lineman")
    with (
        pytest.raises(RuleViolation, match="A player's name is one line of text"),
        unit_of_work() as session,
    ):
        teams.rename_player(session, coach, player.id, name, 5)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Team.id))) == 1
    assert [p.name for p in db.session.scalars(select(Player))] == [player.name]
