"""Recomputing the cached balances of teams and players from the stored events.

A played match's rows (MatchTeam, MatchPlayer) are the events; `recompute_team`
rebuilds what they cause (SPP, injuries, missed games, dedicated fans, the
treasury) after every result, correction and void; `check_all` compares or
repairs every team (`flask recompute`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, and_, case, func, literal, select
from sqlalchemy.orm import Session

from league.i18n import format_list, gettext
from league.models import (
    Match,
    MatchPlayer,
    MatchTeam,
    Player,
    PlayerOpening,
    PregameSide,
    Redraft,
    Season,
    Team,
    TeamOpening,
    TreasuryEntry,
)
from league.rules import (
    SPP_EVENTS,
    Ruleset,
    TeamType,
    casualty_result_for_code,
    spp_awards,
    stat_label,
)
from league.services.access import league_ruleset, team_type_of
from league.services.errors import Conflict
from league.services.teams import ITEMS

#: A player's statuses once off the books: only a result that names him changes his caches.
OFF_THE_BOOKS = ("dead", "fired", "retired")

#: A player's injuries over his appearances: (injury, lasting, how many, in the last match).
_Injuries = list[tuple[str, str | None, int, bool]]

#: SPP event names whose match_player column is called differently.
SPP_COLUMNS = {"int": "interceptions"}


@dataclass(frozen=True, slots=True)
class Difference:
    """A cached value that does not match what the events say."""

    what: str
    cached: object
    computed: object

    def __str__(self) -> str:
        return f"{self.what}: stored {self.cached!r}, events say {self.computed!r}"


@dataclass(frozen=True, slots=True)
class ResultScope:
    """What recording or voiding one result can change: the SPP of its match's lines, and
    the caches of the players it names (now, and before a correction) and of those still on
    the books. The others (dead, fired, retired, not named) keep caches it cannot change."""

    match_id: int
    named: frozenset[int]


def recompute_team(
    session: Session, team: Team, *, fix: bool = True, scope: ResultScope | None = None
) -> list[Difference]:
    """Rebuild the team's and its players' caches from the stored events.

    With fix=False nothing changes and the differences are returned (`flask
    recompute --check`). Refuses (Conflict) when SPP already spent would be
    taken away.

    The events are summed in SQL (a constant number of small queries). After a
    result, `scope` narrows the rebuild to what the result can change, so its cost
    grows neither with the team's dead nor with the matches before it.
    """
    players = [
        p
        for p in team.players
        if scope is None or p.id in scope.named or p.status not in OFF_THE_BOOKS
    ]
    # The appearances summed: every one of the team's, or those of the players rebuilt.
    appearances = _appearances_of(team)
    lines = appearances
    if scope is not None:
        appearances = appearances.where(MatchPlayer.player_id.in_([p.id for p in players]))
        lines = lines.where(MatchPlayer.match_id == scope.match_id)
    ruleset = league_ruleset(team.league)
    team_type = team_type_of(team)
    last_id = session.scalar(
        _played_by(team)
        .with_only_columns(Match.id)
        .order_by(Match.played_at.desc(), Match.id.desc())
        .limit(1)
    )
    # Imported teams: the history they brought along is where their balances start.
    openings = player_openings(session, team)
    team_opening = session.get(TeamOpening, team.id)
    differences: list[Difference] = []

    def settle(owner: object, attribute: str, value: object, label: str) -> None:
        cached = getattr(owner, attribute)
        if cached != value:
            differences.append(Difference(label, cached, value))
            if fix:
                setattr(owner, attribute, value)

    _fix_appearance_spp(session, lines, ruleset, team_type, differences, fix)
    spp, injuries = _appearance_totals(session, appearances, last_id)
    redrafts, healed, rested = _redraft_recovery(session, team, last_id)
    for player in players:
        opening = openings.get(player.id)
        reductions, niggling, dead, missing_next = _injury_state(
            ruleset, opening, injuries.get(player.id, []), last_id, rested=rested
        )
        opening_spp = opening.spp if opening else 0
        label = f"{team.name} / {player.name}"
        earned_total = opening_spp + int(spp.get(player.id) or 0)
        if fix:
            _refuse_unspending(player, earned_total)
        settle(player, "spp_earned", earned_total, f"{label} SPP earned")
        niggling = max(0, niggling - healed.get(player.id, 0))
        settle(player, "niggling_injuries", niggling, f"{label} niggling injuries")
        for characteristic, steps in reductions.items():
            settle(player, f"{characteristic}_reduction", steps, f"{label} -{characteristic}")
        # Journeymen (until hired), mercenaries and stars keep their status: they are
        # off the roster whatever the match did to them (a star's injuries are not carried).
        if player.status not in ("fired", "retired") and not player.match_day_only:
            status = "dead" if dead else "mng" if missing_next else "active"
            settle(player, "status", status, f"{label} status")
    fans_before = team_opening.fans_change if team_opening else 0
    _recompute_team_items(
        session, team, ruleset, settle, fans_before, redrafts[-1] if redrafts else None
    )
    return differences


def _fix_appearance_spp(
    session: Session,
    lines: Select[tuple[MatchPlayer]],
    ruleset: Ruleset,
    team_type: TeamType,
    differences: list[Difference],
    fix: bool,
) -> None:
    """Each appearance's SPP by the ruleset: only the lines whose stored value differs come back."""
    earned = _appearance_spp(ruleset, team_type)
    for appearance_id, match_id, player_id, cached, computed in session.execute(
        lines.with_only_columns(
            MatchPlayer.id, MatchPlayer.match_id, MatchPlayer.player_id, MatchPlayer.spp, earned
        )
        .where(MatchPlayer.spp != earned)
        .order_by(Match.played_at, Match.id, MatchPlayer.id)
    ):
        differences.append(
            Difference(f"match #{match_id} / player {player_id} SPP", cached, computed)
        )
        if fix:
            appearance = session.get(MatchPlayer, appearance_id)
            assert appearance is not None  # noqa: S101 - just selected
            appearance.spp = computed
    if fix:
        session.flush()


