"""Outgoing webhooks: registering them, turning what happened into messages, sending them.

- `registration`: a league's webhooks, registered by its commissioners (`create_webhook`,
  `send_test`, ...); only http(s) URLs to public addresses are accepted.
- `subscriber`: the domain events of a transaction (`league.services.events`) become
  outbox rows just before it commits (`subscribe` is called at app start).
- `outbox`: `emit` writes a delivery per webhook that wants the event; after the commit
  `dispatch` hands it to the job queue, and `deliver` makes each attempt, checking the
  address again, signing the body and retrying later and later.
- `payloads`: the data of each event, one builder per aggregate.
- `discord`: the same data as a Discord embed, with what people wrote made inert.

This module gathers what the rest of the app calls.
"""

from __future__ import annotations

from league.services.webhooks.discord import (
    discord_message,
    discord_problems,
    discord_text,
    embed_length,
)
from league.services.webhooks.outbox import (
    MAX_ATTEMPTS,
    PAUSE_AFTER,
    deliver,
    deliver_due,
    dispatch,
    emit,
    retry_delay,
    signature,
    use_dispatcher,
)
from league.services.webhooks.payloads import (
    TEST_EVENT,
    advancement_payload,
    fixtures_payload,
    match_payload,
    season_payload,
    team_payload,
)
from league.services.webhooks.registration import (
    MAX_WEBHOOKS,
    WebhookSettings,
    create_webhook,
    delete_webhook,
    get_webhook,
    league_webhooks,
    paused_webhooks,
    recent_deliveries,
    resume_webhook,
    send_test,
    update_webhook,
)
from league.services.webhooks.subscriber import emit_match, subscribe

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_WEBHOOKS",
    "PAUSE_AFTER",
    "TEST_EVENT",
    "WebhookSettings",
    "advancement_payload",
    "create_webhook",
    "delete_webhook",
    "deliver",
    "deliver_due",
    "discord_message",
    "discord_problems",
    "discord_text",
    "dispatch",
    "embed_length",
    "emit",
    "emit_match",
    "fixtures_payload",
    "get_webhook",
    "league_webhooks",
    "match_payload",
    "paused_webhooks",
    "recent_deliveries",
    "resume_webhook",
    "retry_delay",
    "season_payload",
    "send_test",
    "signature",
    "subscribe",
    "team_payload",
    "update_webhook",
    "use_dispatcher",
]
