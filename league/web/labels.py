"""The templates' words for stored codes, from the same place the messages take them.

`templates/_macros/labels.html` and the pages call these globals, so a player's status
(or a purchase item, a ledger row, a season's name) reads the same in a table as in a
flashed sentence (`league.services.labels`).
"""

from __future__ import annotations

from flask import Flask

from league.rules import purchase_item_name
from league.services.labels import (
    ledger_text,
    player_status_label,
    season_name,
    team_status_label,
)


def register_labels(app: Flask) -> None:
    app.add_template_global(player_status_label, "player_status_label")
    app.add_template_global(team_status_label, "team_status_label")
    app.add_template_global(purchase_item_name, "purchase_item_name")
    app.add_template_global(ledger_text, "ledger_text")
    # {{ season.name|season_name }}: the default "Season 2" in the reader's language.
    app.add_template_filter(season_name, "season_name")
