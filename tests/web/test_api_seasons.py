"""API v1: POST /api/v1/leagues/{id}/seasons/{n}/close (docs/api.md, Leagues)."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, Match, User
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user, with_touchdowns

API = "/api/v1"
HUMANS = (("human-lineman", 11),)


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def seasons(league_id: int) -> list[tuple[int, bool]]:
    """(number, closed) of each season of the league."""
    db.session.expire_all()
    league = db.session.get(League, league_id)
    assert league is not None
    return [(s.number, s.closed_at is not None) for s in league.seasons]


def test_closing_a_season_answers_its_final_table_and_opens_the_next(
    client: FlaskClient,
) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(score=1))
    report = with_touchdowns(report, home, away)
    with unit_of_work() as session:
        matches.record_new_match(session, boss, league.id, home.id, away.id, report)

    response = client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))
    assert response.status_code == 200, response.json
    body = response.json
    assert (body["season"], body["next_season"]) == (1, 2)
    # The league's points by default: 3 for a win, 0 for a loss.
    assert [
        (r["team"], r["played"], r["won"], r["lost"], r["td_for"], r["td_against"], r["points"])
        for r in body["rows"]
    ] == [("Altdorf Amblers", 1, 1, 0, 2, 1, 3), ("Bögenhafen Bruisers", 1, 0, 1, 1, 2, 0)]
    assert seasons(league.id) == [(1, True), (2, False)]
    # The closed season's table stays as it was; the new one starts at zero.
    standings = client.get(f"{API}/leagues/{league.id}/standings?season=1").json
    assert standings["rows"] == body["rows"]
    assert client.get(f"{API}/leagues/{league.id}").json["season"] == 2


def test_a_season_closes_once(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    path = f"{API}/leagues/{league.id}/seasons/1/close"
    assert client.post(path, headers=auth(boss)).status_code == 200
    again = client.post(path, headers=auth(boss))
    assert again.status_code == 409
    assert again.json["error"] == {"code": "conflict", "message": "Season 1 is already closed."}
    assert seasons(league.id) == [(1, True), (2, False)]  # no third season
    missing = client.post(f"{API}/leagues/{league.id}/seasons/7/close", headers=auth(boss))
    assert missing.status_code == 404
    assert seasons(league.id) == [(1, True), (2, False)]


def test_only_a_commissioner_closes_a_season(client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    path = f"{API}/leagues/{league.id}/seasons/1/close"
    refused = client.post(path, headers=auth(coach))
    assert refused.status_code == 403
    assert client.post(path).status_code == 401
    assert seasons(league.id) == [(1, False)]


def test_closing_answers_the_prizes_paid(client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(score=1))
    report = with_touchdowns(report, home, away)
    with unit_of_work() as session:
        matches.record_new_match(session, boss, league.id, home.id, away.id, report)
    body = client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss)).json
    # BB2025: 100,000 and the League Trophy for 1st, 60,000 for 2nd (only two teams).
    assert body["prizes"] == [
        {"team_id": home.id, "place": 1, "gold": 100_000, "trophy": True},
        {"team_id": away.id, "place": 2, "gold": 60_000, "trophy": False},
    ]


def test_redraft_through_the_api(client: FlaskClient) -> None:
    boss, coach, rival = make_user("boss"), make_user("grim"), make_user("rival")
    league = make_league(boss, "bb2025", coach, rival)
    team = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    url = f"{API}/teams/{team.id}/redraft"
    assert client.get(url).status_code == 409  # no season closed yet
    client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))

    plan = client.get(url).json
    # No games: 1,000,000 + the treasury left after 11 linemen (450,000) = 1,450,000,
    # capped at 1,300,000; every lineman costs his 50,000 (no season played).
    assert plan["budget"]["total"] == 1_300_000
    assert plan["budget"]["lost_to_cap"] == 150_000
    assert {p["cost"] for p in plan["players"]} == {50_000}
    assert (plan["state"], plan["spent"]) == ("open", 550_000)

    keep = [p["player_id"] for p in plan["players"]][:10]
    assert client.post(url, json={"keep": keep}, headers=auth(rival)).status_code == 403
    bad = client.post(url, json={"keep": "all"}, headers=auth(coach))
    assert (bad.status_code, bad.json["error"]["code"]) == (400, "invalid_field")
    over = client.post(url, json={"keep": keep, "rerolls": 9}, headers=auth(coach))
    assert over.status_code == 422
    assert over.json["error"]["message"] == "From 0 to 8 team re-rolls."

    submitted = client.post(url, json={"keep": keep, "rerolls": 2}, headers=auth(coach))
    assert submitted.status_code == 200, submitted.json
    # 10 x 50,000 + 2 re-rolls x 50,000 (the roster price) = 600,000.
    assert (submitted.json["state"], submitted.json["spent"]) == ("submitted", 600_000)
    assert client.post(f"{url}/approve", headers=auth(coach)).status_code == 403
    approved = client.post(f"{url}/approve", headers=auth(boss))
    assert approved.status_code == 200, approved.json
    assert (approved.json["treasury"], approved.json["rerolls"]) == (700_000, 2)
    assert client.post(f"{url}/approve", headers=auth(boss)).status_code == 409


def test_redraft_hires_and_recovery_dice_through_the_api(client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    db.session.get(League, league.id).table_dice_allowed = True
    db.session.commit()
    team = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    other = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    hurt = min(p.id for p in team.players)
    report = MatchReport(
        home=SideReport(score=0, mistake_d6=6),
        away=SideReport(score=1),
        players=(PlayerEvents(hurt, injury="serious_injury"),),
    )
    report = with_touchdowns(report, team, other)
    with unit_of_work() as session:
        matches.record_new_match(session, boss, league.id, team.id, other.id, report)
    client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))
    url = f"{API}/teams/{team.id}/redraft"

    plan = client.get(url).json
    # BB2025 Serious Injury: one niggling injury, so one D6 (RULES-FACTS 5b).
    row = next(p for p in plan["players"] if p["player_id"] == hurt)
    assert (row["niggling_injuries"], row["recovery_dice"]) == (1, 1)
    assert {"position": "human-blitzer", "name": "Human Blitzer", "cost": 85_000} in plan[
        "hire_options"
    ]
    assert (plan["hires"], plan["recovery"]) == ([], [])

    bad = client.post(
        url, json={"recovery": [{"player_id": hurt, "dice": [9]}]}, headers=auth(coach)
    )
    assert (bad.status_code, bad.json["error"]["code"]) == (422, "invalid_dice")
    body = {"hires": ["human-blitzer"], "recovery": [{"player_id": hurt, "dice": [4]}]}
    done = client.post(url, json=body, headers=auth(coach))
    assert done.status_code == 200, done.json
    # 4 heals (4+). Kept: 11 x (50,000 + 20,000 agent's fee for Season 1 on the
    # roster) = 770,000; plus the Blitzer, 85,000.
    assert done.json["recovery"] == [
        {"player_id": hurt, "dice": [4], "source": "table", "healed": 1}
    ]
    assert (done.json["hires"], done.json["spent"]) == (["human-blitzer"], 855_000)
    assert done.json["left"] == done.json["budget"]["total"] - 855_000
    again = client.post(url, json=body, headers=auth(coach))
    assert (again.status_code, again.json["error"]["code"]) == (422, "invalid_dice")
    unknown = client.post(url, json={"hires": ["troll"]}, headers=auth(coach))
    assert (unknown.status_code, unknown.json["error"]["code"]) == (422, "redraft_refused")
    approved = client.post(f"{url}/approve", headers=auth(boss))
    assert approved.status_code == 200, approved.json
    positions = [p["position"] for p in approved.json["players"]]
    assert positions.count("human-blitzer") == 1


def test_a_closed_season_refuses_results_and_reopens(client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(score=1))
    with unit_of_work() as session:
        match_id = matches.record_new_match(
            session, boss, league.id, home.id, away.id, with_touchdowns(report, home, away)
        ).id
    client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))
    void = client.post(f"{API}/matches/{match_id}/void", headers=auth(boss))
    assert void.status_code == 409
    assert void.json["error"] == {
        "code": "season_closed",
        "message": "Season 1 is closed: its results are final. A commissioner may reopen it "
        "to change them.",
    }
    path = f"{API}/leagues/{league.id}/seasons/1/reopen"
    assert client.post(path, headers=auth(coach)).status_code == 403
    reopened = client.post(path, headers=auth(boss))
    assert reopened.status_code == 200, reopened.json
    # BB2025 prizes with two teams: 100,000 and the trophy, 60,000; both taken back.
    assert reopened.json == {
        "season": 1,
        "taken_back": [
            {"team_id": home.id, "place": 1, "gold": 100_000, "trophy": True},
            {"team_id": away.id, "place": 2, "gold": 60_000, "trophy": False},
        ],
    }
    assert seasons(league.id) == [(1, False)]
    again = client.post(path, headers=auth(boss))
    assert again.status_code == 409
    assert again.json["error"]["code"] == "season_not_reopenable"
    assert client.post(f"{API}/matches/{match_id}/void", headers=auth(boss)).status_code == 200


def test_closing_through_the_api_may_mark_the_waiting_matches_unplayed(
    client: FlaskClient,
) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    with unit_of_work() as session:
        waiting = matches.schedule_match(session, boss, league.id, home.id, away.id).id
    path = f"{API}/leagues/{league.id}/seasons/1/close"
    bad = client.post(path, headers=auth(boss), json={"mark_unplayed": "yes"})
    assert bad.status_code == 400
    assert bad.json["error"]["code"] == "invalid_field"
    assert seasons(league.id) == [(1, False)]
    closed = client.post(path, headers=auth(boss), json={"mark_unplayed": True})
    assert closed.status_code == 200, closed.json
    assert seasons(league.id) == [(1, True), (2, False)]
    assert db.session.get(Match, waiting).state == "unplayed"
