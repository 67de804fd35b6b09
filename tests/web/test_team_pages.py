"""Team pages through the test client: the draft, hiring and firing, staff, treasury, players."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from league.extensions import db
from league.models import League, Player, Team, TreasuryEntry, User
from league.services.teams import MAX_TREASURY
from tests.factories import buy, hire, make_league, make_team, make_user
from tests.pages import field_errors, flashes, input_value, login, text_of

TIMES = "\u00d7"  # "2 x 50,000" re-rolls, as the page prints it
EN_DASH = "\u2013"
ARROW = "\u2192"

# ---------------------------------------------------------------------------
# Helpers: read the page the way a person does


def logout(client: FlaskClient) -> None:
    client.post("/logout")
    client.get("/")


def fact(page: str, label: str) -> str:
    """A value of the facts box at the top of the team page."""
    match = re.search(rf"<dt>{re.escape(label)}</dt><dd[^>]*>(.*?)</dd>", page, re.S)
    assert match is not None, label
    return text_of(match.group(1))


def _rows(fragment: str) -> list[list[str]]:
    body = fragment[fragment.index("<tbody>") : fragment.index("</tbody>")]
    return [
        [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def section(page: str, section_id: str) -> str:
    start = page.index(f'id="{section_id}"')
    return page[start : page.index("</section>", start)]


def roster(page: str) -> list[list[str]]:
    """Rows of the roster on the team page: #, name, position, stats..., value, status."""
    block = section(page, "roster")
    if '<table class="roster">' not in block:
        return []
    return _rows(block.split('<details class="former">')[0])


def former(page: str) -> list[list[str]]:
    block = section(page, "roster")
    if '<details class="former">' not in block:
        return []
    return _rows(block.split('<details class="former">')[1])


def roster_summary(page: str) -> list[tuple[str, str, str, str]]:
    """(number, name, position, value) for each player on the roster."""
    return [(row[0], row[1], row[2], row[-3]) for row in roster(page)]


def hire_slots(page: str) -> dict[str, list[str]]:
    """Draft table: position name -> its cells (cost, stats..., skills, taken, hire cell)."""
    block = section(page, "hire")
    return {row[0]: row[1:] for row in _rows(block)}


def item_rows(page: str) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in _rows(section(page, "staff"))}


def ledger(page: str) -> list[tuple[str, str]]:
    return [(row[1], row[2]) for row in _rows(section(page, "ledger"))]


def new_team(client: FlaskClient, league_id: int, name: str, team_type_id: str) -> int:
    response = client.post(
        f"/leagues/{league_id}/teams/new", data={"name": name, "team_type_id": team_type_id}
    )
    assert response.status_code == 302, response.text
    match = re.fullmatch(r"/teams/(\d+)", response.headers["Location"])
    assert match is not None
    return int(match.group(1))


def hire_post(client: FlaskClient, team_id: int, position_id: str, name: str, number: int):
    return client.post(
        f"/teams/{team_id}/hire",
        data={"position_id": position_id, "name": name, "number": str(number)},
    )


def hire_ok(client: FlaskClient, team_id: int, position_id: str, name: str, number: int) -> None:
    response = hire_post(client, team_id, position_id, name, number)
    assert response.status_code == 302, flashes(response.text) or response.text
    assert response.headers["Location"] == f"/teams/{team_id}#hire"


def post_ok(client: FlaskClient, path: str, **data: str) -> str:
    """POST a button form, follow the redirect, return the page."""
    response = client.post(path, data=data)
    assert response.status_code == 302, response.text
    return client.get(response.headers["Location"]).text


def team_page(client: FlaskClient, team_id: int) -> str:
    response = client.get(f"/teams/{team_id}")
    assert response.status_code == 200
    return response.text


def snapshot(team_id: int) -> tuple:
    """Everything a refused action must leave alone."""
    db.session.expire_all()
    team = db.session.get(Team, team_id)
    assert team is not None
    players = db.session.scalars(
        select(Player).where(Player.team_id == team_id).order_by(Player.id)
    ).all()
    entries = db.session.scalar(
        select(func.count()).select_from(TreasuryEntry).where(TreasuryEntry.team_id == team_id)
    )
    return (
        team.status,
        team.treasury,
        team.rerolls,
        team.apothecary,
        team.assistant_coaches,
        team.cheerleaders,
        team.dedicated_fans,
        [(p.name, p.number, p.status, p.position_id) for p in players],
        entries,
    )


@pytest.fixture
def bb2025(client: FlaskClient) -> League:
    """A BB2025 league run by `comm` with `coach` as a member; `coach` is logged in."""
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    make_user("stranger")
    login(client, "coach")
    return league


def _user(username: str) -> User:
    user = db.session.scalar(select(User).where(User.username == username))
    assert user is not None
    return user


