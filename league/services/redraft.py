"""The off-season re-draft: a team's budget, what it keeps, and the commissioner's approval.

After a season closes, each team of an edition with a re-draft works out its
budget (the edition's formula, capped unless the league lifts the cap), keeps
the players it re-hires at their value plus the agent's fee per season played,
and its staff and re-rolls at their standard price. Its coach submits; a
commissioner approves, and only then does the team change: players not kept
leave (kept in history), players missing a game recover, and the treasury
becomes what is left of the budget, booked in the ledger with the gold lost to
the cap. New players may be hired from the roster within what the budget leaves;
they join on approval. Rest and recovery: where the edition rolls for niggling
injuries (BB2025), a kept player's dice are rolled once, when the re-draft is
first submitted with him (server dice, or the coach's table dice where the
league allows them), and what they heal is applied on approval.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from league.i18n import format_number, gettext, ngettext
from league.models import Match, MatchPlayer, MatchTeam, Player, Redraft, Season, Team, User
from league.rules import Ruleset
from league.rules.model import RulesError, TeamType
from league.rules.refusals import refusal_text
from league.rules.seasons import (
    RedraftBudget,
    niggling_healed,
    niggling_roll_bonus,
    recovery_rolls_needed,
    redraft_budget,
    redraft_decision,
    rehire_cost,
)
from league.rules.team_building import hire_decision
from league.services import audit
from league.services import events as domain_events
from league.services.access import (
    get_team,
    may_manage_team,
    require_commissioner,
    roster,
    team_ruleset,
    team_type_of,
)
from league.services.errors import Conflict, NotFound, RuleViolation
from league.services.labels import season_name
from league.services.standings import standings
from league.services.teams import next_free_number, post_entry


@dataclass(frozen=True, slots=True)
class RedraftPlayer:
    player_id: int
    name: str
    number: int
    position_id: str
    value: int
    seasons_played: int
    cost: int
    niggling: int = 0


@dataclass(frozen=True, slots=True)
class HireOption:
    """A position of the team's roster a new player can be hired for."""

    position_id: str
    name: str
    cost: int


@dataclass(frozen=True, slots=True)
class RecoveryRoll:
    """A kept player's rest and recovery dice and what they heal."""

    player_id: int
    name: str
    dice: tuple[int, ...]
    #: "server" or "table" (entered by the coach).
    source: str
    healed: int
    #: Added to each die: the apothecary's bonus when the team keeps one.
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class StaffPrices:
    reroll: int
    assistant_coach: int
    cheerleader: int
    apothecary: int | None  # None: the roster has no apothecary
    max_rerolls: int
    #: None: no limit.
    max_assistant_coaches: int | None
    max_cheerleaders: int | None


