"""Flask CLI commands: `flask --app app users ...`, `flask --app app seed-demo`."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from league.services import users as user_service
from league.services.demo import seed_demo
from league.services.errors import DomainError
from league.services.matches import check_all
from league.services.unit_of_work import unit_of_work

users_cli = AppGroup("users", help="Manage user accounts.")


@users_cli.command("create")
@click.argument("name")
@click.option("--password", required=True, help="At least 8 characters.")
@click.option("--admin", is_flag=True, help="Make the user a site administrator.")
def create_user(name: str, password: str, admin: bool) -> None:
    """Create the user NAME."""
    try:
        with unit_of_work() as session:
            user = user_service.create_user(session, user_service.NewUser(name, password, admin))
    except DomainError as error:
        raise click.ClickException(error.message) from error
    click.echo(f"Created {'admin ' if admin else ''}user {user.username}.")


@users_cli.command("token")
@click.argument("name")
def issue_token(name: str) -> None:
    """Print a new API token for NAME (last line of output; shown only once)."""
    try:
        with unit_of_work() as session:
            token = user_service.issue_token(session, user_service.get_user(session, name))
    except DomainError as error:
        raise click.ClickException(error.message) from error
    click.echo(f"New API token for {name} (store it now; it is not shown again):")
    click.echo(token)


@click.command("seed-demo")
def seed_demo_command() -> None:
    """Seed a demo league into an empty database and print the log-in."""
    credentials_file = Path(
        current_app.config.get("DEMO_CREDENTIALS_FILE")
        or Path(current_app.instance_path) / "demo_credentials.txt"
    )
    with unit_of_work() as session:
        accounts = seed_demo(session)
    if accounts is not None:
        credentials_file.parent.mkdir(parents=True, exist_ok=True)
        credentials_file.write_text(
            f"commissioner: {accounts.username} / {accounts.password}\n"
            f"coaches: {', '.join(accounts.coaches)} (same password)\n"
        )
    if credentials_file.is_file():
        click.echo("Demo league log-in (from instance/demo_credentials.txt):")
        click.echo(credentials_file.read_text().rstrip())
    elif accounts is None:
        click.echo("The database already has users; no demo data seeded.")


@click.command("recompute")
@click.option("--check", "mode", flag_value="check", default=True, help="Only report (default).")
@click.option("--fix", "mode", flag_value="fix", help="Repair every difference found.")
def recompute_command(mode: str) -> None:
    """Rebuild cached balances (SPP, injuries, fans, staff, treasury) from the events."""
    with unit_of_work() as session:
        differences = check_all(session, fix=mode == "fix")
        if mode == "check":
            session.rollback()
    for difference in differences:
        click.echo(str(difference))
    if not differences:
        click.echo("Every cached balance matches the stored events.")
    elif mode == "fix":
        click.echo(f"Repaired {len(differences)} difference(s).")
    else:
        raise click.ClickException(
            f"{len(differences)} difference(s); run `flask recompute --fix` to repair them."
        )


def register_cli(app: Flask) -> None:
    app.cli.add_command(users_cli)
    app.cli.add_command(seed_demo_command)
    app.cli.add_command(recompute_command)