def drafted_team(league: League, players: int = 11) -> Team:
    """A Human draft team of `coach` with 1 blitzer and linemen, through the services."""
    coach = _user("coach")
    team = make_team(coach, league, "human", "Reikland Reavers")
    hire(coach, team, "human-blitzer")
    hire(coach, team, "human-lineman", players - 1)
    return team


def active_team(client: FlaskClient, league: League) -> Team:
    team = drafted_team(league)
    post_ok(client, f"/teams/{team.id}/confirm", confirmed="yes")
    return team


# ---------------------------------------------------------------------------
# Drafting through the pages


def test_new_team_page(client: FlaskClient, bb2025: League) -> None:
    page = client.get(f"/leagues/{bb2025.id}/teams/new").text
    assert f"You start with 1,000,000 gold and hire 11{EN_DASH}16 players on the next page." in page
    assert '<option value="human">Human</option>' in page
    assert 'id="coach"' not in page  # only commissioners draft for someone else

    response = client.post(
        f"/leagues/{bb2025.id}/teams/new", data={"name": "X", "team_type_id": "human"}
    )
    assert response.status_code == 200
    assert field_errors(response.text, "name") == [
        "Field must be between 2 and 80 characters long."
    ]
    assert '<option selected value="human">Human</option>' in response.text
    response = client.post(
        f"/leagues/{bb2025.id}/teams/new", data={"name": "Reavers", "team_type_id": "elf"}
    )
    assert field_errors(response.text, "team_type_id") == ["Not a valid choice."]
    assert input_value(response.text, "name") == "Reavers"
    assert db.session.scalar(select(func.count()).select_from(Team)) == 0


def test_team_names_are_unique_in_a_league(client: FlaskClient, bb2025: League) -> None:
    new_team(client, bb2025.id, "Reikland Reavers", "human")
    response = client.post(
        f"/leagues/{bb2025.id}/teams/new",
        data={"name": "reikland reavers", "team_type_id": "orc"},
    )
    assert field_errors(response.text, "name") == [
        "bb2025 league already has a team called reikland reavers."
    ]


def test_a_stranger_cannot_draft_in_the_league(client: FlaskClient, bb2025: League) -> None:
    logout(client)
    login(client, "stranger")
    assert client.get(f"/leagues/{bb2025.id}/teams/new").status_code == 403
    response = client.post(
        f"/leagues/{bb2025.id}/teams/new", data={"name": "Gatecrashers", "team_type_id": "orc"}
    )
    assert response.status_code == 403
    assert db.session.scalar(select(func.count()).select_from(Team)) == 0


def test_commissioner_drafts_for_a_coach(client: FlaskClient, bb2025: League) -> None:
    logout(client)
    login(client, "comm")
    page = client.get(f"/leagues/{bb2025.id}/teams/new").text
    assert '<option selected value="comm">comm</option>' in page
    response = client.post(
        f"/leagues/{bb2025.id}/teams/new",
        data={"name": "Coach's Orcs", "team_type_id": "orc", "coach": "coach"},
    )
    page = client.get(response.headers["Location"]).text
    assert fact(page, "Coach") == "coach"
    assert fact(page, "Team type") == "Orc"


