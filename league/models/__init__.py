"""What is stored: one module per aggregate."""

from league.models.audit import AuditEntry
from league.models.league import League, LeagueMember
from league.models.user import ApiToken, User

__all__ = ["ApiToken", "AuditEntry", "League", "LeagueMember", "User"]
