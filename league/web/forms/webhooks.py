"""Forms of the webhooks page: register or edit one, delete one (asks first)."""

from __future__ import annotations

from wtforms import RadioField, SelectMultipleField, StringField, SubmitField

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, InputRequired, Length
from wtforms.widgets import CheckboxInput, ListWidget

from league.i18n import N_
from league.models.webhook import URL_LENGTH, WEBHOOK_EVENTS
from league.services.webhooks import TEST_EVENT, WebhookSettings
from league.web.forms import ConfirmStepForm, FlaskForm, _l

#: Every event has a label: the choices below look each one up.
EVENT_LABELS = {
    "match.finalised": N_("A result is finalised"),
    "match.corrected": N_("A result is corrected"),
    "match.voided": N_("A result is voided"),
    "fixtures.generated": N_("Fixtures are generated"),
    "advancement.bought": N_("A player takes an advancement"),
    "player.died": N_("A player dies"),
    "team.created": N_("A team is created"),
    "team.redrafted": N_("A team is re-drafted"),
    "season.closed": N_("A season is closed"),
    "fixture.reminder": N_("A fixture needs a time, a pre-game or a result (reminders)"),
    TEST_EVENT: N_("Test message"),
}


class WebhookForm(FlaskForm):
    url = StringField(
        _l("Address (URL)"),
        validators=[
            DataRequired(message=_l("Give the address to post to.")),
            Length(max=URL_LENGTH, message=_l("At most %(num)d characters.", num=URL_LENGTH)),
        ],
    )
    events = SelectMultipleField(
        _l("Tell it when"),
        choices=[SelectChoice(event, _l(EVENT_LABELS[event])) for event in WEBHOOK_EVENTS],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validators=[DataRequired(message=_l("Tick at least one event."))],
    )
    format = RadioField(
        _l("Format"),
        choices=[
            SelectChoice(
                "discord", _l("Discord message (an embed with the score, scorers and standings)")
            ),
            SelectChoice("json", _l("Plain JSON (for bots and scripts)")),
        ],
        default="discord",
        validators=[InputRequired(message=_l("Choose a format."))],
    )
    submit = SubmitField(_l("Save webhook"))

    def settings(self) -> WebhookSettings:
        return WebhookSettings(
            (self.url.data or "").strip(), tuple(self.events.data or ()), self.format.data or ""
        )

    def fill_from(self, url: str, events: list[str], format: str) -> None:
        self.url.data, self.events.data, self.format.data = url, list(events), format


class DeleteWebhookForm(ConfirmStepForm):
    submit = SubmitField(_l("Delete"))
