"""Words people read for codes stored in the database (a player's status, a team's).

The code stays what is stored, sent by the API and used in class names; pages and
messages show these labels, looked up in the reader's language (`league.i18n`). The
templates ask the same functions (`league.web.labels`, `templates/_macros/labels.html`),
so a status reads the same in a table and in a sentence.
"""

from __future__ import annotations

from league.i18n import N_, gettext

__all__ = [
    "PLAYER_STATUS_LABELS",
    "TEAM_STATUS_LABELS",
    "player_status_label",
    "team_status_label",
]

#: league.models.player.PLAYER_STATUSES
PLAYER_STATUS_LABELS = {
    "active": N_("active"),
    # Translators: short for "Miss Next Game", a player's status.
    "mng": N_("MNG"),
    "dead": N_("dead"),
    "retired": N_("retired"),
    "fired": N_("fired"),
}

#: league.models.team.TEAM_STATUSES
TEAM_STATUS_LABELS = {
    "draft": N_("draft"),
    "active": N_("active"),
    "retired": N_("retired"),
}


def player_status_label(status: str) -> str:
    """ "dead", "MNG": a player's status in the reader's language (an unknown code as is)."""
    label = PLAYER_STATUS_LABELS.get(status)
    return gettext(label) if label is not None else status


def team_status_label(status: str) -> str:
    """ "draft", "active", "retired": a team's status in the reader's language."""
    label = TEAM_STATUS_LABELS.get(status)
    return gettext(label) if label is not None else status
