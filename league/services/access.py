"""The bottom layer of the services: finding a league, team or player, and who may act on it.

Every use case (leagues, teams, matches, ...) reads through here; nothing here calls a use
case, so the lookups never import their callers (the `layers` contract in pyproject.toml).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Literal

from sqlalchemy import and_, event, inspect, select
from sqlalchemy.orm import Session, joinedload, object_session, selectinload
from sqlalchemy.orm.interfaces import LoaderOption

from league.i18n import N_, gettext
from league.models import League, LeagueMember, Match, Player, Team, User
from league.models.player import ON_ROSTER
from league.models.types import utcnow
from league.rules import Ruleset, load_ruleset, merge_house_rules
from league.rules.matched_play import roster_change
from league.rules.model import TeamType
from league.rules.refusals import refusal_text
from league.services.errors import Conflict, Forbidden, NotFound


@lru_cache(maxsize=256)
def _merged_ruleset(ruleset_id: str, house_rules_json: str) -> Ruleset:
    return merge_house_rules(load_ruleset(ruleset_id), json.loads(house_rules_json))


def league_ruleset(league: League) -> Ruleset:
    """The league's ruleset with its house rules and starting treasury applied."""
    overrides = {**(league.house_rules or {}), "starting_treasury": league.starting_treasury}
    return _merged_ruleset(league.ruleset_id, json.dumps(overrides, sort_keys=True))


LeagueCollection = Literal["members", "seasons", "teams"]
_COLLECTIONS: tuple[LeagueCollection, ...] = ("members", "seasons", "teams")


def get_league(
    session: Session,
    league_id: int,
    *,
    collections: bool | Collection[LeagueCollection] = True,
    lock: Literal["share", "update"] | None = None,
) -> League:
    """The league; with `collections` (the default: pages list them) its members, seasons and
    teams come along, or only those named (a page that lists no members: `role_in` then
    reads the viewer's own row). A write that needs only the league's settings passes False
    (they grow with the league) and asks `role_in` with its session.

    `lock`: "update" while the settings change (PostgreSQL's FOR NO KEY UPDATE, so rows that
    merely reference the league are not held up); "share" for a write that applies the
    league's rules to every team of a result, so it waits for a settings change under way
    and reads the new rules (FOR SHARE: results do not wait for one another).
    """
    query = select(League).where(League.id == league_id)
    if lock is not None:
        query = query.with_for_update(
            read=lock == "share", key_share=lock == "update"
        ).execution_options(populate_existing=True)
    wanted = set(_COLLECTIONS if collections is True else collections or ())
    if "members" in wanted:
        # One query each: the members with their users, the teams with their coaches.
        query = query.options(selectinload(League.members).joinedload(LeagueMember.user))
    if "teams" in wanted:
        query = query.options(selectinload(League.teams).joinedload(Team.coach))
    if "seasons" in wanted:
        # A few rows: in the league's own query, unless it locks (FOR UPDATE takes no
        # outer join on PostgreSQL).
        query = query.options(selectinload(League.seasons) if lock else joinedload(League.seasons))
    league = session.execute(query).unique().scalar_one_or_none()
    if league is None:
        raise NotFound(gettext("There is no league number %(id)s.", id=league_id))
    return league


def membership(
    league: League, user: User | None, session: Session | None = None
) -> LeagueMember | None:
    """The user's current membership. With a `session` (a write that loaded the league
    without its members), only the user's own row is read, not every member's."""
    if user is None or not user.is_authenticated:
        return None
    if session is not None:
        return _own_membership(session, league.id, user.id)
    loaded_in = object_session(league)
    if loaded_in is not None and "members" in inspect(league).unloaded:
        # A page that lists no members: the viewer's own row its variant already read.
        known: dict[tuple[int, int], LeagueMember | None] = loaded_in.info.get(_VIEWERS, {})
        if (league.id, user.id) in known:
            return known[(league.id, user.id)]
    return next((m for m in league.members if m.user_id == user.id and m.removed_at is None), None)