@dataclass(frozen=True, slots=True)
class RedraftChoice:
    """What the coach keeps."""

    keep: frozenset[int]
    rerolls: int
    assistant_coaches: int
    cheerleaders: int
    apothecary: bool
    #: New players to hire, by position id (one entry each).
    hires: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RedraftPlan:
    team: Team
    season: Season
    budget: RedraftBudget
    players: tuple[RedraftPlayer, ...]
    prices: StaffPrices
    #: What the team holds now: the form's starting point.
    current: RedraftChoice
    submitted: Redraft | None
    ruleset: Ruleset
    team_type: TeamType
    positions: tuple[HireOption, ...] = ()

    @property
    def chosen(self) -> RedraftChoice:
        """What the coach submitted, else what the team holds now."""
        if self.submitted is None:
            return self.current
        return RedraftChoice(
            frozenset(self.submitted.kept_player_ids),
            self.submitted.rerolls,
            self.submitted.assistant_coaches,
            self.submitted.cheerleaders,
            self.submitted.apothecary,
            tuple(self.submitted.hires or ()),
        )

    def hire_cost(self, choice: RedraftChoice) -> int:
        prices = {option.position_id: option.cost for option in self.positions}
        return sum(prices.get(position_id, 0) for position_id in choice.hires)

    def cost(self, choice: RedraftChoice) -> int:
        kept = sum(p.cost for p in self.players if p.player_id in choice.keep)
        return (
            kept
            + self.hire_cost(choice)
            + choice.rerolls * self.prices.reroll
            + choice.assistant_coaches * self.prices.assistant_coach
            + choice.cheerleaders * self.prices.cheerleader
            + (self.prices.apothecary or 0) * choice.apothecary
        )

    def left(self, choice: RedraftChoice) -> int:
        """What the budget leaves after the choice (negative: over it)."""
        return self.budget.total - self.cost(choice)

    def rolls_needed(self, player: RedraftPlayer) -> int:
        return recovery_rolls_needed(self.ruleset, player.niggling)

    @property
    def recovery(self) -> tuple[RecoveryRoll, ...]:
        """The rolls made so far, with what they heal given the apothecary chosen.

        After approval, what they healed then.
        """
        if self.submitted is None:
            return ()
        names = {p.player_id: p.name for p in self.players}
        apothecary = self.chosen.apothecary
        rolls = []
        for entry in self.submitted.recovery or ():
            dice = tuple(entry["dice"])
            healed = entry.get("healed")
            if healed is None:
                healed = _healed(self.ruleset, dice, apothecary)
            rolls.append(
                RecoveryRoll(
                    entry["player_id"],
                    names.get(entry["player_id"], str(entry["player_id"])),
                    dice,
                    entry["source"],
                    healed,
                    niggling_roll_bonus(self.ruleset, apothecary=apothecary),
                )
            )
        return tuple(rolls)


def _healed(ruleset: Ruleset, dice: Sequence[int], apothecary: bool) -> int:
    """What rolls made (one die per niggling injury then) heal."""
    return niggling_healed(ruleset, len(dice), dice, apothecary=apothecary)


def _closed_season(team: Team) -> Season:
    closed = [s for s in team.league.seasons if s.closed_at is not None]
    if not closed:
        raise Conflict(
            gettext(
                "%(league)s has not closed a season yet: nothing to re-draft.",
                league=team.league.name,
            )
        )
    return closed[-1]


def _seasons_played(session: Session, player_ids: Collection[int]) -> dict[int, int]:
    """Seasons in which each player was on his team's roster when it played.

    The agent's fee is per season on the team, not per season with an event: a
    player counts for a season when the team played a match of it after he was
    hired, or when he took part in one (a journeyman hired for good later).
    """
    ids = list(player_ids)
    if not ids:
        return {}
    rostered = (
        select(Player.id, Match.season_id)
        .join(MatchTeam, MatchTeam.team_id == Player.team_id)
        .join(Match, Match.id == MatchTeam.match_id)
        .where(
            Player.id.in_(ids),
            Match.state == "played",
            Match.season_id.is_not(None),
            Player.created_at <= Match.played_at,
        )
    )
    took_part = (
        select(MatchPlayer.player_id, Match.season_id)
        .join(Match, MatchPlayer.match_id == Match.id)
        .where(
            MatchPlayer.player_id.in_(ids),
            Match.state == "played",
            Match.season_id.is_not(None),
        )
    )
    seasons = Counter(player_id for player_id, _ in session.execute(rostered.union(took_part)))
    return dict(seasons)


def _friendlies(session: Session, team: Team, season: Season) -> int:
    return (
        session.scalar(
            select(func.count(Match.id))
            .join(MatchTeam, MatchTeam.match_id == Match.id)
            .where(
                MatchTeam.team_id == team.id,
                Match.season_id == season.id,
                Match.state == "played",
                Match.friendly.is_(True),
            )
        )
        or 0
    )


