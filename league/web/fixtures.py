"""Fixtures, standings and statistics pages of a league, and the iCalendar feeds (league, team)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.i18n import gettext, in_language, ngettext
from league.models import League, Season
from league.services import access, matches, seasons, tournament
from league.services import fixtures as fixture_service
from league.services import ratings as ratings_service
from league.services import records as records_service
from league.services import standings as standings_service
from league.services import stats as stats_service
from league.services.charts import league_race
from league.services.divisions import division_tables
from league.services.errors import DomainError
from league.services.paging import Page, page_of
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from league.urls import public_url
from league.web.charts import race_chart
from league.web.forms import EmptyForm
from league.web.forms.fixtures import AddFixtureForm, GenerateFixturesForm
from league.web.helpers import (
    button_action,
    commissioners_league,
    form_action,
    league_variant,
    page_link,
    populate_errors,
    post_step,
)

bp = Blueprint("fixtures", __name__)

#: What these pages show of a league besides the page's own rows: no member list (the
#: viewer's role is their own membership, read once for the page's variant).
PAGE_COLLECTIONS: tuple[access.LeagueCollection, ...] = ("seasons", "teams")
#: Matches the fixtures page shows at most at once, in whole rounds (`?rounds=N`, by
#: default the page of the round in play): a long season's page stays small.
FIXTURES_PAGE = 50

#: Built by the match-report feature; until they exist the fixture list shows match numbers.
REPORT_ENDPOINT = "matches.report"
SHOW_ENDPOINT = "matches.show"


def _season_number() -> int | None:
    return request.args.get("season", type=int)


def _active_teams(league: League) -> list[tuple[int, str]]:
    return [(team.id, team.name) for team in league.teams if team.status == "active"]


def _row_context(role: str | None, season: Season) -> dict[str, Any]:
    """What each fixture row needs: who may enter a result (nobody in a closed season),
    where a match's page is."""
    return {
        "role": role,
        "can_report": REPORT_ENDPOINT in current_app.view_functions and season.closed_at is None,
        "report_endpoint": REPORT_ENDPOINT,
        "show_endpoint": SHOW_ENDPOINT if SHOW_ENDPOINT in current_app.view_functions else None,
    }


@bp.route("/leagues/<int:league_id>/fixtures")
def index(league_id: int) -> str | Response:
    return caching.revision_cached(
        lambda: _render_index(league_id), lambda: league_variant(league_id)
    )


def _render_index(league_id: int) -> str:
    league = access.get_league(db.session(), league_id, collections=PAGE_COLLECTIONS)
    fixture_list = fixture_service.season_fixtures(db.session(), league, _season_number())
    role = access.role_in(league, current_user)
    season = next(s for s in league.seasons if s.id == fixture_list.season_id)
    # The season's league matches, counted from the list already loaded (no second query):
    # a schedule is generated only for a season without any.
    league_matches = sum(
        not f.friendly
        for f in (*fixture_list.others, *(f for r in fixture_list.rounds for f in r.fixtures))
    )
    can_generate = (
        role == "commissioner" and season is league.current_season and league_matches == 0
    )
    rounds, rounds_page = _rounds_page(fixture_list)
    return render_template(
        "fixtures/index.html",
        league=league,
        season=season,
        fixtures=fixture_list,
        can_generate=can_generate,
        pair_form=(
            EmptyForm() if role == "commissioner" and season.schedule != "round_robin" else None
        ),
        active_teams=len(_active_teams(league)),
        rounds=rounds,
        rounds_page=rounds_page,
        page_link=page_link,
        round_link=True,
        **_row_context(role, season),
    )


