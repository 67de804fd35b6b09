"""Import writes: the checked plan stored as a team of the receiving league, in one
transaction, its opening balances checked by a recompute."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import (
    Advancement,
    DiceRoll,
    Player,
    PlayerOpening,
    PlayerSkill,
    Team,
    TeamOpening,
    User,
)
from league.services import audit
from league.services.access import (
    get_league,
    league_ruleset,
    membership,
    require_commissioner,
    team_ruleset,
)
from league.services.errors import NotFound, Problem
from league.services.exchange.checks import check_document
from league.services.exchange.document import InvalidDocument, PlayerPlan
from league.services.recompute import recompute_team
from league.services.teams import post_entry
from league.services.users import find_user


def import_team(
    session: Session,
    actor: User,
    league_id: int,
    document: object,
    *,
    coach: str | None = None,
) -> Team:
    """Recreate the team of `document` in the league, coached by `coach` (default: the actor).

    One transaction: the team, its players, their advancements and skills, the
    ledger and the opening balances are written together, or nothing is.
    """
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    coach_user = actor
    if coach is not None and coach.strip().lower() != actor.username.lower():
        found = None if "\x00" in coach else find_user(session, coach)
        if found is None or membership(league, found) is None:
            raise NotFound(
                gettext(
                    "%(coach)s is not a coach in %(league)s.", coach=repr(coach), league=league.name
                ),
                field="coach",
            )
        coach_user = found
    ruleset = league_ruleset(league)
    plan = check_document(ruleset, league, document)
    now = datetime.now(UTC)
    team = Team(
        league=league,
        coach_id=coach_user.id,
        name=plan.name,
        team_type_id=plan.team_type.id,
        status=plan.status,
        treasury=0,
        rerolls=plan.rerolls,
        apothecary=plan.apothecary,
        assistant_coaches=plan.assistant_coaches,
        cheerleaders=plan.cheerleaders,
        dedicated_fans=plan.dedicated_fans,
        confirmed_at=now if plan.status == "active" else None,
    )
    session.add(team)
    for entry in plan.ledger:
        post_entry(
            session, team, actor, entry.amount, entry.kind, entry.description, item=entry.item
        )
    session.flush()
    session.add(TeamOpening(team_id=team.id, fans_change=plan.fans_change))
    for player_plan in plan.players:
        _create_player(session, team, player_plan)
    session.flush()
    differences = recompute_team(session, team, fix=False)
    if differences:  # A check above missed something: refuse rather than store it.
        raise InvalidDocument([Problem("", str(difference)) for difference in differences])
    audit.record(
        session,
        actor,
        "team.import",
        "team",
        team.id,
        coach=coach_user.username,
        players=len(plan.players),
    )
    return team


def _create_player(session: Session, team: Team, plan: PlayerPlan) -> Player:
    cost = plan.position.cost
    player = Player(
        team=team,
        position_id=plan.position.id,
        name=plan.name,
        number=plan.number,
        status=plan.status,
        cost=cost,
        value=cost + sum(a.value_increase for a in plan.advancements),
        spp_earned=plan.spp_earned,
        spp_spent=plan.spp_spent,
        niggling_injuries=plan.niggling_injuries,
        **{f"{c}_reduction": n for c, n in plan.reductions.items()},
    )
    session.add(player)
    session.flush()
    session.add(
        PlayerOpening(
            player_id=player.id,
            spp=plan.spp_earned,
            niggling_injuries=plan.niggling_injuries,
            status=plan.status if plan.status in ("mng", "dead") else "active",
            **{f"{c}_reduction": n for c, n in plan.reductions.items()},
        )
    )
    for step in plan.advancements:
        advancement = Advancement(
            player=player,
            number=step.number,
            kind=step.kind,
            spp_cost=step.spp_cost,
            skill=step.skill and _skill_name(team, step.skill),
            characteristic=step.characteristic,
            category=step.category,
            dice=step.dice,
            dice_source=step.dice_source,
            # The server's dice go into the player's dice log (undoing gives them back).
            dice_roll=DiceRoll(
                player=player, kind=step.kind, category=step.category, dice=list(step.dice)
            )
            if step.dice_source == "server" and step.dice is not None
            else None,
            value_increase=step.value_increase,
        )
        session.add(advancement)
        session.flush()
        if advancement.skill:
            session.add(
                PlayerSkill(
                    player_id=player.id, skill=advancement.skill, advancement_id=advancement.id
                )
            )
    return player


def _skill_name(team: Team, name: str) -> str:
    """The ruleset's spelling of the skill (documents may write "Loner (4+)" style names)."""
    skill = team_ruleset(team).find_skill(name)
    return skill.name if skill else name
