"""Issue 20: which language a page is in, the footer switcher, the profile language,
the league's default language, and what is kept or cached per language.

The catalogues are not translated yet; these tests use the few texts this mechanism
translated itself in French and German (the switcher's button and label).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from league import caching
from league.extensions import db
from league.i18n import current_language, format_number, gettext, in_language
from league.models import League, User
from league.services import leagues, matches, teams, users
from league.services.errors import RuleViolation
from league.services.unit_of_work import unit_of_work
from league.web.rules import format_gold
from tests.factories import make_active_team, make_league, make_team, make_user
from tests.pages import field_errors, login

#: The switcher's button, as the catalogues of this commit translate it.
BUTTON = {"en": "Change language", "fr": "Changer de langue", "de": "Sprache ändern"}


def language_of(page: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', page)
    assert found, page[:200]
    return found.group(1)


def button_of(page: str) -> str:
    found = re.search(r'<button type="submit" class="button small">([^<]+)</button>', page)
    assert found, page[-1500:]
    return found.group(1)


def set_default_language(league_id: int, language: str) -> None:
    """As the settings page does (leagues.update_settings), with every other setting kept."""
    with unit_of_work() as session:
        league = session.get(League, league_id)
        assert league is not None
        commissioner = league.members[0].user
        settings = replace(leagues.current_settings(league), default_language=language)
        leagues.update_settings(session, commissioner, league_id, settings)


def test_english_without_any_choice(client: FlaskClient) -> None:
    page = client.get("/").text
    assert language_of(page) == "en"
    assert button_of(page) == "Change language"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de", "de"),
        ("de-AT,de;q=0.9,en;q=0.5", "de"),
        ("nl, fr;q=0.8, en;q=0.5", "fr"),  # Dutch is not offered: the best of the rest
        ("en-GB", "en"),
    ],
)
def test_the_browser_language_among_the_five(
    client: FlaskClient, header: str, expected: str
) -> None:
    page = client.get("/", headers={"Accept-Language": header}).text
    assert language_of(page) == expected
    assert button_of(page) == BUTTON[expected]


def test_the_profile_language_beats_the_browser(client: FlaskClient) -> None:
    user = make_user("grim")
    with unit_of_work() as session:
        users.set_language(session, session.merge(user), "fr")
    login(client, "grim")
    page = client.get("/", headers={"Accept-Language": "de"}).text
    assert language_of(page) == "fr"
    assert button_of(page) == "Changer de langue"


def test_the_league_language_when_the_browser_asks_for_none_of_the_five(
    client: FlaskClient,
) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    team = make_team(boss, league)
    set_default_language(league.id, "de")
    for path in (
        f"/leagues/{league.id}",
        f"/leagues/{league.id}/standings",
        f"/teams/{team.id}",
    ):
        page = client.get(path, headers={"Accept-Language": "nl"}).text
        assert language_of(page) == "de", path
        assert button_of(page) == "Sprache ändern", path
        # Asked for French, the visitor gets French on the same page.
        page = client.get(path, headers={"Accept-Language": "fr"}).text
        assert language_of(page) == "fr", path
    # Pages of no league: English.
    assert language_of(client.get("/rules", headers={"Accept-Language": "nl"}).text) == "en"


def test_a_matchs_pages_speak_its_leagues_language(client: FlaskClient) -> None:
    """A match's pages (its report, its pre-game) belong to its league: a visitor who asks
    for none of the five languages reads them in the league's default language."""
    boss = make_user("boss")
    league = make_league(boss)
    home = make_active_team(boss, league, "human", "Home", (("human-lineman", 11),))
    away = make_active_team(boss, league, "human", "Away", (("human-lineman", 11),))
    with unit_of_work() as session:
        match = matches.schedule_match(session, boss, league.id, home.id, away.id)
    set_default_language(league.id, "de")
    for path in (f"/matches/{match.id}", f"/matches/{match.id}/pregame"):
        page = client.get(path, headers={"Accept-Language": "nl"}).text
        assert language_of(page) == "de", path
        assert button_of(page) == "Sprache ändern", path


def test_the_footer_switch_keeps_the_choice_and_goes_back(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "fr", "next": "/rules?tab=1"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/rules?tab=1"
    # The choice beats the browser's.
    page = client.get("/", headers={"Accept-Language": "de"}).text
    assert language_of(page) == "fr"
    assert '<option value="fr" selected lang="fr">Français</option>' in page


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil"])
def test_the_switch_goes_back_only_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.post("/language", data={"language": "de", "next": target})
    assert response.headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "nl", "next": "/rules"})
    assert response.headers["Location"] == "/rules"
    with client.session_transaction() as session:
        assert "language" not in session
    assert language_of(client.get("/").text) == "en"