def test_draft_a_bb2025_human_team(client: FlaskClient, bb2025: League) -> None:
    team_id = new_team(client, bb2025.id, "Reikland Reavers", "human")
    page = team_page(client, team_id)
    assert "Reikland Reavers (Human) is drafted. Hire your players." in flashes(page)
    assert fact(page, "Treasury") == "1,000,000"
    assert fact(page, "Team value") == "0"
    assert fact(page, "Dedicated fans") == "1"
    assert "No players yet." in page
    slots = hire_slots(page)
    assert list(slots) == [
        "Human Lineman",
        "Halfling Hopeful",
        "Human Catcher",
        "Human Thrower",
        "Human Blitzer",
        "Ogre",
    ]
    # cost, MA ST AG PA AV, skills, taken
    assert slots["Human Blitzer"][:8] == [
        "85,000",
        "7",
        "3",
        "3+",
        "4+",
        "9+",
        "Block, Tackle",
        "0 / 2",
    ]
    assert input_value(page, "name-human-blitzer") == "Human Blitzer 1"
    assert input_value(page, "number-human-blitzer") == "1"

    hire_ok(client, team_id, "ogre", "Morg", 1)
    hire_ok(client, team_id, "human-blitzer", "Griff", 2)
    hire_ok(client, team_id, "human-blitzer", "Dieter", 3)
    hire_ok(client, team_id, "human-thrower", "Mighty Zug", 4)
    hire_ok(client, team_id, "human-catcher", "Hans", 5)
    hire_ok(client, team_id, "human-catcher", "Franz", 6)
    for number in range(7, 12):
        hire_ok(client, team_id, "human-lineman", f"Lineman {number}", number)
    page = team_page(client, team_id)
    assert "Hired #11 \u2068Lineman 11\u2069." in flashes(page)
    # 140,000 + 2 x 85,000 + 75,000 + 2 x 75,000 + 5 x 50,000 = 785,000
    assert fact(page, "Treasury") == "215,000"
    assert fact(page, "Team value") == "785,000"
    assert fact(page, "Current team value") == "785,000"
    assert roster_summary(page) == [
        ("1", "Morg", "Ogre", "140,000"),
        ("2", "Griff", "Human Blitzer", "85,000"),
        ("3", "Dieter", "Human Blitzer", "85,000"),
        ("4", "Mighty Zug", "Human Thrower", "75,000"),
        ("5", "Hans", "Human Catcher", "75,000"),
        ("6", "Franz", "Human Catcher", "75,000"),
        *[(str(n), f"Lineman {n}", "Human Lineman", "50,000") for n in range(7, 12)],
    ]
    assert roster(page)[0][3:9] == [
        "5",
        "5",
        "4+",
        "5+",
        "10+",
        ("Bone Head, Loner (3+), Mighty Blow, Thick Skull, Throw Team-mate"),
    ]
    slots = hire_slots(page)
    assert slots["Human Blitzer"][7:] == ["2 / 2", "full"]
    assert slots["Ogre"][7:] == ["1 / 1", "full"]
    assert input_value(page, "number-human-lineman") == "12"

    # Two re-rolls, an apothecary, a dedicated fan given back again.
    post_ok(client, f"/teams/{team_id}/buy", item="reroll")
    page = post_ok(client, f"/teams/{team_id}/buy", item="reroll")
    assert "Bought a team re-roll." in flashes(page)
    page = post_ok(client, f"/teams/{team_id}/buy", item="apothecary")
    assert "Bought an apothecary." in flashes(page)
    page = post_ok(client, f"/teams/{team_id}/buy", item="dedicated_fan")
    assert fact(page, "Dedicated fans") == "2"
    assert fact(page, "Treasury") == "60,000"
    page = post_ok(client, f"/teams/{team_id}/give-back", item="dedicated_fan", confirmed="yes")
    assert "Gave back a dedicated fan." in flashes(page)
    assert fact(page, "Re-rolls") == f"2 {TIMES} 50,000"
    assert fact(page, "Apothecary") == "yes"
    assert fact(page, "Dedicated fans") == "1"
    # 215,000 - 2 x 50,000 - 50,000 = 65,000; TV adds re-rolls and apothecary, not fans.
    assert fact(page, "Treasury") == "65,000"
    assert fact(page, "Team value") == "935,000"
    assert fact(page, "Current team value") == "935,000"
    items = item_rows(page)
    assert items["Team re-roll"][:2] == ["2", "50,000"]
    assert items["Apothecary"] == [
        "1",
        "50,000",
        "Reikland Reavers already has an apothecary. give back",
    ]
    assert ledger(page)[:2] == [
        ("Draft: gave back a dedicated fan", "+5,000"),
        ("Bought a dedicated fan", "-5,000"),
    ]
    assert [gold for _, gold in ledger(page)[2:5]] == ["-50,000", "-50,000", "-50,000"]
    assert ledger(page)[-1] == ("Starting treasury", "+1,000,000")
    assert "Confirm the draft (11 players)" in page

    page = post_ok(client, f"/teams/{team_id}/confirm", confirmed="yes")
    assert "The draft is confirmed: the team is ready to play." in flashes(page)
    assert '<span class="tag status-draft">' not in page
    assert "Confirm the draft" not in page
    assert "<h2>Hire players</h2>" in page
    # After the draft a re-roll costs double; TV still counts the roster price.
    assert item_rows(page)["Team re-roll"][:2] == ["2", "100,000"]
    assert fact(page, "Team value") == "935,000"
    assert "give back" not in page
    team = db.session.get(Team, team_id)
    assert team is not None
    assert (team.status, team.treasury, team.rerolls) == ("active", 65_000, 2)


