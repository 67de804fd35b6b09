"""Outgoing webhooks: registering them, recording what happened, sending it.

The flow, one function per step:

- `emit(session, league_id, event, payload)` is the only way an event leaves a service:
  in the service's own transaction it adds one `WebhookDelivery` per webhook of the
  league that wants the event (the exact body, in the webhook's format), and notes the
  deliveries on the session. Nothing is sent if the transaction rolls back.
- once the transaction has committed, `unit_of_work` hands each noted delivery to
  `dispatch(delivery_id)` (`after_commit`); a rollback drops them with the rows.
- `dispatch` hands `deliver` to the job queue (`league.jobs.deliver_webhook`, which
  schedules each retry when it is due), or runs it inline with
  `WEBHOOK_DISPATCH = "inline"`, as the tests do.
- `deliver(delivery_id)` makes one attempt: it signs the body with the webhook's secret,
  posts it with a short timeout, and records the outcome: delivered, retrying (with the
  next attempt's time, later and later), or failed after `MAX_ATTEMPTS`. A webhook
  failing `PAUSE_AFTER` attempts in a row is paused until a commissioner resumes it.
  `deliver_due()` runs the retries that are due (`flask webhooks retry`, or a worker).

Only http(s) URLs to public addresses are accepted, at registration and again before
each attempt, which connects to the very address it checked (`league.services.outbound`);
`ALLOW_PRIVATE_WEBHOOKS` lifts the address check (tests, a LAN league). Discord messages
escape the markdown of every text a person wrote (`discord_text`).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import N_, format_date, gettext, in_language, ngettext
from league.models import (
    Advancement,
    League,
    Match,
    Player,
    Season,
    Team,
    User,
    Webhook,
    WebhookDelivery,
)
from league.models.webhook import URL_LENGTH, WEBHOOK_EVENTS, WEBHOOK_FORMATS
from league.rules import stat_label
from league.services import audit, outbound
from league.services.access import get_league, require_commissioner
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.labels import season_name
from league.services.standings import match_outcomes, standings
from league.services.unit_of_work import after_commit, unit_of_work
from league.urls import public_base

#: A league's webhooks: a channel or two per tool is plenty.
MAX_WEBHOOKS = 10
#: Seconds to connect and get an answer: a slow receiver must not hold a worker.
TIMEOUT = 5
#: Attempts per delivery before it is given up.
MAX_ATTEMPTS = 5
#: Failed attempts in a row (any delivery) after which the webhook is paused.
PAUSE_AFTER = 5
#: The wait before attempt n + 1 is FIRST_RETRY x BACKOFF^(n - 1): 30 s, 2 min, 8 min, 32 min.
FIRST_RETRY = timedelta(seconds=30)
BACKOFF = 4
SIGNATURE_HEADER = "X-League-Signature"
EVENT_HEADER = "X-League-Event"
DELIVERY_HEADER = "X-League-Delivery"
USER_AGENT = "BloodBowlLeague-Webhooks/1"
#: The event of a test message a commissioner sends from the webhooks page (any webhook
#: takes it, whatever events it chose).
TEST_EVENT = "webhook.test"
#: Deliveries listed per webhook on the settings page.
RECENT_DELIVERIES = 10

#: Discord's documented limits for embeds (characters, counts).
DISCORD_LIMITS = {
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field_name": 256,
    "field_value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,
    "embeds": 10,
}
#: Embed colours per event (Discord takes an integer RGB).
COLOURS = {
    "match.finalised": 0x2E7D32,
    "match.corrected": 0xF9A825,
    "match.voided": 0x757575,
    "fixtures.generated": 0x1565C0,
    "advancement.bought": 0x6A1B9A,
    "player.died": 0x212121,
    "team.created": 0x00838F,
    "team.redrafted": 0x00838F,
    "season.closed": 0xC62828,
    TEST_EVENT: 0x546E7A,
}
#: The Discord embeds' texts: marked here, translated where a message is built.
EVENT_TITLES = {
    "match.finalised": N_("Result"),
    "match.corrected": N_("Result corrected"),
    "match.voided": N_("Result voided"),
    "fixtures.generated": N_("Fixtures generated"),
    "advancement.bought": N_("Advancement"),
    "player.died": N_("A player died"),
    "team.created": N_("New team"),
    "team.redrafted": N_("Team re-drafted"),
    "season.closed": N_("Season closed"),
    TEST_EVENT: N_("Test message"),
}
INJURY_NAMES = {
    "badly_hurt": N_("Badly Hurt"),
    "seriously_hurt": N_("Seriously Hurt"),
    "serious_injury": N_("Serious Injury"),
    "lasting_injury": N_("Lasting Injury"),
    "dead": N_("Dead"),
}


# ---------------------------------------------------------------------------
# Registering


@dataclass(frozen=True, slots=True)
class WebhookSettings:
    url: str
    events: tuple[str, ...]
    format: str = "json"


def allow_private_addresses() -> bool:
    return bool(current_app.config.get("ALLOW_PRIVATE_WEBHOOKS", False))


def _destination(url: str) -> outbound.Destination:
    """`url` looked up and checked (`outbound.Refused` says why not)."""
    return outbound.resolve(url, max_length=URL_LENGTH, allow_private=allow_private_addresses())


def _validated(settings: WebhookSettings) -> WebhookSettings:
    try:
        _destination(settings.url)
    except outbound.Refused as refused:
        raise RuleViolation(refused.message, code="invalid_url", field="url") from None
    unknown = [event for event in settings.events if event not in WEBHOOK_EVENTS]
    if unknown or not settings.events:
        raise RuleViolation(
            gettext("Pick one or more events among: %(events)s.", events=", ".join(WEBHOOK_EVENTS)),
            field="events",
        )
    if settings.format not in WEBHOOK_FORMATS:
        raise RuleViolation(gettext("The format is 'json' or 'discord'."), field="format")
    ordered = tuple(event for event in WEBHOOK_EVENTS if event in settings.events)
    return WebhookSettings(settings.url.strip(), ordered, settings.format)


def league_webhooks(session: Session, league: League) -> list[Webhook]:
    return list(
        session.scalars(select(Webhook).where(Webhook.league_id == league.id).order_by(Webhook.id))
    )


def get_webhook(session: Session, actor: User, webhook_id: int) -> Webhook:
    """The webhook, for a commissioner of its league only."""
    webhook = session.get(Webhook, webhook_id)
    if webhook is None:
        raise NotFound(f"There is no webhook number {webhook_id}.")
    require_commissioner(get_league(session, webhook.league_id), actor)
    return webhook


def create_webhook(
    session: Session, actor: User, league_id: int, settings: WebhookSettings
) -> Webhook:
    """Register a webhook; its signing secret is made here (shown to the commissioner once)."""
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    settings = _validated(settings)
    if len(league_webhooks(session, league)) >= MAX_WEBHOOKS:
        raise RuleViolation(
            gettext("A league has at most %(num)s webhooks.", num=MAX_WEBHOOKS), field="url"
        )
    webhook = Webhook(
        league_id=league.id,
        url=settings.url,
        events=list(settings.events),
        format=settings.format,
        secret=secrets.token_hex(32),
    )
    session.add(webhook)
    session.flush()
    audit.record(session, actor, "webhook.create", "league", league.id, webhook=webhook.id)
    return webhook


def update_webhook(
    session: Session, actor: User, webhook_id: int, settings: WebhookSettings
) -> Webhook:
    webhook = get_webhook(session, actor, webhook_id)
    settings = _validated(settings)
    webhook.url, webhook.events, webhook.format = (
        settings.url,
        list(settings.events),
        settings.format,
    )
    session.flush()
    audit.record(session, actor, "webhook.update", "league", webhook.league_id, webhook=webhook.id)
    return webhook


def resume_webhook(session: Session, actor: User, webhook_id: int) -> Webhook:
    """Unpause: deliveries still waiting for a retry go out again."""
    webhook = get_webhook(session, actor, webhook_id)
    webhook.paused_at = None
    webhook.failures = 0
    waiting = [d for d in webhook.deliveries if d.status in ("pending", "retrying")]
    for delivery in waiting:
        delivery.next_attempt_at = datetime.now(UTC)
        _note_pending(session, delivery.id)
    audit.record(session, actor, "webhook.resume", "league", webhook.league_id, webhook=webhook.id)
    return webhook


def delete_webhook(session: Session, actor: User, webhook_id: int) -> None:
    """Remove the webhook and its deliveries."""
    webhook = get_webhook(session, actor, webhook_id)
    league_id = webhook.league_id
    session.delete(webhook)
    session.flush()
    audit.record(session, actor, "webhook.delete", "league", league_id, webhook=webhook_id)


def recent_deliveries(session: Session, webhook: Webhook) -> list[WebhookDelivery]:
    return list(
        session.scalars(
            select(WebhookDelivery)
            .where(WebhookDelivery.webhook_id == webhook.id)
            .order_by(WebhookDelivery.id.desc())
            .limit(RECENT_DELIVERIES)
        )
    )


def paused_webhooks(session: Session, league: League) -> list[Webhook]:
    """The league's webhooks paused after failing: the commissioner is told on the pages."""
    return [w for w in league_webhooks(session, league) if w.paused_at is not None]