def _appearance_totals(
    session: Session, appearances: Select[tuple[MatchPlayer]], last_id: int | None
) -> tuple[dict[int, int], dict[int, _Injuries]]:
    """One pass over the appearances: the SPP each player earned, and (player, injury,
    lasting) -> how many, and whether one was in the team's last match."""
    spp: dict[int, int] = {}
    injuries: dict[int, _Injuries] = {}
    in_last = case((MatchPlayer.match_id == last_id, 1), else_=0)
    for player_id, injury, lasting, earned_spp, count, last in session.execute(
        appearances.with_only_columns(
            MatchPlayer.player_id,
            MatchPlayer.injury,
            MatchPlayer.lasting,
            func.sum(MatchPlayer.spp),
            func.count(),
            func.max(in_last),
        )
        .group_by(MatchPlayer.player_id, MatchPlayer.injury, MatchPlayer.lasting)
        .order_by(MatchPlayer.player_id, MatchPlayer.injury, MatchPlayer.lasting)
    ):
        spp[player_id] = spp.get(player_id, 0) + int(earned_spp or 0)
        if injury is not None:
            injuries.setdefault(player_id, []).append((injury, lasting, count, bool(last)))
    return spp, injuries


def _redraft_recovery(
    session: Session, team: Team, last_id: int | None
) -> tuple[Sequence[Redraft], dict[int, int], bool]:
    """The team's approved re-drafts, the niggling injuries their rest and recovery healed,
    and whether one came after the season of the team's last match."""
    # Niggling injuries healed by the rest and recovery of approved re-drafts.
    redrafts = session.scalars(
        select(Redraft)
        .where(Redraft.team_id == team.id, Redraft.state == "approved")
        .order_by(Redraft.id)
    ).all()
    healed: dict[int, int] = {}
    for redraft in redrafts:
        for entry in redraft.recovery or ():
            healed[entry["player_id"]] = healed.get(entry["player_id"], 0) + entry.get("healed", 0)
    # A re-draft after the season of the team's last match: every missed game is over.
    rested = (
        bool(redrafts)
        and last_id is not None
        and _season_number_of(session, last_id) <= max(r.season.number for r in redrafts)
    )
    return redrafts, healed, rested


def _injury_state(
    ruleset: Ruleset,
    opening: PlayerOpening | None,
    injured: _Injuries,
    last_id: int | None,
    *,
    rested: bool,
) -> tuple[dict[str, int], int, bool, bool]:
    """A player's characteristic reductions, niggling injuries, death and missed next game,
    from the history brought along and the injuries of the appearances."""
    reductions = {c: opening.reduction(c) if opening else 0 for c in ruleset.characteristics}
    niggling = opening.niggling_injuries if opening else 0
    dead = opening is not None and opening.status == "dead"
    # Injured in the previous league: misses the first match here.
    missing_next = last_id is None and opening is not None and opening.status == "mng"
    for injury, lasting, count, in_last_match in injured:
        result = casualty_result_for_code(ruleset, injury)
        if result.effect == "dead":
            dead = True
        elif result.effect == "niggling":
            niggling += count
        elif result.effect == "lasting":
            reductions[lasting or result.characteristic or ""] += count
        if result.miss_next_game and in_last_match and not rested:
            missing_next = True
    return reductions, niggling, dead, missing_next


