"""Who may use which write route: every write route x every role, each on a fresh world.

`ROWS` lists every write route of the app (the web's POST routes, the API's
POST and DELETE routes) with valid data and, per role, the expected outcome.
`test_every_write_route_has_a_row` compares the table with `app.url_map`, so a
new write route fails the suite until it says who may use it.

"Allowed" means the action happened: a 2xx or the success redirect *and* the
audit log (or the session) shows the change. A refusal (log-in redirect, 401,
403, or a harmless redirect for "you are already logged in / a member") must
leave no trace at all: no audit entry after the seed. (Someone else's API token is
a 404 rather than a 403: it is hidden from everybody but its owner.)

The world is seeded once and copied for each case (see `tests.hardening.Snapshot`).
"""

from __future__ import annotations

import enum
import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from league.extensions import db
from league.models import ApiToken, AuditEntry, Match, Team, User
from league.services import (
    exchange,
    leagues,
    live_log,
    matches,
    postgame,
    pregame,
    redraft,
    seasons,
    teams,
    users,
    webhooks,
)
from league.services.advancement import AdvancementRequest, buy_advancement
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from tests import logo_files
from tests.hardening import Snapshot, log_in, session_user, snapshot
from tests.pages import LEAGUE_FORM

PASSWORD = "correct horse battery"
API = "/api/v1"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: A public address given as a number: no name to look up, nothing listening for the tests.
PUBLIC_HOOK = "https://1.1.1.1/hook"


class Role(enum.StrEnum):
    ANONYMOUS = "anonymous"
    #: Commissioner of another league, and coach of a team there.
    OUTSIDER = "outsider"
    #: Coaches another team of the same league.
    RIVAL = "rival"
    #: Coaches the team (and the draft team) the routes act on.
    COACH = "coach"
    COMMISSIONER = "commissioner"
    #: Site admin, member of no league.
    ADMIN = "admin"


class Outcome(enum.Enum):
    ALLOWED = "allowed"
    LOGIN = "login redirect"
    UNAUTHORIZED = "401"
    FORBIDDEN = "403"
    #: Someone else's thing is hidden: as if it did not exist.
    NOT_FOUND = "404"
    #: Refused as in conflict with the state: joining a league one already belongs to (API).
    CONFLICT = "409"
    #: Sent elsewhere with nothing done: logging in while logged in, joining twice, a wrong
    #: join link.
    IGNORED = "ignored"


# ---------------------------------------------------------------------------
# The world every case starts from


@dataclass
class World:
    """League A (the commissioner's): the coach's active team and draft team, the rival's and
    the opponent's teams, matches between the coach's team and the opponent's; league B (the
    outsider's). Ids only, so the world can be used from any session."""

    users: dict[str, int]
    tokens: dict[Role, str]
    league: int
    other_league: int
    team: int
    rival_team: int
    opponent_team: int
    draft_team: int
    #: A Blitzer on the coach's team with 6 SPP to spend.
    player: int
    #: A Blitzer on the coach's team with one advancement (undoable by his coach).
    veteran: int
    #: Scheduled, coach's team vs the opponent's.
    scheduled: int
    #: Played, coach's team vs the opponent's (voidable).
    played: int
    join_token: str
    #: The outsider's team in the other league.
    outside_team: int
    #: The id of the coach's API token.
    coach_token: int
    #: Played after a pre-game: a journeyman of the coach's team waiting to be hired.
    journeyman_match: int
    journeyman: int
    #: Six players of the coach's team who could play the journeyman match (MVP nominees).
    mvp_nominees: tuple[int, ...]
    #: Played, the coach's team conceded (its departures not rolled yet).
    conceded: int
    #: A webhook of the league, told about nothing the rows do (nothing is sent).
    webhook: int
    #: The last audit entry of the seed: anything after it was done by the request.
    mark: int = 0
    #: A touchdown the coach logged for his side of the scheduled match's live log.
    log_event: int = 0
    #: Scheduled, coach's team vs the opponent's, its (empty) live log confirmed by both.
    log_confirmed: int = 0

    def user_id(self, role: Role) -> int:
        return self.users[ROLE_USERS[role]]


ROLE_USERS = {
    Role.OUTSIDER: "outsider",
    Role.RIVAL: "rival",
    Role.COACH: "coach",
    Role.COMMISSIONER: "commish",
    Role.ADMIN: "admin",
}


def _user(name: str, admin: bool = False) -> User:
    with unit_of_work() as session:
        return users.create_user(session, users.NewUser(name, PASSWORD, admin))


def _hire(actor: User, team_id: int, position: str, name: str) -> int:
    with unit_of_work() as session:
        player = teams.hire_player(session, actor, team_id, teams.HirePlayer(position, name))
        return player.id


def _team(actor: User, league_id: int, name: str, team_type: str, *, active: bool = True) -> int:
    with unit_of_work() as session:
        command = teams.NewTeam(league_id, name, team_type, active=active)
        return teams.create_team(session, actor, command).id


def _side(score: int = 0) -> SideReport:
    # Fixed Expensive Mistakes dice: the seed is the same every time.
    return SideReport(score=score, mistake_d6=6, mistake_dice=1)