def _rounds_page(
    fixture_list: fixture_service.FixtureList,
) -> tuple[Page[fixture_service.FixtureRound], int]:
    """The page of rounds asked for, else the page of the round in play; and how many
    rounds a page holds (as many of the season's largest as fit in FIXTURES_PAGE)."""
    largest = max((len(r.fixtures) for r in fixture_list.rounds), default=1)
    size = max(1, FIXTURES_PAGE // max(largest, 1))
    asked = request.args.get("rounds", type=int)
    in_play = fixture_list.round_in_play // size + 1
    return page_of(fixture_list.rounds, in_play if asked is None else asked, size), size


@bp.route("/leagues/<int:league_id>/fixtures/rounds/<int:number>")
def round_page(league_id: int, number: int) -> str | Response:
    """One round of a season (`?season=N`, else the current one), with the rounds around it."""
    return caching.revision_cached(
        lambda: _render_round(league_id, number), lambda: league_variant(league_id)
    )


def _render_round(league_id: int, number: int) -> str:
    league = access.get_league(db.session(), league_id, collections=PAGE_COLLECTIONS)
    fixture_list = fixture_service.season_fixtures(db.session(), league, _season_number())
    numbers = [r.number for r in fixture_list.rounds]
    if number not in numbers:
        abort(
            404,
            description=gettext(
                "%(season)s has no round %(number)s.",
                season=fixture_list.season_name,
                number=number,
            ),
        )
    at = numbers.index(number)
    season = next(s for s in league.seasons if s.id == fixture_list.season_id)
    return render_template(
        "fixtures/round.html",
        league=league,
        season=season,
        round=fixture_list.rounds[at],
        previous_round=numbers[at - 1] if at > 0 else None,
        next_round=numbers[at + 1] if at + 1 < len(numbers) else None,
        round_link=False,
        **_row_context(access.role_in(league, current_user), season),
    )


@post_step(bp, "/leagues/<int:league_id>/fixtures/rounds/next", "fixtures.index")
@login_required
def pair_round(league_id: int) -> Response:
    """Pair the next Swiss round (commissioner); its printable page follows. The first
    round of an event whose rosters are not all approved asks first (event.start)."""
    anyway = request.form.get("start_anyway") == "1"
    try:
        pairing = button_action(
            lambda session: tournament.pair_next_round(
                session, current_user, league_id, start_anyway=anyway
            ),
            passes=("rosters_unapproved",),
        )
    except DomainError as error:
        if error.code != "rosters_unapproved":
            raise
        return redirect(url_for("event.start", league_id=league_id))
    if pairing is None:
        return redirect(url_for("fixtures.index", league_id=league_id))
    flash(
        ngettext(
            "Round %(round)s paired: %(num)d match.",
            "Round %(round)s paired: %(num)d matches.",
            len(pairing.matches),
            round=pairing.number,
        ),
        "success",
    )
    if pairing.rematches:
        flash(
            gettext("Every possible pairing repeated a match: some teams meet again."),
            "warning",
        )
    if "same_club" in pairing.broken:
        flash(gettext("No pairing kept every club or nation apart: two of one meet."), "warning")
    if "same_coach" in pairing.broken:
        flash(gettext("No pairing kept a coach's two entries apart: they meet."), "warning")
    return redirect(url_for("fixtures.print_round", league_id=league_id, number=pairing.number))


@bp.route("/leagues/<int:league_id>/fixtures/rounds/<int:number>/print")
def print_round(league_id: int, number: int) -> str | Response:
    """A round's pairings to print for the tables (`?season=N`, else the current season)."""
    return caching.revision_cached(lambda: _render_print_round(league_id, number))


def _render_print_round(league_id: int, number: int) -> str:
    league = access.get_league(db.session(), league_id)
    sheet = tournament.round_sheet(db.session(), league, number, _season_number())
    if sheet is None:
        abort(404, description=gettext("This season has no round %(number)s.", number=number))
    return render_template("tournament/round_print.html", league=league, sheet=sheet)


@bp.route("/leagues/<int:league_id>/fixtures/generate", methods=["GET", "POST"])
@login_required
def generate(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "generate_fixtures")
    form = GenerateFixturesForm()
    created = form_action(
        form,
        lambda session: [
            match.round
            for match in fixture_service.generate_fixtures(
                session,
                current_user,
                league_id,
                form.double,
                form.start_date.data,
                form.days_between.data or 7,
            )
        ],
    )
    if created is not None:
        flash(
            gettext(
                "%(fixtures)s created in %(rounds)s.",
                fixtures=ngettext("%(num)d fixture", "%(num)d fixtures", len(created)),
                rounds=ngettext("%(num)d round", "%(num)d rounds", len(set(created))),
            ),
            "success",
        )
        return redirect(url_for("fixtures.index", league_id=league_id))
    return _render_generate(league, form)


def _render_generate(league: League, form: GenerateFixturesForm) -> str:
    """The page generating the season's fixtures: its teams and how many matches it makes."""
    season = league.current_season
    existing = fixture_service.season_match_count(db.session(), season) if season else 0
    active = [team for team in league.teams if team.status == "active"]
    return render_template(
        "fixtures/generate.html",
        league=league,
        season=season,
        form=form,
        teams=_active_teams(league),
        existing=existing,
        # Inside each division when the league has them.
        single=fixture_service.division_schedule_size(active),
        double=fixture_service.division_schedule_size(active, double=True),
    )


@bp.route("/leagues/<int:league_id>/fixtures/new", methods=["GET", "POST"])
@login_required
def new(league_id: int) -> str | Response:
    league = commissioners_league(league_id, "add_fixtures")
    teams = _active_teams(league)
    form = AddFixtureForm(teams=teams)
    if form.validate_on_submit():
        try:
            with unit_of_work() as session:
                match = matches.schedule_match(
                    session,
                    current_user,
                    league_id,
                    form.home_team.data,
                    form.away_team.data,
                    round_number=form.round_number.data,
                    scheduled_for=form.scheduled_for.data,
                    friendly=form.friendly.data,
                    add_another=form.add_another.data,
                    form_token=form.token.data,
                )
                text = gettext(
                    "%(home)s vs %(away)s",
                    home=match.home.team.name,
                    away=match.away.team.name,
                )
        except Resubmitted as repeat:
            flash(repeat.message, "info")
            return redirect(url_for("fixtures.index", league_id=league_id))
        except DomainError as error:
            populate_errors(form, error)
        else:
            flash(gettext("Fixture added: %(match)s.", match=text), "success")
            return redirect(url_for("fixtures.index", league_id=league_id))
    return render_template(
        "fixtures/new.html", league=league, season=league.current_season, form=form, teams=teams
    )


def _calendar_response(
    league: League, name: str, filename: str, team_id: int | None = None
) -> Response:
    """The iCalendar file of the league's fixtures (only one team's with `team_id`)."""
    page = public_url("fixtures.index", league_id=league.id)
    events = fixture_service.calendar_events(
        db.session(),
        league,
        uid_domain=urlsplit(page).hostname or "league",
        url_for_match=lambda match_id: f"{page}#match-{match_id}",
        team_id=team_id,
    )
    body = fixture_service.ics_calendar(name, events, now=datetime.now(UTC))
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/leagues/<int:league_id>/fixtures.ics")
def calendar(league_id: int) -> Response:
    league = access.get_league(db.session(), league_id)
    # The feed is read in a calendar app, by anyone subscribed: the league's language,
    # as its events (docs/i18n.md).
    with in_language(league.default_language):
        name = gettext("%(name)s fixtures", name=league.name)
    return _calendar_response(league, name, f"league-{league.id}-fixtures.ics")


@bp.route("/teams/<int:team_id>/fixtures.ics")
def team_calendar(team_id: int) -> Response:
    """A team's own fixtures, for its coach to subscribe to."""
    team = access.get_team(db.session(), team_id, history=False)
    with in_language(team.league.default_language):
        name = gettext("%(name)s fixtures", name=team.name)
    return _calendar_response(team.league, name, f"team-{team.id}-fixtures.ics", team.id)


@bp.route("/leagues/<int:league_id>/standings")
def standings(league_id: int) -> str | Response:
    return caching.revision_cached(
        lambda: _render_standings(league_id), lambda: league_variant(league_id)
    )


def _render_standings(league_id: int) -> str:
    league = access.get_league(db.session(), league_id, collections=PAGE_COLLECTIONS)
    table = standings_service.standings(db.session(), league, _season_number())
    season = next(s for s in league.seasons if s.id == table.season_id)
    ratings = ratings_service.league_ratings(db.session(), league.id)
    race = None if table.empty else league_race(db.session(), league, _season_number())
    return render_template(
        "fixtures/standings.html",
        league=league,
        season=season,
        standings=table,
        coach_ratings={
            team.id: (ratings.of(team.coach_id, league.id), ratings.usernames.get(team.coach_id))
            for team in league.teams
        },
        race=race_chart(race) if race is not None else None,
        prizes=seasons.prizes_paid(db.session(), league, season) if season.closed_at else (),
        divisions=division_tables(league, table),
        role=access.role_in(league, current_user),
    )


@bp.route("/leagues/<int:league_id>/stats")
def stats(league_id: int) -> str | Response:
    return caching.revision_cached(
        lambda: _render_stats(league_id), lambda: league_variant(league_id)
    )


def _render_stats(league_id: int) -> str:
    league = access.get_league(db.session(), league_id, collections=PAGE_COLLECTIONS)
    season_stats = stats_service.season_stats(
        db.session(), league, _season_number(), request.args.get("players", type=int)
    )
    return render_template(
        "fixtures/stats.html",
        league=league,
        season=next(s for s in league.seasons if s.id == season_stats.season_id),
        stats=season_stats,
        players=season_stats.players,
        graves=stats_service.graveyard_page(
            db.session(), league, request.args.get("graves", type=int)
        ),
        page_link=page_link,
        show_endpoint=SHOW_ENDPOINT if SHOW_ENDPOINT in current_app.view_functions else None,
    )


@bp.route("/leagues/<int:league_id>/records")
def records(league_id: int) -> str | Response:
    return caching.revision_cached(
        lambda: _render_records(league_id), lambda: league_variant(league_id)
    )


def _records_scope(season_number: int | None) -> records_service.Scope:
    """?scope=season|all; by default one season's when ?season= names it, else all time
    (anything else shows all time: a page does not refuse a link)."""
    given = request.args.get("scope")
    if given == "season" or (given is None and season_number is not None):
        return "season"
    return "all"


def _render_records(league_id: int) -> str:
    league = access.get_league(
        db.session(), league_id, collections=records_service.LEAGUE_COLLECTIONS
    )
    number = _season_number()
    scope = _records_scope(number)
    if scope == "season" and not league.seasons:
        scope = "all"
    found = records_service.league_records(db.session(), league, scope, number)
    prizes = access.league_ruleset(league).season.prizes
    return render_template(
        "fixtures/records.html",
        league=league,
        records=found,
        trophy=prizes is not None and prizes.trophy_reroll,
        season=next((s for s in league.seasons if s.number == found.season_number), None),
        show_endpoint=SHOW_ENDPOINT if SHOW_ENDPOINT in current_app.view_functions else None,
    )
