"""Webhooks: GET|POST /api/v1/leagues/<id>/webhooks, DELETE /api/v1/webhooks/<id>,
GET /api/v1/webhooks/<id>/deliveries (a commissioner of the league)."""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import (
    DeliveryListSchema,
    NewWebhookCreatedSchema,
    NewWebhookSchema,
    WebhookListSchema,
    WebhookSchema,
)
from league.extensions import db
from league.services import access, webhooks
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"
WEBHOOK = "/webhooks/<id:webhook_id>"


@bp.get(f"{LEAGUE}/webhooks")
@token_required
def list_webhooks(league_id: int) -> dict[str, Any]:
    """The league's webhooks (commissioner); their secrets are not shown again.
    ---
    get:
      tags: [Webhooks]
      responses:
        200: WebhookList
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league.
    """
    league = access.get_league(db.session(), league_id)
    access.require_commissioner(league, g.api_user)
    return WebhookListSchema.body({"webhooks": webhooks.league_webhooks(db.session(), league)})


@bp.post(f"{LEAGUE}/webhooks")
@token_required
def create_webhook(league_id: int) -> tuple[dict[str, Any], int]:
    """Register a webhook (commissioner): the answer shows its signing secret, once.

    Each delivery is a POST of JSON signed with the secret: the header
    `X-League-Signature: sha256=<hex HMAC-SHA256 of the body>`; `X-League-Event` names the
    event. `format: discord` posts a Discord message (an embed) instead of the plain event.
    Failed deliveries are retried later and later; a webhook failing five times in a row
    is paused. Only http(s) URLs of public addresses are accepted.
    ---
    post:
      tags: [Webhooks]
      requestBody: NewWebhook
      responses:
        201: NewWebhookCreated
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        422: >-
          An address that is not http(s), cannot be found, or points to this server or a
          private network (`invalid_url`); unknown events; an unknown format; too many webhooks.
    """
    body = NewWebhookSchema().load(json_object())
    settings = webhooks.WebhookSettings(
        url=body["url"], events=tuple(body["events"]), format=body.get("format") or "json"
    )
    with unit_of_work() as session:
        webhook = webhooks.create_webhook(session, g.api_user, league_id, settings)
        result = NewWebhookCreatedSchema.body(webhook)
    return result, 201


@bp.delete(WEBHOOK)
@token_required
def delete_webhook(webhook_id: int) -> dict[str, Any]:
    """Delete a webhook and its deliveries (commissioner).
    ---
    delete:
      tags: [Webhooks]
      responses:
        200: Webhook
      errors:
        403: The caller is not a commissioner of the webhook's league.
        404: No such webhook.
    """
    with unit_of_work() as session:
        result = WebhookSchema.body(webhooks.get_webhook(session, g.api_user, webhook_id))
        webhooks.delete_webhook(session, g.api_user, webhook_id)
    return result


@bp.get(f"{WEBHOOK}/deliveries")
@token_required
def list_deliveries(webhook_id: int) -> dict[str, Any]:
    """A webhook's latest deliveries and their outcome (commissioner), newest first.
    ---
    get:
      tags: [Webhooks]
      responses:
        200: DeliveryList
      errors:
        403: The caller is not a commissioner of the webhook's league.
        404: No such webhook.
    """
    webhook = webhooks.get_webhook(db.session(), g.api_user, webhook_id)
    deliveries = webhooks.recent_deliveries(db.session(), webhook)
    return DeliveryListSchema.body({"deliveries": deliveries})
