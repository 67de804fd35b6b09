"""Leagues: creation, settings, membership and seasons."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from league.i18n import format_number, gettext
from league.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from league.models import League, LeagueMember, Season, Team, User
from league.models.league import DEFAULT_TIE_BREAKERS, PAPER_SIZES, TIE_BREAKERS
from league.rules import Ruleset, RulesetError, load_ruleset, merge_house_rules, ruleset_ids
from league.rules.pairing import FIRST_ROUNDS
from league.services import audit
from league.services.access import (
    active_members,
    aware,
    get_league,
    get_team,
    may_own,
    require_commissioner,
)
from league.services.errors import Conflict, Forbidden, NotFound, RuleViolation
from league.services.recompute import recompute_team
from league.services.text import checked_name
from league.services.users import find_user


@dataclass(frozen=True, slots=True)
class LeagueSettings:
    name: str
    ruleset_id: str
    starting_treasury: int = 1_000_000
    points_win: int = 3
    points_draw: int = 1
    points_loss: int = 0
    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS
    house_rules: dict[str, Any] = field(default_factory=dict)
    #: Coaches may type in advancement dice rolled at the table (else: server dice only).
    table_dice_allowed: bool = False
    #: A match's live log both coaches confirmed finalises its result without a commissioner.
    log_finalises: bool = False
    #: Roster sheets print on this paper unless a print asks for another.
    paper_size: str = "a4"
    #: The league's language (league.i18n.LANGUAGES): its pages for visitors who chose
    #: none, its pack, webhook messages and calendar.
    default_language: str = DEFAULT_LANGUAGE
    #: Swiss pairings keep two entries of one club or nation apart where they can.
    pairing_avoid_same_club: bool = True
    #: How a Swiss first round is paired (league.rules.pairing.FIRST_ROUNDS).
    pairing_first_round: str = "random"
    #: Tournament day (docs/tournaments.md): rosters are submitted by the first; after the
    #: second only the organiser changes a roster that is not approved. None: no deadline.
    roster_deadline: datetime | None = None
    correction_deadline: datetime | None = None


#: Ten times a normal league's: far above any house rule, and a treasury stays 32-bit.
MAX_STARTING_TREASURY = 10_000_000


def current_settings(league: League) -> LeagueSettings:
    """The league's settings as stored: what the settings page and the API start from."""
    return LeagueSettings(
        league.name,
        league.ruleset_id,
        league.starting_treasury,
        league.points_win,
        league.points_draw,
        league.points_loss,
        tuple(league.tie_breakers),
        dict(league.house_rules or {}),
        table_dice_allowed=league.table_dice_allowed,
        log_finalises=league.log_finalises,
        paper_size=league.paper_size,
        default_language=league.default_language,
        pairing_avoid_same_club=league.pairing_avoid_same_club,
        pairing_first_round=league.pairing_first_round,
        roster_deadline=aware(league.roster_deadline),
        correction_deadline=aware(league.correction_deadline),
    )


#: The largest number each house-rules table takes: far beyond any real league, and small
#: enough that SPP and player values summed over a long career fit their 32-bit columns.
HOUSE_RULE_LIMITS = {"costs": 1_000, "spp_awards": 100, "value_increase": 10_000_000}


def _check_house_rule_limits(house_rules: dict[str, Any]) -> None:
    if not isinstance(house_rules, dict):
        return  # merge_house_rules refuses it with a clear message
    for section, limit in HOUSE_RULE_LIMITS.items():
        table = house_rules.get(section)
        if not isinstance(table, dict):
            continue  # the ruleset loader reports tables of the wrong shape
        for key, value in table.items():
            numbers = value if isinstance(value, list) else [value]
            if any(isinstance(n, int) and n > limit for n in numbers):
                raise RuleViolation(
                    gettext(
                        "House rules: %(section)s %(key)s must be at most %(limit)s.",
                        section=section.replace("_", " "),
                        key=key,
                        limit=format_number(limit),
                    ),
                    code="invalid_house_rules",
                    field=f"house_rules.{section}.{key}",
                )


def _house_rules_problem(ruleset: Ruleset, house_rules: Any) -> RuleViolation | None:
    try:
        _check_house_rule_limits(house_rules)
        merge_house_rules(ruleset, house_rules)
    except RuleViolation as error:
        return error
    except RulesetError as error:
        # The field names the offending key ("house_rules.costs.chosen_primary").
        return RuleViolation(
            gettext("House rules: %(detail)s", detail=error.detail),
            code="invalid_house_rules",
            field=f"house_rules.{error.key}" if error.key else "house_rules",
        )
    return None


