"""Jobs under the production configuration print URLs on PUBLIC_URL, with no request.

In production only the hosts of TRUSTED_HOSTS (by default PUBLIC_URL's) are accepted: a job
that made up a request for `localhost` to build its URLs got no URL adapter and failed
(every league pack and every sheet rendered ahead). The queue here is immediate, so a job
runs inside the call that enqueues it, under the same configuration as a worker's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from league.extensions import db
from league.models import League, Team
from league.pdf.roster import team_roster_pdf
from league.services import teams, webhooks
from league.services.unit_of_work import unit_of_work
from league.urls import public_url
from tests.conftest import make_app
from tests.pdf import pdf_text, sample
from tests.pdf.test_jobs import active_teams

#: A site served under a path prefix, behind a proxy that terminates TLS.
PUBLIC = "https://x.example/league"


@pytest.fixture
def production(app: Flask, database_url: str, tmp_path: Path) -> Flask:
    """A production app on the test database (whose schema `app` made)."""
    return make_app(
        database_url,
        LEAGUE_ENV="production",
        PUBLIC_URL=PUBLIC,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_SINGLE_PROCESS=True,
        RENDER_AHEAD=True,
        PDF_CACHE_DIR=str(tmp_path / "pdf-cache"),
    )


def test_production_trusts_only_the_public_host(production: Flask) -> None:
    # The premise of the fault: a request for any other host (localhost) is refused.
    assert production.config["TRUSTED_HOSTS"] == ["x.example"]
    client = production.test_client()
    assert client.get("/login", base_url="http://localhost/").status_code == 400
    assert client.get("/login", base_url=f"{PUBLIC}/").status_code == 200


def test_urls_are_built_on_the_public_address_with_or_without_a_request(
    production: Flask,
) -> None:
    with production.app_context():
        assert public_url("teams.show", team_id=7) == f"{PUBLIC}/teams/7"
    # A request on another path prefix (the proxy's own) prints the public one all the same.
    with production.test_request_context("/", base_url="https://x.example/internal/"):
        assert public_url("teams.show", team_id=7) == f"{PUBLIC}/teams/7"


def test_a_change_renders_the_sheet_ahead_with_the_public_team_url(production: Flask) -> None:
    with production.app_context():
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Prod League")
        (team_id,) = active_teams(coach, league, ("Ants",))
        # The commit of a hire enqueues `render_roster`, which runs here (immediate queue).
        with unit_of_work() as session:
            teams.hire_player(session, coach, team_id, teams.HirePlayer("human-lineman", "Ant"))
        team = db.session.get(Team, team_id)
        assert team is not None
        sheet = team_roster_pdf(team, paper=team.league.paper_size)
        assert sheet.cached, "the job rendered the sheet ahead"
        assert f"{PUBLIC}/teams/{team_id}" in "".join(pdf_text(sheet.data))


def test_the_league_pack_builds_in_production(production: Flask) -> None:
    with production.app_context():
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Pack League")
        active_teams(coach, league, ("Ants", "Bees"))
        league_id, username = league.id, commissioner.username
    client = production.test_client()
    client.environ_base["wsgi.url_scheme"] = "https"  # the secure session cookie comes back
    base = {"base_url": f"{PUBLIC}/"}
    response = client.post(
        "/login", data={"username": username, "password": sample.PASSWORD}, **base
    )
    assert response.status_code == 302

    assert client.post(f"/leagues/{league_id}/rosters/build", **base).status_code == 302
    status = client.get(f"/leagues/{league_id}/rosters/status.json", **base).json
    assert status["job"]["state"] == "done", status["job"]
    assert (status["job"]["done"], status["job"]["total"]) == (2, 2)
    # The page's own link, under the proxy's path prefix (the request's script root).
    assert status["url"].startswith("/league/")
    pack = client.get(status["url"].removeprefix("/league"), **base)
    assert pack.status_code == 200
    text = "".join(pdf_text(pack.data))
    with production.app_context():
        ids = [t.id for t in db.session.get(League, league_id).teams]
    for team_id in ids:
        assert f"{PUBLIC}/teams/{team_id}" in text


def test_webhook_payloads_link_the_public_address(production: Flask, database_url: str) -> None:
    # Deliveries are jobs too; their payloads name pages on the public address, also when
    # production is given SERVER_NAME instead of PUBLIC_URL (then plain http, Flask's default).
    by_name = make_app(
        database_url,
        LEAGUE_ENV="production",
        PUBLIC_URL=None,
        SERVER_NAME="bb.example",
        RATELIMIT_SINGLE_PROCESS=True,
    )
    with production.app_context():
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Hook League")
        (team_id,) = active_teams(coach, league, ("Ants",))
        team = db.session.get(Team, team_id)
        assert team is not None
        assert webhooks.team_payload(team)["team"]["url"] == f"{PUBLIC}/teams/{team_id}"
    with by_name.app_context():
        team = db.session.get(Team, team_id)
        assert team is not None
        assert webhooks.team_payload(team)["team"]["url"] == f"http://bb.example/teams/{team_id}"
