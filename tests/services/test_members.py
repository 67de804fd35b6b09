"""Removing members and the league's owner (issue 33, points 3 and 5).

A removed coach came back through the old join link and, his teams still his, spent their
gold again; a co-commissioner could remove the league's creator.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from league.extensions import db
from league.models import AuditEntry, League, Team, User
from league.services import access, leagues, teams
from league.services.errors import Conflict, Forbidden, NotFound
from league.services.unit_of_work import unit_of_work
from tests.factories import make_league, make_team, make_user


@pytest.fixture
def league(commissioner: User) -> League:
    """commish (owner), anna and bram (coaches); anna coaches Reavers and Hawks."""
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    make_team(anna, league, "human", "Reavers")
    make_team(anna, league, "orc", "Hawks")
    return league


def _user(name: str) -> User:
    user = leagues.find_user(db.session, name)
    assert user is not None
    return user


def _team_id(name: str) -> int:
    return db.session.scalars(select(Team.id).where(Team.name == name)).one()


def _coaches(league_id: int) -> dict[str, tuple[str, bool]]:
    """Each team: (its coach's name, whether it is left without a coach)."""
    db.session.expire_all()
    found = db.session.scalars(select(Team).where(Team.league_id == league_id))
    return {t.name: (t.coach.username, t.coachless_since is not None) for t in found}


def _remove(actor: User, league: League, user: User, hand_teams_to: str | None = None) -> None:
    with unit_of_work() as session:
        leagues.remove_member(session, actor, league.id, user.id, hand_teams_to=hand_teams_to)


def _hand_over(actor: User, league: League, user: User) -> None:
    with unit_of_work() as session:
        leagues.hand_over_ownership(session, actor, league.id, user.id)


def _buy_reroll(actor: User, team_name: str) -> None:
    with unit_of_work() as session:
        teams.buy_team_item(session, actor, _team_id(team_name), "reroll")


def test_the_old_join_link_does_not_bring_a_removed_coach_back(
    commissioner: User, league: League
) -> None:
    old_token = league.join_token
    anna = _user("anna")
    _remove(commissioner, league, anna)
    assert db.session.get(League, league.id).join_token != old_token
    with (
        pytest.raises(Forbidden, match="This join link is not valid any more"),
        unit_of_work() as session,
    ):
        leagues.join_with_token(session, anna, league.id, old_token)
    assert access.membership(db.session.get(League, league.id), anna) is None


def test_teams_left_without_a_coach_stay_so_when_he_joins_again(
    commissioner: User, league: League
) -> None:
    anna = _user("anna")
    _remove(commissioner, league, anna)
    assert _coaches(league.id) == {"Hawks": ("anna", True), "Reavers": ("anna", True)}
    # Back through the new link, anna is a coach again, but not of her former teams.
    with unit_of_work() as session:
        token = db.session.get(League, league.id).join_token
        leagues.join_with_token(session, anna, league.id, token)
    with pytest.raises(Forbidden, match=r"^Only Reavers's coach or a commissioner"):
        _buy_reroll(anna, "Reavers")
    # A commissioner still acts on a team without a coach, and hands it back.
    _buy_reroll(commissioner, "Reavers")
    with unit_of_work() as session:
        teams.reassign_team(session, commissioner, _team_id("Reavers"), "anna")
    _buy_reroll(anna, "Reavers")
    assert _coaches(league.id) == {"Hawks": ("anna", True), "Reavers": ("anna", False)}
    assert db.session.get(Team, _team_id("Reavers")).rerolls == 2


def test_the_teams_go_to_the_member_named(commissioner: User, league: League) -> None:
    anna, bram = _user("anna"), _user("bram")
    _remove(commissioner, league, anna, hand_teams_to=" BRAM ")
    assert _coaches(league.id) == {"Hawks": ("bram", False), "Reavers": ("bram", False)}
    _buy_reroll(bram, "Hawks")
    actions = db.session.scalars(
        select(AuditEntry).where(AuditEntry.actor_id == commissioner.id).order_by(AuditEntry.id)
    ).all()
    assert [(a.action, a.detail) for a in actions[-3:]] == [
        ("team.reassign", {"coach": "bram"}),
        ("team.reassign", {"coach": "bram"}),
        ("league.remove", {"user_id": anna.id}),
    ]


@pytest.mark.parametrize("heir", ["anna", "nobody", "commish2"])
def test_the_teams_go_only_to_another_member(commissioner: User, league: League, heir: str) -> None:
    make_user("commish2")  # registered, not a member
    anna = _user("anna")
    token = league.join_token
    with pytest.raises(NotFound) as refused:
        _remove(commissioner, league, anna, hand_teams_to=heir)
    assert refused.value.field == "hand_teams_to"
    assert refused.value.message == f"'{heir}' is not another member of bb2025 league."
    # Nothing changed: still a member, her teams hers, the same join link.
    db.session.expire_all()
    fresh = db.session.get(League, league.id)
    assert access.membership(fresh, anna) is not None
    assert fresh.join_token == token
    assert _coaches(league.id) == {"Hawks": ("anna", False), "Reavers": ("anna", False)}


def test_nobody_removes_the_owner(commissioner: User, league: League) -> None:
    anna = _user("anna")
    admin = make_user("admin", admin=True)
    with unit_of_work() as session:
        leagues.promote(session, commissioner, league.id, anna.id)
    for actor in (anna, admin, commissioner):
        with pytest.raises(Conflict, match=r"^commish owns bb2025 league and cannot be removed"):
            _remove(actor, league, commissioner)
    db.session.expire_all()
    assert access.role_in(db.session.get(League, league.id), commissioner) == "commissioner"


def test_only_the_owner_hands_the_league_over(commissioner: User, league: League) -> None:
    anna, bram = _user("anna"), _user("bram")
    admin = make_user("admin", admin=True)
    with unit_of_work() as session:
        leagues.promote(session, commissioner, league.id, anna.id)
    for actor in (anna, admin):
        with pytest.raises(Forbidden, match=r"^Only the owner of bb2025 league can hand it over\."):
            _hand_over(actor, league, anna)
    with pytest.raises(Conflict, match=r"^Only a commissioner can own the league: make bram"):
        _hand_over(commissioner, league, bram)
    with pytest.raises(Conflict, match=r"^commish already owns this league\."):
        _hand_over(commissioner, league, commissioner)
    _hand_over(commissioner, league, anna)
    db.session.expire_all()
    assert db.session.get(League, league.id).owner_id == anna.id
    # The former owner is a commissioner like another now: the new owner may remove him.
    _remove(anna, league, commissioner)
    with pytest.raises(Conflict, match=r"^anna owns"):
        _remove(anna, league, anna)
