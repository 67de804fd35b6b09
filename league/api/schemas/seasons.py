"""Between seasons: closing, playoffs, Swiss rounds, divisions and the re-draft."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import Length, OneOf

from league.api.schemas.base import (
    BOOLEAN,
    OBJECT,
    REQUIRED,
    Boolean,
    JsonInteger,
    NullIsAbsent,
    Object,
    RequestSchema,
    ResponseSchema,
    ServiceOneOf,
    WholeList,
    doc,
    integer,
    text,
)
from league.api.schemas.leagues import StandingsRowSchema
from league.models import League
from league.rules.model import PLAYOFF_SIZES
from league.rules.pairing import CONSTRAINTS
from league.services.divisions import division_names
from league.services.playoffs import Bracket
from league.services.redraft import RedraftPlan
from league.services.tournament import SwissPairing


class PrizeSchema(ResponseSchema):
    """Gold a team won for its final place, paid into its treasury."""

    team_id = fields.Integer(required=True)
    place = fields.Integer(required=True, metadata=doc("1 for the champion."))
    gold = fields.Integer(required=True)
    trophy = fields.Boolean(
        required=True,
        metadata=doc("The team holds the League Trophy (a free re-roll) for the next season."),
    )


class ClosedSeasonSchema(ResponseSchema):
    """A season just closed: its final table, the prizes paid and the season now open."""

    season = fields.Integer(required=True, metadata=doc("The closed season's number."))
    next_season = fields.Integer(required=True, metadata=doc("The new current season."))
    rows = fields.List(
        fields.Nested(StandingsRowSchema), required=True, metadata=doc("The final table.")
    )
    prizes = fields.List(
        fields.Nested(PrizeSchema),
        required=True,
        metadata=doc("Empty where the edition pays no prizes (BB2020, classic)."),
    )


class ReopenedSeasonSchema(ResponseSchema):
    """A closed season open again: its results can change; the prizes it paid were taken back."""

    season = fields.Integer(required=True, metadata=doc("The reopened season's number."))
    taken_back = fields.List(
        fields.Nested(PrizeSchema),
        required=True,
        metadata=doc("The prizes booked back out of the treasuries, one ledger row each."),
    )


class BracketMatchSchema(ResponseSchema):
    """A place in the bracket: its match once scheduled, else the teams known so far."""

    match_id = fields.Integer(allow_none=True, metadata=doc("null until scheduled."))
    home_team = fields.Integer(allow_none=True, metadata=doc("Team id; null: to be decided."))
    away_team = fields.Integer(allow_none=True, metadata=doc("Team id; null: to be decided."))
    winner = fields.Integer(allow_none=True, metadata=doc("Team id of who went through."))
    third_place = fields.Boolean(required=True)


class PlayoffsSchema(ResponseSchema):
    """A season's knock-out bracket, round by round (the last holds the final first)."""

    size = fields.Integer(required=True)
    rounds = fields.List(
        fields.List(fields.Nested(BracketMatchSchema)),
        required=True,
        metadata=doc("By round."),
    )

    @pre_dump
    def _of_view(self, view: Bracket | None, **kwargs: Any) -> dict[str, Any]:
        if view is None:
            return {"size": 0, "rounds": []}
        return {
            "size": view.bracket.size,
            "rounds": [
                [
                    {
                        "match_id": slot.match.id if slot.match else None,
                        "home_team": slot.home_team_id,
                        "away_team": slot.away_team_id,
                        "winner": slot.winner_team_id,
                        "third_place": slot.third_place,
                    }
                    for slot in slots
                ]
                for slots in view.rounds
            ],
        }


class NewPlayoffsSchema(RequestSchema):
    """A bracket to seed from the current standings."""

    teams = JsonInteger(
        required=True, validate=ServiceOneOf(PLAYOFF_SIZES), error_messages=REQUIRED
    )


class SwissPairingSchema(ResponseSchema):
    """One match of a Swiss round, the better-placed team at home."""

    match_id = fields.Integer(required=True)
    home_team = fields.Integer(required=True, metadata=doc("Team id."))
    away_team = fields.Integer(required=True, metadata=doc("Team id."))


class SwissRoundSchema(ResponseSchema):
    """The round just paired: its matches (scheduled fixtures) and the bye."""

    round = fields.Integer(required=True, metadata=doc("The round's number in the season."))
    pairings = fields.List(fields.Nested(SwissPairingSchema), required=True)
    bye = fields.Integer(
        required=True,
        allow_none=True,
        metadata=doc("Team id of the team sitting out (an odd number of teams), else null."),
    )
    rematches = fields.Boolean(
        required=True,
        metadata=doc("true only when no pairing without a rematch was left."),
    )
    constraints_broken = fields.List(
        fields.String(validate=OneOf(CONSTRAINTS)),
        required=True,
        metadata=doc(
            "What the round could not avoid, most important first: `rematch`, `same_club` "
            "(two entries of one club or nation, where the league avoids it), `same_coach` "
            "(a coach against their own second entry). Empty: none."
        ),
    )

    @pre_dump
    def _of_pairing(self, pairing: SwissPairing, **kwargs: Any) -> dict[str, Any]:
        return {
            "round": pairing.number,
            "pairings": [
                {
                    "match_id": match.id,
                    "home_team": match.home.team_id,
                    "away_team": match.away.team_id,
                }
                for match in pairing.matches
            ],
            "bye": pairing.bye_team_id,
            "rematches": pairing.rematches,
            "constraints_broken": list(pairing.broken),
        }


