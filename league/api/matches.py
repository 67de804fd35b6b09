"""Matches: POST /api/v1/leagues/<id>/matches, GET /api/v1/matches/<id>, POST .../void,
POST .../journeymen/<player_id>/hire.

The body is loaded by `MatchReportSchema` (400 `invalid_field` naming the field
for anything of the wrong shape or type) and turned into a `MatchReport` here; the
rules' verdict on the report comes from the match service: `ReportErrors` is a 422
`invalid_report` listing every problem at once, other refusals are DomainErrors
with their own status.
"""

from __future__ import annotations

from typing import Any

from flask import g, request
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import (
    DepartureRollsSchema,
    DeparturesSchema,
    HireJourneymanSchema,
    MatchReportSchema,
    MatchSchema,
    MvpDrawRequestSchema,
    MvpDrawSchema,
    PlayerSchema,
)
from league.api.schemas.teams import player_line
from league.extensions import db
from league.models import Match, User
from league.models.match import SIDES
from league.services import matches, postgame
from league.services.access import get_league, require_commissioner
from league.services.errors import ConcurrentChange, Conflict
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"
MATCH = "/matches/<id:match_id>"

#: Per-player counters: API name -> PlayerEvents field.
COUNTERS = matches.API_COUNTERS


# ---------------------------------------------------------------------------
# The report, as `MatchResultSchema` (or `MatchReportSchema`) loaded it


def _player_events(entry: dict[str, Any]) -> PlayerEvents:
    return PlayerEvents(
        player_id=entry["player_id"],
        **{field: entry.get(field) or 0 for field in COUNTERS.values()},
        mvp=1 if entry.get("mvp") else 0,
        injury=entry.get("injury"),
        lasting=entry.get("lasting"),
        apothecary_used=bool(entry.get("apothecary_used")),
    )


def report_from(body: dict[str, Any]) -> MatchReport:
    """The service's command from a loaded report: absent and null mean none given."""
    winnings = body.get("winnings") or {}
    fans_change = body.get("fans_change") or {}
    stalled = body.get("stalled") or {}
    sides = {
        side: SideReport(
            score=body[f"{side}_score"],
            conceded=body.get("conceded") == side,
            winnings=winnings.get(side),
            fans_change=fans_change.get(side) or 0,
            stalled=bool(stalled.get(side)),
        )
        for side in SIDES
    }
    return MatchReport(
        home=sides["home"],
        away=sides["away"],
        players=tuple(_player_events(entry) for entry in body.get("players") or ()),
        fan_attendance=body.get("fan_attendance"),
    )


# ---------------------------------------------------------------------------
# Routes


def _earlier(session: Session, actor: User, league_id: int, key: str) -> Match | None:
    """The match an idempotency key already recorded, if any (for its own league only)."""
    earlier = session.scalar(select(Match).where(Match.idempotency_key == key))
    if earlier is None:
        return None
    require_commissioner(get_league(session, league_id), actor)
    if earlier.league_id != league_id:
        raise Conflict(
            f"The idempotency key was already used for match {earlier.id} of another league.",
            field="idempotency_key",
        )
    return matches.get_match(session, earlier.id)


@bp.post(f"{LEAGUE}/matches")
@token_required
def record_match(league_id: int) -> tuple[dict[str, Any], int]:
    """Record a played match (a commissioner of the league).

    SPP awards follow the league's ruleset; winnings absent from the report come
    from the ruleset's formula (or are 0). A repeated `idempotency_key` answers
    200 with the first match and records nothing new.
    ---
    post:
      tags: [Matches]
      requestBody: MatchReport
      responses:
        201: Match
        200:
          schema: Match
          description: The match recorded earlier with the same `idempotency_key`.
      errors:
        400: Malformed report (`bad_request`, `invalid_field` naming the field).
        403: The caller is not a commissioner of the league.
        404: No such league.
        409: The idempotency key was used in another league.
        422: >-
          The rules refuse the report: `invalid_report` lists every problem in `fields`
          (a score the players' touchdowns do not add up to names `home_score` or
          `away_score`); teams that cannot play each other are a `rule_violation`.
    """
    body = MatchReportSchema().load(json_object())
    home_team, away_team = body["home_team"], body["away_team"]
    report = report_from(body)
    key = body.get("idempotency_key")
    try:
        with unit_of_work() as session:
            earlier = _earlier(session, g.api_user, league_id, key) if key else None
            if earlier is not None:
                # A repeat records nothing new and answers 200 with the first match: 201
                # would claim a creation that did not happen this time.
                return MatchSchema.body(earlier), 200
            match, created = matches.record_new_match_once(
                session, g.api_user, league_id, home_team, away_team, report, idempotency_key=key
            )
            result = MatchSchema.body(match)
            if not created:  # a twin committed the key since `_earlier` looked
                return result, 200
    except ConcurrentChange:
        # Two requests with the same new key at once: the loser finds the winner's match.
        if key is None:
            raise
        earlier = _earlier(db.session(), g.api_user, league_id, key)
        if earlier is None:
            raise
        return MatchSchema.body(earlier), 200
    return result, 201


