"""Tournament entries on the pages and through the API: the organiser's entries page,
drops with a confirmation, swaps that say what they break, a first round by hand, the
NAF details on the profile, and the API's bodies, refusals and permissions."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Match, Team, User
from league.models.match import MatchTeam
from league.services import entries
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token, set_naf_identity
from tests.factories import make_league, make_user
from tests.pages import login

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


@pytest.fixture
def boss() -> User:
    return make_user("boss")


@pytest.fixture
def anna() -> User:
    user = make_user("anna")
    with unit_of_work() as session:
        set_naf_identity(session, user, "AnnaB", 4242)
    return user


@pytest.fixture
def bram() -> User:
    return make_user("bram")


@pytest.fixture
def league(boss: User, anna: User, bram: User) -> League:
    return make_league(boss, "bb2025", anna, bram)


def _enter(league: League, boss: User, *names: tuple[str, str, str | None]) -> dict[str, int]:
    with unit_of_work() as session:
        for name, coach, club in names:
            entries.add_entry(
                session,
                boss,
                entries.NewEntry(
                    league.id, name=name, team_type_id="human", coach=coach, club=club
                ),
            )
    db.session.expire_all()
    return {t.name: t.id for t in db.session.scalars(select(Team))}


def _teams() -> list[tuple[str, str | None, bool]]:
    db.session.expire_all()
    return [
        (t.name, t.club, t.dropped_at is not None)
        for t in db.session.scalars(select(Team).order_by(Team.name))
    ]


# ---------------------------------------------------------------------------
# The profile


def test_the_naf_details_are_saved_on_the_profile(client: FlaskClient, bram: User) -> None:
    login(client, "bram")
    page = client.get("/profile").text
    assert 'name="naf_name"' in page
    assert 'name="naf_number"' in page
    saved = client.post("/profile/naf", data={"naf_name": " Bram ", "naf_number": "777"})
    assert saved.status_code == 302
    db.session.expire_all()
    user = db.session.get(User, bram.id)
    assert (user.naf_name, user.naf_number) == ("Bram", 777)  # type: ignore[union-attr]
    assert 'value="777"' in client.get("/profile").text


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"naf_name": "Bram", "naf_number": "0"}, "above 0"),
        ({"naf_name": "Bram", "naf_number": "many"}, "naf_number"),
        ({"naf_name": "x" * 61, "naf_number": ""}, "naf_name"),
        ({"naf_name": "Bram", "naf_number": "99999999999"}, "smaller"),
    ],
)
def test_bad_naf_details_are_refused_next_to_the_field(
    client: FlaskClient, bram: User, data: dict[str, str], words: str
) -> None:
    login(client, "bram")
    refused = client.post("/profile/naf", data=data)
    assert refused.status_code == 400
    assert words in refused.text
    db.session.expire_all()
    user = db.session.get(User, bram.id)
    assert (user.naf_name, user.naf_number) == (None, None)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# The entries page


def test_the_organiser_lists_and_adds_entries(
    client: FlaskClient, boss: User, anna: User, league: League
) -> None:
    _enter(league, boss, ("Reavers", "anna", "Lustria"))
    login(client, "boss")
    page = client.get(f"/leagues/{league.id}/entries")
    assert page.status_code == 200
    assert "Reavers" in page.text
    assert "AnnaB" in page.text
    assert "#4242" in page.text
    assert "Lustria" in page.text
    added = client.post(
        f"/leagues/{league.id}/entries",
        data={
            "team_id": "0",
            "name": "Bram's Boys",
            "team_type_id": "human",
            "coach": "bram",
            "club": "Albion",
            "seed_rating": "170",
        },
    )
    assert added.status_code == 302, added.text
    assert ("Bram's Boys", "Albion", False) in _teams()
    # A new team needs its type and coach: said next to them, nothing written.
    refused = client.post(
        f"/leagues/{league.id}/entries", data={"team_id": "0", "name": "Half a Team"}
    )
    assert refused.status_code == 400
    assert "Enter it for a new team." in refused.text
    assert len(_teams()) == 2


def test_a_coach_may_not_open_the_entries_pages(
    client: FlaskClient, boss: User, league: League
) -> None:
    ids = _enter(league, boss, ("Reavers", "anna", None))
    login(client, "anna")
    for url in ("", f"/{ids['Reavers']}", f"/{ids['Reavers']}/drop", "/swap", "/first-round"):
        assert client.get(f"/leagues/{league.id}/entries{url}").status_code == 403
    assert (
        client.post(
            f"/leagues/{league.id}/entries/{ids['Reavers']}/drop", data={"confirmed": "yes"}
        ).status_code
        == 403
    )
    assert _teams() == [("Reavers", None, False)]


def test_a_drop_asks_first_and_can_be_taken_back(
    client: FlaskClient, boss: User, league: League
) -> None:
    ids = _enter(league, boss, ("Reavers", "anna", None), ("Raiders", "bram", None))
    login(client, "boss")
    url = f"/leagues/{league.id}/entries/{ids['Reavers']}/drop"
    asked = client.get(url)
    assert "withdraws" in asked.text
    assert client.post(url, data={}).status_code == 200
    assert _teams()[1] == ("Reavers", None, False)
    assert client.post(url, data={"confirmed": "yes"}).status_code == 302
    assert _teams()[1] == ("Reavers", None, True)
    assert "withdrawn" in client.get(f"/leagues/{league.id}/entries").text
    back = client.post(f"/leagues/{league.id}/entries/{ids['Reavers']}/undrop")
    assert back.status_code == 302
    assert _teams()[1] == ("Reavers", None, False)


def test_edit_an_entrys_club_and_rating(client: FlaskClient, boss: User, league: League) -> None:
    ids = _enter(league, boss, ("Reavers", "anna", None))
    login(client, "boss")
    url = f"/leagues/{league.id}/entries/{ids['Reavers']}"
    assert client.post(url, data={"club": "Albion", "seed_rating": "180"}).status_code == 302
    db.session.expire_all()
    team = db.session.get(Team, ids["Reavers"])
    assert (team.club, team.seed_rating) == ("Albion", 180)  # type: ignore[union-attr]
    refused = client.post(url, data={"club": "Albion", "seed_rating": "-5"})
    assert refused.status_code == 400
    db.session.expire_all()
    assert db.session.get(Team, ids["Reavers"]).seed_rating == 180  # type: ignore[union-attr]


def _pairs() -> set[frozenset[int]]:
    db.session.expire_all()
    return {
        frozenset(
            db.session.scalars(select(MatchTeam.team_id).where(MatchTeam.match_id == m)).all()
        )
        for m in db.session.scalars(select(Match.id))
    }


def test_a_manual_first_round_then_a_swap_that_says_what_it_breaks(
    client: FlaskClient, boss: User, league: League
) -> None:
    with unit_of_work() as session:
        db_league = session.get(League, league.id)
        db_league.pairing_first_round = "manual"  # type: ignore[union-attr]
    ids = _enter(
        league,
        boss,
        ("Aa", "anna", "North"),
        ("Bb", "bram", "South"),
        ("Cc", "anna", "North"),
        ("Dd", "bram", "East"),
    )
    login(client, "boss")
    form = client.get(f"/leagues/{league.id}/entries/first-round")
    assert form.status_code == 200
    assert 'name="table_2_away"' in form.text
    # Aa twice: refused, nothing scheduled.
    refused = client.post(
        f"/leagues/{league.id}/entries/first-round",
        data={
            "table_1_home": ids["Aa"],
            "table_1_away": ids["Bb"],
            "table_2_home": ids["Aa"],
            "table_2_away": ids["Dd"],
        },
    )
    assert refused.status_code == 400
    assert "Pair every entry once" in refused.text
    assert _pairs() == set()
    paired = client.post(
        f"/leagues/{league.id}/entries/first-round",
        data={
            "table_1_home": ids["Aa"],
            "table_1_away": ids["Bb"],
            "table_2_home": ids["Cc"],
            "table_2_away": ids["Dd"],
        },
    )
    assert paired.status_code == 302
    assert _pairs() == {frozenset((ids["Aa"], ids["Bb"])), frozenset((ids["Cc"], ids["Dd"]))}
    # Bb <-> Cc: Aa (anna, North) would meet Cc (anna, North): both rules broken.
    url = f"/leagues/{league.id}/entries/swap"
    checked = client.post(url, data={"one": ids["Bb"], "other": ids["Cc"]})
    assert checked.status_code == 200
    assert "two entries of one club or nation" in checked.text
    assert "a coach against their own second entry" in checked.text
    assert "rematch" not in checked.text.split('data-testid="swap-warnings"')[1][:400]
    assert _pairs() == {frozenset((ids["Aa"], ids["Bb"])), frozenset((ids["Cc"], ids["Dd"]))}
    # Bb <-> Dd: Aa v Dd, Cc v Bb: nothing broken.
    clean = client.post(url, data={"one": ids["Bb"], "other": ids["Dd"]})
    assert "This swap breaks no pairing rule." in clean.text
    done = client.post(url, data={"one": ids["Bb"], "other": ids["Dd"], "confirmed": "yes"})
    assert done.status_code == 302
    assert _pairs() == {frozenset((ids["Aa"], ids["Dd"])), frozenset((ids["Cc"], ids["Bb"]))}


# ---------------------------------------------------------------------------
# The API


def test_the_api_enters_lists_drops_and_takes_back(
    client: FlaskClient, boss: User, league: League
) -> None:
    created = client.post(
        f"{API}/leagues/{league.id}/entries",
        json={"name": "Reavers", "team_type": "human", "coach": "anna", "club": "Albion"},
        headers=auth(boss),
    )
    assert created.status_code == 201, created.json
    team_id = created.json["team_id"]
    expected = {
        "team_id": team_id,
        "name": "Reavers",
        "team_type": "human",
        "status": "active",
        "coach": "anna",
        "naf_name": "AnnaB",
        "naf_number": 4242,
        "club": "Albion",
        "seed_rating": None,
        "entered_round": None,
        "dropped": False,
        "dropped_after_round": None,
    }
    assert created.json == expected
    assert client.get(f"{API}/leagues/{league.id}/entries").json == {"entries": [expected]}
    dropped = client.post(f"{API}/leagues/{league.id}/entries/{team_id}/drop", headers=auth(boss))
    assert dropped.status_code == 200
    assert dropped.json == {**expected, "dropped": True, "dropped_after_round": 0}
    again = client.post(f"{API}/leagues/{league.id}/entries/{team_id}/drop", headers=auth(boss))
    assert again.status_code == 409
    assert again.json["error"]["code"] == "dropped"
    back = client.post(f"{API}/leagues/{league.id}/entries/{team_id}/undrop", headers=auth(boss))
    assert back.json == expected
    # An existing team, with a rating.
    existing = client.post(
        f"{API}/leagues/{league.id}/entries",
        json={"team_id": team_id, "club": None, "seed_rating": 175},
        headers=auth(boss),
    )
    assert existing.status_code == 201
    assert existing.json == {**expected, "club": None, "seed_rating": 175}


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"club": 5}, 400, "'club'"),
        ({"seed_rating": "high"}, 400, "'seed_rating'"),
        ({"team_id": "one"}, 400, "'team_id'"),
        (
            {"name": "Reavers", "team_type": "human", "coach": "anna", "seed_rating": -1},
            422,
            "seed rating",
        ),
        (
            {"name": "Reavers", "team_type": "human", "coach": "anna", "club": "x" * 61},
            422,
            "club or nation",
        ),
        ({"name": "Reavers"}, 422, "new team"),
        ({"name": "Reavers", "team_type": "orcs?", "coach": "anna"}, 422, "team type"),
        ({"name": "Reavers", "team_type": "human", "coach": "nobody"}, 404, "nobody"),
        ({"team_id": 999999}, 404, "no such team"),
    ],
)
def test_bad_entries_are_refused_naming_the_field_and_nothing_is_written(
    client: FlaskClient, boss: User, league: League, body: dict[str, Any], status: int, named: str
) -> None:
    response = client.post(f"{API}/leagues/{league.id}/entries", json=body, headers=auth(boss))
    assert response.status_code == status, response.json
    assert named in response.json["error"]["message"]
    assert db.session.scalar(select(func.count()).select_from(Team)) == 0


def test_only_the_organiser_enters_and_drops_through_the_api(
    client: FlaskClient, boss: User, anna: User, league: League
) -> None:
    ids = _enter(league, boss, ("Reavers", "anna", None))
    body = {"name": "Mine", "team_type": "human", "coach": "anna"}
    assert (
        client.post(f"{API}/leagues/{league.id}/entries", json=body, headers=auth(anna)).status_code
        == 403
    )
    assert (
        client.post(
            f"{API}/leagues/{league.id}/entries/{ids['Reavers']}/drop", headers=auth(anna)
        ).status_code
        == 403
    )
    assert client.post(f"{API}/leagues/{league.id}/entries", json=body).status_code == 401
    assert _teams() == [("Reavers", None, False)]


def test_the_round_says_what_it_could_not_avoid(
    client: FlaskClient, boss: User, league: League
) -> None:
    # Two entries, both anna's: the only pairing is a coach against her own entry.
    _enter(league, boss, ("Aa", "anna", None), ("Bb", "anna", None))
    paired = client.post(f"{API}/leagues/{league.id}/rounds", headers=auth(boss))
    assert paired.status_code == 201, paired.json
    assert paired.json["constraints_broken"] == ["same_coach"]
    assert paired.json["rematches"] is False
