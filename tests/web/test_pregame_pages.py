"""The pre-match page, each side's form, the match sheet PDF, and the pre-game API.

The fixture is the issue's BB2025 one (tests/services/test_pregame_sequence.py):
Humans CTV 1,150,000 (treasury 150,000) at home to Orcs CTV 1,000,000 (treasury
300,000). The higher team chooses first; the Orcs' petty cash is the 150,000 gap
plus what the Humans spent.
"""

from __future__ import annotations

import io

from flask.testing import FlaskClient
from pypdf import PdfReader

from league.extensions import db
from league.models import PregameSide
from tests.pages import login
from tests.services.test_pregame_sequence import LOWER_2025, _fixture
from tests.web.test_api_leagues_teams import API, assert_error, auth, token_for


def _form(side: str, **fields: object) -> dict[str, object]:
    return {f"{side}-{name}": value for name, value in fields.items()}


def test_the_page_shows_both_sides_and_whose_turn_it_is(app, client: FlaskClient) -> None:
    match, _commish, _anna, _bram, _humans, _orcs = _fixture("bb2025")
    page = client.get(f"/matches/{match.id}/pregame")
    assert page.status_code == 200
    text = page.text
    assert "It is Reavers's turn: the team with the higher CTV chooses first." in text
    assert 'data-testid="home-ctv">1,150,000<' in text
    assert 'data-testid="away-ctv">1,000,000<' in text
    assert 'data-testid="ctv-gap">150,000<' in text
    assert 'data-testid="away-petty-cash">150,000<' in text
    assert 'data-testid="away-allowance">50,000<' in text
    # BB2025: the lower team may add up to 50,000 of treasury; the page says why.
    assert (
        'data-testid="away-allowance-why">The team with the lower CTV may add up to 50,000 '
        "of its treasury to its petty cash.<"
    ) in text
    assert (
        'data-testid="home-allowance-why">The team with the higher CTV may spend all of its '
        "treasury on inducements.<"
    ) in text
    # Signed out: no form.
    assert '<form method="post" action="/matches' not in text
    assert f'href="/matches/{match.id}/sheet.pdf"' in text
    # The match page and the fixture list link to it.
    assert f'href="/matches/{match.id}/pregame"' in client.get(f"/matches/{match.id}").text


def test_each_coach_fills_in_their_own_side(app, client: FlaskClient) -> None:
    match, _commish, _anna, _bram, _humans, _orcs = _fixture("bb2025")
    login(client, "bram")
    page = client.get(f"/matches/{match.id}/pregame").text
    # Bram coaches the Orcs (away): only his side, and it must wait for the Humans.
    assert f'action="/matches/{match.id}/pregame/home"' not in page
    assert 'data-testid="away-waiting"' in page
    refused = client.post(f"/matches/{match.id}/pregame/home", data=_form("home"))
    assert refused.status_code == 403
    early = client.post(f"/matches/{match.id}/pregame/away", data=_form("away", ind_bribes="1"))
    assert early.status_code == 422
    assert "The team with the higher CTV chooses first; wait for its choices." in early.text
    assert db.session.query(PregameSide).count() == 0

    login(client, "anna")
    saved = client.post(f"/matches/{match.id}/pregame/home", data=_form("home", ind_bribes="1"))
    assert saved.status_code == 302
    page = client.get(f"/matches/{match.id}/pregame").text
    assert "Pre-game of Reavers saved: 100,000 of inducements." in page
    assert 'data-testid="home-treasury-spent">100,000<' in page

    login(client, "bram")
    over = _form("away", treasury="30000", **{k.replace("-", "_"): "" for k in ()})
    over.update({f"away-ind_{k.replace('-', '_')}": str(v) for k, v in LOWER_2025.items()})
    refused = client.post(f"/matches/{match.id}/pregame/away", data=over)
    assert refused.status_code == 422
    # Next to the inducements: the rules' reason, with the numbers.
    assert 'id="away-treasury-errors"' in refused.text
    assert "This costs 290,000 but the team may spend 280,000." in refused.text
    over["away-treasury"] = "50000"
    assert client.post(f"/matches/{match.id}/pregame/away", data=over).status_code == 302
    page = client.get(f"/matches/{match.id}/pregame").text
    assert 'data-testid="away-petty-cash">250,000<' in page
    assert 'data-testid="away-total">290,000<' in page
    assert 'data-testid="away-treasury-spent">40,000<' in page
    assert "Both teams have chosen." in page


