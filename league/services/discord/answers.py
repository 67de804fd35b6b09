"""What the read-only slash commands answer: the table, fixtures, a team, a player, a
result, a skill; and the choices their options autocomplete. Each asks the services the
site's pages ask (standings, fixtures, rosters, the advancement resolver), in the league's
language; names people typed go out inert (`messages.text`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload, selectinload

from league.i18n import current_language, format_date, format_number, gettext
from league.models import League, Match, MatchPlayer, MatchTeam, Player, PregameSide, Team
from league.models.player import ON_ROSTER
from league.rules import skill_kind_words, stat_label
from league.services import fixtures as fixture_service
from league.services.access import league_ruleset, team_ruleset, team_type_of
from league.services.advancement import held_skills, options_for
from league.services.discord.messages import MAX_CHOICES, clip, embed, message, text
from league.services.errors import NotFound
from league.services.labels import season_name
from league.services.rosters import current_stats, team_sheet
from league.services.standings import standings
from league.services.webhooks.payloads import page_url
from league.urls import public_base

#: How many rows of the table `/standings` shows.
TOP_ROWS = 10


def _league_page(league: League, tail: str) -> str:
    return f"{page_url('leagues', league.id)}/{tail}"


# Lookups: an option's value is an id when chosen from the autocomplete, else typed text.


def _teams(session: Session, league: League) -> list[Team]:
    return list(
        session.scalars(select(Team).where(Team.league_id == league.id).order_by(Team.name))
    )


def pick(items: list[Any], value: str, name_of: Any) -> Any:
    """The item whose id is `value`, else whose name is it (any case), else the only one
    whose name contains it."""
    value = value.strip()
    if value.isdigit():
        found = next((i for i in items if i.id == int(value)), None)
        if found is not None:
            return found
    needle = value.casefold()
    exact = [i for i in items if name_of(i).casefold() == needle]
    if len(exact) == 1:
        return exact[0]
    partial = [i for i in items if needle and needle in name_of(i).casefold()]
    return partial[0] if len(partial) == 1 else None


def find_team(session: Session, league: League, value: str) -> Team:
    team = pick(_teams(session, league), value, lambda t: t.name)
    if team is None:
        raise NotFound(gettext("No team of the league is called %(name)s.", name=value))
    return team  # type: ignore[no-any-return]


def _players(session: Session, league: League) -> list[Player]:
    return list(
        session.scalars(
            select(Player)
            .join(Team, Team.id == Player.team_id)
            .where(Team.league_id == league.id, Player.status.in_(ON_ROSTER))
            .options(joinedload(Player.team), selectinload(Player.advancements))
            .order_by(Player.name, Player.id)
        )
    )


def find_player(session: Session, league: League, value: str) -> Player:
    player = pick(_players(session, league), value, lambda p: p.name)
    if player is None:
        raise NotFound(gettext("No player of the league is called %(name)s.", name=value))
    return player  # type: ignore[no-any-return]


def _played(session: Session, league: League) -> list[Match]:
    return list(
        session.scalars(
            select(Match)
            .where(Match.league_id == league.id, Match.state == "played")
            .options(joinedload(Match.sides).joinedload(MatchTeam.team))
            .order_by(Match.played_at.desc(), Match.id.desc())
        ).unique()
    )


def _match_name(match: Match) -> str:
    home, away = match.home, match.away
    return f"{home.team.name} {home.score}\u2013{away.score} {away.team.name}"


def open_fixtures(session: Session, league: League) -> list[Match]:
    """The league's fixtures still to play, soonest first."""
    return list(
        session.scalars(
            select(Match)
            .where(Match.league_id == league.id, Match.state == "scheduled")
            .options(joinedload(Match.sides).joinedload(MatchTeam.team))
            .order_by(Match.round.is_(None), Match.round, Match.scheduled_for, Match.id)
        ).unique()
    )


def fixture_name(match: Match) -> str:
    """ "Home v Away (round 2)", as the autocomplete lists it (plain text)."""
    name = f"{match.home.team.name} v {match.away.team.name}"
    return f"{name} ({gettext('Round %(number)s', number=match.round)})" if match.round else name


def find_match(session: Session, league: League, value: str) -> Match:
    match = pick(_played(session, league), value, _match_name)
    if match is None:
        raise NotFound(gettext("No result of the league matches %(name)s.", name=value))
    return match  # type: ignore[no-any-return]


# The commands