def seed_world() -> World:
    made = {
        name: _user(name, admin=name == "admin")
        for name in (
            "commish",
            "coach",
            "rival",
            "opponent",
            "outsider",
            "admin",
            "loner",
            "deputy",
        )
    }
    commish, coach = made["commish"], made["coach"]
    with unit_of_work() as session:
        league = leagues.create_league(
            session, commish, leagues.LeagueSettings("Permission League", "bb2025")
        )
        for name in ("coach", "rival", "opponent"):
            leagues.add_member(session, commish, league, made[name], "coach")
        # A co-commissioner, whom the owner (commish) may hand the league to.
        leagues.add_member(session, commish, league, made["deputy"], "commissioner")
        other = leagues.create_league(
            session, made["outsider"], leagues.LeagueSettings("Other League", "bb2025")
        )
        league_id, other_id, join_token = league.id, other.id, league.join_token
    team = _team(coach, league_id, "Coach Crushers", "human")
    rival_team = _team(made["rival"], league_id, "Rival Raiders", "orc")
    opponent_team = _team(made["opponent"], league_id, "Opponent Ogres", "orc")
    outside_team = _team(made["outsider"], other_id, "Outsider Outlaws", "human")
    # A fourth active team, so the league can seed a bracket of four.
    _team(made["opponent"], league_id, "Opponent Outriders", "orc")
    player = _hire(coach, team, "human-blitzer", "Pim Player")
    veteran = _hire(coach, team, "human-blitzer", "Vic Veteran")
    lineman = _hire(coach, team, "human-lineman", "Len Lineman")
    _hire(made["rival"], rival_team, "orc-lineman", "Rik Rival")
    olg = _hire(made["opponent"], opponent_team, "orc-lineman", "Olg Opponent")

    draft_team = _team(coach, league_id, "Draft Dodgers", "human", active=False)
    with unit_of_work() as session:
        for number in range(1, 12):
            command = teams.HirePlayer("human-lineman", f"Draftee {number}", number)
            teams.hire_player(session, coach, draft_team, command)
        teams.buy_team_item(session, coach, draft_team, "reroll")

    # Friendlies, so the season has no league match and fixtures can still be generated.
    with unit_of_work() as session:
        scoring = matches.schedule_match(
            session, commish, league_id, team, opponent_team, friendly=True
        )
        report = MatchReport(
            home=_side(4),
            away=_side(),
            players=(PlayerEvents(player, td=2), PlayerEvents(veteran, td=2, mvp=1)),
        )
        matches.record_result(session, commish, scoring.id, report)
    with unit_of_work() as session:
        conceded = matches.schedule_match(
            session, commish, league_id, team, opponent_team, friendly=True
        ).id
        gave_up = SideReport(conceded=True, mistake_d6=6, mistake_dice=1)
        matches.record_result(
            session,
            commish,
            conceded,
            MatchReport(gave_up, _side(1), (PlayerEvents(olg, td=1),)),
        )
    # A pre-game: the coach's three players take eight journeymen; then the result.
    with unit_of_work() as session:
        journeyman_match = matches.schedule_match(
            session, commish, league_id, team, opponent_team, friendly=True
        ).id
    with unit_of_work() as session:
        pregame.record_side(session, coach, journeyman_match, "home", pregame.SideChoices())
    with unit_of_work() as session:
        pregame.record_side(
            session, made["opponent"], journeyman_match, "away", pregame.SideChoices()
        )
    with unit_of_work() as session:
        matches.record_result(session, commish, journeyman_match, MatchReport(_side(), _side()))
        match = session.get(Match, journeyman_match)
        assert match is not None
        taken_on = postgame.match_day_players(session, match, session.get(Team, team))
        journeyman = taken_on[0].id
        mvp_nominees = (player, veteran, *(p.id for p in taken_on[:4]))
    with unit_of_work() as session:
        buy_advancement(session, coach, veteran, AdvancementRequest("chosen_primary", "Dauntless"))
    # Season 1 closes, and the coach's team submits its re-draft for approval.
    with unit_of_work() as session:
        seasons.close_season(session, commish, league_id)
    with unit_of_work() as session:
        keep = redraft.redraft_plan(session, team).current
        redraft.submit_redraft(session, coach, team, keep)
    # A played and a scheduled match of Season 2: a closed season's results cannot change.
    # The played one is the rival's and the opponent's, so that the coach's team's last
    # match stays the journeymen's (hired after it) and its advancement can be undone.
    with unit_of_work() as session:
        played = matches.schedule_match(
            session, commish, league_id, rival_team, opponent_team, friendly=True
        )
        matches.record_result(session, commish, played.id, MatchReport(_side(), _side()))
        played_id = played.id
    with unit_of_work() as session:
        scheduled = matches.schedule_match(
            session, commish, league_id, team, opponent_team, friendly=True
        ).id
    with unit_of_work() as session:
        entry = live_log.LogEntry("seed-coach-01", "home", "td", 1, 2, player_id=lineman)
        log_event = live_log.log_event(session, coach, scheduled, entry)[0].id
    with unit_of_work() as session:
        log_confirmed = matches.schedule_match(
            session, commish, league_id, team, opponent_team, friendly=True
        ).id
    with unit_of_work() as session:
        live_log.confirm_side(session, coach, log_confirmed, "home")
    with unit_of_work() as session:
        live_log.confirm_side(session, made["opponent"], log_confirmed, "away")
    with unit_of_work() as session:
        tokens = {role: users.issue_token(session, made[name]) for role, name in ROLE_USERS.items()}
    coach_token = db.session.scalar(select(ApiToken.id).where(ApiToken.user_id == coach.id))
    with unit_of_work() as session:
        webhook = webhooks.create_webhook(
            session, commish, league_id, WebhookSettings(PUBLIC_HOOK, ("team.redrafted",))
        ).id
    mark = db.session.scalar(select(func.max(AuditEntry.id))) or 0
    return World(
        users={name: user.id for name, user in made.items()},
        tokens=tokens,
        league=league_id,
        other_league=other_id,
        team=team,
        rival_team=rival_team,
        opponent_team=opponent_team,
        draft_team=draft_team,
        player=player,
        veteran=veteran,
        scheduled=scheduled,
        played=played_id,
        join_token=join_token,
        outside_team=outside_team,
        coach_token=coach_token,
        journeyman_match=journeyman_match,
        journeyman=journeyman,
        mvp_nominees=mvp_nominees,
        conceded=conceded,
        webhook=webhook,
        mark=mark,
        log_event=log_event,
        log_confirmed=log_confirmed,
    )


def audit_after(world: World) -> list[str]:
    db.session.rollback()
    query = select(AuditEntry.action).where(AuditEntry.id > world.mark).order_by(AuditEntry.id)
    return list(db.session.scalars(query))


# ---------------------------------------------------------------------------
# The table


@dataclass(frozen=True, slots=True)
class Call:
    method: str
    url: str
    form: dict[str, Any] | None = None
    json: Any = None

    @property
    def api(self) -> bool:
        return self.url.startswith(f"{API}/")


@dataclass(frozen=True, slots=True)
class Seen:
    """What a request left behind, for a row's effect check."""

    world: World
    client: FlaskClient
    role: Role
    response: TestResponse


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    endpoint: str
    method: str
    call: Callable[[World], Call]
    expected: Mapping[Role, Outcome]
    #: Did the action happen? Checked both ways: yes when allowed, no when refused.
    happened: Callable[[Seen], bool]


EVERYONE = frozenset(Role) - {Role.ANONYMOUS}
MEMBERS = frozenset({Role.RIVAL, Role.COACH, Role.COMMISSIONER, Role.ADMIN})
MANAGERS = frozenset({Role.COACH, Role.COMMISSIONER, Role.ADMIN})
COMMISSIONERS = frozenset({Role.COMMISSIONER, Role.ADMIN})


def web(allowed: Iterable[Role], ignored: Iterable[Role] = ()) -> dict[Role, Outcome]:
    """Log-in redirect for the anonymous, `allowed`, `ignored`, 403 for everybody else."""
    outcomes = dict.fromkeys(Role, Outcome.FORBIDDEN)
    outcomes[Role.ANONYMOUS] = Outcome.LOGIN
    outcomes.update(dict.fromkeys(allowed, Outcome.ALLOWED))
    outcomes.update(dict.fromkeys(ignored, Outcome.IGNORED))
    return outcomes


def api(allowed: Iterable[Role]) -> dict[Role, Outcome]:
    outcomes = dict.fromkeys(Role, Outcome.FORBIDDEN)
    outcomes[Role.ANONYMOUS] = Outcome.UNAUTHORIZED
    outcomes.update(dict.fromkeys(allowed, Outcome.ALLOWED))
    return outcomes