def redraft_plan(session: Session, team_id: int, *, for_update: bool = False) -> RedraftPlan:
    """The team's re-draft after the league's last closed season."""
    team = get_team(session, team_id, for_update=for_update, history=False)
    ruleset = team_ruleset(team)
    decision = redraft_decision(ruleset)
    if not decision:
        raise RuleViolation(refusal_text(decision.reasons[0]), code="no_redraft")
    season = _closed_season(team)
    # A team that joined after the season closed played none of it.
    row = next(
        (r for r in standings(session, team.league, season.number).rows if r.team_id == team.id),
        None,
    )
    budget = redraft_budget(
        ruleset,
        treasury=team.treasury,
        league_fixtures=row.played if row else 0,
        friendlies=_friendlies(session, team, season),
        wins=row.won if row else 0,
        draws=row.drawn if row else 0,
    )
    on_roster = sorted(roster(team), key=lambda p: p.number)
    played = _seasons_played(session, [p.id for p in on_roster])
    players = tuple(
        RedraftPlayer(
            player_id=p.id,
            name=p.name,
            number=p.number,
            position_id=p.position_id,
            value=p.value,
            seasons_played=played.get(p.id, 0),
            cost=rehire_cost(ruleset, p.value, played.get(p.id, 0)),
            niggling=p.niggling_injuries,
        )
        for p in on_roster
    )
    building = ruleset.team_building
    team_type = team_type_of(team)
    prices = StaffPrices(
        reroll=team_type.reroll_cost,
        assistant_coach=building.assistant_coaches.cost,
        cheerleader=building.cheerleaders.cost,
        apothecary=building.apothecary_cost if team_type.apothecary else None,
        max_rerolls=building.max_rerolls,
        max_assistant_coaches=building.assistant_coaches.max,
        max_cheerleaders=building.cheerleaders.max,
    )
    submitted = session.scalar(
        select(Redraft).where(Redraft.team_id == team.id, Redraft.season_id == season.id)
    )
    current = RedraftChoice(
        keep=frozenset(p.player_id for p in players),
        rerolls=team.rerolls,
        assistant_coaches=team.assistant_coaches,
        cheerleaders=team.cheerleaders,
        apothecary=team.apothecary,
    )
    positions = tuple(
        HireOption(position.id, position.name, position.cost) for position in team_type.positions
    )
    return RedraftPlan(
        team, season, budget, players, prices, current, submitted, ruleset, team_type, positions
    )


def _from_zero_to(field: str, most: int) -> str:
    """The range a count of staff or re-rolls must be in ("From 0 to 8 team re-rolls.")."""
    if field == "rerolls":
        return ngettext("From 0 to %(num)d team re-roll.", "From 0 to %(num)d team re-rolls.", most)
    if field == "assistant_coaches":
        return ngettext(
            "From 0 to %(num)d assistant coach.", "From 0 to %(num)d assistant coaches.", most
        )
    return ngettext("From 0 to %(num)d cheerleader.", "From 0 to %(num)d cheerleaders.", most)


def choice_problems(plan: RedraftPlan, choice: RedraftChoice) -> dict[str, str]:
    """Why the choice cannot be submitted, per form field (empty: it can)."""
    problems: dict[str, str] = {}
    unknown = choice.keep - {p.player_id for p in plan.players}
    if unknown:
        problems["keep"] = gettext("Only players on the team's roster can be kept.")
    prices = plan.prices
    for field, count, most in (
        ("rerolls", choice.rerolls, prices.max_rerolls),
        ("assistant_coaches", choice.assistant_coaches, prices.max_assistant_coaches),
        ("cheerleaders", choice.cheerleaders, prices.max_cheerleaders),
    ):
        if count < 0 or (most is not None and count > most):
            problems[field] = (
                _from_zero_to(field, most) if most is not None else gettext("At least 0.")
            )
    if choice.apothecary and prices.apothecary is None:
        problems["apothecary"] = gettext("This team may not have an apothecary.")
    hire_problem = _hire_problem(plan, choice)
    if hire_problem is not None:
        problems["hires"] = hire_problem
    if not problems and plan.cost(choice) > plan.budget.total:
        problems["keep"] = gettext(
            "This costs %(cost)s, over the budget of %(budget)s.",
            cost=format_number(plan.cost(choice)),
            budget=format_number(plan.budget.total),
        )
    return problems


def _hire_problem(plan: RedraftPlan, choice: RedraftChoice) -> str | None:
    """Why the new players cannot all be hired next to those kept (None: they can)."""
    positions = {p.player_id: p.position_id for p in plan.players}
    counts = Counter(positions[player_id] for player_id in choice.keep if player_id in positions)
    for position_id in choice.hires:
        decision = hire_decision(plan.ruleset, plan.team_type, position_id, counts, None)
        if not decision:
            return refusal_text(decision.reasons[0], team=plan.team.name)
        counts[position_id] += 1
    return None


