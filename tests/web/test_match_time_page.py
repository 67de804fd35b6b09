"""The page where two coaches find a time to play (`/matches/<id>/time`, issue 32)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient

from league.extensions import db
from league.models import Match
from league.services import matches
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import field_errors, flashes, login

HUMANS = (("human-lineman", 11),)


def _fixture() -> int:
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", HUMANS)
    away = make_active_team(bram, league, "human", "Bruisers", HUMANS)
    with unit_of_work() as session:
        return matches.schedule_match(session, boss, league.id, home.id, away.id).id


def _local(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def test_two_coaches_agree_a_time_on_the_page(client: FlaskClient) -> None:
    match_id = _fixture()
    # Ten days ahead at 15:00 in the coaches' time zone, an hour ahead of UTC (the page's
    # script sends getTimezoneOffset(): -60): 14:00 UTC.
    day = (datetime.now(UTC) + timedelta(days=10)).replace(hour=15, minute=0, second=0)
    kickoff = day.replace(hour=14, microsecond=0)
    login(client, "anna")
    page = client.get(f"/matches/{match_id}/time").text
    assert 'name="first"' in page
    assert "No times offered yet." in page
    offered = client.post(
        f"/matches/{match_id}/time/offer",
        data={"side": "home", "first": _local(day), "utc_offset": "-60"},
    )
    assert offered.status_code == 302
    assert flashes(client.get(offered.location).text) == ["Your times are offered."]

    login(client, "bram")
    answer = client.post(
        f"/matches/{match_id}/time/offer",
        data={
            "side": "away",
            "first": _local(day + timedelta(days=1)),
            "second": _local(day),
            "utc_offset": "-60",
        },
    )
    page = client.get(answer.location).text
    assert flashes(page) == ["Both sides offered the same time: accept it to fix the match."]
    assert f'value="{kickoff.isoformat()}"' in page  # the proposed time's accept button

    accepted = client.post(
        f"/matches/{match_id}/time/accept", data={"starts_at": kickoff.isoformat()}
    )
    assert flashes(client.get(accepted.location).text) == ["The match is fixed for this time."]
    match = db.session.get(Match, match_id)
    assert match.kickoff_at is not None
    assert match.kickoff_at.replace(tzinfo=UTC) == kickoff
    assert match.scheduled_for == kickoff.date()
    assert "Kick-off agreed" in client.get(f"/matches/{match_id}").text


def test_a_time_in_the_past_is_refused_next_to_the_field(client: FlaskClient) -> None:
    match_id = _fixture()
    login(client, "anna")
    answer = client.post(
        f"/matches/{match_id}/time/offer",
        data={"side": "home", "first": "2020-01-01T20:00", "utc_offset": "0"},
    )
    assert answer.status_code == 422
    assert field_errors(answer.text, "first") == ["Every time offered must be in the future."]
    assert "No times offered yet." in answer.text


def test_another_coach_cannot_offer_a_sides_times(client: FlaskClient) -> None:
    match_id = _fixture()
    login(client, "bram")
    answer = client.post(
        f"/matches/{match_id}/time/offer",
        data={"side": "home", "first": "2099-01-01T20:00", "utc_offset": "0"},
    )
    assert answer.status_code == 403
    assert "Only Reavers&#39;s coach or a commissioner offers its times." in answer.text
    assert db.session.get(Match, match_id).kickoff_at is None


def test_reloading_a_step_shows_the_page(client: FlaskClient) -> None:
    match_id = _fixture()
    answer = client.get(f"/matches/{match_id}/time/accept")
    assert answer.status_code == 302
    assert answer.location.endswith(f"/matches/{match_id}/time")
