"""What is stored: one module per aggregate."""

from league.models.advancement import Advancement, DiceRoll, PlayerSkill
from league.models.audit import AuditEntry
from league.models.discord import (
    DiscordConnection,
    DiscordInteractionSeen,
    DiscordLink,
    DiscordLinkToken,
)
from league.models.league import League, LeagueMember, Season
from league.models.ledger import TreasuryEntry
from league.models.live_log import MatchLogEvent
from league.models.match import Match, MatchPlayer, MatchTeam
from league.models.opening import PlayerOpening, TeamOpening
from league.models.player import Player
from league.models.playoff import PlayoffBracket
from league.models.pregame import PregameItem, PregameSide
from league.models.redraft import Redraft
from league.models.revision import DataRevision
from league.models.scheduling import ReminderSent, TimeSlot
from league.models.submission import FormSubmission
from league.models.team import Team
from league.models.tournament import SwissBye
from league.models.user import ApiToken, User
from league.models.webhook import Webhook, WebhookDelivery

__all__ = [
    "Advancement",
    "ApiToken",
    "AuditEntry",
    "DataRevision",
    "DiceRoll",
    "DiscordConnection",
    "DiscordInteractionSeen",
    "DiscordLink",
    "DiscordLinkToken",
    "FormSubmission",
    "League",
    "LeagueMember",
    "Match",
    "MatchLogEvent",
    "MatchPlayer",
    "MatchTeam",
    "Player",
    "PlayerOpening",
    "PlayerSkill",
    "PlayoffBracket",
    "PregameItem",
    "PregameSide",
    "Redraft",
    "ReminderSent",
    "Season",
    "SwissBye",
    "Team",
    "TeamOpening",
    "TimeSlot",
    "TreasuryEntry",
    "User",
    "Webhook",
    "WebhookDelivery",
]
