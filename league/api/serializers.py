"""JSON in and out for the API: request-body parsing and resource representations.

`json_object` turns a body into a JSON object or a 400 (`bad_request`); the request
schemas (`league.api.schemas`) load its members (a 400 `invalid_field` naming the
field), so a service only ever sees well-typed input. Representations follow the
OpenAPI document (docs/api.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import request
from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter, Map, ValidationError

from league.api.errors import BadRequest, invalid_field
from league.models import Advancement, League, Match, Player, Team
from league.rules import CHARACTERISTICS as _CHARACTERISTICS
from league.services.access import active_members
from league.services.divisions import division_tables
from league.services.rosters import PlayerLine, TeamSheet, team_sheet
from league.services.standings import StandingRow, Standings
from league.services.text import is_valid_unicode

#: Largest id a route accepts (ids are 32-bit integers in the database).
MAX_ID = 2_147_483_647


class IdConverter(IntegerConverter):
    """`<id:name>` in a route: a database id; one beyond the 32-bit range is a 404.

    Werkzeug's own `<int(max=...)>` treats an out-of-range value as no match, which
    becomes a 405 where another method serves the same path (GET and POST
    `/players/<id>/advancements`); an id that cannot exist is simply not found.
    """

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, max=MAX_ID)

    def to_python(self, value: str) -> int:
        try:
            number: int = super().to_python(value)
        except ValidationError:
            raise NotFound(f"There is nothing with the id {value}.") from None
        return number


# ---------------------------------------------------------------------------
# Request bodies


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or a 400.

    JSON may escape half of a surrogate pair on its own (`"\\ud800"`); Python reads it
    into a string no database can store, so the whole body is refused here, naming
    the member that holds it, before any view or service sees it.
    """
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:  # absurdly nested arrays or objects; not a ValueError
        body = None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object as the request body.")
    where = _not_unicode(body)
    if where is not None:
        raise invalid_field(
            where, f"'{where}' must be valid Unicode text (it has a lone surrogate)."
        )
    return body


def _not_unicode(body: dict[str, Any]) -> str | None:
    """The path (`players[2].name`) of the first string or member name that is not
    valid Unicode, or None. A loop, not recursion: the body may be nested deeply."""
    pending: list[tuple[str, Any]] = [("", body)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, str):
            if not is_valid_unicode(value):
                return path or "body"
        elif isinstance(value, dict):
            for key, member in value.items():
                where = f"{path}.{key}" if path else key
                if not is_valid_unicode(key):
                    # Named as far as it can be shown: the bad half pair as an escape.
                    return where.encode("utf-8", "backslashreplace").decode()
                pending.append((where, member))
        elif isinstance(value, list):
            pending.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None


def as_integer(value: object) -> int | None:
    """A JSON integer as an int, or None when the value is not one.

    As in JSON Schema, a number with a zero fraction (`2.0`) is an integer; a bool
    (an int subclass in Python) is not: JSON true is not a number.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


# ---------------------------------------------------------------------------
# Representations


def league_json(league: League) -> dict[str, Any]:
    members = active_members(league)
    season = league.current_season
    return {
        "id": league.id,
        "name": league.name,
        "ruleset": league.ruleset_id,
        "starting_treasury": league.starting_treasury,
        "points": {
            "win": league.points_win,
            "draw": league.points_draw,
            "loss": league.points_loss,
        },
        "tie_breakers": list(league.tie_breakers),
        "house_rules": dict(league.house_rules or {}),
        "table_dice_allowed": league.table_dice_allowed,
        "paper_size": league.paper_size,
        "default_language": league.default_language,
        "season": season.number if season else None,
        "commissioners": sorted(m.user.username for m in members if m.role == "commissioner"),
        "coaches": sorted(m.user.username for m in members if m.role == "coach"),
        "teams": [
            {
                "id": team.id,
                "name": team.name,
                "team_type": team.team_type_id,
                "coach": team.coach.username,
                "status": team.status,
            }
            for team in sorted(league.teams, key=lambda t: (t.name.lower(), t.id))
        ],
    }


def standings_json(table: Standings | None, league: League | None = None) -> dict[str, Any]:
    """The standings rows, ranked (points, then the league's tie-breakers, then name).

    Counts only the season's played league matches (friendlies and voided matches
    do not count); every active team has a row, with zeros until it plays.
    None (a league without a season) has no rows. Given the league, each division's
    part of the table too (``divisions``: empty when the league has none).
    """
    if table is None:
        return {"rows": [], "divisions": []}
    found: dict[str, Any] = {"rows": [_standing_row(row) for row in table.rows]}
    if league is not None:
        found["divisions"] = [
            {"name": division.name, "rows": [_standing_row(row) for row in division.rows]}
            for division in division_tables(league, table)
        ]
    return found


def _standing_row(row: StandingRow) -> dict[str, Any]:
    return {
        "team_id": row.team_id,
        "team": row.team_name,
        "played": row.played,
        "won": row.won,
        "drawn": row.drawn,
        "lost": row.lost,
        "td_for": row.td_for,
        "td_against": row.td_against,
        "cas_for": row.cas_for,
        "cas_against": row.cas_against,
        "points": row.points,
        "bonus_points": row.bonus_points,
        "byes": row.byes,
    }


def _player_lines(sheet: TeamSheet) -> list[PlayerLine]:
    """Everyone who was ever on the team: the roster by number, then former players."""
    return [
        *sorted(sheet.lines, key=lambda line: (line.player.number, line.player.id)),
        *sheet.former,
    ]


def player_line(player: Player) -> PlayerLine:
    """The player's roster line (stats, skills, level) as the team sheet computes it."""
    return next(line for line in _player_lines(team_sheet(player.team)) if line.player is player)


