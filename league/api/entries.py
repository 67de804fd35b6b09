"""Tournament entries: list, enter, drop and take back a drop (the organiser)."""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import EntryListSchema, EntrySchema, NewEntrySchema
from league.extensions import db
from league.services import access, entries
from league.services.unit_of_work import unit_of_work

ENTRIES = "/leagues/<id:league_id>/entries"


@bp.get(ENTRIES)
def list_entries(league_id: int) -> dict[str, Any]:
    """The league's entries: its teams (retired ones left out), with coach and club.
    ---
    get:
      tags: [Seasons]
      responses:
        200: EntryList
      errors:
        404: No such league.
    """
    session = db.session()
    league = access.get_league(session, league_id, collections=False)
    return EntryListSchema.body({"entries": entries.entries_of(session, league)})


@bp.post(ENTRIES)
@token_required
def add_entry(league_id: int) -> tuple[dict[str, Any], int]:
    """Enter a team (organiser: a commissioner): an existing team of the league
    (`team_id`), or a new one (`name`, `team_type`, `coach`: active at once), with its
    club or nation and seed rating. After the first round is paired it is a late entry:
    0 points, paired from the next round.
    ---
    post:
      tags: [Seasons]
      requestBody: NewEntry
      responses:
        201: Entry
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league, team or coach.
        409: The league already has a team of that name.
        422: A missing or bad field for a new team, a club over 60 characters, a rating
          out of range (`invalid_seed_rating`).
    """
    body = NewEntrySchema().load(json_object())
    command = entries.NewEntry(
        league_id=league_id,
        team_id=body.get("team_id"),
        name=body.get("name"),
        team_type_id=body.get("team_type"),
        coach=body.get("coach"),
        club=body.get("club"),
        seed_rating=body.get("seed_rating"),
    )
    with unit_of_work() as session:
        team = entries.add_entry(session, g.api_user, command)
        result = EntrySchema.body(team)
    return result, 201


@bp.post(f"{ENTRIES}/<id:team_id>/drop")
@token_required
def drop_entry(league_id: int, team_id: int) -> dict[str, Any]:
    """Drop an entry between rounds (organiser); before the first round it withdraws.
    It is no longer paired; its games stand in the standings. The entry's id is its
    team's id.
    ---
    post:
      tags: [Seasons]
      responses:
        200: Entry
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league or entry.
        409: Already dropped (`dropped`), or its match of the round waits for a result
          (`match_waiting`).
    """
    with unit_of_work() as session:
        team = entries.drop_entry(session, g.api_user, league_id, team_id)
        return EntrySchema.body(team)


@bp.post(f"{ENTRIES}/<id:team_id>/undrop")
@token_required
def undrop_entry(league_id: int, team_id: int) -> dict[str, Any]:
    """Take a drop back (organiser): the entry is paired again from the next round.
    ---
    post:
      tags: [Seasons]
      responses:
        200: Entry
      errors:
        403: The caller is not a commissioner of the league.
        404: No such league or entry.
        409: It has not dropped (`not_dropped`).
    """
    with unit_of_work() as session:
        team = entries.undrop_entry(session, g.api_user, league_id, team_id)
        return EntrySchema.body(team)
