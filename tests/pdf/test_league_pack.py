"""The league pack: every active team's sheet in standings order, for commissioners only."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from league.extensions import db
from league.services import matches, teams
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import with_touchdowns
from tests.pages import login
from tests.pdf import pdf_text, sample


def test_the_pack_prints_active_teams_in_standings_order(client: FlaskClient, app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach, "Pack League")
    with unit_of_work() as session:
        # Active teams with a player each (quick to print), and a draft left out of the pack.
        created = {}
        for name in ("Aardvarks", "Zebras"):
            team = teams.create_team(
                session, coach, teams.NewTeam(league.id, name, "human", active=True)
            )
            session.flush()
            teams.hire_player(
                session, coach, team.id, teams.HirePlayer("human-lineman", f"{name} Player")
            )
            created[name] = team
        teams.create_team(session, coach, teams.NewTeam(league.id, "Drafty Dogs", "human"))
    with unit_of_work() as session:  # the Zebras beat the Aardvarks: they lead the table
        matches.record_new_match(
            session,
            commissioner,
            league.id,
            created["Zebras"].id,
            created["Aardvarks"].id,
            with_touchdowns(
                MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(mistake_d6=6)),
                created["Zebras"],
                created["Aardvarks"],
            ),
        )
    db.session.expire_all()
    pack_url = f"/leagues/{league.id}/rosters.pdf"
    page_url = f"/leagues/{league.id}/rosters"

    # Anonymous visitors and coaches are refused.
    assert client.get(pack_url).status_code == 403
    login(client, coach.username, sample.PASSWORD)
    assert client.get(pack_url).status_code == 403
    assert client.get(page_url).status_code == 403
    assert "League pack" not in client.get(f"/leagues/{league.id}").text
    client.post("/logout")

    login(client, commissioner.username, sample.PASSWORD)
    assert "League pack" in client.get(f"/leagues/{league.id}").text
    before = client.get(page_url).text
    assert "Build the league pack" in before
    assert before.index("Zebras") < before.index("Aardvarks")
    assert "Drafty Dogs" not in before
    # Not built yet: the download leads to the page that builds it.
    assert client.get(pack_url).headers["Location"].endswith(page_url)

    # The tests' queue is immediate: the job has run when the POST answers.
    started = client.post(f"/leagues/{league.id}/rosters/build", data={"paper": "a4"})
    assert started.status_code == 302
    status = client.get(f"{page_url}/status.json").json
    assert status["ready"] is True
    assert status["job"]["state"] == "done"
    assert (status["job"]["done"], status["job"]["total"]) == (2, 2)
    response = client.get(pack_url)

    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="pack-league-rosters.pdf"' in response.headers["Content-Disposition"]
    pages = pdf_text(response.data)
    assert len(pages) == 4  # two sheets of two pages
    assert "Zebras" in pages[0]
    assert "Zebras Player" in pages[0]
    assert "Aardvarks Player" in pages[2]
    assert "Page 1 of 2" in pages[2]  # each team's sheet numbers its own pages
    assert "Drafty Dogs" not in " ".join(pages)

    after = client.get(page_url).text
    assert "Ready: nothing has changed" in after
    assert "Build the league pack" not in after
    assert "2 rendered, 0 reused" in after
    seconds = re.search(r'data-testid="pack-seconds">([\d.]+) s<', after)
    assert seconds is not None
    assert float(seconds.group(1)) > 0
    again = client.get(pack_url)
    assert again.headers["X-PDF-Cache"] == "hit"
    assert again.data == response.data


def test_an_empty_pack_says_so(client: FlaskClient, app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach, "Empty League")
    login(client, commissioner.username, sample.PASSWORD)

    assert "No active team yet" in client.get(f"/leagues/{league.id}/rosters").text
    response = client.get(f"/leagues/{league.id}/rosters.pdf")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/leagues/{league.id}/rosters")


def test_the_team_page_offers_the_roster_pdf(client: FlaskClient, app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = sample.make_sample_team(coach, league, "Button Bashers", players=1)

    page = client.get(f"/teams/{team.id}").text  # anonymous: the sheet is public

    assert f'href="/teams/{team.id}/roster.pdf"' in page
    assert "Print roster (PDF)" in page
