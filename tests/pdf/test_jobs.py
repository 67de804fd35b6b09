"""The league pack as a job (progress, joining, reuse, failure) and sheets rendered ahead.

The tests' queue is immediate (league/jobs.py): a job runs inside the call that enqueues
it, so each test sees the whole job. tests/pdf/test_job_worker.py runs real workers.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from league import jobs
from league.extensions import db
from league.models import League, Team, User
from league.pdf import roster
from league.services import teams
from league.services.unit_of_work import unit_of_work
from tests.pages import login
from tests.pdf import pdf_text, sample


def active_teams(coach: User, league: League, names: tuple[str, ...]) -> list[int]:
    """Active teams of one lineman each (quick to print)."""
    ids = []
    with unit_of_work() as session:
        for name in names:
            team = teams.create_team(
                session, coach, teams.NewTeam(league.id, name, "human", active=True)
            )
            session.flush()
            teams.hire_player(
                session, coach, team.id, teams.HirePlayer("human-lineman", f"{name} Lineman")
            )
            ids.append(team.id)
    return ids


@pytest.fixture
def pack_league(client: FlaskClient) -> tuple[League, User, list[int]]:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach, "Jobs League")
    ids = active_teams(coach, league, ("Ants", "Bees", "Crows"))
    login(client, commissioner.username, sample.PASSWORD)
    return league, coach, ids


def build(client: FlaskClient, league: League) -> dict:
    response = client.post(f"/leagues/{league.id}/rosters/build", data={"paper": "a4"})
    assert response.status_code == 302
    return client.get(f"/leagues/{league.id}/rosters/status.json").json


def test_the_job_tells_its_progress_after_every_team(
    client: FlaskClient, pack_league: tuple[League, User, list[int]], monkeypatch
) -> None:
    league, _, _ = pack_league
    seen: list[tuple[str, int, int]] = []
    save = jobs._save

    def spy(league_id: int, paper: str, job: jobs.PackJob) -> None:
        seen.append((job.state, job.done, job.total))
        save(league_id, paper, job)

    monkeypatch.setattr(jobs, "_save", spy)

    status = build(client, league)

    # Three teams: one step per team rendered, then done.
    assert seen == [
        ("running", 0, 3),
        ("running", 1, 3),
        ("running", 2, 3),
        ("running", 3, 3),
        ("done", 3, 3),
    ]
    assert status["ready"] is True
    assert status["job"]["state"] == "done"
    assert status["url"] == f"/leagues/{league.id}/rosters.pdf?paper=a4"
    assert len(pdf_text(client.get(status["url"]).data)) == 6  # three sheets of two pages


def test_a_second_request_joins_the_build_under_way(
    client: FlaskClient, pack_league: tuple[League, User, list[int]], monkeypatch
) -> None:
    league, _, _ = pack_league
    builds: list[int] = []
    joins: list[tuple[jobs.PackJob, bool]] = []
    build_pack = roster.build_league_pack

    def counting(*args: object, progress, **kwargs: object) -> object:
        builds.append(1)

        def and_someone_else_asks(done: int, total: int) -> None:
            progress(done, total)
            if done == 1:  # while the first team is done, another request starts the pack
                joins.append(jobs.start_pack(db.session.get(League, league.id), "a4", total))

        return build_pack(*args, progress=and_someone_else_asks, **kwargs)

    monkeypatch.setattr(jobs, "build_league_pack", counting)

    status = build(client, league)

    assert len(builds) == 1
    [(job, joined)] = joins
    assert joined is True
    assert (job.state, job.done, job.total) == ("running", 1, 3)
    assert status["job"]["state"] == "done"
    # Once it is built the button is gone: the download is there.
    assert "Build the league pack" not in client.get(f"/leagues/{league.id}/rosters").text


def test_a_running_build_that_stopped_moving_is_started_again(
    client: FlaskClient, pack_league: tuple[League, User, list[int]]
) -> None:
    league, _, _ = pack_league
    # A worker died at team 2 of 3 long ago (more than STALE_AFTER seconds).
    stuck = jobs.PackJob("running", 2, 3, time.time() - jobs.STALE_AFTER - 1)
    jobs._save(league.id, "a4", stuck)
    assert client.get(f"/leagues/{league.id}/rosters/status.json").json["job"]["active"] is False

    status = build(client, league)

    assert status["ready"] is True
    assert (status["job"]["state"], status["job"]["done"]) == ("done", 3)


def test_after_a_change_only_that_team_renders_again(
    client: FlaskClient, pack_league: tuple[League, User, list[int]], pdf_cache: Path
) -> None:
    league, coach, ids = pack_league
    build(client, league)
    first = roster.PdfCache(pdf_cache).get_meta(f"league-{league.id}")
    assert first is not None
    assert (first["teams"], first["rendered"]) == (3, 3)

    with unit_of_work() as session:  # Bees hire a second lineman
        teams.hire_player(session, coach, ids[1], teams.HirePlayer("human-lineman", "New Bee"))
    status = build(client, league)

    again = roster.PdfCache(pdf_cache).get_meta(f"league-{league.id}")
    assert again is not None
    assert (again["teams"], again["rendered"]) == (3, 1)
    assert "1 rendered, 2 reused" in client.get(f"/leagues/{league.id}/rosters").text
    assert "New Bee" in " ".join(pdf_text(client.get(status["url"]).data))


def test_a_failing_build_is_retried_then_shown_failed_with_its_reason(
    client: FlaskClient, pack_league: tuple[League, User, list[int]], pdf_cache: Path, monkeypatch
) -> None:
    league, _, _ = pack_league
    attempts: list[int] = []

    def broken(sheet: object) -> bytes:
        attempts.append(1)
        raise OSError("the font file is unreadable")

    monkeypatch.setattr(roster, "render_sheet", broken)

    status = build(client, league)

    assert len(attempts) == 1 + jobs.RETRIES  # the first attempt and each retry
    assert status["ready"] is False
    assert status["job"]["state"] == "failed"
    assert status["job"]["error"] == "OSError: the font file is unreadable"
    page = client.get(f"/leagues/{league.id}/rosters").text
    assert "The last build failed" in page
    assert "OSError: the font file is unreadable" in page
    assert "Build the league pack" in page  # it can be started again
    # Nothing half-written: no pack, no sheet, no temporary file.
    assert not pdf_cache.exists() or not list(pdf_cache.iterdir())
    assert client.get(f"/leagues/{league.id}/rosters.pdf").status_code == 302


def test_a_change_renders_the_sheet_ahead_so_the_download_is_a_cache_hit(
    app: Flask, client: FlaskClient
) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    app.config["RENDER_AHEAD"] = True
    [team_id] = active_teams(coach, league, ("Ahead",))
    assert client.get(f"/teams/{team_id}/roster.pdf").headers["X-PDF-Cache"] == "hit"

    with unit_of_work() as session:  # a hire changes what the sheet prints
        teams.hire_player(session, coach, team_id, teams.HirePlayer("human-lineman", "Newcomer"))

    response = client.get(f"/teams/{team_id}/roster.pdf")
    assert response.headers["X-PDF-Cache"] == "hit"
    assert "Newcomer" in pdf_text(response.data)[0]


def test_without_render_ahead_the_next_download_renders(app: Flask, client: FlaskClient) -> None:
    assert app.config["RENDER_AHEAD"] is False  # the tests' default
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    [team_id] = active_teams(coach, league, ("Behind",))
    assert db.session.get(Team, team_id) is not None
    assert client.get(f"/teams/{team_id}/roster.pdf").headers["X-PDF-Cache"] == "miss"


def test_the_queue_follows_the_configuration(app: Flask, tmp_path: Path) -> None:
    # In-memory and test databases run jobs at once; a SQLite file gets a queue beside it.
    assert jobs.queue_url(app) == "immediate"
    app.config.update(JOB_QUEUE=None, TESTING=False)
    app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path}/league.sqlite3"
    assert jobs.queue_url(app) == f"sqlite:///{tmp_path}/league.jobs.sqlite3"
    app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://db.example/league"
    assert jobs.queue_url(app) == f"sqlite:///{Path(app.instance_path)}/jobs.sqlite3"
    app.config["JOB_QUEUE"] = "redis://127.0.0.1:6379/0"
    assert jobs.queue_url(app) == "redis://127.0.0.1:6379/0"