def test_the_switch_of_a_signed_in_user_saves_the_profile(client: FlaskClient) -> None:
    make_user("grim")
    login(client, "grim")
    client.post("/language", data={"language": "it", "next": "/"})
    db.session.expire_all()
    user = db.session.scalar(select(User).where(User.username == "grim"))
    assert user is not None
    assert user.language == "it"
    # Signed out, in another browser: still Italian once signed in again.
    other = client.application.test_client()
    login(other, "grim")
    assert language_of(other.get("/", headers={"Accept-Language": "de"}).text) == "it"


def test_the_switch_needs_the_csrf_token_when_signed_in(app: Flask, client: FlaskClient) -> None:
    make_user("grim")
    app.config["WTF_CSRF_ENABLED"] = True  # read at every request
    # Signed-out pages are cached for everyone: their switcher carries no token, and
    # needs none (all it changes is that browser's session).
    switcher = client.get("/rules").text.split('class="language-switcher"')[1]
    assert "csrf_token" not in switcher
    assert client.post("/language", data={"language": "fr"}).status_code == 302
    app.config["WTF_CSRF_ENABLED"] = False
    login(client, "grim")
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get("/rules").text
    switcher = page.split('class="language-switcher"')[1]
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', switcher)
    assert token, switcher
    refused = client.post("/language", data={"language": "de", "next": "/rules"})
    assert refused.status_code == 400
    db.session.expire_all()
    assert db.session.scalar(select(User.language).where(User.username == "grim")) is None
    done = client.post(
        "/language", data={"language": "de", "next": "/rules", "csrf_token": token.group(1)}
    )
    assert done.status_code == 302
    db.session.expire_all()
    assert db.session.scalar(select(User.language).where(User.username == "grim")) == "de"


