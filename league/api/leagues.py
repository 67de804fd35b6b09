"""Leagues: POST /api/v1/leagues, GET|PATCH /api/v1/leagues/<id>, .../standings, POST .../teams,
POST .../seasons/<n>/close, GET .../naf-report.xml."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Response, g, request

from league.api import bp
from league.api.auth import token_required
from league.api.errors import invalid_field
from league.api.parsing import json_object
from league.api.schemas import (
    ClosedSeasonSchema,
    CloseSeasonSchema,
    LeagueSchema,
    LeagueSettingsSchema,
    NewLeagueSchema,
    NewTeamSchema,
    RecordsSchema,
    ReopenedSeasonSchema,
    StandingsSchema,
    TeamSchema,
)
from league.extensions import db
from league.rules import DEFAULT_RULESET_ID
from league.services import access, leagues, records, seasons, teams
from league.services.divisions import division_tables
from league.services.naf_report import naf_report, naf_report_xml
from league.services.standings import standings, tie_breaker_order
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"


@bp.post("/leagues")
@token_required
def create_league() -> tuple[dict[str, Any], int]:
    """Create a league; the caller becomes its commissioner.

    The league starts its first season. It takes every setting of the settings page;
    those not given take their defaults (the starting treasury one million gold).
    ---
    post:
      tags: [Leagues]
      requestBody: NewLeague
      responses:
        201: League
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        422: >-
          A setting the rules refuse: a name of the wrong length, an unknown ruleset,
          a starting treasury out of range, a paper size, language, tie-breaker or house rule
          the league cannot have.
    """
    changes = NewLeagueSchema().load(json_object())
    if changes.get("ruleset_id") is None:
        changes["ruleset_id"] = DEFAULT_RULESET_ID
    concessions = changes.pop("concessions", None)
    settings = leagues.with_concessions(leagues.LeagueSettings(**changes), concessions)
    with unit_of_work() as session:
        league = leagues.create_league(session, g.api_user, settings)
        result = LeagueSchema.body(league)
    return result, 201


@bp.patch(LEAGUE)
@token_required
def update_league(league_id: int) -> dict[str, Any]:
    """Change a league's settings (commissioner).

    Takes any of the settings of the settings page; those not given stay as they are.
    The same checks as on the page apply, and nothing changes unless all pass.
    ---
    patch:
      tags: [Leagues]
      requestBody: LeagueSettings
      responses:
        200: League
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        409: A setting the league can no longer change (the ruleset, once it has teams).
        422: A setting the rules refuse (see `POST /leagues`).
    """
    body = json_object()
    with unit_of_work() as session:
        current = leagues.current_settings(access.get_league(session, league_id))
        changes = LeagueSettingsSchema().load(body)  # an unknown league is a 404 first
        concessions = changes.pop("concessions", None)
        settings = leagues.with_concessions(replace(current, **changes), concessions)
        league = leagues.update_settings(session, g.api_user, league_id, settings)
        result = LeagueSchema.body(league)
    return result


@bp.get(LEAGUE)
def get_league(league_id: int) -> dict[str, Any]:
    """A league, with its members and teams.
    ---
    get:
      tags: [Leagues]
      responses:
        200: League
      errors:
        404: No such league.
    """
    return LeagueSchema.body(access.get_league(db.session(), league_id))


def season_number_param() -> int | None:
    """The optional ?season=N of the standings (default: the current season)."""
    given = request.args.get("season")
    if given is None:
        return None
    if not given.isascii() or not given.isdigit() or len(given) > 9:
        raise invalid_field("season", "'season' must be a season number.")
    return int(given)


@bp.get(f"{LEAGUE}/standings")
def get_standings(league_id: int) -> dict[str, Any]:
    """The standings of a season.

    Ranked rows of the current season (or `?season=N`); a league without seasons has none.
    Only played league matches count (not friendlies, not voided matches); every active
    team has a row, with zeros until it plays. A league with divisions also gets each
    division's part of the table, ranked within the division.
    ---
    get:
      tags: [Leagues]
      parameters: [season]
      responses:
        200: Standings
      errors:
        400: "`season` is not a season number (`invalid_field`)."
        404: No such league, or no such season in it.
    """
    league = access.get_league(db.session(), league_id)
    number = season_number_param()
    if not league.seasons and number is None:
        return StandingsSchema.body(
            {"rows": [], "divisions": [], "tie_breakers": tie_breaker_order(league)}
        )
    table = standings(db.session(), league, number)
    return StandingsSchema.body(
        {
            "rows": table.rows,
            "divisions": division_tables(league, table),
            "tie_breakers": table.tie_breakers,
        }
    )


@bp.get(f"{LEAGUE}/naf-report.xml")
@token_required
def get_naf_report(league_id: int) -> Response:
    """The event's results in the NAF's report format (organiser).

    An XML document to upload to the NAF: the organiser's NAF name (the caller's, from
    their profile), each coach with a NAF number and the race they played (the NAF's
    name), and each game both of whose coaches have a NAF number: the score, team
    ratings in thousands, casualties caused and winnings. Coaches without a NAF number
    and their games are left out (the league's NAF report page lists them). The season
    is `?season=N`, else the latest season with a played match.
    ---
    get:
      tags: [Leagues]
      parameters: [season]
      responses:
        200:
          description: The NAF report (UTF-8 XML).
          content:
            application/xml:
              schema: {type: string}
      errors:
        400: "`season` is not a season number (`invalid_field`)."
        403: The caller is not a commissioner of the league.
        404: No such league, or no such season in it.
        409: >-
          The report cannot be written (`naf_report_incomplete`): the caller has no NAF
          name on their profile, no game has two coaches with a NAF number, or a team
          type has no NAF race name.
    """
    number = season_number_param()
    report = naf_report(db.session(), g.api_user, league_id, number)
    return Response(naf_report_xml(report), mimetype="application/xml")


def scope_param(season: int | None) -> records.Scope:
    """The ?scope= of the records: `season` or `all` (default: `season` when a season is
    named, else `all`)."""
    given = request.args.get("scope")
    if given is None:
        return "season" if season is not None else "all"
    for scope in records.SCOPES:
        if given == scope:
            return scope
    raise invalid_field("scope", "'scope' must be one of: season, all.")


@bp.get(f"{LEAGUE}/records")
def get_records(league_id: int) -> dict[str, Any]:
    """The league's records, hall of fame, famous teams and memorable matches.

    Records of one season (`scope=season`, the current one or `?season=N`) or of all time
    (`scope=all`): most touchdowns, casualties, SPP and completions in a match, a season
    and a career (all time only), deaths caused (from the live log), biggest wins, highest
    team values, longest unbeaten runs, highest scoring matches and most casualties in a
    match; the top 5 of each, equal values sharing a rank. Worked out from the played
    matches (friendlies and voided matches do not count), so a corrected or voided result
    changes them at once. The hall of fame and the famous teams are always all time.
    ---
    get:
      tags: [Leagues]
      parameters: [scope, season]
      responses:
        200: Records
      errors:
        400: >-
          `scope` is not `season` or `all`, or `season` is not a season number
          (`invalid_field`).
        404: No such league, or no such season in it (or no season yet, for `scope=season`).
    """
    number = season_number_param()
    scope = scope_param(number)
    league = access.get_league(db.session(), league_id, collections=records.LEAGUE_COLLECTIONS)
    return RecordsSchema.body(records.league_records(db.session(), league, scope, number))


@bp.post(f"{LEAGUE}/seasons/<id:season_number>/close")
@token_required
def close_season(league_id: int, season_number: int) -> dict[str, Any]:
    """Close a season (commissioner): its table is final and the next season opens.

    Only the current season can be closed, so repeating the call changes nothing (409).
    Every team carries over to the new season. The body is optional.
    ---
    post:
      tags: [Leagues]
      requestBody: CloseSeason
      responses:
        200: ClosedSeason
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league, or no such season in it.
        409: The season is already closed.
    """
    body = CloseSeasonSchema().load(json_object()) if request.get_data() else {}
    with unit_of_work() as session:
        closed = seasons.close_season(
            session,
            g.api_user,
            league_id,
            season_number,
            mark_unplayed=body.get("mark_unplayed", False),
        )
        league = access.get_league(session, league_id)
        result = ClosedSeasonSchema.body(
            {
                "season": season_number,
                "next_season": closed.opened.number,
                "rows": standings(session, league, season_number).rows,
                "prizes": closed.prizes,
            }
        )
    return result


@bp.post(f"{LEAGUE}/seasons/<id:season_number>/reopen")
@token_required
def reopen_season(league_id: int, season_number: int) -> dict[str, Any]:
    """Reopen the last closed season (commissioner) so its results can change again.

    Its prizes are taken back (ledger rows reversing them), the season its closing
    opened is removed (it must have nothing in it yet), and the matches its closing
    marked unplayed are scheduled again. Closing it again pays the prizes once.
    ---
    post:
      tags: [Leagues]
      responses:
        200: ReopenedSeason
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league, or no such season in it.
        409: Not the last closed season, the next season has begun, teams have re-drafted
          after it (`season_not_reopenable`), or a prize was already spent (`prize_spent`).
    """
    with unit_of_work() as session:
        league = access.get_league(session, league_id)
        season = next((s for s in league.seasons if s.number == season_number), None)
        paid = seasons.prizes_paid(session, league, season) if season is not None else ()
        seasons.reopen_season(session, g.api_user, league_id, season_number)
        result = ReopenedSeasonSchema.body({"season": season_number, "taken_back": paid})
    return result


@bp.post(f"{LEAGUE}/teams")
@token_required
def create_team(league_id: int) -> tuple[dict[str, Any], int]:
    """Create a team in the league.

    The team is active at once, with an empty roster and the league's starting treasury.
    A coach of the league creates their own team; a commissioner may name another coach.
    ---
    post:
      tags: [Leagues]
      requestBody: NewTeam
      responses:
        201: Team
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is neither a coach nor a commissioner of the league.
        404: No such league, or no such coach.
        409: The league already has a team of that name.
        422: A name of the wrong length, a team type the ruleset does not have.
    """
    body = NewTeamSchema().load(json_object())
    command = teams.NewTeam(
        league_id=league_id,
        name=body["name"],
        team_type_id=body["team_type"],
        coach=body.get("coach"),
        active=True,  # API teams skip the draft: active, empty roster, full treasury
    )
    with unit_of_work() as session:
        team = teams.create_team(session, g.api_user, command)
        result = TeamSchema.body(team)
    return result, 201
