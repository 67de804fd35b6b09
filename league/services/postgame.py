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

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from league.i18n import format_list, gettext, ngettext
from league.models import Match, MatchPlayer, MatchTeam, Player, PregameSide, Team, User
from league.models.player import MATCH_DAY_STATUSES
from league.rules import (
    SHIRT_NUMBERS,
    Decision,
    RulesError,
    casualty_result_for_code,
    star_hire,
)
from league.rules.postgame import (
    JourneymanHireTerms,
    journeyman_hire_terms,
    leaves_on_concession,
    mvp_draw_decision,
    rolls_to_leave,
)
from league.rules.refusals import refusal_text
from league.services import audit
from league.services.access import (
    get_team,
    may_manage_team,
    roster,
    team_ruleset,
    team_type_of,
)
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.recompute import player_openings, recompute_team
from league.services.teams import checked_player_name, post_entry

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
    found = match_day_players(session, match)
    changed = False  # a player taken on or dropped: read them again, else `found` stands
    for player in found:
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
            changed = True
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
            changed = True
    session.flush()
    return match_day_players(session, match) if changed else found


def _free_number(taken: set[int]) -> int:
    return next(n for n in SHIRT_NUMBERS if n not in taken)


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


def journeyman_terms(team: Team, player: Player, roster_size: int) -> JourneymanHireTerms:
    """The rules' price and verdict for keeping ``player``, a journeyman of ``team``, with
    ``roster_size`` players on the roster besides him (RulesError: not a position of the team)."""
    return journeyman_hire_terms(
        team_ruleset(team),
        team_type_of(team).position(player.position_id),
        value=player.value,
        cost=player.cost,
        treasury=team.treasury,
        roster_size=roster_size,
    )


def hire_journeyman(
    session: Session, actor: User, match_id: int, player_id: int, name: str | None = None
) -> Player:
    """Keep a journeyman of `match_id` on the roster, at the edition's price.

    The team's coach (or a commissioner) hires him once the result is final and
    before the team plays again. He keeps his SPP and loses the journeyman's
    trait; the price leaves the treasury as a ledger row of kind "hire". `name`, when
    given, is the name he plays under from now on (checked like any player's name).
    """
    new_name = None if name is None else checked_player_name(name)
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
    may_manage_team(team, actor, "journeymen").require()
    _require_hireable(session, team, match, player)
    try:
        terms = journeyman_terms(team, player, len(roster(team)))
    except RulesError as error:  # pragma: no cover - journeymen come from the team's positions
        raise Conflict(str(error)) from error
    if not terms.decision:
        raise RuleViolation(
            " ".join(refusal_text(r, team=team.name) for r in terms.decision.reasons),
            code=terms.decision.reasons[0].code,
            field="player",
        )
    if any(p.number == player.number for p in roster(team)):
        player.number = _free_number({p.number for p in roster(team)})
    if new_name is not None:
        player.name = new_name
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


def _require_hireable(session: Session, team: Team, match: Match, player: Player) -> None:
    """A journeyman waiting to be hired, after the final result, before the team plays
    again, and alive."""
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


# ---------------------------------------------------------------------------
# BB2025: the MVP drawn among nominees, a conceding team's departures


def _played_side(session: Session, match_id: int, team_id: int | None = None) -> MatchTeam:
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(gettext("There is no match number %(id)d.", id=match_id))
    if match.state != "played":
        raise Conflict(gettext("This comes after the result is final."))
    if team_id is None:
        side = next((s for s in match.sides if s.conceded), None)
        if side is None:
            raise RuleViolation(gettext("Neither team conceded this match."), code="no_concession")
        return side
    side = next((s for s in match.sides if s.team_id == team_id), None)
    if side is None:
        raise NotFound(
            gettext("Team %(id)d did not play match #%(match)d.", id=team_id, match=match_id)
        )
    return side


def _die(table_die: int | None, league_allows: bool, field: str) -> int | None:
    """The table's die if the league lets coaches enter them (None: the server rolls)."""
    if table_die is None:
        return None
    if not league_allows:
        raise RuleViolation(
            gettext("This league's dice are rolled by the server."), code="server_dice", field=field
        )
    return table_die