class DivisionSchema(ResponseSchema):
    """A division and its teams."""

    name = fields.String(required=True)
    teams = fields.List(fields.Integer(), required=True, metadata=doc("Team ids."))


class DivisionsSchema(ResponseSchema):
    """The league's divisions (by name) and the teams in none."""

    divisions = fields.List(fields.Nested(DivisionSchema), required=True)
    without_division = fields.List(fields.Integer(), required=True, metadata=doc("Team ids."))

    @pre_dump
    def _of_league(self, league: League, **kwargs: Any) -> dict[str, Any]:
        placed = [team for team in league.teams if team.status != "retired"]
        return {
            "divisions": [
                {"name": name, "teams": [team.id for team in placed if team.division == name]}
                for name in division_names(league)
            ],
            "without_division": [team.id for team in placed if not team.division],
        }


class DivisionAssignmentSchema(RequestSchema):
    """Teams to place: team id (as a text key) to division name, null for none."""

    teams = fields.Dict(
        keys=fields.String(),
        # The name's length and form are the service's to refuse (422 invalid_division).
        values=fields.String(
            allow_none=True, error_messages={"invalid": "must be a text or null."}
        ),
        required=True,
        metadata=doc('e.g. `{"12": "North", "13": null}`; a name has at most 40 characters.'),
        error_messages={"invalid": "must be an object of team ids to division names."},
    )


class MatchWinnerSchema(RequestSchema):
    """Who went through from a drawn knock-out match, after extra time."""

    team_id = integer("One of the two teams of the match.", required=True)


class RedraftBudgetSchema(ResponseSchema):
    """The working of a team's re-draft budget."""

    base = fields.Integer(required=True)
    treasury = fields.Integer(required=True)
    fixtures = fields.Integer(required=True, metadata=doc("Gold for the games played."))
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    cap = fields.Integer(
        required=True, allow_none=True, metadata=doc("null: the league lifted the cap.")
    )
    lost_to_cap = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata=doc("What the team may spend."))


class RedraftPlayerSchema(ResponseSchema):
    """A player the team may re-hire, at his value plus the agent's fee per season."""

    player_id = fields.Integer(required=True)
    name = fields.String(required=True)
    number = fields.Integer(required=True)
    position = fields.String(required=True, metadata=doc("Position id."))
    value = fields.Integer(required=True)
    seasons_played = fields.Integer(required=True)
    cost = fields.Integer(required=True)
    niggling_injuries = fields.Integer(required=True)
    recovery_dice = fields.Integer(
        required=True,
        metadata=doc(
            "Rest and recovery: D6 he rolls if kept, one per niggling injury "
            "(BB2025; 0 where the edition makes no such roll)."
        ),
    )


class RedraftHireOptionSchema(ResponseSchema):
    """A position new players can be hired for in the re-draft."""

    position = fields.String(required=True, metadata=doc("Position id."))
    name = fields.String(required=True)
    cost = fields.Integer(required=True)


class RecoveryRollSchema(ResponseSchema):
    """A kept player's rest and recovery roll, made once when first submitted."""

    player_id = fields.Integer(required=True)
    dice = fields.List(fields.Integer(), required=True)
    source = fields.String(
        required=True,
        validate=OneOf(("server", "table")),
        metadata=doc("server: rolled by the server; table: entered by the coach."),
    )
    healed = fields.Integer(
        required=True,
        metadata=doc("Niggling injuries healed (with the apothecary chosen; fixed on approval)."),
    )


class RedraftStaffSchema(ResponseSchema):
    """Re-rolls and staff, at their standard price."""

    reroll = fields.Integer(required=True)
    assistant_coach = fields.Integer(required=True)
    cheerleader = fields.Integer(required=True)
    apothecary = fields.Integer(required=True, allow_none=True, metadata=doc("null: none allowed."))


class SkillPointsSchema(ResponseSchema):
    """Skill points spent on the skills added, and how many the team's tier allows."""

    used = fields.Integer(required=True)
    allowed = fields.Integer(required=True)


class RosterProblemSchema(ResponseSchema):
    """One reason the roster breaks the matched-play rules."""

    code = fields.String(
        required=True,
        metadata=doc(
            "`roster_over_budget`, `over_skill_points`, `too_many_secondary_skills` "
            "or `elite_skill_over_cap`."
        ),
    )
    message = fields.String(required=True)


class MatchedPlayCheckSchema(ResponseSchema):
    """A team's roster against its league's matched-play (tournament) rules."""

    team_id = fields.Integer(required=True)
    allowed = fields.Boolean(required=True)
    budget = fields.Integer(required=True)
    cost = fields.Integer(
        required=True,
        metadata=doc("Hiring fees plus re-rolls and staff; added skills cost no gold."),
    )
    skill_points = fields.Nested(SkillPointsSchema, required=True)
    problems = fields.List(fields.Nested(RosterProblemSchema), required=True)


