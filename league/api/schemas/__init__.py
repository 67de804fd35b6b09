"""Marshmallow schemas of the API's request bodies and responses (docs/api.md).

They are the source of the OpenAPI document (`league.api.openapi`): each class
becomes a component named after it without the `Schema` suffix, its docstring
the component's description. Request schemas load the request bodies of every
view (an imported team document excepted: the schemas of `services.team_document`
load it, and the import answers every problem at once): each refusal is worded
to follow the field's name ("is required.", "must be a string."), and
`league.api.errors` answers the first
one, in the order the schema declares its fields, as the 400 naming the field (a
nested one by its path, `points.win`, `players[2].td`). The fuzzing test
(tests/api/test_fuzz.py) holds the API to them: a body these schemas accept is
never answered 400, one they refuse never gets through.

A rule a service checks (an item the team may buy, the most gold an adjustment
moves, a webhook's address) is documented with a `ServiceOneOf`, `ServiceRange` or
`ServiceLength`: loading lets the value through, and the service refuses it with
its own code (a 422, not a 400).

Responses are closed (`additionalProperties: false`): the document lists every
field the API sends, and every view dumps its response through its schema. Request
bodies are open: members the API does not know are ignored.
"""

from __future__ import annotations

from types import ModuleType

from marshmallow import Schema

from league.api.schemas import (
    advancement,
    coaches,
    entries,
    errors,
    exchange,
    fixtures,
    leagues,
    live_log,
    matches,
    members,
    pregame,
    records,
    rulesets,
    seasons,
    teams,
    users,
    webhooks,
)
from league.api.schemas.advancement import (
    AdvancementListSchema,
    AdvancementOptionSchema,
    AdvancementOptionsSchema,
    AdvancementPendingSchema,
    AdvancementSchema,
    AdvancementTakenSchema,
    KeptRollSchema,
    NewAdvancementSchema,
    PendingRollSchema,
)
from league.api.schemas.base import RequestSchema, ResponseSchema
from league.api.schemas.coaches import (
    CoachRecordSchema,
    CoachSchema,
    CoachTeamSchema,
    LeagueRatingSchema,
)
from league.api.schemas.entries import EntryListSchema, EntrySchema, NewEntrySchema
from league.api.schemas.errors import DocumentProblemSchema, ErrorDetailSchema, ErrorSchema
from league.api.schemas.exchange import (
    DocumentAdvancementSchema,
    DocumentLedgerEntrySchema,
    DocumentPlayerSchema,
    DocumentTeamSchema,
    TeamDocumentSchema,
)
from league.api.schemas.fixtures import (
    CloseSeasonSchema,
    FixtureListSchema,
    FixtureSchema,
    GenerateFixturesSchema,
    NewFixtureSchema,
)
from league.api.schemas.leagues import (
    DivisionStandingsSchema,
    LeagueSchema,
    LeagueSettingsSchema,
    LeagueTeamSchema,
    NewLeagueSchema,
    PointsSchema,
    PointsSettingSchema,
    StandingsRowSchema,
    StandingsSchema,
)
from league.api.schemas.live_log import (
    LogConfirmedSchema,
    LogConfirmSchema,
    LogEventRequestSchema,
    LogEventSchema,
    LogReportPlayerSchema,
    LogReportSchema,
    LogScoreSchema,
    MatchLogSchema,
)
from league.api.schemas.matches import (
    DepartureDieSchema,
    DepartureRollsSchema,
    DepartureSchema,
    DeparturesSchema,
    ExpensiveMistakeSchema,
    ExpensiveMistakesSchema,
    FansChangeSchema,
    HireJourneymanSchema,
    MatchPlayerSchema,
    MatchReportSchema,
    MatchResultSchema,
    MatchSchema,
    MvpDrawRequestSchema,
    MvpDrawSchema,
    PerSideSchema,
    PlayerEventsSchema,
    WinningsSchema,
)
from league.api.schemas.members import (
    JoinLinkSchema,
    JoinRequestSchema,
    MemberRoleSchema,
    MemberSchema,
    MembersSchema,
    NewMemberSchema,
    NewOwnerSchema,
    RemoveMemberSchema,
)
from league.api.schemas.pregame import (
    InducementChoiceSchema,
    JourneymanChoiceSchema,
    MercenaryChoiceSchema,
    PregameChoicesSchema,
    PregameInducementSchema,
    PregameJourneymanSchema,
    PregameMercenarySchema,
    PregameSchema,
    PregameSideSchema,
    PregameStarSchema,
)
from league.api.schemas.records import (
    ChampionSchema,
    HallOfFameSchema,
    RecordBoardSchema,
    RecordEntrySchema,
    RecordsSchema,
    TrophiesSchema,
)
from league.api.schemas.rulesets import (
    AdvancementRulesSchema,
    InducementSchema,
    InducementsSchema,
    JourneymenRulesSchema,
    MercenaryRulesSchema,
    PettyCashRulesSchema,
    PositionSchema,
    ReducedPriceSchema,
    RulesetListSchema,
    RulesetSchema,
    RulesetSummarySchema,
    SkillCategorySchema,
    SkillSchema,
    StarPairSchema,
    StarPlayerRulesSchema,
    StarPlayerSchema,
    StarPlayersSchema,
    TeamTypeSchema,
    TeamTypeSummarySchema,
    ValueIncreaseSchema,
)
from league.api.schemas.seasons import (
    BracketMatchSchema,
    ClosedSeasonSchema,
    DivisionAssignmentSchema,
    DivisionSchema,
    DivisionsSchema,
    MatchedPlayCheckSchema,
    MatchWinnerSchema,
    NewPlayoffsSchema,
    PlayoffsSchema,
    PrizeSchema,
    RecoveryDiceSchema,
    RecoveryRollSchema,
    RedraftBudgetSchema,
    RedraftChoiceSchema,
    RedraftHireOptionSchema,
    RedraftPlayerSchema,
    RedraftSchema,
    RedraftStaffSchema,
    ReopenedSeasonSchema,
    RosterProblemSchema,
    SkillPointsSchema,
    SwissPairingSchema,
    SwissRoundSchema,
)
from league.api.schemas.teams import (
    InjurySchema,
    NewPlayerSchema,
    NewTeamSchema,
    PlayerSchema,
    PurchaseSchema,
    RosterApprovalSchema,
    RosterReviewSchema,
    SppSchema,
    TeamChangesSchema,
    TeamSchema,
    TreasuryAdjustedSchema,
    TreasuryAdjustmentSchema,
    TreasuryEntrySchema,
)
from league.api.schemas.users import MeSchema
from league.api.schemas.webhooks import (
    DeliveryListSchema,
    DeliverySchema,
    NewWebhookCreatedSchema,
    NewWebhookSchema,
    WebhookListSchema,
    WebhookSchema,
)

