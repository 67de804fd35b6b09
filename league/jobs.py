"""Background jobs on Huey: the queue, the tasks, and how a page starts or follows one.

`JOB_QUEUE` says where jobs wait:

- ``redis://127.0.0.1:6379/0``: Redis (production: any number of web and worker
  processes, on any machine that shares the PDF cache folder);
- ``sqlite:///path/jobs.sqlite3``: a SQLite file (the default, no server to run:
  beside a SQLite database, ``instance/jobs.sqlite3`` otherwise);
- ``immediate``: each job runs inside the call that enqueues it (the tests'
  default, and the only choice for an in-memory database).

A worker is `flask jobs worker` (`make run` starts one beside the web server).

Any module may add a job: decorate a function with :func:`task` and call it
(``deliver(hook_id)`` enqueues and returns at once; ``enqueue(deliver, hook_id)``
says the same). The function runs in an app context of its own, with a fresh
database session and no request: the URLs it prints come from `league.urls.public_url`
(built on PUBLIC_URL).

Four jobs live here: webhook deliveries (each retry scheduled when it is due), the
answers to Discord commands that were deferred (`discord_follow_up`),
the league pack (one per league and paper at a time, its progress kept in the
queue's store under ``pack:<entry>``), and rendering a team's sheet ahead, after
every commit that changed something it prints. Two more run every minute in each
worker (Huey's scheduler): the heartbeat `/healthz` reads, and restarting the packs
whose worker died.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from flask import Flask
from huey import MemoryHuey, crontab
from huey.api import Result, Task, TaskWrapper
from huey.signals import SIGNAL_INTERRUPTED
from huey.storage import RedisStorage, SqliteStorage
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy import event, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from league.extensions import db
from league.i18n import in_language
from league.models import Advancement, League, MatchPlayer, MatchTeam, Player, Team, TreasuryEntry
from league.outages import QueueUnavailable
from league.pdf.context import PAPER_SIZES
from league.pdf.roster import build_league_pack, entry_name, team_roster_pdf
from league.services import scheduling, webhooks
from league.services.discord import client as discord_client
from league.services.discord import reminders as discord_reminder_service
from league.services.discord.interactions import FollowUp, follow_up_message
from league.services.unit_of_work import unit_of_work

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

#: The queue every job of the app goes through (its store is chosen by `init_app`).
huey = MemoryHuey("league", immediate=True)
#: A running pack whose progress has not moved for this long lost its worker: start again.
STALE_AFTER = 120.0
#: Where workers note when they last ran a job (Unix time), for `/healthz`.
HEARTBEAT_KEY = "worker:heartbeat"
#: A heartbeat older than this: no worker is running jobs. Workers beat every minute, but
#: the beat waits in the queue behind the jobs under way (a large pack: a minute or so).
HEARTBEAT_STALE_AFTER = 300.0
#: How often a failing job runs again before it is shown as failed.
RETRIES = 2
#: The store key of the objects a flush changed that a roster sheet prints (Session.info).
_TOUCHED = "league.jobs.touched_teams"

_app: Flask | None = None

#: What the queue's store raises when it cannot be reached: Redis down or not answering,
#: the SQLite queue file locked or unreadable.
_STORE_ERRORS = (RedisConnectionError, RedisTimeoutError, sqlite3.OperationalError)


def queue_url(app: Flask) -> str:
    """`JOB_QUEUE`, else the embedded default for the app's database (see the module)."""
    if configured := app.config.get("JOB_QUEUE"):
        return str(configured)
    database = str(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.testing or database in ("sqlite://", "sqlite:///:memory:"):
        return "immediate"
    if database.startswith("sqlite:///"):
        path = Path(database.removeprefix("sqlite:///"))
        return f"sqlite:///{path.with_name(path.stem + '.jobs.sqlite3')}"
    return f"sqlite:///{Path(app.instance_path) / 'jobs.sqlite3'}"


def init_app(app: Flask) -> None:
    """Point the queue at the app's store; jobs then run in this app."""
    global _app
    _app = app
    url = queue_url(app)
    app.config["JOB_QUEUE"] = url
    name = app.config.get("JOB_QUEUE_NAME") or huey.name
    if app.config.get("RENDER_AHEAD") is None:
        app.config["RENDER_AHEAD"] = not app.testing
    if url == "immediate":
        huey.immediate = True
        huey.storage = huey.create_storage()  # a fresh in-memory store per app
    elif url.startswith(("redis://", "rediss://", "unix://")):
        huey.immediate = False
        huey.storage = RedisStorage(name, url=url)
    elif url.startswith("sqlite:///"):
        huey.immediate = False
        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        huey.storage = SqliteStorage(name, filename=str(path))
    else:
        raise RuntimeError(f"JOB_QUEUE must be redis://..., sqlite:///... or immediate: {url!r}")
    webhooks.use_dispatcher(_dispatch_webhook)


@contextlib.contextmanager
def _job_context() -> Iterator[None]:
    """An app context of its own (so its own database session), also when the job runs
    inside a request (immediate mode). No request context: in production a made-up request
    for some host is refused by the trusted-hosts check, leaving `url_for` without an
    adapter; jobs build their URLs with `league.urls.public_url` instead."""
    if _app is None:
        raise RuntimeError("league.jobs.init_app was not called: no app to run the job in")
    with _app.app_context():
        yield


def task(
    *, retries: int = 0, retry_delay: int = 0, context: bool = False
) -> Callable[[Callable[P, R]], TaskWrapper]:
    """Make `function` a job: calling it enqueues it (and returns a huey `Result`).

    It runs in the app with a fresh session; a failure is retried `retries` times, after
    `retry_delay` seconds (by a worker: the immediate queue of the tests runs only retries
    without a delay). With ``context=True`` it gets ``task=`` (huey's Task:
    ``task.retries`` is how many attempts are left after this one).
    """

    def decorate(function: Callable[P, R]) -> TaskWrapper:
        @functools.wraps(function)
        def in_app(*args: P.args, **kwargs: P.kwargs) -> R:
            with _job_context():
                return function(*args, **kwargs)

        return huey.task(retries=retries, retry_delay=retry_delay, context=context)(in_app)

    return decorate


def periodically(schedule: Callable[[datetime], bool]) -> Callable[[Callable[[], R]], TaskWrapper]:
    """Make a function a job each worker's scheduler enqueues on `schedule` (a huey
    crontab), run like the jobs of :func:`task`."""

    def decorate(function: Callable[[], R]) -> TaskWrapper:
        @functools.wraps(function)
        def in_app() -> R:
            with _job_context():
                return function()

        return huey.periodic_task(schedule)(in_app)

    return decorate


#: Every minute (and once as the worker starts).
every_minute = periodically(crontab())
#: Once an hour, at seven minutes past (reminders are a matter of days).
hourly = periodically(crontab(minute="7"))


def enqueue(job: TaskWrapper, *args: Any, **kwargs: Any) -> Result | None:
    """Run `job` in the background with these arguments (the same as calling it)."""
    return job(*args, **kwargs)


@contextlib.contextmanager
def _store() -> Iterator[None]:
    """The queue's store out of reach is a QueueUnavailable: pages say so (503)."""
    try:
        yield
    except _STORE_ERRORS as error:
        raise QueueUnavailable(str(error)) from error


@huey.signal(SIGNAL_INTERRUPTED)
def _requeue_interrupted(_signal: str, interrupted: Task) -> None:
    """A worker told to stop mid-job puts the job back for the next worker."""
    huey.enqueue(interrupted)


@every_minute
def heartbeat() -> None:
    """Note that a worker runs jobs (a job itself: a worker that is up but stuck, or whose
    scheduler stopped, does not beat)."""
    huey.put(HEARTBEAT_KEY, time.time())


def heartbeat_age() -> float | None:
    """Seconds since a worker last ran `heartbeat`, None if none ever did (raises if the
    queue's store cannot be reached)."""
    beat = huey.get(HEARTBEAT_KEY, peek=True)
    return None if beat is None else max(0.0, time.time() - float(beat))


@hourly
def send_reminders() -> int:
    """Remind the leagues of fixtures that wait (league.services.scheduling), through their
    webhooks and their Discord channel: each reminder once, however many workers run this
    at the same moment."""
    with unit_of_work() as session:
        due = scheduling.send_due_reminders(session)
    # Leagues connected to a Discord application hear of them in their channel as well.
    discord_reminder_service.post_reminders(db.session(), due)
    return len(due)


# The league pack ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PackJob:
    #: "queued" | "running" | "retrying" | "done" | "failed"
    state: str
    done: int
    total: int
    #: Unix time of the last change (a running job moves after every team).
    updated_at: float
    #: Why the last attempt failed ("retrying" and "failed").
    error: str = ""
    #: Seconds the build took ("done").
    seconds: float = 0.0

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running", "retrying")

    @property
    def stale(self) -> bool:
        return self.active and time.time() - self.updated_at > STALE_AFTER

    def as_json(self) -> dict[str, object]:
        return {**asdict(self), "active": self.active and not self.stale}


def _pack_key(league_id: int, paper: str) -> str:
    return f"pack:{entry_name('league', league_id, paper)}"


def pack_job(league_id: int, paper: str) -> PackJob | None:
    """The latest pack job of the league on this paper, if any is remembered.

    Raises QueueUnavailable when the queue's store does not answer."""
    with _store():
        values = huey.get(_pack_key(league_id, paper), peek=True)
    return PackJob(**values) if values else None


def _save(league_id: int, paper: str, job: PackJob) -> None:
    huey.put(_pack_key(league_id, paper), asdict(job))


def start_pack(league: League, paper: str, total: int) -> tuple[PackJob, bool]:
    """Start building the league's pack, or join the build under way: (job, joined?).

    The job's entry in the queue's store is the claim: whoever writes it first (an atomic
    put-if-empty) enqueues the build; a finished, failed or stale entry is cleared first.
    Raises QueueUnavailable when the queue's store does not answer.
    """
    key = _pack_key(league.id, paper)
    current = pack_job(league.id, paper)
    if current is not None and current.active and not current.stale:
        return current, True
    job = PackJob("queued", 0, total, time.time())
    with _store():
        if current is not None:
            huey.delete(key)
        claimed = huey.put_if_empty(key, asdict(job))
    if not claimed:
        return pack_job(league.id, paper) or job, True
    # Immediate mode builds right here: end the page's read transaction first.
    db.session.commit()
    with _store():
        build_pack(league.id, paper)
    return pack_job(league.id, paper) or job, False


@every_minute
def restart_stale_packs() -> list[tuple[int, str]]:
    """Start again every pack whose progress stopped for STALE_AFTER (its worker was killed:
    Huey forgets the job of a worker killed with SIGKILL): (league id, paper) of each.

    Every worker runs this each minute; two that restart the same pack at once may build
    it twice, which costs time only (the PDF is stored whole, by renaming a file).
    """
    restarted = []
    for league in db.session.scalars(select(League).order_by(League.id)).all():
        for paper in PAPER_SIZES:
            job = pack_job(league.id, paper)
            if job is None or not job.stale:
                continue
            log.warning("league %s's %s pack stopped moving: building it again", league.id, paper)
            start_pack(league, paper, job.total)
            restarted.append((league.id, paper))
    return restarted


@task(retries=RETRIES, context=True)
def build_pack(league_id: int, paper: str, task: Task | None = None) -> None:
    """Build the pack, telling the store after every team; a failure is kept with its
    reason once the retries are spent. The PDF is stored only when complete."""
    job = pack_job(league_id, paper) or PackJob("queued", 0, 0, time.time())

    def progress(done: int, total: int) -> None:
        nonlocal job
        job = replace(job, state="running", done=done, total=total, updated_at=time.time())
        _save(league_id, paper, job)

    try:
        league = db.session.get(League, league_id)
        if league is None:
            raise LookupError(f"league {league_id} no longer exists")
        pdf = build_league_pack(db.session(), league, paper=paper, progress=progress)
    except Exception as error:
        last_attempt = task is None or not task.retries
        reason = f"{type(error).__name__}: {error}"[:500]
        state = "failed" if last_attempt else "retrying"
        _save(league_id, paper, replace(job, state=state, error=reason, updated_at=time.time()))
        raise
    _save(
        league_id,
        paper,
        replace(
            job,
            state="done",
            error="",
            updated_at=time.time(),
            seconds=round(pdf.seconds, 3) if pdf else 0.0,
        ),
    )


# Rendering sheets ahead -----------------------------------------------------------


@task()
def deliver_webhook(delivery_id: int) -> None:
    """One attempt at a webhook delivery; a failure schedules the next one when it is due."""
    next_at = webhooks.deliver(delivery_id)
    if next_at is not None:
        deliver_webhook.schedule(args=(delivery_id,), eta=next_at)


@task(retries=RETRIES, retry_delay=2)
def discord_follow_up(
    league_id: int, application_id: str, token: str, command: str, options: dict[str, str]
) -> int:
    """Finish a slash command Discord was told to wait for: edit its "thinking..." answer
    into the message (the interaction's token allows this for 15 minutes). Discord's status."""
    follow_up = FollowUp(league_id, application_id, token, command, options)
    answer = discord_client.edit_original(
        application_id, token, follow_up_message(db.session(), follow_up)
    )
    if answer.status == 0 or answer.status >= 500:  # not reached: the retry tries again
        raise RuntimeError(f"Discord did not take the follow-up: {answer.status}")
    return answer.status


def defer_discord_answer(follow_up: FollowUp) -> bool:
    """Hand a deferred Discord command to the queue; False when the queue is out of reach
    (the page then answers at once)."""
    try:
        with _store():
            discord_follow_up(
                follow_up.league_id,
                follow_up.application_id,
                follow_up.interaction_token,
                follow_up.command,
                dict(follow_up.options),
            )
    except QueueUnavailable as error:
        log.warning("could not enqueue a Discord follow-up: %s", error)
        return False
    return True


@task(retries=1)
def render_roster(team_id: int) -> bool:
    """Render the team's sheet into the cache unless it is there: True if it rendered."""
    team = db.session.get(Team, team_id)
    if team is None:
        return False
    # Ahead of the league's readers: in the league's language.
    with in_language(team.league.default_language):
        return not team_roster_pdf(team, paper=team.league.paper_size).cached


def _dispatch_webhook(delivery_id: int) -> None:
    """Hand a delivery to the queue (after the commit that recorded it). With the queue out
    of reach the user's change still stands: the delivery stays pending in the database
    until `flask webhooks retry` sends what is due."""
    try:
        with _store():
            deliver_webhook(delivery_id)
    except QueueUnavailable as error:
        log.warning("could not enqueue webhook delivery %s: %s", delivery_id, error)


def _teams_touched(session: Session, _context: object) -> None:
    """After a flush: note the teams whose sheet may have changed (committed later)."""
    touched: set[int] = session.info.setdefault(_TOUCHED, set())
    for item in (*session.new, *session.dirty, *session.deleted):
        if isinstance(item, Team):
            touched.add(item.id)
        elif isinstance(item, Player | TreasuryEntry | MatchTeam | MatchPlayer):
            touched.add(item.team_id)
        elif isinstance(item, Advancement):
            player = session.identity_map.get(identity_key(Player, item.player_id))
            if isinstance(player, Player):
                touched.add(player.team_id)


def _render_ahead(session: Session) -> None:
    """After a commit: a job per team that changed renders its new sheet."""
    touched: set[int] = session.info.pop(_TOUCHED, set())
    if not touched or _app is None or not _app.config.get("RENDER_AHEAD"):
        return
    for team_id in sorted(touched):
        try:
            render_roster(team_id)
        except Exception:  # the queue is down: the sheet renders on its next download
            log.exception("could not enqueue the render of team %s's sheet", team_id)
            return


def _forget(session: Session, *_: object) -> None:
    session.info.pop(_TOUCHED, None)


event.listen(Session, "after_flush", _teams_touched)
event.listen(Session, "after_commit", _render_ahead)
event.listen(Session, "after_soft_rollback", _forget)
