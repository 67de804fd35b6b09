"""Export: the team as a version 1 document."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from league.models import Team
from league.services.access import get_team, team_ruleset
from league.services.team_document import dump_team


def team_document(team: Team) -> dict[str, Any]:
    """The team as a version 1 document, dumped through the document's one shape."""
    return dump_team(team, team_ruleset(team))


def export_team(session: Session, team_id: int) -> dict[str, Any]:
    return team_document(get_team(session, team_id))