def _refuse(decision: Decision, field: str) -> None:
    if not decision:
        raise RuleViolation(
            " ".join(refusal_text(r) for r in decision.reasons),
            code=decision.reasons[0].code,
            field=field,
        )


@dataclass(frozen=True, slots=True)
class MvpDraw:
    """The MVP drawn, the nominees and the die that named him."""

    player: Player
    nominees: tuple[int, ...]
    die: int
    #: The server rolled the die (else it was rolled at the table).
    rolled: bool


def draw_mvp(
    session: Session,
    actor: User,
    match_id: int,
    team_id: int,
    nominees: Sequence[int],
    die: int | None = None,
) -> MvpDraw:
    """BB2025: the coach nominates players, a die draws the MVP among them.

    The server rolls, or (where the league lets coaches enter table dice) the die
    the coach rolled names the nominee in that place. The drawn player's line of
    the report gets the MVP (its SPP follow by recompute). Star players cannot be
    nominated; once drawn, the draw stands (a correction of the result re-enters it).
    """
    side = _played_side(session, match_id, team_id)
    team = get_team(session, side.team_id, for_update=True, history=False)
    may_manage_team(team, actor, "mvp").require()
    if side.mvp_draw is not None:
        raise Conflict(gettext("%(team)s's MVP was drawn already.", team=team.name))
    ruleset = team_ruleset(team)
    match = side.match
    entered = reported_mvps(side)
    if entered:
        raise Conflict(
            gettext(
                "The report already names %(players)s MVP for %(team)s; correct the report "
                "to draw instead.",
                players=format_list([p.name for p in entered]),
                team=team.name,
            ),
            code="mvp_entered",
        )
    eligible = {p.id: p for p in mvp_candidates(session, side)}
    if not eligible:  # no nominee: a roll could never name one
        raise RuleViolation(
            gettext("%(team)s has no player who could be this match's MVP.", team=team.name),
            code="mvp_no_nominees",
            field="nominees",
        )
    chosen = list(dict.fromkeys(nominees))
    strangers = [pid for pid in chosen if pid not in eligible]
    if strangers or len(chosen) != len(nominees):
        raise RuleViolation(
            gettext(
                "Nominate different players of %(team)s who could play this match (not star "
                "players).",
                team=team.name,
            ),
            code="mvp_nominee_unknown",
            field="nominees",
        )
    table_die = _die(die, team.league.table_dice_allowed, "die")
    _refuse(mvp_draw_decision(ruleset, len(chosen), len(eligible), table_die), "nominees")
    rolled = table_die is None
    if table_die is None:
        table_die = 7
        while table_die > len(chosen):  # a roll that names nobody is rolled again
            table_die = random.randint(1, 6)  # noqa: S311 - a game die
    winner = eligible[chosen[table_die - 1]]
    for appearance in match.players:
        if appearance.team_id == team.id:
            appearance.mvp = 0
    line = next((a for a in match.players if a.player_id == winner.id), None)
    if line is None:
        match.players.append(MatchPlayer(player_id=winner.id, team_id=team.id, mvp=1))
    else:
        line.mvp = 1
    side.mvp_draw = {"nominees": chosen, "die": table_die, "rolled": rolled}
    session.flush()
    recompute_team(session, team)
    audit.record(session, actor, "match.mvp_draw", "match", match.id, team=team.id, die=table_die)
    return MvpDraw(winner, tuple(chosen), table_die, rolled)


def missing_this_match(session: Session, match: Match, team: Team) -> set[int]:
    """The team's players injured in its previous match, who must sit this one out."""
    ruleset = team_ruleset(team)
    query = (
        select(Match)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .where(MatchTeam.team_id == team.id, Match.state == "played", Match.id != match.id)
        .order_by(Match.played_at.desc(), Match.id.desc())
        .options(selectinload(Match.players))
        .limit(1)
    )
    if match.played_at is not None:
        query = query.where(Match.played_at < match.played_at)
    previous = session.scalar(query)
    if previous is None:
        # An imported team's first match here: who the previous league left injured.
        return {
            opening.player_id
            for opening in player_openings(session, team).values()
            if opening.status == "mng"
        }
    return {
        appearance.player_id
        for appearance in previous.players
        if appearance.team_id == team.id
        and appearance.injury is not None
        and casualty_result_for_code(ruleset, appearance.injury).miss_next_game
    }


