"""One-time form tokens already used: a form sent twice acts once."""

from __future__ import annotations

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from league.extensions import Model
from league.models.types import created_at, intpk

#: The longest summary kept (a treasury reason can be long).
SUMMARY_LENGTH = 400


class FormSubmission(Model):
    """A form's one-time token, claimed by the transaction that acted on it.

    `key` digests the token with the action and what it acted on (see
    services.submissions.claim); `summary` says what the first submission did, for the
    message a resent copy gets.
    """

    __tablename__ = "form_submission"

    id: Mapped[intpk]
    key: Mapped[str] = mapped_column(String(64), unique=True)
    action: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    summary: Mapped[str] = mapped_column(String(SUMMARY_LENGTH), default="")
    at: Mapped[created_at]