def house_rules_problems(ruleset_id: str, house_rules: Any) -> list[RuleViolation]:
    """Everything wrong with `house_rules` for the ruleset, not only the first fault.

    Each entry of each table is checked on its own, so every faulty one is named; only
    when each is fine on its own are they checked together (shape, rules across entries).
    """
    if ruleset_id not in ruleset_ids():
        return []  # the ruleset itself is refused first
    ruleset = load_ruleset(ruleset_id)
    problems: dict[tuple[str | None, str], RuleViolation] = {}
    tables = house_rules.items() if isinstance(house_rules, dict) else ()
    for section, table in tables:
        for key, value in table.items() if isinstance(table, dict) else ():
            problem = _house_rules_problem(ruleset, {section: {key: value}})
            if problem:
                # A fault of the whole table ("this ruleset rolls for skills") comes once.
                problems.setdefault((problem.field, problem.message), problem)
    if not problems:
        problem = _house_rules_problem(ruleset, house_rules)
        return [problem] if problem else []
    return list(problems.values())


#: The API's names of the concession settings -> the house rule ``tournament``'s keys.
CONCESSION_KEYS = {
    "conceding_points": "concession_points",
    "credited_score": "concession_score",
}


def with_concessions(
    settings: LeagueSettings, concessions: dict[str, Any] | None
) -> LeagueSettings:
    """``settings`` with the concession scoring given (``conceding_points``,
    ``credited_score``; None clears one) written into the house rule ``tournament``,
    where the ruleset's data and the settings page keep them. Checked with the other
    house rules when the settings are saved."""
    if not concessions:
        return settings
    house = dict(settings.house_rules)
    tournament = dict(house.get("tournament") or {})
    for name, key in CONCESSION_KEYS.items():
        if name not in concessions:
            continue
        if concessions[name] is None:
            tournament.pop(key, None)
        else:
            tournament[key] = concessions[name]
    if tournament:
        house["tournament"] = tournament
    else:
        house.pop("tournament", None)
    return replace(settings, house_rules=house)


def _check_tie_breakers(codes: tuple[str, ...]) -> None:
    """Each tie-breaker known and picked at most once; the message names the first fault."""
    unknown = [code for code in codes if code not in TIE_BREAKERS]
    twice = [code for index, code in enumerate(codes) if code in codes[:index]]
    if unknown:
        detail = gettext("tie-breaker %(name)s is unknown", name=repr(unknown[0]))
    elif twice:
        detail = gettext("tie-breaker %(name)s is picked twice", name=repr(twice[0]))
    else:
        return
    raise RuleViolation(
        gettext("Pick each tie-breaker at most once, from the list (%(detail)s).", detail=detail),
        field="tie_breakers",
    )


def _validated(settings: LeagueSettings) -> LeagueSettings:
    checked_name(settings.name, field="name", what=gettext("A league name"), length=(3, 80))
    if settings.ruleset_id not in ruleset_ids():
        raise RuleViolation(
            gettext("Unknown ruleset %(ruleset)s.", ruleset=repr(settings.ruleset_id)),
            field="ruleset_id",
        )
    if settings.starting_treasury < 0:
        raise RuleViolation(
            gettext("The starting treasury cannot be negative."), field="starting_treasury"
        )
    if settings.starting_treasury > MAX_STARTING_TREASURY:
        raise RuleViolation(
            gettext(
                "The starting treasury is at most %(max)s gold.",
                max=format_number(MAX_STARTING_TREASURY),
            ),
            field="starting_treasury",
        )
    if settings.paper_size not in PAPER_SIZES:
        raise RuleViolation(
            gettext("Roster sheets print on A4 or US Letter paper."), field="paper_size"
        )
    if settings.default_language not in LANGUAGES:
        raise RuleViolation(
            gettext("Choose one of the languages offered."),
            code="unknown_language",
            field="default_language",
        )
    if not settings.points_win >= settings.points_draw >= settings.points_loss:
        raise RuleViolation(
            gettext("Points for a win, a draw and a loss must not increase in that order."),
            field="points_win",
        )
    if settings.pairing_first_round not in FIRST_ROUNDS:
        raise RuleViolation(
            gettext("The first round is drawn at random, seeded by rating, or paired by hand."),
            code="unknown_first_round",
            field="pairing.first_round",
        )
    _check_tie_breakers(settings.tie_breakers)
    _check_deadlines(settings)
    problems = house_rules_problems(settings.ruleset_id, settings.house_rules)
    if problems:
        raise problems[0]
    return settings


