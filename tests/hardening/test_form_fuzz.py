"""Hostile form posts never give a server error: every web form endpoint, fuzzed with Hypothesis.

Each form endpoint is posted to, as a user who may use it (mostly the
commissioner, the coach where it is his team), with its fields drawn from:
the valid value, nothing (a missing field), random and hostile strings, huge
and negative numbers, floats, NUL characters, very long strings, repeated
fields, plus unknown extra fields and now and then a body that is not a form at
all. Whatever arrives, the answer is a page, a redirect or a 4xx: never a 5xx.
Besides what Hypothesis draws, every field gets the worst values (NUL, numbers
no column holds, very long strings, nothing) once each, one field at a time.
Query strings and ids in URLs get the same treatment.

The examples of one endpoint share one fresh copy of the seeded world, so what
one example changes (a player fired, a season closed) the next ones meet.

HARDENING_EXAMPLES sets the examples per endpoint (default 12: the whole file
takes well under a minute on SQLite). Run it hard by hand, e.g.:

    HARDENING_EXAMPLES=500 SECRET_KEY=x .venv/bin/python -m pytest tests/hardening/test_form_fuzz.py
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from werkzeug.routing import IntegerConverter

from league.extensions import db
from league.models import Team
from league.services.teams import MAX_TREASURY
from league.web.forms.teams import TreasuryForm
from tests.hardening import Snapshot, log_in, log_out, snapshot
from tests.hardening.test_permissions import PASSWORD, Case, Role, World, seed_world
from tests.pages import LEAGUE_FORM

EXAMPLES = int(os.environ.get("HARDENING_EXAMPLES", "12"))
MISSING = object()

HOSTILE_STRINGS = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    '<img src="file:///etc/passwd">',
    "' OR 1=1 --",
    "../../../../etc/passwd",
    "%s%s%n",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e309",
    "-0",
    "0x10",
    "1_000",
    " 7 ",
    "+5",
    "٣",  # an Arabic-Indic digit
    "\U0001d7d3",  # a mathematical bold digit
    "²",
    "true",
    "null",
    "[]",
    "{}",
    "y",
    "on",
    "2026-02-30",
    "9999-12-31",
    "0000-00-00",
    "\ud7ff",
    "\u202e",
    # Names across lines or turned around by direction controls (refused by the services).
    "Two\r\nLines",
    "Evil\u202eOrcs",
    "\u2066Isolated\u2069",
    "ZÍ̴̡A̷L̸G̵O",
)
EDGE_NUMBERS = (
    0,
    -1,
    1,
    99,
    100,
    999,
    1000,
    2**31 - 1,
    2**31,
    -(2**31),
    -(2**31) - 1,
    2**63,
    -(2**63) - 1,
    10**30,
    -(10**30),
)

hostile_value = st.one_of(
    st.sampled_from(HOSTILE_STRINGS),
    st.sampled_from(EDGE_NUMBERS).map(str),
    st.sampled_from(EDGE_NUMBERS).map(str),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.floats().map(str),
    st.text(st.characters(codec="utf-8"), max_size=10).map(lambda t: f"{t}\x00{t}"),
    # What a browser can send: any Unicode but lone surrogates (those have no UTF-8).
    st.text(st.characters(codec="utf-8"), max_size=60),
    st.builds(
        lambda char, count: char * count, st.characters(codec="utf-8"), st.integers(200, 20_000)
    ),
)


def field_value(valid: str) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.just(MISSING),
        st.just(valid),
        hostile_value,
        st.lists(st.one_of(st.just(valid), hostile_value), min_size=2, max_size=3),
    )


@dataclass(frozen=True, slots=True)
class RawBody:
    """A request body that is not a form (bytes, sent as if it were one)."""

    data: bytes
    content_type: str


@dataclass(frozen=True, slots=True)
class Spec:
    """A form endpoint: its URL, who posts, and its fields with a valid value each (names
    and values are formatted with the world's fields: `team_{team}`)."""

    endpoint: str
    url: str
    role: Role
    fields: dict[str, str]

    def strategy(self, world: World) -> st.SearchStrategy[Any]:
        values = vars(world)
        fields = {
            name.format(**values): valid.format(**values) for name, valid in self.fields.items()
        }
        # Mostly: the valid form with one field made hostile (or left out), so the hostile
        # value gets past the other fields' checks; else everything at random.
        one_bad = (
            st.tuples(
                st.sampled_from(sorted(fields)), st.one_of(st.just(MISSING), hostile_value)
            ).map(lambda drawn: _form(fields, {drawn[0]: drawn[1]}))
            if fields
            else st.just({})
        )
        anything = st.tuples(
            st.fixed_dictionaries({name: field_value(valid) for name, valid in fields.items()}),
            st.dictionaries(
                st.text(st.characters(codec="utf-8"), max_size=20), hostile_value, max_size=3
            ),
        ).map(lambda drawn: _form(drawn[1], drawn[0]))  # the extra fields, then the form's
        raw = st.builds(
            RawBody,
            st.binary(max_size=300),
            st.sampled_from(
                (
                    "application/x-www-form-urlencoded",
                    "multipart/form-data",
                    "multipart/form-data; boundary=x",
                    "application/json",
                    "text/plain",
                )
            ),
        )
        return st.one_of(one_bad, one_bad, anything, raw)


def _form(fields: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`fields` with `changes` applied; MISSING leaves a field out."""
    data = {**fields, **changes}
    return {name: value for name, value in data.items() if value is not MISSING}


LEAGUE_FIELDS = {
    "name": "Fuzz League",
    **LEAGUE_FORM,
    "tie_breaker_2": "head_to_head",
    "tie_breaker_3": "td_difference",
    "tie_breaker_4": "",
    "table_dice_allowed": "y",
    "cost_random_primary": "3, 4, 6",
    "cost_chosen_primary": "6, 8, 12",
    "cost_random_secondary": "",
    "cost_chosen_secondary": "",
    "cost_random_characteristic": "",
    "value_increase": "chosen_primary=20000",
    "spp_awards": "td=3",
    "matched_play_on": "y",
    "matched_play": "budget=1150000, skill_points=6/7/8/9",
    "tournament_points": "3/1/0",
    "tournament_bonus": "touchdowns 3 +1, close_loss 1 +1",
    "bye_result": "win",
    "bye_score": "1-0",
}
REPORT_FIELDS = {
    "token": "fuzz-token",
    "home_score": "1",
    "away_score": "0",
    "concession": "",
    "fan_attendance": "5",
    "home_stalled": "y",
    "away_stalled": "",
    "home_winnings": "10000",
    "away_winnings": "0",
    "home_fans_change": "0",
    "away_fans_change": "-1",
    "home_mistake_d6": "6",
    "away_mistake_d6": "6",
    "p{player}_td": "1",
    "p{player}_mvp": "y",
    "p{player}_cas": "0",
    "p{veteran}_interceptions": "1",
    "p{veteran}_injury": "seriously_hurt",
    "p{veteran}_lasting": "av",
    "p{veteran}_apothecary": "y",
    "p99999_td": "1",
}
ADVANCE_FIELDS = {
    "kind": "chosen_primary",
    "category": "G",
    "dice": "3 4",
    "choice": "Dauntless",
    "number": "1",
    "source": "server",
}
# An address given as a number: hostile values are refused before any name is looked up,
# or are looked up and not found.
WEBHOOK_FIELDS = {"url": "https://1.1.1.1/hook", "events": "season.closed", "format": "discord"}

SPECS = (
    Spec(
        "auth.register",
        "/register",
        Role.ANONYMOUS,
        {"username": "newbie", "password": PASSWORD, "confirm": PASSWORD},
    ),
    Spec(
        "auth.login",
        "/login",
        Role.ANONYMOUS,
        {"username": "coach", "password": PASSWORD, "remember": "y"},
    ),
    Spec("auth.logout", "/logout", Role.COACH, {}),
    Spec(
        "profile.change_password",
        "/profile/password",
        Role.COACH,
        {
            "current_password": PASSWORD,
            "new_password": "mighty zug smashes",
            "confirm": "mighty zug smashes",
        },
    ),
    Spec("profile.end_sessions", "/profile/sessions/end", Role.COACH, {"revoke_tokens": "y"}),
    Spec("profile.change_language", "/profile/language", Role.COACH, {"language": "de"}),
    Spec("profile.change_naf", "/profile/naf", Role.COACH, {"naf_name": "Naf", "naf_number": "7"}),
    Spec("i18n.switch", "/language", Role.ANONYMOUS, {"language": "de", "next": "/rules"}),
    Spec("profile.create_token", "/profile/tokens", Role.COACH, {"name": "Fuzz token"}),
    Spec("profile.revoke_token", "/profile/tokens/{coach_token}/revoke", Role.COACH, {}),
    Spec("leagues.create", "/leagues/new", Role.COACH, LEAGUE_FIELDS),
    Spec("leagues.settings", "/leagues/{league}/settings", Role.COMMISSIONER, LEAGUE_FIELDS),
    Spec("leagues.members", "/leagues/{league}/members", Role.COMMISSIONER, {"username": "loner"}),
    Spec(
        "leagues.promote",
        "/leagues/{league}/members/{users[opponent]}/promote",
        Role.COMMISSIONER,
        {},
    ),
    Spec(
        "leagues.remove",
        "/leagues/{league}/members/{users[rival]}/remove",
        Role.COMMISSIONER,
        {"confirmed": "yes", "hand_teams_to": ""},
    ),
    Spec(
        "leagues.hand_over",
        "/leagues/{league}/members/{users[opponent]}/owner",
        Role.COMMISSIONER,
        {},
    ),
    Spec("leagues.new_join_link", "/leagues/{league}/join-link", Role.COMMISSIONER, {}),
    Spec("leagues.join", "/leagues/{league}/join/{join_token}", Role.OUTSIDER, {}),
    Spec("leagues.next_season", "/leagues/{league}/seasons/next", Role.COMMISSIONER, {}),
    Spec(
        "leagues.reopen_season",
        "/leagues/{league}/seasons/1/reopen",
        Role.COMMISSIONER,
        {"confirmed": "yes"},
    ),
    Spec(
        "seasons.redraft",
        "/teams/{team}/redraft",
        Role.COACH,
        {
            "keep": "{player}",
            "rerolls": "1",
            "assistant_coaches": "0",
            "cheerleaders": "0",
            "hire_counts-0": "0",
            "recovery_dice-0": "",
        },
    ),
    Spec(
        "seasons.approve", "/teams/{team}/redraft/approve", Role.COMMISSIONER, {"confirmed": "yes"}
    ),
    Spec(
        "printing.build_league_pack",
        "/leagues/{league}/rosters/build",
        Role.COMMISSIONER,
        {"paper": "a4"},
    ),
    Spec(
        "pregame.choose",
        "/matches/{scheduled}/pregame/home",
        Role.COACH,
        {"home-ind_bribes": "1", "home-treasury": "0", "home-merc_0_position": ""},
    ),
    Spec(
        "matches.hire_journeyman",
        "/matches/{journeyman_match}/journeymen/{journeyman}/hire",
        Role.COACH,
        {},
    ),
    Spec(
        "matches.draw_mvp",
        "/matches/{journeyman_match}/mvp/home",
        Role.COACH,
        {"home-mvp-nominees": "{player}", "home-mvp-die": "3"},
    ),
    Spec(
        "matches.departures",
        "/matches/{conceded}/departures/home",
        Role.COACH,
        {"home-departures-d{veteran}": "2"},
    ),
    Spec("seasons.seed_playoffs", "/leagues/{league}/playoffs", Role.COMMISSIONER, {"size": "4"}),
    Spec("seasons.advance_playoffs", "/leagues/{league}/playoffs/advance", Role.COMMISSIONER, {}),
    Spec("fixtures.pair_round", "/leagues/{league}/fixtures/rounds/next", Role.COMMISSIONER, {}),
    Spec("event.submit_roster", "/teams/{team}/roster/submit", Role.COACH, {}),
    Spec(
        "event.review_roster",
        "/teams/{team}/roster/review",
        Role.COMMISSIONER,
        {"approved": "0", "note": "Too many linemen."},
    ),
    Spec(
        "event.enter_results",
        "/leagues/{league}/fixtures/rounds/1/results",
        Role.COMMISSIONER,
        {"t1_home_td": "1", "t1_home_cas": "0", "t1_away_td": "0", "t1_away_cas": "0"},
    ),
    Spec(
        "seasons.divisions",
        "/leagues/{league}/divisions",
        Role.COMMISSIONER,
        {"team_{team}": "North", "team_{rival_team}": "South"},
    ),
    Spec("seasons.record_winner", "/matches/{played}/winner", Role.COMMISSIONER, {}),
    Spec(
        "entries.index",
        "/leagues/{league}/entries",
        Role.COMMISSIONER,
        {
            "team_id": "0",
            "name": "Fuzz Entry",
            "team_type_id": "human",
            "coach": "coach",
            "club": "Albion",
            "seed_rating": "170",
        },
    ),
    Spec(
        "entries.edit",
        "/leagues/{league}/entries/{team}",
        Role.COMMISSIONER,
        {"club": "Albion", "seed_rating": "170"},
    ),
    Spec(
        "entries.drop",
        "/leagues/{league}/entries/{rival_team}/drop",
        Role.COMMISSIONER,
        {"confirmed": "yes"},
    ),
    Spec("entries.undrop", "/leagues/{league}/entries/{rival_team}/undrop", Role.COMMISSIONER, {}),
    Spec(
        "entries.swap",
        "/leagues/{league}/entries/swap",
        Role.COMMISSIONER,
        {"one": "{team}", "other": "{opponent_team}", "confirmed": "yes"},
    ),
    Spec(
        "entries.first_round",
        "/leagues/{league}/entries/first-round",
        Role.COMMISSIONER,
        {"table_1_home": "{team}", "table_1_away": "{rival_team}"},
    ),
    Spec(
        "leagues.new_team",
        "/leagues/{league}/teams/new",
        Role.COMMISSIONER,
        {"name": "Fuzz Team", "team_type_id": "human", "coach": "coach"},
    ),
    Spec(
        "fixtures.generate",
        "/leagues/{league}/fixtures/generate",
        Role.COMMISSIONER,
        {"format": "double", "start_date": "2026-03-01", "days_between": "7", "confirm": "y"},
    ),
    Spec(
        "fixtures.new",
        "/leagues/{league}/fixtures/new",
        Role.COMMISSIONER,
        {
            "home_team": "{team}",
            "away_team": "{opponent_team}",
            "scheduled_for": "2026-03-01",
            "round_number": "1",
            "friendly": "y",
        },
    ),
    Spec(
        "matches.new",
        "/leagues/{league}/matches/new",
        Role.COMMISSIONER,
        {"home_team": "{team}", "away_team": "{opponent_team}", "friendly": "y"},
    ),
    Spec(
        "matches.report",
        "/matches/{scheduled}/report",
        Role.COMMISSIONER,
        {**REPORT_FIELDS, "finalise": "Finalise result"},
    ),
    Spec(
        "matches.report",
        "/matches/{scheduled}/report",
        Role.COACH,
        {**REPORT_FIELDS, "save_draft": "Save draft"},
    ),
    Spec(
        "matches.report",
        "/matches/{played}/report",
        Role.COMMISSIONER,
        {**REPORT_FIELDS, "finalise": "Save correction"},
    ),
    Spec("matches.void", "/matches/{played}/void", Role.COMMISSIONER, {}),
    Spec(
        "matches.live_event",
        "/matches/{scheduled}/live/events",
        Role.COACH,
        {
            "id": "fuzz-event-01",
            "side": "home",
            "kind": "cas",
            "player_id": "{player}",
            "victim_id": "{opponent_team}",
            "injury": "badly_hurt",
            "lasting": "",
            "half": "1",
            "turn": "2",
        },
    ),
    Spec(
        "matches.live_delete", "/matches/{scheduled}/live/events/{log_event}/delete", Role.COACH, {}
    ),
    Spec(
        "matches.live_dispute",
        "/matches/{scheduled}/live/events/{log_event}/dispute",
        Role.COMMISSIONER,
        {},
    ),
    Spec(
        "matches.live_keep",
        "/matches/{scheduled}/live/events/{log_event}/keep",
        Role.COMMISSIONER,
        {},
    ),
    Spec("matches.live_confirm", "/matches/{scheduled}/live/confirm", Role.COACH, {"side": "home"}),
    Spec("matches.live_finalise", "/matches/{log_confirmed}/live/finalise", Role.COMMISSIONER, {}),
    Spec(
        "teams.hire",
        "/teams/{team}/hire",
        Role.COACH,
        {"position_id": "human-lineman", "name": "Fuzz Hire", "number": "20"},
    ),
    Spec("teams.buy", "/teams/{team}/buy", Role.COACH, {"item": "reroll"}),
    Spec(
        "teams.give_back",
        "/teams/{draft_team}/give-back",
        Role.COACH,
        {"item": "reroll", "confirmed": "yes"},
    ),
    Spec("teams.confirm", "/teams/{draft_team}/confirm", Role.COACH, {"confirmed": "yes"}),
    Spec(
        "teams.adjust_treasury",
        "/teams/{team}/treasury",
        Role.COMMISSIONER,
        {"amount": "1000", "reason": "Fuzz", "confirmed": "yes"},
    ),
    Spec("teams.reassign", "/teams/{team}/coach", Role.COMMISSIONER, {"coach": "rival"}),
    Spec(
        "identity.colours",
        "/teams/{team}/colours",
        Role.COACH,
        {"primary": "#1f4e9c", "primary_text": "#C81E1E", "secondary": "#ffffff"},
    ),
    # A form post carries no file: "Choose an image file" (the files: tests/web).
    Spec("identity.upload_logo", "/teams/{team}/logo", Role.COACH, {"logo": "crest.png"}),
    Spec("identity.remove_logo", "/teams/{team}/logo/remove", Role.COACH, {"confirmed": "yes"}),
    Spec(
        "teams.edit_player",
        "/players/{player}/edit",
        Role.COACH,
        {"name": "Fuzz Player", "number": "1"},
    ),
    Spec("teams.fire", "/players/{player}/fire", Role.COACH, {}),
    Spec("teams.retire", "/players/{veteran}/retire", Role.COACH, {}),
    Spec("advancement.preview_choice", "/players/{player}/advance", Role.COACH, ADVANCE_FIELDS),
    Spec("advancement.confirm", "/players/{player}/advance/confirm", Role.COACH, ADVANCE_FIELDS),
    Spec("advancement.undo", "/players/{veteran}/advance/undo", Role.COACH, {}),
    Spec("webhooks.index", "/leagues/{league}/webhooks", Role.COMMISSIONER, WEBHOOK_FIELDS),
    Spec("webhooks.edit", "/webhooks/{webhook}/edit", Role.COMMISSIONER, WEBHOOK_FIELDS),
    Spec("webhooks.resume", "/webhooks/{webhook}/resume", Role.COMMISSIONER, {}),
    Spec("webhooks.send_test", "/webhooks/{webhook}/test", Role.COMMISSIONER, {}),
    Spec(
        "discord.settings",
        "/leagues/{league}/discord",
        Role.COMMISSIONER,
        {
            "application_id": "112233445566778899",
            "public_key": "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "bot_token": "MTEy.fuzz-token.abcdefghijklmnopqrstuvwxyz",
            "guild_id": "998877665544332211",
            "channel_id": "123456789012345678",
        },
    ),
    Spec("discord.register", "/leagues/{league}/discord/register", Role.COMMISSIONER, {}),
    # A form post without Discord's signature: refused (401), whatever it holds.
    Spec("discord.interactions_endpoint", "/discord/interactions", Role.ANONYMOUS, {"type": "1"}),
    Spec("discord.link", "/discord/link/not-a-token", Role.COACH, {}),
    Spec("discord.unlink", "/discord/unlink", Role.COACH, {}),
    Spec(
        "matches.offer_times",
        "/matches/{scheduled}/time/offer",
        Role.COACH,
        {"side": "home", "first": "2099-01-01T20:00", "second": "", "utc_offset": "-60"},
    ),
    Spec(
        "matches.accept_time",
        "/matches/{scheduled}/time/accept",
        Role.COACH,
        {"starts_at": "2099-01-01T20:00:00+00:00"},
    ),
    Spec("webhooks.delete", "/webhooks/{webhook}/delete", Role.COMMISSIONER, {"confirmed": "yes"}),
)


@pytest.fixture(scope="module")
def world_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Snapshot, World]]:
    with snapshot(seed_world, tmp_path_factory.mktemp("world")) as made:
        yield made


@pytest.fixture
def case(world_snapshot: tuple[Snapshot, World]) -> Iterator[Case]:
    """A fresh copy of the seeded world for each endpoint; its examples share it."""
    seeded, world = world_snapshot
    with seeded.fresh() as app:
        yield Case(app, app.test_client(), world)


def _send(client: FlaskClient, world: World, spec: Spec, body: Any) -> Any:
    if spec.role is Role.ANONYMOUS:
        log_out(client)
    else:
        log_in(client, world.user_id(spec.role))
    url = spec.url.format(**vars(world))
    if isinstance(body, RawBody):
        return client.post(url, data=body.data, content_type=body.content_type)
    return client.post(url, data=body)


def test_every_web_form_endpoint_is_fuzzed(app: Flask) -> None:
    posted = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or set()) and not rule.rule.startswith("/api/")
    }
    missing = sorted(posted - {spec.endpoint for spec in SPECS})
    assert not missing, f"web POST routes the fuzzer does not post to: {missing}"


@pytest.mark.parametrize(
    "spec", [pytest.param(spec, id=f"{spec.endpoint}-{spec.role}") for spec in SPECS]
)
def test_hostile_form_posts_never_give_a_server_error(case: Case, spec: Spec) -> None:
    client, world = case.client, case.world

    # The posts change the one world of the case, so each example depends on those before
    # it: Hypothesis draws them from a fixed seed, and a failure comes back the same.
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(body=spec.strategy(world))
    def post(body: Any) -> None:
        response = _send(client, world, spec, body)
        assert response.status_code < 500, (
            f"{spec.endpoint} answered {response.status_code} to {body!r}"
        )

    post()


#: What every field gets at least once, whatever Hypothesis draws: NUL, numbers no column
#: holds (nor a float), a very long string, a name across lines and one turned around by a
#: direction control; and nothing (the field left out).
WORST_VALUES = (
    "a\x00b",
    str(2**31),
    str(-(2**31) - 1),
    str(-(2**63) - 1),
    "9" * 400,
    "x" * 5000,
    "Two\r\nLines",
    "Evil\u202eOrcs",
)


@pytest.mark.parametrize(
    "spec",
    [pytest.param(spec, id=f"{spec.endpoint}-{spec.role}") for spec in SPECS if spec.fields],
)
def test_the_worst_values_in_each_field_never_give_a_server_error(case: Case, spec: Spec) -> None:
    client, world = case.client, case.world
    fields = {
        name.format(**vars(world)): valid.format(**vars(world))
        for name, valid in spec.fields.items()
    }
    for name in fields:
        for value in (*WORST_VALUES, MISSING):
            body = _form(fields, {name: value})
            response = _send(client, world, spec, body)
            assert response.status_code < 500, (
                f"{spec.endpoint} answered {response.status_code} to {name}={value!r:.40}"
            )


@pytest.mark.parametrize(
    ("box", "text"),
    [
        ("spp_awards", "td=3000000000"),
        ("value_increase", "chosen_primary=99999999999"),
        ("cost_chosen_primary", "6, 8, 12, 16, 20, 99999999999"),
        ("matched_play", "budget=99999999999"),
        ("matched_play", "skill_points=6/7/8/99999999999"),
        ("tournament_points", "99999999999/1/0"),
        ("tournament_bonus", "touchdowns 99999999999 +1"),
        ("tournament_bonus", "casualties 3 +99999999999"),
        ("bye_score", "99999999999-0"),
    ],
)
def test_house_rules_beyond_any_league_are_refused(case: Case, box: str, text: str) -> None:
    """A number that would later overflow a column (SPP of a touchdown) is a form error now."""
    client, world = case.client, case.world
    log_in(client, world.user_id(Role.COMMISSIONER))
    data = {**LEAGUE_FIELDS, "cost_random_primary": "", "cost_chosen_primary": "", box: text}
    response = client.post(f"/leagues/{world.league}/settings", data=data)
    assert response.status_code == 200
    assert "must be at most" in response.text
    league = client.get(f"/api/v1/leagues/{world.league}").json
    assert league["name"] != LEAGUE_FIELDS["name"]  # nothing saved


QUERIES = (
    ("/leagues/{league}/fixtures", "season"),
    ("/leagues/{league}/standings", "season"),
    ("/leagues/{league}/stats", "season"),
    ("/leagues/{league}/rosters", "paper"),
    ("/players/{player}/advance", "kind"),
    ("/teams/{team}", "tab"),
    ("/login", "next"),
)


@pytest.mark.parametrize(("url", "parameter"), QUERIES)
def test_hostile_query_strings_never_give_a_server_error(
    case: Case, url: str, parameter: str
) -> None:
    client, world = case.client, case.world
    path = url.format(**vars(world))

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(value=hostile_value)
    def get(value: str) -> None:
        log_in(client, world.user_id(Role.COMMISSIONER))
        response = client.get(path, query_string={parameter: value})
        assert response.status_code < 500, f"{path}?{parameter}={value!r}"

    get()


def _value_of(values: dict[str, object], found: re.Match[str]) -> str:
    return str(values[found.group(1)])


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_huge_ids_in_urls_are_not_found(case: Case, number: int) -> None:
    """An id no row can have is not found (not a database overflow and a 500)."""
    app, client, world = case.app, case.client, case.world
    log_in(client, world.user_id(Role.ADMIN))
    for rule in app.url_map.iter_rules():
        converters = rule._converters  # the rule's arguments and their converters
        if not any(isinstance(c, IntegerConverter) for c in converters.values()):
            continue
        values = {
            name: number if isinstance(converter, IntegerConverter) else "x"
            for name, converter in converters.items()
        }
        # Each <converter:name> of the rule, wherever it stands (a logo's "<key>-<size>.png").
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", partial(_value_of, values), rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            response = client.open(path, method=method)
            # 405 where the rule of that method would have matched a smaller number.
            assert response.status_code in {404, 405}, f"{method} {path}: {response.status_code}"


def test_an_adjustment_past_the_largest_treasury_is_a_form_error(case: Case) -> None:
    """The treasury is a 32-bit column: one adjustment more than it holds is refused."""
    client, world = case.client, case.world
    db.session.get(Team, world.team).treasury = MAX_TREASURY - 1_000
    db.session.commit()
    log_in(client, world.user_id(Role.COMMISSIONER))
    data = {"amount": "10000000", "reason": "Fuzz"}
    response = client.post(f"/teams/{world.team}/treasury", data=data)
    assert response.status_code == 400
    assert "the most a treasury holds" in response.text
    db.session.expire_all()
    assert db.session.get(Team, world.team).treasury == MAX_TREASURY - 1_000


def test_every_form_refuses_text_that_is_not_valid_unicode(app: Flask) -> None:
    """Half a surrogate pair in a field is a form error (no driver stores it: a 500).

    Werkzeug decodes posted bytes with replacement characters, so a browser cannot
    send one; the shared form class holds the line whatever builds its data.
    """
    with app.test_request_context(method="POST"):
        form = TreasuryForm(formdata=MultiDict({"amount": "5", "reason": "Bribe\ud800"}))
        assert not form.validate()
        assert form.reason.errors == ["This field holds text that is not valid Unicode."]
        assert form.amount.errors == []