def _roll_recovery(
    plan: RedraftPlan,
    redraft: Redraft,
    choice: RedraftChoice,
    table_dice: Mapping[int, Sequence[int]],
    rng: random.Random,
) -> list[dict[str, object]]:
    """The recovery log with the rolls of kept players not rolled for yet.

    Rolled once: submitting again keeps the dice already made.
    """
    recovery: list[dict[str, object]] = [dict(entry) for entry in redraft.recovery or ()]
    rolled = {entry["player_id"] for entry in recovery}
    needing = {
        p.player_id: p
        for p in plan.players
        if p.player_id in choice.keep and plan.rolls_needed(p) and p.player_id not in rolled
    }
    if table_dice and not plan.team.league.table_dice_allowed:
        raise RuleViolation(
            gettext(
                "%(league)s uses server dice only: leave the dice out.",
                league=plan.team.league.name,
            ),
            code="invalid_dice",
            field="recovery",
        )
    for player_id, dice in table_dice.items():
        if player_id not in needing:
            raise RuleViolation(
                gettext(
                    "No rest and recovery roll is waiting for player number %(id)s.",
                    id=player_id,
                ),
                code="invalid_dice",
                field="recovery",
            )
        player = needing[player_id]
        try:
            niggling_healed(plan.ruleset, player.niggling, dice, apothecary=False)
        except RulesError:
            raise RuleViolation(
                ngettext(
                    "%(name)s rolls %(num)d D6 (1 to 6), one per niggling injury.",
                    "%(name)s rolls %(num)d D6 (1 to 6 each), one per niggling injury.",
                    player.niggling,
                    name=player.name,
                ),
                code="invalid_dice",
                field="recovery",
            ) from None
    for player_id, player in needing.items():
        if player_id in table_dice:
            dice, source = list(table_dice[player_id]), "table"
        else:
            dice = [rng.randint(1, 6) for _ in range(plan.rolls_needed(player))]
            source = "server"
        recovery.append({"player_id": player_id, "dice": dice, "source": source})
    return recovery


def submit_redraft(
    session: Session,
    actor: User,
    team_id: int,
    choice: RedraftChoice,
    *,
    table_dice: Mapping[int, Sequence[int]] | None = None,
    rng: random.Random | None = None,
) -> Redraft:
    """The coach (or a commissioner) submits the re-draft for approval.

    Kept players due a rest and recovery roll get it now (``table_dice`` by
    player id where the league allows table dice; the server's otherwise).
    """
    plan = redraft_plan(session, team_id, for_update=True)
    may_manage_team(plan.team, actor, "redraft").require()
    if plan.submitted is not None and plan.submitted.state == "approved":
        raise Conflict(
            gettext(
                "%(team)s's re-draft after %(season)s is approved already.",
                team=plan.team.name,
                season=season_name(plan.season.name),
            )
        )
    problems = choice_problems(plan, choice)
    if problems:
        field, message = next(iter(problems.items()))
        raise RuleViolation(message, field=field, code="redraft_refused")
    redraft = plan.submitted or Redraft(team_id=plan.team.id, season_id=plan.season.id)
    redraft.recovery = _roll_recovery(
        plan, redraft, choice, table_dice or {}, rng or random.SystemRandom()
    )
    redraft.hires = list(choice.hires)
    redraft.kept_player_ids = sorted(choice.keep)
    redraft.rerolls = choice.rerolls
    redraft.assistant_coaches = choice.assistant_coaches
    redraft.cheerleaders = choice.cheerleaders
    redraft.apothecary = choice.apothecary
    redraft.budget = plan.budget.total
    redraft.spent = plan.cost(choice)
    redraft.lost_to_cap = plan.budget.lost_to_cap
    redraft.submitted_by_id = actor.id
    session.add(redraft)
    session.flush()
    audit.record(session, actor, "team.redraft_submitted", "team", plan.team.id, cost=redraft.spent)
    return redraft


