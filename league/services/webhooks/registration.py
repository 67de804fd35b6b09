"""Registering a league's webhooks (commissioners): the address, the events, the format."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import League, User, Webhook, WebhookDelivery
from league.models.webhook import WEBHOOK_EVENTS, WEBHOOK_FORMATS
from league.services import audit, outbound
from league.services.access import get_league, require_commissioner
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.webhooks.outbox import checked_destination, note_pending, queue_delivery
from league.services.webhooks.payloads import TEST_EVENT, test_payload

#: A league's webhooks: a channel or two per tool is plenty.
MAX_WEBHOOKS = 10
#: Deliveries listed per webhook on the settings page.
RECENT_DELIVERIES = 10


@dataclass(frozen=True, slots=True)
class WebhookSettings:
    url: str
    events: tuple[str, ...]
    format: str = "json"


def _validated(settings: WebhookSettings) -> WebhookSettings:
    try:
        checked_destination(settings.url)
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
        note_pending(session, delivery.id)
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
    delivery = queue_delivery(session, webhook, league, TEST_EVENT, test_payload(league))
    audit.record(session, actor, "webhook.test", "webhook", webhook.id)
    return delivery
