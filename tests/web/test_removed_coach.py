"""A coach removed from a league loses control of their team; the team stays (issue 14).

The commissioner hands the team to another member of the league on its page. Left without
a coach, the team stays out of its former coach's hands when he joins again (issue 33).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from flask.testing import FlaskClient

from league.extensions import db
from league.models import Match, Team
from league.pdf.context import roster_context
from league.services import access, leagues, matches, teams, webhooks
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from league.services.webhooks.payloads import team_payload
from tests.factories import hire, make_league, make_user
from tests.pages import field_errors, flashes, login


@dataclass(frozen=True, slots=True)
class World:
    team_id: int
    player_id: int
    match_id: int
    coach_token: str


@pytest.fixture
def world(app) -> World:
    """The coach's active Human team (one Blitzer) and a scheduled match; then the coach is
    removed from the league."""
    commissioner = make_user("commish")
    coach = make_user("coach")
    heir = make_user("heir")
    rival = make_user("rival")
    league = make_league(commissioner, "bb2025", coach, heir, rival)
    with unit_of_work() as session:
        team, opponent = (
            teams.create_team(session, owner, teams.NewTeam(league.id, name, "human", active=True))
            for owner, name in ((coach, "Reavers"), (rival, "Rivals"))
        )
    hire(coach, team, "human-blitzer")
    with unit_of_work() as session:
        match = matches.schedule_match(session, commissioner, league.id, team.id, opponent.id)
        token = issue_token(session, coach)
        leagues.remove_member(session, commissioner, league.id, coach.id)
    player_id = access.roster(db.session.get(Team, team.id))[0].id
    return World(team.id, player_id, match.id, token)


def _join_again(world: World) -> None:
    """The removed coach joins again through the league's (new) join link."""
    with unit_of_work() as session:
        league = db.session.get(Team, world.team_id).league
        coach = leagues.find_user(session, "coach")
        assert coach is not None
        leagues.join_with_token(session, coach, league.id, league.join_token)


@pytest.fixture(params=["removed", "joined again"])
def either(request: pytest.FixtureRequest, world: World) -> World:
    """The world as it is, and after the removed coach joined again through the join link
    (as he could through the old link before issue 33)."""
    if request.param == "joined again":
        _join_again(world)
    return world


def _api(client: FlaskClient, world: World, path: str, body: dict[str, object]):
    return client.post(
        f"/api/v1{path}", json=body, headers={"Authorization": f"Bearer {world.coach_token}"}
    )


def test_the_api_refuses_every_change_of_a_removed_coach(client: FlaskClient, either: World):
    world = either
    hired = _api(
        client,
        world,
        f"/teams/{world.team_id}/players",
        {"position": "human-lineman", "name": "Late Hire"},
    )
    buy = _api(client, world, f"/teams/{world.team_id}/purchases", {"item": "reroll"})
    advance = _api(
        client,
        world,
        f"/players/{world.player_id}/advancements",
        {"kind": "chosen_primary", "skill": "Dauntless"},
    )
    pregame = client.put(
        f"/api/v1/matches/{world.match_id}/pregame/home",
        json={},
        headers={"Authorization": f"Bearer {world.coach_token}"},
    )
    assert [s.status_code for s in (hired, buy, advance, pregame)] == [403, 403, 403, 403]
    assert buy.json["error"]["message"] == (
        "Only Reavers's coach or a commissioner can change this team."
    )
    team = db.session.get(Team, world.team_id)
    assert (len(access.roster(team)), team.rerolls) == (1, 0)


