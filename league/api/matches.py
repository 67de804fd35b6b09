"""Matches: POST /api/v1/leagues/<id>/matches, GET /api/v1/matches/<id>, POST .../void,
POST .../journeymen/<player_id>/hire.

The body is parsed here into a `MatchReport` (400 `invalid_field` naming the
field for anything of the wrong shape or type); the rules' verdict on the report
comes from the match service: `ReportErrors` is a 422 `invalid_report` listing
every problem at once, other refusals are DomainErrors with their own status.
"""

from __future__ import annotations

from typing import Any

from flask import g
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.api import bp
from league.api.auth import token_required
from league.api.errors import invalid_field
from league.api.serializers import (
    MAX_ID,
    as_integer,
    json_object,
    match_json,
    player_json,
    player_line,
)
from league.extensions import db
from league.models import Match, User
from league.models.match import INJURY_CODES, SIDES
from league.rules import CHARACTERISTICS
from league.services import matches, postgame
from league.services.errors import ConcurrentChange, Conflict
from league.services.leagues import get_league, require_commissioner
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"
MATCH = "/matches/<id:match_id>"

#: Ceiling for scores and per-player counters: far above any real match and far
#: below what would overflow the 32-bit SPP and score columns once summed.
MAX_COUNT = 1000
#: Ceiling for gold entered as winnings (the treasury is a 32-bit column too).
MAX_GOLD = 10_000_000
#: More entries than two full rosters ever field (keeps the SQL IN lists small).
MAX_PLAYERS = 100
#: The idempotency_key column's width.
MAX_KEY = 64
#: Per-player counters: API name -> PlayerEvents field.
COUNTERS = {
    "td": "td",
    "cas": "cas",
    "comp": "comp",
    "int": "interceptions",
    "deflection": "deflection",
    "throw_completion": "throw_completion",
    "safe_landing": "safe_landing",
}


# ---------------------------------------------------------------------------
# Parsing the report


def _int(value: object, name: str, *, maximum: int) -> int:
    number = as_integer(value)
    if number is None:
        raise invalid_field(name, f"'{name}' must be an integer.")
    if number > maximum:
        raise invalid_field(name, f"'{name}' must be at most {maximum:,}.")
    # Negative numbers pass: the rules refuse them (422) along with everything else.
    return number


def _required_int(
    body: dict[str, Any], name: str, *, maximum: int, where: str | None = None
) -> int:
    label = f"{where}.{name}" if where else name
    if body.get(name) is None:
        raise invalid_field(label, f"'{label}' is required.")
    return _int(body[name], label, maximum=maximum)


def _required_id(body: dict[str, Any], name: str, *, where: str | None = None) -> int:
    """A row's id: 1 to MAX_ID. Nothing else names a row, and a number beyond the 32-bit
    columns would fail the query itself (a 500 on PostgreSQL) rather than find nothing."""
    number = _required_int(body, name, maximum=MAX_ID, where=where)
    if number < 1:
        label = f"{where}.{name}" if where else name
        raise invalid_field(label, f"'{label}' must be an id, a number from 1 to {MAX_ID:,}.")
    return number


def _optional_int(value: object, name: str, *, maximum: int, default: int = 0) -> int:
    return default if value is None else _int(value, name, maximum=maximum)


