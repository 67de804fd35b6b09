"""The one translation seam: every text a person reads is looked up through here.

`league.rules` must stay free of Flask, yet its refusals are read by people in five
languages. So the rules, the services and the PDF ask this module, and the app factory
installs Flask-Babel behind it (`league.i18n.babel`), which answers in the language
chosen for the current request or job. With nothing installed (scripts, pure tests)
the English text comes back, formatted as Python would.

Conventions (the catalogues in `translations/` are extracted from them, see babel.cfg):

- ``gettext("Costs %(gold)s.", gold=format_number(n))``: named placeholders, never text
  glued from pieces, so a translator can move them;
- ``ngettext("%(num)d player", "%(num)d players", n)``: counts go through plural forms;
- ``N_("...")`` marks a constant for extraction; translate it with ``gettext`` where it
  is shown (module-level dicts of labels, enum names).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime
from typing import Any, Literal, Protocol

from league.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_CODES, LANGUAGES, is_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_CODES",
    "N_",
    "Backend",
    "DateFormat",
    "ListStyle",
    "current_language",
    "format_date",
    "format_datetime",
    "format_list",
    "format_number",
    "gettext",
    "in_language",
    "install",
    "is_language",
    "ngettext",
    "pgettext",
]


DateFormat = Literal["full", "long", "medium", "short"]
ListStyle = Literal["standard", "or"]


class Backend(Protocol):
    def gettext(self, message: str, **variables: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str: ...

    def pgettext(self, context: str, message: str, **variables: Any) -> str: ...

    def format_number(self, number: int | float) -> str: ...

    def format_date(self, value: date, format: str, skeleton: str | None) -> str: ...

    def format_datetime(self, value: datetime, format: DateFormat) -> str: ...

    def format_list(self, items: list[str], style: ListStyle) -> str: ...

    def current_language(self) -> str: ...

    def in_language(self, code: str) -> contextlib.AbstractContextManager[None]: ...


class _English:
    """No translation installed: the message itself, numbers with commas."""

    def gettext(self, message: str, **variables: Any) -> str:
        return message % variables if variables else message

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        return (singular if num == 1 else plural) % variables

    def pgettext(self, context: str, message: str, **variables: Any) -> str:
        return message % variables if variables else message

    def format_number(self, number: int | float) -> str:
        return f"{number:,}"

    def format_date(self, value: date, format: str, skeleton: str | None) -> str:
        return f"{value:%b} {value.day}, {value.year}"  # English, medium

    def format_datetime(self, value: datetime, format: DateFormat) -> str:
        hour = value.hour % 12 or 12
        noon = "AM" if value.hour < 12 else "PM"
        return f"{self.format_date(value.date(), format, None)}, {hour}:{value:%M}\u202f{noon}"

    def format_list(self, items: list[str], style: ListStyle) -> str:
        word = "or" if style == "or" else "and"
        if len(items) <= 2:
            return f" {word} ".join(items)
        return f"{', '.join(items[:-1])}, {word} {items[-1]}"

    def current_language(self) -> str:
        return DEFAULT_LANGUAGE

    def in_language(self, code: str) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


_backend: Backend = _English()


def install(backend: Backend) -> None:
    """Answer every lookup from ``backend`` (the app factory installs Flask-Babel's)."""
    global _backend
    _backend = backend


def gettext(message: str, **variables: Any) -> str:
    return _backend.gettext(message, **variables)


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    return _backend.ngettext(singular, plural, num, **variables)


def pgettext(context: str, message: str, **variables: Any) -> str:
    """``message`` in the reader's language, told apart from the same English text used
    elsewhere by ``context`` (``pgettext("ordinal number", "%(num)s.", num=3)``)."""
    return _backend.pgettext(context, message, **variables)


def format_number(number: int | float) -> str:
    """``number`` grouped as the reader's language writes it (1,000,000 / 1.000.000)."""
    return _backend.format_number(number)


def format_date(
    value: date | datetime | None, format: str = "medium", *, skeleton: str | None = None
) -> str:
    """A day as the reader's language writes it ("Nov 24, 2026", "24.11.2026"); ``format``
    is Babel's: short, medium, long, full or a pattern; or a CLDR ``skeleton`` (the fields
    wanted, in the language's order: "yMMMEd" gives "Tue, Nov 24, 2026", "Di., 24. Nov.
    2026"). A moment gives its day in UTC, the time the site keeps; None gives ""."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = _utc(value).date()
    return _backend.format_date(value, format, skeleton)


def format_datetime(value: datetime | str | None, format: DateFormat = "medium") -> str:
    """A moment (UTC, as the site keeps them; a datetime or its ISO text) as the reader's
    language writes it: the day in ``format`` and the time to the minute
    ("Nov 24, 2026, 2:05 PM", "24.11.2026, 14:05")."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return _backend.format_datetime(_utc(value), format)


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo is not None else value


def format_list(items: Iterable[object], style: ListStyle = "standard") -> str:
    """``items`` as one list in the reader's language: "A, B, and C", "A, B und C";
    ``style="or"`` for alternatives ("A, B, or C", "A, B oder C")."""
    return _backend.format_list([str(item) for item in items], style)


def current_language() -> str:
    """The code of the language texts are read in now ("en", "fr", ...)."""
    return _backend.current_language()


@contextlib.contextmanager
def in_language(code: str | None) -> Iterator[None]:
    """Texts and numbers in ``code`` inside the block (a league's language in a job, a
    webhook or a calendar); an unknown or empty code gives English."""
    with _backend.in_language(code if code is not None and is_language(code) else DEFAULT_LANGUAGE):
        yield


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it here."""
    return message