# ---------------------------------------------------------------------------
# Emitting


def _note_pending(session: Session, delivery_id: int) -> None:
    after_commit(session, lambda: dispatch(delivery_id))


def emit(
    session: Session,
    league_id: int,
    event: str,
    payload: dict[str, Any] | Callable[[], dict[str, Any]],
) -> None:
    """Record `event` for every webhook of the league that wants it (in the caller's
    transaction); they are sent once it commits. A payload that costs queries (standings)
    comes as a function, called only when some webhook wants the event."""
    wanted = [
        webhook
        for webhook in session.scalars(
            select(Webhook).where(Webhook.league_id == league_id, Webhook.paused_at.is_(None))
        )
        if event in webhook.events
    ]
    if not wanted:
        return
    if callable(payload):
        payload = payload()
    league = session.get(League, league_id)
    for webhook in wanted:
        _queue(session, webhook, league, event, payload)


def _queue(
    session: Session, webhook: Webhook, league: League | None, event: str, payload: dict[str, Any]
) -> WebhookDelivery:
    """A pending delivery of `event` to `webhook`, sent once the transaction commits."""
    league_id = webhook.league_id
    envelope = {
        "event": event,
        "league": {
            "id": league_id,
            "name": league.name if league else "",
            "url": _url("leagues", league_id),
        },
        "occurred_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "data": payload,
    }
    message = envelope
    if webhook.format == "discord":
        # People read it in the league's channel: in the league's language.
        with in_language(league.default_language if league else None):
            message = discord_message(envelope)
    delivery = WebhookDelivery(
        webhook_id=webhook.id,
        event=event,
        body=json.dumps(message, ensure_ascii=False, separators=(",", ":")),
        status="pending",
        next_attempt_at=datetime.now(UTC),
    )
    session.add(delivery)
    session.flush()
    _note_pending(session, delivery.id)
    return delivery


