"""The live match log page (/matches/<id>/live) and its form posts (issue 27)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import MatchLogEvent, Player
from league.services import matches
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import login

JSON = {"Accept": "application/json"}
LINEMEN = (("human-lineman", 11),)


@dataclass(frozen=True, slots=True)
class LogMatch:
    """A scheduled match between two Human teams of eleven linemen (boss commissioner,
    anna at home, bram away): its id and each side's player ids by shirt number."""

    match_id: int
    home_team: int
    away_team: int
    home: list[int]
    away: list[int]


def log_match(ruleset_id: str = "bb2025") -> LogMatch:
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, ruleset_id, anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", LINEMEN)
    away = make_active_team(bram, league, "human", "Marauders", LINEMEN)
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, home.id, away.id).id
    ids = {
        team.id: list(
            db.session.scalars(
                select(Player.id).where(Player.team_id == team.id).order_by(Player.number)
            )
        )
        for team in (home, away)
    }
    return LogMatch(match_id, home.id, away.id, ids[home.id], ids[away.id])


def _match() -> tuple[int, int, int]:
    made = log_match()
    return made.match_id, made.home[0], made.away[0]


def _page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="live-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_a_coach_logs_from_the_page_and_the_match_page_shows_the_timeline(
    client: FlaskClient,
) -> None:
    match_id, home_player, away_player = _match()
    login(client, "anna")
    page = client.get(f"/matches/{match_id}/live")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-testid="scoreboard"' in html
    data = _page_data(html)
    assert data["may_log"] == ["home"]
    assert data["sides"]["home"]["players"][0]["id"] == home_player
    # BB2025: stalling is a kind of its own (the winnings' no-stalling bonus).
    assert "stalling" in {k["kind"] for k in data["kinds"]}

    event = {"id": "page-0001", "side": "home", "kind": "td", "player_id": str(home_player),
             "half": "1", "turn": "5"}  # fmt: skip
    sent = client.post(data["post_url"], data=event, headers=JSON)
    assert sent.status_code == 201, sent.json
    again = client.post(data["post_url"], data=event, headers=JSON)
    assert again.status_code == 200
    other_side = client.post(
        data["post_url"], data={**event, "id": "page-0002", "side": "away"}, headers=JSON
    )
    assert other_side.status_code == 403
    malformed = client.post(data["post_url"], data={**event, "turn": "9"}, headers=JSON)
    assert malformed.status_code == 400
    stranger = client.post(
        data["post_url"],
        data={**event, "id": "page-0003", "player_id": str(away_player)},
        headers=JSON,
    )
    assert stranger.status_code == 422
    assert stranger.json["error"]["fields"].keys() == {"player_id"}
    assert db.session.scalar(select(MatchLogEvent.id).where(MatchLogEvent.match_id == match_id))

    # Without the script's Accept header, a post comes back to the page.
    back = client.post(data["confirm_url"], data={"side": "home"})
    assert back.status_code == 302
    assert back.headers["Location"].endswith(f"/matches/{match_id}/live")

    shown = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'data-testid="live-timeline"' in shown
    assert f"/matches/{match_id}/live" in shown


def test_the_page_is_an_installable_app(client: FlaskClient) -> None:
    match_id, _, _ = _match()
    manifest = client.get(f"/matches/{match_id}/live/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.mimetype == "application/manifest+json"
    assert manifest.json["start_url"] == f"/matches/{match_id}/live"
    assert {icon["sizes"] for icon in manifest.json["icons"]} == {"192x192", "512x512"}
    for icon in manifest.json["icons"]:
        with client.get(icon["src"]) as image:
            assert (image.status_code, image.mimetype) == (200, "image/png")
    worker = client.get("/matches/live-sw.js")
    assert worker.status_code == 200
    assert "javascript" in worker.mimetype


def test_outsiders_watch_but_cannot_log(client: FlaskClient) -> None:
    match_id, home_player, _ = _match()
    make_user("nosy")
    login(client, "nosy")
    data = _page_data(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
    assert data["may_log"] == []
    event = {"id": "nosy-0001", "side": "home", "kind": "td", "player_id": str(home_player),
             "half": "1", "turn": "1"}  # fmt: skip
    assert client.post(data["post_url"], data=event, headers=JSON).status_code == 403
