"""The advancement blueprint: ``routes`` (the pages), ``views`` (what they show,
built from the rules' resolution) and ``text`` (labels, dice)."""

from league.web.advancement.routes import bp
from league.web.advancement.views import panel_for

__all__ = ["bp", "panel_for"]