def _own_membership(session: Session, league_id: int, user_id: int) -> LeagueMember | None:
    return session.scalar(
        select(LeagueMember).where(
            LeagueMember.league_id == league_id,
            LeagueMember.user_id == user_id,
            LeagueMember.removed_at.is_(None),
        )
    )


#: session.info key: the viewers' memberships a page's reads found, (league id, user id) ->
#: the row or None. Forgotten when the session writes or its transaction ends.
_VIEWERS = "league_viewers"


def viewer_membership(session: Session, league_id: int, user_id: int) -> LeagueMember | None:
    """The user's current membership, read at most once per read transaction (a page's
    variant and its render both ask)."""
    if session.new or session.dirty or session.deleted:
        return _own_membership(session, league_id, user_id)
    known: dict[tuple[int, int], LeagueMember | None] = session.info.setdefault(_VIEWERS, {})
    key = (league_id, user_id)
    if key not in known:
        known[key] = _own_membership(session, league_id, user_id)
    return known[key]


def remember_viewer(
    session: Session, league_id: int, user_id: int, member: LeagueMember | None
) -> None:
    """Keep the user's membership (or None) that the caller's own query found, so that
    `viewer_membership` reads nothing."""
    session.info.setdefault(_VIEWERS, {})[(league_id, user_id)] = member


@event.listens_for(Session, "after_flush")
@event.listens_for(Session, "after_transaction_end")
def _forget_viewers(session: Session, *_args: object) -> None:
    session.info.pop(_VIEWERS, None)


