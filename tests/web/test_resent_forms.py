"""A form that creates or spends, sent twice, acts once (issue 14).

Each form carries the one-time token the page gave it; the second copy changes
nothing and the page says what the first one did.
"""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import ApiToken, Match, Team, TreasuryEntry
from league.services import access, teams
from league.services.unit_of_work import unit_of_work
from tests.factories import make_league, make_user
from tests.pages import flashes, login

TWICE = "(The form was sent twice; it counted once.)"


@pytest.fixture
def team_id(app) -> int:
    """An active Human team (1,000,000 gold) of the coach, in the commissioner's league."""
    commissioner = make_user("commish")
    coach = make_user("coach")
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        made = [
            teams.create_team(session, owner, teams.NewTeam(league.id, name, "human", active=True))
            for owner, name in ((coach, "Reavers"), (commissioner, "Rivals"))
        ]
    return made[0].id


def tokens_in(page: str, action: str | None = None) -> list[str]:
    """The one-time tokens of the forms posting to `action` (None: to the page itself)."""
    target = rf'[^>]*action="{re.escape(action)}"' if action else r"(?![^>]*action=)"
    forms = re.findall(rf"<form{target}[^>]*>(.*?)</form>", page, re.S)
    found = [re.search(r'name="token"[^>]*value="([^"]+)"', form) for form in forms]
    assert forms, action
    assert all(found), action
    return [match.group(1) for match in found if match]


def send_twice(client: FlaskClient, url: str, data: dict[str, str]) -> list[str]:
    """POST the same form twice; the messages each answer's next page shows."""
    messages = []
    for _ in range(2):
        answer = client.post(url, data=data)
        assert answer.status_code == 302, answer.text
        messages.append(flashes(client.get(answer.location).text))
    return messages


def test_a_hire_form_sent_twice_hires_once(client: FlaskClient, team_id: int) -> None:
    login(client, "coach")
    url = f"/teams/{team_id}/hire"
    token = tokens_in(client.get(f"/teams/{team_id}").text, url)[0]
    data = {"position_id": "human-lineman", "name": "Lars", "number": "3", "token": token}
    first, second = send_twice(client, url, data)
    # The typed name is isolated (FSI ... PDI) from the number and the brackets.
    assert first == ["Hired #3 \u2068Lars\u2069."]
    assert second == [f"Hired #3 \u2068Lars\u2069 (Human Lineman). {TWICE}"]
    team = db.session.get(Team, team_id)
    # BB2025 Human Lineman: 50,000, paid once.
    assert ([p.name for p in access.roster(team)], team.treasury) == (["Lars"], 950_000)


def test_a_buy_form_sent_twice_buys_once(client: FlaskClient, team_id: int) -> None:
    login(client, "coach")
    url = f"/teams/{team_id}/buy"
    token = tokens_in(client.get(f"/teams/{team_id}").text, url)[0]
    first, second = send_twice(client, url, {"item": "reroll", "token": token})
    assert first == ["Bought a team re-roll."]
    # BB2025: a Human re-roll costs 50,000, doubled after the draft.
    assert second == [f"Bought a team re-roll for 100,000. {TWICE}"]
    # Another button of the same page (same token, another item) is not a repeat.
    client.post(url, data={"item": "cheerleader", "token": token})
    team = db.session.get(Team, team_id)
    assert (team.rerolls, team.cheerleaders) == (1, 1)


def test_a_treasury_form_sent_twice_adjusts_once(client: FlaskClient, team_id: int) -> None:
    login(client, "commish")
    url = f"/teams/{team_id}/treasury"
    token = tokens_in(client.get(f"/teams/{team_id}").text, url)[0]
    first, second = send_twice(
        client, url, {"amount": "20000", "reason": "Prize", "token": token, "confirmed": "yes"}
    )
    assert first == ["Treasury adjusted."]
    assert second == [f"Reavers's treasury changed by +20,000: Prize. {TWICE}"]
    adjustments = db.session.scalar(
        select(func.count()).where(
            TreasuryEntry.team_id == team_id, TreasuryEntry.kind == "adjustment"
        )
    )
    assert (adjustments, db.session.get(Team, team_id).treasury) == (1, 1_020_000)


@pytest.mark.parametrize("form", ["matches/new", "fixtures/new"])
def test_a_scheduling_form_sent_twice_schedules_once(
    client: FlaskClient, team_id: int, form: str
) -> None:
    login(client, "commish")
    league_id = db.session.get(Team, team_id).league_id
    url = f"/leagues/{league_id}/{form}"
    token = tokens_in(client.get(url).text)[0]
    rivals = team_id + 1
    data = {"home_team": str(team_id), "away_team": str(rivals), "token": token}
    assert send_twice(client, url, data)[1] == [f"Scheduled Reavers v Rivals. {TWICE}"]
    assert db.session.scalar(select(func.count()).select_from(Match)) == 1


def test_a_token_form_sent_twice_creates_one_token(client: FlaskClient, team_id: int) -> None:
    login(client, "coach")
    token = tokens_in(client.get("/profile").text, "/profile/tokens")[0]
    client.post("/profile/tokens", data={"name": "My bot", "token": token})
    again = client.post("/profile/tokens", data={"name": "My bot", "token": token})
    assert again.status_code == 302
    assert flashes(client.get(again.location).text) == [
        f"The token “My bot” was created; it was shown once, on that page. {TWICE}"
    ]
    assert db.session.scalar(select(func.count()).select_from(ApiToken)) == 1


def test_a_give_back_form_sent_twice_gives_back_once(client: FlaskClient, team_id: int) -> None:
    """Two re-rolls bought in the draft; the give-back form resent returns only one."""
    with unit_of_work() as session:
        team = session.get(Team, team_id)
        draft = teams.create_team(
            session, team.coach, teams.NewTeam(team.league_id, "Draftees", "human")
        )
        for _ in range(2):
            teams.buy_team_item(session, team.coach, draft.id, "reroll")
        draft_id = draft.id
    login(client, "coach")
    url = f"/teams/{draft_id}/give-back"
    token = tokens_in(client.get(f"/teams/{draft_id}").text, url)[0]
    data = {"item": "reroll", "token": token, "confirmed": "yes"}
    first, second = send_twice(client, url, data)
    assert first == ["Gave back a team re-roll."]
    assert second == [f"Gave back a team re-roll. {TWICE}"]
    draft = db.session.get(Team, draft_id)
    # BB2025: a Human re-roll costs 50,000 during the draft; one of the two comes back.
    assert (draft.rerolls, draft.treasury) == (1, 1_000_000 - 2 * 50_000 + 50_000)
