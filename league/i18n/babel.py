"""Flask-Babel behind the translation seam of `league.i18n`."""

from __future__ import annotations

from typing import Any

import flask_babel


class FlaskBabelBackend:
    """Looks texts up in the current request's (or forced) language."""

    def gettext(self, message: str, **variables: Any) -> str:
        return flask_babel.gettext(message, **variables)

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        return flask_babel.ngettext(singular, plural, num, **variables)

    def format_number(self, number: int | float) -> str:
        return flask_babel.format_number(number)
