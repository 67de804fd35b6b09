"""Who may: the decisions of league.services.access and the reasons they give.

A decision is true when allowed (templates show a control with it), carries its refusal's
sentence otherwise, and `require` turns a refusal into the Forbidden the pages show.
"""

from __future__ import annotations

import pytest

from league.models import User
from league.services import access
from league.services.errors import Forbidden
from tests.factories import make_league, make_team, make_user


def test_a_commissioner_may_a_coach_is_told_why_not(commissioner: User) -> None:
    coach = make_user("anna")
    league = make_league(commissioner, "bb2025", coach)
    allowed = access.may_commission(league, commissioner, "close_season")
    assert allowed
    assert allowed.allowed
    assert allowed.reason == ""
    allowed.require()  # nothing happens
    refused = access.may_commission(league, coach, "close_season")
    assert not refused
    assert refused.reason == "Only a commissioner can close a season."
    with pytest.raises(Forbidden) as raised:
        refused.require()
    assert raised.value.message == "Only a commissioner can close a season."
    # The default task names the league.
    assert access.may_commission(league, coach).reason == (
        "Only a commissioner of bb2025 league can do that."
    )


def test_site_admins_act_as_commissioners(commissioner: User) -> None:
    league = make_league(commissioner, "bb2025")
    admin = make_user("root", admin=True)
    assert access.may_commission(league, admin, "settings")
    assert access.may_draft(league, admin)
    assert not access.may_own(league, admin)


def test_a_team_is_its_coachs_and_the_commissioners(commissioner: User) -> None:
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    team = make_team(anna, league, "human", "Reavers")
    assert access.may_manage_team(team, anna, "hire")
    assert access.may_manage_team(team, commissioner, "hire")
    refused = access.may_manage_team(team, bram, "hire")
    assert refused.reason == "Only Reavers's coach or a commissioner can hire players."
    assert access.may_manage_team(team, bram).reason == (
        "Only Reavers's coach or a commissioner can change this team."
    )


def test_drafting_is_for_members(commissioner: User) -> None:
    league = make_league(commissioner, "bb2025")
    stranger = make_user("stranger")
    assert access.may_draft(league, commissioner)
    assert access.may_draft(league, stranger).reason == (
        "Join bb2025 league before drafting a team there."
    )
    assert access.may_own(league, commissioner)
    assert access.may_own(league, stranger).reason == (
        "Only the owner of bb2025 league can hand it over."
    )
