"""A team's history in pictures: its value and treasury match by match and its place in
the table round by round, on a page of their own (with the figures as tables) and as
SVG images the team page shows."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, render_template, request
from werkzeug.wrappers import Response

from league import caching
from league.extensions import db
from league.models import Team
from league.models.revision import current_revision
from league.services import access
from league.services.charts import Race, league_race, player_spp, team_values
from league.services.errors import NotFound
from league.web.charts import LineChart, position_chart, spp_chart, team_value_chart

bp = Blueprint("history", __name__)

SVG = "image/svg+xml"
#: The team's charts by the name their SVG address uses.
CHARTS = ("value", "position")


def _team(team_id: int) -> Team:
    return access.get_team(db.session(), team_id, history=False, ledger=False, players=False)


def _race(team: Team) -> Race | None:
    try:
        return league_race(db.session(), team.league)
    except NotFound:  # a league without a season yet
        return None


def _charts(team: Team, which: tuple[str, ...] = CHARTS) -> dict[str, LineChart]:
    charts: dict[str, LineChart] = {}
    if "value" in which:
        charts["value"] = team_value_chart(team.name, team_values(db.session(), team.id))
    if "position" in which:
        race = _race(team) or Race("", ())
        charts["position"] = position_chart(team.id, team.name, race)
    return charts


@bp.get("/teams/<int:team_id>/history")
def team_history(team_id: int) -> str | Response:
    def render() -> str:
        team = _team(team_id)
        return render_template("teams/history.html", team=team, charts=_charts(team))

    return caching.revision_cached(render, lambda: "everyone")


def _svg(chart: Callable[[], LineChart]) -> Response:
    """The chart as an SVG document: the same for every viewer, so it is kept until the
    next write (the data revision) per language, with an ETag (304 on a revisit)."""

    def render() -> str:
        return render_template("charts/chart.svg", chart=chart())

    version = current_revision(db.session())
    if version is None:
        response = Response(render(), mimetype=SVG)
    else:
        key = f"svg:{request.full_path}|lang:{caching.cache_language()}"
        response = caching.cached_response(key, version, render, mimetype=SVG)
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")  # the language a signed-in user chose
    # A picture, never a document that runs anything.
    response.headers["Content-Security-Policy"] = "default-src 'none'"
    return response


@bp.get("/players/<int:player_id>/charts/spp.svg")
def player_chart(player_id: int) -> Response:
    """A player's SPP over the career, each advancement marked (the player page's image)."""

    def chart() -> LineChart:
        player, _team = access.get_player_and_team(db.session(), player_id)
        return spp_chart(player.name, player_spp(db.session(), player))

    return _svg(chart)


@bp.get("/teams/<int:team_id>/charts/<name>.svg")
def team_chart(team_id: int, name: str) -> Response:
    """One chart as a standalone SVG document (the team page's image)."""
    if name not in CHARTS:
        abort(404)

    def chart() -> LineChart:
        return _charts(_team(team_id), (name,))[name]

    return _svg(chart)