def _bool(value: object, name: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise invalid_field(name, f"'{name}' must be true or false.")
    return value


def _choice(value: object, name: str, choices: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in choices:
        raise invalid_field(name, f"'{name}' must be null or one of: {', '.join(choices)}.")
    return value


def _object(body: dict[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise invalid_field(name, f"'{name}' must be an object.")
    return value


def _per_side(
    body: dict[str, Any], name: str, *, maximum: int, default: int | None
) -> dict[str, int | None]:
    """{"home": n, "away": n}, each optional."""
    given = _object(body, name)
    result: dict[str, int | None] = {}
    for side in SIDES:
        value = given.get(side)
        result[side] = default if value is None else _int(value, f"{name}.{side}", maximum=maximum)
    return result


def _player_events(entry: object, index: int) -> PlayerEvents:
    where = f"players[{index}]"
    if not isinstance(entry, dict):
        raise invalid_field(where, f"'{where}' must be an object.")
    counters = {
        field: _optional_int(entry.get(name), f"{where}.{name}", maximum=MAX_COUNT)
        for name, field in COUNTERS.items()
    }
    return PlayerEvents(
        player_id=_required_id(entry, "player_id", where=where),
        **counters,
        mvp=1 if _bool(entry.get("mvp"), f"{where}.mvp") else 0,
        injury=_choice(entry.get("injury"), f"{where}.injury", INJURY_CODES),
        lasting=_choice(entry.get("lasting"), f"{where}.lasting", CHARACTERISTICS),
        apothecary_used=_bool(entry.get("apothecary_used"), f"{where}.apothecary_used"),
    )


def _players(body: dict[str, Any]) -> tuple[PlayerEvents, ...]:
    entries = body.get("players")
    if entries is None:
        return ()
    if not isinstance(entries, list):
        raise invalid_field("players", "'players' must be a list.")
    if len(entries) > MAX_PLAYERS:
        raise invalid_field("players", f"'players' lists at most {MAX_PLAYERS} players.")
    return tuple(_player_events(entry, index) for index, entry in enumerate(entries))


def _idempotency_key(body: dict[str, Any]) -> str | None:
    key = body.get("idempotency_key")
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY or "\x00" in key:
        raise invalid_field(
            "idempotency_key", f"'idempotency_key' must be a string of 1 to {MAX_KEY} characters."
        )
    return key


def report_from(body: dict[str, Any]) -> MatchReport:
    scores = {side: _required_int(body, f"{side}_score", maximum=MAX_COUNT) for side in SIDES}
    winnings = _per_side(body, "winnings", maximum=MAX_GOLD, default=None)
    fans_change = _per_side(body, "fans_change", maximum=MAX_COUNT, default=0)
    conceded = _choice(body.get("conceded"), "conceded", SIDES)
    fan_attendance = body.get("fan_attendance")
    sides = {
        side: SideReport(
            score=scores[side],
            conceded=conceded == side,
            winnings=winnings[side],
            fans_change=fans_change[side] or 0,
        )
        for side in SIDES
    }
    return MatchReport(
        home=sides["home"],
        away=sides["away"],
        players=_players(body),
        fan_attendance=None
        if fan_attendance is None
        else _int(fan_attendance, "fan_attendance", maximum=MAX_COUNT),
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
          The rules refuse the report: `invalid_report` lists every problem in `fields`;
          teams that cannot play each other are a `rule_violation`.
    """
    body = json_object()
    home_team = _required_id(body, "home_team")
    away_team = _required_id(body, "away_team")
    report = report_from(body)
    key = _idempotency_key(body)
    try:
        with unit_of_work() as session:
            earlier = _earlier(session, g.api_user, league_id, key) if key else None
            if earlier is not None:
                # A repeat records nothing new and answers 200 with the first match: 201
                # would claim a creation that did not happen this time.
                return match_json(earlier), 200
            match = matches.record_new_match(
                session, g.api_user, league_id, home_team, away_team, report, idempotency_key=key
            )
            result = match_json(match)
    except ConcurrentChange:
        # Two requests with the same new key at once: the loser finds the winner's match.
        if key is None:
            raise
        earlier = _earlier(db.session(), g.api_user, league_id, key)
        if earlier is None:
            raise
        return match_json(earlier), 200
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
    return match_json(matches.get_match(db.session(), match_id))


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
        409: Already voided, not played, or what it awarded was already spent.
    """
    # 200: the match changes state and is returned; nothing is created.
    with unit_of_work() as session:
        return match_json(matches.void_match(session, g.api_user, match_id))


@bp.post(f"{MATCH}/journeymen/<id:player_id>/hire")
@token_required
def hire_journeyman(match_id: int, player_id: int) -> dict[str, Any]:
    """Hire a journeyman of a played match (his team's coach, or a commissioner).

    He joins the roster at the edition's price (BB2025: his hiring fee plus value
    increases; BB2020: his current value, with room under 16 players; classic: the
    position's cost), keeps his SPP and loses the journeyman's trait. Possible until
    the team plays again; after that he has left.
    ---
    post:
      tags: [Matches]
      responses:
        200: Player
      errors:
        403: The caller neither coaches his team nor is a commissioner of the league.
        404: No such match, or the player is not one of its journeymen.
        409: The result is not final yet.
        422: Not a journeyman waiting to be hired, already gone, dead, no room, or not enough gold.
    """
    with unit_of_work() as session:
        player = postgame.hire_journeyman(session, g.api_user, match_id, player_id)
        return player_json(player_line(player))


def _id_list(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise invalid_field(name, f"'{name}' must be a list of at most {MAX_PLAYERS} ids.")
    return tuple(_int(item, f"{name}[{index}]", maximum=MAX_ID) for index, item in enumerate(value))


def _d6(value: object, name: str) -> int | None:
    if value is None:
        return None
    die = _int(value, name, maximum=6)
    if die < 1:
        raise invalid_field(name, f"'{name}' must be a die from 1 to 6.")
    return die


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
    body = json_object()
    team_id = _required_id(body, "team_id")
    nominees = _id_list(body.get("nominees"), "nominees")
    die = _d6(body.get("die"), "die")
    with unit_of_work() as session:
        drawn = postgame.draw_mvp(session, g.api_user, match_id, team_id, nominees, die)
        return {
            "player_id": drawn.player.id,
            "nominees": list(drawn.nominees),
            "die": drawn.die,
            "rolled": drawn.rolled,
        }


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
    body = json_object()
    entries = body.get("dice")
    dice: dict[int, int] | None = None
    if entries is not None:
        if not isinstance(entries, list) or len(entries) > MAX_PLAYERS:
            raise invalid_field("dice", f"'dice' must be a list of at most {MAX_PLAYERS} rolls.")
        dice = {}
        for index, entry in enumerate(entries):
            where = f"dice[{index}]"
            if not isinstance(entry, dict):
                raise invalid_field(where, f"'{where}' must be an object.")
            die = _d6(entry.get("die"), f"{where}.die")
            if die is None:
                raise invalid_field(f"{where}.die", f"'{where}.die' is required.")
            dice[_required_id(entry, "player_id", where=where)] = die
    with unit_of_work() as session:
        rolled = postgame.concession_departures(session, g.api_user, match_id, dice)
        return {
            "departures": [{"player_id": d.player.id, "die": d.die, "left": d.left} for d in rolled]
        }
