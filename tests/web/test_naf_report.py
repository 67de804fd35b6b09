"""The NAF results report: the XML document validated against the NAF's schema, its
numbers worked out by hand for two games, coaches without a NAF number left out and
listed before the download, and only the organiser may have it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest
import xmlschema
from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, Match, Team, User
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user
from tests.pages import login, text_of

API = "/api/v1"
SCHEMA = xmlschema.XMLSchema(Path(__file__).parent.parent / "data" / "naf-report.xsd")
N = "{http://www.bloodbowl.net}"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def _naf(user: User, name: str | None, number: int | None) -> None:
    user.naf_name, user.naf_number = name, number
    db.session.commit()


def _play(
    boss: User,
    league: League,
    home: Team,
    away: Team,
    score: tuple[int, int],
    players: tuple[PlayerEvents, ...],
    at: datetime,
) -> Match:
    report = MatchReport(
        home=SideReport(score=score[0], mistake_d6=6),
        away=SideReport(score=score[1], mistake_d6=6),
        players=players,
    )
    with unit_of_work() as session:
        match = matches.record_new_match(session, boss, league.id, home.id, away.id, report)
    match = db.session.get(Match, match.id)
    match.played_at = at
    db.session.commit()
    return match


@pytest.fixture
def event() -> dict[str, object]:
    """A BB2025 event: Alice's Humans (11 linemen), Bob's Orcs (12 linemen), Carl's
    Humans (11 linemen); Alice and Bob have NAF numbers, Carl has none.

    Game 1 (10:30): Humans 2-1 Orcs; an Orc lineman badly hurt and another dead, a Human
    lineman badly hurt. Game 2 (14:00): Orcs 1-1 Humans. Game 3 (16:00): Alice's Humans
    1-0 Carl's Humans (left out: Carl has no NAF number).
    """
    boss, alice, bob, carl = (make_user(name) for name in ("boss", "alice", "bob", "carl"))
    league = make_league(boss, "bb2025", alice, bob, carl)
    humans = make_active_team(alice, league, "human", "Altdorf Alphas", (("human-lineman", 11),))
    orcs = make_active_team(bob, league, "orc", "Gouged Eye", (("orc-lineman", 12),))
    carls = make_active_team(carl, league, "human", "Carl's Crew", (("human-lineman", 11),))
    _naf(boss, "Org & <Co>", 100)
    _naf(alice, "Alice", 1001)
    _naf(bob, "Bob", 1002)
    _naf(carl, None, None)
    h = sorted(humans.players, key=lambda p: p.number)
    o = sorted(orcs.players, key=lambda p: p.number)
    game1 = _play(
        boss,
        league,
        humans,
        orcs,
        (2, 1),
        (
            PlayerEvents(h[0].id, td=2, cas=2),
            PlayerEvents(h[1].id, injury="badly_hurt"),
            PlayerEvents(o[0].id, td=1, cas=1),
            PlayerEvents(o[1].id, injury="badly_hurt"),
            PlayerEvents(o[2].id, injury="dead"),
        ),
        datetime(2026, 11, 28, 10, 30, tzinfo=UTC),
    )
    game2 = _play(
        boss,
        league,
        orcs,
        humans,
        (1, 1),
        (PlayerEvents(o[0].id, td=1), PlayerEvents(h[0].id, td=1)),
        datetime(2026, 11, 28, 14, 0, tzinfo=UTC),
    )
    _play(
        boss,
        league,
        humans,
        carls,
        (1, 0),
        (PlayerEvents(h[0].id, td=1),),
        datetime(2026, 11, 28, 16, 0, tzinfo=UTC),
    )
    db.session.expire_all()
    return {
        "boss": boss,
        "alice": alice,
        "league": league,
        "winnings": [
            (db.session.get(Match, g.id).home.winnings, db.session.get(Match, g.id).away.winnings)
            for g in (game1, game2)
        ],
    }


def _record(element: ET.Element) -> dict[str, str]:
    return {child.tag.removeprefix(N): child.text or "" for child in element}


def test_the_report_validates_and_its_numbers_are_worked_out_by_hand(
    client: FlaskClient, event: dict
) -> None:
    league, boss = event["league"], event["boss"]
    response = client.get(f"{API}/leagues/{league.id}/naf-report.xml", headers=auth(boss))
    assert response.status_code == 200, response.text
    assert response.mimetype == "application/xml"
    SCHEMA.validate(response.data)  # raises on any fault
    root = ET.fromstring(response.data)  # noqa: S314  (our own output, just validated)
    # The organiser's NAF name, escaped by the library on the way out and back.
    assert root.find(f"{N}organiser").text == "Org & <Co>"
    assert b"Org &amp; &lt;Co&gt;" in response.data
    # Carl has no NAF number: not among the coaches.
    coaches = [_record(c) for c in root.find(f"{N}coaches")]
    assert coaches == [
        {"name": "Alice", "number": "1001", "team": "Human"},
        {"name": "Bob", "number": "1002", "team": "Orc"},
    ]
    games = root.findall(f"{N}game")
    # Game 3 (against Carl) is left out: two games.
    assert [g.find(f"{N}timeStamp").text for g in games] == [
        "2026-11-28 10:30",
        "2026-11-28 14:00",
    ]
    (w1_home, w1_away), (w2_home, w2_away) = event["winnings"]
    # Ratings: the team value in thousands. Humans: 11 linemen x 50,000 = 550,000 -> 550
    # (the badly hurt lineman still counts). Orcs: 12 linemen x 50,000, less the dead one:
    # 11 x 50,000 = 550,000 -> 550.
    # Casualties caused are the opponents' injuries: in game 1 the Humans caused an Orc
    # badly hurt and an Orc dead; the Orcs caused a Human badly hurt.
    assert [_record(r) for r in games[0].findall(f"{N}playerRecord")] == [
        {
            "name": "Alice",
            "number": "1001",
            "teamRating": "550",
            "touchDowns": "2",
            "badlyHurt": "1",
            "seriouslyInjured": "0",
            "dead": "1",
            "winnings": str(w1_home),
        },
        {
            "name": "Bob",
            "number": "1002",
            "teamRating": "550",
            "touchDowns": "1",
            "badlyHurt": "1",
            "seriouslyInjured": "0",
            "dead": "0",
            "winnings": str(w1_away),
        },
    ]
    # Game 2: Orcs (home) 1-1 Humans, nobody hurt.
    assert [_record(r) for r in games[1].findall(f"{N}playerRecord")] == [
        {
            "name": "Bob",
            "number": "1002",
            "teamRating": "550",
            "touchDowns": "1",
            "badlyHurt": "0",
            "seriouslyInjured": "0",
            "dead": "0",
            "winnings": str(w2_home),
        },
        {
            "name": "Alice",
            "number": "1001",
            "teamRating": "550",
            "touchDowns": "1",
            "badlyHurt": "0",
            "seriouslyInjured": "0",
            "dead": "0",
            "winnings": str(w2_away),
        },
    ]


def test_only_the_organiser_gets_the_report(client: FlaskClient, event: dict) -> None:
    league = event["league"]
    url = f"{API}/leagues/{league.id}/naf-report.xml"
    refused = client.get(url, headers=auth(event["alice"]))
    assert refused.status_code == 403
    assert refused.json["error"]["code"] == "forbidden"
    assert client.get(url).status_code == 401
    login(client, "alice")
    assert client.get(f"/leagues/{league.id}/naf-report").status_code == 403
    assert client.get(f"/leagues/{league.id}/naf-report.xml").status_code == 403


def test_an_organiser_without_a_naf_name_is_told_first(client: FlaskClient, event: dict) -> None:
    league, boss = event["league"], event["boss"]
    _naf(boss, None, None)
    response = client.get(f"{API}/leagues/{league.id}/naf-report.xml", headers=auth(boss))
    assert response.status_code == 409
    assert response.json["error"]["code"] == "naf_report_incomplete"
    assert "NAF name" in response.json["error"]["message"]
    login(client, "boss")
    page = text_of(client.get(f"/leagues/{league.id}/naf-report").text)
    assert "Add your NAF name to your profile first" in page
    assert "Download the NAF report" not in page


def test_the_page_lists_the_coaches_left_out_before_the_download(
    client: FlaskClient, event: dict
) -> None:
    league = event["league"]
    login(client, "boss")
    home = client.get(f"/leagues/{league.id}").text
    assert f'href="/leagues/{league.id}/naf-report"' in home
    page = client.get(f"/leagues/{league.id}/naf-report")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Left out: coaches without a NAF number" in text
    assert "carl · Carl's Crew" in text
    assert "2 of 3 played" in text
    assert "Org & <Co>" in text  # shown escaped, read back as text
    assert "Org &amp; &lt;Co&gt;" in page.text
    download = client.get(f"/leagues/{league.id}/naf-report.xml?season=1")
    assert download.status_code == 200
    assert download.mimetype == "application/xml"
    assert "attachment" in download.headers["Content-Disposition"]
    SCHEMA.validate(download.data)
