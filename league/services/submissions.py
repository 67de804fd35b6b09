"""One-time form tokens: the same form sent twice (a double click, a resent page) acts once.

Every form that creates or spends carries a token made when the form was shown. The
service claims it first, in the transaction that acts on it; a copy sent again finds it
claimed and is refused with what the first one did, writing nothing.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import FormSubmission, User
from league.models.submission import SUMMARY_LENGTH
from league.services.errors import Conflict


class Resubmitted(Conflict):
    """This form was sent before: nothing happens again; the message says what did."""

    code = "resubmitted"


def claim(
    session: Session, actor: User, token: str | None, action: str, *details: object
) -> FormSubmission | None:
    """Claim `token` for `action` on `details` (what the form acts on); None without a token.

    The same page may hold several forms with one token (a buy button per item): only
    the same form sent again, with the same details, is a repeat.
    """
    if not token:
        return None
    parts = (action, *(str(detail) for detail in details), token)
    key = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    earlier = session.scalar(select(FormSubmission).where(FormSubmission.key == key))
    if earlier is None:
        submission = FormSubmission(key=key, action=action, user_id=actor.id)
        try:
            with session.begin_nested():
                session.add(submission)
            return submission
        except IntegrityError:
            # Its twin claimed the key meanwhile (PostgreSQL waited for the twin to commit).
            earlier = session.scalar(select(FormSubmission).where(FormSubmission.key == key))
            if earlier is None:
                raise
    raise Resubmitted(
        gettext(
            "%(summary)s (The form was sent twice; it counted once.)", summary=earlier.summary
        ).strip()
    )


def done(submission: FormSubmission | None, summary: str) -> None:
    """Note what the claimed form did, for the message a resent copy gets."""
    if submission is not None:
        submission.summary = summary[:SUMMARY_LENGTH]
