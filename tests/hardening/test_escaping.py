"""Hostile text in every free-text field comes back as text: escaped HTML, verbatim JSON, PDF text.

Each payload goes, through the web forms and the API, into the league name, both
team names, player names, the treasury adjustment reason, the house-rules
boxes, a match report draft, an API token's name, a username (refused: usernames allow no such
characters, but the form shows what was typed) and an advancement choice. Then:

- every page that shows them has them escaped: no raw ``<script>`` or ``<img>``,
  and ``{{ 7*7 }}`` printed as typed (never rendered as 49);
- the JSON API returns them verbatim as strings (and error messages too);
- the roster PDF prints them as text and WeasyPrint fetches no file for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from pypdf import PdfReader

from league.extensions import db
from league.models import User
from league.pdf import render
from league.services import access, matches, users
from league.services.unit_of_work import unit_of_work
from tests.hardening import log_in, log_out
from tests.pages import LEAGUE_FORM
from tests.pdf import pdf_text, record_fetches

PASSWORD = "correct horse battery"
API = "/api/v1"
PAYLOADS = {
    "script": "<script>alert(1)</script>",
    "template": "{{ 7*7 }}",
    "img": '<img src="file:///etc/passwd">',
}
#: A report form keeps at most this many characters of each typed value in its draft.
DRAFT_VALUE_LENGTH = 20


@pytest.fixture(autouse=True)
def pdf_cache(app: Flask, tmp_path: Path) -> None:
    app.config["PDF_CACHE_DIR"] = str(tmp_path / "pdf-cache")


@pytest.fixture(params=sorted(PAYLOADS))
def payload(request: pytest.FixtureRequest) -> str:
    return PAYLOADS[request.param]


def assert_no_raw_markup(page: str, where: str) -> None:
    assert "<script>alert(1)" not in page, f"{where}: a raw <script>"
    assert '<img src="file:///etc/passwd"' not in page, f"{where}: a raw <img>"


def assert_shown_escaped(page: str, text: str, where: str) -> None:
    """`text` is on the page as text: escaped where it has markup, and never rendered.

    (`{{ 7*7 }}` has nothing to escape: finding it as typed shows it was not rendered.)
    """
    assert str(escape(text)) in page, f"{where}: {text!r} is not shown"
    if "<" in text:
        assert text not in page, f"{where}: {text!r} is in the page unescaped"
    assert_no_raw_markup(page, where)


@dataclass(frozen=True, slots=True)
class Hostile:
    """A league where every free-text field holds the payload."""

    payload: str
    commissioner: int
    coach: int
    league: int
    home: int
    away: int
    #: The hired Blitzer (named by the payload), 6 SPP from the played match.
    blitzer: int
    #: The lineman hired through the web form (named by the payload).
    lineman: int
    played: int
    drafted: int
    join_token: str


def _make_user(name: str) -> int:
    with unit_of_work() as session:
        return users.create_user(session, users.NewUser(name, PASSWORD)).id


def _token(user_id: int) -> dict[str, str]:
    with unit_of_work() as session:
        token = users.issue_token(session, db.session.get(User, user_id))
    return {"Authorization": f"Bearer {token}"}


def _id_from(location: str, pattern: str) -> int:
    found = re.fullmatch(pattern, location)
    assert found is not None, location
    return int(found.group(1))


def build(client: FlaskClient, payload: str) -> Hostile:
    commissioner, coach = _make_user("commish"), _make_user("coach_b")
    auth = _token(commissioner)
    log_in(client, commissioner)

    response = client.post(
        "/leagues/new",
        data={"name": payload, **LEAGUE_FORM},
    )
    league = _id_from(response.location, r"/leagues/(\d+)")
    response = client.post(f"/leagues/{league}/members", data={"username": "coach_b"})
    assert response.status_code == 302, response.text

    # Teams through the API: active at once, and the JSON answers with the names verbatim.
    teams = []
    for body in (
        {"name": payload, "team_type": "human"},
        {"name": f"{payload} II", "team_type": "orc", "coach": "coach_b"},
    ):
        response = client.post(f"{API}/leagues/{league}/teams", json=body, headers=auth)
        assert response.status_code == 201, response.json
        assert response.json["name"] == body["name"]
        teams.append(response.json["id"])
    home, away = teams

    response = client.post(
        f"{API}/teams/{home}/players",
        json={"position": "human-blitzer", "name": payload},
        headers=auth,
    )
    assert response.status_code == 201, response.json
    assert response.json["name"] == payload
    blitzer = response.json["id"]
    response = client.post(
        f"{API}/teams/{away}/players",
        json={"position": "orc-lineman", "name": f"{payload} orc"},
        headers=auth,
    )
    assert response.status_code == 201, response.json

    # A hire and a treasury adjustment through the web forms; their messages are escaped too.
    response = client.post(
        f"/teams/{home}/hire",
        data={"position_id": "human-lineman", "name": payload},
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert_shown_escaped(response.text, f"Hired #2 \u2068{payload}\u2069.", "the hire message")
    lineman = next(
        p["id"] for p in client.get(f"{API}/teams/{home}").json["players"] if p["number"] == 2
    )
    response = client.post(f"/teams/{home}/treasury", data={"amount": "1000", "reason": payload})
    assert response.status_code == 200
    assert_shown_escaped(response.text, payload, "the treasury adjustment's confirmation")
    response = client.post(
        f"/teams/{home}/treasury",
        data={"amount": "1000", "reason": payload, "confirmed": "yes"},
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "Treasury adjusted." in response.text

    # A played match (the Blitzer scores twice) and a scheduled one with a hostile draft.
    response = client.post(
        f"/leagues/{league}/matches/new", data={"home_team": home, "away_team": away}
    )
    played = _id_from(response.location, r"/matches/(\d+)/report")
    response = client.post(
        f"/matches/{played}/report",
        data={
            "home_score": "2",
            "away_score": "0",
            "home_fans_change": "0",
            "away_fans_change": "0",
            "home_mistake_d6": "6",
            "away_mistake_d6": "6",
            f"p{blitzer}_td": "2",
            "finalise": "Finalise result",
        },
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert_shown_escaped(response.text, payload, "the result message")
    with unit_of_work() as session:
        actor = db.session.get(User, commissioner)
        drafted = matches.schedule_match(session, actor, league, home, away).id
    response = client.post(
        f"/matches/{drafted}/report",
        data={"home_score": payload, "fan_attendance": payload, "save_draft": "Save draft"},
    )
    assert response.status_code == 302, response.text
    with unit_of_work() as session:
        join_token = access.get_league(session, league).join_token
    return Hostile(
        payload,
        commissioner,
        coach,
        league,
        home,
        away,
        blitzer,
        lineman,
        played,
        drafted,
        join_token,
    )


@pytest.fixture
def hostile(client: FlaskClient, payload: str) -> Hostile:
    return build(client, payload)


# ---------------------------------------------------------------------------
# HTML


def test_pages_show_hostile_text_escaped(client: FlaskClient, hostile: Hostile) -> None:
    p = hostile.payload
    league, home, away = hostile.league, hostile.home, hostile.away
    pages = {
        "/": [p],
        f"/leagues/{league}": [p, f"{p} II"],
        f"/leagues/{league}/members": [p],
        f"/leagues/{league}/settings": [p],
        f"/leagues/{league}/fixtures": [p, f"{p} II"],
        f"/leagues/{league}/standings": [p, f"{p} II"],
        f"/leagues/{league}/stats": [p],
        f"/leagues/{league}/rosters": [p],
        f"/teams/{home}": [p],
        f"/teams/{away}": [f"{p} II", f"{p} orc"],
        f"/players/{hostile.blitzer}": [p],
        f"/players/{hostile.blitzer}/advance?kind=chosen_primary": [p],
        f"/players/{hostile.lineman}/fire": [p],
        f"/matches/{hostile.played}": [p, f"{p} II"],
        f"/matches/{hostile.played}/void": [p],
        # The draft keeps the first characters of what was typed, and shows them again.
        f"/matches/{hostile.drafted}/report": [p, f"{p} II", p[:DRAFT_VALUE_LENGTH]],
        "/rules/bb2025": [],
        f"/matches/{hostile.drafted}/pregame": [p, f"{p} II"],
        f"/leagues/{league}/seasons/1": [p],
    }
    for url, shown in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        for text in shown:
            assert_shown_escaped(response.text, text, url)
        assert_no_raw_markup(response.text, url)

    # The join page, seen by somebody who is not a member yet.
    log_in(client, _make_user("loner"))
    response = client.get(f"/leagues/{league}/join/{hostile.join_token}")
    assert response.status_code == 200
    assert_shown_escaped(response.text, p, "the join page")
    log_in(client, hostile.commissioner)

    # The treasury ledger shows the reason.
    ledger = client.get(f"/teams/{home}").text
    ledger = ledger[ledger.index('id="ledger"') :]
    assert_shown_escaped(ledger, p, "the ledger")


def test_forms_show_hostile_input_escaped(client: FlaskClient, hostile: Hostile) -> None:
    """Refused input comes back in the form and in the error messages, escaped."""
    p = hostile.payload
    league = hostile.league
    response = client.post(
        f"/leagues/{league}/settings",
        data={
            "name": p,
            "ruleset_id": "bb2025",
            "starting_treasury": "1000000",
            "points_win": "3",
            "points_draw": "1",
            "points_loss": "0",
            "cost_chosen_primary": p,
            "spp_awards": f"td={p}",
        },
    )
    assert response.status_code == 200
    assert_shown_escaped(response.text, p, "the settings form")
    assert_shown_escaped(response.text, f"td={p}", "the house rules box")

    response = client.post(f"/leagues/{league}/members", data={"username": p})
    assert response.status_code == 200
    assert_shown_escaped(response.text, f"There is no user called {p!r}.", "add a member")

    response = client.post(f"/players/{hostile.blitzer}/edit", data={"name": p, "number": "100"})
    assert response.status_code == 400
    assert_shown_escaped(response.text, p, "the player form")

    response = client.post(
        f"/players/{hostile.blitzer}/advance", data={"kind": "chosen_primary", "choice": p}
    )
    assert response.status_code == 400
    assert_shown_escaped(response.text, p, "the advancement form")

    response = client.post(
        f"/matches/{hostile.drafted}/report",
        data={"home_score": p, "away_score": "0", "finalise": "Finalise result"},
    )
    assert response.status_code == 400
    assert_shown_escaped(response.text, p, "the report form")

    # An API token named by the payload: the profile, the log-out-everywhere page listing
    # it, the revoke page and its message.
    response = client.post("/profile/tokens", data={"name": p})
    assert response.status_code == 200
    assert_shown_escaped(response.text, p, "the new token")
    assert_shown_escaped(client.get("/profile/sessions/end").text, p, "log out everywhere")
    found = re.search(r"/profile/tokens/(\d+)/revoke", response.text)
    assert found is not None
    revoke = found.group(0)
    assert_shown_escaped(client.get(revoke).text, p, "the revoke page")
    response = client.post(revoke, follow_redirects=True)
    assert_shown_escaped(
        response.text, f"The token \u201c{p}\u201d is revoked", "the revoke message"
    )

    # A coach of the other team is refused: the 403 page names the team, escaped.
    log_in(client, hostile.coach)
    response = client.post(
        f"/teams/{hostile.home}/hire", data={"position_id": "human-lineman", "name": "X"}
    )
    assert response.status_code == 403
    assert_shown_escaped(response.text, p, "the 403 page")

    # Usernames take no markup at all; the form shows what was typed.
    log_out(client)
    response = client.post(
        "/register", data={"username": p, "password": PASSWORD, "confirm": PASSWORD}
    )
    assert response.status_code == 200
    assert "3 to 40 letters" in response.text
    assert_shown_escaped(response.text, p, "the register form")
    response = client.post("/login", data={"username": p, "password": PASSWORD})
    assert response.status_code == 200
    assert_shown_escaped(response.text, p, "the login form")


# ---------------------------------------------------------------------------
# JSON


def test_the_api_returns_hostile_text_verbatim(client: FlaskClient, hostile: Hostile) -> None:
    p = hostile.payload
    response = client.get(f"{API}/leagues/{hostile.league}")
    assert response.mimetype == "application/json"
    body = response.json
    assert body["name"] == p
    assert sorted(team["name"] for team in body["teams"]) == sorted([p, f"{p} II"])
    team = client.get(f"{API}/teams/{hostile.home}").json
    assert team["name"] == p
    assert {player["name"] for player in team["players"]} == {p}
    assert client.get(f"{API}/players/{hostile.blitzer}").json["name"] == p
    match = client.get(f"{API}/matches/{hostile.played}").json
    assert [line["name"] for line in match["players"]] == [p]
    standings = client.get(f"{API}/leagues/{hostile.league}/standings").json
    assert {row["team"] for row in standings["rows"]} == {p, f"{p} II"}

    # Refusals quote what was sent, verbatim, in JSON.
    response = client.post(
        f"{API}/leagues/{hostile.league}/teams",
        json={"name": "Plain", "team_type": p},
        headers=_token(hostile.commissioner),
    )
    assert response.status_code == 422
    assert response.mimetype == "application/json"
    assert p in response.json["error"]["message"]


# ---------------------------------------------------------------------------
# PDF


def _squeezed_text(data: bytes) -> str:
    return "".join(" ".join(pdf_text(data)).split())


def test_the_roster_pdf_prints_hostile_text(
    client: FlaskClient, hostile: Hostile, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = record_fetches(monkeypatch)
    squeezed = "".join(hostile.payload.split())
    # The pack is a job (run at once in the tests): build it, then download it.
    assert client.post(f"/leagues/{hostile.league}/rosters/build").status_code == 302
    for url, least in (
        (f"/teams/{hostile.home}/roster.pdf", 3),  # the team, its skills page, the players
        (f"/leagues/{hostile.league}/rosters.pdf", 4),  # both sheets
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.mimetype == "application/pdf"
        text = _squeezed_text(response.data)
        assert text.count(squeezed) >= least, (url, text[:500])
        for page in PdfReader(BytesIO(response.data)).pages:  # no image of any kind
            assert not page["/Resources"].get("/XObject"), url
    assert not [url for url in asked if "passwd" in url or not url.startswith("file:")]
    static = render.static_root().as_uri()
    assert all(url.startswith(static) for url in asked), asked
