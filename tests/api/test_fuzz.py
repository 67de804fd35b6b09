"""Fuzzing the JSON API against its own OpenAPI document (schemathesis).

Every operation of `GET /api/v1/openapi.json` is driven in process (WSGI)
with inputs schemathesis generates from the document: valid ones (positive)
and invalid ones (negative), boundary values (its coverage phase) and random
ones (its fuzzing phase). The app is the test app on the suite's database
(SQLite, or PostgreSQL with TEST_DATABASE=postgresql) with the demo leagues
seeded (`seeding.demo.seed_demo`); half the valid cases are aimed at it:
path parameters become real ids, match reports name real teams and players,
hires real positions, imports real exported teams under new names. Requests
carry the demo commissioner's token, now and then a coach's, a bogus one or none.

Each response must:

- not be a server error (`not_a_server_error`): nothing a client sends gives a 500;
- have a status the document lists for the operation (`status_code_conformance`),
  a documented content type (`content_type_conformance`) and a body that matches
  the documented schema (`response_schema_conformance`), errors included;
- accept what the document calls valid (`positive_data_acceptance`: a valid body
  may be refused by the rules or the caller's rights, 401/403/404/409/422, but
  never as malformed, 400) and refuse what it calls invalid
  (`negative_data_rejection`: 400 mostly, or another refusal; never a success).

How many random cases per operation (the fuzzing phase; the coverage phase adds
its own boundary cases): FUZZ_EXAMPLES, default 10, which keeps this file to
about half a minute on SQLite. Run it hard by hand, e.g.:

    FUZZ_EXAMPLES=2000 SECRET_KEY=x .venv/bin/python -m pytest tests/api/test_fuzz.py -q -x
    FUZZ_EXAMPLES=500 TEST_DATABASE=postgresql SECRET_KEY=x \\
        .venv/bin/python -m pytest tests/api/test_fuzz.py -q -x

The seed is random on every run, so CI keeps exploring; a failure prints the
FUZZ_SEED=N that replays the same cases.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.generation import GenerationMode
from sqlalchemy import select

from league.api.openapi import build_document
from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.rules import load_ruleset, ruleset_ids
from league.seeding.demo import seed_demo
from league.services import exchange
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.conftest import make_app
from tests.snapshots import Snapshot, snapshot

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
FUZZ_SEED = os.environ.get("FUZZ_SEED")

CONFIG = SchemathesisConfig.from_dict(
    {
        **({"seed": int(FUZZ_SEED)} if FUZZ_SEED else {}),
        "checks": {
            "enabled": False,
            "not_a_server_error": {"enabled": True},
            "status_code_conformance": {"enabled": True},
            "content_type_conformance": {"enabled": True},
            "response_schema_conformance": {"enabled": True},
            "positive_data_acceptance": {
                "enabled": True,
                "expected-statuses": ["2xx", "401", "403", "404", "409", "422"],
            },
            "negative_data_rejection": {
                "enabled": True,
                # The rules may be the ones to refuse a value (an unknown item is a 422).
                "expected-statuses": ["400", "401", "403", "404", "409", "422"],
            },
        },
        "phases": {"examples": {"enabled": False}, "stateful": {"enabled": False}},
    }
)

# The document depends on the code only, not on the database: build it once for collection.
DOCUMENT = build_document(make_app("sqlite://"))
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT, config=CONFIG)


@dataclass
class World:
    """The seeded demo: ids to aim path parameters and bodies at, and tokens; and the app
    on a fresh copy of it (None while seeding)."""

    app: Flask | None
    tokens: dict[str, str]
    ids: dict[str, list[Any]]
    teams_by_league: dict[int, list[int]]
    players_by_team: dict[int, list[int]]
    positions_by_team: dict[int, list[str]]
    skills: list[str] = field(default_factory=list)
    #: Exported team documents by league: an import of one of them can succeed.
    documents: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def _teams_by_league(teams: Sequence[Team]) -> dict[int, list[int]]:
    return {
        league_id: [t.id for t in teams if t.league_id == league_id]
        for league_id in sorted({t.league_id for t in teams})
    }


def _position_ids(team: Team) -> list[str]:
    team_type = load_ruleset(team.league.ruleset_id).team_type(team.team_type_id)
    return [position.id for position in team_type.positions]


def seed_world() -> World:
    with unit_of_work() as session:
        accounts = seed_demo(session)
        assert accounts is not None
        users = {u.username: u for u in session.scalars(select(User))}
        tokens = {
            "commissioner": issue_token(session, users[accounts.username]),
            "coach": issue_token(session, users[accounts.coaches[0]]),
        }
    teams = db.session.scalars(select(Team)).all()
    rulesets = [load_ruleset(rid) for rid in ruleset_ids()]
    return World(
        app=None,
        tokens=tokens,
        ids={
            "league_id": list(db.session.scalars(select(League.id))),
            "team_id": [t.id for t in teams],
            "player_id": list(db.session.scalars(select(Player.id))),
            "match_id": list(db.session.scalars(select(Match.id))),
            "ruleset_id": [r.id for r in rulesets],
            "team_type_id": sorted({t.id for r in rulesets for t in r.team_types}),
            "side": ["home", "away"],
        },
        teams_by_league=_teams_by_league(teams),
        players_by_team={t.id: [p.id for p in t.players] for t in teams},
        positions_by_team={t.id: _position_ids(t) for t in teams},
        skills=sorted({s.name for r in rulesets for s in r.skills}),
        documents={
            league_id: [exchange.export_team(db.session, team_id) for team_id in team_ids]
            for league_id, team_ids in _teams_by_league(teams).items()
        },
    )


@pytest.fixture(scope="module")
def world_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Snapshot, World]]:
    """The demo seeded once for the module (it takes longer than most operations' cases)."""
    with snapshot(seed_world, tmp_path_factory.mktemp("fuzz")) as made:
        yield made


@pytest.fixture
def world(world_snapshot: tuple[Snapshot, World]) -> Iterator[World]:
    """A fresh copy of the seeded demo for each operation; its cases share it."""
    seeded, world = world_snapshot
    with seeded.fresh() as app:
        yield dataclasses.replace(world, app=app)


def _aim(case: Any, world: World, data: st.DataObject) -> None:
    """Point a valid case at the seeded world now and then, so it gets past the 404s."""
    if not data.draw(st.booleans(), label="real ids"):
        return
    for name in case.path_parameters or {}:
        if world.ids.get(name):
            case.path_parameters[name] = data.draw(st.sampled_from(world.ids[name]), label=name)
    body = case.body if isinstance(case.body, dict) else None
    if body is None:
        return
    path = case.operation.path
    if path.endswith("/teams/import") and "league_id" in case.path_parameters:
        documents = world.documents.get(case.path_parameters["league_id"])
        if documents:
            # A real export under a new name: the whole import can go through.
            body.clear()
            body.update(copy.deepcopy(data.draw(st.sampled_from(documents), label="document")))
            body["team"]["name"] = data.draw(st.text(min_size=2, max_size=80), label="name")
    elif path.endswith("/matches") and "league_id" in case.path_parameters:
        teams = world.teams_by_league.get(case.path_parameters["league_id"])
        if teams:
            body["home_team"], body["away_team"] = teams[0], teams[-1]
            players = [p for t in teams for p in world.players_by_team[t]]
            for entry in body.get("players") or []:
                if isinstance(entry, dict):
                    entry["player_id"] = data.draw(st.sampled_from(players), label="player")
    elif path.endswith("/players") and "team_id" in case.path_parameters:
        positions = world.positions_by_team.get(case.path_parameters["team_id"])
        if positions:
            body["position"] = data.draw(st.sampled_from(positions), label="position")
    elif path.endswith("/advancements") and "skill" in body:
        body["skill"] = data.draw(st.sampled_from(world.skills), label="skill")


@SCHEMA.parametrize()
@SCHEMA.given(data=st.data())
@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api(case: Any, data: st.DataObject, world: World) -> None:
    if case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE:
        _aim(case, world, data)
    who = data.draw(
        st.sampled_from(["commissioner"] * 6 + ["coach", "bogus", "none"]), label="token"
    )
    headers = {}
    if who in world.tokens:
        headers["Authorization"] = f"Bearer {world.tokens[who]}"
    elif who == "bogus":
        headers["Authorization"] = "Bearer not-a-token"
    response = case.call(app=world.app, headers=headers)
    try:
        case.validate_response(response)
    except Exception as error:
        error.add_note(f"Replay this run with FUZZ_SEED={SCHEMA.config.seed}")
        raise


def test_the_fuzzer_covers_every_operation() -> None:
    operations = {(op.ok().method.upper(), op.ok().path) for op in SCHEMA.get_all_operations()}
    documented = {
        (method.upper(), path)
        for path, item in DOCUMENT["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert operations == documented


@dataclass(frozen=True)
class Example:
    """A request that once gave a 500 (issue 14), replayed on every run, and the status it
    gets now. `{name}` in the path, or as a whole string in the body, is a real id or name."""

    path: str
    body: dict[str, Any]
    status: int


EXAMPLES = (
    # Half a surrogate pair: no database stores it.
    Example("/api/v1/leagues", {"name": "Old World \ud800"}, 400),
    Example("/api/v1/leagues/{league_id}/teams", {"name": "Orcs", "team_type": "\udfff"}, 400),
    # An id below the 32-bit range fails the query itself on PostgreSQL.
    Example(
        "/api/v1/leagues/{league_id}/matches",
        {
            "home_team": "{team_id}",
            "away_team": "{away_team}",
            "home_score": 1,
            "away_score": 0,
            "players": [{"player_id": -(2**31) - 1}],
        },
        400,
    ),
    Example(
        "/api/v1/leagues/{league_id}/matches",
        {"home_team": -(2**63) - 1, "away_team": "{away_team}", "home_score": 1, "away_score": 0},
        400,
    ),
    # A category on a chosen skill: too wide for its column, and no export carries it.
    Example(
        "/api/v1/players/{player_id}/advancements",
        {"kind": "chosen_primary", "skill": "Block", "category": "ZZZZZZZZ"},
        422,
    ),
    # Names across lines or turned around by a direction control.
    Example("/api/v1/leagues", {"name": "Two\r\nLines"}, 422),
    Example(
        "/api/v1/leagues/{league_id}/teams", {"name": "Evil\u202eOrcs", "team_type": "orc"}, 422
    ),
    Example(
        "/api/v1/teams/{team_id}/players",
        {"position": "{position}", "name": "\u2066Griff\u2069"},
        422,
    ),
    # A join token that is not ASCII: the constant-time comparison takes bytes only.
    Example("/api/v1/leagues/{league_id}/join", {"token": "\u00e9t\u00e9"}, 403),
)


def _filled(value: Any, names: dict[str, Any]) -> Any:
    """`value` with each string `{name}` replaced by `names[name]`."""
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return names[value[1:-1]]
    if isinstance(value, dict):
        return {key: _filled(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_filled(item, names) for item in value]
    return value


def test_examples_that_once_gave_a_server_error(world: World) -> None:
    """Whatever the fuzzer draws, these are sent and checked against the document."""
    league = world.ids["league_id"][0]
    team, away_team = world.teams_by_league[league][0], world.teams_by_league[league][-1]
    names = {
        "league_id": league,
        "team_id": team,
        "away_team": away_team,
        "player_id": world.players_by_team[team][0],
        "position": world.positions_by_team[team][0],
    }
    headers = {"Authorization": f"Bearer {world.tokens['commissioner']}"}
    for example in EXAMPLES:
        operation = SCHEMA[example.path]["POST"]
        case = operation.Case(
            path_parameters={p.name: names[p.name] for p in operation.path_parameters},
            body=_filled(example.body, names),
            media_type="application/json",
        )
        response = case.call(app=world.app, headers=headers)
        assert response.status_code == example.status, (example, response.text)
        case.validate_response(response)