def send_test(session: Session, actor: User, webhook_id: int) -> WebhookDelivery:
    """Send a test message to the webhook now (commissioner): its delivery is listed on the
    webhooks page like any other, with the receiver's answer. A paused webhook is refused
    (resuming it is the way to try it again)."""
    webhook = get_webhook(session, actor, webhook_id)
    if webhook.paused_at is not None:
        raise Conflict(
            gettext("This webhook is paused; resume it first, then send a test."),
            code="webhook_paused",
        )
    league = webhook.league
    delivery = _queue(session, webhook, league, TEST_EVENT, {"url": _url("leagues", league.id)})
    audit.record(session, actor, "webhook.test", "webhook", webhook.id)
    return delivery


#: Runs a delivery outside the request: `league.jobs` points it at the job queue
#: (a worker process in production), which also schedules each retry.
_dispatcher: Callable[[int], object] | None = None


def use_dispatcher(run: Callable[[int], object]) -> None:
    global _dispatcher
    _dispatcher = run


def dispatch(delivery_id: int) -> None:
    """Run a delivery outside the request's transaction: on the job queue, or inline
    (`WEBHOOK_DISPATCH = "inline"`, the tests: one attempt, retries by `deliver_due`)."""
    if current_app.config.get("WEBHOOK_DISPATCH") == "inline":
        deliver(delivery_id)
        return
    if _dispatcher is None:
        raise RuntimeError("no webhook dispatcher: league.jobs.init_app was not called")
    _dispatcher(delivery_id)


