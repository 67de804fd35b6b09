"""A team's colours and logo, on its page."""

from __future__ import annotations

from wtforms import FileField, StringField, SubmitField
from wtforms.validators import Length, Optional

from league.models import Team
from league.web.forms import ConfirmStepForm, FlaskForm, _l


class ColoursForm(FlaskForm):
    """Two colour pickers; each has a text box beside it for browsers without one (or
    for a colour typed as #rrggbb), which wins when filled in."""

    primary = StringField(_l("Main colour"), default="#1f4e9c")
    primary_text = StringField(
        _l("Main colour as #rrggbb"), validators=[Optional(), Length(max=20)]
    )
    secondary = StringField(_l("Second colour"), default="#ffffff")
    secondary_text = StringField(
        _l("Second colour as #rrggbb"), validators=[Optional(), Length(max=20)]
    )
    submit = SubmitField(_l("Save the colours"))
    clear = SubmitField(_l("Remove the colours"))

    def colours(self) -> list[str]:
        """What was chosen, the typed text first; [] when asked to remove them."""
        if self.clear.data:
            return []
        primary = (self.primary_text.data or "").strip() or (self.primary.data or "")
        secondary = (self.secondary_text.data or "").strip() or (self.secondary.data or "")
        return [primary, secondary]


class LogoForm(FlaskForm):
    logo = FileField(
        _l("Logo (PNG, JPEG or WebP, up to 2 MB)"),
        render_kw={"accept": ".png,.jpg,.jpeg,.webp,image/png,image/jpeg,image/webp"},
    )
    submit = SubmitField(_l("Upload the logo"))


class RemoveLogoForm(ConfirmStepForm):
    """Removing the logo: asks first."""


def colours_form(team: Team) -> ColoursForm:
    """The colours form, showing the team's colours (or the defaults when it has none)."""
    form = ColoursForm()
    if not form.is_submitted() and team.primary_colour and team.secondary_colour:
        form.primary.data, form.secondary.data = team.primary_colour, team.secondary_colour
    return form
