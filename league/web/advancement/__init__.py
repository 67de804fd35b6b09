"""The advancement blueprint: ``routes`` (the pages), ``views`` (what the choice page
and the confirmation show, built from the rules' resolution), ``panel`` (the panel on
the player page) and ``text`` (labels, dice)."""

from league.web.advancement.panel import panel_for
from league.web.advancement.routes import bp

__all__ = ["bp", "panel_for"]
