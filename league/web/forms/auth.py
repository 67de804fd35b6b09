from __future__ import annotations

from wtforms import BooleanField, Field, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Regexp, ValidationError

from league.services.users import USERNAME_PATTERN, password_problem
from league.web.forms import FlaskForm, _l


class AcceptablePassword:
    """The service's password rules as a field validator, for every form that sets one.

    Checked with the other fields, so a short password whose repeat also differs shows
    both faults at once (the service checks again before storing anything).
    """

    def __init__(self, username_field: str = "username") -> None:
        self.username_field = username_field

    def __call__(self, form: FlaskForm, field: Field) -> None:
        username = form[self.username_field].data if self.username_field in form else ""
        problem = password_problem(field.data or "", (username or "").strip())
        if problem:
            raise ValidationError(problem)


class LoginForm(FlaskForm):
    username = StringField(_l("Username"), validators=[DataRequired()])
    password = PasswordField(_l("Password"), validators=[DataRequired()])
    remember = BooleanField(_l("Keep me logged in"))
    submit = SubmitField(_l("Log in"))


class RegisterForm(FlaskForm):
    username = StringField(
        _l("Username"),
        validators=[
            DataRequired(),
            Regexp(USERNAME_PATTERN, message=_l("3 to 40 letters, digits, dots, dashes or _.")),
        ],
    )
    password = PasswordField(_l("Password"), validators=[DataRequired(), AcceptablePassword()])
    confirm = PasswordField(
        _l("Repeat password"),
        validators=[DataRequired(), EqualTo("password", message=_l("The passwords differ."))],
    )
    submit = SubmitField(_l("Create account"))