def audited(action: str) -> Callable[[Seen], bool]:
    return lambda seen: action in audit_after(seen.world)


def _logged_out(seen: Seen) -> bool:
    return seen.role is not Role.ANONYMOUS and session_user(seen.client) is None


def _session_language(seen: Seen) -> str | None:
    with seen.client.session_transaction() as session:
        language = session.get("language")
    return language if isinstance(language, str) else None


def _logged_in_as_loner(seen: Seen) -> bool:
    # The session carries the user's session secret (User.get_id), not the id.
    loner = db.session.get(User, seen.world.users["loner"])
    return loner is not None and session_user(seen.client) == loner.session_secret


def _pack_built(seen: Seen) -> bool:
    """The league pack's PDF is in the case's own cache (the tests' jobs run at once)."""
    folder = Path(seen.client.application.config["PDF_CACHE_DIR"])
    return any(folder.glob(f"league-{seen.world.league}-*.pdf"))


def _shows_confirmation(seen: Seen) -> bool:
    return f"/players/{seen.world.player}/advance/confirm" in seen.response.text


def _post(url: str, **form: Any) -> Callable[[World], Call]:
    """A web POST; `url`, field names and string values are formatted with the world's fields."""

    def build(world: World) -> Call:
        values = {**vars(world), "player_number": 1}
        data = {
            k.format(**values): v.format(**values) if isinstance(v, str) else v
            for k, v in form.items()
        }
        return Call("POST", url.format(**values), form=data)

    return build


def _first_round_by_hand(world: World) -> Call:
    """Every active team of the league at a table, in pairs (one left out: the bye)."""
    active = db.session.scalars(
        select(Team.id).where(Team.league_id == world.league, Team.status == "active")
    ).all()
    form = {}
    for table, at in enumerate(range(0, len(active) - 1, 2), start=1):
        form[f"table_{table}_home"] = active[at]
        form[f"table_{table}_away"] = active[at + 1]
    return Call("POST", f"/leagues/{world.league}/entries/first-round", form=form)


def _api(method: str, url: str, body: Callable[[World], Any] | None = None):
    def build(world: World) -> Call:
        return Call(method, f"{API}{url.format(**vars(world))}", json=body(world) if body else None)

    return build


def _with_logo(method: str, url: str) -> Callable[[World], Call]:
    """A multipart post of a small PNG in the field `logo` (a new file for each call)."""

    def build(world: World) -> Call:
        data = {"logo": (io.BytesIO(logo_files.image_bytes((32, 32))), "crest.png")}
        return Call(method, url.format(**vars(world)), form=data)

    return build


def _export(team_id: int) -> Any:
    """The team as an export document (another league's team, to import)."""
    return exchange.export_team(db.session, team_id)


SETTINGS = {
    "name": "Renamed League",
    **LEAGUE_FORM,
    "tie_breaker_2": "head_to_head",
}
REPORT = {
    "home_score": "1",
    "away_score": "0",
    "home_fans_change": "0",
    "away_fans_change": "0",
    "home_mistake_d6": "6",
    "away_mistake_d6": "6",
}

