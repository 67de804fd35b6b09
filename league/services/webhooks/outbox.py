"""The webhooks' outbox: a delivery row per webhook that wants an event, written in the
transaction that made the change, then sent once it has committed.

- `emit(session, league_id, event, payload)` adds one `WebhookDelivery` per webhook of the
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

Each attempt looks the address up and checks it again, and connects to the very address
it checked (`league.services.outbound`); `ALLOW_PRIVATE_WEBHOOKS` lifts the check.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import in_language
from league.models import League, Webhook, WebhookDelivery
from league.models.webhook import URL_LENGTH
from league.services import outbound
from league.services.unit_of_work import after_commit, unit_of_work
from league.services.webhooks.discord import discord_message
from league.services.webhooks.payloads import page_url

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


def allow_private_addresses() -> bool:
    return bool(current_app.config.get("ALLOW_PRIVATE_WEBHOOKS", False))


def checked_destination(url: str) -> outbound.Destination:
    """`url` looked up and checked (`outbound.Refused` says why not)."""
    return outbound.resolve(url, max_length=URL_LENGTH, allow_private=allow_private_addresses())


def note_pending(session: Session, delivery_id: int) -> None:
    """Send the delivery once the transaction commits."""
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
        queue_delivery(session, webhook, league, event, payload)


def queue_delivery(
    session: Session, webhook: Webhook, league: League | None, event: str, payload: dict[str, Any]
) -> WebhookDelivery:
    """A pending delivery of `event` to `webhook`, sent once the transaction commits."""
    league_id = webhook.league_id
    envelope = {
        "event": event,
        "league": {
            "id": league_id,
            "name": league.name if league else "",
            "url": page_url("leagues", league_id),
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
    note_pending(session, delivery.id)
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
            destination = checked_destination(url)
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