def test_bad_input_is_refused_next_to_the_field(app, client: FlaskClient) -> None:
    match, _commish, _anna, _bram, _humans, _orcs = _fixture("bb2025")
    login(client, "commish")
    bad = client.post(
        f"/matches/{match.id}/pregame/home",
        data=_form("home", ind_bribes="-1", treasury="lots", stars=["nobody"]),
    )
    assert bad.status_code == 400
    assert 'id="home-ind_bribes-errors"' in bad.text
    assert 'id="home-treasury-errors"' in bad.text
    assert db.session.query(PregameSide).count() == 0
    # A commissioner fills in both sides.
    assert client.post(f"/matches/{match.id}/pregame/home", data=_form("home")).status_code == 302
    assert client.post(f"/matches/{match.id}/pregame/away", data=_form("away")).status_code == 302
    assert db.session.query(PregameSide).count() == 2


def test_the_match_sheet_is_one_page_per_team(app, client: FlaskClient) -> None:
    match, _commish, _anna, _bram, _humans, _orcs = _fixture("bb2025")
    login(client, "anna")
    # Akhorne 80,000 + Prayers to Nuffle 10,000, from the Humans' 150,000.
    saved = client.post(
        f"/matches/{match.id}/pregame/home",
        data=_form("home", ind_prayers_to_nuffle="1", stars=["akhorne-the-squirrel"]),
    )
    assert saved.status_code == 302
    response = client.get(f"/matches/{match.id}/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 2
    first, second = (page.extract_text() for page in reader.pages)
    assert "Match sheet of Reavers" in first
    assert "Akhorne the Squirrel" in first
    assert "Star player" in first
    assert "1 \u00d7 Prayers to Nuffle: 10,000" in first
    assert "Match sheet of Gouged Eye" in second
    # Each page has both line-ups.
    assert "Opponent: Gouged Eye" in first
    assert "Opponent: Reavers" in second


# ---------------------------------------------------------------------------
# The API


def test_api_read_and_write_per_side(app, client: FlaskClient) -> None:
    match, _commish, anna, bram, _humans, _orcs = _fixture("bb2025")
    anna_token, bram_token = token_for(anna), token_for(bram)
    url = f"{API}/matches/{match.id}/pregame"
    body = client.get(url).json
    assert body["stage"] == "home_first"
    assert (body["home"]["ctv"], body["away"]["ctv"]) == (1_150_000, 1_000_000)
    assert body["away"]["may_choose_now"] is False
    # Out of turn: 422 naming the reason.
    early = client.put(f"{url}/away", json={"inducements": []}, headers=auth(bram_token))
    assert_error(early, 422, "not_your_turn", "higher CTV chooses first")
    # Not his team: 403; no token: 401; no such side: 404.
    assert client.put(f"{url}/home", json={}, headers=auth(bram_token)).status_code == 403
    assert client.put(f"{url}/home", json={}).status_code == 401
    assert client.put(f"{url}/middle", json={}, headers=auth(anna_token)).status_code == 404
    # Malformed: 400 naming the field.
    bad = client.put(
        f"{url}/home",
        json={"inducements": [{"id": "bribes", "count": 1}, {"id": "bribes"}]},
        headers=auth(anna_token),
    )
    assert_error(bad, 400, "invalid_field", "'inducements[1].count' is required.")
    home = client.put(
        f"{url}/home",
        json={"inducements": [{"id": "bribes", "count": 1}]},
        headers=auth(anna_token),
    )
    assert home.status_code == 200, home.json
    assert home.json["home"]["inducements"] == [
        {"id": "bribes", "name": "Bribes", "count": 1, "cost": 100_000}
    ]
    assert home.json["away"]["petty_cash"] == 250_000
    # Over a limit: 422 naming the item.
    four = client.put(
        f"{url}/away",
        json={"inducements": [{"id": "bribes", "count": 4}]},
        headers=auth(bram_token),
    )
    assert_error(four, 422, "over_limit", "Bribes: at most 3 (asked for 4).")
    # Not eligible: the star named.
    griff = client.put(
        f"{url}/away", json={"star_players": ["griff-oberwald"]}, headers=auth(bram_token)
    )
    assert_error(griff, 422, "star_not_eligible", "Griff Oberwald does not play for Orc teams.")
    away = client.put(
        f"{url}/away",
        json={
            "inducements": [{"id": k, "count": v} for k, v in LOWER_2025.items()],
            "treasury": 50_000,
        },
        headers=auth(bram_token),
    )
    assert away.status_code == 200, away.json
    side = away.json["away"]
    assert (side["petty_cash"], side["total"], side["treasury_spent"]) == (
        250_000,
        290_000,
        40_000,
    )
    assert away.json["stage"] == "ready"


def test_the_coach_picks_the_journeymens_position_where_there_is_a_choice(
    app, client: FlaskClient
) -> None:
    from league.services import matches
    from league.services.unit_of_work import unit_of_work
    from tests.factories import make_active_team, make_league, make_user

    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2025", anna, bram)
    # BB2025 Shambling Undead: Skeleton and Zombie Linemen (both 0-16 Linemen) may come
    # as journeymen. 9 Skeletons and 2 Mummies drafted, 2 Skeletons fired: 9 on the
    # roster, 2 journeymen needed.
    undead = make_active_team(
        anna, league, "shambling-undead", "Dead Men", (("skeleton-lineman", 9), ("mummy", 2))
    )
    for player in undead.players[:2]:
        player.status = "fired"
    humans = make_active_team(bram, league, "human", "Livers", (("human-lineman", 11),))
    db.session.commit()
    with unit_of_work() as session:
        match = matches.schedule_match(session, commish, league.id, undead.id, humans.id)
    login(client, "anna")
    page = client.get(f"/matches/{match.id}/pregame").text
    assert 'name="home-jm_0"' in page
    assert 'name="home-jm_1"' in page
    assert '<option value="zombie-lineman">Zombie Lineman</option>' in page
    wrong = client.post(
        f"/matches/{match.id}/pregame/home",
        data=_form("home", jm_0="zombie-lineman", jm_1="mummy"),
    )
    assert wrong.status_code == 400
    assert 'id="home-jm_1-errors"' in wrong.text
    saved = client.post(
        f"/matches/{match.id}/pregame/home",
        data=_form("home", jm_0="zombie-lineman", jm_1="skeleton-lineman"),
    )
    assert saved.status_code == 302
    side = db.session.query(PregameSide).one()
    assert sorted(i.ref for i in side.items if i.kind == "journeyman") == [
        "skeleton-lineman",
        "zombie-lineman",
    ]
    # CTV: 7 Skeletons x 40,000 + 2 Mummies x 125,000 + 2 journeymen x 40,000 = 610,000
    # (higher than the Humans' 11 x 50,000: the Undead choose first).
    assert side.ctv == 610_000
    page = client.get(f"/matches/{match.id}/pregame").text
    assert "Journeyman: Zombie Lineman" in page


def test_team_names_are_escaped_on_the_page(app, client: FlaskClient) -> None:
    from league.models import Team

    fixture = _fixture("bb2025")
    team = db.session.get(Team, fixture[4].id)
    assert team is not None
    team.name = "<script>alert(1)</script>"
    db.session.commit()
    page = client.get(f"/matches/{fixture[0].id}/pregame").text
    assert "<script>alert(1)</script>" not in page
    assert "It is &lt;script&gt;alert(1)&lt;/script&gt;'s turn" in page
    sheet = client.get(f"/matches/{fixture[0].id}/sheet.pdf")
    assert sheet.status_code == 200
    text = PdfReader(io.BytesIO(sheet.data)).pages[0].extract_text()
    assert "<script>alert(1)</script>" in text  # printed as text, not markup


def test_signed_out_match_sheet_renders_are_limited_per_address(app, client: FlaskClient) -> None:
    """The sheet is rendered on every request (about a second of CPU, never cached): signed-out
    visitors get PDF_RENDER_LIMIT of them per address, as for the roster sheets."""
    app.config["PDF_RENDER_LIMIT"] = "2 per minute"
    match, _commish, _anna, _bram, _humans, _orcs = _fixture("bb2025")
    path = f"/matches/{match.id}/sheet.pdf"
    assert [client.get(path).status_code for _ in range(2)] == [200, 200]
    refused = client.get(path)
    assert refused.status_code == 429
    assert "Traceback" not in refused.text
    login(client, "anna")  # signed-in coaches print as often as they need
    assert client.get(path).status_code == 200