def test_the_pages_refuse_every_change_of_a_removed_coach(client: FlaskClient, either: World):
    world = either
    login(client, "coach")
    hired = client.post(
        f"/teams/{world.team_id}/hire", data={"position_id": "human-lineman", "name": "Late"}
    )
    buy = client.post(f"/teams/{world.team_id}/buy", data={"item": "reroll"})
    draft = client.post(
        f"/matches/{world.match_id}/report",
        data={"home_score": "1", "away_score": "0", "save_draft": "Save draft"},
    )
    assert [hired.status_code, buy.status_code, draft.status_code] == [403, 403, 403]
    assert db.session.get(Match, world.match_id).state == "scheduled"
    page = client.get(f"/teams/{world.team_id}").text
    assert f'action="/teams/{world.team_id}/hire"' not in page


def test_a_commissioner_hands_the_team_to_another_member(client: FlaskClient, world: World):
    login(client, "commish")
    assert f'href="/teams/{world.team_id}/coach"' in client.get(f"/teams/{world.team_id}").text
    page = client.get(f"/teams/{world.team_id}/coach").text
    assert '<option value="heir">heir</option>' in page
    assert '<option value="coach">' not in page  # removed: not a member any more
    answer = client.post(f"/teams/{world.team_id}/coach", data={"coach": "heir"})
    assert answer.status_code == 302
    assert flashes(client.get(answer.location).text) == ["Reavers is now coached by heir."]

    login(client, "heir")
    bought = client.post(f"/teams/{world.team_id}/buy", data={"item": "reroll"})
    assert bought.status_code == 302
    assert db.session.get(Team, world.team_id).rerolls == 1


def test_the_new_coach_must_be_a_member(client: FlaskClient, world: World):
    make_user("stranger")
    login(client, "commish")
    answer = client.post(f"/teams/{world.team_id}/coach", data={"coach": "coach"})
    assert answer.status_code == 400
    assert field_errors(answer.text, "coach") == ["Not a valid choice."]
    commissioner = leagues.find_user(db.session, "commish")
    with pytest.raises(teams.NotFound, match=r"^'stranger' is not a member of bb2025 league\.$"):
        teams.reassign_team(db.session, commissioner, world.team_id, "stranger")


def test_only_a_commissioner_hands_a_team_over(client: FlaskClient, world: World):
    login(client, "heir")
    answer = client.post(f"/teams/{world.team_id}/coach", data={"coach": "heir"})
    assert answer.status_code == 403
    assert db.session.get(Team, world.team_id).coach.username == "coach"


def test_a_team_without_a_coach_may_go_back_to_its_former_coach(client: FlaskClient, world: World):
    login(client, "commish")
    assert (
        "<dd>nobody (<bdi>coach</bdi> left the league)</dd>"
        in client.get(f"/teams/{world.team_id}").text
    )
    page = client.get(f"/teams/{world.team_id}/coach").text
    assert "Nobody coaches it since coach left the league" in page
    assert '<option value="coach">' not in page  # not a member now
    _join_again(world)
    assert (
        '<option value="coach">coach</option>' in client.get(f"/teams/{world.team_id}/coach").text
    )
    answer = client.post(f"/teams/{world.team_id}/coach", data={"coach": "coach"})
    assert answer.status_code == 302
    assert flashes(client.get(answer.location).text) == ["Reavers is now coached by coach."]
    assert db.session.get(Team, world.team_id).coachless_since is None


def test_sheets_and_webhooks_name_no_coach_for_a_team_left_without_one(world: World):
    """The team kept without a coach is named as the team page names it on its roster
    sheet, and its webhook payload names no coach (its former coach left the league)."""
    team = db.session.get(Team, world.team_id)
    context = roster_context(
        team, url="https://x.example/t", printed_on=date(2026, 11, 28), paper="a4"
    )
    assert context.coach == "nobody (coach left the league)"
    payload = team_payload(team)["team"]
    assert payload["coach"] is None
    envelope = {
        "event": "team.redrafted",
        "league": {"name": "Old World"},
        "occurred_at": "2026-11-28T12:00:00+00:00",
        "data": {"team": {**payload, "team_type": "Human"}},
    }
    [embed] = webhooks.discord_message(envelope)["embeds"]
    assert embed["description"] == "Human \u00b7 no coach"
