"""Browser tests: the app served on a free local port, driven by Debian's Chromium.

Playwright's bundled browsers cannot be downloaded here, so the tests launch
/usr/bin/chromium. Without it they skip, except with CI=true, where they fail.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from league.extensions import db
from league.services.unit_of_work import unit_of_work
from tests.conftest import (
    IN_CI,
    ON_POSTGRES,
    SERVER_POLL_SECONDS,
    create_postgres_database,
    drop_postgres_database,
    make_app,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A page closed while the development server still sends a static file leaves that
    file to the garbage collector (werkzeug's dropped connection), which warns in whatever
    test runs then. It is the test server's, not the app's: gunicorn serves production."""
    for item in items:
        if item.path.is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.filterwarnings("ignore:unclosed file:ResourceWarning"))
            item.add_marker(
                pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
            )


_T = TypeVar("_T")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if shutil.which(CHROMIUM) is None:
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(f"{message}; CI=true requires the browser tests")
        pytest.skip(f"browser tests skipped: {message}")
    return CHROMIUM


@contextmanager
def serving(
    database_dir: Path, name: str, fill: Callable[[Session], _T] | None = None
) -> Iterator[tuple[str, Flask, _T | None]]:
    """The real app (CSRF on) in a thread, on its own database: PostgreSQL ``name`` under
    TEST_DATABASE=postgresql, else a SQLite file in ``database_dir``. ``fill`` puts the data
    in through the services first; yields the base URL, the app and what ``fill`` returned."""
    url = (
        create_postgres_database(name)
        if ON_POSTGRES
        else f"sqlite:///{database_dir / 'e2e.sqlite3'}"
    )
    app = make_app(url, WTF_CSRF_ENABLED=True, TESTING=False)
    filled = None
    with app.app_context():
        db.create_all()
        if fill is not None:
            with unit_of_work() as session:
                filled = fill(session)
            db.session.remove()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SERVER_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app, filled
    finally:
        server.shutdown()
        thread.join()
        with app.app_context():
            db.engine.dispose()
        if ON_POSTGRES:
            drop_postgres_database(url)


@pytest.fixture
def served_app(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """The real app (CSRF on) in a thread, on its own database; yields the base URL and the
    app (to set up data through the services)."""
    with serving(tmp_path, "league_e2e") as (base, app, _):
        yield base, app


@pytest.fixture
def live_server(served_app: tuple[str, Flask]) -> str:
    """The served app's base URL."""
    return served_app[0]


@pytest.fixture(scope="session")
def browser(chromium_path: str):
    """One Chromium for the session's pages (each test opens its own context: its own
    cookies and storage, as a fresh browser has)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A tab in a context of its own (starting Chromium for each test cost seconds)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


#: The two sizes the layout tests look at: a phone and a laptop.
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


@contextmanager
def signed_in_tab(
    browser: Any, base: str, size: str, username: str, password: str
) -> Iterator[Any]:
    """A tab of `size` (SIZES) in a context of its own, logged in through the form."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.locator(".nav-user").wait_for()
    try:
        yield page
    finally:
        context.close()
