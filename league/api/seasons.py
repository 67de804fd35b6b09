"""The season cycle: playoffs, Swiss rounds, divisions, and GET/POST
/api/v1/teams/<id>/redraft and its approval."""

from __future__ import annotations

from typing import Any

from flask import g, request

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import (
    DivisionAssignmentSchema,
    DivisionsSchema,
    MatchSchema,
    MatchWinnerSchema,
    NewPlayoffsSchema,
    PlayoffsSchema,
    RedraftChoiceSchema,
    RedraftSchema,
    SwissRoundSchema,
    TeamSchema,
)
from league.extensions import db
from league.i18n import gettext
from league.services import access, divisions, playoffs, tournament
from league.services.errors import RuleViolation
from league.services.redraft import (
    RedraftChoice,
    approve_redraft,
    redraft_plan,
    submit_redraft,
)
from league.services.unit_of_work import unit_of_work

REDRAFT = "/teams/<id:team_id>/redraft"


def _choice(body: dict[str, Any], current: RedraftChoice) -> RedraftChoice:
    """`current` with what the body changes; an absent member (or a null count) keeps it."""
    given = RedraftChoiceSchema().load(body)
    return RedraftChoice(
        frozenset(given.get("keep", current.keep)),
        given.get("rerolls", current.rerolls),
        given.get("assistant_coaches", current.assistant_coaches),
        given.get("cheerleaders", current.cheerleaders),
        given.get("apothecary", current.apothecary),
        tuple(given.get("hires", current.hires)),
    )


def _table_dice(body: dict[str, Any]) -> dict[int, list[int]]:
    given = RedraftChoiceSchema().load(body)
    return {entry["player_id"]: entry["dice"] for entry in given.get("recovery") or ()}


@bp.get(REDRAFT)
def get_redraft(team_id: int) -> dict[str, Any]:
    """A team's off-season re-draft: its budget, what each player costs to keep.

    The budget is the edition's (BB2025, BB2020): 1,000,000 plus the treasury plus
    gold per game played, win and draw, capped unless the league lifted the cap.
    ---
    get:
      tags: [Seasons]
      responses:
        200: Redraft
      errors:
        404: No such team.
        409: The league has not closed a season yet.
        422: The edition has no re-draft (`no_redraft`).
    """
    return RedraftSchema.body(redraft_plan(db.session(), team_id))


@bp.post(REDRAFT)
@token_required
def submit_team_redraft(team_id: int) -> dict[str, Any]:
    """Submit the team's re-draft (its coach or a commissioner); a commissioner approves it.

    Submitting again replaces what was submitted, until it is approved; absent members
    keep what the team holds (no hires). `hires` adds new players from the
    roster (created on approval). Kept players with niggling injuries make their rest and
    recovery roll (BB2025: each heals on 4+, +1 with an apothecary) the first time they
    are submitted: server dice, or `recovery` table dice where the league allows them.
    ---
    post:
      tags: [Seasons]
      requestBody: RedraftChoice
      responses:
        200: Redraft
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        409: No closed season yet, or the re-draft is approved already.
        422: Over the budget or a limit (`redraft_refused`); bad table dice (`invalid_dice`).
    """
    body = json_object()
    with unit_of_work() as session:
        choice = _choice(body, redraft_plan(session, team_id).current)
        submit_redraft(session, g.api_user, team_id, choice, table_dice=_table_dice(body))
        return RedraftSchema.body(redraft_plan(session, team_id))


@bp.post(f"{REDRAFT}/approve")
@token_required
def approve_team_redraft(team_id: int) -> dict[str, Any]:
    """Approve the submitted re-draft (commissioner): the team changes now.

    Players not kept leave the team (they stay in its history), players missing a game
    recover, and the treasury becomes what is left of the budget.
    ---
    post:
      tags: [Seasons]
      responses:
        200: Team
      errors:
        403: The caller is not a commissioner of the team's league.
        404: No such team, or nothing submitted.
        409: Approved already, or the team changed since it was submitted.
    """
    with unit_of_work() as session:
        approve_redraft(session, g.api_user, team_id)
        return TeamSchema.body(access.get_team(session, team_id))


# ---------------------------------------------------------------------------
# Playoffs

PLAYOFFS = "/leagues/<id:league_id>/playoffs"


@bp.get(PLAYOFFS)
def get_playoffs(league_id: int) -> dict[str, Any]:
    """The current season's bracket (size 0 and no rounds: no playoffs yet).
    ---
    get:
      tags: [Seasons]
      responses:
        200: Playoffs
      errors:
        404: No such league.
    """
    league = access.get_league(db.session(), league_id)
    return PlayoffsSchema.body(playoffs.bracket_view(db.session(), league))