ROWS: tuple[Row, ...] = (
    # -- accounts
    Row(
        "register",
        "auth.register",
        "POST",
        _post("/register", username="newbie", password=PASSWORD, confirm=PASSWORD),
        {Role.ANONYMOUS: Outcome.ALLOWED} | dict.fromkeys(EVERYONE, Outcome.IGNORED),
        audited("user.create"),
    ),
    Row(
        "login",
        "auth.login",
        "POST",
        _post("/login", username="loner", password=PASSWORD),
        {Role.ANONYMOUS: Outcome.ALLOWED} | dict.fromkeys(EVERYONE, Outcome.IGNORED),
        _logged_in_as_loner,
    ),
    Row("logout", "auth.logout", "POST", _post("/logout"), web(EVERYONE), _logged_out),
    Row(
        "change password",
        "profile.change_password",
        "POST",
        _post(
            "/profile/password",
            current_password=PASSWORD,
            new_password="mighty zug smashes",
            confirm="mighty zug smashes",
        ),
        web(EVERYONE),
        audited("user.change_password"),
    ),
    Row(
        "save the NAF name and number",
        "profile.change_naf",
        "POST",
        _post("/profile/naf", naf_name="Naffer", naf_number="321"),
        web(EVERYONE),
        audited("user.set_naf_identity"),
    ),
    Row(
        "choose the profile language",
        "profile.change_language",
        "POST",
        _post("/profile/language", language="fr"),
        web(EVERYONE),
        audited("user.set_language"),
    ),
    Row(
        "switch the language (footer)",
        "i18n.switch",
        "POST",
        _post("/language", language="fr", next="/rules"),
        # Anybody: signed out it is kept in the session only.
        dict.fromkeys(Role, Outcome.ALLOWED),
        lambda seen: _session_language(seen) == "fr",
    ),
    Row(
        "log out everywhere",
        "profile.end_sessions",
        "POST",
        _post("/profile/sessions/end"),
        web(EVERYONE),
        audited("user.end_sessions"),
    ),
    Row(
        "create an API token",
        "profile.create_token",
        "POST",
        _post("/profile/tokens", name="My script"),
        web(EVERYONE),
        audited("token.issue"),
    ),
    Row(
        "revoke an API token",
        "profile.revoke_token",
        "POST",
        _post("/profile/tokens/{coach_token}/revoke"),
        # Only its owner sees a token: for anybody else it does not exist.
        web({Role.COACH}) | dict.fromkeys(EVERYONE - {Role.COACH}, Outcome.NOT_FOUND),
        audited("token.revoke"),
    ),
    # -- leagues
    Row(
        "create league",
        "leagues.create",
        "POST",
        _post("/leagues/new", **{**SETTINGS, "name": "Fresh League"}),
        web(EVERYONE),
        audited("league.create"),
    ),
    Row(
        "league settings",
        "leagues.settings",
        "POST",
        _post("/leagues/{league}/settings", **SETTINGS),
        web(COMMISSIONERS),
        audited("league.settings"),
    ),
    Row(
        "add member",
        "leagues.members",
        "POST",
        _post("/leagues/{league}/members", username="loner"),
        web(COMMISSIONERS),
        audited("league.join"),
    ),
    Row(
        "promote member",
        "leagues.promote",
        "POST",
        lambda w: Call("POST", f"/leagues/{w.league}/members/{w.users['opponent']}/promote", {}),
        web(COMMISSIONERS),
        audited("league.promote"),
    ),
    Row(
        "remove member",
        "leagues.remove",
        "POST",
        lambda w: Call(
            "POST",
            f"/leagues/{w.league}/members/{w.users['opponent']}/remove",
            {"confirmed": "yes"},
        ),
        web(COMMISSIONERS),
        audited("league.remove"),
    ),
    Row(
        "hand the league over",
        "leagues.hand_over",
        "POST",
        lambda w: Call("POST", f"/leagues/{w.league}/members/{w.users['deputy']}/owner", {}),
        web({Role.COMMISSIONER}),
        audited("league.owner"),
    ),
    Row(
        "new join link",
        "leagues.new_join_link",
        "POST",
        _post("/leagues/{league}/join-link"),
        web(COMMISSIONERS),
        audited("league.join_link"),
    ),
    Row(
        "join with the link",
        "leagues.join",
        "POST",
        _post("/leagues/{league}/join/{join_token}"),
        web({Role.OUTSIDER, Role.ADMIN}, ignored=MEMBERS - {Role.ADMIN}),
        audited("league.join"),
    ),
    Row(
        "join with a wrong link",
        "leagues.join",
        "POST",
        _post("/leagues/{league}/join/not-the-token"),
        # Refused with a message on the league page (the GET of a wrong link is a 403).
        web((), ignored=EVERYONE),
        audited("league.join"),
    ),
    Row(
        "build the league pack",
        "printing.build_league_pack",
        "POST",
        _post("/leagues/{league}/rosters/build"),
        web(COMMISSIONERS),
        _pack_built,
    ),
    Row(
        "close the season",
        "leagues.next_season",
        "POST",
        _post("/leagues/{league}/seasons/next"),
        web(COMMISSIONERS),
        audited("league.new_season"),
    ),
    Row(
        "reopen the season",
        "leagues.reopen_season",
        "POST",
        _post("/leagues/{league}/seasons/1/reopen", confirmed="yes"),
        # Season 1 has a re-draft submitted after it: a commissioner is told it cannot be
        # reopened (back on its page); everybody else may not even ask.
        web((), ignored=COMMISSIONERS),
        audited("league.reopen_season"),
    ),
    Row(
        "submit a re-draft",
        "seasons.redraft",
        "POST",
        _post(
            "/teams/{team}/redraft",
            keep="{player}",
            rerolls="0",
            assistant_coaches="0",
            cheerleaders="0",
        ),
        web(MANAGERS),
        audited("team.redraft_submitted"),
    ),
    Row(
        "approve a re-draft",
        "seasons.approve",
        "POST",
        _post("/teams/{team}/redraft/approve", confirmed="yes"),
        web(COMMISSIONERS),
        audited("team.redraft_approved"),
    ),
    Row(
        "seed the playoffs",
        "seasons.seed_playoffs",
        "POST",
        _post("/leagues/{league}/playoffs", size="4"),
        web(COMMISSIONERS),
        audited("league.playoffs"),
    ),
    Row(
        # No bracket yet: commissioners are told so, others are refused.
        "advance the playoffs",
        "seasons.advance_playoffs",
        "POST",
        _post("/leagues/{league}/playoffs/advance"),
        web((), ignored=COMMISSIONERS),
        audited("league.playoffs_advance"),
    ),
    Row(
        "pair the next Swiss round",
        "fixtures.pair_round",
        "POST",
        _post("/leagues/{league}/fixtures/rounds/next"),
        web(COMMISSIONERS),
        audited("league.swiss_round"),
    ),
    Row(
        "submit a roster for the event",
        "event.submit_roster",
        "POST",
        _post("/teams/{team}/roster/submit"),
        web(MANAGERS),
        audited("team.roster_submit"),
    ),
    Row(
        "approve a roster for the event",
        "event.review_roster",
        "POST",
        _post("/teams/{team}/roster/review", approved="1"),
        web(COMMISSIONERS),
        audited("team.roster_review"),
    ),
    Row(
        # The world's season has no round (friendlies only): commissioners get its 404.
        "enter a round's results",
        "event.enter_results",
        "POST",
        _post(
            "/leagues/{league}/fixtures/rounds/1/results",
            t1_home_td="1",
            t1_home_cas="0",
            t1_away_td="0",
            t1_away_cas="0",
        ),
        web(()) | dict.fromkeys(COMMISSIONERS, Outcome.NOT_FOUND),
        audited("match.record"),
    ),
    Row(
        "place teams in divisions",
        "seasons.divisions",
        "POST",
        _post("/leagues/{league}/divisions", **{"team_{team}": "North"}),
        web(COMMISSIONERS),
        audited("league.divisions"),
    ),
    Row(
        "enter a team in the tournament",
        "entries.index",
        "POST",
        _post(
            "/leagues/{league}/entries",
            team_id="0",
            name="Entry Team",
            team_type_id="human",
            coach="coach",
        ),
        web(COMMISSIONERS),
        audited("team.enter"),
    ),
    Row(
        "set an entry's club and rating",
        "entries.edit",
        "POST",
        _post("/leagues/{league}/entries/{team}", club="Albion", seed_rating="170"),
        web(COMMISSIONERS),
        audited("team.update_entry"),
    ),
    Row(
        "drop an entry",
        "entries.drop",
        "POST",
        _post("/leagues/{league}/entries/{rival_team}/drop", confirmed="yes"),
        web(COMMISSIONERS),
        audited("team.drop"),
    ),
    Row(
        # The rival has not dropped: commissioners are told so.
        "take back a drop",
        "entries.undrop",
        "POST",
        _post("/leagues/{league}/entries/{rival_team}/undrop"),
        web((), ignored=COMMISSIONERS),
        audited("team.undrop"),
    ),
    Row(
        # No Swiss round waits to start: commissioners are told so.
        "swap two pairings",
        "entries.swap",
        "POST",
        _post(
            "/leagues/{league}/entries/swap",
            one="{team}",
            other="{opponent_team}",
            confirmed="yes",
        ),
        web((), ignored=COMMISSIONERS),
        audited("league.swap_pairings"),
    ),
    Row(
        "pair the first round by hand",
        "entries.first_round",
        "POST",
        _first_round_by_hand,
        web(COMMISSIONERS),
        audited("league.swiss_round"),
    ),
    Row(
        # A friendly has no winner to record: commissioners are told so.
        "record a knock-out winner",
        "seasons.record_winner",
        "POST",
        _post("/matches/{played}/winner", **{"m{played}-team_id": "{rival_team}"}),
        web((), ignored=COMMISSIONERS),
        audited("match.winner"),
    ),
    Row(
        "draft a team",
        "leagues.new_team",
        "POST",
        _post("/leagues/{league}/teams/new", name="Fresh Team", team_type_id="human"),
        web(MEMBERS),
        audited("team.create"),
    ),
    # -- finding a time to play
    Row(
        "offer times for a fixture",
        "matches.offer_times",
        "POST",
        _post("/matches/{scheduled}/time/offer", side="home", first="2099-01-01T20:00"),
        web(MANAGERS),
        audited("match.offer_times"),
    ),
    Row(
        # Nobody offered that time: the coaches and commissioners are told so.
        "agree a time for a fixture",
        "matches.accept_time",
        "POST",
        _post("/matches/{scheduled}/time/accept", starts_at="2099-01-01T20:00:00+00:00"),
        web((), ignored=MANAGERS),
        audited("match.agree_time"),
    ),
    # -- Discord
    Row(
        "connect the league to Discord",
        "discord.settings",
        "POST",
        _post(
            "/leagues/{league}/discord",
            application_id="112233445566778899",
            public_key="3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            bot_token="MTEy.matrix-token.abcdefghijklmnopqrstuvwxyz",
            guild_id="998877665544332211",
            channel_id="123456789012345678",
        ),
        web(COMMISSIONERS),
        audited("discord.connect"),
    ),
    Row(
        # The league is not connected yet: commissioners are told so.
        "register the slash commands",
        "discord.register",
        "POST",
        _post("/leagues/{league}/discord/register"),
        web((), ignored=COMMISSIONERS),
        audited("discord.register_commands"),
    ),
    Row(
        # Discord's signature, not a session, opens this door: everybody else gets 401.
        "Discord's interactions",
        "discord.interactions_endpoint",
        "POST",
        _post("/discord/interactions"),
        dict.fromkeys(Role, Outcome.UNAUTHORIZED),
        audited("discord.link"),
    ),
    Row(
        # A link token nobody was given: not found.
        "tie a Discord user to the account",
        "discord.link",
        "POST",
        _post("/discord/link/not-a-token"),
        {Role.ANONYMOUS: Outcome.LOGIN} | dict.fromkeys(EVERYONE, Outcome.NOT_FOUND),
        audited("discord.link"),
    ),
    Row(
        # Nobody here has a Discord user linked: nothing to untie.
        "untie the Discord user",
        "discord.unlink",
        "POST",
        _post("/discord/unlink"),
        web((), ignored=EVERYONE),
        audited("discord.unlink"),
    ),
    # -- the live match log
    Row(
        "log an event from the live page",
        "matches.live_event",
        "POST",
        _post(
            "/matches/{scheduled}/live/events",
            id="matrix-web-01",
            side="home",
            kind="ko",
            player_id="{player}",
            half="1",
            turn="2",
        ),
        web(MANAGERS),
        audited("match.log"),
    ),
    Row(
        "take a logged event back from the live page",
        "matches.live_delete",
        "POST",
        _post("/matches/{scheduled}/live/events/{log_event}/delete"),
        web(MANAGERS),
        audited("match.log_delete"),
    ),
    Row(
        "dispute an event from the live page",
        "matches.live_dispute",
        "POST",
        _post("/matches/{scheduled}/live/events/{log_event}/dispute"),
        web(COMMISSIONERS),
        audited("match.log_dispute"),
    ),
    Row(
        "settle a dispute from the live page",
        "matches.live_keep",
        "POST",
        _post("/matches/{scheduled}/live/events/{log_event}/keep"),
        web(COMMISSIONERS),
        audited("match.log_keep"),
    ),
    Row(
        "confirm a side from the live page",
        "matches.live_confirm",
        "POST",
        _post("/matches/{scheduled}/live/confirm", side="home"),
        web(MANAGERS),
        audited("match.log_confirm"),
    ),
    Row(
        "finalise the confirmed log from the live page",
        "matches.live_finalise",
        "POST",
        _post("/matches/{log_confirmed}/live/finalise"),
        web(COMMISSIONERS),
        audited("match.record"),
    ),
    # -- fixtures and matches
    Row(
        "generate fixtures",
        "fixtures.generate",
        "POST",
        _post(
            "/leagues/{league}/fixtures/generate", format="single", days_between="7", confirm="y"
        ),
        web(COMMISSIONERS),
        audited("fixtures.generate"),
    ),
    Row(
        "add a fixture",
        "fixtures.new",
        "POST",
        _post(
            "/leagues/{league}/fixtures/new",
            home_team="{team}",
            away_team="{opponent_team}",
            round_number="1",
        ),
        web(COMMISSIONERS),
        audited("match.schedule"),
    ),
    Row(
        "schedule a match",
        "matches.new",
        "POST",
        _post("/leagues/{league}/matches/new", home_team="{team}", away_team="{opponent_team}"),
        web(COMMISSIONERS),
        audited("match.schedule"),
    ),
    Row(
        "save a report draft",
        "matches.report",
        "POST",
        _post("/matches/{scheduled}/report", **REPORT, save_draft="Save draft"),
        # The coach's team plays the match; the rival's does not.
        web(MANAGERS),
        audited("match.draft"),
    ),
    Row(
        "finalise a result",
        "matches.report",
        "POST",
        # The one touchdown of the 1-0 is the coach's player's.
        _post(
            "/matches/{scheduled}/report",
            **REPORT,
            **{"p{player}_td": "1"},
            finalise="Finalise result",
        ),
        web(COMMISSIONERS),
        audited("match.record"),
    ),
    Row(
        "void a match",
        "matches.void",
        "POST",
        _post("/matches/{played}/void"),
        web(COMMISSIONERS),
        audited("match.void"),
    ),
    Row(
        "hire a journeyman for good",
        "matches.hire_journeyman",
        "POST",
        _post("/matches/{journeyman_match}/journeymen/{journeyman}/hire"),
        web(MANAGERS),
        audited("player.hire_journeyman"),
    ),
    Row(
        "draw a side's MVP",
        "matches.draw_mvp",
        "POST",
        lambda w: Call(
            "POST",
            f"/matches/{w.journeyman_match}/mvp/home",
            form={"home-mvp-nominees": [str(pid) for pid in w.mvp_nominees]},
        ),
        web(MANAGERS),
        audited("match.mvp_draw"),
    ),
    Row(
        "roll a conceding team's departures",
        "matches.departures",
        "POST",
        _post("/matches/{conceded}/departures/home"),
        web(MANAGERS),
        audited("match.departures"),
    ),
    Row(
        "choose a side's pre-game",
        "pregame.choose",
        "POST",
        # The coach's team is at home, with the higher CTV: it chooses first.
        _post("/matches/{scheduled}/pregame/home"),
        web(MANAGERS),
        audited("match.pregame"),
    ),
    # -- webhooks
    Row(
        "add a webhook",
        "webhooks.index",
        "POST",
        lambda w: Call(
            "POST",
            f"/leagues/{w.league}/webhooks",
            {"url": PUBLIC_HOOK, "events": "team.redrafted", "format": "json"},
        ),
        web(COMMISSIONERS),
        audited("webhook.create"),
    ),
    Row(
        "edit a webhook",
        "webhooks.edit",
        "POST",
        lambda w: Call(
            "POST",
            f"/webhooks/{w.webhook}/edit",
            {"url": PUBLIC_HOOK, "events": "season.closed", "format": "json"},
        ),
        web(COMMISSIONERS),
        audited("webhook.update"),
    ),
    Row(
        "resume a webhook",
        "webhooks.resume",
        "POST",
        _post("/webhooks/{webhook}/resume"),
        web(COMMISSIONERS),
        audited("webhook.resume"),
    ),
    Row(
        "send a test to a webhook",
        "webhooks.send_test",
        "POST",
        _post("/webhooks/{webhook}/test"),
        web(COMMISSIONERS),
        audited("webhook.test"),
    ),
    Row(
        "delete a webhook",
        "webhooks.delete",
        "POST",
        _post("/webhooks/{webhook}/delete", confirmed="yes"),
        web(COMMISSIONERS),
        audited("webhook.delete"),
    ),
    # -- teams and players
    Row(
        "hire",
        "teams.hire",
        "POST",
        _post("/teams/{team}/hire", position_id="human-lineman", name="New Hire"),
        web(MANAGERS),
        audited("player.hire"),
    ),
    Row(
        "buy an item",
        "teams.buy",
        "POST",
        _post("/teams/{team}/buy", item="reroll"),
        web(MANAGERS),
        audited("team.buy"),
    ),
    Row(
        "give an item back",
        "teams.give_back",
        "POST",
        _post("/teams/{draft_team}/give-back", item="reroll", confirmed="yes"),
        web(MANAGERS),
        audited("team.give_back"),
    ),
    Row(
        "confirm the draft",
        "teams.confirm",
        "POST",
        _post("/teams/{draft_team}/confirm", confirmed="yes"),
        web(MANAGERS),
        audited("team.confirm"),
    ),
    Row(
        "adjust the treasury",
        "teams.adjust_treasury",
        "POST",
        _post("/teams/{team}/treasury", amount="1000", reason="Sponsorship", confirmed="yes"),
        web(COMMISSIONERS),
        audited("team.adjust_treasury"),
    ),
    Row(
        "hand the team to another coach",
        "teams.reassign",
        "POST",
        _post("/teams/{team}/coach", coach="rival"),
        web(COMMISSIONERS),
        audited("team.reassign"),
    ),
    Row(
        "pick the team's colours",
        "identity.colours",
        "POST",
        _post("/teams/{team}/colours", primary="#1f4e9c", secondary="#ffffff"),
        web(MANAGERS),
        audited("team.colours"),
    ),
    Row(
        "upload a logo",
        "identity.upload_logo",
        "POST",
        _with_logo("POST", "/teams/{team}/logo"),
        web(MANAGERS),
        audited("team.logo"),
    ),
    Row(
        "remove the logo",
        "identity.remove_logo",
        "POST",
        _post("/teams/{team}/logo/remove", confirmed="yes"),
        web(MANAGERS),
        audited("team.logo_removed"),
    ),
    Row(
        "edit a player",
        "teams.edit_player",
        "POST",
        _post("/players/{player}/edit", name="Renamed Player", number="{player_number}"),
        web(MANAGERS),
        audited("player.rename"),
    ),
    Row(
        "fire a player",
        "teams.fire",
        "POST",
        _post("/players/{player}/fire"),
        web(MANAGERS),
        audited("player.fire"),
    ),
    Row(
        "retire a player",
        "teams.retire",
        "POST",
        _post("/players/{player}/retire"),
        web(MANAGERS),
        audited("player.retire"),
    ),
    Row(
        "preview an advancement",
        "advancement.preview_choice",
        "POST",
        _post("/players/{player}/advance", kind="chosen_primary", choice="Dauntless"),
        web(MANAGERS),
        _shows_confirmation,
    ),
    Row(
        "buy an advancement",
        "advancement.confirm",
        "POST",
        _post(
            "/players/{player}/advance/confirm", kind="chosen_primary", choice="Dauntless", number=1
        ),
        web(MANAGERS),
        audited("player.advance"),
    ),
    Row(
        "undo an advancement",
        "advancement.undo",
        "POST",
        _post("/players/{veteran}/advance/undo"),
        web(MANAGERS),
        audited("player.undo_advance"),
    ),
    # -- the API (bearer tokens)
    Row(
        "API: create a league",
        "api.create_league",
        "POST",
        _api("POST", "/leagues", lambda w: {"name": "API League"}),
        api(EVERYONE),
        audited("league.create"),
    ),
    Row(
        "API: league settings",
        "api.update_league",
        "PATCH",
        _api("PATCH", "/leagues/{league}", lambda w: {"table_dice_allowed": True}),
        api(COMMISSIONERS),
        audited("league.settings"),
    ),
    Row(
        "API: close the season",
        "api.close_season",
        "POST",
        _api("POST", "/leagues/{league}/seasons/2/close"),
        api(COMMISSIONERS),
        audited("league.new_season"),
    ),
    Row(
        "API: reopen the season",
        "api.reopen_season",
        "POST",
        _api("POST", "/leagues/{league}/seasons/1/reopen"),
        # Season 1 has a re-draft submitted after it: 409 for a commissioner.
        api(()) | dict.fromkeys(COMMISSIONERS, Outcome.CONFLICT),
        audited("league.reopen_season"),
    ),
    Row(
        "API: seed the playoffs",
        "api.seed_playoffs",
        "POST",
        _api("POST", "/leagues/{league}/playoffs", lambda w: {"teams": 4}),
        api(COMMISSIONERS),
        audited("league.playoffs"),
    ),
    Row(
        "API: advance the playoffs",
        "api.advance_playoffs",
        "POST",
        _api("POST", "/leagues/{league}/playoffs/advance"),
        api(()) | dict.fromkeys(COMMISSIONERS, Outcome.NOT_FOUND),
        audited("league.playoffs_advance"),
    ),
    Row(
        "API: pair the next Swiss round",
        "api.pair_swiss_round",
        "POST",
        _api("POST", "/leagues/{league}/rounds"),
        api(COMMISSIONERS),
        audited("league.swiss_round"),
    ),
    Row(
        "API: approve a roster for the event",
        "api.review_roster",
        "POST",
        _api("POST", "/teams/{team}/approval", lambda w: {"approved": True}),
        api(COMMISSIONERS),
        audited("team.roster_review"),
    ),
    Row(
        "API: place teams in divisions",
        "api.assign_divisions",
        "POST",
        _api("POST", "/leagues/{league}/divisions", lambda w: {"teams": {str(w.team): "North"}}),
        api(COMMISSIONERS),
        audited("league.divisions"),
    ),
    Row(
        "API: enter a team in the tournament",
        "api.add_entry",
        "POST",
        _api(
            "POST",
            "/leagues/{league}/entries",
            lambda w: {"name": "Entry Team", "team_type": "human", "coach": "coach"},
        ),
        api(COMMISSIONERS),
        audited("team.enter"),
    ),
    Row(
        "API: drop an entry",
        "api.drop_entry",
        "POST",
        _api("POST", "/leagues/{league}/entries/{rival_team}/drop"),
        api(COMMISSIONERS),
        audited("team.drop"),
    ),
    Row(
        "API: take back a drop",
        "api.undrop_entry",
        "POST",
        _api("POST", "/leagues/{league}/entries/{rival_team}/undrop"),
        api(()) | dict.fromkeys(COMMISSIONERS, Outcome.CONFLICT),
        audited("team.undrop"),
    ),
    Row(
        "API: record a knock-out winner",
        "api.record_winner",
        "POST",
        _api("POST", "/matches/{played}/winner", lambda w: {"team_id": w.team}),
        api(()) | dict.fromkeys(COMMISSIONERS, Outcome.CONFLICT),
        audited("match.winner"),
    ),
    Row(
        "API: submit a re-draft",
        "api.submit_team_redraft",
        "POST",
        _api("POST", "/teams/{team}/redraft", lambda w: {"keep": [w.player], "hires": []}),
        api(MANAGERS),
        audited("team.redraft_submitted"),
    ),
    Row(
        "API: approve a re-draft",
        "api.approve_team_redraft",
        "POST",
        _api("POST", "/teams/{team}/redraft/approve"),
        api(COMMISSIONERS),
        audited("team.redraft_approved"),
    ),
    Row(
        "API: adjust the treasury",
        "api.adjust_treasury",
        "POST",
        _api("POST", "/teams/{team}/treasury", lambda w: {"amount": 1000, "reason": "Sponsor"}),
        api(COMMISSIONERS),
        audited("team.adjust_treasury"),
    ),
    Row(
        "API: create a team",
        "api.create_team",
        "POST",
        _api("POST", "/leagues/{league}/teams", lambda w: {"name": "API Team", "team_type": "orc"}),
        api(MEMBERS),
        audited("team.create"),
    ),
    Row(
        "API: import a team",
        "api.import_team",
        "POST",
        _api("POST", "/leagues/{league}/teams/import", lambda w: _export(w.outside_team)),
        api(COMMISSIONERS),
        audited("team.import"),
    ),
    Row(
        "API: record a match",
        "api.record_match",
        "POST",
        _api(
            "POST",
            "/leagues/{league}/matches",
            lambda w: {
                "home_team": w.team,
                "away_team": w.opponent_team,
                "home_score": 1,
                "away_score": 0,
                "players": [{"player_id": w.player, "td": 1}],
            },
        ),
        api(COMMISSIONERS),
        audited("match.record"),
    ),
    Row(
        "API: void a match",
        "api.void_match",
        "POST",
        _api("POST", "/matches/{played}/void"),
        api(COMMISSIONERS),
        audited("match.void"),
    ),
    Row(
        "API: hire a journeyman",
        "api.hire_journeyman",
        "POST",
        _api("POST", "/matches/{journeyman_match}/journeymen/{journeyman}/hire"),
        api(MANAGERS),
        audited("player.hire_journeyman"),
    ),
    Row(
        "API: draw an MVP",
        "api.draw_mvp",
        "POST",
        _api(
            "POST",
            "/matches/{journeyman_match}/mvp-draw",
            lambda w: {"team_id": w.team, "nominees": list(w.mvp_nominees)},
        ),
        api(MANAGERS),
        audited("match.mvp_draw"),
    ),
    Row(
        "API: roll a conceding team's departures",
        "api.concession_departures",
        "POST",
        _api("POST", "/matches/{conceded}/departures", lambda w: {}),
        api(MANAGERS),
        audited("match.departures"),
    ),
    Row(
        "API: log an event of a match",
        "api.post_log_event",
        "POST",
        _api(
            "POST",
            "/matches/{scheduled}/log",
            lambda w: {
                "id": "matrix-0001",
                "side": "home",
                "kind": "ko",
                "player_id": w.player,
                "half": 1,
                "turn": 3,
            },
        ),
        api(MANAGERS),
        audited("match.log"),
    ),
    Row(
        "API: take a logged event back",
        "api.delete_log_event",
        "DELETE",
        _api("DELETE", "/matches/{scheduled}/log/{log_event}"),
        api(MANAGERS),
        audited("match.log_delete"),
    ),
    Row(
        "API: dispute the other side's event",
        "api.dispute_log_event",
        "POST",
        _api("POST", "/matches/{scheduled}/log/{log_event}/dispute"),
        api(COMMISSIONERS),
        audited("match.log_dispute"),
    ),
    Row(
        "API: settle a disputed event",
        "api.keep_log_event",
        "POST",
        _api("POST", "/matches/{scheduled}/log/{log_event}/keep"),
        api(COMMISSIONERS),
        audited("match.log_keep"),
    ),
    Row(
        "API: confirm a side of the log",
        "api.confirm_log",
        "POST",
        _api("POST", "/matches/{scheduled}/log/confirm", lambda w: {"side": "home"}),
        api(MANAGERS),
        audited("match.log_confirm"),
    ),
    Row(
        "API: finalise the confirmed log",
        "api.finalise_log",
        "POST",
        _api("POST", "/matches/{log_confirmed}/log/finalise"),
        api(COMMISSIONERS),
        audited("match.record"),
    ),
    Row(
        "API: add a member",
        "api.add_member",
        "POST",
        _api("POST", "/leagues/{league}/members", lambda w: {"username": "loner"}),
        api(COMMISSIONERS),
        audited("league.join"),
    ),
    Row(
        "API: promote a member",
        "api.change_member",
        "PATCH",
        lambda w: Call(
            "PATCH",
            f"{API}/leagues/{w.league}/members/{w.users['opponent']}",
            json={"role": "commissioner"},
        ),
        api(COMMISSIONERS),
        audited("league.promote"),
    ),
    Row(
        "API: remove a member",
        "api.remove_member",
        "DELETE",
        lambda w: Call("DELETE", f"{API}/leagues/{w.league}/members/{w.users['opponent']}"),
        api(COMMISSIONERS),
        audited("league.remove"),
    ),
    Row(
        "API: hand the league over",
        "api.hand_over",
        "POST",
        _api("POST", "/leagues/{league}/owner", lambda w: {"user_id": w.users["deputy"]}),
        api({Role.COMMISSIONER}),
        audited("league.owner"),
    ),
    Row(
        "API: new join link",
        "api.new_join_link",
        "POST",
        _api("POST", "/leagues/{league}/join-link"),
        api(COMMISSIONERS),
        audited("league.join_link"),
    ),
    Row(
        "API: join with the link",
        "api.join",
        "POST",
        _api("POST", "/leagues/{league}/join", lambda w: {"token": w.join_token}),
        api({Role.OUTSIDER, Role.ADMIN}) | dict.fromkeys(MEMBERS - {Role.ADMIN}, Outcome.CONFLICT),
        audited("league.join"),
    ),
    Row(
        "API: add a fixture",
        "api.add_fixture",
        "POST",
        _api(
            "POST",
            "/leagues/{league}/fixtures",
            lambda w: {"home_team": w.team, "away_team": w.opponent_team, "round": 1},
        ),
        api(COMMISSIONERS),
        audited("match.schedule"),
    ),
    Row(
        "API: generate fixtures",
        "api.generate_fixtures",
        "POST",
        _api("POST", "/leagues/{league}/fixtures/generate", lambda w: {"format": "single"}),
        api(COMMISSIONERS),
        audited("fixtures.generate"),
    ),
    Row(
        "API: enter a fixture's result",
        "api.record_result",
        "POST",
        _api(
            "POST",
            "/matches/{scheduled}/result",
            lambda w: {
                "home_score": 1,
                "away_score": 0,
                "players": [{"player_id": w.player, "td": 1}],
            },
        ),
        api(COMMISSIONERS),
        audited("match.record"),
    ),
    Row(
        "API: choose a side's pre-game",
        "api.put_pregame",
        "PUT",
        _api("PUT", "/matches/{scheduled}/pregame/home", lambda w: {"inducements": []}),
        api(MANAGERS),
        audited("match.pregame"),
    ),
    Row(
        "API: register a webhook",
        "api.create_webhook",
        "POST",
        _api(
            "POST",
            "/leagues/{league}/webhooks",
            lambda w: {"url": PUBLIC_HOOK, "events": ["season.closed"], "format": "discord"},
        ),
        api(COMMISSIONERS),
        audited("webhook.create"),
    ),
    Row(
        "API: delete a webhook",
        "api.delete_webhook",
        "DELETE",
        _api("DELETE", "/webhooks/{webhook}"),
        api(COMMISSIONERS),
        audited("webhook.delete"),
    ),
    Row(
        "API: hire",
        "api.hire_player",
        "POST",
        _api(
            "POST",
            "/teams/{team}/players",
            lambda w: {"position": "human-lineman", "name": "API Hire"},
        ),
        api(MANAGERS),
        audited("player.hire"),
    ),
    Row(
        "API: buy an item",
        "api.buy_item",
        "POST",
        _api("POST", "/teams/{team}/purchases", lambda w: {"item": "reroll"}),
        api(MANAGERS),
        audited("team.buy"),
    ),
    Row(
        "API: the team's colours",
        "api.update_team",
        "PATCH",
        _api("PATCH", "/teams/{team}", lambda w: {"colours": ["#1f4e9c", "#ffffff"]}),
        api(MANAGERS),
        audited("team.colours"),
    ),
    Row(
        "API: upload a logo",
        "api.upload_logo",
        "PUT",
        _with_logo("PUT", f"{API}/teams/{{team}}/logo"),
        api(MANAGERS),
        audited("team.logo"),
    ),
    Row(
        "API: remove the logo",
        "api.remove_logo",
        "DELETE",
        _api("DELETE", "/teams/{team}/logo"),
        api(MANAGERS),
        audited("team.logo_removed"),
    ),
    Row(
        "API: fire a player",
        "api.fire_player",
        "DELETE",
        _api("DELETE", "/players/{player}"),
        api(MANAGERS),
        audited("player.fire"),
    ),
    Row(
        "API: buy an advancement",
        "api.take_advancement",
        "POST",
        _api(
            "POST",
            "/players/{player}/advancements",
            lambda w: {"kind": "chosen_primary", "skill": "Dauntless"},
        ),
        api(MANAGERS),
        audited("player.advance"),
    ),
)