def mvp_candidates(session: Session, side: MatchTeam) -> list[Player]:
    """Who the side's coach may nominate for the MVP draw, by shirt number: the players
    of the match (the roster, this match's journeymen and mercenaries), never a star
    player nor one who had to miss this match through an earlier injury."""
    match, team = side.match, side.team
    played = {a.player_id for a in match.players if a.team_id == team.id}
    missed = missing_this_match(session, match, team)

    def could_play(player: Player) -> bool:
        if player.status == "star" or player.id in missed:
            return False
        if player.match_day_only:  # this match's journeymen and mercenaries
            return player.match_day_match_id == match.id
        return player.on_roster or player.id in played

    return sorted((p for p in team.players if could_play(p)), key=lambda p: (p.number, p.id))


def reported_mvps(side: MatchTeam) -> list[Player]:
    """The side's MVPs as the report entered them, before any draw."""
    if side.mvp_draw is not None:
        return []
    return [a.player for a in side.match.players if a.team_id == side.team_id and a.mvp]


@dataclass(frozen=True, slots=True)
class Departure:
    player: Player
    die: int
    left: bool


def concession_departures(
    session: Session, actor: User, match_id: int, dice: Mapping[int, int] | None = None
) -> list[Departure]:
    """BB2025: each player of the conceding team with enough advancements rolls a D6 to leave.

    The server rolls, or the table's dice are entered (`dice`: player id -> D6) where the
    league allows it. Those who leave are retired from the roster; the rolls are kept on
    the side and made once.
    """
    side = _played_side(session, match_id)
    team = get_team(session, side.team_id, for_update=True, history=False)
    may_manage_team(team, actor, "departures").require()
    if side.departures is not None:
        raise Conflict(gettext("%(team)s's departures were rolled already.", team=team.name))
    ruleset = team_ruleset(team)
    rolling = [p for p in roster(team) if rolls_to_leave(ruleset, len(p.active_advancements))]
    if dice is not None:
        if not team.league.table_dice_allowed:
            raise RuleViolation(
                gettext("This league's dice are rolled by the server."),
                code="server_dice",
                field="dice",
            )
        wanted = {p.id for p in rolling}
        if set(dice) != wanted or any(not 1 <= d <= 6 for d in dice.values()):
            raise RuleViolation(
                ngettext(
                    "Enter one D6 (1 to 6) for the %(num)d player who rolls to leave.",
                    "Enter one D6 (1 to 6) for each of the %(num)d players who roll to leave.",
                    len(wanted),
                ),
                code="departure_dice",
                field="dice",
            )
    results = []
    for player in rolling:
        die = dice[player.id] if dice is not None else random.randint(1, 6)  # noqa: S311
        left = leaves_on_concession(ruleset, len(player.active_advancements), die)
        if left:
            player.status = "retired"
        results.append(Departure(player, die, left))
    side.departures = {
        "rolls": {str(r.player.id): r.die for r in results},
        "left": [r.player.id for r in results if r.left],
        "rolled": dice is None,
    }
    session.flush()
    audit.record(
        session,
        actor,
        "match.departures",
        "match",
        side.match_id,
        left=[r.player.id for r in results if r.left],
    )
    return results


def undo_departures(match: Match) -> None:
    """A voided match's concession sent nobody away: who left comes back to the roster."""
    for side in match.sides:
        if side.departures is None:
            continue
        left = {int(pid) for pid in side.departures.get("left", ())}
        for player in side.team.players:
            if player.id in left and player.status == "retired":
                player.status = "active"  # recompute says "mng" or "dead" where it must
        side.departures = None


__all__ = [
    "MATCH_DAY_STATUSES",
    "Departure",
    "MvpDraw",
    "concession_departures",
    "draw_mvp",
    "hire_journeyman",
    "match_day_players",
    "sync_match_day_players",
    "undo_departures",
]