def _check_deadlines(settings: LeagueSettings) -> None:
    """Corrections come after submission: the correction deadline is not the earlier."""
    first, second = aware(settings.roster_deadline), aware(settings.correction_deadline)
    if first is not None and second is not None and second < first:
        raise RuleViolation(
            gettext("The correction deadline cannot come before the roster deadline."),
            code="deadlines_out_of_order",
            field="correction_deadline",
        )


def _apply(league: League, settings: LeagueSettings) -> None:
    league.name = settings.name.strip()
    league.ruleset_id = settings.ruleset_id
    league.starting_treasury = settings.starting_treasury
    league.points_win = settings.points_win
    league.points_draw = settings.points_draw
    league.points_loss = settings.points_loss
    league.tie_breakers = list(settings.tie_breakers)
    league.house_rules = dict(settings.house_rules)
    league.table_dice_allowed = settings.table_dice_allowed
    league.log_finalises = settings.log_finalises
    league.paper_size = settings.paper_size
    league.default_language = settings.default_language
    league.pairing_avoid_same_club = settings.pairing_avoid_same_club
    league.pairing_first_round = settings.pairing_first_round
    league.roster_deadline = aware(settings.roster_deadline)
    league.correction_deadline = aware(settings.correction_deadline)


def create_league(session: Session, actor: User, settings: LeagueSettings) -> League:
    """Create a league with its first season; its creator becomes its commissioner and owner."""
    settings = _validated(settings)
    league = League(join_token=secrets.token_urlsafe(16), owner_id=actor.id)
    _apply(league, settings)
    league.members.append(LeagueMember(user_id=actor.id, role="commissioner"))
    league.seasons.append(Season(number=1, name="Season 1"))
    session.add(league)
    session.flush()
    audit.record(session, actor, "league.create", "league", league.id, name=league.name)
    return league


def update_settings(
    session: Session, actor: User, league_id: int, settings: LeagueSettings
) -> League:
    league = get_league(session, league_id, lock="update")
    require_commissioner(league, actor)
    settings = _validated(settings)
    if settings.ruleset_id != league.ruleset_id and league.teams:
        # Not a rule about the value but about the league's state: a conflict (409 in the API).
        raise Conflict(
            gettext("The ruleset cannot change once the league has teams."), field="ruleset_id"
        )
    rules_changed = settings.house_rules != (league.house_rules or {})
    _apply(league, settings)
    session.flush()
    if rules_changed:
        # SPP awards and values come from the house rules: every cache follows them at once
        # (refused, as a correction is, where SPP already spent would be taken away).
        # Each team locked (in id order, as results lock them): a purchase or a result
        # under way finishes first, and its SPP are counted.
        for team_id in sorted(team.id for team in league.teams):
            recompute_team(session, get_team(session, team_id, for_update=True, history=False))
    audit.record(session, actor, "league.settings", "league", league.id)
    return league


def list_leagues(session: Session) -> list[League]:
    return list(
        session.scalars(select(League).order_by(League.name).options(selectinload(League.members)))
    )


def _add(session: Session, actor: User, league: League, user: User, role: str) -> LeagueMember:
    existing = next((m for m in league.members if m.user_id == user.id), None)
    if existing is not None and existing.removed_at is None:
        raise Conflict(
            gettext(
                "%(user)s is already a member of %(league)s.",
                user=user.username,
                league=league.name,
            )
        )
    if existing is not None:
        existing.removed_at = None
        existing.role = role
        member = existing
    else:
        member = LeagueMember(user_id=user.id, role=role)
        league.members.append(member)
    session.flush()
    audit.record(session, actor, "league.join", "league", league.id, user=user.username)
    return member


def add_member(session: Session, actor: User, league: League, user: User, role: str) -> None:
    """A commissioner adds `user` to `league` directly."""
    require_commissioner(league, actor)
    _add(session, actor, league, user, role)


def add_member_by_username(
    session: Session, actor: User, league_id: int, username: str
) -> LeagueMember:
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    user = find_user(session, username)
    if user is None:
        raise NotFound(
            gettext("There is no user called %(username)s.", username=repr(username)),
            field="username",
        )
    return _add(session, actor, league, user, "coach")


def valid_join_token(league: League, token: str) -> bool:
    """Is `token` the league's join token? (In constant time; any text may be given.)"""
    given = token.encode("utf-8", "surrogatepass")  # compare_digest takes only ASCII str
    return secrets.compare_digest(league.join_token.encode(), given)


