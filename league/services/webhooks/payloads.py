"""Webhook payloads: plain data about what happened, one builder per aggregate.

Built in the transaction that made the change (before it commits), so a payload shows
what the change left: the standings after the result, the team as it was created.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from league.models import Advancement, League, Match, Player, Season, Team
from league.services.access import get_league
from league.services.identity import team_colours
from league.services.logos import logo_address
from league.services.standings import match_outcomes, standings
from league.urls import public_base

#: The event of a test message a commissioner sends from the webhooks page (any webhook
#: takes it, whatever events it chose).
TEST_EVENT = "webhook.test"


def page_url(kind: str, object_id: int) -> str:
    """The stable page address (`/leagues/1`, `/matches/7`) on the site's public address."""
    return f"{public_base()}/{kind}/{object_id}"


def team_ref(team: Team) -> dict[str, Any]:
    """The team, named and linked, with its colours ("#rrggbb" main and second, or None)
    and its logo's address (None: no logo)."""
    colours = team_colours(team)
    return {
        "id": team.id,
        "name": team.name,
        "url": page_url("teams", team.id),
        "colours": list(colours) if colours else None,
        "logo_url": f"{public_base()}{logo_address(team.logo_key)}" if team.logo_key else None,
    }


def player_ref(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "url": page_url("players", player.id)}


def _table(session: Session, league: League, season: Season) -> list[dict[str, Any]]:
    return [
        {
            "position": row.position,
            "team_id": row.team_id,
            "team": row.team_name,
            "played": row.played,
            "points": row.points,
        }
        for row in standings(session, league, season.number).rows
    ]


def match_payload(session: Session, match: Match, event: str) -> dict[str, Any]:
    """The score, the scorers, the casualties and the standings of the two teams."""
    league = get_league(session, match.league_id)
    sides = {}
    for side in (match.home, match.away):
        scorers = [
            {"player_id": line.player_id, "player": line.player.name, "td": line.td}
            for line in match.players
            if line.team_id == side.team_id and line.td
        ]
        sides[side.side] = {**team_ref(side.team), "score": side.score, "scorers": scorers}
    casualties = [
        {
            "player_id": line.player_id,
            "player": line.player.name,
            "team_id": line.team_id,
            "injury": line.injury,
        }
        for line in match.players
        if line.injury
    ]
    table: list[dict[str, Any]] = []
    # Friendlies and playoff matches do not count in the table (see standings).
    counts = match.season is not None and not match.friendly and match.bracket_id is None
    if counts and match.season is not None:
        outcomes = match_outcomes(league, match)
        playing = {match.home.team_id: "home", match.away.team_id: "away"}
        for row in _table(session, league, match.season):
            if row["team_id"] in playing:
                # What the match adds to the team's points: the same outcome the table counts.
                gained = outcomes[playing[row["team_id"]]].tournament_points
                # Corrections change points by an amount the payload cannot know.
                change = {"match.finalised": gained, "match.voided": -gained}.get(event)
                table.append({**row, "points_change": change})
    return {
        "match": {
            "id": match.id,
            "url": page_url("matches", match.id),
            "round": match.round,
            "friendly": match.friendly,
            "state": match.state,
            "home": sides["home"],
            "away": sides["away"],
        },
        "casualties": casualties,
        "standings": table,
    }


def death_payload(match: Match, player: Player) -> dict[str, Any]:
    """A player who died in `match`."""
    return {
        "player": player_ref(player),
        "team": team_ref(player.team),
        "match": {
            "id": match.id,
            "url": page_url("matches", match.id),
            "home": team_ref(match.home.team),
            "away": team_ref(match.away.team),
        },
    }


def fixtures_payload(league: League, created: list[Match]) -> dict[str, Any]:
    season = league.current_season
    return {
        "season": season.name if season else None,
        "url": f"{page_url('leagues', league.id)}/fixtures",
        "fixtures": [
            {
                "id": match.id,
                "round": match.round,
                "date": match.scheduled_for.isoformat() if match.scheduled_for else None,
                "home": team_ref(match.home.team),
                "away": team_ref(match.away.team),
            }
            for match in created
        ],
    }


def reminder_payload(match: Match, kind: str) -> dict[str, Any]:
    """A fixture's reminder: what waits (`kind`: time, pregame or report) and the fixture."""
    return {
        "kind": kind,
        "match": {
            "id": match.id,
            "url": page_url("matches", match.id),
            "round": match.round,
            "date": match.scheduled_for.isoformat() if match.scheduled_for else None,
            "kickoff": match.kickoff_at.isoformat() if match.kickoff_at else None,
            "home": team_ref(match.home.team),
            "away": team_ref(match.away.team),
        },
    }


def advancement_payload(advancement: Advancement) -> dict[str, Any]:
    player = advancement.player
    return {
        "player": player_ref(player),
        "team": team_ref(player.team),
        "kind": advancement.kind,
        "skill": advancement.skill,
        "characteristic": advancement.characteristic,
        "spp": advancement.spp_cost,
        "value_increase": advancement.value_increase,
    }


def team_payload(team: Team) -> dict[str, Any]:
    # A team kept without a coach has none to name (its former coach left the league).
    coach = None if team.coachless_since is not None else team.coach.username
    return {"team": {**team_ref(team), "team_type": team.team_type_id, "coach": coach}}


def season_payload(session: Session, league: League, closed: Season) -> dict[str, Any]:
    return {
        "season": closed.number,
        "name": closed.name,
        "url": f"{page_url('leagues', league.id)}/standings?season={closed.number}",
        "table": _table(session, league, closed),
    }


def test_payload(league: League) -> dict[str, Any]:
    """The test message a commissioner sends: where the league is."""
    return {"url": page_url("leagues", league.id)}
