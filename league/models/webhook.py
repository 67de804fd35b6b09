"""Outgoing webhooks of a league, and each message sent (or to be sent) through one."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import JSON, CheckConstraint, DateTime, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of

if TYPE_CHECKING:
    from league.models.league import League

#: What a webhook may ask to be told about (names as in the API).
WEBHOOK_EVENTS = (
    "match.finalised",
    "match.corrected",
    "match.voided",
    "fixtures.generated",
    "advancement.bought",
    "player.died",
    "team.created",
    "team.redrafted",
    "season.closed",
    "fixture.reminder",
)
#: json: the event as a JSON object; discord: a message Discord's webhooks accept.
WEBHOOK_FORMATS = ("json", "discord")
DELIVERY_STATUSES = ("pending", "delivered", "retrying", "failed")
URL_LENGTH = 500


class Webhook(Model):
    """A URL told about the league's events, signed with `secret`.

    `failures` counts failed attempts in a row (any delivery); at the limit the webhook
    is paused (`paused_at`): nothing more is sent until a commissioner resumes it.
    """

    __tablename__ = "webhook"
    __table_args__ = (
        CheckConstraint(one_of("format", WEBHOOK_FORMATS), name="format_known"),
        CheckConstraint("failures >= 0", name="failures_not_negative"),
    )

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    url: Mapped[str] = mapped_column(String(URL_LENGTH))
    events: Mapped[list[str]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(10))
    secret: Mapped[str] = mapped_column(String(64))
    failures: Mapped[int] = mapped_column(default=0)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[created_at]

    league: Mapped[League] = relationship()
    deliveries: Mapped[list[WebhookDelivery]] = relationship(
        back_populates="webhook",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="WebhookDelivery.id.desc()",
    )


class WebhookDelivery(Model):
    """One event for one webhook: the exact body signed and sent, and how sending went."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (
        CheckConstraint(one_of("status", DELIVERY_STATUSES), name="status_known"),
        CheckConstraint("attempts >= 0", name="attempts_not_negative"),
        # The retry sweep looks for what is due.
        Index("ix_webhook_delivery_due", "status", "next_attempt_at"),
    )

    id: Mapped[intpk]
    webhook_id: Mapped[int] = mapped_column(
        ForeignKey("webhook.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(default=0)
    response_code: Mapped[int | None]
    #: Why the last attempt failed, for the settings page (no response body is kept).
    error: Mapped[str | None] = mapped_column(String(200))
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[created_at]
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    webhook: Mapped[Webhook] = relationship(back_populates="deliveries")