def standings_message(session: Session, league: League) -> dict[str, Any]:
    table = standings(session, league)
    lines = [
        gettext(
            "%(position)s. %(team)s \u2013 %(points)s pts (%(won)s/%(drawn)s/%(lost)s)",
            position=row.position,
            team=text(row.team_name),
            points=row.points,
            won=row.won,
            drawn=row.drawn,
            lost=row.lost,
        )
        for row in table.rows[:TOP_ROWS]
    ]
    description = "\n".join(lines) or gettext("No team has played yet.")
    return message(
        embeds=[
            embed(
                league,
                gettext("Standings \u00b7 %(season)s", season=text(season_name(table.season_name))),
                description=description,
                url=_league_page(league, "standings"),
            )
        ]
    )


def _filled_sides(session: Session, match_ids: list[int]) -> set[tuple[int, str]]:
    if not match_ids:
        return set()
    rows = session.execute(
        select(PregameSide.match_id, PregameSide.side).where(PregameSide.match_id.in_(match_ids))
    )
    return {(match_id, side) for match_id, side in rows.tuples()}


def fixture_line(fixture: fixture_service.Fixture, filled: set[tuple[int, str]] | None) -> str:
    """ "Home v Away (date)", with whether each side's pre-game is saved (None: the ruleset
    has no pre-game)."""
    home, away = text(fixture.home.team_name), text(fixture.away.team_name)
    if fixture.played:
        return f"{home} {fixture.home.score}\u2013{fixture.away.score} {away}"
    line = gettext("%(home)s v %(away)s", home=home, away=away)
    if fixture.scheduled_for is not None:
        line += f" ({format_date(fixture.scheduled_for)})"
    if filled is not None:
        marks = [
            gettext(
                "%(team)s: %(state)s",
                team=text(side.team_name),
                state=gettext("filled")
                if (fixture.match_id, name) in filled
                else gettext("not filled"),
            )
            for name, side in (("home", fixture.home), ("away", fixture.away))
        ]
        line += "\n" + gettext("Pre-game \u2013 %(sides)s", sides=", ".join(marks))
    return line


def fixtures_message(session: Session, league: League, team_value: str | None) -> dict[str, Any]:
    listing = fixture_service.season_fixtures(session, league)
    has_pregame = league_ruleset(league).match_day is not None
    team = find_team(session, league, team_value) if team_value else None
    if team is not None:
        every = [f for r in listing.rounds for f in r.fixtures] + list(listing.others)
        waiting = [f for f in every if f.open and team.id in (f.home.team_id, f.away.team_id)]
        title = gettext("Next match of %(team)s", team=text(team.name))
        chosen = waiting[:1]
        empty = gettext("%(team)s has no match left to play.", team=text(team.name))
    elif listing.rounds:
        current = listing.rounds[listing.round_in_play]
        title = gettext("Round %(number)s", number=current.number)
        chosen = list(current.fixtures)
        empty = gettext("No fixture in this round.")
    else:
        title, chosen = gettext("Fixtures"), [f for f in listing.others if f.open]
        empty = gettext("No fixture is scheduled.")
    filled = _filled_sides(session, [f.match_id for f in chosen]) if has_pregame else None
    lines = [fixture_line(fixture, filled) for fixture in chosen]
    return message(
        embeds=[
            embed(
                league,
                title,
                description="\n\n".join(lines) or empty,
                url=_league_page(league, "fixtures"),
                team=team,
            )
        ]
    )


def team_message(session: Session, league: League, value: str) -> dict[str, Any]:
    team = find_team(session, league, value)
    sheet = team_sheet(team)
    names = sheet.ruleset.text(current_language())
    advancing = [
        f"#{line.player.number} {text(line.player.name)}"
        for line in sheet.lines
        if line.can_advance
    ]
    fields = [
        (gettext("TV"), format_number(sheet.values.team_value)),
        (gettext("CTV"), format_number(sheet.values.current_team_value)),
        (gettext("Treasury"), format_number(team.treasury)),
        (gettext("Players"), str(len(sheet.lines))),
        (gettext("May advance"), "\n".join(advancing) or gettext("Nobody yet")),
    ]
    return message(
        embeds=[
            embed(
                league,
                text(team.name),
                description=gettext(
                    "%(team_type)s \u00b7 coach %(coach)s",
                    team_type=names.team_type_name(team.team_type_id),
                    coach=text(team.coach.username),
                ),
                url=page_url("teams", team.id),
                fields=[(n, v) for n, v in fields],
                team=team,
            )
        ]
    )


