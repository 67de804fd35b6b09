"""The live match log through API v1 (issue 27): two coaches log a BB2025 match, the report
writes itself, and the finalised match is the one the same report posted directly gives.

The walk: a retried event (200, stored once), the same id with another body (409), a
disputed event taken back, a star player's touchdown (no SPP), a journeyman's MVP and a
concession. A twin league plays the same match by posting the log's report draft to
`POST /matches/{id}/result`; every stored figure of the two must agree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import inspect, select

from league.extensions import db
from league.models import Match, MatchPlayer, MatchTeam, Player, Team, TreasuryEntry, User
from league.services import matches, postgame
from league.services.pregame import SideChoices, record_side
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

API = "/api/v1"
#: The services conftest's BB2025 drafts: Humans 13 players, Orcs 11 (one fired below, so a
#: journeyman plays; Akhorne the Squirrel comes from the Orcs' petty cash).
HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


@dataclass
class World:
    boss: User
    anna: User
    bram: User
    match_id: int
    humans: int
    orcs: int
    #: Players by (side, status, position, number): the same key in both worlds.
    players: dict[tuple[str, str, str, int], int]

    def player(self, side: str, status: str, position: str, nth: int = 0) -> int:
        found = sorted(
            (key, pid) for key, pid in self.players.items() if key[:3] == (side, status, position)
        )
        return found[nth][1]


def build_world(tag: str) -> World:
    boss, anna, bram = make_user(f"boss{tag}"), make_user(f"anna{tag}"), make_user(f"bram{tag}")
    league = make_league(boss, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", f"Reavers{tag}", HUMANS)
    orcs = make_active_team(bram, league, "orc", f"Gouged Eye{tag}", ORCS)
    fired = db.session.scalars(
        select(Player).where(Player.team_id == orcs.id).order_by(Player.number.desc())
    ).first()
    assert fired is not None
    fired.status = "fired"
    db.session.commit()
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, humans.id, orcs.id).id
    with unit_of_work() as session:
        record_side(session, anna, match_id, "home", SideChoices())
    with unit_of_work() as session:
        record_side(session, bram, match_id, "away", SideChoices(stars=("akhorne-the-squirrel",)))
    with unit_of_work() as session:
        match = session.get(Match, match_id)
        assert match is not None
        postgame.sync_match_day_players(session, match)
    players = {}
    for side, team in (("home", humans), ("away", orcs)):
        for p in db.session.scalars(select(Player).where(Player.team_id == team.id)):
            players[(side, p.status, p.position_id, p.number)] = p.id
    return World(boss, anna, bram, match_id, humans.id, orcs.id, players)


def test_two_coaches_log_a_match_and_the_report_writes_itself(client: FlaskClient) -> None:
    w = build_world("")
    log = f"{API}/matches/{w.match_id}/log"
    anna, bram, boss = auth(w.anna), auth(w.bram), auth(w.boss)
    lineman = w.player("home", "active", "human-lineman")
    thrower = w.player("home", "active", "human-thrower")
    catcher = w.player("home", "active", "human-catcher")
    star = w.player("away", "star", "akhorne-the-squirrel")
    journeyman = w.player("away", "journeyman", "orc-lineman")
    blitzer = w.player("away", "active", "orc-blitzer")

    def post(headers: dict[str, str], body: dict[str, Any]) -> Any:
        return client.post(log, json=body, headers=headers)

    touchdown = {"id": "anna-0001", "side": "home", "kind": "td", "player_id": lineman,
                 "half": 1, "turn": 3}  # fmt: skip
    first = post(anna, touchdown)
    assert first.status_code == 201, first.json
    # The answer was lost; the phone sends it again: the stored event, once.
    again = post(anna, touchdown)
    assert again.status_code == 200, again.json
    assert again.json == first.json
    changed = post(anna, {**touchdown, "turn": 4})
    assert changed.status_code == 409, changed.json
    assert changed.json["error"]["fields"].keys() == {"id"}

    # Each coach writes only their own side; an outsider nothing.
    assert post(bram, {**touchdown, "id": "bram-0000"}).status_code == 403
    outsider = auth(make_user("nosy"))
    assert post(outsider, {**touchdown, "id": "nosy-0001"}).status_code == 403
    # BB2025 awards nothing for a deflection (its ruleset data): the kind is refused.
    lacking = post(bram, {"id": "bram-0001", "side": "away", "kind": "deflection",
                          "player_id": blitzer, "half": 1, "turn": 1})  # fmt: skip
    assert lacking.status_code == 422, lacking.json
    assert lacking.json["error"]["fields"].keys() == {"kind"}
    # A player of the other side (or of no side in this match) is not the side's.
    stranger = post(bram, {"id": "bram-0002", "side": "away", "kind": "td",
                           "player_id": lineman, "half": 1, "turn": 1})  # fmt: skip
    assert stranger.status_code == 422, stranger.json
    assert stranger.json["error"]["fields"].keys() == {"player_id"}

    events = [
        (bram, {"id": "bram-0003", "side": "away", "kind": "td", "player_id": star,
                "half": 1, "turn": 6}),
        (anna, {"id": "anna-0002", "side": "home", "kind": "comp", "player_id": thrower,
                "half": 1, "turn": 3}),
        (bram, {"id": "bram-0004", "side": "away", "kind": "cas", "player_id": blitzer,
                "victim_id": catcher, "half": 2, "turn": 2}),
        (bram, {"id": "bram-0005", "side": "away", "kind": "ko", "player_id": journeyman,
                "half": 2, "turn": 3}),
        (bram, {"id": "bram-0006", "side": "away", "kind": "mvp", "player_id": journeyman,
                "half": 2, "turn": 8}),
    ]  # fmt: skip
    for headers, body in events:
        answer = post(headers, body)
        assert answer.status_code == 201, (body, answer.json)
    cas = client.get(log).json["events"]
    (rolled,) = [e for e in cas if e["kind"] == "cas"]
    # The league's server dice: the casualty was rolled when logged (a D16 in BB2025).
    assert rolled["injury"] is not None
    assert 1 <= rolled["dice"][0] <= 16
    # A star player is never MVP (every edition).
    star_mvp = post(bram, {"id": "bram-0007", "side": "away", "kind": "mvp",
                           "player_id": star, "half": 2, "turn": 8})  # fmt: skip
    assert star_mvp.status_code == 422
    assert star_mvp.json["error"]["fields"].keys() == {"player_id"}

    # Anna logs an interception Bram disputes; confirming waits; she takes it back.
    interception = post(anna, {"id": "anna-0003", "side": "home", "kind": "int",
                               "player_id": thrower, "half": 2, "turn": 4})  # fmt: skip
    assert interception.status_code == 201
    event_id = interception.json["id"]
    assert client.post(f"{log}/{event_id}/dispute", headers=anna).status_code == 403
    disputed = client.post(f"{log}/{event_id}/dispute", headers=bram)
    assert disputed.status_code == 200, disputed.json
    assert disputed.json["disputed"] is True
    assert client.post(f"{log}/confirm", json={"side": "home"}, headers=anna).status_code == 409
    assert client.delete(f"{log}/{event_id}", headers=bram).status_code == 403
    assert client.delete(f"{log}/{event_id}", headers=anna).status_code == 204

    conceded = post(anna, {"id": "anna-0004", "side": "home", "kind": "concession",
                           "half": 2, "turn": 6})  # fmt: skip
    assert conceded.status_code == 201, conceded.json

    shown = client.get(log)
    assert shown.status_code == 200
    body = shown.json
    assert body["state"] == "open"
    assert body["score"] == {"home": 1, "away": 1}
    # Match order: half, then turn.
    assert [(e["half"], e["turn"]) for e in body["events"]] == sorted(
        (e["half"], e["turn"]) for e in body["events"]
    )
    assert "report" not in body
    # Polling: the same log is a 304.
    etag = shown.headers["ETag"]
    assert client.get(log, headers={"If-None-Match": etag}).status_code == 304

    mine = client.post(f"{log}/confirm", json={"side": "home"}, headers=anna)
    assert mine.status_code == 200, mine.json
    assert (mine.json["state"], mine.json["confirmed"]) == ("open", {"home": True, "away": False})
    assert client.post(f"{log}/confirm", json={"side": "home"}, headers=bram).status_code == 403
    assert client.post(f"{log}/finalise", headers=boss).status_code == 409
    both = client.post(f"{log}/confirm", json={"side": "away"}, headers=bram)
    assert both.status_code == 200, both.json
    assert both.json["state"] == "confirmed"
    report = both.json["report"]
    assert report["conceded"] == "home"
    assert (report["home_score"], report["away_score"]) == (1, 1)
    lines = {line["player_id"]: line for line in report["players"]}
    assert lines[journeyman]["mvp"] is True
    assert lines[star]["td"] == 1
    assert lines[blitzer]["cas"] == 1
    assert lines[catcher]["injury"] == rolled["injury"]
    assert client.get(log, headers={"If-None-Match": etag}).status_code == 200

    assert client.post(f"{log}/finalise", headers=bram).status_code == 403
    random.seed(27)
    final = client.post(f"{log}/finalise", headers=boss)
    assert final.status_code == 201, final.json
    assert final.json["state"] == "played"
    assert client.get(log).json["state"] == "final"
    late = post(anna, {"id": "anna-0009", "side": "home", "kind": "td", "player_id": lineman,
                       "half": 2, "turn": 8})  # fmt: skip
    assert late.status_code == 409

    db.session.expire_all()
    spp = {p.id: p.spp_earned for p in db.session.scalars(select(Player))}
    # BB2025: a star player earns no SPP; the journeyman's MVP is 4 (Brawlin' Brutes keep
    # the MVP's 4); the Humans conceded and lose what they earned (RULES-FACTS 4).
    assert spp[star] == 0
    assert spp[journeyman] == 4
    assert spp[lineman] == 0
    assert spp[blitzer] == 3  # Brawlin' Brutes: 3 SPP a casualty

    # The twin league posts the same report draft directly; everything stored agrees.
    twin = build_world("2")
    to_twin = {w.players[key]: pid for key, pid in twin.players.items()}
    posted = {
        **report,
        "players": [{**line, "player_id": to_twin[line["player_id"]]} for line in lines.values()],
    }
    random.seed(27)
    direct = client.post(f"{API}/matches/{twin.match_id}/result", json=posted,
                         headers=auth(twin.boss))  # fmt: skip
    assert direct.status_code == 200, direct.json
    assert stored_figures(w) == stored_figures(twin)


#: Columns that name rows, people or moments, not figures.
NOT_FIGURES = {"id", "match_id", "team_id", "player_id", "league_id", "coach_id", "name",
               "coin_toss",
               "created_at", "played_at", "recorded_by_id", "created_by_id", "actor_id",
               "log_confirmed_at", "log_events", "season_id", "confirmed_at", "match_day_match_id",
               "updated_at", "at", "note", "description"}  # fmt: skip


def _figures(row: object) -> dict[str, Any]:
    columns = inspect(row).mapper.column_attrs  # type: ignore[union-attr]
    return {c.key: getattr(row, c.key) for c in columns if c.key not in NOT_FIGURES}


def stored_figures(w: World) -> dict[str, Any]:
    db.session.expire_all()
    key_of = {pid: key for key, pid in w.players.items()}
    match = db.session.get(Match, w.match_id)
    assert match is not None
    sides = db.session.scalars(select(MatchTeam).where(MatchTeam.match_id == w.match_id))
    lines = db.session.scalars(select(MatchPlayer).where(MatchPlayer.match_id == w.match_id))
    teams = {"home": w.humans, "away": w.orcs}
    ledger = db.session.scalars(
        select(TreasuryEntry)
        .where(TreasuryEntry.team_id.in_(teams.values()))
        .order_by(TreasuryEntry.id)
    )
    return {
        "match": {**_figures(match), "idempotency_key": None},
        "sides": {s.side: _figures(s) for s in sides},
        "lines": {key_of[line.player_id]: _figures(line) for line in lines},
        "teams": {side: _figures(db.session.get(Team, tid)) for side, tid in teams.items()},
        "players": {
            key_of[p.id]: _figures(p)
            for p in db.session.scalars(select(Player).where(Player.team_id.in_(teams.values())))
        },
        "ledger": [
            (next(s for s, t in teams.items() if t == e.team_id), _figures(e)) for e in ledger
        ],
    }


def test_bb2020_two_confirmed_logs_finalise_with_table_dice(client: FlaskClient) -> None:
    """A league that lets two confirmed logs finalise and allows table dice: the coach
    enters the casualty rolled at the table; the second confirmation makes the result final."""
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2020", anna, bram, table_dice_allowed=True, log_finalises=True)
    home = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    away = make_active_team(bram, league, "human", "Marauders", (("human-lineman", 11),))
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, boss, league.id, home.id, away.id).id
    ids = {
        team.id: sorted(db.session.scalars(select(Player.id).where(Player.team_id == team.id)))
        for team in (home, away)
    }
    scorer, victim = ids[home.id][0], ids[away.id][0]
    log = f"{API}/matches/{match_id}/log"
    as_anna, as_bram = auth(anna), auth(bram)
    # BB2020 has no stalling (no winnings bonus for not stalling) and gives no SPP for a
    # safe landing (its ruleset data): neither can be logged.
    for kind in ("stalling", "safe_landing"):
        refused = client.post(log, json={"id": f"a-{kind}", "side": "home", "kind": kind,
                                         "player_id": scorer, "half": 1, "turn": 1},
                              headers=as_anna)  # fmt: skip
        assert refused.status_code == 422, refused.json
        assert refused.json["error"]["fields"].keys() == {"kind"}
    cas = {"id": "anna-cas-1", "side": "home", "kind": "cas", "player_id": scorer,
           "victim_id": victim, "injury": "seriously_hurt", "half": 1, "turn": 4}  # fmt: skip
    entered = client.post(log, json=cas, headers=as_anna)
    assert entered.status_code == 201, entered.json
    assert (entered.json["injury"], entered.json["dice"]) == ("seriously_hurt", None)
    bad = client.post(log, json={**cas, "id": "anna-cas-2", "injury": "lasting_injury"},
                      headers=as_anna)  # fmt: skip
    assert bad.status_code == 422
    assert bad.json["error"]["fields"].keys() == {"lasting"}
    td = {"id": "anna-td-1", "side": "home", "kind": "td", "player_id": scorer,
          "half": 2, "turn": 7}  # fmt: skip
    assert client.post(log, json=td, headers=as_anna).status_code == 201
    assert client.post(f"{log}/confirm", json={"side": "home"}, headers=as_anna).status_code == 200
    done = client.post(f"{log}/confirm", json={"side": "away"}, headers=as_bram)
    assert done.status_code == 200, done.json
    assert done.json["state"] == "final"
    assert done.json["report"]["home_score"] == 1
    db.session.expire_all()
    match = db.session.get(Match, match_id)
    assert match is not None
    assert (match.state, match.home.score, match.away.score) == ("played", 1, 0)
    # BB2020: 3 SPP a touchdown, 2 a casualty (RULES-FACTS 4).
    assert db.session.get(Player, scorer).spp_earned == 5  # type: ignore[union-attr]
    assert db.session.get(Player, victim).status == "mng"  # type: ignore[union-attr]


def test_a_logged_stall_reaches_the_draft_and_the_result(client: FlaskClient) -> None:
    """BB2025: a side that stalled loses the winnings' +1 for not stalling (RULES-FACTS,
    winnings); the draft names it, so the draft posted directly stores the same result."""
    w = build_world("3")
    log = f"{API}/matches/{w.match_id}/log"
    anna, bram = auth(w.anna), auth(w.bram)
    lineman = w.player("home", "active", "human-lineman")
    blitzer = w.player("away", "active", "orc-blitzer")
    logged = [
        (anna, {"id": "anna-1001", "side": "home", "kind": "td", "player_id": lineman,
                "half": 1, "turn": 5}),
        (bram, {"id": "bram-1001", "side": "away", "kind": "stalling", "player_id": blitzer,
                "half": 2, "turn": 7}),
        (bram, {"id": "bram-1002", "side": "away", "kind": "td", "player_id": blitzer,
                "half": 2, "turn": 8}),
    ]  # fmt: skip
    for headers, body in logged:
        assert client.post(log, json=body, headers=headers).status_code == 201
    assert client.post(f"{log}/confirm", json={"side": "home"}, headers=anna).status_code == 200
    both = client.post(f"{log}/confirm", json={"side": "away"}, headers=bram)
    assert both.status_code == 200, both.json
    report = both.json["report"]
    assert report["stalled"] == {"home": False, "away": True}
    random.seed(25)
    assert client.post(f"{log}/finalise", headers=auth(w.boss)).status_code == 201
    sides = {
        s.side: s
        for s in db.session.scalars(select(MatchTeam).where(MatchTeam.match_id == w.match_id))
    }
    assert (sides["home"].stalled, sides["away"].stalled) == (False, True)

    twin = build_world("4")
    to_twin = {w.players[key]: pid for key, pid in twin.players.items()}
    posted = {
        **report,
        "players": [
            {**line, "player_id": to_twin[line["player_id"]]} for line in report["players"]
        ],
    }
    random.seed(25)
    direct = client.post(f"{API}/matches/{twin.match_id}/result", json=posted,
                         headers=auth(twin.boss))  # fmt: skip
    assert direct.status_code == 200, direct.json
    assert stored_figures(w) == stored_figures(twin)
