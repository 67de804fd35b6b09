"""The team document has one shape: the export dumps through it, the import's loaders
must match it member for member."""

from __future__ import annotations

import pytest
from flask import Flask

from league.extensions import db
from league.services.exchange import export_team
from league.services.team_document import (
    DocumentLedgerEntrySchema,
    Integer,
    TeamDocumentSchema,
    Text,
    loader,
)
from tests.factories import make_active_team, make_league, make_user


def test_a_loader_must_load_every_member_of_its_shape_and_no_other() -> None:
    members = {
        "amount": Integer(minimum=None),
        "kind": Text(length=(1, 20)),
        "description": Text(length=(1, 200)),
    }
    with pytest.raises(TypeError, match=r"not loaded \['item'\]"):
        loader(DocumentLedgerEntrySchema, **members)
    with pytest.raises(TypeError, match=r"not in it \['note'\]"):
        loader(DocumentLedgerEntrySchema, **members, item=Text(length=(1, 20)), note=Integer())
    # A part of a shape, where the rest is read another way (the document's header).
    assert list(loader(TeamDocumentSchema, part=True, version=Integer()).fields) == ["version"]


def test_the_export_is_what_its_shape_loads_back(app: Flask) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    team = make_active_team(boss, league, "human", "Reikland", (("human-lineman", 11),))
    document = export_team(db.session, team.id)
    assert TeamDocumentSchema().validate(document) == {}
    assert list(document) == list(TeamDocumentSchema._declared_fields)