#: The modules of the schemas, by aggregate, in the order the document lists them.
MODULES: tuple[ModuleType, ...] = (
    errors,
    users,
    rulesets,
    leagues,
    seasons,
    entries,
    teams,
    matches,
    fixtures,
    members,
    advancement,
    exchange,
    webhooks,
    pregame,
    live_log,
    records,
    coaches,
)


def schema_classes() -> list[type[Schema]]:
    """Every request and response schema, module by module in the order each defines them
    (or lists them in `COMPONENTS`, for schemas declared elsewhere)."""
    return [
        value
        for module in MODULES
        for value in getattr(module, "COMPONENTS", vars(module).values())
        if isinstance(value, type)
        and issubclass(value, Schema)
        and (value.__module__ == module.__name__ or value in getattr(module, "COMPONENTS", ()))
    ]


__all__ = [
    "MODULES",
    "AdvancementListSchema",
    "AdvancementOptionSchema",
    "AdvancementOptionsSchema",
    "AdvancementPendingSchema",
    "AdvancementRulesSchema",
    "AdvancementSchema",
    "AdvancementTakenSchema",
    "BracketMatchSchema",
    "ChampionSchema",
    "CloseSeasonSchema",
    "ClosedSeasonSchema",
    "CoachRecordSchema",
    "CoachSchema",
    "CoachTeamSchema",
    "DeliveryListSchema",
    "DeliverySchema",
    "DepartureDieSchema",
    "DepartureRollsSchema",
    "DepartureSchema",
    "DeparturesSchema",
    "DivisionAssignmentSchema",
    "DivisionSchema",
    "DivisionStandingsSchema",
    "DivisionsSchema",
    "DocumentAdvancementSchema",
    "DocumentLedgerEntrySchema",
    "DocumentPlayerSchema",
    "DocumentProblemSchema",
    "DocumentTeamSchema",
    "EntryListSchema",
    "EntrySchema",
    "ErrorDetailSchema",
    "ErrorSchema",
    "ExpensiveMistakeSchema",
    "ExpensiveMistakesSchema",
    "FansChangeSchema",
    "FixtureListSchema",
    "FixtureSchema",
    "GenerateFixturesSchema",
    "HallOfFameSchema",
    "HireJourneymanSchema",
    "InducementChoiceSchema",
    "InducementSchema",
    "InducementsSchema",
    "InjurySchema",
    "JoinLinkSchema",
    "JoinRequestSchema",
    "JourneymanChoiceSchema",
    "JourneymenRulesSchema",
    "KeptRollSchema",
    "LeagueRatingSchema",
    "LeagueSchema",
    "LeagueSettingsSchema",
    "LeagueTeamSchema",
    "LogConfirmSchema",
    "LogConfirmedSchema",
    "LogEventRequestSchema",
    "LogEventSchema",
    "LogReportPlayerSchema",
    "LogReportSchema",
    "LogScoreSchema",
    "MatchLogSchema",
    "MatchPlayerSchema",
    "MatchReportSchema",
    "MatchResultSchema",
    "MatchSchema",
    "MatchWinnerSchema",
    "MatchedPlayCheckSchema",
    "MeSchema",
    "MemberRoleSchema",
    "MemberSchema",
    "MembersSchema",
    "MercenaryChoiceSchema",
    "MercenaryRulesSchema",
    "MvpDrawRequestSchema",
    "MvpDrawSchema",
    "NewAdvancementSchema",
    "NewEntrySchema",
    "NewFixtureSchema",
    "NewLeagueSchema",
    "NewMemberSchema",
    "NewOwnerSchema",
    "NewPlayerSchema",
    "NewPlayoffsSchema",
    "NewTeamSchema",
    "NewWebhookCreatedSchema",
    "NewWebhookSchema",
    "PendingRollSchema",
    "PerSideSchema",
    "PettyCashRulesSchema",
    "PlayerEventsSchema",
    "PlayerSchema",
    "PlayoffsSchema",
    "PointsSchema",
    "PointsSettingSchema",
    "PositionSchema",
    "PregameChoicesSchema",
    "PregameInducementSchema",
    "PregameJourneymanSchema",
    "PregameMercenarySchema",
    "PregameSchema",
    "PregameSideSchema",
    "PregameStarSchema",
    "PrizeSchema",
    "PurchaseSchema",
    "RecordBoardSchema",
    "RecordEntrySchema",
    "RecordsSchema",
    "RecoveryDiceSchema",
    "RecoveryRollSchema",
    "RedraftBudgetSchema",
    "RedraftChoiceSchema",
    "RedraftHireOptionSchema",
    "RedraftPlayerSchema",
    "RedraftSchema",
    "RedraftStaffSchema",
    "ReducedPriceSchema",
    "RemoveMemberSchema",
    "ReopenedSeasonSchema",
    "RequestSchema",
    "ResponseSchema",
    "RosterApprovalSchema",
    "RosterProblemSchema",
    "RosterReviewSchema",
    "RulesetListSchema",
    "RulesetSchema",
    "RulesetSummarySchema",
    "SkillCategorySchema",
    "SkillPointsSchema",
    "SkillSchema",
    "SppSchema",
    "StandingsRowSchema",
    "StandingsSchema",
    "StarPairSchema",
    "StarPlayerRulesSchema",
    "StarPlayerSchema",
    "StarPlayersSchema",
    "SwissPairingSchema",
    "SwissRoundSchema",
    "TeamChangesSchema",
    "TeamDocumentSchema",
    "TeamSchema",
    "TeamTypeSchema",
    "TeamTypeSummarySchema",
    "TreasuryAdjustedSchema",
    "TreasuryAdjustmentSchema",
    "TreasuryEntrySchema",
    "TrophiesSchema",
    "ValueIncreaseSchema",
    "WebhookListSchema",
    "WebhookSchema",
    "WinningsSchema",
    "schema_classes",
]
