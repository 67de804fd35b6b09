"""WTForms classes; every form carries a CSRF token through Flask-WTF."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import flask_babel
import flask_wtf
import wtforms
from wtforms.validators import Length

from league.caching import personal
from league.i18n import gettext
from league.services.text import is_valid_unicode

#: Integer columns are 32-bit: a whole number a form takes fits in one.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def _l(message: str, **variables: Any) -> str:
    """``message`` translated when it is shown (labels and messages set on form classes).

    Flask-Babel's ``lazy_gettext``, typed as the ``str`` WTForms' stubs expect; the
    catalogue extraction knows ``_l`` as a keyword (babel.cfg).
    """
    return cast(str, flask_babel.lazy_gettext(message, **variables))


def lazy(text: Callable[[], str]) -> str:
    """A class-level text that needs more than a lookup (a number formatted for the reader,
    a plural): ``text`` is called each time it is shown."""
    return cast(str, flask_babel.LazyString(text))


class FlaskForm(flask_wtf.FlaskForm):
    """Flask-WTF's form, refusing NUL characters and lone surrogates in every field, and
    showing one message per field.

    PostgreSQL stores no NUL in text (a query holding one fails) and no database
    driver encodes half a surrogate pair, so either must stop here as a form error
    rather than reach the database as a 500.

    A field says what is wrong once: the first problem found (a value that could not
    be read, then the validators in order). Otherwise a number too large to read would
    also fail "at least 0" and "at most 10,000,000", and the three messages contradict
    one another.
    """

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        for field in self:
            texts = [value for value in field.raw_data or () if isinstance(value, str)]
            if any("\x00" in text for text in texts):
                field.errors = [gettext("Remove the NUL character from this field.")]
                valid = False
            elif not all(is_valid_unicode(text) for text in texts):
                field.errors = [gettext("This field holds text that is not valid Unicode.")]
                valid = False
            else:
                _first_error_only(field)
        return valid


def _first_error_only(field: wtforms.Field) -> None:
    """Keep the first message of ``field`` (of each entry, in a list of fields)."""
    if isinstance(field, wtforms.FieldList):
        for entry in field:
            _first_error_only(entry)
    elif isinstance(field.errors, list) and field.errors and isinstance(field.errors[0], str):
        del field.errors[1:]  # in place: a FieldList's errors hold each entry's list


class OneTimeForm(FlaskForm):
    """A form that creates or spends: its one-time token makes a copy sent again act once.

    Each form shown gets a new token; the service claims it (services.submissions) and
    refuses a second claim with what the first one did.
    """

    token = wtforms.HiddenField(validators=[Length(max=64)])

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if not self.token.data:
            self.token.data = personal("one_time_token")


class EmptyForm(FlaskForm):
    """For button-only POSTs (log out, confirmations): just the CSRF token."""


class ConfirmStepForm(FlaskForm):
    """A form for a step that cannot be taken back, which asks first, on the server.

    Posted without ``confirmed``, the view answers with a confirmation page that sends
    the same fields again plus ``confirmed=yes``; only that second post acts. No
    JavaScript needed, and a stray post (an old page, a second tab) asks too.
    """

    confirmed = wtforms.HiddenField()

    @property
    def is_confirmed(self) -> bool:
        return self.confirmed.data == "yes"


class IntegerField(wtforms.IntegerField):
    """A whole number that fits the database's integer columns.

    A longer one is a form error, never an overflow in the database or in
    WTForms' own NumberRange (which turns the number into a float): a 500.
    """

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata(valuelist)
        if self.data is not None and not INT_MIN <= self.data <= INT_MAX:
            too_big = self.data > INT_MAX
            self.data = None
            raise ValueError(
                gettext("Enter a smaller number.") if too_big else gettext("Enter a larger number.")
            )