def player_message(session: Session, league: League, value: str) -> dict[str, Any]:
    player = find_player(session, league, value)
    team = player.team
    ruleset = team_ruleset(team)
    position = team_type_of(team).position(player.position_id)
    names = ruleset.text(current_language())
    stats = current_stats(ruleset, position, player)
    target = ruleset.stat_style == "target"  # AG, PA and AV read as 3+ (as the roster prints)
    characteristics = " \u00b7 ".join(
        f"{stat_label(c)} "
        + ("-" if v is None else f"{v}+" if target and c in ("ag", "pa", "av") else str(v))
        for c, v in stats.items()
    )
    skills = ", ".join(names.skill_names(held_skills(position, player))) or "\u2014"
    options = options_for(player)
    buyable = [
        gettext("%(kind)s (%(cost)s SPP)", kind=skill_kind_words(o.kind), cost=o.cost)
        if o.cost is not None
        else skill_kind_words(o.kind)
        for o in options.options
        if o.affordable and o.decision
    ]
    fields = [
        (gettext("Characteristics"), characteristics),
        (gettext("Skills"), skills),
        (
            gettext("SPP"),
            gettext(
                "%(available)s to spend, %(earned)s earned",
                available=options.available_spp,
                earned=player.spp_earned,
            ),
        ),
        (gettext("Can buy now"), "\n".join(buyable) or gettext("Nothing yet")),
    ]
    return message(
        embeds=[
            embed(
                league,
                f"#{player.number} {text(player.name)}",
                description=f"{names.position_name(position.name)} \u00b7 {text(team.name)}",
                url=page_url("players", player.id),
                fields=fields,
                team=team,
            )
        ]
    )


def result_message(session: Session, league: League, value: str) -> dict[str, Any]:
    match = find_match(session, league, value)
    events = session.scalars(
        select(MatchPlayer)
        .where(MatchPlayer.match_id == match.id, MatchPlayer.spp > 0)
        .options(joinedload(MatchPlayer.player))
        .order_by(MatchPlayer.spp.desc(), MatchPlayer.id)
    ).all()
    fields = []
    for side in (match.home, match.away):
        earned = [
            gettext("%(player)s: %(spp)s SPP", player=text(e.player.name), spp=e.spp)
            for e in events
            if e.team_id == side.team_id
        ]
        fields.append(
            (
                gettext("SPP of %(team)s", team=text(side.team.name)),
                "\n".join(earned) or gettext("None"),
            )
        )
    winner = (
        max(match.sides, key=lambda s: s.score) if match.home.score != match.away.score else None
    )
    title = (
        f"{text(match.home.team.name)} {match.home.score}\u2013"
        f"{match.away.score} {text(match.away.team.name)}"
    )
    return message(
        embeds=[
            embed(
                league,
                title,
                description=gettext("Round %(number)s", number=match.round) if match.round else "",
                url=page_url("matches", match.id),
                fields=fields,
                team=winner.team if winner is not None else None,
            )
        ]
    )


def skill_message(league: League, value: str) -> dict[str, Any]:
    ruleset = league_ruleset(league)
    names = ruleset.text(current_language())
    needle = value.strip().casefold()
    skill = ruleset.find_skill(value.strip()) or next(
        (s for s in ruleset.skills if names.skill_name(s.name).casefold() == needle), None
    )
    if skill is None:
        raise NotFound(
            gettext("%(ruleset)s has no skill %(name)s.", ruleset=ruleset.name, name=value)
        )
    return message(
        embeds=[
            embed(
                league,
                names.skill_name(skill.name),
                description=names.skill_summary(skill.name) or gettext("No summary."),
                url=f"{public_base()}/rules/{ruleset.id}/skills",
                fields=[(gettext("Category"), names.category_name(skill.category))],
            )
        ]
    )


# Autocomplete


def _choices(pairs: list[tuple[str, str]], typed: str) -> list[dict[str, str]]:
    needle = typed.strip().casefold()
    return [
        {"name": clip(name, 100), "value": value}
        for name, value in pairs
        if not needle or needle in name.casefold()
    ][:MAX_CHOICES]


def choices(
    session: Session, league: League, command: str, option: str, typed: str
) -> list[dict[str, str]]:
    """Autocomplete choices for the option being typed (names shown as they are: Discord
    shows choices as plain text, and nothing of them is posted)."""
    if command in ("team", "fixtures"):
        pairs = [(t.name, str(t.id)) for t in _teams(session, league)]
    elif command == "player":
        pairs = [
            (f"{p.name} (#{p.number}, {p.team.name})", str(p.id)) for p in _players(session, league)
        ]
    elif command == "result":
        pairs = [(_match_name(m), str(m.id)) for m in _played(session, league)]
    elif command == "offer":
        pairs = [(fixture_name(m), str(m.id)) for m in open_fixtures(session, league)]
    elif command == "rules skill":
        names = league_ruleset(league).text(current_language())
        pairs = [
            (names.skill_name(s.name), s.name)
            for s in sorted(league_ruleset(league).skills, key=lambda s: s.name)
        ]
    else:
        pairs = []
    return _choices(pairs, typed)
