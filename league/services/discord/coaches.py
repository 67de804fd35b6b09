"""A linked coach in Discord: `/my` (their teams and next matches) and the buttons in it,
which act as that user through the same services, and so the same permission checks, as
the site's forms."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import League, Match, Team, User
from league.services import pregame, scheduling
from league.services.access import league_ruleset
from league.services.discord.answers import fixture_line, fixture_name, open_fixtures, pick
from league.services.discord.messages import buttons, embed, message, notice, text
from league.services.errors import Conflict, DomainError, NotFound
from league.services.fixtures import Fixture, season_fixtures
from league.services.matches import get_match
from league.services.unit_of_work import unit_of_work
from league.services.webhooks.payloads import page_url

#: A button's custom_id: "pregame:<match id>:<side>", "accept:<match id>".
PREGAME, ACCEPT = "pregame", "accept"
#: How times are typed in `/offer` (UTC).
TIME_FORMAT = "%Y-%m-%d %H:%M"


def time_text(moment: datetime) -> str:
    """A time as `/offer` takes it, marked UTC."""
    return moment.astimezone(UTC).strftime(TIME_FORMAT) + " UTC"


def not_linked() -> dict[str, Any]:
    return notice(
        gettext("Your Discord user is not linked to an account of the site: run /link first.")
    )


def _coach_teams(session: Session, league: League, user: User) -> list[Team]:
    return list(
        session.scalars(
            select(Team)
            .where(
                Team.league_id == league.id,
                Team.coach_id == user.id,
                Team.coachless_since.is_(None),
                Team.status != "retired",
            )
            .order_by(Team.name)
        )
    )


def _next_fixture(every: list[Fixture], team: Team) -> tuple[Fixture, str] | None:
    for fixture in every:
        if fixture.open and team.id in (fixture.home.team_id, fixture.away.team_id):
            return fixture, "home" if fixture.home.team_id == team.id else "away"
    return None


def _slot_lines(
    session: Session, match: Match, team: Team, pressable: list[tuple[str, str]]
) -> list[str]:
    """Where finding a time stands for the team's fixture; a button to accept a proposal."""
    slots = scheduling.schedule_of(session, match)
    if slots.agreed is not None:
        return [gettext("Agreed time: %(time)s", time=time_text(slots.agreed))]
    if slots.proposed is not None:
        label = gettext("Accept %(time)s", time=time_text(slots.proposed))
        pressable.append((f"{ACCEPT}:{match.id}", label))
        return [gettext("Proposed time: %(time)s", time=time_text(slots.proposed))]
    offered = slots.offered["home" if match.home.team_id == team.id else "away"]
    if offered:
        return [gettext("Offered: %(times)s", times=", ".join(map(time_text, offered)))]
    return []


def my_message(session: Session, league: League, user: User) -> dict[str, Any]:
    """The user's teams in the league, each with its next match and whether its pre-game is
    saved; a button for each pre-game they may still fill."""
    teams = _coach_teams(session, league, user)
    if not teams:
        return notice(gettext("You coach no team in this league."))
    try:
        listing = season_fixtures(session, league)
        every = [f for r in listing.rounds for f in r.fixtures] + list(listing.others)
    except NotFound:  # no season yet
        every = []
    with_pregame = league_ruleset(league).match_day is not None
    fields, pressable = [], []
    for team in teams:
        found = _next_fixture(every, team)
        if found is None:
            fields.append((text(team.name), gettext("No match left to play.")))
            continue
        fixture, side = found
        match = get_match(session, fixture.match_id)
        filled = None
        if with_pregame:
            saved = {s for s in ("home", "away") if pregame.saved_side(session, match, s)}
            filled = {(match.id, s) for s in saved}
            if side not in saved and pregame.may_choose(match, side, user):
                label = gettext("%(team)s: pre-game, no inducements", team=team.name)
                pressable.append((f"{PREGAME}:{match.id}:{side}", label))
        lines = [fixture_line(fixture, filled), *_slot_lines(session, match, team, pressable)]
        lines.append(page_url("matches", match.id))
        fields.append((text(team.name), "\n".join(lines)))
    return message(
        embeds=[embed(league, gettext("Your teams"), fields=fields, team=teams[0])],
        components=buttons(pressable) if pressable else [],
        ephemeral=True,
    )


def press(league: League, user: User | None, custom_id: str) -> dict[str, Any]:
    """A button of `/my`, pressed by `user` (None: not linked): done as the site does it, or
    refused with the service's reason, which only they see."""
    if user is None:
        return not_linked()
    kind, _, rest = custom_id.partition(":")
    match_text, _, side = rest.partition(":")
    understood = (kind == PREGAME and side in ("home", "away")) or (kind == ACCEPT and not side)
    if not match_text.isdigit() or not understood:
        return notice(gettext("This button is no longer understood."))
    try:
        with unit_of_work() as session:
            match: Match = get_match(session, int(match_text))
            if match.league_id != league.id:
                raise NotFound(gettext("There is no such match in this league."))
            if kind == ACCEPT:
                agreed = _accept_proposed(session, user, match)
                return notice(
                    gettext(
                        "Time agreed: %(home)s v %(away)s at %(time)s.",
                        home=text(match.home.team.name),
                        away=text(match.away.team.name),
                        time=time_text(agreed),
                    )
                )
            team_name = match.side(side).team.name
            # The site's own pre-game choice, with nothing bought: its checks (the coach or a
            # commissioner, the match still scheduled, whose turn it is) apply as they are.
            pregame.record_side(session, user, match.id, side, pregame.SideChoices())
    except DomainError as refusal:
        return notice(text(refusal.message))
    return notice(gettext("Pre-game saved for %(team)s: no inducements.", team=text(team_name)))


def _accept_proposed(session: Session, user: User, match: Match) -> datetime:
    """Agree to the time proposed for `match` (the first both sides offered)."""
    proposed = scheduling.schedule_of(session, match).proposed
    if proposed is None:
        raise Conflict(gettext("The two teams have offered no time in common yet."))
    agreed = scheduling.accept_time(session, user, match.id, proposed).agreed
    assert agreed is not None  # noqa: S101 - just agreed
    return agreed


def offer(
    session: Session, league: League, user: User | None, options: dict[str, str], now: datetime
) -> dict[str, Any]:
    """`/offer match time1 [time2] [time3]`: the user's team's times for the fixture."""
    if user is None:
        return not_linked()
    match = pick(open_fixtures(session, league), options.get("match", ""), fixture_name)
    if match is None:
        return notice(gettext("No fixture still to play matches that."))
    team = next((s.team for s in match.sides if s.team.coach_id == user.id), None)
    if team is None:
        return notice(gettext("You coach neither team of this fixture."))
    try:
        times = [
            datetime.strptime(options[name].strip(), TIME_FORMAT).replace(tzinfo=UTC)
            for name in ("time1", "time2", "time3")
            if options.get(name, "").strip()
        ]
    except ValueError:
        return notice(gettext("Write each time as 2026-12-10 20:00 (UTC)."))
    try:
        with unit_of_work() as writing:
            side = "home" if match.home.team_id == team.id else "away"
            state = scheduling.offer_times(writing, user, match.id, side, times, now=now)
    except DomainError as refusal:
        return notice(text(refusal.message))
    said = gettext(
        "%(team)s offers %(times)s.", team=text(team.name), times=", ".join(map(time_text, times))
    )
    if state.proposed is not None:
        said += " " + gettext(
            "Proposed: %(time)s; run /my to accept it.", time=time_text(state.proposed)
        )
    return notice(said)
