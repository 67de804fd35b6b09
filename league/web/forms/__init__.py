"""WTForms classes; every form carries a CSRF token through Flask-WTF."""

from flask_wtf import FlaskForm


class EmptyForm(FlaskForm):
    """For button-only POSTs (log out, confirmations): just the CSRF token."""
