"""The main pages in each of the five languages on a phone (390x844): the page says its
language (`<html lang>`), nothing scrolls sideways and no element reaches past the screen
(German's long words, French's longer sentences).

The language comes from the browser's Accept-Language. The test does not depend on any
translation (the catalogues are being completed): only on the lang attribute and the layout.
Set LANGUAGE_SCREENSHOTS to a folder to keep a screenshot of every page.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from league.i18n import LANGUAGE_CODES
from league.seeding.demo import DEMO_COMMISSIONER
from tests.e2e.conftest import serving
from tests.e2e.test_layout import Site, _demo_site

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# The main pages; "login" is seen signed out, the others signed in.
PAGES = {
    "home": "/",
    "league": "/leagues/{s.league_id}",
    "standings": "/leagues/{s.league_id}/standings",
    "fixtures": "/leagues/{s.league_id}/fixtures",
    "roster": "/teams/{s.active_team_id}",
    "player": "/players/{s.scorer_id}",
    "skills": "/rules/bb2025/skills",
    "profile": "/profile",
    "login": "/login",
}

# Visible elements whose box reaches past the right edge of the screen (or starts left of
# it), unless an ancestor scrolls or clips them (a wide table in its scrolling wrapper).
OVERFLOWING = """() => {
  const width = window.innerWidth;
  const clipped = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  const describe = el => {
    const box = el.getBoundingClientRect();
    const text = (el.innerText || '').slice(0, 40);
    return `${el.tagName.toLowerCase()}.${el.className} (${box.left}..${box.right}): ${text}`;
  };
  const past = box => box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
  const boxes = [...document.body.querySelectorAll('*')].filter(el => {
    const box = el.getBoundingClientRect();
    if (box.height === 0) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') return false;
    if (style.position === 'absolute' && box.right <= 0) return false;  // the skip link
    return past(box) && !clipped(el);
  }).map(describe);
  // Text running out of its box (a long word that does not wrap) is not the box's width.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.data.trim() || !parent || getComputedStyle(parent).visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.height > 0 && past(box) && !clipped(node) && !(parent.closest('.skip-link'))) {
      texts.push(`text in ${describe(parent)}`);
    }
  }
  return [...boxes, ...texts];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Site, str]]:
    """The app served with the demo data."""
    directory = tmp_path_factory.mktemp("languages")
    with serving(directory, "league_e2e_languages", _demo_site) as (base, _app, filled):
        assert filled is not None
        site, password = filled
        yield base, site, password


@pytest.fixture(scope="module", params=LANGUAGE_CODES)
def tabs(request: pytest.FixtureRequest, browser, server):
    """(language, signed-out tab, signed-in tab) of a phone whose browser asks for it."""
    base, _site, password = server
    language = request.param
    contexts = [
        browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": language})
        for _ in range(2)
    ]
    anonymous, signed_in = (context.new_page() for context in contexts)
    for tab in (anonymous, signed_in):
        tab.set_default_timeout(30_000)
    # The form's labels are in the page's language: fill it by the fields' names.
    signed_in.goto(f"{base}/login")
    signed_in.locator("input[name=username]").fill(DEMO_COMMISSIONER)
    signed_in.locator("input[name=password]").fill(password)
    signed_in.locator("input[name=submit]").click()
    signed_in.locator(".nav-user").wait_for()
    yield language, anonymous, signed_in
    for context in contexts:
        context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_in_the_language_and_fits_a_phone(tabs, server, name: str) -> None:
    base, site, _password = server
    language, anonymous, signed_in = tabs
    tab = anonymous if name == "login" else signed_in
    response = tab.goto(base + PAGES[name].format(s=site))
    assert response is not None
    assert response.status == 200

    assert tab.evaluate("document.documentElement.lang") == language
    width = tab.evaluate("window.innerWidth")
    assert width == PHONE["width"]
    assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
    assert tab.evaluate(OVERFLOWING) == []

    folder = os.environ.get("LANGUAGE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(Path(folder) / f"{language}-{name}.png"), full_page=True)
