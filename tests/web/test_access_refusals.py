"""Who may see a page is decided once, by league.services.access, and a refusal says why.

Each page asks the same `may_*` decision its service asks again; its 403 page shows the
decision's reason. No view of league/web writes a 403 (or a permission sentence) itself.
"""

from __future__ import annotations

import ast
import html
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from league.services import matches, teams
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_league, make_user
from tests.pages import login

WEB = Path(__file__).resolve().parents[2] / "league" / "web"


@dataclass(frozen=True, slots=True)
class World:
    league_id: int
    team_id: int
    player_id: int
    match_id: int


@pytest.fixture
def world(app) -> World:
    """League "bb2025 league": the coach's Reavers (one Blitzer) against the rival's Rivals,
    a match scheduled; a stranger belongs to no league."""
    commissioner = make_user("commish")
    coach, rival = make_user("coach"), make_user("rival")
    make_user("stranger")
    league = make_league(commissioner, "bb2025", coach, rival)
    with unit_of_work() as session:
        reavers = teams.create_team(
            session, coach, teams.NewTeam(league.id, "Reavers", "human", active=True)
        )
        rivals = teams.create_team(
            session, rival, teams.NewTeam(league.id, "Rivals", "human", active=True)
        )
        match = matches.schedule_match(session, commissioner, league.id, reavers.id, rivals.id)
    (blitzer,) = hire(coach, reavers, "human-blitzer")
    return World(league.id, reavers.id, blitzer.id, match.id)


#: (who, method, page, the reason its 403 page shows): a few of each kind of decision.
REFUSALS = [
    (
        "coach",
        "GET",
        "/leagues/{league}/settings",
        "Only a commissioner can change the league's settings.",
    ),
    ("coach", "GET", "/leagues/{league}/members", "Only a commissioner can manage the members."),
    (
        "coach",
        "GET",
        "/leagues/{league}/webhooks",
        "Only a commissioner of bb2025 league manages its webhooks.",
    ),
    (
        "coach",
        "GET",
        "/leagues/{league}/rosters",
        "Only a commissioner of bb2025 league can print the league pack.",
    ),
    (
        "coach",
        "GET",
        "/leagues/{league}/fixtures/generate",
        "Only a commissioner of bb2025 league can generate fixtures.",
    ),
    (
        "coach",
        "GET",
        "/leagues/{league}/matches/new",
        "Only a commissioner of bb2025 league can schedule matches.",
    ),
    ("coach", "GET", "/matches/{match}/void", "Only a commissioner can void a match."),
    (
        "rival",
        "GET",
        "/teams/{team}/coach",
        "Only a commissioner can hand a team to another coach.",
    ),
    (
        "rival",
        "POST",
        "/teams/{team}/hire",
        "Only Reavers's coach or a commissioner can hire players.",
    ),
    (
        "rival",
        "GET",
        "/players/{player}/advance",
        "Only Reavers's coach or a commissioner can advance its players.",
    ),
    (
        "rival",
        "GET",
        "/players/{player}/fire",
        "Only Reavers's coach or a commissioner can do that.",
    ),
    (
        "stranger",
        "GET",
        "/matches/{match}/report",
        "Only the two coaches and the commissioners can report this match.",
    ),
    (
        "stranger",
        "GET",
        "/leagues/{league}/teams/new",
        "Join bb2025 league before drafting a team there.",
    ),
]


@pytest.mark.parametrize(("who", "method", "page", "reason"), REFUSALS)
def test_a_refused_page_is_a_403_saying_why(
    client: FlaskClient, world: World, who: str, method: str, page: str, reason: str
) -> None:
    login(client, who)
    url = page.format(
        league=world.league_id, team=world.team_id, player=world.player_id, match=world.match_id
    )
    response = client.open(url, method=method)
    assert response.status_code == 403
    assert reason in html.unescape(response.text)


def test_the_same_pages_open_for_those_allowed(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    for page in ("/leagues/{league}/settings", "/leagues/{league}/webhooks", "/teams/{team}/coach"):
        assert (
            client.get(page.format(league=world.league_id, team=world.team_id)).status_code == 200
        )
    client.post("/logout")
    login(client, "coach")
    assert client.get(f"/players/{world.player_id}/fire").status_code == 200
    assert client.get(f"/matches/{world.match_id}/report").status_code == 200


def _web_modules() -> list[tuple[Path, ast.Module]]:
    paths = sorted(WEB.rglob("*.py"))
    assert paths, "league/web has no modules"
    return [(path, ast.parse(path.read_text(), filename=str(path))) for path in paths]


def _calls(tree: ast.Module, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)
    ]


def test_no_view_writes_its_own_403() -> None:
    """However the call is laid out (`abort(403, ...)`, `abort(\\n 403`, `abort(code=403)`)."""
    found = [
        f"{path.relative_to(WEB)}:{call.lineno}"
        for path, tree in _web_modules()
        for call in _calls(tree, "abort")
        if any(
            isinstance(arg, ast.Constant) and arg.value == 403
            for arg in [*call.args, *(k.value for k in call.keywords)]
        )
    ]
    assert found == []


def test_no_view_words_a_permission_refusal() -> None:
    """The sentences saying who may do what live in league.services.access, once."""
    found = [
        f"{path.relative_to(WEB)}:{call.lineno}"
        for path, tree in _web_modules()
        for name in ("gettext", "N_", "Forbidden")
        for call in _calls(tree, name)
        for arg in call.args[:1]
        if isinstance(arg, ast.Constant)
        and isinstance(arg.value, str)
        and arg.value.startswith(("Only ", "Join "))
    ]
    assert found == []
