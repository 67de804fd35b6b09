"""Forms of the webhooks page: register or edit one, delete one (asks first)."""

from __future__ import annotations

from wtforms import RadioField, SelectMultipleField, StringField, SubmitField

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, InputRequired, Length
from wtforms.widgets import CheckboxInput, ListWidget

from league.models.webhook import URL_LENGTH, WEBHOOK_EVENTS
from league.services.webhooks import WebhookSettings
from league.web.forms import ConfirmStepForm, FlaskForm

#: Every event has a label: the choices below look each one up.
EVENT_LABELS = {
    "match.finalised": "A result is finalised",
    "match.corrected": "A result is corrected",
    "match.voided": "A result is voided",
    "fixtures.generated": "Fixtures are generated",
    "advancement.bought": "A player takes an advancement",
    "player.died": "A player dies",
    "team.created": "A team is created",
    "team.redrafted": "A team is re-drafted",
    "season.closed": "A season is closed",
}


class WebhookForm(FlaskForm):
    url = StringField(
        "Address (URL)",
        validators=[
            DataRequired(message="Give the address to post to."),
            Length(max=URL_LENGTH, message=f"At most {URL_LENGTH} characters."),
        ],
    )
    events = SelectMultipleField(
        "Tell it when",
        choices=[SelectChoice(event, EVENT_LABELS[event]) for event in WEBHOOK_EVENTS],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validators=[DataRequired(message="Tick at least one event.")],
    )
    format = RadioField(
        "Format",
        choices=[
            SelectChoice(
                "discord", "Discord message (an embed with the score, scorers and standings)"
            ),
            SelectChoice("json", "Plain JSON (for bots and scripts)"),
        ],
        default="discord",
        validators=[InputRequired(message="Choose a format.")],
    )
    submit = SubmitField("Save webhook")

    def settings(self) -> WebhookSettings:
        return WebhookSettings(
            (self.url.data or "").strip(), tuple(self.events.data or ()), self.format.data or ""
        )

    def fill_from(self, url: str, events: list[str], format: str) -> None:
        self.url.data, self.events.data, self.format.data = url, list(events), format


class DeleteWebhookForm(ConfirmStepForm):
    submit = SubmitField("Delete")
