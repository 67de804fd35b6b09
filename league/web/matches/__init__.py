"""The match blueprint: ``routes`` (the pages), ``views`` (what the report form offers
and the result rows) and ``text`` (injury labels, events, winnings and mistakes)."""

from league.web.matches import live as _live  # noqa: F401 - registers its routes
from league.web.matches import postgame as _postgame  # noqa: F401 - registers its routes
from league.web.matches import times as _times  # noqa: F401 - registers its routes
from league.web.matches.routes import bp

__all__ = ["bp"]