def write_routes(app: Flask) -> set[tuple[str, str]]:
    """(endpoint, method) of every route that changes something."""
    return {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) & WRITE_METHODS
    }


# ---------------------------------------------------------------------------
# The tests


@pytest.fixture(scope="module")
def world_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Snapshot, World]]:
    """The world, seeded once; each case gets a fresh copy."""
    with snapshot(seed_world, tmp_path_factory.mktemp("world")) as made:
        yield made


@dataclass(frozen=True, slots=True)
class Case:
    app: Flask
    client: FlaskClient
    world: World


@pytest.fixture
def case(world_snapshot: tuple[Snapshot, World], tmp_path: Path) -> Iterator[Case]:
    """A fresh copy of the seeded world, its app (context pushed) and a client."""
    seeded, world = world_snapshot
    with seeded.fresh() as app:
        app.config["PDF_CACHE_DIR"] = str(tmp_path / "pdf-cache")  # empty for each case
        app.config["LOGO_DIR"] = str(tmp_path / "logos")
        # The team has a logo (its files need not exist), for the rows that remove it.
        team = db.session.get(Team, world.team)
        assert team is not None
        team.logo_key = f"{team.id}-0123456789abcdef"
        db.session.commit()
        yield Case(app, app.test_client(), world)


def test_every_write_route_has_a_row(app: Flask) -> None:
    routes = write_routes(app)
    covered = {(row.endpoint, row.method) for row in ROWS}
    missing = sorted(routes - covered)
    assert not missing, f"write routes without a row in the permission matrix: {missing}"
    stale = sorted(covered - routes)
    assert not stale, f"rows for routes that no longer exist: {stale}"
    for row in ROWS:
        assert set(row.expected) == set(Role), row.name