def test_draft_a_bb2020_orc_team(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2020", coach)
    login(client, "coach")
    team_id = new_team(client, league.id, "Gouged Eye", "orc")
    page = team_page(client, team_id)
    assert fact(page, "Re-rolls") == f"0 {TIMES} 60,000"
    slots = hire_slots(page)
    assert slots["Big Un"][:8] == [
        "90,000",
        "5",
        "4",
        "4+",
        "-",
        "10+",
        "Animosity (Big Uns)",
        "0 / 4",
    ]

    hire_ok(client, team_id, "untrained-troll", "Rotgut", 99)
    for number, name in enumerate(["Ugroth", "Varag", "Gorbad", "Grotsnik"], start=2):
        hire_ok(client, team_id, "blitzer", name, number)
    hire_ok(client, team_id, "thrower", "Zogg", 6)
    hire_ok(client, team_id, "big-un", "Thud", 7)
    for number in range(8, 12):
        hire_ok(client, team_id, "orc-lineman", f"Grunt {number}", number)
    for _ in range(3):
        post_ok(client, f"/teams/{team_id}/buy", item="reroll")
    page = post_ok(client, f"/teams/{team_id}/buy", item="assistant_coach")

    # 115,000 + 4 x 80,000 + 65,000 + 90,000 + 4 x 50,000 = 790,000 for 11 players;
    # 3 re-rolls x 60,000 + an assistant coach 10,000 = 190,000.
    assert fact(page, "Treasury") == "20,000"
    assert fact(page, "Team value") == "980,000"
    assert fact(page, "Re-rolls") == f"3 {TIMES} 60,000"
    assert fact(page, "Assistant coaches") == "1"
    assert roster_summary(page) == [
        ("2", "Ugroth", "Blitzer", "80,000"),
        ("3", "Varag", "Blitzer", "80,000"),
        ("4", "Gorbad", "Blitzer", "80,000"),
        ("5", "Grotsnik", "Blitzer", "80,000"),
        ("6", "Zogg", "Thrower", "65,000"),
        ("7", "Thud", "Big Un", "90,000"),
        *[(str(n), f"Grunt {n}", "Orc Lineman", "50,000") for n in range(8, 12)],
        ("99", "Rotgut", "Untrained Troll", "115,000"),
    ]
    slots = hire_slots(page)
    assert slots["Blitzer"][-2:] == ["4 / 4", "full"]
    # 20,000 left: nothing on the roster is affordable any more.
    assert slots["Goblin"][-2:] == ["0 / 4", "not enough gold"]
    assert item_rows(page)["Team re-roll"] == [
        "3",
        "60,000",
        "Costs 60,000; the treasury holds 20,000. give back",
    ]

    page = post_ok(client, f"/teams/{team_id}/confirm", confirmed="yes")
    assert "The draft is confirmed: the team is ready to play." in flashes(page)
    assert fact(page, "Team value") == "980,000"
    league_page = client.get(f"/leagues/{league.id}").text
    assert "Gouged Eye Orc coach active 11 980,000" in text_of(league_page)


# ---------------------------------------------------------------------------
# Refusals change nothing


def test_hiring_over_budget_is_refused(client: FlaskClient) -> None:
    comm, _coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", _coach, starting_treasury=200_000)
    login(client, "coach")
    team_id = new_team(client, league.id, "Poor Humans", "human")
    hire_ok(client, team_id, "ogre", "Morg", 1)
    before = snapshot(team_id)
    page = team_page(client, team_id)
    assert hire_slots(page)["Human Blitzer"][-1] == "not enough gold"

    response = hire_post(client, team_id, "human-blitzer", "Griff the Bold", 2)
    assert response.status_code == 400
    assert field_errors(response.text, "hire-human-blitzer") == [
        "Not enough gold: Poor Humans has 60,000 and this costs 85,000 "
        "(Hired \u2068Griff the Bold\u2069 (Human Blitzer))."
    ]
    assert snapshot(team_id) == before
    assert fact(response.text, "Treasury") == "60,000"

    page = post_ok(client, f"/teams/{team_id}/buy", item="reroll")  # 50,000 fits
    assert flashes(page) == ["Bought a team re-roll."]
    response = client.post(f"/teams/{team_id}/buy", data={"item": "reroll"})
    page = client.get(response.headers["Location"]).text
    assert flashes(page) == [
        "Not enough gold: Poor Humans has 10,000 and this costs 50,000 (Bought a team re-roll)."
    ]
    assert fact(page, "Re-rolls") == f"1 {TIMES} 50,000"
    assert fact(page, "Treasury") == "10,000"


def test_a_full_position_is_refused(client: FlaskClient, bb2025: League) -> None:
    team_id = new_team(client, bb2025.id, "Reikland Reavers", "human")
    hire_ok(client, team_id, "human-blitzer", "Griff", 1)
    hire_ok(client, team_id, "human-blitzer", "Dieter", 2)
    before = snapshot(team_id)
    response = hire_post(client, team_id, "human-blitzer", "Third Blitzer", 3)
    assert response.status_code == 400
    assert field_errors(response.text, "hire-human-blitzer") == [
        "Reikland Reavers already has 2 Human Blitzers; the roster allows 2."
    ]
    assert snapshot(team_id) == before
    assert fact(response.text, "Treasury") == "830,000"


def test_a_duplicate_number_is_refused_and_keeps_the_input(
    client: FlaskClient, bb2025: League
) -> None:
    team_id = new_team(client, bb2025.id, "Reikland Reavers", "human")
    hire_ok(client, team_id, "human-blitzer", "Griff", 7)
    before = snapshot(team_id)
    response = hire_post(client, team_id, "human-catcher", "Swift Hans", 7)
    assert response.status_code == 400
    assert field_errors(response.text, "hire-human-catcher") == ["Number 7 is taken by Griff."]
    # The row that failed keeps what was typed; the others show fresh suggestions.
    assert input_value(response.text, "name-human-catcher") == "Swift Hans"
    assert input_value(response.text, "number-human-catcher") == "7"
    assert input_value(response.text, "name-human-thrower") == "Human Thrower 1"
    assert 'aria-invalid="true" aria-describedby="hire-human-catcher-errors"' in response.text
    assert field_errors(response.text, "hire-human-thrower") == []
    assert snapshot(team_id) == before

    response = hire_post(client, team_id, "human-catcher", "", 100)
    assert response.status_code == 400
    assert field_errors(response.text, "hire-human-catcher") == [
        "This field is required.",
        "Number must be between 1 and 99.",
    ]
    assert input_value(response.text, "number-human-catcher") == "100"
    response = hire_post(client, team_id, "wardancer", "Elf", 8)
    assert "Human teams have no position &#39;wardancer&#39;." in response.text
    assert snapshot(team_id) == before


def test_draft_refusals_are_flashed(client: FlaskClient, bb2025: League) -> None:
    team_id = new_team(client, bb2025.id, "Reikland Reavers", "human")
    team_page(client, team_id)
    before = snapshot(team_id)
    page = post_ok(client, f"/teams/{team_id}/confirm", confirmed="yes")
    assert flashes(page) == [
        "Reikland Reavers has 0 players; a team needs at least 11 before the draft is confirmed."
    ]
    page = post_ok(client, f"/teams/{team_id}/give-back", item="reroll", confirmed="yes")
    assert flashes(page) == ["Reikland Reavers has no team re-roll to give back."]
    page = post_ok(client, f"/teams/{team_id}/give-back", item="dedicated_fan", confirmed="yes")
    assert flashes(page) == ["Reikland Reavers has no dedicated fan to give back."]
    assert client.post(f"/teams/{team_id}/buy", data={"item": "gold"}).status_code == 400
    for _ in range(2):
        post_ok(client, f"/teams/{team_id}/buy", item="dedicated_fan")
    page = post_ok(client, f"/teams/{team_id}/buy", item="dedicated_fan")
    assert flashes(page) == ["A new team may start with at most 3 dedicated fans."]
    assert fact(page, "Dedicated fans") == "3"
    post_ok(client, f"/teams/{team_id}/give-back", item="dedicated_fan", confirmed="yes")
    post_ok(client, f"/teams/{team_id}/give-back", item="dedicated_fan", confirmed="yes")
    assert snapshot(team_id)[:8] == before[:8]


# ---------------------------------------------------------------------------
# Firing and retiring


def test_removing_a_player_during_the_draft_refunds_him(
    client: FlaskClient, bb2025: League
) -> None:
    team = drafted_team(bb2025, players=2)
    blitzer = db.session.scalar(select(Player).where(Player.position_id == "human-blitzer"))
    assert blitzer is not None
    page = team_page(client, team.id)
    assert fact(page, "Treasury") == "865,000"
    assert f'<a href="/players/{blitzer.id}/fire">remove</a>' in page
    assert f"/players/{blitzer.id}/retire" not in page

    confirm = client.get(f"/players/{blitzer.id}/fire").text
    assert "Remove Player 1?" in confirm
    # The name is isolated (FSI ... PDI) from the number and the sentence.
    assert "#1 \u2068Player 1\u2069 leaves the draft and the 85,000 gold comes back." in confirm
    assert fact(team_page(client, team.id), "Treasury") == "865,000"  # asking changes nothing

    page = post_ok(client, f"/players/{blitzer.id}/fire")
    assert flashes(page) == [
        "Removed #1 \u2068Player 1\u2069 from the draft; 85,000 gold refunded."
    ]
    assert fact(page, "Treasury") == "950,000"
    assert fact(page, "Team value") == "50,000"
    assert roster_summary(page) == [("2", "Player 2", "Human Lineman", "50,000")]
    assert former(page) == []
    assert ledger(page)[0] == ("Draft: removed \u2068Player 1\u2069", "+85,000")
    assert db.session.get(Player, blitzer.id) is None
    assert client.get(f"/players/{blitzer.id}/fire").status_code == 404


def test_firing_after_the_draft_keeps_the_player_in_history(
    client: FlaskClient, bb2025: League
) -> None:
    team = active_team(client, bb2025)
    blitzer = db.session.scalar(select(Player).where(Player.position_id == "human-blitzer"))
    assert blitzer is not None
    page = team_page(client, team.id)
    treasury, tv = fact(page, "Treasury"), fact(page, "Team value")
    assert (treasury, tv) == ("415,000", "585,000")

    confirm = client.get(f"/players/{blitzer.id}/fire").text
    assert "Fire Player 1?" in confirm
    assert "nothing is refunded" in confirm
    page = post_ok(client, f"/players/{blitzer.id}/fire")
    assert flashes(page) == ["Fired #1 \u2068Player 1\u2069; he is listed under former players."]
    assert fact(page, "Treasury") == "415,000"
    assert fact(page, "Team value") == "500,000"
    assert [row[1] for row in roster(page)] == [f"Player {n}" for n in range(2, 12)]
    assert "Former players (1: dead, retired, fired)" in page
    assert [(row[0], row[1], row[2], row[-2]) for row in former(page)] == [
        ("1", "Player 1", "Human Blitzer", "fired")
    ]
    db.session.expire_all()
    assert db.session.get(Player, blitzer.id).status == "fired"  # type: ignore[union-attr]

    # A fired player cannot be fired again; his number is free again.
    response = client.get(f"/players/{blitzer.id}/fire")
    assert response.status_code == 302
    assert "Player 1 is no longer on the roster (fired)." in flashes(
        client.get(response.headers["Location"]).text
    )
    assert input_value(page, "number-human-lineman") == "1"


def test_retiring_a_player(client: FlaskClient, bb2025: League) -> None:
    active_team(client, bb2025)
    lineman = db.session.scalar(select(Player).where(Player.number == 11))
    assert lineman is not None
    confirm = client.get(f"/players/{lineman.id}/retire").text
    assert "Retire Player 11?" in confirm
    page = post_ok(client, f"/players/{lineman.id}/retire")
    assert flashes(page) == [
        "#11 \u2068Player 11\u2069 has retired; he is listed under former players."
    ]
    assert len(roster(page)) == 10
    assert [(row[1], row[-2]) for row in former(page)] == [("Player 11", "retired")]
    assert fact(page, "Team value") == "535,000"
    assert fact(page, "Treasury") == "415,000"
    player_page = client.get(f"/players/{lineman.id}").text
    assert '<span class="tag status-retired">retired</span>' in player_page
    assert 'id="name"' not in player_page  # former players are not edited


def test_retiring_is_refused_during_the_draft(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025, players=1)
    before = snapshot(team.id)
    player = db.session.scalar(select(Player))
    assert player is not None
    page = post_ok(client, f"/players/{player.id}/retire")
    assert flashes(page) == ["A player cannot retire during the draft; remove him instead."]
    assert snapshot(team.id) == before


# ---------------------------------------------------------------------------
# The player page


def test_rename_and_renumber_a_player(client: FlaskClient, bb2025: League) -> None:
    drafted_team(bb2025, players=3)
    player = db.session.scalar(select(Player).where(Player.number == 1))
    assert player is not None
    page = client.get(f"/players/{player.id}").text
    assert "<h1>#1 <bdi>Player 1</bdi></h1>" in page
    assert "Human Blitzer · Rookie · value 85,000" in text_of(page)
    assert input_value(page, "name") == "Player 1"
    assert input_value(page, "number") == "1"

    response = client.post(f"/players/{player.id}/edit", data={"name": "Griff", "number": "2"})
    assert response.status_code == 400
    assert field_errors(response.text, "number") == ["Number 2 is taken by Player 2."]
    assert input_value(response.text, "name") == "Griff"
    assert input_value(response.text, "number") == "2"

    response = client.post(f"/players/{player.id}/edit", data={"name": " ", "number": "0"})
    assert response.status_code == 400
    assert field_errors(response.text, "name") == ["This field is required."]
    assert field_errors(response.text, "number") == ["Number must be between 1 and 99."]
    db.session.expire_all()
    assert (player.name, player.number) == ("Player 1", 1)

    response = client.post(f"/players/{player.id}/edit", data={"name": "Griff", "number": "44"})
    assert response.headers["Location"] == f"/players/{player.id}"
    page = client.get(response.headers["Location"]).text
    assert flashes(page) == ["Player saved."]
    assert "<h1>#44 <bdi>Griff</bdi></h1>" in page
    team_roster = roster_summary(team_page(client, player.team_id))
    assert team_roster[-1] == ("44", "Griff", "Human Blitzer", "85,000")


# ---------------------------------------------------------------------------
# Commissioner's treasury adjustment


def test_commissioner_adjusts_the_treasury(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025, players=1)
    page = team_page(client, team.id)
    assert "Adjust the treasury" not in page  # the coach does not see the form
    response = client.post(
        f"/teams/{team.id}/treasury", data={"amount": "100000", "reason": "Bribe"}
    )
    assert response.status_code == 403

    logout(client)
    login(client, "comm")
    page = team_page(client, team.id)
    assert "Adjust the treasury (commissioner)" in page
    before = snapshot(team.id)
    response = client.post(f"/teams/{team.id}/treasury", data={"amount": "50000", "reason": ""})
    assert response.status_code == 400
    assert field_errors(response.text, "reason") == ["This field is required."]
    assert input_value(response.text, "amount") == "50000"
    response = client.post(f"/teams/{team.id}/treasury", data={"amount": "0", "reason": "Typo"})
    assert field_errors(response.text, "amount") == ["An adjustment needs an amount other than 0."]
    response = client.post(
        f"/teams/{team.id}/treasury", data={"amount": "-2000000", "reason": "Fine"}
    )
    assert field_errors(response.text, "amount") == [
        "Not enough gold: Reikland Reavers has 915,000 and this costs 2,000,000 (Fine)."
    ]
    assert input_value(response.text, "reason") == "Fine"
    assert snapshot(team.id) == before

    response = client.post(
        f"/teams/{team.id}/treasury",
        data={"amount": "-15000", "reason": "Fined for a late roster", "confirmed": "yes"},
    )
    assert response.headers["Location"] == f"/teams/{team.id}#ledger"
    page = client.get(response.headers["Location"]).text
    assert flashes(page) == ["Treasury adjusted."]
    assert fact(page, "Treasury") == "900,000"
    assert ledger(page)[0] == ("Fined for a late roster", "-15,000")


def test_an_adjustment_past_the_largest_treasury_is_a_form_error(
    client: FlaskClient, bb2025: League
) -> None:
    """A treasury is a 32-bit column: 2**31 - 1 at most (a 500 on PostgreSQL before)."""
    team = drafted_team(bb2025, players=1)
    db.session.get(Team, team.id).treasury = MAX_TREASURY - 5_000  # a very long career
    db.session.commit()
    logout(client)
    login(client, "comm")
    before = snapshot(team.id)
    response = client.post(f"/teams/{team.id}/treasury", data={"amount": "5001", "reason": "Gift"})
    assert response.status_code == 400
    assert field_errors(response.text, "amount") == [
        "Reikland Reavers has 2,147,478,647 gold: 5,001 more would pass 2,147,483,647, "
        "the most a treasury holds (Gift)."
    ]
    assert snapshot(team.id) == before


@pytest.mark.parametrize("name", ["Griff\r\nJr", "Griff\u202eJr", "\u2066Griff"])
def test_a_player_name_across_lines_is_a_form_error(
    client: FlaskClient, bb2025: League, name: str
) -> None:
    team = drafted_team(bb2025, players=1)
    before = snapshot(team.id)
    data = {"position_id": "human-lineman", "name": name, "number": "20"}
    response = client.post(f"/teams/{team.id}/hire", data=data)
    assert response.status_code == 400
    assert field_errors(response.text, "hire-human-lineman") == [
        "A player's name is one line of text, without line breaks or text-direction controls."
    ]
    assert snapshot(team.id) == before


# ---------------------------------------------------------------------------
# Other people's teams


def test_a_stranger_sees_the_team_read_only(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025, players=11)
    buy(_user("coach"), team, "reroll")
    player = db.session.scalar(select(Player).where(Player.number == 1))
    assert player is not None
    before = snapshot(team.id)

    for username in ("stranger", None):
        logout(client)
        if username:
            login(client, username)
        page = team_page(client, team.id)
        assert len(roster(page)) == 11
        assert fact(page, "Treasury") == "365,000"
        assert fact(page, "Team value") == "635,000"
        for hidden in ("/hire", "/buy", "/give-back", "/confirm", "/fire", "/retire", "Adjust"):
            assert hidden not in page, hidden
        player_page = client.get(f"/players/{player.id}").text
        assert "<h1>#1 <bdi>Player 1</bdi></h1>" in player_page
        assert "/edit" not in player_page

    login(client, "stranger")
    posts = {
        f"/teams/{team.id}/hire": {"position_id": "human-lineman", "name": "Spy", "number": "50"},
        f"/teams/{team.id}/buy": {"item": "reroll"},
        f"/teams/{team.id}/give-back": {"item": "reroll"},
        f"/teams/{team.id}/confirm": {},
        f"/teams/{team.id}/treasury": {"amount": "1000", "reason": "Gift"},
        f"/players/{player.id}/fire": {},
        f"/players/{player.id}/retire": {},
        f"/players/{player.id}/edit": {"name": "Traitor", "number": "1"},
    }
    for path, data in posts.items():
        assert client.post(path, data=data).status_code == 403, path
    assert client.get(f"/players/{player.id}/fire").status_code == 403

    logout(client)
    for path, data in posts.items():
        response = client.post(path, data=data)
        assert response.status_code == 302, path
        assert "/login" in response.headers["Location"], path
    assert snapshot(team.id) == before


def test_a_commissioner_manages_any_team(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025, players=10)
    logout(client)
    login(client, "comm")
    page = team_page(client, team.id)
    assert "<h2>Draft</h2>" in page
    hire_ok(client, team.id, "human-lineman", "Sub", 11)
    assert flashes(team_page(client, team.id)) == ["Hired #11 \u2068Sub\u2069."]
    page = post_ok(client, f"/teams/{team.id}/confirm", confirmed="yes")
    assert flashes(page) == ["The draft is confirmed: the team is ready to play."]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/teams/999"),
        ("get", "/players/999"),
        ("get", "/players/999/fire"),
        ("get", "/players/999/retire"),
        ("post", "/teams/999/hire"),
        ("post", "/teams/999/buy"),
        ("post", "/teams/999/give-back"),
        ("post", "/teams/999/confirm"),
        ("post", "/teams/999/treasury"),
        ("post", "/players/999/edit"),
        ("post", "/players/999/fire"),
        ("get", "/leagues/999/teams/new"),
    ],
)
def test_unknown_ids_are_404(client: FlaskClient, bb2025: League, method: str, path: str) -> None:
    response = getattr(client, method)(path, data={"item": "reroll"} if method == "post" else None)
    assert response.status_code == 404
    assert "There is no" in response.text or "Not Found" in response.text


