from __future__ import annotations

from wtforms import BooleanField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Regexp

from league.services.users import USERNAME_PATTERN
from league.web.forms import FlaskForm


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])
    remember = BooleanField("Keep me logged in")
    submit = SubmitField("Log in")


class RegisterForm(FlaskForm):
    username = StringField(
        "Username",
        validators=[
            DataRequired(),
            Regexp(USERNAME_PATTERN, message="3 to 40 letters, digits, dots, dashes or _."),
        ],
    )
    # Length, common passwords, the username: the service's rules, shown next to the field.
    password = PasswordField("Password", validators=[DataRequired()])
    confirm = PasswordField(
        "Repeat password",
        validators=[DataRequired(), EqualTo("password", message="The passwords differ.")],
    )
    submit = SubmitField("Create account")
