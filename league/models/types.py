"""Reusable column types for the typed models."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Annotated

from sqlalchemy import DateTime
from sqlalchemy.orm import Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


intpk = Annotated[int, mapped_column(primary_key=True)]
created_at = Annotated[
    datetime, mapped_column(DateTime(timezone=True), default=utcnow, nullable=False)
]


def one_of(column: str, values: Iterable[str]) -> str:
    """A CHECK's SQL: `column` holds one of `values`, the tuple the Python code uses too."""
    quoted = ", ".join("'" + value.replace("'", "''") + "'" for value in values)
    return f"{column} IN ({quoted})"


#: The CHECK both injury-carrying tables share (lasting injuries only ever lower).
REDUCTIONS_NOT_NEGATIVE = (
    "ma_reduction >= 0 AND st_reduction >= 0 AND ag_reduction >= 0 "
    "AND pa_reduction >= 0 AND av_reduction >= 0"
)


class InjuryColumns:
    """Niggling injuries and lasting-injury reductions per characteristic (a mixin).

    Each reduction step makes the characteristic worse by one. Players carry them as
    caches; an imported player's opening balance carries what he brought along.
    """

    niggling_injuries: Mapped[int] = mapped_column(default=0)
    ma_reduction: Mapped[int] = mapped_column(default=0)
    st_reduction: Mapped[int] = mapped_column(default=0)
    ag_reduction: Mapped[int] = mapped_column(default=0)
    pa_reduction: Mapped[int] = mapped_column(default=0)
    av_reduction: Mapped[int] = mapped_column(default=0)

    def reduction(self, characteristic: str) -> int:
        return int(getattr(self, f"{characteristic}_reduction"))
