"""The team document of the export and the import.

Its one shape is declared with the document itself, in `league.services.team_document`
(version 1): the export dumps through it, the import's loaders are checked against it,
and the OpenAPI document lists it as these components.
"""

from __future__ import annotations

from marshmallow import Schema

from league.services.team_document import (
    DocumentAdvancementSchema,
    DocumentLedgerEntrySchema,
    DocumentPlayerSchema,
    DocumentTeamSchema,
    TeamDocumentSchema,
)

#: The components of this module declared elsewhere, in the order the document lists them.
COMPONENTS: tuple[type[Schema], ...] = (
    DocumentTeamSchema,
    DocumentAdvancementSchema,
    DocumentPlayerSchema,
    DocumentLedgerEntrySchema,
    TeamDocumentSchema,
)
