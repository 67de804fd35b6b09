"""The languages the site speaks: codes and the name each language gives itself.

Pure data (no Flask): the models' CHECK constraints, the forms, the API schemas and the
locale selection all read these.
"""

from __future__ import annotations

#: The default language: what the code's msgids are written in.
DEFAULT_LANGUAGE = "en"

#: Code -> the language's own name (shown as is in every language: a reader finds theirs).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "it": "Italiano",
}

#: The codes, English first.
LANGUAGE_CODES: tuple[str, ...] = tuple(LANGUAGES)


def is_language(code: object) -> bool:
    return isinstance(code, str) and code in LANGUAGES
