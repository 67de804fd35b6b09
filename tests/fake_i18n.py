"""A stand-in translation backend: proof that a text went through `league.i18n`.

The catalogues are translated after new message ids are extracted, so a test of a new
text cannot expect French yet. Installed with `league.i18n.install`, this backend
answers every lookup with the English text between ``⟦`` and ``⟧`` (and remembers the
message ids asked for): a sentence that comes back bracketed was looked up, one that
comes back plain was glued together or inserted raw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import league.i18n
from league.i18n import _English


class Bracketing(_English):
    """English formatting (dates, lists) from `_English`; every text looked up bracketed."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self._english = _English()

    def gettext(self, message: str, **variables: Any) -> str:
        self.asked.append(message)
        return f"⟦{self._english.gettext(message, **variables)}⟧"

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        self.asked.append(singular)
        return f"⟦{self._english.ngettext(singular, plural, num, **variables)}⟧"

    def pgettext(self, context: str, message: str, **variables: Any) -> str:
        self.asked.append(message)
        return f"⟦{self._english.pgettext(context, message, **variables)}⟧"

    def format_number(self, number: int | float) -> str:
        return f"#{number}"

    language = "fr"

    def current_language(self) -> str:
        return self.language

    @contextlib.contextmanager
    def in_language(self, code: str) -> Iterator[None]:
        previous, self.language = self.language, code
        try:
            yield
        finally:
            self.language = previous


@contextlib.contextmanager
def bracketing() -> Iterator[Bracketing]:
    """Every lookup inside the block goes to a fresh `Bracketing` backend."""
    backend = Bracketing()
    previous = league.i18n._backend
    league.i18n.install(backend)
    try:
        yield backend
    finally:
        league.i18n.install(previous)
