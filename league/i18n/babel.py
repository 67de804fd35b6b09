"""Flask-Babel behind the translation seam of `league.i18n`."""

from __future__ import annotations

import contextlib
from datetime import date, datetime
from typing import Any

import flask
import flask_babel
from babel import dates as babel_dates
from babel import lists as babel_lists
from flask import has_app_context

from league.i18n import DateFormat, ListStyle, _English
from league.i18n.languages import DEFAULT_LANGUAGE


class FlaskBabelBackend:
    """Looks texts up in the current request's (or forced) language.

    Outside an application context (a script, a pure rules test run after an app was
    made) there is no language to ask for: the English answer, as with nothing installed.
    """

    _english = _English()

    def gettext(self, message: str, **variables: Any) -> str:
        if not flask.has_app_context():
            return self._english.gettext(message, **variables)
        return flask_babel.gettext(message, **variables)

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        if not flask.has_app_context():
            return self._english.ngettext(singular, plural, num, **variables)
        return flask_babel.ngettext(singular, plural, num, **variables)

    def pgettext(self, context: str, message: str, **variables: Any) -> str:
        if not flask.has_app_context():
            return self._english.pgettext(context, message, **variables)
        return flask_babel.pgettext(context, message, **variables)

    def format_number(self, number: int | float) -> str:
        if not flask.has_app_context():
            return self._english.format_number(number)
        return flask_babel.format_number(number)

    def format_date(self, value: date, format: str, skeleton: str | None) -> str:
        if not has_app_context():
            return self._english.format_date(value, format, skeleton)
        language = self.current_language()
        if skeleton is not None:
            return str(babel_dates.format_skeleton(skeleton, value, locale=language))
        return str(babel_dates.format_date(value, format, locale=language))

    def format_datetime(self, value: datetime, format: DateFormat) -> str:
        """The day in ``format`` and the time to the minute, joined as the language joins
        them (``value`` is UTC, naive: as the site keeps moments)."""
        if not has_app_context():
            return self._english.format_datetime(value, format)
        language = self.current_language()
        day = babel_dates.format_date(value.date(), format, locale=language)
        time = babel_dates.format_time(value.time(), "short", locale=language)
        pattern = str(babel_dates.get_datetime_format(format, locale=language))
        return pattern.replace("'", "").replace("{0}", time).replace("{1}", day)

    def format_list(self, items: list[str], style: ListStyle) -> str:
        if not has_app_context():
            return self._english.format_list(items, style)
        return babel_lists.format_list(items, style=style, locale=self.current_language())

    def current_language(self) -> str:
        if not has_app_context():
            return DEFAULT_LANGUAGE
        locale = flask_babel.get_locale()
        return str(locale.language) if locale is not None else DEFAULT_LANGUAGE

    def in_language(self, code: str) -> contextlib.AbstractContextManager[None]:
        if not has_app_context():
            return contextlib.nullcontext()
        return flask_babel.force_locale(code)