#: Characteristics in the order injuries are listed.


def injuries_json(player: Player) -> list[dict[str, str]]:
    """The player's lasting damage, one entry per injury.

    ``{"kind": "niggling"}`` for each niggling injury, then
    ``{"kind": "lasting", "characteristic": "ma"|"st"|"ag"|"pa"|"av"}`` for each
    step a lasting injury took off a characteristic (a player who lost two AV
    has two such entries). Missing the next game shows as ``"status": "mng"``.
    """
    niggling = [{"kind": "niggling"} for _ in range(player.niggling_injuries)]
    lasting = [
        {"kind": "lasting", "characteristic": characteristic}
        for characteristic in _CHARACTERISTICS
        for _ in range(player.reduction(characteristic))
    ]
    return [*niggling, *lasting]


def player_json(line: PlayerLine) -> dict[str, Any]:
    """A player (docs/api.md): current characteristics (advancements and injuries applied),
    every skill held (starting skills, then those gained in advancement order)."""
    player = line.player
    return {
        "id": player.id,
        "team_id": player.team_id,
        "name": player.name,
        "number": player.number,
        "position": player.position_id,
        "position_name": line.position.name,
        **line.stats,
        "skills": [*line.skills, *line.gained_skills],
        "spp": {
            "earned": player.spp_earned,
            "spent": player.spp_spent,
            "available": player.spp_available,
        },
        "advancements": len(player.active_advancements),
        "level": line.level,
        "value": player.value,
        "status": player.status,
        "injuries": injuries_json(player),
    }


def advancement_json(advancement: Advancement) -> dict[str, Any]:
    """One advancement as taken: what it gave, what it cost and the dice behind it."""
    return {
        "id": advancement.id,
        "player_id": advancement.player_id,
        "number": advancement.number,
        "kind": advancement.kind,
        "spp_cost": advancement.spp_cost,
        "skill": advancement.skill,
        "characteristic": advancement.characteristic,
        "category": advancement.category,
        "dice": None if advancement.dice is None else list(advancement.dice),
        "dice_source": advancement.dice_source,
        "value_increase": advancement.value_increase,
        "created_at": timestamp(advancement.created_at),
        "undone_at": timestamp(advancement.undone_at),
    }


def team_json(team: Team) -> dict[str, Any]:
    sheet = team_sheet(team)
    return {
        "id": team.id,
        "name": team.name,
        "league_id": team.league_id,
        "team_type": team.team_type_id,
        "coach": team.coach.username,
        "coachless": team.coachless_since is not None,
        "status": team.status,
        "treasury": team.treasury,
        "rerolls": team.rerolls,
        "apothecary": team.apothecary,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "dedicated_fans": team.dedicated_fans,
        "team_value": sheet.values.team_value,
        "current_team_value": sheet.values.current_team_value,
        "division": team.division,
        "players": [player_json(line) for line in _player_lines(sheet)],
    }


def timestamp(moment: datetime | None) -> str | None:
    """ISO 8601 with the offset; SQLite hands back naive datetimes, stored as UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def match_json(match: Match) -> dict[str, Any]:
    home, away = match.side("home"), match.side("away")
    conceded = "home" if home.conceded else "away" if away.conceded else None
    return {
        "id": match.id,
        "league_id": match.league_id,
        "state": match.state,
        "friendly": match.friendly,
        "round": match.round,
        "home_team": home.team_id,
        "away_team": away.team_id,
        "home_score": home.score,
        "away_score": away.score,
        "conceded": conceded,
        "winnings": {"home": home.winnings, "away": away.winnings},
        "fans_change": {"home": home.fans_change, "away": away.fans_change},
        "fan_attendance": match.fan_attendance,
        # What Expensive Mistakes (rolled by the server) took from each treasury.
        "expensive_mistakes": {
            side.side: {"outcome": side.mistake, "loss": side.mistake_loss} for side in (home, away)
        },
        "played_at": timestamp(match.played_at),
        "players": [
            {
                "player_id": line.player_id,
                "team_id": line.team_id,
                "name": line.player.name,
                "td": line.td,
                "cas": line.cas,
                "comp": line.comp,
                "int": line.interceptions,
                "deflection": line.deflection,
                "throw_completion": line.throw_completion,
                "safe_landing": line.safe_landing,
                "mvp": line.mvp > 0,
                "injury": line.injury,
                "lasting": line.lasting,
                "apothecary_used": line.apothecary_used,
                "spp": line.spp,
            }
            for line in match.players
        ],
    }
