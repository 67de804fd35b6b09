"""The form of a league's Discord page: the application's ids and keys."""

from __future__ import annotations

from wtforms import PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, Length

from league.services.discord.connections import DiscordSettings
from league.web.forms import FlaskForm, _l


def _id_field(label: str) -> StringField:
    return StringField(
        label,
        validators=[
            DataRequired(message=_l("Paste the id Discord shows.")),
            Length(max=25, message=_l("At most %(num)d characters.", num=25)),
        ],
    )


class DiscordForm(FlaskForm):
    application_id = _id_field(_l("Application id"))
    public_key = StringField(
        _l("Public key"),
        validators=[
            DataRequired(message=_l("Paste the public key.")),
            Length(max=64, message=_l("At most %(num)d characters.", num=64)),
        ],
    )
    # Never filled in again: the stored token is only replaced.
    bot_token = PasswordField(
        _l("Bot token"),
        validators=[Length(max=200, message=_l("At most %(num)d characters.", num=200))],
    )
    guild_id = _id_field(_l("Server id"))
    channel_id = _id_field(_l("Channel id"))
    submit = SubmitField(_l("Save"))

    def settings(self) -> DiscordSettings:
        return DiscordSettings(
            application_id=self.application_id.data or "",
            public_key=self.public_key.data or "",
            guild_id=self.guild_id.data or "",
            channel_id=self.channel_id.data or "",
            bot_token=self.bot_token.data or None,
        )