@bp.post(PLAYOFFS)
@token_required
def seed_playoffs(league_id: int) -> tuple[dict[str, Any], int]:
    """Seed a knock-out bracket from the current standings (commissioner).

    The best seed meets the last; seeds 1 and 2 can only meet in the final. The first
    round is scheduled at once; later matches when the matches before them are decided.
    ---
    post:
      tags: [Seasons]
      requestBody: NewPlayoffs
      responses:
        201: Playoffs
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        409: The season has its playoffs already, or no season is open.
        422: Not 4, 8 or 16 teams, or fewer teams in the table (`not_enough_teams`).
    """
    size = NewPlayoffsSchema().load(json_object())["teams"]
    with unit_of_work() as session:
        playoffs.create_bracket(session, g.api_user, league_id, size)
        view = playoffs.bracket_view(session, access.get_league(session, league_id))
        return PlayoffsSchema.body(view), 201


@bp.post(f"{PLAYOFFS}/advance")
@token_required
def advance_playoffs(league_id: int) -> dict[str, Any]:
    """Schedule every bracket match whose two teams are now known (commissioner).
    ---
    post:
      tags: [Seasons]
      responses:
        200: Playoffs
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league, or no playoffs this season.
        409: No bracket match is ready.
    """
    with unit_of_work() as session:
        playoffs.advance(session, g.api_user, league_id)
        return PlayoffsSchema.body(
            playoffs.bracket_view(session, access.get_league(session, league_id))
        )


@bp.post("/matches/<id:match_id>/winner")
@token_required
def record_winner(match_id: int) -> dict[str, Any]:
    """Record who went through from a drawn knock-out match (commissioner).
    ---
    post:
      tags: [Seasons]
      requestBody: MatchWinner
      responses:
        200: Match
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such match.
        409: Not a drawn knock-out match.
        422: The team did not play the match.
    """
    team_id = MatchWinnerSchema().load(json_object())["team_id"]
    with unit_of_work() as session:
        return MatchSchema.body(playoffs.record_winner(session, g.api_user, match_id, team_id))


# ---------------------------------------------------------------------------
# Swiss tournaments


@bp.post("/leagues/<id:league_id>/rounds")
@token_required
def pair_swiss_round(league_id: int) -> tuple[dict[str, Any], int]:
    """Pair and schedule the next Swiss round from the current standings (commissioner).

    The first round is drawn at random; later rounds pair down the standings (the
    tournament points and bonus points where the league sets them, else its points;
    then its tie-breakers), swapping down to avoid rematches. With an odd number of
    teams the lowest-placed team without a bye sits out; the bye counts as the ruleset
    or the league's house rule `tournament` says (a 1-0 win by default).
    ---
    post:
      tags: [Seasons]
      responses:
        201: SwissRound
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league.
        409: No open season (`no_open_season`), a match still waits for its result
          (`round_unplayed`), or the first round of a league that collects rosters (a
          roster or correction deadline is set) while some roster is not approved
          (`rosters_unapproved`, naming them; `?start_anyway=true` pairs it all the same).
        422: Fewer than two active teams (`not_enough_teams`).
    """
    start_anyway = request.args.get("start_anyway", "").lower() in ("true", "1")
    with unit_of_work() as session:
        pairing = tournament.pair_next_round(
            session, g.api_user, league_id, start_anyway=start_anyway
        )
        return SwissRoundSchema.body(pairing), 201


# ---------------------------------------------------------------------------
# Divisions


@bp.get("/leagues/<id:league_id>/divisions")
def get_divisions(league_id: int) -> dict[str, Any]:
    """The league's divisions and their teams (no divisions: every team is without one).
    ---
    get:
      tags: [Seasons]
      responses:
        200: Divisions
      errors:
        404: No such league.
    """
    return DivisionsSchema.body(access.get_league(db.session(), league_id))


@bp.post("/leagues/<id:league_id>/divisions")
@token_required
def assign_divisions(league_id: int) -> dict[str, Any]:
    """Place teams in divisions (commissioner): `{"teams": {"<team id>": "North" | null}}`.

    Teams not named keep their division; null or an empty name takes a team out of its
    division. Fixtures generated afterwards are a round robin inside each division.
    ---
    post:
      tags: [Seasons]
      requestBody: DivisionAssignment
      responses:
        200: Divisions
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        422: A team of another league, or a name over 40 characters (`invalid_division`).
    """
    given = DivisionAssignmentSchema().load(json_object())["teams"]
    assignments: dict[int, str | None] = {}
    for key, name in given.items():
        if not (key.isascii() and key.isdigit()) or len(key) > 10:
            # A well-formed body naming no team of the league: refused as the rules refuse
            # a team of another league.
            raise RuleViolation(
                gettext("The keys of 'teams' are ids of the league's teams."),
                field="teams",
                code="invalid_division",
            )
        assignments[int(key)] = name
    with unit_of_work() as session:
        league = divisions.assign_divisions(session, g.api_user, league_id, assignments)
        return DivisionsSchema.body(league)