# ---------------------------------------------------------------------------
# Delivering


def signature(secret: str, body: bytes) -> str:
    """The X-League-Signature value: `sha256=` and the hex HMAC-SHA256 of the body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def retry_delay(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt."""
    # int ** int is typed Any (a negative power is a float); attempts is at least 1.
    return FIRST_RETRY * int(BACKOFF ** (attempts - 1))


@dataclass(frozen=True, slots=True)
class Outcome:
    status: int | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _post(url: str, body: bytes, headers: dict[str, str]) -> Outcome:
    try:
        # Looked up and checked again, and sent to the very address checked: the name
        # may point elsewhere since it was registered, or between two look-ups. The
        # refusal is recorded in English, as the delivery's other errors.
        with in_language(None):
            destination = _destination(url)
    except outbound.Refused as refused:
        return Outcome(None, refused.message)
    try:
        status = outbound.post(destination, body, headers, TIMEOUT)
    except (OSError, http.client.HTTPException) as error:  # refused, timed out, bad answer
        return Outcome(None, f"Not delivered: {error}"[:200])
    return Outcome(status, None)


def deliver(
    delivery_id: int, *, now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> datetime | None:
    """One attempt at a delivery; the time of the next attempt when one is due, else None."""
    with unit_of_work() as session:
        delivery = session.get(WebhookDelivery, delivery_id, with_for_update=True)
        if delivery is None or delivery.status in ("delivered", "failed"):
            return None
        webhook = delivery.webhook
        if webhook.paused_at is not None:
            return None  # it waits; resuming the webhook sends it again
        delivery.attempts += 1
        # A lease: a retry sweep running meanwhile leaves this attempt alone.
        delivery.next_attempt_at = now() + timedelta(seconds=TIMEOUT * 3)
        url, secret, event = webhook.url, webhook.secret, delivery.event
        body = delivery.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: event,
        DELIVERY_HEADER: str(delivery_id),
        SIGNATURE_HEADER: signature(secret, body),
    }
    outcome = _post(url, body, headers)
    with unit_of_work() as session:
        delivery = session.get(WebhookDelivery, delivery_id, with_for_update=True)
        if delivery is None:  # the webhook was deleted meanwhile
            return None
        return _record(delivery, outcome, now())


def _record(delivery: WebhookDelivery, outcome: Outcome, moment: datetime) -> datetime | None:
    webhook = delivery.webhook
    delivery.response_code = outcome.status
    if outcome.ok:
        delivery.status, delivery.error = "delivered", None
        delivery.delivered_at, delivery.next_attempt_at = moment, None
        webhook.failures = 0
        return None
    delivery.error = outcome.error or f"The receiver answered {outcome.status}."
    webhook.failures += 1
    if webhook.failures >= PAUSE_AFTER and webhook.paused_at is None:
        webhook.paused_at = moment
    if delivery.attempts >= MAX_ATTEMPTS:
        delivery.status, delivery.next_attempt_at = "failed", None
        return None
    delivery.status = "retrying"
    delivery.next_attempt_at = moment + retry_delay(delivery.attempts)
    return None if webhook.paused_at else delivery.next_attempt_at


def deliver_due(session: Session, *, now: datetime | None = None) -> int:
    """Attempt every delivery whose next attempt is due (of webhooks not paused)."""
    moment = now or datetime.now(UTC)
    due = list(
        session.scalars(
            select(WebhookDelivery.id)
            .join(Webhook)
            .where(
                WebhookDelivery.status.in_(("pending", "retrying")),
                WebhookDelivery.next_attempt_at <= moment,
                Webhook.paused_at.is_(None),
            )
            .order_by(WebhookDelivery.id)
        )
    )
    session.commit()
    for delivery_id in due:
        deliver(delivery_id, now=lambda: moment)
    return len(due)


# ---------------------------------------------------------------------------
# Payloads: plain data about what happened, built in the service's transaction


def _url(kind: str, object_id: int) -> str:
    """The stable page address (`/leagues/1`, `/matches/7`) on the site's public address."""
    return f"{public_base()}/{kind}/{object_id}"