def viewer_role(session: Session, league_id: int, user: User | None) -> str | None:
    """`role_in` without loading the league (one query): which shared copy of a league's
    page a visitor gets (league.caching.shared_page)."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_admin:
        return "commissioner"
    member = viewer_membership(session, league_id, user.id)
    return member.role if member else None


def role_in(league: League, user: User | None, session: Session | None = None) -> str | None:
    """'commissioner', 'coach' or None; site admins act as commissioners. `session`: as
    for `membership`."""
    if user is not None and user.is_authenticated and user.is_admin:
        return "commissioner"
    member = membership(league, user, session)
    return member.role if member else None


def require_commissioner(league: League, actor: User) -> None:
    may_commission(league, actor).require()


def active_members(league: League) -> list[LeagueMember]:
    return [m for m in league.members if m.removed_at is None]


def is_owner(league: League, user: User | None) -> bool:
    return user is not None and user.is_authenticated and user.id == league.owner_id


def get_team(
    session: Session,
    team_id: int,
    *,
    for_update: bool = False,
    history: bool = True,
    ledger: bool = True,
    players: bool = True,
) -> Team:
    """The team; `for_update` locks its row so spending from it is serialised.

    With `history` (the default) the players' advancements and (unless `ledger` is
    False: the player page shows none of it) the ledger come along; services that
    need neither pass False, so their cost does not grow with the team's history
    (the collections still load on first use). A write about one player that needs
    no roster passes `players=False`: the dead stay on the books.
    """
    query = select(Team).where(Team.id == team_id)
    if for_update:
        # FOR NO KEY UPDATE: rows that merely reference this one (a new match, ledger entry or
        # player) take KEY SHARE locks, which must not deadlock with it. Locked, the row is
        # read again: what this session loaded earlier must not stay stale.
        query = query.with_for_update(key_share=True).execution_options(populate_existing=True)
    options = _team_options(for_update=for_update, history=history, ledger=ledger, players=players)
    team = session.scalar(query.options(*options))
    if team is None:
        raise NotFound(gettext("There is no team number %(id)s.", id=team_id))
    if for_update:
        # Its players are locked next (team first, then players, everywhere), so the SPP
        # balances recomputed or checked here cannot change meanwhile: an advancement bought
        # at the same time locks its player and waits, or is waited for.
        session.scalars(
            select(Player)
            .where(Player.team_id == team_id)
            .with_for_update(key_share=True)
            .execution_options(populate_existing=True)
        ).all()
    return team


def _team_options(
    *, for_update: bool, history: bool, ledger: bool, players: bool
) -> list[LoaderOption]:
    """How `get_team` loads what comes with the team."""
    options: list[LoaderOption] = []
    if players:
        roster = selectinload(Team.players)
        options.append(roster.selectinload(Player.advancements) if history else roster)
    if history and ledger:
        options.append(selectinload(Team.ledger))
    if for_update:
        options.append(selectinload(Team.coach))  # a join would lock the coach's row too
    else:
        # A page's read: the coach and the league come in the team's own query.
        options += [joinedload(Team.coach), joinedload(Team.league)]
    return options


def get_player_and_team(session: Session, player_id: int) -> tuple[Player, Team]:
    """The player's page: his team, as `get_team` reads it without the ledger, and the
    player among its players (one query less than reading him first)."""
    options = _team_options(for_update=False, history=True, ledger=False, players=True)
    team = session.scalar(
        select(Team)
        .join(Player, Player.team_id == Team.id)
        .where(Player.id == player_id)
        .options(*options)
    )
    if team is None:
        raise NotFound(gettext("There is no player number %(id)s.", id=player_id))
    return next(p for p in team.players if p.id == player_id), team


def team_ruleset(team: Team) -> Ruleset:
    return league_ruleset(team.league)


def team_type_of(team: Team) -> TeamType:
    return team_ruleset(team).team_type(team.team_type_id)


def roster(team: Team) -> list[Player]:
    """Players still on the roster (active or missing the next game)."""
    return [p for p in team.players if p.status in ON_ROSTER]


def team_viewer(
    session: Session, user: User | None, team_id: int | None = None, *, player_id: int | None = None
) -> tuple[int, str | None]:
    """The coach of the team (or of player `player_id`'s team) and the user's role in its
    league (as `role_in` gives it), in one query, remembered for the page's render: which
    shared copy of a team's or a player's page a visitor gets."""
    user_id = user.id if user is not None and user.is_authenticated else None
    query = select(Team.league_id, Team.coach_id, LeagueMember).outerjoin(
        LeagueMember,
        and_(
            LeagueMember.league_id == Team.league_id,
            LeagueMember.user_id == user_id,
            LeagueMember.removed_at.is_(None),
        ),
    )
    if player_id is not None:
        query = query.join(Player, Player.team_id == Team.id).where(Player.id == player_id)
    else:
        query = query.where(Team.id == team_id)
    found = session.execute(query).one_or_none()
    if found is None:
        if player_id is not None:
            raise NotFound(gettext("There is no player number %(id)s.", id=player_id))
        raise NotFound(gettext("There is no team number %(id)s.", id=team_id))
    league_id, coach_id, member = found
    if user_id is None:
        return coach_id, None
    remember_viewer(session, league_id, user_id, member)
    if user is not None and user.is_admin:
        return coach_id, "commissioner"
    return coach_id, member.role if member else None


def can_manage(team: Team, user: User | None, session: Session | None = None) -> bool:
    """The league's commissioners (and site admins) manage a team, and so does its coach
    while a member of its league: a coach removed from the league loses control of it, and
    a team left without a coach (`coachless_since`) is the commissioners' alone, even if its
    former coach joins again. `session`: for a write, whose league came without its members
    (see `role_in`)."""
    role = role_in(team.league, user, session)
    if role == "commissioner":
        return True
    return (
        role is not None
        and user is not None
        and user.id == team.coach_id
        and team.coachless_since is None
    )


def require_manager(team: Team, actor: User) -> None:
    may_manage_team(team, actor).require()


def get_player(session: Session, player_id: int, *, for_update: bool = False) -> Player:
    query = select(Player).where(Player.id == player_id)
    if for_update:
        # FOR NO KEY UPDATE: rows that merely reference this one (a new match, ledger entry or
        # player) take KEY SHARE locks, which must not deadlock with it. Locked, the row is
        # read again: what this session loaded earlier must not stay stale.
        query = query.with_for_update(key_share=True).execution_options(populate_existing=True)
    player = session.scalar(query)
    if player is None:
        raise NotFound(gettext("There is no player number %(id)s.", id=player_id))
    return player


# ---------------------------------------------------------------------------
# Who may: the permission decisions, each with its reason
#
# Pages and services ask the same decision: a page before it shows a form (its 403 page
# says why), the service again when it acts. Each refusal's sentence is written here once.


@dataclass(frozen=True, slots=True)
class Access:
    """A permission decision: whether the user may, and if not why (in the reader's
    language). True when allowed, so a template can show or hide a control with it."""

    allowed: bool
    reason: str = ""
    #: A refusal about the thing's state rather than the user (a locked roster): its
    #: code, and `require` answers Conflict (409) with it instead of Forbidden.
    code: str = ""

    def __bool__(self) -> bool:
        return self.allowed

    def require(self) -> None:
        """Refuse (Forbidden, with the reason: the web's 403 page, the API's 403) unless allowed."""
        if not self.allowed:
            if self.code:
                raise Conflict(self.reason, code=self.code)
            raise Forbidden(self.reason)


ALLOWED = Access(True)

#: What a commissioner alone may do, and the sentence refusing everybody else.
CommissionerTask = Literal[
    "default",
    "settings",
    "members",
    "close_season",
    "reopen_season",
    "record_results",
    "schedule",
    "correct_result",
    "finalise_result",
    "void",
    "generate_fixtures",
    "add_fixtures",
    "seed_playoffs",
    "divisions",
    "approve_redraft",
    "treasury",
    "hand_over_team",
    "team_for_another",
    "print_pack",
    "webhooks",
    "approve_rosters",
    "enter_round",
    "discord",
]
_COMMISSIONERS_ONLY: dict[CommissionerTask, str] = {
    "default": N_("Only a commissioner of %(league)s can do that."),
    "settings": N_("Only a commissioner can change the league's settings."),
    "members": N_("Only a commissioner can manage the members."),
    "close_season": N_("Only a commissioner can close a season."),
    "reopen_season": N_("Only a commissioner can reopen a season."),
    "record_results": N_("Only a commissioner of %(league)s can record results."),
    "schedule": N_("Only a commissioner of %(league)s can schedule matches."),
    "correct_result": N_("Only a commissioner can correct a result."),
    "finalise_result": N_("Only a commissioner can finalise a result; save a draft instead."),
    "void": N_("Only a commissioner can void a match."),
    "generate_fixtures": N_("Only a commissioner of %(league)s can generate fixtures."),
    "add_fixtures": N_("Only a commissioner of %(league)s can add fixtures."),
    "seed_playoffs": N_("Only a commissioner can seed the playoffs."),
    "divisions": N_("Only a commissioner can change the divisions."),
    "approve_redraft": N_("Only a commissioner can approve a re-draft."),
    "treasury": N_("Only a commissioner can adjust a treasury."),
    "hand_over_team": N_("Only a commissioner can hand a team to another coach."),
    "team_for_another": N_("Only a commissioner can create a team for another coach."),
    "print_pack": N_("Only a commissioner of %(league)s can print the league pack."),
    "webhooks": N_("Only a commissioner of %(league)s manages its webhooks."),
    "approve_rosters": N_("Only the organiser (a commissioner of %(league)s) approves rosters."),
    "enter_round": N_(
        "Only the organiser (a commissioner of %(league)s) enters a round's results."
    ),
    "discord": N_("Only a commissioner of %(league)s connects it to Discord."),
}

#: What a team's coach (while a member) and the commissioners may do to it.
ManagerTask = Literal[
    "default",
    "any",
    "hire",
    "edit_player",
    "advance",
    "redraft",
    "pregame",
    "journeymen",
    "mvp",
    "departures",
    "identity",
    "times",
]
_MANAGERS_ONLY: dict[ManagerTask, str] = {
    "default": N_("Only %(team)s's coach or a commissioner can change this team."),
    "any": N_("Only %(team)s's coach or a commissioner can do that."),
    "hire": N_("Only %(team)s's coach or a commissioner can hire players."),
    "edit_player": N_("Only the player's coach or a commissioner can edit him."),
    "advance": N_("Only %(team)s's coach or a commissioner can advance its players."),
    "redraft": N_("Only %(team)s's coach or a commissioner can re-draft it."),
    "pregame": N_("Only %(team)s's coach or a commissioner chooses its pre-game."),
    "journeymen": N_("Only %(team)s's coach or a commissioner hires its journeymen."),
    "mvp": N_("Only %(team)s's coach or a commissioner draws its MVP."),
    "departures": N_("Only %(team)s's coach or a commissioner rolls its departures."),
    "times": N_("Only %(team)s's coach or a commissioner offers its times."),
    "identity": N_("Only %(team)s's coach or a commissioner can change its colours and logo."),
}

#: What either side's manager may do to a match's report.
ReportTask = Literal["report", "edit_report", "times"]
_SIDES_ONLY: dict[ReportTask, str] = {
    "report": N_("Only the two coaches and the commissioners can report this match."),
    "edit_report": N_("Only the two coaches and the commissioners can edit this report."),
    "times": N_("Only the two coaches and the commissioners offer and agree its times."),
}


def _decided(allowed: bool, reason: str, **names: object) -> Access:
    """`reason` (marked with N_) translated only when it is needed: on a refusal."""
    return ALLOWED if allowed else Access(False, gettext(reason, **names))


def may_commission(
    league: League,
    user: User | None,
    task: CommissionerTask = "default",
    session: Session | None = None,
) -> Access:
    """A commissioner's `task` in `league` (site admins act as commissioners). `session`:
    as for `role_in`."""
    allowed = role_in(league, user, session) == "commissioner"
    return _decided(allowed, _COMMISSIONERS_ONLY[task], league=league.name)


def may_manage_team(
    team: Team,
    user: User | None,
    task: ManagerTask = "default",
    session: Session | None = None,
) -> Access:
    """`task` on `team`: its coach's or a commissioner's (`can_manage`)."""
    return _decided(can_manage(team, user, session), _MANAGERS_ONLY[task], team=team.name)


def aware(moment: datetime | None) -> datetime | None:
    """A moment in UTC (SQLite gives a stored one back without its time zone: UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        return moment.astimezone(UTC)
    return moment.replace(tzinfo=UTC)


def corrections_closed(league: League, now: datetime | None = None) -> bool:
    """Has the league's event passed its correction deadline?"""
    deadline = aware(league.correction_deadline)
    return deadline is not None and (now or utcnow()) >= deadline


def may_change_roster(
    team: Team,
    user: User | None,
    task: ManagerTask = "default",
    session: Session | None = None,
) -> Access:
    """`task` changes the roster (hire, fire, staff, advance, edit a player): the team's
    managers may (`may_manage_team`), unless its approved roster is locked for the event,
    or the correction deadline has passed and `user` is not the organiser
    (`league.rules.matched_play.roster_change`)."""
    managed = may_manage_team(team, user, task, session)
    if not managed:
        return managed
    decision = roster_change(
        state=team.roster_state,
        organiser=role_in(team.league, user, session) == "commissioner",
        corrections_closed=corrections_closed(team.league),
    )
    if decision:
        return ALLOWED
    reason = decision.reasons[0]
    return Access(False, refusal_text(reason, team=team.name), reason.code)


def may_report(match: Match, user: User | None, task: ReportTask = "report") -> Access:
    """A match's report is its two teams' managers' to fill in (a commissioner finalises it)."""
    allowed = any(can_manage(side.team, user) for side in match.sides)
    return _decided(allowed, _SIDES_ONLY[task])


def may_own(league: League, user: User | None) -> Access:
    """What only the league's owner may do: hand it over."""
    return _decided(
        is_owner(league, user),
        N_("Only the owner of %(league)s can hand it over."),
        league=league.name,
    )


def may_draft(league: League, user: User | None) -> Access:
    """Drafting a team in `league`: its members' (and site admins')."""
    return _decided(
        role_in(league, user) is not None,
        N_("Join %(league)s before drafting a team there."),
        league=league.name,
    )
