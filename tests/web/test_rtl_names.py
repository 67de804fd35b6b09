"""Names someone typed are isolated from the text beside them (``<bdi>``), so a
right-to-left name does not take a shirt number or a bracket into its own direction
("#5 محمد" printed as "(5#) محمد")."""

from __future__ import annotations

from datetime import date

from flask import Flask
from flask.testing import FlaskClient

from league.extensions import db
from league.pdf.context import roster_context
from league.pdf.render import sheet_html
from league.services import access, teams
from league.services.unit_of_work import unit_of_work
from league.web.matches.postgame_views import label as postgame_label
from tests.factories import make_league, make_team, make_user
from tests.pages import login

ARABIC = "محمد"
HEBREW_TEAM = "הפועל"


def test_right_to_left_names_are_isolated_in_pages_and_sheets(
    app: Flask, client: FlaskClient
) -> None:
    coach = make_user("coach")
    league = make_league(make_user("commish"), "bb2025", coach)
    team = make_team(coach, league, name=HEBREW_TEAM)
    with unit_of_work() as session:
        player = teams.hire_player(
            session, coach, team.id, teams.HirePlayer("human-lineman", ARABIC, 5)
        )

    login(client, "coach")
    roster = client.get(f"/teams/{team.id}").text
    assert f"<h1><bdi>{HEBREW_TEAM}</bdi>" in roster
    assert f'<a href="/players/{player.id}"><bdi>{ARABIC}</bdi></a>' in roster
    coach_link = (
        '<a class="coach-name" href="/coaches/coach" data-testid="coach-link"><bdi>coach</bdi></a>'
    )
    assert f"<dd>{coach_link}</dd>" in roster
    assert f"<h1>#5 <bdi>{ARABIC}</bdi></h1>" in client.get(f"/players/{player.id}").text
    league_page = client.get(f"/leagues/{league.id}").text
    assert f'<a href="/teams/{team.id}"><bdi>{HEBREW_TEAM}</bdi></a>' in league_page
    # In an attribute the name is as typed: a title holds no markup.
    assert f'title="{HEBREW_TEAM}"' in league_page

    with app.test_request_context():
        sheet = roster_context(
            access.get_team(db.session, team.id),
            url="http://x",
            printed_on=date(2026, 1, 1),
            paper="a4",
        )
        html = sheet_html(sheet)
    assert f'<td class="name"><bdi>{ARABIC}</bdi></td>' in html
    assert f"<h1><bdi>{HEBREW_TEAM}</bdi></h1>" in html

    # Plain text (a select's option, a sentence) isolates with FSI ... PDI instead.
    assert postgame_label(player) == f"\u2068{ARABIC}\u2069 (#5)"
    confirm = client.get(f"/players/{player.id}/fire").text
    assert f"#5 \u2068{ARABIC}\u2069 leaves the draft" in confirm


def test_an_isolated_name_is_still_escaped(client: FlaskClient) -> None:
    coach = make_user("coach")
    league = make_league(make_user("commish"), "bb2025", coach)
    team = make_team(coach, league, name="<b>Bold</b> & Co")
    page = client.get(f"/teams/{team.id}").text
    assert "<h1><bdi>&lt;b&gt;Bold&lt;/b&gt; &amp; Co</bdi>" in page
