"""Flask CLI commands (`flask --app app ...`): users, seed-demo, recompute, backup, restore,
jobs worker, webhooks retry, discord register-commands."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from league import jobs
from league.extensions import db
from league.models import DiscordConnection
from league.seeding.demo import seed_demo
from league.seeding.large_demo import LargeDemoSize, seed_large_demo
from league.services import backup, webhooks
from league.services import users as user_service
from league.services.access import get_league
from league.services.booked_winnings import apply_winnings_corrections, winnings_corrections
from league.services.discord import connections as discord_connections
from league.services.errors import DomainError
from league.services.recompute import check_all
from league.services.unit_of_work import unit_of_work

users_cli = AppGroup("users", help="Manage user accounts.")
webhooks_cli = AppGroup("webhooks", help="Outgoing webhooks.")
discord_cli = AppGroup("discord", help="Slash commands in the leagues' Discord servers.")


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
@click.option(
    "--name",
    "token_name",
    default="cli",
    show_default=True,
    help="What the token is for; shown on the profile page.",
)
def issue_token(name: str, token_name: str) -> None:
    """Print a new API token for NAME (last line of output; shown only once)."""
    try:
        with unit_of_work() as session:
            user = user_service.get_user(session, name)
            token = user_service.issue_token(session, user, token_name)
    except DomainError as error:
        raise click.ClickException(error.message) from error
    click.echo(f"New API token for {name} (store it now; it is not shown again):")
    click.echo(token)


@click.command("seed-demo")
@click.option(
    "--large",
    is_flag=True,
    help="Seed the large benchmark set instead: 200 teams, 10 seasons, 6,000+ results.",
)
@click.option("--teams", type=click.IntRange(2, 2000), help="With --large: how many teams.")
@click.option("--seasons", type=click.IntRange(1, 50), help="With --large: how many seasons.")
def seed_demo_command(large: bool, teams: int | None, seasons: int | None) -> None:
    """Seed a demo league into an empty database and print the log-in."""
    credentials_file = Path(
        current_app.config.get("DEMO_CREDENTIALS_FILE")
        or Path(current_app.instance_path) / "demo_credentials.txt"
    )
    if large:
        _seed_large(credentials_file, teams, seasons)
        return
    if teams is not None or seasons is not None:
        raise click.UsageError("--teams and --seasons go with --large.")
    with unit_of_work() as session:
        accounts = seed_demo(session)
    if accounts is None:
        # The file may hold the log-in of another database: it is not this one's.
        click.echo("The database already has users; no demo data seeded.")
        return
    _save_log_in(
        credentials_file,
        f"commissioner: {accounts.username} / {accounts.password}\n"
        f"coaches: {', '.join(accounts.coaches)} (same password)\n",
    )
    click.echo("Demo league log-in (also in instance/demo_credentials.txt):")
    click.echo(credentials_file.read_text().rstrip())


def _save_log_in(credentials_file: Path, text: str) -> None:
    """Write the demo log-in readable by its owner only (0600), even over an older file."""
    credentials_file.parent.mkdir(parents=True, exist_ok=True)
    credentials_file.touch(mode=0o600)
    credentials_file.chmod(0o600)  # touch keeps the mode of a file that already exists
    credentials_file.write_text(text)


def _seed_large(credentials_file: Path, teams: int | None, seasons: int | None) -> None:
    """The large benchmark set (deterministic: a fixed random seed), with a progress bar."""
    size = LargeDemoSize()
    if teams is not None or seasons is not None:
        size = replace(size, teams=teams or size.teams, seasons=seasons or size.seasons)
    started = time.perf_counter()
    with (
        click.progressbar(length=size.steps, label="Seeding the large demo") as bar,
        unit_of_work() as session,
    ):
        result = seed_large_demo(session, size, progress=bar.update)
    if result is None:
        click.echo("The database already has users; no demo data seeded.")
        return
    _save_log_in(
        credentials_file,
        f"commissioner: {result.username} / {result.password}\n"
        f"coaches: coach001 ... coach{size.teams:03d} (same password)\n",
    )
    click.echo(
        f"Seeded {result.teams} teams in {len(result.league_ids)} leagues, {result.players} "
        f"players, {result.matches_played} results ({result.player_lines} player lines), "
        f"{result.matches_scheduled} fixtures to play and {result.advancements} advancements "
        f"in {time.perf_counter() - started:.1f}s."
    )
    click.echo("Demo league log-in (also in instance/demo_credentials.txt):")
    click.echo(credentials_file.read_text().rstrip())


@click.group("recompute", invoke_without_command=True)
@click.option("--check", "mode", flag_value="check", default=True, help="Only report (default).")
@click.option("--fix", "mode", flag_value="fix", help="Repair every difference found.")
@click.pass_context
def recompute_command(context: click.Context, mode: str) -> None:
    """Rebuild cached balances (SPP, injuries, fans, staff, treasury) from the events.

    `flask recompute winnings` reviews the winnings booked by an earlier formula.
    """
    if context.invoked_subcommand is not None:
        return
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


@recompute_command.command("winnings")
@click.option("--league", "league_id", type=int, help="Only this league (its id).")
@click.option(
    "--apply", "apply", is_flag=True, help="Book the differences as ledger rows (else only list)."
)
def recompute_winnings_command(league_id: int | None, apply: bool) -> None:
    """List the treasuries whose booked winnings the current rules change, and by how much.

    With --apply, store the corrected winnings and book each difference on the team's
    ledger; a second run then finds nothing to book.
    """
    try:
        with unit_of_work() as session:
            if apply:
                changes = apply_winnings_corrections(session, league_id)
            else:
                changes = winnings_corrections(session, league_id)
                session.rollback()
    except DomainError as error:
        raise click.ClickException(error.message) from error
    for change in changes:
        click.echo(str(change))
    by_team: dict[str, int] = {}
    for change in changes:
        by_team[change.team_name] = by_team.get(change.team_name, 0) + change.difference
    for team, total in by_team.items():
        click.echo(f"{team}: treasury {total:+,}")
    if not changes:
        click.echo("Every match's booked winnings follow the current rules.")
    elif apply:
        click.echo(f"Booked {len(changes)} correction(s).")
    else:
        click.echo(
            f"{len(changes)} correction(s) to book; run `flask recompute winnings --apply` "
            "to book them."
        )


@webhooks_cli.command("retry")
def retry_webhooks_command() -> None:
    """Attempt the webhook deliveries whose retry is due (e.g. every minute from cron)."""
    attempted = webhooks.deliver_due(db.session())
    click.echo(f"Attempted {attempted} webhook deliveries.")


@discord_cli.command("register-commands")
@click.option(
    "--league", "league_id", type=int, help="Only this league (default: every connected one)."
)
def register_discord_commands(league_id: int | None) -> None:
    """Register the slash commands in the Discord server of each connected league."""
    query = db.select(DiscordConnection.league_id).order_by(DiscordConnection.league_id)
    if league_id is not None:
        query = query.where(DiscordConnection.league_id == league_id)
    league_ids = list(db.session.scalars(query))
    if not league_ids:
        raise click.ClickException(
            "No league is connected to Discord"
            + (f" with id {league_id}." if league_id is not None else ".")
        )
    failed = 0
    for found in league_ids:
        try:
            with unit_of_work() as session:
                league = get_league(session, found, collections=False)
                discord_connections.register_commands(session, None, league, datetime.now(UTC))
        except DomainError as error:
            failed += 1
            click.echo(f"League {found}: {error.message}", err=True)
        else:
            click.echo(f"League {found}: commands registered.")
    if failed:
        raise click.ClickException(f"{failed} league(s) could not register their commands.")


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(path: Path) -> None:
    """Write the whole database to PATH as one JSON document (a consistent snapshot),
    with the team logos' files from LOGO_DIR that its teams use.

    The file holds password and token digests; it is made readable by its owner only.
    """
    try:
        document = backup.write_backup(db.engine, path)
    except OSError as error:
        raise click.ClickException(f"Cannot write the backup {path}: {error}") from error
    counts = backup.row_counts(document)
    click.echo(
        f"Backed up {sum(counts.values())} rows of {len(counts)} tables and "
        f"{backup.logo_count(document)} team logo(s) to {path} "
        f"({backup.FORMAT} version {backup.VERSION})."
    )
    _warn_missing_logos(document, "LOGO_DIR lacks them: they are not in the backup")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore_command(path: Path) -> None:
    """Restore a backup from PATH into an empty database (after `flask db upgrade`), and its
    team logos into LOGO_DIR."""
    try:
        document = backup.read_backup(path)
        counts = backup.restore_database(db.engine, document)
    except DomainError as error:
        raise click.ClickException(error.message) from error
    click.echo(
        f"Restored {sum(counts.values())} rows of {len(counts)} tables and "
        f"{backup.logo_count(document)} team logo(s) from {path}."
    )
    _warn_missing_logos(
        document, "the backup does not carry them: copy their files into LOGO_DIR by hand"
    )
    click.echo("Check it with `flask --app app recompute --check`.")


def _warn_missing_logos(document: dict[str, object], why: str) -> None:
    missing = backup.missing_logos(document)
    if missing:
        named = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
        click.echo(f"Warning: {len(missing)} team logo(s) ({named}): {why}.", err=True)


jobs_cli = AppGroup("jobs", help="Background jobs (league pack, roster sheets rendered ahead).")


@jobs_cli.command("worker")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
def jobs_worker(workers: int) -> None:
    """Run jobs from JOB_QUEUE until stopped (Ctrl-C or SIGTERM finish the jobs under way)."""
    if jobs.huey.immediate:
        raise click.ClickException(
            "JOB_QUEUE is 'immediate': jobs run inside the web process, no worker is needed."
        )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("weasyprint").setLevel(logging.WARNING)  # its steps, per sheet
    click.echo(f"Worker on {current_app.config['JOB_QUEUE']} with {workers} thread(s).")
    # The scheduler (periodic=True) runs the heartbeat and the restart of stale packs.
    jobs.huey.create_consumer(workers=workers, worker_type="thread", periodic=True).run()


def register_cli(app: Flask) -> None:
    app.cli.add_command(jobs_cli)
    app.cli.add_command(users_cli)
    app.cli.add_command(seed_demo_command)
    app.cli.add_command(recompute_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(webhooks_cli)
    app.cli.add_command(discord_cli)