def join_with_token(session: Session, user: User, league_id: int, token: str) -> LeagueMember:
    """A coach joins through the league's join link."""
    league = get_league(session, league_id)
    if not valid_join_token(league, token):
        raise Forbidden(
            gettext("This join link is not valid any more; ask the commissioner for a new one.")
        )
    return _add(session, user, league, user, "coach")


def _rotate_join_token(league: League) -> None:
    league.join_token = secrets.token_urlsafe(16)


def new_join_token(session: Session, actor: User, league_id: int) -> League:
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    _rotate_join_token(league)
    audit.record(session, actor, "league.join_link", "league", league.id)
    return league


def _member(league: League, user_id: int) -> LeagueMember:
    member = next(
        (m for m in league.members if m.user_id == user_id and m.removed_at is None), None
    )
    if member is None:
        raise NotFound(gettext("That person is not a member of this league."))
    return member


def promote(session: Session, actor: User, league_id: int, user_id: int) -> LeagueMember:
    """Make a coach a (co-)commissioner."""
    league = get_league(session, league_id)
    require_commissioner(league, actor)
    member = _member(league, user_id)
    member.role = "commissioner"
    audit.record(session, actor, "league.promote", "league", league.id, user_id=user_id)
    return member


def hand_over_ownership(
    session: Session, actor: User, league_id: int, user_id: int
) -> LeagueMember:
    """The owner makes another commissioner the league's owner (and stays a commissioner).

    Only the owner may: a co-commissioner (or a site admin) cannot take a league over."""
    league = get_league(session, league_id, lock="update")  # as remove_member: one at a time
    may_own(league, actor).require()
    member = _member(league, user_id)
    if member.user_id == league.owner_id:
        raise Conflict(gettext("%(user)s already owns this league.", user=member.user.username))
    if member.role != "commissioner":
        raise Conflict(
            gettext(
                "Only a commissioner can own the league: make %(user)s commissioner first.",
                user=member.user.username,
            )
        )
    league.owner_id = member.user_id
    audit.record(session, actor, "league.owner", "league", league.id, user_id=user_id)
    return member


def member_teams(league: League, user_id: int) -> list[Team]:
    """The teams of `league` whose coach is `user_id` (the league's teams, loaded with it)."""
    return [team for team in league.teams if team.coach_id == user_id]


def remove_member(
    session: Session,
    actor: User,
    league_id: int,
    user_id: int,
    *,
    hand_teams_to: str | None = None,
) -> LeagueMember:
    """Remove a member. Their teams stay in the league: handed to the member called
    `hand_teams_to`, or else left without a coach (only commissioners act on them, and the
    removed coach does not get them back by joining again). The join link changes, since
    the removed member knows it.

    Nobody removes the league's owner: the owner hands the league over first. The owner is
    always a commissioner (and no commissioner is demoted), so a league keeps one."""
    # Locked: a removal waits for a hand-over (or another removal) under way, so the owner
    # and the last commissioner are read as they are.
    league = get_league(session, league_id, lock="update")
    require_commissioner(league, actor)
    member = _member(league, user_id)
    if member.user_id == league.owner_id:
        raise Conflict(
            gettext(
                "%(user)s owns %(league)s and cannot be removed; "
                "only the owner can hand the league over to another commissioner.",
                user=member.user.username,
                league=league.name,
            )
        )
    heir = _heir(league, member, hand_teams_to) if hand_teams_to else None
    now = datetime.now(UTC)
    member.removed_at = now
    for team in member_teams(league, user_id):
        if heir is None:
            team.coachless_since = team.coachless_since or now
        else:
            team.coach = heir.user
            team.coachless_since = None
            audit.record(session, actor, "team.reassign", "team", team.id, coach=heir.user.username)
    _rotate_join_token(league)
    audit.record(session, actor, "league.remove", "league", league.id, user_id=user_id)
    return member


def _heir(league: League, leaving: LeagueMember, username: str) -> LeagueMember:
    """The member called `username` who takes over the teams of `leaving`."""
    name = username.strip().lower()
    heir = next(
        (
            m
            for m in active_members(league)
            if m.user.username.lower() == name and m.user_id != leaving.user_id
        ),
        None,
    )
    if heir is None:
        raise NotFound(
            gettext(
                "%(coach)s is not another member of %(league)s.",
                coach=repr(username),
                league=league.name,
            ),
            field="hand_teams_to",
        )
    return heir