class RedraftSchema(ResponseSchema):
    """A team's off-season re-draft after the league's last closed season."""

    team_id = fields.Integer(required=True)
    season = fields.Integer(required=True, metadata=doc("The closed season's number."))
    budget = fields.Nested(RedraftBudgetSchema, required=True)
    players = fields.List(fields.Nested(RedraftPlayerSchema), required=True)
    prices = fields.Nested(RedraftStaffSchema, required=True)
    state = fields.String(
        required=True,
        validate=OneOf(("open", "submitted", "approved")),
        metadata=doc("open: nothing submitted yet; submitted: waiting for a commissioner."),
    )
    keep = fields.List(
        fields.Integer(), required=True, metadata=doc("Players kept (submitted, or all).")
    )
    rerolls = fields.Integer(required=True)
    assistant_coaches = fields.Integer(required=True)
    cheerleaders = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True)
    spent = fields.Integer(required=True, metadata=doc("What the choice costs."))
    left = fields.Integer(required=True, metadata=doc("What the budget leaves after it."))
    hires = fields.List(
        fields.String(), required=True, metadata=doc("New players to hire, by position id.")
    )
    hire_options = fields.List(fields.Nested(RedraftHireOptionSchema), required=True)
    recovery = fields.List(fields.Nested(RecoveryRollSchema), required=True)

    @pre_dump
    def _of_plan(self, plan: RedraftPlan, **kwargs: Any) -> dict[str, Any]:
        budget, prices, chosen = plan.budget, plan.prices, plan.chosen
        return {
            "team_id": plan.team.id,
            "season": plan.season.number,
            "budget": {
                "base": budget.base,
                "treasury": budget.treasury,
                "fixtures": budget.fixtures,
                "wins": budget.wins,
                "draws": budget.draws,
                "cap": budget.cap,
                "lost_to_cap": budget.lost_to_cap,
                "total": budget.total,
            },
            "players": [
                {
                    "player_id": p.player_id,
                    "name": p.name,
                    "number": p.number,
                    "position": p.position_id,
                    "value": p.value,
                    "seasons_played": p.seasons_played,
                    "cost": p.cost,
                    "niggling_injuries": p.niggling,
                    "recovery_dice": plan.rolls_needed(p),
                }
                for p in plan.players
            ],
            "prices": {
                "reroll": prices.reroll,
                "assistant_coach": prices.assistant_coach,
                "cheerleader": prices.cheerleader,
                "apothecary": prices.apothecary,
            },
            "state": plan.submitted.state if plan.submitted else "open",
            "keep": sorted(chosen.keep),
            "rerolls": chosen.rerolls,
            "assistant_coaches": chosen.assistant_coaches,
            "cheerleaders": chosen.cheerleaders,
            "apothecary": chosen.apothecary,
            "spent": plan.cost(chosen),
            "left": plan.left(chosen),
            "hires": list(chosen.hires),
            "hire_options": [
                {"position": o.position_id, "name": o.name, "cost": o.cost} for o in plan.positions
            ],
            "recovery": [
                {
                    "player_id": r.player_id,
                    "dice": list(r.dice),
                    "source": r.source,
                    "healed": r.healed,
                }
                for r in plan.recovery
            ],
        }


class RecoveryDiceSchema(RequestSchema):
    """A kept player's rest and recovery dice rolled at the table."""

    player_id = integer("A player id.", required=True)
    dice = WholeList(
        integer("A D6."),
        required=True,
        metadata=doc("One D6 per niggling injury."),
        error_messages=dict.fromkeys(("invalid", "null", "required"), "must be a list of D6."),
    )


class RedraftChoiceSchema(RequestSchema):
    """What the team keeps through the re-draft; absent fields keep what the team has."""

    keep = WholeList(
        integer("A player id."),
        metadata=doc("Players to re-hire."),
        error_messages=dict.fromkeys(("invalid", "null"), "must be a list of player ids."),
    )
    rerolls = NullIsAbsent(metadata=doc("Team re-rolls."))
    assistant_coaches = NullIsAbsent(metadata=doc("Assistant coaches."))
    cheerleaders = NullIsAbsent(metadata=doc("Cheerleaders."))
    apothecary = Boolean(error_messages=BOOLEAN)
    hires = WholeList(
        text("A position id."),
        metadata=doc("New players to hire from the roster, one position id each."),
        validate=Length(max=16, error="lists at most 16 positions."),
        error_messages=dict.fromkeys(("invalid", "null"), "must be a list of position ids."),
    )
    recovery = fields.List(
        Object(RecoveryDiceSchema, error_messages=OBJECT),
        validate=Length(max=16, error="lists at most 16 players."),
        metadata=doc(
            "Table dice for rest and recovery, where the league allows them; "
            "players left out get server dice. Rolled once: later submissions keep them."
        ),
        error_messages={"invalid": "must be a list.", "null": "must be a list."},
    )