@bp.get(MATCH)
def get_match(match_id: int) -> dict[str, Any]:
    """A match.
    ---
    get:
      tags: [Matches]
      responses:
        200: Match
      errors:
        404: No such match.
    """
    return MatchSchema.body(matches.get_match(db.session(), match_id))


@bp.post(f"{MATCH}/void")
@token_required
def void_match(match_id: int) -> dict[str, Any]:
    """Void a played match (a commissioner): everything it awarded is taken back.

    If SPP or gold it gave was already spent, nothing changes and the answer is 409.
    ---
    post:
      tags: [Matches]
      responses:
        200: Match
      errors:
        403: The caller is not a commissioner of the league.
        404: No such match.
        409: >-
          Already voided, not played, what it awarded was already spent, or its season is
          closed (`season_closed`).
    """
    # 200: the match changes state and is returned; nothing is created.
    with unit_of_work() as session:
        return MatchSchema.body(matches.void_match(session, g.api_user, match_id))


@bp.post(f"{MATCH}/journeymen/<id:player_id>/hire")
@token_required
def hire_journeyman(match_id: int, player_id: int) -> dict[str, Any]:
    """Hire a journeyman of a played match (his team's coach, or a commissioner).

    He joins the roster at the edition's price (BB2025: his hiring fee plus value
    increases; BB2020: his current value, with room under 16 players; classic: the
    position's cost), keeps his SPP and loses the journeyman's trait. Possible until
    the team plays again; after that he has left. An optional body
    `{"name": "..."}` names him on the roster.
    ---
    post:
      tags: [Matches]
      requestBody: HireJourneyman?
      responses:
        200: Player
      errors:
        400: Malformed body (`invalid_field` naming the field).
        403: The caller neither coaches his team nor is a commissioner of the league.
        404: No such match, or the player is not one of its journeymen.
        409: The result is not final yet.
        422: Not a journeyman waiting to be hired, already gone, dead, no room, or not enough gold.
    """
    # The body is optional: an empty one keeps his match-day name.
    body = HireJourneymanSchema().load(json_object()) if request.get_data() else {}
    with unit_of_work() as session:
        player = postgame.hire_journeyman(
            session, g.api_user, match_id, player_id, name=body.get("name")
        )
        return PlayerSchema.body(player_line(player))


@bp.post(f"{MATCH}/mvp-draw")
@token_required
def draw_mvp(match_id: int) -> dict[str, Any]:
    """Draw a team's MVP among the players its coach nominates (BB2025).

    The team's coach (or a commissioner) nominates six players (all who could play,
    when fewer; never a star player) after the result is final; the server rolls the
    D6, or, in a league that allows table dice, `die` is the roll made at the table.
    The drawn player's line of the result gets the MVP; the draw is made once.
    ---
    post:
      tags: [Matches]
      requestBody: MvpDrawRequest
      responses:
        200: MvpDraw
      errors:
        400: Malformed body (`invalid_field` naming the field).
        403: The caller neither coaches the team nor is a commissioner of the league.
        404: No such match, or the team did not play it.
        409: The result is not final, or the MVP was drawn already.
        422: >-
          Wrong number of nominees, a nominee who could not play, a die that names
          nobody, or table dice in a league whose server rolls.
    """
    body = MvpDrawRequestSchema().load(json_object())
    with unit_of_work() as session:
        drawn = postgame.draw_mvp(
            session, g.api_user, match_id, body["team_id"], tuple(body["nominees"]), body.get("die")
        )
        return MvpDrawSchema.body(
            {
                "player_id": drawn.player.id,
                "nominees": list(drawn.nominees),
                "die": drawn.die,
                "rolled": drawn.rolled,
            }
        )


@bp.post(f"{MATCH}/departures")
@token_required
def concession_departures(match_id: int) -> dict[str, Any]:
    """Roll the departures of the team that conceded (BB2025).

    Each of its players with three or more advancements leaves on a D6 of 1 to 3. The
    server rolls, or, in a league that allows table dice, `dice` gives each roll made at
    the table. The conceding team's coach or a commissioner rolls, once.
    ---
    post:
      tags: [Matches]
      requestBody: DepartureRolls
      responses:
        200: Departures
      errors:
        400: Malformed body (`invalid_field` naming the field).
        403: The caller neither coaches the conceding team nor is a commissioner of the league.
        404: No such match.
        409: The result is not final, or the departures were rolled already.
        422: >-
          Nobody conceded, the dice do not match the players who roll, or table dice
          in a league whose server rolls.
    """
    entries = DepartureRollsSchema().load(json_object()).get("dice")
    dice = None if entries is None else {entry["player_id"]: entry["die"] for entry in entries}
    with unit_of_work() as session:
        rolled = postgame.concession_departures(session, g.api_user, match_id, dice)
        return DeparturesSchema.body(
            {
                "departures": [
                    {"player_id": d.player.id, "die": d.die, "left": d.left} for d in rolled
                ]
            }
        )