def approve_redraft(session: Session, actor: User, team_id: int) -> Team:
    """A commissioner approves the submitted re-draft: the team changes now."""
    plan = redraft_plan(session, team_id, for_update=True)
    team = plan.team
    require_commissioner(team.league, actor)
    redraft = plan.submitted
    if redraft is None:
        raise NotFound(
            gettext(
                "%(team)s has not submitted a re-draft after %(season)s.",
                team=team.name,
                season=season_name(plan.season.name),
            )
        )
    if redraft.state == "approved":
        raise Conflict(
            gettext(
                "%(team)s's re-draft after %(season)s is approved already.",
                team=team.name,
                season=season_name(plan.season.name),
            )
        )
    choice = plan.chosen
    # The treasury was counted when the coach submitted: it must still be the same.
    problems = choice_problems(plan, choice)
    if problems or plan.budget.total != redraft.budget:
        raise Conflict(
            gettext(
                "%(team)s changed since its re-draft was submitted: submit it again.",
                team=team.name,
            )
        )
    healed_log = []
    for entry in redraft.recovery or ():
        entry = dict(entry)
        if entry["player_id"] in choice.keep:
            entry["healed"] = _healed(plan.ruleset, entry["dice"], choice.apothecary)
        healed_log.append(entry)
    healed = {entry["player_id"]: entry.get("healed", 0) for entry in healed_log}
    for player in roster(team):
        if player.id in choice.keep:
            player.status = "active"  # rest and recovery: a missed game is over
            player.niggling_injuries = max(0, player.niggling_injuries - healed.get(player.id, 0))
        else:
            player.status = "retired"
    redraft.recovery = healed_log
    hired = _hire(session, team, plan, choice)
    team.rerolls = choice.rerolls
    team.assistant_coaches = choice.assistant_coaches
    team.cheerleaders = choice.cheerleaders
    team.apothecary = choice.apothecary
    _book(session, actor, team, plan, redraft.spent, plan.hire_cost(choice), len(hired))
    redraft.state = "approved"
    redraft.approved_by_id = actor.id
    redraft.approved_at = datetime.now(UTC)
    audit.record(session, actor, "team.redraft_approved", "team", team.id, cost=redraft.spent)
    domain_events.record(session, domain_events.TeamRedrafted(team.league_id, team.id))
    return team


def _hire(session: Session, team: Team, plan: RedraftPlan, choice: RedraftChoice) -> list[Player]:
    """The new players, named after their position until their coach renames them."""
    hired = []
    for position_id in choice.hires:
        position = plan.team_type.position(position_id)
        number = next_free_number(team)
        if number is None:  # refused before: a roster holds at most 16
            raise Conflict(gettext("Every shirt number is taken."))
        player = Player(
            team=team,
            position_id=position.id,
            name=f"{position.name} {number}",
            number=number,
            status="active",
            cost=position.cost,
            value=position.cost,
        )
        session.add(player)
        hired.append(player)
    session.flush()
    return hired


def _book(
    session: Session,
    actor: User,
    team: Team,
    plan: RedraftPlan,
    spent: int,
    hire_cost: int = 0,
    hires: int = 0,
) -> None:
    """The treasury goes into the budget and comes back as what the re-draft left."""
    budget = plan.budget
    cap_note = f", {budget.lost_to_cap:,} lost to the cap" if budget.lost_to_cap else ""
    post_entry(
        session,
        team,
        actor,
        budget.total - budget.treasury,
        "redraft",
        f"Re-draft budget after {plan.season.name}: {budget.total:,}{cap_note}",
        season_id=plan.season.id,
    )
    post_entry(
        session,
        team,
        actor,
        -(spent - hire_cost),
        "redraft",
        f"Re-draft after {plan.season.name}: players, staff and re-rolls kept",
        season_id=plan.season.id,
    )
    if hires:
        post_entry(
            session,
            team,
            actor,
            -hire_cost,
            "redraft",
            f"Re-draft after {plan.season.name}: {hires} new player(s) hired",
            season_id=plan.season.id,
        )
