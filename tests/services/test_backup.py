"""`flask backup` and `flask restore`: a league survives the round trip (SQLite, PostgreSQL)."""

from __future__ import annotations

import base64
import hashlib
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
from league.services import backup, exchange, identity, leagues, logos
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user, issue_token
from tests import logo_files
from tests.conftest import (
    ON_POSTGRES,
    create_postgres_database,
    drop_postgres_database,
    make_app,
)
from tests.factories import make_league, make_team, make_user


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
    assert (document["format"], document["version"]) == ("bbleague-backup", 2)
    assert document["logos"] == {}  # the demo teams have no logo
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


# ---------------------------------------------------------------------------
# Team logos: their files travel in the backup (version 2)


@pytest.fixture
def with_logos(app: Flask, tmp_path: Path) -> dict[str, Any]:
    """Two teams with a logo (files under a LOGO_DIR of their own), one without."""
    folder = tmp_path / "logos"
    app.config["LOGO_DIR"] = str(folder)
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2025", anna, bram)
    ids = [
        make_team(anna, league, "human", "Reikland Reavers").id,
        make_team(bram, league, "human", "Bright Blades").id,
    ]
    make_team(anna, league, "human", "No Crest")
    keys = []
    for coach, team_id, colour in ((anna, ids[0], "#c81e1e"), (bram, ids[1], "#1f4e9c")):
        with unit_of_work() as session:
            team = identity.set_logo(
                session, coach, team_id, logo_files.image_bytes((300, 200), colour=colour), "a.png"
            )
            keys.append(team.logo_key)
    db.session.remove()
    return {"folder": folder, "keys": keys, "ids": ids}


def _logo_files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _empty_target(url: str, logo_folder: Path) -> Flask:
    target = make_app(url, LOGO_DIR=str(logo_folder))
    with target.app_context():
        db.create_all()
    return target


def test_the_logos_travel_with_the_backup(
    app: Flask,
    runner: FlaskCliRunner,
    with_logos: dict[str, Any],
    fresh_database_url: str,
    tmp_path: Path,
) -> None:
    source_files = _logo_files_of(with_logos["folder"])
    # Two logos, each at 256 and 64 px (league.services.logos.SIZES).
    assert len(source_files) == 4
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert "and 2 team logo(s)" in result.output
    document = json.loads(path.read_text())
    assert document["version"] == 2
    assert {name: base64.b64decode(data) for name, data in document["logos"].items()} == (
        source_files
    )
    counts = _counts()

    restored_folder = tmp_path / "restored-logos"  # empty: not even made yet
    restored = make_app(fresh_database_url, LOGO_DIR=str(restored_folder))
    with restored.app_context():
        upgrade()
        result = restored.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 0, result.output
        assert "and 2 team logo(s)" in result.output
        assert "Warning" not in result.output
        assert _counts() == counts
        client = restored.test_client()
        for team_id, key in zip(with_logos["ids"], with_logos["keys"], strict=True):
            assert db.session.get(Team, team_id).logo_key == key
            page = client.get(f"/teams/{team_id}")
            assert page.status_code == 200
            assert f"/logos/{key}-" in page.text
            for size in (256, 64):
                served = client.get(f"/logos/{key}-{size}.png")
                assert served.status_code == 200
                assert served.data == source_files[f"{key}-{size}.png"]
        db.session.remove()
        db.engine.dispose()
    assert _logo_files_of(restored_folder) == source_files


def _tampered(document: dict[str, Any], keys: list[str], case: str) -> dict[str, Any]:
    """The backup `document` with one logo entry spoiled as `case` says."""
    spoiled = json.loads(json.dumps(document))
    files = spoiled["logos"]
    first = f"{keys[0]}-256.png"
    if case == "changed bytes":
        # Another valid 256 px PNG: not the file whose hash names it.
        files[first] = base64.b64encode(logo_files.image_bytes((256, 256))).decode()
    elif case == "path separator":
        files[f"../{first}"] = files.pop(first)
    elif case == "dot dot":
        files[f"..{first}"] = files.pop(first)
    elif case == "not a png":
        # A team whose key hashes the garbage: the name fits, the bytes are no image.
        garbage = logo_files.GARBAGE
        key = f"{keys[0].split('-')[0]}-{hashlib.sha256(garbage).hexdigest()[:16]}"
        team = spoiled["tables"]["team"]
        at = team["columns"].index("logo_key")
        for row in team["rows"]:
            if row[at] == keys[0]:
                row[at] = key
        files.pop(first)
        files[f"{keys[0]}-64.png".replace(keys[0], key)] = files.pop(f"{keys[0]}-64.png")
        files[f"{key}-256.png"] = base64.b64encode(garbage).decode()
    elif case == "jpeg":
        files[f"{keys[0]}-64.png"] = base64.b64encode(
            logo_files.image_bytes((64, 64), "JPEG")
        ).decode()
    elif case == "wrong size":
        files[f"{keys[0]}-64.png"] = base64.b64encode(logo_files.image_bytes((65, 64))).decode()
    elif case == "not base64":
        files[first] = "not base64 at all!"
    elif case == "no team has it":
        files["999-0123456789abcdef-256.png"] = files[first]
    elif case == "one size only":
        files.pop(f"{keys[0]}-64.png")
    return spoiled