def _send(client: FlaskClient, world: World, role: Role, call: Call) -> TestResponse:
    headers = {}
    if role is not Role.ANONYMOUS:
        if call.api:
            headers["Authorization"] = f"Bearer {world.tokens[role]}"
        else:
            log_in(client, world.user_id(role))
    return client.open(
        call.url, method=call.method, data=call.form, json=call.json, headers=headers
    )


@pytest.mark.parametrize(
    ("row", "role"),
    [pytest.param(row, role, id=f"{row.name}-{role}") for row in ROWS for role in Role],
)
def test_permission_matrix(case: Case, row: Row, role: Role) -> None:
    client, world = case.client, case.world
    call = row.call(world)
    assert (call.method, call.api) == (row.method, row.endpoint.startswith("api."))
    response = _send(client, world, role, call)

    expected = row.expected[role]
    status, location = response.status_code, response.headers.get("Location", "")
    seen = Seen(world, client, role, response)
    happened = row.happened(seen)
    detail = f"{row.name} as {role}: {status} {location} {response.text[:300]!r}"
    if expected is Outcome.ALLOWED:
        assert 200 <= status < 300 or (status == 302 and "/login" not in location), detail
        assert happened, f"{detail}: answered as allowed, but nothing happened"
        return
    if expected is Outcome.LOGIN:
        assert status == 302, detail
        assert location.startswith("/login"), detail
    elif expected is Outcome.UNAUTHORIZED:
        assert status == 401, detail
        assert response.json["error"]["code"] == "unauthorized", detail
    elif expected is Outcome.FORBIDDEN:
        assert status == 403, detail
    elif expected is Outcome.NOT_FOUND:
        assert status == 404, detail
    elif expected is Outcome.CONFLICT:
        assert status == 409, detail
    else:
        assert status == 302, detail
        assert "/login" not in location, detail
    assert not happened, f"{detail}: refused, but it happened anyway"
    assert audit_after(world) == [], f"{detail}: a refusal left a trace"


def test_the_api_ignores_the_session_cookie(case: Case) -> None:
    """The API is exempt from CSRF, so a logged-in browser must not be enough there."""
    client, world = case.client, case.world
    log_in(client, world.user_id(Role.ADMIN))
    for row in ROWS:
        if not row.endpoint.startswith("api."):
            continue
        call = row.call(world)
        response = client.open(call.url, method=call.method, json=call.json)
        assert response.status_code == 401, row.name
    assert audit_after(world) == []
