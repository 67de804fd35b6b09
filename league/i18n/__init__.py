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
from collections.abc import Iterator
from typing import Any, Protocol

from league.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_CODES, LANGUAGES, is_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_CODES",
    "N_",
    "Backend",
    "current_language",
    "format_number",
    "gettext",
    "in_language",
    "install",
    "is_language",
    "ngettext",
]


class Backend(Protocol):
    def gettext(self, message: str, **variables: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str: ...

    def format_number(self, number: int | float) -> str: ...

    def current_language(self) -> str: ...

    def in_language(self, code: str) -> contextlib.AbstractContextManager[None]: ...


class _English:
    """No translation installed: the message itself, numbers with commas."""

    def gettext(self, message: str, **variables: Any) -> str:
        return message % variables if variables else message

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        return (singular if num == 1 else plural) % variables

    def format_number(self, number: int | float) -> str:
        return f"{number:,}"

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


def format_number(number: int | float) -> str:
    """``number`` grouped as the reader's language writes it (1,000,000 / 1.000.000)."""
    return _backend.format_number(number)


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