def _team(team: Team) -> dict[str, Any]:
    return {"id": team.id, "name": team.name, "url": _url("teams", team.id)}


def _player(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "url": _url("players", player.id)}


def _table(session: Session, league: League, season: Season) -> list[dict[str, Any]]:
    return [
        {
            "position": row.position,
            "team_id": row.team_id,
            "team": row.team_name,
            "played": row.played,
            "points": row.points,
        }
        for row in standings(session, league, season.number).rows
    ]


def match_payload(session: Session, match: Match, event: str) -> dict[str, Any]:
    """The score, the scorers, the casualties and the standings of the two teams."""
    league = get_league(session, match.league_id)
    sides = {}
    for side in (match.home, match.away):
        scorers = [
            {"player_id": line.player_id, "player": line.player.name, "td": line.td}
            for line in match.players
            if line.team_id == side.team_id and line.td
        ]
        sides[side.side] = {**_team(side.team), "score": side.score, "scorers": scorers}
    casualties = [
        {
            "player_id": line.player_id,
            "player": line.player.name,
            "team_id": line.team_id,
            "injury": line.injury,
        }
        for line in match.players
        if line.injury
    ]
    table: list[dict[str, Any]] = []
    # Friendlies and playoff matches do not count in the table (see standings).
    counts = match.season is not None and not match.friendly and match.bracket_id is None
    if counts and match.season is not None:
        outcomes = match_outcomes(league, match)
        playing = {match.home.team_id: "home", match.away.team_id: "away"}
        for row in _table(session, league, match.season):
            if row["team_id"] in playing:
                # What the match adds to the team's points: the same outcome the table counts.
                gained = outcomes[playing[row["team_id"]]].tournament_points
                # Corrections change points by an amount the payload cannot know.
                change = {"match.finalised": gained, "match.voided": -gained}.get(event)
                table.append({**row, "points_change": change})
    return {
        "match": {
            "id": match.id,
            "url": _url("matches", match.id),
            "round": match.round,
            "friendly": match.friendly,
            "state": match.state,
            "home": sides["home"],
            "away": sides["away"],
        },
        "casualties": casualties,
        "standings": table,
    }


def emit_match(session: Session, match: Match, event: str) -> None:
    """A result finalised, corrected or voided; each death of a new result as well."""
    if match.played_at is None:
        return  # a fixture cancelled before it was played had no result to void
    emit(session, match.league_id, event, lambda: match_payload(session, match, event))
    if event == "match.finalised":
        for line in match.players:
            if line.injury == "dead":
                emit(
                    session,
                    match.league_id,
                    "player.died",
                    {
                        "player": _player(line.player),
                        "team": _team(line.player.team),
                        "match": {
                            "id": match.id,
                            "url": _url("matches", match.id),
                            "home": _team(match.home.team),
                            "away": _team(match.away.team),
                        },
                    },
                )


def fixtures_payload(league: League, created: list[Match]) -> dict[str, Any]:
    season = league.current_season
    return {
        "season": season.name if season else None,
        "url": f"{_url('leagues', league.id)}/fixtures",
        "fixtures": [
            {
                "id": match.id,
                "round": match.round,
                "date": match.scheduled_for.isoformat() if match.scheduled_for else None,
                "home": _team(match.home.team),
                "away": _team(match.away.team),
            }
            for match in created
        ],
    }


def advancement_payload(advancement: Advancement) -> dict[str, Any]:
    player = advancement.player
    return {
        "player": _player(player),
        "team": _team(player.team),
        "kind": advancement.kind,
        "skill": advancement.skill,
        "characteristic": advancement.characteristic,
        "spp": advancement.spp_cost,
        "value_increase": advancement.value_increase,
    }


def team_payload(team: Team) -> dict[str, Any]:
    return {"team": {**_team(team), "team_type": team.team_type_id, "coach": team.coach.username}}


def season_payload(session: Session, league: League, closed: Season) -> dict[str, Any]:
    return {
        "season": closed.number,
        "name": closed.name,
        "url": f"{_url('leagues', league.id)}/standings?season={closed.number}",
        "table": _table(session, league, closed),
    }


# ---------------------------------------------------------------------------
# Discord

