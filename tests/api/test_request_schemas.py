"""Request bodies loaded by the schemas that document them: each malformed body is the
400 `invalid_field` naming the field (a nested one by its path), worded as the hand
parsers worded it, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, LeagueMember, Match, User, Webhook
from league.models.match import INJURY_CODES
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user
from tests.web.test_api_matches import World as MatchesWorld

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def invalid(field: str, message: str) -> dict[str, Any]:
    return {"error": {"code": "invalid_field", "message": f"'{field}' {message}"}}


@pytest.fixture
def boss() -> User:
    return make_user("boss")


# ---------------------------------------------------------------------------
# Leagues: POST /leagues and PATCH /leagues/<id>

SETTINGS_REFUSALS = [
    ({"name": None}, "name", "is required."),
    ({"name": 7}, "name", "must be a string."),
    ({"name": "Nul\x00League"}, "name", "must not contain NUL characters."),
    ({"ruleset": None}, "ruleset", "is required."),
    ({"ruleset": ["bb2025"]}, "ruleset", "must be a string."),
    ({"starting_treasury": None}, "starting_treasury", "must be an integer."),
    ({"starting_treasury": 1.5}, "starting_treasury", "must be an integer."),
    ({"starting_treasury": True}, "starting_treasury", "must be an integer."),
    ({"points": None}, "points", "must be a JSON object."),
    ({"points": "3-1-0"}, "points", "must be a JSON object."),
    ({"points": {"win": None}}, "points.win", "must be an integer."),
    ({"points": {"draw": "1"}}, "points.draw", "must be an integer."),
    (
        {"points": {"loss": -(2**31) - 1}},
        "points.loss",
        "must be between -2147483648 and 2147483647.",
    ),
    ({"tie_breakers": None}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"tie_breakers": ["points", 3]}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"tie_breakers": {"points": 1}}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"house_rules": None}, "house_rules", "must be a JSON object."),
    ({"house_rules": "none"}, "house_rules", "must be a JSON object."),
    ({"table_dice_allowed": None}, "table_dice_allowed", "must be true or false."),
    ({"table_dice_allowed": 1}, "table_dice_allowed", "must be true or false."),
    ({"table_dice_allowed": "true"}, "table_dice_allowed", "must be true or false."),
    ({"paper_size": None}, "paper_size", "is required."),
    ({"paper_size": 4}, "paper_size", "must be a string."),
    ({"paper_size": "a4\x00"}, "paper_size", "must not contain NUL characters."),
    # The first field in the order the schema declares them is the one named.
    ({"paper_size": 4, "points": {"win": "x"}, "name": 1}, "name", "must be a string."),
    ({"paper_size": 4, "points": {"win": "x"}}, "points.win", "must be an integer."),
]


@pytest.mark.parametrize(("body", "field", "message"), SETTINGS_REFUSALS)
def test_a_malformed_setting_is_refused_by_patch_naming_it(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    league = make_league(boss, "bb2025")
    before = (league.name, league.ruleset_id, league.points_win, league.paper_size)
    response = client.patch(f"{API}/leagues/{league.id}", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    db.session.expire_all()
    league = db.session.get(League, league.id)
    assert league is not None
    assert (league.name, league.ruleset_id, league.points_win, league.paper_size) == before


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        *(
            (body, field, message)
            for body, field, message in SETTINGS_REFUSALS
            if field != "ruleset"
        ),
        ({"ruleset": ["bb2025"]}, "ruleset", "must be a string."),
        ({}, "name", "is required."),
    ],
)
def test_a_malformed_new_league_is_refused_naming_the_field(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    body = {"name": "Old World Cup", **body} if "name" not in body and body else body
    response = client.post(f"{API}/leagues", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert db.session.scalar(select(func.count(League.id))) == 0


def test_a_null_ruleset_takes_the_default_and_unknown_members_are_ignored(
    client: FlaskClient, boss: User
) -> None:
    response = client.post(
        f"{API}/leagues",
        # Members the API does not know are ignored, even one named as a setting inside.
        json={
            "name": "Old World Cup",
            "ruleset": None,
            "ruleset_id": "classic",
            "points_win": 7,
            "points": {"win": 2, "tie": 5},
        },
        headers=auth(boss),
    )
    assert response.status_code == 201, response.json
    league = db.session.get(League, response.json["id"])
    assert league is not None
    assert (league.ruleset_id, league.points_win, league.points_draw) == ("bb2025", 2, 1)


def test_patch_changes_only_the_settings_given(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2025")
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"points": {"draw": 0}, "tie_breakers": ["td_scored"], "starting_treasury": 2.0},
        headers=auth(boss),
    )
    assert response.status_code == 200, response.json
    db.session.expire_all()
    league = db.session.get(League, league.id)
    assert league is not None
    assert (league.points_win, league.points_draw, league.points_loss) == (3, 0, 0)
    assert list(league.tie_breakers) == ["td_scored"]
    assert league.starting_treasury == 2


# ---------------------------------------------------------------------------
# Matches: POST /leagues/<id>/matches and POST /matches/<id>/result

INJURIES = ", ".join(INJURY_CODES)

REPORT_REFUSALS = [
    ({"home_team": 0}, "home_team", "must be an id, a number from 1 to 2,147,483,647."),
    ({"away_team": 2**31}, "away_team", "must be at most 2,147,483,647."),
    ({"home_score": 1001}, "home_score", "must be at most 1,000."),
    ({"away_score": None}, "away_score", "is required."),
    ({"winnings": []}, "winnings", "must be an object."),
    ({"winnings": {"home": 10_000_001}}, "winnings.home", "must be at most 10,000,000."),
    ({"fans_change": {"away": 2.5}}, "fans_change.away", "must be an integer."),
    ({"conceded": 1}, "conceded", "must be null or one of: home, away."),
    ({"conceded": "nobody"}, "conceded", "must be null or one of: home, away."),
    ({"fan_attendance": 1001}, "fan_attendance", "must be at most 1,000."),
    ({"players": "all"}, "players", "must be a list."),
    ({"players": [{"player_id": 1}] * 101}, "players", "lists at most 100 players."),
    ({"players": [None]}, "players[0]", "must be an object."),
    ({"players": [{"player_id": 1}, {}]}, "players[1].player_id", "is required."),
    ({"players": [{"player_id": 1, "mvp": "yes"}]}, "players[0].mvp", "must be true or false."),
    (
        {"players": [{"player_id": 1, "injury": "gone"}]},
        "players[0].injury",
        f"must be null or one of: {INJURIES}.",
    ),
    ({"idempotency_key": "key\x00"}, "idempotency_key", "must be a string of 1 to 64 characters."),
]


@pytest.fixture
def matches_world(client: FlaskClient) -> MatchesWorld:
    return MatchesWorld.built_once(client)


@pytest.mark.parametrize(("changes", "field", "message"), REPORT_REFUSALS)
def test_a_malformed_report_is_refused_naming_the_field(
    matches_world: MatchesWorld, changes: dict[str, Any], field: str, message: str
) -> None:
    response = matches_world.record(matches_world.report(**changes))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert db.session.scalar(select(func.count(Match.id))) == 0


def test_a_report_with_unknown_members_and_nulls_is_recorded(matches_world: MatchesWorld) -> None:
    world = matches_world
    body = world.report(winnings=None, fans_change=None, conceded=None, fan_attendance=None)
    # "interceptions" is the stored name of "int": sent as a member, it is unknown and ignored.
    body["players"][1] = {"player_id": world.catcher, "td": 2, "interceptions": "x", "mvp": None}
    body["comment"] = "a good game"
    response = world.record(body)
    assert response.status_code == 201, response.json
    catcher = next(p for p in response.json["players"] if p["player_id"] == world.catcher)
    assert (catcher["td"], catcher["int"], catcher["mvp"]) == (2, 0, False)
    # Negative numbers are the rules' to refuse: a 422 listing the problem, not a 400.
    response = world.record(world.report(home_score=-1))
    assert response.status_code == 422
    assert response.json["error"]["code"] == "invalid_report"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    # A fixture's result names no teams and has no idempotency key.
    [
        (c, f, m)
        for c, f, m in REPORT_REFUSALS
        if f not in ("home_team", "away_team", "idempotency_key")
    ],
)
def test_a_malformed_fixture_result_is_refused_naming_the_field(
    matches_world: MatchesWorld, changes: dict[str, Any], field: str, message: str
) -> None:
    world = matches_world
    fixture = world.post(
        f"/leagues/{world.league_id}/fixtures",
        {"home_team": world.humans, "away_team": world.orcs},
        world.boss_token,
    )
    assert fixture.status_code == 201, fixture.json
    body = {k: v for k, v in world.report(**changes).items() if k not in ("home_team", "away_team")}
    response = world.post(f"/matches/{fixture.json['id']}/result", body, world.boss_token)
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    db.session.expire_all()
    match = db.session.get(Match, fixture.json["id"])
    assert match is not None
    assert match.state == "scheduled"


# ---------------------------------------------------------------------------
# Fixtures: POST /leagues/<id>/fixtures and .../fixtures/generate


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"home_team": None}, "home_team", "is required."),
        ({"away_team": "2"}, "away_team", "must be an integer."),
        ({"away_team": 0}, "away_team", "must be an id, a number from 1 to 2,147,483,647."),
        ({"round": 0}, "round", "must be from 1 to 999."),
        ({"round": "1"}, "round", "must be an integer."),
        ({"date": 20260101}, "date", "must be a string."),
        ({"date": "2026-1-1"}, "date", "must be a date, YYYY-MM-DD."),
        ({"date": "2026-02-30"}, "date", "must be a date, YYYY-MM-DD."),
        ({"date": "2026-02-\x00"}, "date", "must not contain NUL characters."),
        ({"friendly": None}, "friendly", "must be true or false."),
        ({"add_another": "yes"}, "add_another", "must be true or false."),
    ],
)
def test_a_malformed_fixture_is_refused_naming_the_field(
    matches_world: MatchesWorld, changes: dict[str, Any], field: str, message: str
) -> None:
    world = matches_world
    body = {"home_team": world.humans, "away_team": world.orcs, **changes}
    response = world.post(f"/leagues/{world.league_id}/fixtures", body, world.boss_token)
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert db.session.scalar(select(func.count(Match.id))) == 0


def test_a_fixture_with_every_member(matches_world: MatchesWorld) -> None:
    world = matches_world
    body = {
        "home_team": world.humans,
        "away_team": world.orcs,
        "round": 3,
        "date": "2026-03-07",
        "friendly": True,
        "add_another": False,
    }
    response = world.post(f"/leagues/{world.league_id}/fixtures", body, world.boss_token)
    assert response.status_code == 201, response.json
    assert (response.json["round"], response.json["date"], response.json["friendly"]) == (
        3,
        "2026-03-07",
        True,
    )


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"format": "triple"}, "format", "must be 'single' or 'double'."),
        ({"format": 2}, "format", "must be a string."),
        ({"start_date": "07/03/2026"}, "start_date", "must be a date, YYYY-MM-DD."),
        ({"days_between": 7.5}, "days_between", "must be an integer."),
    ],
)
def test_a_malformed_round_robin_is_refused_naming_the_field(
    matches_world: MatchesWorld, body: dict[str, Any], field: str, message: str
) -> None:
    world = matches_world
    path = f"/leagues/{world.league_id}/fixtures/generate"
    response = world.post(path, body, world.boss_token)
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert db.session.scalar(select(func.count(Match.id))) == 0


def test_a_round_robin_takes_its_defaults_from_null_and_empty(matches_world: MatchesWorld) -> None:
    world = matches_world
    path = f"/leagues/{world.league_id}/fixtures/generate"
    # Days apart are the service's to refuse: a 422, not a 400.
    response = world.post(path, {"days_between": 0}, world.boss_token)
    assert response.status_code == 422
    body = {"format": "", "start_date": "2026-03-07", "days_between": None}
    response = world.post(path, body, world.boss_token)
    assert response.status_code == 201, response.json
    # Two teams, single round robin: one fixture, in round 1 on the start date.
    assert [(f["round"], f["date"]) for f in response.json["fixtures"]] == [(1, "2026-03-07")]


# ---------------------------------------------------------------------------
# Membership, webhooks, playoffs and the re-draft


def members(league_id: int) -> list[tuple[str, str]]:
    db.session.expire_all()
    rows = db.session.scalars(select(LeagueMember).where(LeagueMember.league_id == league_id))
    return sorted((m.user.username, m.role) for m in rows)


@pytest.mark.parametrize(
    ("method", "path", "body", "field", "message"),
    [
        ("post", "members", {}, "username", "is required."),
        ("post", "members", {"username": 7}, "username", "must be a string."),
        (
            "post",
            "members",
            {"username": "gr\x00im"},
            "username",
            "must not contain NUL characters.",
        ),
        ("patch", "members/{grim}", {"role": None}, "role", "is required."),
        ("patch", "members/{grim}", {"role": ["commissioner"]}, "role", "must be a string."),
        (
            "patch",
            "members/{grim}",
            {"role": "coach"},
            "role",
            "must be 'commissioner': a coach can be promoted, not demoted.",
        ),
        ("post", "join", {"token": None}, "token", "is required."),
        ("post", "join", {"token": 1234}, "token", "must be a string."),
    ],
)
def test_a_malformed_membership_request_is_refused_naming_the_field(
    client: FlaskClient,
    boss: User,
    method: str,
    path: str,
    body: dict[str, Any],
    field: str,
    message: str,
) -> None:
    grim = make_user("grim")
    make_user("anna")
    league = make_league(boss, "bb2025", grim)
    before = members(league.id)
    url = f"{API}/leagues/{league.id}/{path.format(grim=grim.id)}"
    who = grim if path == "join" else boss
    response = getattr(client, method)(url, json=body, headers=auth(who))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert members(league.id) == before


def test_a_member_is_added_and_promoted(client: FlaskClient, boss: User) -> None:
    grim = make_user("grim")
    league = make_league(boss, "bb2025")
    url = f"{API}/leagues/{league.id}/members"
    added = client.post(url, json={"username": "grim"}, headers=auth(boss))
    assert added.status_code == 201, added.json
    promoted = client.patch(f"{url}/{grim.id}", json={"role": "commissioner"}, headers=auth(boss))
    assert promoted.status_code == 200, promoted.json
    assert members(league.id) == [("boss", "commissioner"), ("grim", "commissioner")]


def webhook_count() -> int:
    return db.session.scalar(select(func.count(Webhook.id))) or 0


EVENTS_MESSAGE = "must be a list of event names."


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"events": ["team.created"]}, "url", "is required."),
        ({"url": 80, "events": ["team.created"]}, "url", "must be a string."),
        (
            {"url": "https://a\x00", "events": ["team.created"]},
            "url",
            "must not contain NUL characters.",
        ),
        ({"url": "https://1.1.1.1/hook"}, "events", EVENTS_MESSAGE),
        ({"url": "https://1.1.1.1/hook", "events": None}, "events", EVENTS_MESSAGE),
        ({"url": "https://1.1.1.1/hook", "events": "team.created"}, "events", EVENTS_MESSAGE),
        ({"url": "https://1.1.1.1/hook", "events": ["team.created", 1]}, "events", EVENTS_MESSAGE),
        (
            {"url": "https://1.1.1.1/hook", "events": ["team.created"], "format": 1},
            "format",
            "must be a string.",
        ),
    ],
)
def test_a_malformed_webhook_is_refused_naming_the_field(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    league = make_league(boss)
    response = client.post(f"{API}/leagues/{league.id}/webhooks", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert webhook_count() == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        # Values, not shapes: the service refuses them (a 422).
        ({"url": "", "events": ["team.created"]}, "invalid_url"),
        ({"url": "https://1.1.1.1/hook", "events": []}, "rule_violation"),
        ({"url": "https://1.1.1.1/hook", "events": ["team.renamed"]}, "rule_violation"),
        (
            {"url": "https://1.1.1.1/hook", "events": ["team.created"], "format": "irc"},
            "rule_violation",
        ),
    ],
)
def test_a_webhook_the_service_refuses_is_422(
    client: FlaskClient, boss: User, body: dict[str, Any], code: str
) -> None:
    league = make_league(boss)
    response = client.post(f"{API}/leagues/{league.id}/webhooks", json=body, headers=auth(boss))
    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == code
    assert webhook_count() == 0


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "teams", "is required."),
        ({"teams": None}, "teams", "is required."),
        ({"teams": "8"}, "teams", "must be an integer."),
        ({"teams": 8.5}, "teams", "must be an integer."),
    ],
)
def test_a_malformed_bracket_is_refused_naming_the_field(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    league = make_league(boss)
    response = client.post(f"{API}/leagues/{league.id}/playoffs", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    # A size the rules do not know is theirs to refuse.
    response = client.post(
        f"{API}/leagues/{league.id}/playoffs", json={"teams": 6}, headers=auth(boss)
    )
    assert response.status_code == 422
    assert client.get(f"{API}/leagues/{league.id}/playoffs").json == {"size": 0, "rounds": []}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "team_id", "is required."),
        ({"team_id": "1"}, "team_id", "must be an integer."),
    ],
)
def test_a_malformed_winner_is_refused_naming_the_field(
    matches_world: MatchesWorld, body: dict[str, Any], field: str, message: str
) -> None:
    world = matches_world
    played = world.record(world.report())
    assert played.status_code == 201
    response = world.post(f"/matches/{played.json['id']}/winner", body, world.boss_token)
    assert response.status_code == 400
    assert response.json == invalid(field, message)


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"keep": None}, "keep", "must be a list of player ids."),
        ({"keep": [1, "2"]}, "keep", "must be a list of player ids."),
        ({"keep": [True]}, "keep", "must be a list of player ids."),
        ({"rerolls": "2"}, "rerolls", "must be an integer."),
        ({"cheerleaders": 1.5}, "cheerleaders", "must be an integer."),
        ({"apothecary": None}, "apothecary", "must be true or false."),
        ({"apothecary": "yes"}, "apothecary", "must be true or false."),
        ({"hires": "human-blitzer"}, "hires", "must be a list of position ids."),
        ({"hires": [7]}, "hires", "must be a list of position ids."),
        ({"recovery": {"1": [4]}}, "recovery", "must be a list."),
        (
            {"recovery": [{"player_id": 1, "dice": [4, "5"]}]},
            "recovery[0].dice",
            "must be a list of D6.",
        ),
    ],
)
def test_a_malformed_redraft_is_refused_naming_the_field(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    grim = make_user("grim")
    league = make_league(boss, "bb2025", grim)
    team = make_active_team(grim, league, "human", "Altdorf Amblers", (("human-lineman", 11),))
    client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))
    url = f"{API}/teams/{team.id}/redraft"
    response = client.post(url, json=body, headers=auth(grim))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert client.get(url).json["state"] == "open"
    # A null count keeps what the team has, as an absent one does.
    kept = client.post(url, json={"rerolls": None, "keep": []}, headers=auth(grim))
    assert kept.status_code == 200, kept.json
    assert (kept.json["state"], kept.json["rerolls"], kept.json["spent"]) == ("submitted", 0, 0)
    # An unknown team is not found before its body is read.
    assert (
        client.post(f"{API}/teams/9999/redraft", json=body, headers=auth(grim)).status_code == 404
    )


def test_an_unknown_league_is_not_found_before_its_settings_are_read(
    client: FlaskClient, boss: User
) -> None:
    response = client.patch(f"{API}/leagues/9999", json={"name": 7}, headers=auth(boss))
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"