def test_the_profile_language_field(client: FlaskClient) -> None:
    make_user("grim")
    login(client, "grim")
    page = client.get("/profile").text
    assert '<option selected value="">As my browser asks</option>' in page
    response = client.post("/profile/language", data={"language": "de"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/profile"
    page = client.get("/profile").text
    assert "Ihre Sprache ist gespeichert." in page  # the message, already in German
    assert language_of(page) == "de"
    assert '<option selected value="de">Deutsch</option>' in page

    response = client.post("/profile/language", data={"language": "nl"})
    assert response.status_code == 400
    # WTForms' own message, in the reader's language (German, saved just before).
    assert field_errors(response.text, "language") == ["Keine gültige Auswahl."]
    db.session.expire_all()
    user = db.session.scalar(select(User).where(User.username == "grim"))
    assert user is not None
    assert user.language == "de"

    client.post("/profile/language", data={"language": ""})
    db.session.expire_all()
    assert db.session.get(User, user.id).language is None  # type: ignore[union-attr]


def test_the_service_refuses_an_unknown_language(app: Flask) -> None:
    user = make_user("grim")
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        users.set_language(session, session.merge(user), "xx")
    assert refused.value.field == "language"
    db.session.expire_all()
    assert db.session.get(User, user.id).language is None  # type: ignore[union-attr]


def test_the_league_settings_page_sets_the_default_language(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    login(client, "boss")
    page = client.get(f"/leagues/{league.id}/settings").text
    assert '<option selected value="en">English</option>' in page
    assert '<option value="es">Español</option>' in page
    db.session.expire_all()
    assert db.session.get(League, league.id).default_language == "en"  # type: ignore[union-attr]


def test_cached_pages_are_kept_per_language(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    caching.pages.clear()
    path = f"/leagues/{league.id}"
    german = client.get(path, headers={"Accept-Language": "de"})
    french = client.get(path, headers={"Accept-Language": "fr"})
    again = client.get(path, headers={"Accept-Language": "de"})
    assert button_of(german.text) == "Sprache ändern"
    assert button_of(french.text) == "Changer de langue"
    assert again.text == german.text
    assert german.headers["ETag"] != french.headers["ETag"]
    assert "Accept-Language" in german.headers["Vary"]
    # A German browser revalidating its copy gets 304; a French one with it does not.
    etag = german.headers["ETag"]
    revalidated = client.get(path, headers={"Accept-Language": "de", "If-None-Match": etag})
    assert revalidated.status_code == 304
    other = client.get(path, headers={"Accept-Language": "fr", "If-None-Match": etag})
    assert other.status_code == 200
    assert button_of(other.text) == "Changer de langue"
    # The league's language changes its visitors' cached pages (a write: a new revision).
    client.get(path, headers={"Accept-Language": "nl"})
    set_default_language(league.id, "fr")
    assert language_of(client.get(path, headers={"Accept-Language": "nl"}).text) == "fr"


def test_the_team_page_cache_follows_the_league_language(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    team = make_team(boss, league)
    path = f"/teams/{team.id}"
    assert language_of(client.get(path).text) == "en"
    set_default_language(league.id, "de")
    assert language_of(client.get(path).text) == "de"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "1,000,000"),
        ("de", "1.000.000"),
        ("fr", "1\u202f000\u202f000"),  # CLDR's French group separator: a narrow no-break space
        ("it", "1.000.000"),
        ("es", "1.000.000"),
    ],
)
def test_gold_is_grouped_as_the_language_writes_it(
    app: Flask, language: str, expected: str
) -> None:
    with app.test_request_context("/"), in_language(language):
        assert format_gold(1_000_000) == expected
        assert format_number(1_000_000) == expected
        assert format_gold(None) == "-"


def test_the_date_filter(app: Flask) -> None:
    template = app.jinja_env.from_string("{{ day|date }}|{{ day|date('short') }}|{{ none|date }}")
    day = date(2026, 11, 24)
    with app.test_request_context("/"):
        assert template.render(day=day, none=None) == "Nov 24, 2026|11/24/26|"
        with in_language("de"):
            assert template.render(day=day, none=None) == "24.11.2026|24.11.26|"


def test_the_datetime_and_list_filters(app: Flask) -> None:
    template = app.jinja_env.from_string(
        "{{ at|datetime }}|{{ iso|datetime }}|{{ day|date(skeleton='yMMMEd') }}|"
        "{{ names|format_list }}|{{ names|format_list('or') }}"
    )
    values = {
        "at": datetime(2026, 11, 24, 14, 5),
        "iso": "2026-11-24T14:05:00+00:00",
        "day": date(2026, 11, 24),
        "names": ["A", "B", "<C>"],
    }
    with app.test_request_context("/"):
        assert template.render(**values) == (
            "Nov 24, 2026, 2:05\u202fPM|Nov 24, 2026, 2:05\u202fPM|Tue, Nov 24, 2026|"
            "A, B, and &lt;C&gt;|A, B, or &lt;C&gt;"
        )
        with in_language("de"):
            assert template.render(**values) == (
                "24.11.2026, 14:05|24.11.2026, 14:05|Di., 24. Nov. 2026|"
                "A, B und &lt;C&gt;|A, B oder &lt;C&gt;"
            )


def test_a_job_speaks_the_language_it_is_told_outside_any_request(app: Flask) -> None:
    # The app context of a job, no request: the league's language is forced.
    assert current_language() == "en"
    with in_language("de"):
        assert current_language() == "de"
        assert gettext("Change language") == "Sprache ändern"
        assert format_number(1234567) == "1.234.567"
    with in_language("xx"):  # unknown: English
        assert gettext("Change language") == "Change language"
    assert gettext("Change language") == "Change language"


def test_the_calendar_speaks_the_leagues_language(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    with unit_of_work() as session:
        home, away = (
            teams.create_team(session, boss, teams.NewTeam(league.id, name, "human", active=True))
            for name in ("Alpha", "Bravo")
        )
    with unit_of_work() as session:
        matches.schedule_match(
            session, boss, league.id, home.id, away.id, scheduled_for=date(2026, 12, 5)
        )
    set_default_language(league.id, "fr")
    # Whoever downloads it (a German browser here): the league's French.
    body = client.get(
        f"/leagues/{league.id}/fixtures.ics", headers={"Accept-Language": "de"}
    ).get_data(as_text=True)
    assert "SUMMARY:Alpha contre Bravo\r\n" in body


def test_ordinals_and_places_in_each_language(app: Flask) -> None:
    from league.services.text import ordinal, place_name

    with app.test_request_context("/"):
        numbers = (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)
        assert [ordinal(n) for n in numbers] == [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
            "101st", "111th", "112th",
        ]  # fmt: skip
        assert [place_name(n) for n in (1, 2, 3)] == ["1st", "2nd", "3rd"]
        with in_language("de"):  # German: "3." (the translator's pattern, the default too)
            assert [ordinal(n) for n in (1, 2, 3)] == ["1.", "2.", "3."]
            assert [place_name(n) for n in (1, 2, 3)] == ["1.", "2.", "3."]