#: Every character Discord's markdown reads as syntax: emphasis (* _), strike-through (~),
#: spoilers (|), code (`), masked links ([text](url)), bare links (https:), <...> (mentions,
#: emoji, <url>), headings (#), quotes (>), lists (- * 1.), subtext (-#), and the escape
#: itself. A backslash before one shows it as it is.
_MARKDOWN = re.compile(r"[\\*_~|`\[\]()<>#:.\-]")
#: The keys of a payload's `data` whose text a person wrote (names; a coach's username).
USER_TEXT_KEYS = frozenset({"name", "player", "team", "coach", "season"})


def discord_text(text: str, *, markdown: bool = True) -> str:
    """A text a person wrote, made inert for Discord, as HTML escaping does for a page:
    its markdown shows as typed (no link, no formatting) and no `@everyone` / `@here`
    mention can be read in it (a zero-width space after each @). `markdown=False` is
    for the places Discord shows as plain text (an embed's author), where a backslash
    would show."""
    if markdown:
        text = _MARKDOWN.sub(lambda found: "\\" + found.group(), text)
    return text.replace("@", "@\u200b")


def _escaped(data: Any, key: str = "") -> Any:
    """The payload with every text a person wrote escaped for Discord; codes, numbers,
    dates and our own URLs unchanged."""
    if isinstance(data, dict):
        return {name: _escaped(value, name) for name, value in data.items()}
    if isinstance(data, list):
        return [_escaped(item, key) for item in data]
    if isinstance(data, str) and key in USER_TEXT_KEYS:
        return discord_text(data)
    return data


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _lines(lines: list[str], empty: str = "\u2014") -> str:
    return "\n".join(lines) or empty


def _signed(number: int | None) -> str:
    return "" if number is None else f" ({number:+d})"


def _injury(code: str) -> str:
    return gettext(INJURY_NAMES[code]) if code in INJURY_NAMES else code


def _row(row: dict[str, Any]) -> dict[str, Any]:
    """A table row's values for its line's placeholders."""
    return {"position": row["position"], "team": row["team"], "points": row["points"]}