def _refuse_unspending(player: Player, earned_total: int) -> None:
    """Refused before anything is written: the database would refuse it too."""
    if player.spp_spent > earned_total:
        raise Conflict(
            gettext(
                "%(name)s has already spent %(spent)s SPP but would keep only %(kept)s; "
                "undo %(advancements)s first.",
                name=player.name,
                spent=player.spp_spent,
                kept=earned_total,
                advancements=_to_undo(player, earned_total),
            ),
            code="spp_spent",
        )


def _to_undo(player: Player, earned: int) -> str:
    """The player's latest advancements, newest first, that must go for `earned` SPP to do."""
    spent, names = player.spp_spent, []
    for advancement in reversed(player.active_advancements):
        if spent <= earned:
            break
        gained = advancement.skill or (
            gettext("+1 %(characteristic)s", characteristic=stat_label(advancement.characteristic))
            if advancement.characteristic
            else advancement.kind
        )
        names.append(
            gettext("%(advancement)s (%(cost)s SPP)", advancement=gained, cost=advancement.spp_cost)
        )
        spent -= advancement.spp_cost
    return format_list(names) if names else gettext("his advancements")


def _played_by(team: Team) -> Select[tuple[Match]]:
    """The team's played matches (league matches and friendlies)."""
    return (
        select(Match)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .where(MatchTeam.team_id == team.id, Match.state == "played")
    )


def _appearances_of(team: Team) -> Select[tuple[MatchPlayer]]:
    """The team's players' appearances in its played matches, joined to the team's side."""
    return (
        select(MatchPlayer)
        .join(Match, Match.id == MatchPlayer.match_id)
        .join(
            MatchTeam,
            and_(MatchTeam.match_id == MatchPlayer.match_id, MatchTeam.team_id == team.id),
        )
        .join(Player, Player.id == MatchPlayer.player_id)
        .where(MatchPlayer.team_id == team.id, Match.state == "played")
    )


def _appearance_spp(ruleset: Ruleset, team_type: TeamType) -> ColumnElement[int]:
    """`spp_for_events` as a SQL expression: SPP are each event's count times its award.

    A conceding team's players get none where the ruleset says so (the team's
    own side is joined in `_appearances_of`), and star players never do (every
    edition: they play for the gold, not for the team).
    """
    awards = spp_awards(ruleset, team_type)
    columns = {name: getattr(MatchPlayer, SPP_COLUMNS.get(name, name)) for name in SPP_EVENTS}
    total: ColumnElement[int] = literal(0)
    for name, column in columns.items():
        if awards.get(name):
            total = total + column * literal(int(awards[name]))
    if ruleset.spp.concession_forfeits_spp:
        return case(
            (MatchTeam.conceded.is_(True), literal(0)),
            (Player.status == "star", literal(0)),
            else_=total,
        )
    return case((Player.status == "star", literal(0)), else_=total)


def player_openings(session: Session, team: Team) -> dict[int, PlayerOpening]:
    """Opening balances of the team's imported players, by player id."""
    query = select(PlayerOpening).join(Player, Player.id == PlayerOpening.player_id)
    return {o.player_id: o for o in session.scalars(query.where(Player.team_id == team.id))}


