"""Reusable column types for the typed models."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from sqlalchemy import DateTime
from sqlalchemy.orm import mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


intpk = Annotated[int, mapped_column(primary_key=True)]
created_at = Annotated[
    datetime, mapped_column(DateTime(timezone=True), default=utcnow, nullable=False)
]
