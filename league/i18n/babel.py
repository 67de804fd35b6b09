"""Flask-Babel behind the translation seam of `league.i18n`."""

from __future__ import annotations

import contextlib
from typing import Any

import flask
import flask_babel
from flask import has_app_context

from league.i18n import _English
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

    def current_language(self) -> str:
        if not has_app_context():
            return DEFAULT_LANGUAGE
        locale = flask_babel.get_locale()
        return str(locale.language) if locale is not None else DEFAULT_LANGUAGE

    def in_language(self, code: str) -> contextlib.AbstractContextManager[None]:
        if not has_app_context():
            return contextlib.nullcontext()
        return flask_babel.force_locale(code)
