"""Small helpers shared by the views."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask_wtf import FlaskForm

from league.services.errors import DomainError


def attach_error(form: FlaskForm, error: DomainError, field_name: str | None = None) -> None:
    """Show a service's refusal next to the field it names (or above the form)."""
    field_name = field_name or error.field
    field = getattr(form, field_name, None) if field_name else None
    if field is not None:
        field.errors = [*field.errors, error.message]
    else:
        form.form_errors.append(error.message)


def safe_next(target: str | None, default: str) -> str:
    """Only follow `next=` to a path on this site (no open redirects).

    Browsers read a backslash as a slash ("/\\evil.example" is another host) and drop
    tabs and newlines, so a target holding either is refused too.
    """
    if (
        target
        and target.startswith("/")
        and not urlsplit(target).netloc
        and "\\" not in target
        and target.isprintable()
    ):
        return target
    return default
