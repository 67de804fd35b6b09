"""In a real browser: the league pack while the job queue is out of reach (issue 33, point 9).

The page's script starts the build with a POST and polls status.json; both answer 503
while Redis is down, and the page says so instead of spinning or showing nothing.
"""

from __future__ import annotations

import pytest
from flask import Flask

from league import jobs
from tests.pdf import sample
from tests.pdf.test_jobs import active_teams

pytestmark = pytest.mark.e2e

UNAVAILABLE = (
    "The league pack cannot be built for now: the job queue does not answer. "
    "Try again in a minute. Each team's roster PDF still prints on its own."
)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_pack_page_says_the_queue_is_down(
    served_app: tuple[str, Flask], page, width: int
) -> None:
    from playwright.sync_api import expect

    base, app = served_app
    with app.app_context():
        commissioner, coach = sample.make_users()
        league = sample.make_sample_league(commissioner, coach, "Outage League")
        active_teams(coach, league, ("Ants", "Bees"))
        username, league_id = commissioner.username, league.id
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{base}/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(sample.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/leagues/{league_id}/rosters")

    # Redis goes away while the page is open (nothing listens on port 1).
    app.config["JOB_QUEUE"] = "redis://127.0.0.1:1/0"
    jobs.init_app(app)
    page.get_by_role("button", name="Build the league pack").click()
    expect(page.locator("[data-pack-error]")).to_have_text(UNAVAILABLE)
    expect(page.get_by_role("button", name="Build the league pack")).to_be_visible()

    response = page.reload()
    assert response is not None
    assert response.status == 503
    expect(page.get_by_test_id("pack-unavailable")).to_have_text(UNAVAILABLE)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