def _match_embed(data: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    match = data["match"]
    home, away = match["home"], match["away"]
    title = f"{home['name']} {home['score']} \u2013 {away['score']} {away['name']}"
    where = (
        gettext("Friendly")
        if match["friendly"]
        else (gettext("Round %(number)s", number=match["round"]) if match["round"] else "")
    )
    fields = []
    for side in (home, away):
        scorers = [
            f"{s['player']}" + (f" \u00d7{s['td']}" if s["td"] > 1 else "") for s in side["scorers"]
        ]
        fields.append((gettext("%(team)s scorers", team=side["name"]), _lines(scorers)))
    casualties = [f"{c['player']} ({_injury(c['injury'])})" for c in data["casualties"]]
    fields.append((gettext("Casualties"), _lines(casualties)))
    if data["standings"]:
        table = [
            gettext("%(position)s. %(team)s \u2013 %(points)s pts", **_row(r))
            + _signed(r["points_change"])
            for r in data["standings"]
        ]
        fields.append((gettext("Standings"), _lines(table)))
    return title, where, match["url"], fields


def _embed_parts(envelope: dict[str, Any]) -> tuple[str, str, str, list[tuple[str, str]]]:
    """(title, description, url, fields) of the event's embed."""
    event, data = envelope["event"], envelope["data"]
    if event.startswith("match."):
        return _match_embed(data)
    if event == TEST_EVENT:
        return (
            gettext("Test message"),
            gettext(
                "This webhook works: events of %(league)s will be posted here.",
                league=discord_text(envelope["league"]["name"]),
            ),
            data["url"],
            [],
        )
    if event == "player.died":
        match = data["match"]
        return (
            gettext(
                "%(player)s (%(team)s) died",
                player=data["player"]["name"],
                team=data["team"]["name"],
            ),
            gettext("%(home)s v %(away)s", home=match["home"]["name"], away=match["away"]["name"]),
            match["url"],
            [],
        )
    if event == "fixtures.generated":
        lines = [
            gettext(
                "Round %(number)s: %(home)s v %(away)s (%(date)s)",
                number=f["round"],
                home=f["home"]["name"],
                away=f["away"]["name"],
                date=format_date(date.fromisoformat(f["date"])),
            )
            if f["date"]
            else gettext(
                "Round %(number)s: %(home)s v %(away)s",
                number=f["round"],
                home=f["home"]["name"],
                away=f["away"]["name"],
            )
            for f in data["fixtures"]
        ]
        title = ngettext(
            "%(season)s: %(num)d fixture",
            "%(season)s: %(num)d fixtures",
            len(lines),
            season=season_name(data["season"] or ""),
        )
        return title, "\n".join(lines), data["url"], []
    if event == "advancement.bought":
        gained = data["skill"] or (
            gettext("+1 %(characteristic)s", characteristic=stat_label(data["characteristic"]))
            if data["characteristic"]
            else data["kind"]
        )
        return (
            gettext("%(player)s gains %(gained)s", player=data["player"]["name"], gained=gained),
            gettext("%(team)s \u00b7 %(spp)s SPP", team=data["team"]["name"], spp=data["spp"]),
            data["player"]["url"],
            [],
        )
    if event in ("team.created", "team.redrafted"):
        team = data["team"]
        description = gettext(
            "%(team_type)s \u00b7 coach %(coach)s", team_type=team["team_type"], coach=team["coach"]
        )
        return team["name"], description, team["url"], []
    # season.closed
    table = [
        gettext("%(position)s. %(team)s \u2013 %(points)s pts", **_row(r)) for r in data["table"]
    ]
    return (
        gettext("%(season)s is over", season=season_name(data["name"])),
        gettext("Final table:") + "\n" + _lines(table),
        data["url"],
        [],
    )


def discord_message(envelope: dict[str, Any]) -> dict[str, Any]:
    """The event as a Discord webhook message: one embed, within Discord's limits."""
    envelope = {**envelope, "data": _escaped(envelope["data"])}
    title, description, url, fields = _embed_parts(envelope)
    limits = DISCORD_LIMITS
    embed: dict[str, Any] = {
        "title": _clip(title, limits["title"]),
        "url": url,
        "color": COLOURS[envelope["event"]],
        "author": {
            "name": _clip(
                discord_text(envelope["league"]["name"], markdown=False), limits["author"]
            )
        },
        "footer": {"text": gettext(EVENT_TITLES[envelope["event"]])},
        "timestamp": envelope["occurred_at"],
        "fields": [
            {
                "name": _clip(name, limits["field_name"]),
                "value": _clip(value, limits["field_value"]),
                "inline": False,
            }
            for name, value in fields[: limits["fields"]]
        ],
    }
    if description:
        embed["description"] = _clip(description, limits["description"])
    # The whole embed's text stays under the total: the description gives way first.
    over = embed_length(embed) - limits["total"]
    if over > 0 and "description" in embed:
        keep = max(1, len(embed["description"]) - over)
        embed["description"] = _clip(embed["description"], keep)
    while embed_length(embed) > limits["total"] and embed["fields"]:
        embed["fields"].pop()
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}


def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6000."""
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
        + len(embed.get("footer", {}).get("text", ""))
        + len(embed.get("author", {}).get("name", ""))
    )


def discord_problems(message: dict[str, Any]) -> list[str]:
    """Where a message breaks Discord's documented embed limits (empty: it does not)."""
    limits, problems = DISCORD_LIMITS, []
    embeds = message.get("embeds", [])
    if len(embeds) > limits["embeds"]:
        problems.append("too many embeds")
    for embed in embeds:
        checks = [
            ("title", len(embed.get("title", ""))),
            ("description", len(embed.get("description", ""))),
            ("fields", len(embed.get("fields", []))),
            ("footer", len(embed.get("footer", {}).get("text", ""))),
            ("author", len(embed.get("author", {}).get("name", ""))),
            ("total", embed_length(embed)),
        ]
        problems += [f"{name} over {limits[name]}" for name, size in checks if size > limits[name]]
        for field in embed.get("fields", []):
            if not 0 < len(field["name"]) <= limits["field_name"]:
                problems.append("a field name is empty or too long")
            if not 0 < len(field["value"]) <= limits["field_value"]:
                problems.append("a field value is empty or too long")
    return problems
