"""`flask backup` and `flask restore`: a league survives the round trip (SQLite, PostgreSQL)."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from flask_migrate import upgrade
from sqlalchemy import create_engine, func, select, text

from league.extensions import db
from league.models import League, Match, Team, User
from league.services import backup, exchange, leagues
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user, issue_token
from tests.conftest import (
    ON_POSTGRES,
    create_postgres_database,
    drop_postgres_database,
    make_app,
)


@pytest.fixture
def fresh_database_url(tmp_path: Path) -> Iterator[str]:
    """A second, empty database of the same kind as the suite's."""
    if not ON_POSTGRES:
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    url = create_postgres_database("league_restore")
    yield url
    drop_postgres_database(url)


@pytest.fixture
def seeded(runner: FlaskCliRunner, app: Flask, tmp_path: Path) -> dict[str, Any]:
    """The demo leagues, plus an imported team (opening balances) and an API token."""
    app.config["DEMO_CREDENTIALS_FILE"] = tmp_path / "demo.txt"
    assert runner.invoke(args=["seed-demo"]).exit_code == 0
    boss = db.session.scalar(select(User).where(User.username == "commissioner"))
    reavers = db.session.scalar(select(Team).where(Team.name == "Reikland Reavers"))
    document = exchange.export_team(db.session, reavers.id)
    with unit_of_work() as session:
        target = leagues.create_league(session, boss, leagues.LeagueSettings("Moved", "bb2025"))
        exchange.import_team(session, boss, target.id, document)
        token = issue_token(session, boss, "bot")
    db.session.remove()
    return {"token": token}


def _counts() -> dict[str, int]:
    return {
        table.name: db.session.scalar(select(func.count()).select_from(table))
        for table in backup.tables()
    }


def _views(app: Flask, token: str) -> dict[str, Any]:
    """What people and programs see: API answers and pages, for every league, team and match."""
    client = app.test_client()
    seen: dict[str, Any] = {}
    league_ids = db.session.scalars(select(League.id).order_by(League.id)).all()
    team_ids = db.session.scalars(select(Team.id).order_by(Team.id)).all()
    match_ids = db.session.scalars(select(Match.id).order_by(Match.id)).all()
    urls = [
        *(f"/api/v1/leagues/{i}" for i in league_ids),
        *(f"/api/v1/leagues/{i}/standings" for i in league_ids),
        *(f"/api/v1/teams/{i}" for i in team_ids),
        *(f"/api/v1/teams/{i}/export" for i in team_ids),
        *(f"/api/v1/matches/{i}" for i in match_ids),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        seen[url] = response.json
    seen["me"] = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).json
    for url in (
        "/",
        *(f"/leagues/{i}" for i in league_ids),
        *(f"/teams/{i}" for i in team_ids),
        *(f"/matches/{i}" for i in match_ids),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        seen[url] = response.text
    db.session.remove()
    return seen


def test_backup_and_restore_round_trip(
    app: Flask, runner: FlaskCliRunner, seeded: dict[str, Any], fresh_database_url: str, tmp_path
) -> None:
    path = tmp_path / "league-backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert "Backed up" in result.output
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds password digests
    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == ("bbleague-backup", 1)
    assert set(document["tables"]) == {table.name for table in backup.tables()}
    created = document["tables"]["user"]["columns"].index("created_at")
    assert document["tables"]["user"]["rows"][0][created].endswith("+00:00")  # ISO, UTC

    counts = _counts()
    assert counts["player_opening"] > 0
    assert counts["api_token"] == 1
    before = _views(app, seeded["token"])

    restored = make_app(fresh_database_url)
    with restored.app_context():
        upgrade()  # the schema, by the migrations
        result = restored.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 0, result.output
        assert _counts() == counts
        check = restored.test_cli_runner().invoke(args=["recompute", "--check"])
        assert check.exit_code == 0, check.output
        assert "Every cached balance matches" in check.output
        after = _views(restored, seeded["token"])  # the token works there too
        # New rows get new ids (PostgreSQL: the sequences moved past the restored ids).
        with unit_of_work() as session:
            user = create_user(session, NewUser("newcomer", "long enough password"))
        assert user.id == counts["user"] + 1
        db.session.remove()
        db.engine.dispose()
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == value, key


def test_restore_refuses_a_database_that_is_not_empty(
    app: Flask, runner: FlaskCliRunner, seeded: dict[str, Any], tmp_path
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    counts = _counts()
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code != 0
    assert "not empty" in result.output
    assert _counts() == counts


def test_restore_refuses_what_is_not_a_backup(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path
) -> None:
    path = tmp_path / "other.json"
    for content, words in (
        ("not json", "not a readable JSON file"),
        ('{"format": "bbleague-team", "version": 1}', "not a league backup"),
        ('{"format": "bbleague-backup", "version": 7, "tables": {}}', "version 7"),
        ('{"format": "bbleague-backup", "version": 1, "tables": {"dragons": {}}}', "dragons"),
    ):
        path.write_text(content)
        result = runner.invoke(args=["restore", str(path)])
        assert result.exit_code != 0
        assert words in result.output, result.output


def test_restore_needs_the_schema(
    app: Flask, runner: FlaskCliRunner, seeded: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    bare = make_app(f"sqlite:///{tmp_path / 'bare.sqlite3'}")
    with bare.app_context():
        result = bare.test_cli_runner().invoke(args=["restore", str(path)])
        db.engine.dispose()
    assert result.exit_code != 0
    assert "db upgrade" in result.output


def test_a_broken_row_restores_nothing(
    app: Flask, runner: FlaskCliRunner, seeded: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    # A player of a team that is not in the backup: the foreign key refuses it.
    players = document["tables"]["player"]
    players["rows"][-1][players["columns"].index("team_id")] = 999_999
    path.write_text(json.dumps(document))
    target = make_app(f"sqlite:///{tmp_path / 'target.sqlite3'}")
    with target.app_context():
        db.create_all()
        result = target.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code != 0
        assert "nothing was restored" in result.output
        assert set(_counts().values()) == {0}
        db.session.remove()
        db.engine.dispose()


@pytest.mark.skipif(
    not ON_POSTGRES, reason="SQLite serialises writers; snapshots matter on PostgreSQL"
)
def test_the_backup_reads_one_moment(app: Flask, seeded: dict[str, Any]) -> None:
    """A write committed while the backup reads is not half in it."""
    other = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    with backup.snapshot(db.engine) as connection:
        users_before = connection.execute(text('SELECT count(*) FROM "user"')).scalar_one()
        with other.begin() as writer:
            writer.execute(
                text(
                    'INSERT INTO "user" (username, password_hash, is_admin, created_at, '
                    "session_secret) VALUES ('latecomer', 'x', false, now(), 'latecomer')"
                )
            )
        document = backup.dump(connection)
    other.dispose()
    assert len(document["tables"]["user"]["rows"]) == users_before
    assert db.session.scalar(select(func.count(User.id))) == users_before + 1