TAMPERED = {
    "changed bytes": "do not have the hash its name gives",
    "path separator": "not a logo file's name",
    "dot dot": "not a logo file's name",
    "not a png": "not an image we can read",
    "jpeg": "holds a JPEG image",
    "wrong size": "65 \u00d7 64 pixels, not the 64 \u00d7 64",
    "not base64": "not base64",
    "no team has it": "no team in the backup has logo 999-0123456789abcdef",
    "one size only": "lacks",
}


def test_a_tampered_logo_refuses_the_restore(
    app: Flask,
    runner: FlaskCliRunner,
    with_logos: dict[str, Any],
    fresh_database_url: str,
    tmp_path: Path,
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    restored_folder = tmp_path / "restored-logos"
    target = _empty_target(fresh_database_url, restored_folder)
    with target.app_context():
        for case, words in TAMPERED.items():
            path.write_text(json.dumps(_tampered(document, with_logos["keys"], case)))
            result = target.test_cli_runner().invoke(args=["restore", str(path)])
            assert result.exit_code != 0, case
            assert words in result.output, (case, result.output)
            assert "Nothing was restored" in result.output, case
            assert set(_counts().values()) == {0}, case
            assert not restored_folder.exists(), case
        # The untouched backup restores into the same target: the refusals left it usable.
        path.write_text(json.dumps(document))
        result = target.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 0, result.output
        db.session.remove()
        db.engine.dispose()
    assert _logo_files_of(restored_folder) == _logo_files_of(with_logos["folder"])


def test_a_logo_file_that_cannot_be_written_restores_nothing(
    app: Flask,
    runner: FlaskCliRunner,
    with_logos: dict[str, Any],
    fresh_database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    restored_folder = tmp_path / "restored-logos"
    stored: list[str] = []
    real_store = logos.store

    def store_once(logo: logos.Logo, directory: Path | None = None) -> None:
        if stored:
            raise OSError(28, "No space left on device")
        real_store(logo, directory)
        stored.append(logo.key)

    monkeypatch.setattr(logos, "store", store_once)
    target = _empty_target(fresh_database_url, restored_folder)
    with target.app_context():
        result = target.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code != 0
        assert "No space left on device" in result.output
        assert "nothing was restored" in result.output
        assert set(_counts().values()) == {0}
        db.session.remove()
        db.engine.dispose()
    assert len(stored) == 1  # the first logo was written, then taken back
    assert list(restored_folder.iterdir()) == []


def test_an_old_backup_without_logos_still_restores(
    app: Flask,
    runner: FlaskCliRunner,
    with_logos: dict[str, Any],
    fresh_database_url: str,
    tmp_path: Path,
) -> None:
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    del document["logos"]
    document["version"] = 1  # as written before logos travelled
    path.write_text(json.dumps(document))
    counts = _counts()
    restored_folder = tmp_path / "restored-logos"
    target = _empty_target(fresh_database_url, restored_folder)
    with target.app_context():
        result = target.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 0, result.output
        assert _counts() == counts
        # The teams still name their logos; the operator is told to copy the files.
        assert "Warning: 2 team logo(s)" in result.output
        assert with_logos["keys"][0] in result.output
        db.session.remove()
        db.engine.dispose()
    assert not restored_folder.exists()


def test_a_logo_missing_from_disk_is_left_out_and_named(
    app: Flask, runner: FlaskCliRunner, with_logos: dict[str, Any], tmp_path: Path
) -> None:
    gone, kept = with_logos["keys"]
    (with_logos["folder"] / f"{gone}-64.png").unlink()
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert "and 1 team logo(s)" in result.output
    assert f"Warning: 1 team logo(s) ({gone})" in result.output
    document = json.loads(path.read_text())
    # A logo goes whole or not at all: the remaining 256 px file of `gone` is not carried.
    assert sorted(document["logos"]) == [f"{kept}-256.png", f"{kept}-64.png"]
    assert backup.missing_logos(document) == [gone]
