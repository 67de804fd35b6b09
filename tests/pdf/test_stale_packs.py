"""The periodic job that restarts the league packs whose worker died (README: a pack whose
progress stops for STALE_AFTER is started again), without anyone asking for it.

The tests' queue is immediate: the restarted build runs inside the call.
"""

from __future__ import annotations

import time
from datetime import datetime

from flask.testing import FlaskClient

from league import jobs
from tests.pages import login
from tests.pdf import pdf_text, sample
from tests.pdf.test_jobs import active_teams


def test_a_stale_pack_is_restarted_and_others_are_left_alone(client: FlaskClient) -> None:
    commissioner, coach = sample.make_users()
    stuck = sample.make_sample_league(commissioner, coach, "Stuck League")
    moving = sample.make_sample_league(commissioner, coach, "Moving League")
    failed = sample.make_sample_league(commissioner, coach, "Failed League")
    for league in (stuck, moving, failed):
        active_teams(coach, league, (f"{league.name} Ants", f"{league.name} Bees"))
    long_ago = time.time() - jobs.STALE_AFTER - 1
    # A worker killed at team 1 of 2, long ago: nobody is building it any more.
    jobs._save(stuck.id, "a4", jobs.PackJob("running", 1, 2, long_ago))
    # A build that moved a moment ago (its worker is alive), and one that failed for good.
    under_way = jobs.PackJob("running", 1, 2, time.time())
    jobs._save(moving.id, "letter", under_way)
    gave_up = jobs.PackJob("failed", 0, 2, long_ago, error="OSError: disk full")
    jobs._save(failed.id, "a4", gave_up)

    assert jobs.restart_stale_packs.call_local() == [(stuck.id, "a4")]

    done = jobs.pack_job(stuck.id, "a4")
    assert done is not None
    assert (done.state, done.done, done.total) == ("done", 2, 2)
    assert jobs.pack_job(moving.id, "letter") == under_way
    assert jobs.pack_job(failed.id, "a4") == gave_up
    # The rebuilt pack is the one the page offers: two sheets of two pages.
    login(client, commissioner.username, sample.PASSWORD)
    status = client.get(f"/leagues/{stuck.id}/rosters/status.json").json
    assert status["ready"] is True
    assert len(pdf_text(client.get(status["url"]).data)) == 4


def test_the_restart_and_the_heartbeat_run_every_minute_in_the_workers() -> None:
    # Huey's scheduler asks every minute (and as a worker starts) which periodic jobs are
    # due: these two are, whatever the minute.
    for moment in (datetime(2026, 1, 1, 0, 0), datetime(2026, 6, 30, 13, 47, 59)):
        due = jobs.huey.read_periodic(moment)
        for job in (jobs.restart_stale_packs, jobs.heartbeat):
            assert any(isinstance(task, job.task_class) for task in due), (job, moment)
