"""League pages through the test client: create, view, settings, members, join link, seasons."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, LeagueMember, Player, Season, Team, User
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_active_team, make_league, make_team, make_user
from tests.pages import (
    LEAGUE_FORM,
    field_errors,
    flashes,
    form_errors,
    input_value,
    login,
    table_rows,
    text_of,
)

# ---------------------------------------------------------------------------
# Helpers


def league_form(**overrides: str) -> dict[str, str]:
    data = {
        "name": "Old World Cup",
        **LEAGUE_FORM,
        "tie_breaker_2": "head_to_head",
        "tie_breaker_3": "td_difference",
        "tie_breaker_4": "cas_difference",
    }
    data.update(overrides)
    return data


def league_count() -> int:
    return db.session.scalar(select(func.count()).select_from(League)) or 0


def fresh_league(league_id: int) -> League:
    db.session.expire_all()
    league = db.session.get(League, league_id)
    assert league is not None
    return league


def active_roles(league_id: int) -> dict[str, str]:
    db.session.expire_all()
    rows = db.session.execute(
        select(User.username, LeagueMember.role)
        .join(LeagueMember, LeagueMember.user_id == User.id)
        .where(LeagueMember.league_id == league_id, LeagueMember.removed_at.is_(None))
    )
    return dict(rows.tuples().all())


def join_url(client: FlaskClient, league_id: int) -> str:
    page = client.get(f"/leagues/{league_id}/members").text
    url = input_value(page, "join-link")
    assert url is not None
    assert url.startswith(f"http://127.0.0.1:5000/leagues/{league_id}/join/")
    return url.removeprefix("http://127.0.0.1:5000")


# ---------------------------------------------------------------------------
# Creating a league


def test_new_league_needs_a_login(client: FlaskClient) -> None:
    response = client.get("/leagues/new")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_new_league_form_preselects_bb2025(client: FlaskClient) -> None:
    make_user("comm")
    login(client, "comm")
    page = client.get("/leagues/new").text
    assert re.search(r'<option selected value="bb2025">Blood Bowl 2025</option>', page)
    assert input_value(page, "starting_treasury") == "1000000"
    assert input_value(page, "points_win") == "3"
    # The SPP-cost boxes show the chosen ruleset's own numbers as help.
    assert "Blood Bowl 2025 default: 6, 8, 12, 16, 20, 30" in page
    assert "Blood Bowl 2025 has no such advancement." in page  # no random secondary


def test_create_league_makes_the_creator_commissioner(client: FlaskClient) -> None:
    make_user("comm")
    login(client, "comm")
    response = client.post("/leagues/new", data=league_form())
    assert response.status_code == 302
    league = db.session.scalar(select(League))
    assert league is not None
    assert response.headers["Location"] == f"/leagues/{league.id}"
    assert (league.name, league.ruleset_id, league.starting_treasury) == (
        "Old World Cup",
        "bb2025",
        1_000_000,
    )
    assert league.house_rules == {}
    assert [s.name for s in league.seasons] == ["Season 1"]
    assert active_roles(league.id) == {"comm": "commissioner"}

    page = client.get(response.headers["Location"]).text
    assert "League created. Share the join link with your coaches." in flashes(page)
    assert "<h1><bdi>Old World Cup</bdi></h1>" in page
    assert "Blood Bowl 2025" in page
    assert "Season 1" in page
    assert "win/draw/loss 3/1/0 points" in page


def test_create_league_with_house_rules(client: FlaskClient) -> None:
    make_user("comm")
    login(client, "comm")
    response = client.post(
        "/leagues/new",
        data=league_form(
            ruleset_id="bb2020",
            cost_chosen_primary="5, 7, 10, 14, 18, 25",
            spp_awards="td=2, mvp=5",
        ),
    )
    assert response.status_code == 302
    league = db.session.scalar(select(League))
    assert league is not None
    assert league.house_rules == {
        "costs": {"chosen_primary": [5, 7, 10, 14, 18, 25]},
        "spp_awards": {"td": 2, "mvp": 5},
    }
    assert "with house rules" in client.get(f"/leagues/{league.id}").text


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"name": "Ab"}, "name", "Field must be between 3 and 80 characters long."),
        (
            {"points_win": "1", "points_draw": "2"},
            "points_win",
            "Points for a win, a draw and a loss must not increase in that order.",
        ),
        (
            {"cost_chosen_primary": "6, 8, 12"},
            "cost_chosen_primary",
            "House rules: expected 6 costs (one per advancement), got 3",
        ),
        (
            {"cost_random_characteristic": "14, sixteen"},
            "cost_random_characteristic",
            "Write whole numbers separated by commas.",
        ),
        (
            {"spp_awards": "touchdown=4"},
            "spp_awards",
            "Write key=value pairs; keys: td, cas, comp, int, deflection, throw_completion,"
            " safe_landing, mvp.",
        ),
        ({"starting_treasury": "-5"}, "starting_treasury", "Number must be at least 0."),
        # Too large to read: that one message, not also "at least 0" and "at most ...".
        (
            {"starting_treasury": "99999999999999999999"},
            "starting_treasury",
            "Enter a smaller number.",
        ),
    ],
)
def test_create_league_shows_errors_next_to_fields_and_stores_nothing(
    client: FlaskClient, overrides: dict[str, str], field: str, message: str
) -> None:
    make_user("comm")
    login(client, "comm")
    data = league_form(**overrides)
    response = client.post("/leagues/new", data=data)
    assert response.status_code == 200
    assert field_errors(response.text, field) == [message]
    # What was typed is still there, in every box.
    for name in ("name", "points_win", "points_draw", field):
        assert input_value(response.text, name) == data[name]
    assert re.search(r'<option selected value="bb2025">', response.text)
    assert league_count() == 0


def test_house_rules_stay_visible_when_the_form_comes_back(client: FlaskClient) -> None:
    make_user("comm")
    login(client, "comm")
    page = client.get("/leagues/new").text
    assert '<details class="advanced">' in page  # closed while empty

    response = client.post("/leagues/new", data=league_form(cost_chosen_primary="1, 2"))
    assert '<details class="advanced" open>' in response.text
    assert field_errors(response.text, "cost_chosen_primary") == [
        "House rules: expected 6 costs (one per advancement), got 2"
    ]
    assert field_errors(response.text, "name") == []

    # A mistake elsewhere: the filled-in house rules are not hidden in a closed section.
    response = client.post("/leagues/new", data=league_form(name="Ab", spp_awards="td=2"))
    assert '<details class="advanced" open>' in response.text
    assert input_value(response.text, "spp_awards") == "td=2"

    # Both a short name and an unreadable cost list: both errors at once.
    response = client.post(
        "/leagues/new", data=league_form(name="Ab", cost_random_primary="3, four")
    )
    assert field_errors(response.text, "name") == [
        "Field must be between 3 and 80 characters long."
    ]
    assert field_errors(response.text, "cost_random_primary") == [
        "Write whole numbers separated by commas."
    ]
    assert league_count() == 0


def test_every_house_rules_error_is_shown_at_once_next_to_its_box(client: FlaskClient) -> None:
    make_user("comm")
    login(client, "comm")
    response = client.post(
        "/leagues/new",
        data=league_form(
            name="Ab",
            cost_random_primary="3, four",  # cannot be read
            cost_chosen_primary="6, 8, 12",  # read, but a BB2025 row has 6 costs
            cost_chosen_secondary="6, 8, 12, 16, 20, 2000",  # over the 1,000 SPP limit
            value_increase="chosen_primary=20_000, chosen_secondary=twenty",  # cannot be read
            spp_awards="touchdown=4",  # no such event
        ),
    )
    assert response.status_code == 200
    expected = {
        "name": ["Field must be between 3 and 80 characters long."],
        "cost_random_primary": ["Write whole numbers separated by commas."],
        "cost_chosen_primary": ["House rules: expected 6 costs (one per advancement), got 3"],
        "cost_random_secondary": [],
        "cost_chosen_secondary": ["House rules: costs chosen_secondary must be at most 1,000."],
        "value_increase": ["chosen_secondary: 'twenty' is not a number."],
        "spp_awards": [
            "Write key=value pairs; keys: td, cas, comp, int, deflection, throw_completion,"
            " safe_landing, mvp."
        ],
    }
    assert {name: field_errors(response.text, name) for name in expected} == expected
    assert league_count() == 0


# ---------------------------------------------------------------------------
# The league page


def test_empty_league_page_for_each_visitor(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    page = client.get(f"/leagues/{league.id}").text
    assert "No teams yet." in page
    assert "Coaches join with the link their commissioner shares." in page
    assert "Draft a team</a>" not in page
    assert "/settings" not in page

    login(client, "comm")
    page = client.get(f"/leagues/{league.id}").text
    assert "No teams yet." in page
    assert f'href="/leagues/{league.id}/teams/new">Draft a team</a>' in page
    for link in ("members", "settings", "seasons/next"):
        assert f'href="/leagues/{league.id}/{link}"' in page


def test_the_commissioner_sees_a_to_do_list_and_coaches_do_not(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reikland Reavers", (("human-lineman", 11),))
    gouged = make_active_team(coach, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    with unit_of_work() as session:
        match = matches.schedule_match(session, comm, league.id, reavers.id, gouged.id)
        matches.save_unfinished_report(session, coach, match.id, {"home_score": "1"})

    login(client, "comm")
    page = client.get(f"/leagues/{league.id}").text
    assert "To do" in page
    assert text_of(re.search(r'data-testid="todo-report">(.*?)</li>', page, re.S)[1]) == (
        "Finalise the report: Reikland Reavers v Gouged Eye"
    )
    assert f'href="/matches/{match.id}/report"' in page

    login(client, "coach")
    assert 'data-testid="todo"' not in client.get(f"/leagues/{league.id}").text


def test_an_empty_to_do_list_says_so(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    login(client, "comm")
    page = client.get(f"/leagues/{league.id}").text
    assert "Nothing waits for you" in page


def test_league_page_lists_teams_and_coaches(client: FlaskClient) -> None:
    comm, coach, other = make_user("comm"), make_user("coach"), make_user("other")
    league = make_league(comm, "bb2025", coach, other)
    reavers = make_team(coach, league, "human", "Reikland Reavers")
    hire(coach, reavers, "human-blitzer", 2)
    hire(coach, reavers, "human-lineman", 3)
    make_team(other, league, "orc", "Gouged Eye")

    page = client.get(f"/leagues/{league.id}").text
    assert table_rows(page, "<h2>Teams</h2>") == [
        ["Gouged Eye", "Orc", "other", "draft", "0", "0"],
        ["Reikland Reavers", "Human", "coach", "draft", "5", "320,000"],
    ]
    assert f'<a href="/teams/{reavers.id}"><bdi>Reikland Reavers</bdi></a>' in page
    coaches = page[page.index("<h2>Coaches</h2>") :]
    assert text_of(coaches.split("</ul>")[0]) == "Coaches comm commissioner coach other"
    assert "Standings appear once the first match result is entered." in page


def test_unknown_league_is_a_404(client: FlaskClient) -> None:
    make_user("comm")
    assert client.get("/leagues/999").status_code == 404
    login(client, "comm")
    for path in ("settings", "members", "seasons/next", "teams/new", "join/abc"):
        assert client.get(f"/leagues/999/{path}").status_code == 404, path
    assert client.post("/leagues/999/join-link").status_code == 404
    assert client.post("/leagues/999/members/1/promote").status_code == 404


# ---------------------------------------------------------------------------
# Settings


def test_settings_are_for_commissioners_only(client: FlaskClient) -> None:
    comm, _coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", _coach)
    make_user("stranger")
    response = client.get(f"/leagues/{league.id}/settings")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]

    for username in ("coach", "stranger"):
        login(client, username)
        response = client.get(f"/leagues/{league.id}/settings")
        assert response.status_code == 403
        assert "Only a commissioner can change the league&#39;s settings." in response.text
        response = client.post(f"/leagues/{league.id}/settings", data=league_form(name="Hacked"))
        assert response.status_code == 403
        client.post("/logout")
    assert fresh_league(league.id).name == "bb2025 league"
    assert "Settings" not in client.get(f"/leagues/{league.id}").text


def test_the_settings_choose_the_roster_paper(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    login(client, "comm")
    page = client.get(f"/leagues/{league.id}/settings").text
    assert re.search(r'<option (selected )?value="a4"( selected)?>A4</option>', page)
    assert "selected" in re.search(r'<option[^>]*value="a4"[^>]*>', page).group(0)
    response = client.post(
        f"/leagues/{league.id}/settings", data=league_form(name="Paper League", paper_size="letter")
    )
    assert response.status_code == 302
    assert fresh_league(league.id).paper_size == "letter"
    response = client.post(
        f"/leagues/{league.id}/settings", data=league_form(name="Paper League", paper_size="a3")
    )
    assert field_errors(response.text, "paper_size") == ["Not a valid choice."]
    assert fresh_league(league.id).paper_size == "letter"


def test_settings_show_the_stored_values_and_save(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(
        comm,
        "bb2025",
        points_win=2,
        tie_breakers=("points", "td_difference"),
        house_rules={"costs": {"chosen_primary": [5, 7, 10, 14, 18, 25]}},
    )
    login(client, "comm")
    page = client.get(f"/leagues/{league.id}/settings").text
    assert "Settings of bb2025 league" in page
    assert input_value(page, "name") == "bb2025 league"
    assert input_value(page, "points_win") == "2"
    assert input_value(page, "cost_chosen_primary") == "5, 7, 10, 14, 18, 25"
    assert re.search(r'id="tie_breaker_2".*?<option selected value="td_difference">', page, re.S)
    assert re.search(r'id="tie_breaker_3".*?<option selected value="">', page, re.S)

    response = client.post(
        f"/leagues/{league.id}/settings",
        data=league_form(name="Renamed League", points_win="4", cost_chosen_primary=""),
    )
    assert response.status_code == 302
    assert "Settings saved." in flashes(client.get(response.headers["Location"]).text)
    league = fresh_league(league.id)
    assert (league.name, league.points_win, league.house_rules) == ("Renamed League", 4, {})
    assert league.tie_breakers == ["points", "head_to_head", "td_difference", "cas_difference"]


def test_settings_refuse_a_new_ruleset_once_teams_exist(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    make_team(comm, league, "human")
    login(client, "comm")
    response = client.post(
        f"/leagues/{league.id}/settings", data=league_form(name="Renamed", ruleset_id="bb2020")
    )
    assert response.status_code == 200
    assert field_errors(response.text, "ruleset_id") == [
        "The ruleset cannot change once the league has teams."
    ]
    assert input_value(response.text, "name") == "Renamed"
    league = fresh_league(league.id)
    assert (league.name, league.ruleset_id) == ("bb2025 league", "bb2025")


def test_settings_refuse_a_tie_breaker_twice(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    before = list(fresh_league(league.id).tie_breakers)
    login(client, "comm")
    response = client.post(
        f"/leagues/{league.id}/settings", data=league_form(tie_breaker_2="points")
    )
    assert response.status_code == 200
    assert (
        "Pick each tie-breaker at most once, from the list (tie-breaker &#39;points&#39; is "
        "picked twice)." in response.text
    )
    assert re.search(r'id="tie_breaker_2".*?<option selected value="points">', response.text, re.S)
    assert fresh_league(league.id).tie_breakers == before


# ---------------------------------------------------------------------------
# Members


def test_members_page_is_for_commissioners_only(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    login(client, "coach")
    assert client.get(f"/leagues/{league.id}/members").status_code == 403
    response = client.post(f"/leagues/{league.id}/members", data={"username": "coach"})
    assert response.status_code == 403
    for action in ("promote", "remove"):
        response = client.post(f"/leagues/{league.id}/members/{comm.id}/{action}")
        assert response.status_code == 403, action
    assert client.post(f"/leagues/{league.id}/join-link").status_code == 403
    assert active_roles(league.id) == {"comm": "commissioner", "coach": "coach"}


def test_add_a_coach_by_username(client: FlaskClient) -> None:
    comm = make_user("comm")
    make_user("Grim")
    league = make_league(comm, "bb2025")
    login(client, "comm")

    response = client.post(f"/leagues/{league.id}/members", data={"username": "nobody"})
    assert response.status_code == 200
    assert field_errors(response.text, "username") == ["There is no user called 'nobody'."]
    assert input_value(response.text, "username") == "nobody"
    assert active_roles(league.id) == {"comm": "commissioner"}

    response = client.post(f"/leagues/{league.id}/members", data={"username": " grim "})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).text
    assert "Grim joined bb2025 league as a coach." in flashes(page)
    assert table_rows(page, "<h2>Coaches and commissioners</h2>") == [
        ["comm owner", "commissioner", "The owner cannot be removed."],
        ["Grim", "coach", "Make commissioner Remove…"],
    ]
    assert active_roles(league.id) == {"comm": "commissioner", "Grim": "coach"}

    response = client.post(f"/leagues/{league.id}/members", data={"username": "Grim"})
    assert field_errors(response.text, "username") == ["Grim is already a member of bb2025 league."]
    response = client.post(f"/leagues/{league.id}/members", data={"username": ""})
    assert field_errors(response.text, "username") == ["This field is required."]


def test_promote_and_remove_members(client: FlaskClient) -> None:
    comm, coach, other = make_user("comm"), make_user("coach"), make_user("other")
    league = make_league(comm, "bb2025", coach, other)
    team = make_team(other, league, "human", "Other Team")
    login(client, "comm")

    response = client.post(f"/leagues/{league.id}/members/{coach.id}/promote")
    assert response.headers["Location"] == f"/leagues/{league.id}/members"
    assert "Promoted to commissioner." in flashes(client.get(response.headers["Location"]).text)
    assert active_roles(league.id)["coach"] == "commissioner"

    remove = f"/leagues/{league.id}/members/{other.id}/remove"
    assert f'href="{remove}"' in client.get(f"/leagues/{league.id}/members").text
    # The page asks what becomes of the teams; a post without the confirmation asks again.
    page = client.get(remove).text
    assert "Remove other from bb2025 league?" in page
    choices = re.search(r'<select[^>]*id="hand_teams_to".*?</select>', page, re.S)
    assert choices
    assert re.findall(r'<option[^>]*value="([^"]*)"', choices.group(0)) == ["", "coach", "comm"]
    assert client.post(remove).status_code == 200
    assert "other" in active_roles(league.id)

    response = client.post(remove, data={"confirmed": "yes", "hand_teams_to": ""})
    page = client.get(response.headers["Location"]).text
    assert "other is no longer a member; the join link has changed." in flashes(page)
    assert active_roles(league.id) == {"comm": "commissioner", "coach": "commissioner"}
    # The removed coach's team stays on the league page, without a coach.
    assert "nobody (<bdi>other</bdi> left the league)" in client.get(f"/leagues/{league.id}").text
    assert client.get(f"/teams/{team.id}").status_code == 200

    assert client.get(remove).status_code == 404
    assert client.post(remove, data={"confirmed": "yes"}).status_code == 404


def test_the_owner_cannot_be_removed(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    login(client, "comm")
    client.post(f"/leagues/{league.id}/members/{coach.id}/promote")
    members = client.get(f"/leagues/{league.id}/members").text
    assert f"/members/{comm.id}/remove" not in members  # the owner's row has no remove link
    assert "only the owner can hand the league over, to another commissioner." in members

    # Issue 33: a co-commissioner could remove the league's creator.
    login(client, "coach")
    remove = f"/leagues/{league.id}/members/{comm.id}/remove"
    page = client.get(remove).text
    assert "comm owns the league: nobody can remove the owner." in text_of(page)
    assert 'name="confirmed"' not in page
    response = client.post(remove, data={"confirmed": "yes"})
    assert response.status_code == 400
    assert form_errors(response.text) == [
        "comm owns bb2025 league and cannot be removed; "
        "only the owner can hand the league over to another commissioner."
    ]
    assert active_roles(league.id) == {"comm": "commissioner", "coach": "commissioner"}
    # The owner himself must hand the league over first.
    login(client, "comm")
    assert client.post(remove, data={"confirmed": "yes"}).status_code == 400
    assert active_roles(league.id) == {"comm": "commissioner", "coach": "commissioner"}


def test_the_owner_hands_the_league_over(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    login(client, "comm")
    hand_over = f"/leagues/{league.id}/members/{coach.id}/owner"
    assert f'action="{hand_over}"' not in client.get(f"/leagues/{league.id}/members").text
    response = client.post(hand_over)
    assert "Only a commissioner can own the league: make coach commissioner first." in flashes(
        client.get(response.headers["Location"]).text
    )
    client.post(f"/leagues/{league.id}/members/{coach.id}/promote")
    assert f'action="{hand_over}"' in client.get(f"/leagues/{league.id}/members").text
    response = client.post(hand_over)
    assert "The league has a new owner." in flashes(client.get(response.headers["Location"]).text)
    assert fresh_league(league.id).owner_id == coach.id

    # The former owner is a commissioner like another: he cannot take the league back, and
    # the new owner may remove him.
    assert client.post(f"/leagues/{league.id}/members/{comm.id}/owner").status_code == 403
    login(client, "coach")
    response = client.post(
        f"/leagues/{league.id}/members/{comm.id}/remove", data={"confirmed": "yes"}
    )
    assert response.status_code == 302
    assert active_roles(league.id) == {"coach": "commissioner"}


def test_the_hand_over_question_quotes_the_league_name_safely(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    login(client, "comm")
    client.post(f"/leagues/{league.id}/members/{coach.id}/promote")
    client.post(
        f"/leagues/{league.id}/settings",
        data=league_form(name="Bob's League'); alert('boo"),
    )
    assert fresh_league(league.id).name == "Bob's League'); alert('boo"
    page = client.get(f"/leagues/{league.id}/members").text
    # The question is an escaped attribute read by static/js/site.js: no inline script.
    assert "onsubmit" not in page
    assert re.findall(r'data-confirm="([^"]*)"', page) == [
        "Make coach the owner of Bob&#39;s League&#39;); alert(&#39;boo? You stay a"
        " commissioner, but only the new owner can hand the league on."
    ]


def test_a_commissioner_who_leaves_goes_back_to_the_league_page(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    login(client, "comm")
    client.post(f"/leagues/{league.id}/members/{coach.id}/promote")
    login(client, "coach")
    response = client.post(
        f"/leagues/{league.id}/members/{coach.id}/remove", data={"confirmed": "yes"}
    )
    assert response.headers["Location"] == f"/leagues/{league.id}"
    assert active_roles(league.id) == {"comm": "commissioner"}


# ---------------------------------------------------------------------------
# Join link


def test_join_link_asks_then_joins(client: FlaskClient) -> None:
    comm = make_user("comm")
    make_user("newbie")
    league = make_league(comm, "bb2025")
    login(client, "comm")
    url = join_url(client, league.id)
    client.post("/logout")

    response = client.get(url)
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]

    login(client, "newbie")
    page = client.get(url).text
    assert "Join bb2025 league?" in page
    assert "Join the league</button>" in page
    assert active_roles(league.id) == {"comm": "commissioner"}  # a GET changes nothing

    response = client.post(url)
    assert response.headers["Location"] == f"/leagues/{league.id}"
    page = client.get(response.headers["Location"]).text
    assert "Welcome to bb2025 league! Draft your team next." in flashes(page)
    assert f'href="/leagues/{league.id}/teams/new">Draft a team</a>' in page
    assert active_roles(league.id) == {"comm": "commissioner", "newbie": "coach"}

    # Opening the link again is harmless.
    response = client.get(url)
    assert response.headers["Location"] == f"/leagues/{league.id}"
    assert "You are already a member of bb2025 league." in flashes(
        client.get(response.headers["Location"]).text
    )


def test_a_bad_join_token_is_refused(client: FlaskClient) -> None:
    comm = make_user("comm")
    make_user("newbie")
    league = make_league(comm, "bb2025")
    login(client, "newbie")
    response = client.get(f"/leagues/{league.id}/join/not-the-token")
    assert response.status_code == 403
    assert "This join link does not work" in response.text
    assert "Join the league</button>" not in response.text

    response = client.post(f"/leagues/{league.id}/join/not-the-token")
    page = client.get(response.headers["Location"]).text
    assert "This join link is not valid any more; ask the commissioner for a new one." in flashes(
        page
    )
    assert active_roles(league.id) == {"comm": "commissioner"}


def test_a_new_join_link_invalidates_the_old_one(client: FlaskClient) -> None:
    comm = make_user("comm")
    make_user("newbie")
    league = make_league(comm, "bb2025")
    login(client, "comm")
    old_url = join_url(client, league.id)
    response = client.post(f"/leagues/{league.id}/join-link")
    assert response.headers["Location"] == f"/leagues/{league.id}/members"
    page = client.get(response.headers["Location"]).text
    assert "A new join link is ready; the old one no longer works." in flashes(page)
    new_url = join_url(client, league.id)
    assert new_url != old_url
    client.post("/logout")

    login(client, "newbie")
    assert client.get(old_url).status_code == 403
    client.post(old_url)
    assert "newbie" not in active_roles(league.id)
    assert client.get(new_url).status_code == 200
    client.post(new_url)
    assert active_roles(league.id)["newbie"] == "coach"


# ---------------------------------------------------------------------------
# Seasons


def test_closing_the_season_opens_season_2(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    make_team(coach, league, "human")

    login(client, "coach")
    assert client.get(f"/leagues/{league.id}/seasons/next").status_code == 403
    assert client.post(f"/leagues/{league.id}/seasons/next").status_code == 403
    client.post("/logout")

    login(client, "comm")
    page = client.get(f"/leagues/{league.id}/seasons/next").text
    assert "Close Season 1?" in page
    assert len(fresh_league(league.id).seasons) == 1  # the GET only asks

    response = client.post(f"/leagues/{league.id}/seasons/next")
    assert response.headers["Location"] == f"/leagues/{league.id}"
    page = client.get(response.headers["Location"]).text
    assert "Season 2 has begun; every team carries over." in flashes(page)
    assert "· Season 2" in text_of(page)
    assert "Reikland Reavers" in page
    seasons = db.session.scalars(
        select(Season).where(Season.league_id == league.id).order_by(Season.number)
    ).all()
    assert [(s.name, s.closed_at is not None) for s in seasons] == [
        ("Season 1", True),
        ("Season 2", False),
    ]


def test_settings_that_would_take_back_spent_spp_are_refused_on_the_page(
    client: FlaskClient,
) -> None:
    # BB2025: 3 SPP a touchdown, so two touchdowns earned 6, all spent; at 2 SPP a
    # touchdown he would have earned 4, and 6 are already spent.
    comm, anna, bram = make_user("comm"), make_user("anna"), make_user("bram")
    league = make_league(comm, "bb2025", anna, bram)
    humans = make_active_team(
        anna, league, "human", "Reavers", (("human-lineman", 10), ("human-catcher", 1))
    )
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    catcher = next(p for p in humans.players if p.position_id == "human-catcher")
    report = MatchReport(SideReport(score=2), SideReport(), (PlayerEvents(catcher.id, td=2),))
    with unit_of_work() as session:
        matches.record_new_match(session, comm, league.id, humans.id, orcs.id, report)
    db.session.get(Player, catcher.id).spp_spent = 6  # as if he had bought an advancement
    db.session.commit()
    login(client, "comm")
    response = client.post(f"/leagues/{league.id}/settings", data=league_form(spp_awards="td=2"))
    assert response.status_code == 200
    assert form_errors(response.text) == [
        "Player 11 has already spent 6 SPP but would keep only 4; undo his advancements first."
    ]
    assert fresh_league(league.id).house_rules == {}
    db.session.expire_all()
    assert db.session.get(Player, catcher.id).spp_earned == 6


def test_the_remove_page_hands_the_teams_over_with_its_csrf_token(
    app: Flask, client: FlaskClient
) -> None:
    comm, coach, heir = make_user("comm"), make_user("coach"), make_user("heir")
    league = make_league(comm, "bb2025", coach, heir)
    team = make_team(coach, league, "human", "Coach Team")
    login(client, "comm")
    app.config["WTF_CSRF_ENABLED"] = True
    remove = f"/leagues/{league.id}/members/{coach.id}/remove"
    page = client.get(remove).text
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf
    assert "Coach Team" in text_of(page)

    refused = client.post(remove, data={"confirmed": "yes", "hand_teams_to": "heir"})
    assert refused.status_code == 400
    assert "Form expired" in refused.text
    wrong = client.post(
        remove, data={"confirmed": "yes", "hand_teams_to": "coach", "csrf_token": csrf.group(1)}
    )
    assert wrong.status_code == 400
    assert field_errors(wrong.text, "hand_teams_to") == ["Not a valid choice."]
    assert active_roles(league.id) == {"comm": "commissioner", "coach": "coach", "heir": "coach"}

    done = client.post(
        remove, data={"confirmed": "yes", "hand_teams_to": "heir", "csrf_token": csrf.group(1)}
    )
    assert done.status_code == 302
    assert active_roles(league.id) == {"comm": "commissioner", "heir": "coach"}
    db.session.expire_all()
    assert db.session.get(Team, team.id).coach.username == "heir"
    assert (
        '<a class="coach-name" href="/coaches/heir" data-testid="coach-link">'
        "<bdi>heir</bdi></a></dd>"
    ) in (client.get(f"/teams/{team.id}").text)


def test_settings_order_every_tie_breaker_and_score_concessions(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    login(client, "comm")
    url = f"/leagues/{league.id}/settings"
    # A box that cannot be read: its error beside it, nothing saved.
    before = list(fresh_league(league.id).tie_breakers)
    refused = client.post(url, data=league_form(concession_points="minus one"))
    assert refused.status_code == 200
    assert "Write a whole number, e.g. 0 or -1." in refused.text
    assert fresh_league(league.id).tie_breakers == before
    # All nine places, in the organiser's order, and the concession scoring.
    order = [
        "points",
        "opponents_points",
        "cas_caused",
        "head_to_head",
        "td_difference",
        "cas_difference",
        "td_scored",
        "fewest_conceded",
        "coin_toss",
    ]
    slots = {f"tie_breaker_{i}": code for i, code in enumerate(order, start=1)}
    saved = client.post(
        url, data=league_form(**slots, concession_points="-1", concession_score="2-0")
    )
    assert saved.status_code == 302
    stored = fresh_league(league.id)
    assert stored.tie_breakers == order
    assert stored.house_rules == {
        "tournament": {"concession_score": [2, 0], "concession_points": -1}
    }
