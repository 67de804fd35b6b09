"""The users CLI, and the API token it prints."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select

from league.extensions import db
from league.models import ApiToken, Match, Team, User


def create_and_token(runner: FlaskCliRunner, *args: str) -> str:
    result = runner.invoke(args=["users", "create", "grim", "--password", "ironbeard!", *args])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["users", "token", "grim"])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


def test_cli_token_authenticates_me(runner: FlaskCliRunner, client: FlaskClient) -> None:
    token = create_and_token(runner)
    response = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert response.json == {"username": "grim", "admin": False}
    stored = db.session.scalar(select(ApiToken.token_hash))
    assert stored is not None
    assert token not in stored  # only the digest is kept


def test_admin_flag(runner: FlaskCliRunner, client: FlaskClient) -> None:
    token = create_and_token(runner, "--admin")
    response = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert response.json == {"username": "grim", "admin": True}


def test_me_without_or_with_a_bad_token_is_401(runner: FlaskCliRunner, client: FlaskClient) -> None:
    create_and_token(runner)
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic x"}):
        response = client.get("/api/v1/me", headers=headers)
        assert response.status_code == 401
        assert response.json["error"]["code"] == "unauthorized"


def test_cli_refuses_bad_input_clearly(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["users", "create", "grim", "--password", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    result = runner.invoke(args=["users", "token", "nobody"])
    assert result.exit_code != 0
    assert "no user called 'nobody'" in result.output
    assert db.session.scalar(select(User)) is None


def test_seed_demo_seeds_once(runner: FlaskCliRunner, app: Flask, tmp_path: Path) -> None:
    app.config["DEMO_CREDENTIALS_FILE"] = tmp_path / "demo.txt"
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    assert "commissioner" in result.output
    users_after_first = db.session.scalars(select(User.username)).all()
    assert sorted(users_after_first) == ["coach_anna", "coach_bram", "commissioner"]
    teams = {team.name: team for team in db.session.scalars(select(Team))}
    assert {team.status for team in teams.values()} == {"active"}
    assert {team.league.ruleset_id for team in teams.values()} == {"bb2025", "bb2020"}
    reavers = teams["Reikland Reavers"]
    # 12 players for 745,000, 3 re-rolls 150,000, apothecary 50,000, 2 dedicated fans 10,000
    # leave 45,000; the played demo match (away, 1 TD, attendance 6) won (3 + 1 + 1) x 10,000.
    assert reavers.treasury == 45_000 + 50_000
    played = db.session.scalars(select(Match).where(Match.state == "played")).all()
    assert len(played) == 2  # one per demo league; the return fixtures are still to play
    assert len(reavers.players) == 12
    runner.invoke(args=["seed-demo"])
    assert len(db.session.scalars(select(User.username)).all()) == 3
    assert len(db.session.scalars(select(Team)).all()) == 4


def test_seed_demo_on_a_used_database_prints_no_log_in(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path
) -> None:
    # The credentials file left by another database must not pass for this one's log-in.
    credentials = tmp_path / "demo.txt"
    credentials.write_text("commissioner: commissioner / from-another-database\n")
    app.config["DEMO_CREDENTIALS_FILE"] = credentials
    runner.invoke(args=["users", "create", "grim", "--password", "ironbeard!"])
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    assert "no demo data seeded" in result.output
    assert "from-another-database" not in result.output
    assert "log-in" not in result.output


def test_seed_demo_prints_and_keeps_its_own_log_in_private(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path
) -> None:
    credentials = tmp_path / "demo.txt"
    credentials.write_text("commissioner: commissioner / from-another-database\n")
    credentials.chmod(0o644)
    app.config["DEMO_CREDENTIALS_FILE"] = credentials
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    saved = credentials.read_text()
    assert "from-another-database" not in saved + result.output
    assert saved.splitlines()[0] in result.output  # the log-in printed is the one seeded
    assert credentials.stat().st_mode & 0o777 == 0o600


def test_usernames_match_exactly_not_as_patterns(runner: FlaskCliRunner) -> None:
    runner.invoke(args=["users", "create", "grim", "--password", "ironbeard!"])
    result = runner.invoke(args=["users", "token", "%"])
    assert result.exit_code != 0
    assert "no user called '%'" in result.output
    result = runner.invoke(args=["users", "token", "GRIM"])  # case does not matter
    assert result.exit_code == 0
