"""Webhooks and their deliveries."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import OneOf

from league.api.schemas.base import (
    NO_NUL,
    STRING,
    RequestSchema,
    ResponseSchema,
    ServiceLength,
    ServiceOneOf,
    WholeList,
    doc,
    no_nul,
    timestamp,
)
from league.models import Webhook, WebhookDelivery
from league.models.webhook import DELIVERY_STATUSES, URL_LENGTH, WEBHOOK_EVENTS, WEBHOOK_FORMATS


class WebhookSchema(ResponseSchema):
    """A webhook of a league."""

    id = fields.Integer(required=True)
    league_id = fields.Integer(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=OneOf(WEBHOOK_EVENTS)), required=True)
    format = fields.String(required=True, validate=OneOf(WEBHOOK_FORMATS))
    paused = fields.Boolean(
        required=True, metadata=doc("Paused after failing: nothing is sent until resumed.")
    )
    failures = fields.Integer(required=True, metadata=doc("Failed attempts in a row."))

    @pre_dump
    def _of_webhook(self, webhook: Webhook, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": webhook.id,
            "league_id": webhook.league_id,
            "url": webhook.url,
            "events": list(webhook.events),
            "format": webhook.format,
            "paused": webhook.paused_at is not None,
            "failures": webhook.failures,
        }


class NewWebhookCreatedSchema(WebhookSchema):
    """A webhook just registered, with its signing secret (shown this once)."""

    secret = fields.String(
        required=True,
        metadata=doc("Key of the HMAC-SHA256 in each delivery's `X-League-Signature`."),
    )

    @pre_dump
    def _of_webhook(self, webhook: Webhook, **kwargs: Any) -> dict[str, Any]:
        return {**super()._of_webhook(webhook), "secret": webhook.secret}


class WebhookListSchema(ResponseSchema):
    """A league's webhooks."""

    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


EVENTS = "must be a list of event names."


class NewWebhookSchema(RequestSchema):
    """A webhook to register."""

    url = fields.String(
        required=True,
        validate=[NO_NUL, ServiceLength(min=1, max=URL_LENGTH)],
        metadata=doc("An http:// or https:// address of a public host."),
        error_messages=STRING,
    )
    events = WholeList(
        fields.String(validate=ServiceOneOf(WEBHOOK_EVENTS)),
        required=True,
        validate=ServiceLength(min=1),
        metadata=doc("The events to be told about.", uniqueItems=True),
        error_messages=dict.fromkeys(("invalid", "null", "required"), EVENTS),
    )
    format = fields.String(
        allow_none=True,
        validate=[no_nul, ServiceOneOf(WEBHOOK_FORMATS)],
        metadata=doc("`json` (default): the event; `discord`: a Discord message with an embed."),
        error_messages=STRING,
    )


class DeliverySchema(ResponseSchema):
    """One event sent (or to be sent) to a webhook, and how it went."""

    id = fields.Integer(required=True, metadata=doc("Also sent as `X-League-Delivery`."))
    event = fields.String(required=True, validate=OneOf(WEBHOOK_EVENTS))
    status = fields.String(required=True, validate=OneOf(DELIVERY_STATUSES))
    attempts = fields.Integer(required=True)
    response_code = fields.Integer(
        required=True, allow_none=True, metadata=doc("The receiver's last HTTP status.")
    )
    error = fields.String(required=True, allow_none=True)
    created_at = fields.String(required=True, metadata=doc("ISO 8601."))
    next_attempt_at = fields.String(required=True, allow_none=True, metadata=doc("ISO 8601."))
    delivered_at = fields.String(required=True, allow_none=True, metadata=doc("ISO 8601."))

    @pre_dump
    def _of_delivery(self, delivery: WebhookDelivery, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": delivery.id,
            "event": delivery.event,
            "status": delivery.status,
            "attempts": delivery.attempts,
            "response_code": delivery.response_code,
            "error": delivery.error,
            "created_at": timestamp(delivery.created_at),
            "next_attempt_at": timestamp(delivery.next_attempt_at),
            "delivered_at": timestamp(delivery.delivered_at),
        }


class DeliveryListSchema(ResponseSchema):
    """A webhook's latest deliveries, newest first."""

    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