def _recompute_team_items(
    session: Session,
    team: Team,
    ruleset: Ruleset,
    settle: Callable[[object, str, object, str], None],
    fans_before: int = 0,
    redraft: Redraft | None = None,
) -> None:
    """Staff, re-rolls, fans and treasury from the ledger.

    After an approved re-draft, staff and re-rolls start from what it kept, plus
    what was bought or sold after it was booked; dedicated fans count everything.
    """
    after_id = 0
    if redraft is not None:
        after_id = (
            session.scalar(
                select(func.max(TreasuryEntry.id)).where(
                    TreasuryEntry.team_id == team.id,
                    TreasuryEntry.kind == "redraft",
                    TreasuryEntry.season_id == redraft.season_id,
                )
            )
            or 0
        )
    bought = dict.fromkeys(ITEMS, 0)
    since = dict.fromkeys(ITEMS, 0)
    # Counted with FILTER, not grouped by "id > after": PostgreSQL binds the two copies of
    # that comparison as two parameters and refuses the GROUP BY (SQLite did not mind).
    for item, kind, count, later in session.execute(
        select(
            TreasuryEntry.item,
            TreasuryEntry.kind,
            func.count(),
            func.count().filter(TreasuryEntry.id > after_id),
        )
        .where(TreasuryEntry.team_id == team.id, TreasuryEntry.item.in_(ITEMS))
        .group_by(TreasuryEntry.item, TreasuryEntry.kind)
    ):
        sign = 1 if kind == "purchase" else -1
        bought[item] += sign * count
        since[item] += sign * (later or 0)
    if redraft is not None:
        bought["reroll"] = redraft.rerolls + since["reroll"]
        bought["apothecary"] = int(redraft.apothecary) + since["apothecary"]
        bought["assistant_coach"] = redraft.assistant_coaches + since["assistant_coach"]
        bought["cheerleader"] = redraft.cheerleaders + since["cheerleader"]
    treasury = session.scalar(
        select(func.coalesce(func.sum(TreasuryEntry.amount), 0)).where(
            TreasuryEntry.team_id == team.id
        )
    )
    # The match's state asked row by row, not joined: PostgreSQL would read the whole match
    # table to join a few dozen rows, and the cost would grow with the league's history.
    state = select(Match.state).where(Match.id == MatchTeam.match_id).scalar_subquery()
    fans_changed = session.scalar(
        select(func.coalesce(func.sum(MatchTeam.fans_change), 0)).where(
            MatchTeam.team_id == team.id, state == "played"
        )
    )
    fans = ruleset.team_building.dedicated_fans.start + bought["dedicated_fan"] + fans_before
    fans += int(fans_changed or 0)
    settle(team, "dedicated_fans", fans, f"{team.name} dedicated fans")
    settle(team, "rerolls", bought["reroll"], f"{team.name} re-rolls")
    settle(team, "apothecary", bought["apothecary"] > 0, f"{team.name} apothecary")
    settle(team, "assistant_coaches", bought["assistant_coach"], f"{team.name} assistant coaches")
    settle(team, "cheerleaders", bought["cheerleader"], f"{team.name} cheerleaders")
    settle(team, "treasury", int(treasury or 0), f"{team.name} treasury")


def match_ledger_differences(session: Session, team: Team) -> list[Difference]:
    """Matches whose ledger rows for the team do not add up to what the result books.

    A played match books its winnings, less expensive mistakes and the treasury its
    pre-game spent on inducements, stars and mercenaries; a voided one nothing. The
    ledger is not a cache: a difference is reported, never repaired here (a
    commissioner books an adjustment).
    """
    booked = (
        select(
            TreasuryEntry.match_id.label("match_id"),
            func.sum(TreasuryEntry.amount).label("amount"),
        )
        .where(TreasuryEntry.team_id == team.id, TreasuryEntry.match_id.is_not(None))
        .group_by(TreasuryEntry.match_id)
        .subquery()
    )
    spent = (
        select(
            PregameSide.match_id.label("match_id"),
            func.sum(PregameSide.treasury_spent).label("amount"),
        )
        .where(PregameSide.team_id == team.id)
        .group_by(PregameSide.match_id)
        .subquery()
    )
    wanted = case(
        (
            Match.state == "played",
            MatchTeam.winnings - MatchTeam.mistake_loss - func.coalesce(spent.c.amount, 0),
        ),
        else_=literal(0),
    )
    rows = session.execute(
        select(Match.id, func.coalesce(booked.c.amount, 0), wanted)
        .join(MatchTeam, MatchTeam.match_id == Match.id)
        .outerjoin(booked, booked.c.match_id == Match.id)
        .outerjoin(spent, spent.c.match_id == Match.id)
        .where(MatchTeam.team_id == team.id, func.coalesce(booked.c.amount, 0) != wanted)
        .order_by(Match.id)
    )
    return [
        Difference(f"{team.name} ledger for match #{match_id}", int(held), int(due))
        for match_id, held, due in rows
    ]


def _season_number_of(session: Session, match_id: int) -> int:
    number = session.scalar(
        select(Season.number).join(Match, Match.season_id == Season.id).where(Match.id == match_id)
    )
    return int(number or 0)


def check_all(session: Session, *, fix: bool = False) -> list[Difference]:
    """Compare (or repair) every cached balance against the events.

    The ledger's rows of each match are compared too (reported, not repaired).
    """
    differences: list[Difference] = []
    for team in session.scalars(select(Team).order_by(Team.id)):
        differences.extend(recompute_team(session, team, fix=fix))
        differences.extend(match_ledger_differences(session, team))
    return differences
