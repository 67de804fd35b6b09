"""Match-day players and after the game: journeymen, mercenaries and star players.

A side's saved pre-game (`PregameSide`) names its journeymen, mercenaries and
star players; each becomes a `Player` of the team with a status of his own
("journeyman", "mercenary", "star") and the match he was taken on for
(`Player.match_day_match_id`). Such a player is off the roster (no shirt
number held, not in the team value, gone from the team's books after the
match) but his id goes in that match's report like any other. Journeymen and
mercenaries earn SPP as the edition says; star players earn none and cannot be
MVP, and their injuries are not carried (`league.services.recompute`).

After the result is final, the coach may hire a journeyman (`hire_journeyman`):
he becomes an ordinary player of the roster at the edition's price, keeps his
SPP and loses the journeyman's trait (his status is no longer "journeyman").
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import Match, MatchPlayer, MatchTeam, Player, PregameSide, Team, User
from league.models.player import MATCH_DAY_STATUSES
from league.rules import RulesError, star_hire
from league.rules.postgame import journeyman_hire_terms
from league.rules.refusals import refusal_text
from league.services import audit
from league.services.errors import Conflict, Forbidden, NotFound, RuleViolation
from league.services.recompute import recompute_team
from league.services.teams import (
    can_manage,
    get_team,
    post_entry,
    roster,
    team_ruleset,
    team_type_of,
)

#: (status, position or star id, name, cost) of one match-day player to field.
_Wanted = tuple[str, str, str, int]


def match_day_players(session: Session, match: Match, team: Team | None = None) -> list[Player]:
    """The players taken on for this match (hired journeymen included), by team and number."""
    query = select(Player).where(Player.match_day_match_id == match.id)
    if team is not None:
        query = query.where(Player.team_id == team.id)
    return list(session.scalars(query.order_by(Player.team_id, Player.number, Player.id)))


def _wanted(session: Session, side: PregameSide) -> list[_Wanted]:
    team = side.team
    ruleset = team_ruleset(team)
    team_type = team_type_of(team)
    wanted: list[_Wanted] = []
    for item in side.items:
        if item.kind in ("journeyman", "mercenary"):
            position = team_type.position(item.ref)
            cost = position.cost if item.kind == "journeyman" else item.cost
            wanted += [(item.kind, position.id, position.name, cost)] * item.count
        elif item.kind == "star":
            hire = star_hire(ruleset, item.ref)
            # A pair's one fee is booked on its first member; each takes a roster place.
            for index, star in enumerate(hire.members):
                wanted.append(("star", star.id, star.name, item.cost if index == 0 else 0))
    return wanted


def sync_match_day_players(session: Session, match: Match) -> list[Player]:
    """Make the match's match-day players what the saved pre-game sides say.

    Idempotent: players already created for an unchanged choice are kept (their
    ids stay valid for a report being written); a choice dropped from the
    pre-game drops its player. Only before the result: a played match's
    players are history.
    """
    if match.state not in ("scheduled", "draft"):
        return match_day_players(session, match)
    sides = {
        side.team_id: side
        for side in session.scalars(select(PregameSide).where(PregameSide.match_id == match.id))
    }
    existing: dict[tuple[int, str, str], list[Player]] = defaultdict(list)
    for player in match_day_players(session, match):
        if player.match_day_only:
            existing[(player.team_id, player.status, player.position_id)].append(player)
    for match_side in match.sides:
        team = match_side.team
        saved = sides.get(team.id)
        taken = {p.number for p in roster(team)} | {
            p.number for players in existing.values() for p in players if p.team_id == team.id
        }
        for status, ref, name, cost in _wanted(session, saved) if saved is not None else []:
            kept = existing.get((team.id, status, ref))
            if kept:
                player = kept.pop(0)
                player.cost = player.value = cost
                continue
            number = _free_number(taken)
            taken.add(number)
            team.players.append(
                Player(
                    position_id=ref,
                    name=name,
                    number=number,
                    status=status,
                    cost=cost,
                    value=cost,
                    match_day_match_id=match.id,
                )
            )
    for leftovers in existing.values():
        for player in leftovers:
            player.team.players.remove(player)
            session.delete(player)
    session.flush()
    return match_day_players(session, match)


def _free_number(taken: set[int]) -> int:
    return next(n for n in range(1, 100) if n not in taken)


def _later_match(session: Session, team: Team, match: Match) -> int | None:
    """A match the team played after `match`, if any (its journeymen have left by then)."""
    return session.scalar(
        select(Match.id)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .where(
            MatchTeam.team_id == team.id,
            Match.state == "played",
            Match.id != match.id,
            Match.played_at >= match.played_at,
        )
        .limit(1)
    )


def hire_journeyman(session: Session, actor: User, match_id: int, player_id: int) -> Player:
    """Keep a journeyman of `match_id` on the roster, at the edition's price.

    The team's coach (or a commissioner) hires him once the result is final and
    before the team plays again. He keeps his SPP and loses the journeyman's
    trait; the price leaves the treasury as a ledger row of kind "hire".
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(gettext("There is no match number %(id)d.", id=match_id))
    player = session.get(Player, player_id)
    if player is None or player.match_day_match_id != match.id:
        raise NotFound(
            gettext(
                "Player %(id)d is not a journeyman of match #%(match)d.",
                id=player_id,
                match=match.id,
            )
        )
    team = get_team(session, player.team_id, for_update=True, history=False)
    if not can_manage(team, actor):
        raise Forbidden(
            gettext("Only %(team)s's coach or a commissioner hires its journeymen.", team=team.name)
        )
    if player.status != "journeyman":
        raise RuleViolation(
            gettext("%(name)s is not a journeyman waiting to be hired.", name=player.name),
            code="not_a_journeyman",
            field="player",
        )
    if match.state != "played":
        raise Conflict(gettext("A journeyman is hired after the result is final."))
    if _later_match(session, team, match) is not None:
        raise RuleViolation(
            gettext("%(team)s has played since; its journeymen have left.", team=team.name),
            code="journeyman_gone",
            field="player",
        )
    died = session.scalar(
        select(func.count())
        .select_from(MatchPlayer)
        .where(
            MatchPlayer.match_id == match.id,
            MatchPlayer.player_id == player.id,
            MatchPlayer.injury == "dead",
        )
    )
    if died:
        raise RuleViolation(
            gettext("%(name)s died in this match.", name=player.name),
            code="journeyman_dead",
            field="player",
        )
    ruleset = team_ruleset(team)
    try:
        position = team_type_of(team).position(player.position_id)
    except RulesError as error:  # pragma: no cover - journeymen come from the team's positions
        raise Conflict(str(error)) from error
    terms = journeyman_hire_terms(
        ruleset,
        position,
        value=player.value,
        cost=player.cost,
        treasury=team.treasury,
        roster_size=len(roster(team)),
    )
    if not terms.decision:
        raise RuleViolation(
            " ".join(refusal_text(r, team=team.name) for r in terms.decision.reasons),
            code=terms.decision.reasons[0].code,
            field="player",
        )
    if any(p.number == player.number for p in roster(team)):
        player.number = _free_number({p.number for p in roster(team)})
    if terms.price:
        post_entry(
            session,
            team,
            actor,
            -terms.price,
            "hire",
            f"Hired journeyman {player.name}, match #{match.id}",
        )
    player.status = "active"  # recompute says "mng" or "dead" where the match left him so
    session.flush()
    recompute_team(session, team)
    audit.record(session, actor, "player.hire_journeyman", "player", player.id, match=match.id)
    return player


__all__ = [
    "MATCH_DAY_STATUSES",
    "hire_journeyman",
    "match_day_players",
    "sync_match_day_players",
]
