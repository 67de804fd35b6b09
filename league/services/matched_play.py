"""Tournament roster check: a team against its league's matched-play settings.

A league turns the check on with the house rule ``matched_play`` (an empty table keeps
the ruleset's defaults). The skills a team's players took as advancements are the
skills added with skill points; primary or secondary comes from the advancement's kind
(for a skill taken instead of a characteristic, from the position's categories).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sqlalchemy.orm import Session

from league.i18n import current_language, gettext
from league.models import League, Player, Team
from league.rules import Ruleset
from league.rules.matched_play import (
    AddedSkill,
    MatchedPlayCheck,
    TournamentPlayer,
    TournamentRoster,
    check_tournament_roster,
    skill_point_cost,
)
from league.rules.model import MatchedPlay, Position, Reason
from league.rules.refusals import refusal_text
from league.services.access import get_team, league_ruleset, roster
from league.services.errors import Conflict

__all__ = [
    "RosterCheck",
    "RosterProblem",
    "check_team",
    "matched_play_settings",
    "roster_problems",
    "tournament_roster",
]


@dataclass(frozen=True, slots=True)
class RosterProblem:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class SkillLine:
    """A skill added to a player, named in the reader's language, with its price."""

    name: str
    secondary: bool
    points: int


@dataclass(frozen=True, slots=True)
class PlayerLine:
    number: int
    name: str
    position: str
    cost: int
    skills: tuple[SkillLine, ...]


@dataclass(frozen=True, slots=True)
class RosterCheck:
    team: Team
    settings: MatchedPlay
    check: MatchedPlayCheck
    problems: tuple[RosterProblem, ...]
    #: The players on the roster with their hiring fee and the skills added.
    lines: tuple[PlayerLine, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.check.allowed


def matched_play_settings(league: League) -> MatchedPlay | None:
    """The league's matched-play settings, or None when it does not check rosters."""
    if "matched_play" not in (league.house_rules or {}):
        return None
    return league_ruleset(league).matched_play


def _is_secondary(kind: str, category: str | None, position: Position) -> bool:
    if "secondary" in kind:
        return True
    if "primary" in kind:
        return False
    return category is not None and category not in position.primary


def _added_skills(ruleset: Ruleset, player: Player, position: Position) -> tuple[AddedSkill, ...]:
    added = []
    for advancement in player.active_advancements:
        if advancement.skill is None:
            continue  # a characteristic improvement is not a skill
        category = advancement.category
        if category is None:
            found = ruleset.find_skill(advancement.skill)
            category = found.category if found is not None else None
        added.append(
            AddedSkill(advancement.skill, _is_secondary(advancement.kind, category, position))
        )
    return tuple(added)


def tournament_roster(team: Team, ruleset: Ruleset) -> TournamentRoster:
    """The team as a tournament roster: players on the roster with the skills they took."""
    team_type = ruleset.team_type(team.team_type_id)
    players = []
    for player in roster(team):
        position = team_type.position(player.position_id)
        players.append(TournamentPlayer(position.id, _added_skills(ruleset, player, position)))
    return TournamentRoster(
        team.team_type_id,
        tuple(players),
        rerolls=team.rerolls,
        assistant_coaches=team.assistant_coaches,
        cheerleaders=team.cheerleaders,
        apothecary=team.apothecary,
        dedicated_fans=team.dedicated_fans,
    )


def _problem(ruleset: Ruleset, reason: Reason) -> RosterProblem:
    if reason.code == "elite_skill_over_cap":
        # The skill by its name in the reader's language.
        name = ruleset.text(current_language()).skill_name(str(reason.params["skill"]))
        reason = dataclasses.replace(reason, params={**reason.params, "skill": name})
    return RosterProblem(reason.code, refusal_text(reason))


def roster_problems(team: Team, settings: MatchedPlay) -> tuple[RosterProblem, ...]:
    """What the matched-play check finds wrong with a team already loaded with its players
    and their advancements (the organiser's list of rosters reads them all at once)."""
    ruleset = league_ruleset(team.league)
    check = check_tournament_roster(ruleset, tournament_roster(team, ruleset), settings)
    return tuple(_problem(ruleset, reason) for reason in check.decision.reasons)


def check_team(session: Session, team_id: int) -> RosterCheck:
    """The team's roster against its league's matched-play settings (anyone may look).

    Conflict when the league does not check tournament rosters.
    """
    team = get_team(session, team_id, ledger=False)
    settings = matched_play_settings(team.league)
    if settings is None:
        raise Conflict(
            gettext("%(league)s does not check tournament rosters.", league=team.league.name),
            code="matched_play_off",
        )
    ruleset = league_ruleset(team.league)
    tournament = tournament_roster(team, ruleset)
    check = check_tournament_roster(ruleset, tournament, settings)
    problems = tuple(_problem(ruleset, reason) for reason in check.decision.reasons)
    text = ruleset.text(current_language())
    team_type = ruleset.team_type(team.team_type_id)
    lines = []
    for player, entry in zip(roster(team), tournament.players, strict=True):
        position = team_type.position(entry.position)
        skills = tuple(
            SkillLine(
                text.skill_name(skill.name),
                skill.secondary,
                skill_point_cost(ruleset, settings, skill),
            )
            for skill in entry.skills
        )
        lines.append(
            PlayerLine(
                player.number, player.name, text.position_name(position.name), position.cost, skills
            )
        )
    return RosterCheck(team, settings, check, problems, tuple(lines))