# ---------------------------------------------------------------------------
# Steps that cannot be taken back ask first, on the server (no JavaScript needed)


def asked(response: TestResponse, question: str) -> str:
    """The explanation of the confirmation page `response` must be."""
    assert response.status_code == 200
    assert f"<h1>{question}</h1>" in response.text
    found = re.search(r'<p data-testid="confirm-explanation">(.*?)</p>', response.text, re.S)
    assert found is not None
    return text_of(found.group(1))


def press_yes(client: FlaskClient, path: str, page: str) -> str:
    """Press the confirmation page's button: its hidden fields go back to `path`."""
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
    assert ("confirmed", "yes") in fields
    return post_ok(client, path, **{name: html.unescape(value) for name, value in fields})


def test_confirming_the_draft_asks_first(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025, players=10)
    # Too few players: refused at once, not asked about.
    page = post_ok(client, f"/teams/{team.id}/confirm")
    assert flashes(page) == [
        "Reikland Reavers has 10 players; a team needs at least 11 before the draft is confirmed."
    ]
    hire(_user("coach"), team, "human-lineman")
    before = snapshot(team.id)

    path = f"/teams/{team.id}/confirm"
    response = client.post(path)
    # BB2025 Human: a re-roll costs 50,000 while drafting and twice that afterwards;
    # 1,000,000 - 85,000 (blitzer) - 10 x 50,000 (linemen) = 415,000 left.
    assert asked(response, "Confirm the draft of Reikland Reavers?") == (
        "Reikland Reavers starts with 11 players and 415,000 gold. Prices are fixed from then "
        "on: a team re-roll costs 100,000 instead of 50,000, dedicated fans can no longer be "
        "bought, nothing can be given back, and a player let go is fired without a refund. "
        "This cannot be undone."
    )
    assert snapshot(team.id) == before  # asking writes nothing

    page = press_yes(client, path, response.text)
    assert flashes(page) == ["The draft is confirmed: the team is ready to play."]
    assert snapshot(team.id)[0] == "active"


