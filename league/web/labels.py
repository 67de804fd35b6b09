"""The templates' words for stored codes, from the same place the messages take them.

`templates/_macros/labels.html` and the pages call these globals, so a player's status
(or a purchase item, a ledger row, a season's name) reads the same in a table as in a
flashed sentence (`league.services.labels`).
"""

from __future__ import annotations

from flask import Flask
from markupsafe import Markup

from league.rules import purchase_item_name
from league.services.labels import (
    ledger_text,
    player_status_label,
    season_name,
    team_status_label,
)


def isolate(text: object) -> Markup:
    """``{{ player.name|bdi }}``: a name someone typed, isolated from the text around it.

    A right-to-left name beside a number or a bracket ("#5 محمد", "محمد (3)") would
    otherwise take them into its own direction and print them mirrored. For text in a
    tag only: an attribute or a ``<title>`` takes the name as it is.
    """
    return Markup("<bdi>%s</bdi>") % text  # Markup escapes what it formats


def register_labels(app: Flask) -> None:
    app.add_template_filter(isolate, "bdi")
    app.add_template_global(player_status_label, "player_status_label")
    app.add_template_global(team_status_label, "team_status_label")
    app.add_template_global(purchase_item_name, "purchase_item_name")
    app.add_template_global(ledger_text, "ledger_text")
    # {{ season.name|season_name }}: the default "Season 2" in the reader's language.
    app.add_template_filter(season_name, "season_name")
