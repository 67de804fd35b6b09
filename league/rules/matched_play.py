"""Matched play: is a tournament roster within the budget and its skill points?

A tournament roster is bought with a budget and then given skills paid for with
skill points, as many as the team type's tier allows. Skills added this way do not
change a player's value: the roster costs its players' hiring fees plus its staff.
The edition may cap how often each elite skill is added (``MatchedPlay.elite_cap``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from league.rules.model import Decision, MatchedPlay, Reason, RulesError, Ruleset, make_reason
from league.rules.team_value import staff_value

__all__ = [
    "AddedSkill",
    "MatchedPlayCheck",
    "TournamentPlayer",
    "TournamentRoster",
    "check_tournament_roster",
    "roster_change",
    "skill_point_cost",
]


@dataclass(frozen=True, slots=True)
class AddedSkill:
    """A skill given to a player with skill points."""

    name: str
    secondary: bool = False


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    position: str
    skills: tuple[AddedSkill, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentRoster:
    team_type: str
    players: tuple[TournamentPlayer, ...]
    rerolls: int = 0
    assistant_coaches: int = 0
    cheerleaders: int = 0
    apothecary: bool = False
    dedicated_fans: int = 0


@dataclass(frozen=True, slots=True)
class MatchedPlayCheck:
    """The verdict with the numbers behind it."""

    decision: Decision
    budget: int
    cost: int
    skill_points_used: int
    skill_points_allowed: int

    @property
    def allowed(self) -> bool:
        return self.decision.allowed


def skill_point_cost(ruleset: Ruleset, settings: MatchedPlay, skill: AddedSkill) -> int:
    """Skill points one added skill costs: its kind's price, plus one when elite if so set."""
    cost = settings.secondary_cost if skill.secondary else settings.primary_cost
    known = ruleset.find_skill(skill.name)
    if settings.elite_costs_extra and known is not None and known.elite:
        cost += 1
    return cost


def check_tournament_roster(
    ruleset: Ruleset, roster: TournamentRoster, settings: MatchedPlay | None = None
) -> MatchedPlayCheck:
    """Check ``roster`` against the matched-play rules (``settings``: the league's, else
    the ruleset's defaults). Every fault is given, not only the first."""
    settings = settings or ruleset.matched_play
    if settings is None:
        raise RulesError(f"ruleset {ruleset.id!r} has no matched-play rules")
    team_type = ruleset.team_type(roster.team_type)
    if team_type.tier is None or not 1 <= team_type.tier <= len(settings.skill_points):
        raise RulesError(f"team type {team_type.id!r} has no matched-play tier")
    allowed_points = settings.points_for_tier(team_type.tier)
    # Added skills leave the value alone: hiring fees plus staff, nothing more.
    cost = sum(team_type.position(p.position).cost for p in roster.players) + staff_value(
        ruleset,
        team_type,
        rerolls=roster.rerolls,
        assistant_coaches=roster.assistant_coaches,
        cheerleaders=roster.cheerleaders,
        apothecary=roster.apothecary,
        dedicated_fans=roster.dedicated_fans,
    )
    added = [skill for player in roster.players for skill in player.skills]
    used = sum(skill_point_cost(ruleset, settings, skill) for skill in added)
    reasons: list[Reason] = []
    if cost > settings.budget:
        reasons.append(
            make_reason(
                "matched_play.roster_over_budget",
                cost=cost,
                budget=settings.budget,
                over=cost - settings.budget,
            )
        )
    if used > allowed_points:
        reasons.append(
            make_reason(
                "matched_play.over_skill_points",
                used=used,
                allowed=allowed_points,
                tier=team_type.tier,
            )
        )
    secondary = sum(1 for skill in added if skill.secondary)
    if settings.max_secondary is not None and secondary > settings.max_secondary:
        reasons.append(
            make_reason(
                "matched_play.too_many_secondary_skills",
                count=secondary,
                max=settings.max_secondary,
            )
        )
    if settings.elite_cap is not None:
        elite = [ruleset.find_skill(s.name) for s in added]
        counts = Counter(skill.name for skill in elite if skill is not None and skill.elite)
        for name, count in sorted(counts.items()):
            if count > settings.elite_cap:
                reasons.append(
                    make_reason(
                        "matched_play.elite_skill_over_cap",
                        skill=name,
                        count=count,
                        max=settings.elite_cap,
                    )
                )
    return MatchedPlayCheck(
        decision=Decision.from_reasons(reasons),
        budget=settings.budget,
        cost=cost,
        skill_points_used=used,
        skill_points_allowed=allowed_points,
    )


# ---------------------------------------------------------------------------
# Tournament day: who may still change a submitted roster


def roster_change(*, state: str, organiser: bool, corrections_closed: bool) -> Decision:
    """May a roster in approval ``state`` be changed (hire, fire, staff, advance, edit)?

    An approved roster is locked for everybody: the organiser unlocks it first, so what
    was approved is what is played. Once the event's correction deadline has passed
    (``corrections_closed``), a coach can no longer change a roster that is not approved
    either; the organiser still can.
    """
    if state == "approved":
        return Decision.deny("matched_play.roster_locked")
    if corrections_closed and not organiser:
        return Decision.deny("matched_play.corrections_closed")
    return Decision.allow()