def test_giving_an_item_back_asks_first(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025)
    buy(_user("coach"), team, "reroll")
    before = snapshot(team.id)

    path = f"/teams/{team.id}/give-back"
    response = client.post(path, data={"item": "reroll"})
    assert asked(response, "Give back a team re-roll?") == (
        "Reikland Reavers gives back a team re-roll and its 50,000 gold returns to the "
        f"treasury (365,000 {ARROW} 415,000). It can be bought back at the same price only "
        "while the draft lasts."
    )
    assert snapshot(team.id) == before

    page = press_yes(client, path, response.text)
    assert flashes(page) == ["Gave back a team re-roll."]
    assert fact(page, "Treasury") == "415,000"


def test_adjusting_a_treasury_asks_first(client: FlaskClient, bb2025: League) -> None:
    team = drafted_team(bb2025)
    logout(client)
    login(client, "comm")
    before = snapshot(team.id)

    path = f"/teams/{team.id}/treasury"
    response = client.post(path, data={"amount": "-15000", "reason": "Late roster"})
    assert asked(response, "Adjust the treasury of Reikland Reavers?") == (
        "-15,000 gold (Late roster): the treasury goes from 415,000 to 400,000. The entry "
        "stays in the ledger for good; a mistake is put right by another adjustment."
    )
    assert snapshot(team.id) == before

    page = press_yes(client, path, response.text)
    assert flashes(page) == ["Treasury adjusted."]
    assert ledger(page)[0] == ("Late roster", "-15,000")
    assert fact(page, "Treasury") == "400,000"
