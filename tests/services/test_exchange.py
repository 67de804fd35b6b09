"""Team export and import: the document, its round trip, its checks, and the API around it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.api.schemas import TeamSchema
from league.extensions import db
from league.models import (
    Advancement,
    League,
    Player,
    PlayerOpening,
    PlayerSkill,
    Team,
    TeamOpening,
    TreasuryEntry,
    User,
)
from league.services import exchange, teams
from league.services.advancement import (
    AdvancementRequest,
    buy_advancement,
    undo_last_advancement,
)
from league.services.errors import Forbidden, NotFound
from league.services.exchange import InvalidDocument, export_team, import_team
from league.services.matches import (
    MatchReport,
    PlayerEvents,
    ReportErrors,
    SideReport,
    record_new_match,
)
from league.services.recompute import check_all, recompute_team
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 1), ("human-blitzer", 2))
ORCS = (("orc-lineman", 8), ("orc-thrower", 1), ("orc-blitzer", 2))


# ---------------------------------------------------------------------------
# Helpers


@pytest.fixture
def people() -> dict[str, User]:
    return {name: make_user(name) for name in ("commish", "anna", "bram")}


def _player(team: Team, position_id: str, index: int = 0) -> Player:
    return [p for p in sorted(team.players, key=lambda p: p.id) if p.position_id == position_id][
        index
    ]


def _record(actor: User, league: League, home: Team, away: Team, report: MatchReport) -> None:
    with unit_of_work() as session:
        record_new_match(session, actor, league.id, home.id, away.id, report)


def _buy(actor: User, player: Player, **request: Any) -> None:
    with unit_of_work() as session:
        buy_advancement(session, actor, player.id, AdvancementRequest(**request))


def _league(people: dict[str, User], ruleset_id: str, name: str) -> League:
    league = make_league(people["commish"], ruleset_id, people["anna"], people["bram"])
    with unit_of_work():
        league = db.session.get(League, league.id)
        league.name = name
        league.table_dice_allowed = True
    return db.session.get(League, league.id)


def _import(actor: User, league: League, document: Any, coach: str | None = "anna") -> Team:
    with unit_of_work() as session:
        team = import_team(session, actor, league.id, document, coach=coach)
    return db.session.get(Team, team.id)


def _without_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_ids(v) for k, v in value.items() if k not in ("id", "team_id", "league_id")
        }
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _season_2025(people: dict[str, User]) -> tuple[League, Team, Team]:
    """A BB2025 league after two matches: SPP, every kind of injury, advancements, purchases."""
    commish, anna, bram = people["commish"], people["anna"], people["bram"]
    league = _league(people, "bb2025", "Old World")
    humans = make_active_team(anna, league, "human", "Reavers", HUMANS)
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
    catcher, blitzer = _player(humans, "human-catcher"), _player(humans, "human-blitzer")
    linemen = [_player(humans, "human-lineman", i) for i in range(5)]
    first = MatchReport(
        home=SideReport(score=5, fans_change=1, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(
            PlayerEvents(catcher.id, td=2, mvp=1),  # 2x3 + 4 = 10
            PlayerEvents(blitzer.id, td=3, cas=2),  # 3x3 + 2x2 = 13
            PlayerEvents(linemen[0].id, injury="dead"),
            PlayerEvents(linemen[1].id, injury="lasting_injury", lasting="av"),
            PlayerEvents(linemen[2].id, injury="serious_injury"),  # niggling
            PlayerEvents(_player(orcs, "orc-blitzer").id, td=1),
        ),
        fan_attendance=6,
    )
    _record(commish, league, humans, orcs, first)
    second = MatchReport(
        home=SideReport(score=0, mistake_d6=6),
        away=SideReport(score=0, mistake_d6=6),
        players=(PlayerEvents(linemen[3].id, injury="seriously_hurt"),),  # misses the next
        fan_attendance=4,
    )
    _record(commish, league, orcs, humans, second)
    _buy(anna, blitzer, kind="chosen_primary", skill="Mighty Blow")  # 6 SPP, +30,000 (elite)
    _buy(anna, blitzer, kind="random_primary", category="G", dice=(1, 2, 1, 3), skill="Fend")
    with unit_of_work() as session:
        teams.fire_player(session, anna, linemen[4].id)
        teams.buy_team_item(session, anna, humans.id, "reroll")
        teams.adjust_treasury(session, commish, humans.id, 5_000, "Sponsorship")
    return league, db.session.get(Team, humans.id), db.session.get(Team, orcs.id)


# ---------------------------------------------------------------------------
# Round trips


def test_round_trip_keeps_everything_and_the_caches_check(people) -> None:
    _, humans, _ = _season_2025(people)
    document = export_team(db.session, humans.id)
    assert (document["format"], document["version"], document["ruleset"]) == (
        "bbleague-team",
        1,
        "bb2025",
    )
    statuses = [p["status"] for p in document["players"]]
    assert sorted(statuses).count("dead") == 1
    assert {"mng", "fired"} <= set(statuses)
    blitzer = next(p for p in document["players"] if p["advancements"])
    assert [a["skill"] for a in blitzer["advancements"]] == ["Mighty Blow", "Fend"]
    assert (blitzer["spp_earned"], blitzer["spp_spent"]) == (13, 10)

    target = _league(people, "bb2025", "New World")
    imported = _import(people["commish"], target, copy.deepcopy(document))

    assert export_team(db.session, imported.id) == document
    assert _without_ids(TeamSchema.body(imported)) == _without_ids(TeamSchema.body(humans))
    assert imported.coach.username == "anna"
    assert recompute_team(db.session, imported, fix=False) == []
    assert check_all(db.session) == []
    opening = db.session.get(TeamOpening, imported.id)
    assert opening is not None
    assert opening.fans_change == 1
    skills = db.session.scalars(
        select(PlayerSkill.skill).join(Player).where(Player.team_id == imported.id)
    )
    assert sorted(skills) == ["Fend", "Mighty Blow"]


def test_bb2020_random_skills_and_characteristics_round_trip(people) -> None:
    anna = people["anna"]
    league = _league(people, "bb2020", "Second Season")
    team = make_active_team(
        anna, league, "human", "Reavers", (("blitzer", 1), ("human-lineman", 10))
    )
    player = _player(team, "blitzer")
    with unit_of_work():
        db.session.get(Player, player.id).spp_earned = 127  # as if earned elsewhere
    for request in (
        {"kind": "random_primary", "category": "G", "dice": (1, 2)},  # Dauntless
        {"kind": "chosen_primary", "skill": "Mighty Blow"},
        {"kind": "random_secondary", "category": "A", "dice": (1, 1)},  # Catch
        {"kind": "chosen_secondary", "skill": "Dodge"},
        {"kind": "random_characteristic", "dice": (16,), "characteristic": "ma"},
        # D16 15 allows ST or AG; a secondary skill instead.
        {"kind": "random_characteristic", "dice": (15,), "skill": "Sure Feet"},
    ):
        _buy(anna, player, **request)
    document = export_team(db.session, team.id)
    imported = _import(people["commish"], _league(people, "bb2020", "Elsewhere"), document)
    assert export_team(db.session, imported.id) == document
    assert _without_ids(TeamSchema.body(imported)) == _without_ids(TeamSchema.body(team))
    assert recompute_team(db.session, imported, fix=False) == []


def test_classic_star_player_rolls_round_trip(people) -> None:
    anna = people["anna"]
    league = _league(people, "classic", "Classic")
    team = make_active_team(anna, league, "human", "Reavers", (("blitzer", 1), ("lineman", 10)))
    player = _player(team, "blitzer")
    with unit_of_work():
        db.session.get(Player, player.id).spp_earned = 31
    _buy(anna, player, kind="chosen_primary", dice=(3, 4), skill="Tackle")
    _buy(anna, player, kind="chosen_secondary", dice=(5, 5), skill="Dodge")
    _buy(anna, player, kind="random_characteristic", dice=(6, 6), characteristic="st")
    document = export_team(db.session, team.id)
    assert "pa" not in document["players"][0]["reductions"]  # classic players have no PA
    imported = _import(people["commish"], _league(people, "classic", "Classic too"), document)
    assert export_team(db.session, imported.id) == document
    assert recompute_team(db.session, imported, fix=False) == []


def test_imported_server_dice_are_given_back_by_undo(people) -> None:
    anna = people["anna"]
    league = _league(people, "bb2020", "Server dice")
    team = make_active_team(
        anna, league, "human", "Reavers", (("blitzer", 1), ("human-lineman", 10))
    )
    player = _player(team, "blitzer")
    with unit_of_work():
        db.session.get(Player, player.id).spp_earned = 20
    _buy(anna, player, kind="random_primary", category="G")  # the server rolls
    document = export_team(db.session, team.id)
    (rolled,) = document["players"][0]["advancements"]
    assert rolled["dice_source"] == "server"
    imported = _import(people["commish"], _league(people, "bb2020", "Elsewhere"), document)
    moved = _player(imported, "blitzer")
    assert [roll.dice for roll in moved.dice_rolls] == [rolled["dice"]]  # in the dice log
    with unit_of_work() as session:
        undo_last_advancement(session, people["commish"], moved.id)
    assert moved.pending_roll == {"kind": "random_primary", "category": "G", "dice": rolled["dice"]}


def test_a_draft_team_stays_a_draft(people) -> None:
    league = _league(people, "bb2025", "Drafting")
    with unit_of_work() as session:
        draft = teams.create_team(
            session, people["anna"], teams.NewTeam(league.id, "Drafty", "human")
        )
        teams.hire_player(
            session, people["anna"], draft.id, teams.HirePlayer("human-lineman", "Hans", 3)
        )
        teams.buy_team_item(session, people["anna"], draft.id, "dedicated_fan")
    document = export_team(db.session, draft.id)
    imported = _import(people["commish"], _league(people, "bb2025", "Other"), document)
    assert (imported.status, imported.dedicated_fans, imported.confirmed_at) == ("draft", 2, None)
    assert export_team(db.session, imported.id) == document


# ---------------------------------------------------------------------------
# Playing on in the new league


def test_imported_history_is_the_opening_balance(people) -> None:
    commish, anna, bram = people["commish"], people["anna"], people["bram"]
    _, humans, _ = _season_2025(people)
    document = export_team(db.session, humans.id)
    target = _league(people, "bb2025", "New World")
    imported = _import(commish, target, document)
    rivals = make_active_team(bram, target, "orc", "Other Orcs", ORCS)
    catcher = _player(imported, "human-catcher")
    dead, lasting, niggling, missing = (_player(imported, "human-lineman", i) for i in range(4))
    assert (dead.status, missing.status) == ("dead", "mng")
    assert (lasting.av_reduction, niggling.niggling_injuries) == (1, 1)

    # Killed before, and injured in the last match before the move: neither plays now.
    for player in (dead, missing):
        report = MatchReport(
            home=SideReport(score=0), away=SideReport(score=0), players=(PlayerEvents(player.id),)
        )
        with pytest.raises(ReportErrors) as refused:
            _record(commish, target, imported, rivals, report)
        assert f"player_{player.id}" in refused.value.fields

    report = MatchReport(
        home=SideReport(score=1, fans_change=1),
        away=SideReport(score=0),
        players=(PlayerEvents(catcher.id, td=1), PlayerEvents(lasting.id, injury="serious_injury")),
    )
    _record(commish, target, imported, rivals, report)
    db.session.expire_all()
    imported = db.session.get(Team, imported.id)
    catcher, lasting, missing, dead = (
        db.session.get(Player, p.id) for p in (catcher, lasting, missing, dead)
    )
    assert catcher.spp_earned == 10 + 3  # the opening 10, plus a touchdown here
    assert (lasting.av_reduction, lasting.niggling_injuries) == (1, 1)
    assert (missing.status, dead.status) == ("active", "dead")  # the missed match is over
    assert imported.dedicated_fans == 3  # 1 + 1 before the move + 1 now
    assert check_all(db.session) == []
    # The opening stays what was imported; the events of this league add to it.
    assert db.session.get(PlayerOpening, catcher.id).spp == 10
    _ = anna


# ---------------------------------------------------------------------------
# Checks


def _problems(league: League, document: Any, actor: User) -> dict[str, str]:
    with pytest.raises(InvalidDocument) as refused, unit_of_work() as session:
        import_team(session, actor, league.id, document)
    assert refused.value.code == "invalid_document"
    problems: dict[str, str] = {}
    for problem in refused.value.problems:
        problems[problem.path] = f"{problems.get(problem.path, '')}{problem.message}\n"
    return problems


def test_every_problem_is_reported_at_once_and_nothing_is_written(people) -> None:
    league, humans, _ = _season_2025(people)
    document = export_team(db.session, humans.id)
    bad = copy.deepcopy(document)
    bad["team"]["team_type"] = "elf"  # unknown team type: players cannot be checked
    bad["ledger"][0]["amount"] += 1
    bad["ledger"][1]["kind"] = "gift"
    problems = _problems(league, bad, people["commish"])
    assert "team.team_type" in problems
    assert "ledger[1].kind" in problems
    assert "team.name" in problems  # the league has a team of that name already

    bad = copy.deepcopy(document)
    bad["team"]["name"] = "Reavers II"
    bad["team"]["treasury"] += 10
    bad["team"]["rerolls"] += 1  # more than the ledger bought
    bad["team"]["apothecary"] = "yes"
    players = bad["players"]
    players[0]["position"] = "human-wizard"
    players[1]["number"] = 100
    players[2]["number"] = players[3]["number"]  # two on the roster wearing one number
    players[5]["status"] = "resting"
    blitzer = next(p for p in players if p["advancements"])
    blitzer["advancements"][0]["spp_cost"] = 3
    blitzer["advancements"][0]["value_increase"] = 20_000
    blitzer["advancements"][1]["skill"] = "Flying Tackle"
    catcher = next(p for p in players if p["position"] == "human-catcher")
    catcher["advancements"] = [
        {
            "number": 1,
            "kind": "chosen_primary",
            "spp_cost": 6,
            "skill": "Loner",  # a trait: never bought
            "characteristic": None,
            "category": None,
            "dice": None,
            "dice_source": None,
            "value_increase": 20_000,
        }
    ]
    catcher["spp_spent"] = 6
    catcher["reductions"]["luck"] = 1
    bad["ledger"].append(
        {"amount": -(10**9), "kind": "purchase", "description": "Gold", "item": None}
    )
    target = _league(people, "bb2025", "New World")
    before = {
        model: db.session.scalar(select(func.count()).select_from(model))
        for model in (Team, Player, Advancement, TreasuryEntry, PlayerOpening)
    }
    problems = _problems(target, bad, people["commish"])
    blitzer_at = f"players[{players.index(blitzer)}]"
    catcher_at = f"players[{players.index(catcher)}]"
    for path in (
        "team.rerolls",
        "team.apothecary",
        "players[0].position",
        "players[1].number",
        "players[5].status",
        f"{blitzer_at}.advancements[0].spp_cost",
        f"{blitzer_at}.advancements[0].value_increase",
        f"{blitzer_at}.advancements[1].skill",
        f"{catcher_at}.reductions",
        f"ledger[{len(bad['ledger']) - 1}].amount",
    ):
        assert path in problems, (path, problems)
    assert "costs 6 SPP" in problems[f"{blitzer_at}.advancements[0].spp_cost"]
    assert "Flying Tackle" in problems[f"{blitzer_at}.advancements[1].skill"]
    after = {model: db.session.scalar(select(func.count()).select_from(model)) for model in before}
    assert after == before


def test_problems_come_in_the_order_of_the_document(people) -> None:
    """A refusal of the rules stands beside the member it is about, among the schema's."""
    league, humans, _ = _season_2025(people)
    bad = export_team(db.session, humans.id)
    bad["team"]["treasury"] = "lots"
    del bad["team"]["cheerleaders"]
    bad["players"][0]["spp_earned"] = 1
    bad["players"][0]["spp_spent"] = 2
    bad["players"][0]["name"] = ""
    with pytest.raises(InvalidDocument) as refused, unit_of_work() as session:
        import_team(session, people["commish"], league.id, bad)
    assert [(p.path, p.message) for p in refused.value.problems][:5] == [
        # The league has a team of that name: the rules' refusal, in the name's place.
        ("team.name", "Old World already has a team called Reavers."),
        ("team.treasury", "must be an integer."),
        ("team.cheerleaders", "must be an integer."),
        ("players[0].name", "must have 1 to 60 characters."),
        ("players[0].spp_spent", "2 SPP spent is more than the 1 earned."),
    ]


def test_checks_against_the_rules(people) -> None:
    _, humans, _ = _season_2025(people)
    document = export_team(db.session, humans.id)
    document["team"]["name"] = "Reavers II"
    target = _league(people, "bb2025", "New World")
    players = document["players"]
    catcher = next(p for p in players if p["position"] == "human-catcher")

    def problems_with(change) -> dict[str, str]:
        bad = copy.deepcopy(document)
        change(bad)
        return _problems(target, bad, people["commish"])

    def trait(bad):
        entry = next(p for p in bad["players"] if p["position"] == "human-catcher")
        entry["advancements"] = [
            {
                "number": 1,
                "kind": "chosen_primary",
                "spp_cost": 6,
                "skill": "Loner",
                "characteristic": None,
                "category": None,
                "dice": None,
                "dice_source": None,
                "value_increase": 20_000,
            }
        ]
        entry["spp_spent"] = 6

    index = players.index(catcher)
    assert "trait" in problems_with(trait)[f"players[{index}].advancements[0].skill"]

    def ledger_sum(bad):
        bad["ledger"].pop()

    assert "adds up to" in problems_with(ledger_sum)["ledger"]

    def crowded(bad):
        extra = copy.deepcopy(bad["players"][-1])
        for number in range(60, 67):  # 10 on the roster + 7
            bad["players"].append({**extra, "number": number, "status": "active"})

    assert "a team may have 16" in problems_with(crowded)["players"]

    def spent(bad):
        next(p for p in bad["players"] if p["advancements"])["spp_spent"] = 9

    assert any("cost 10 SPP in all" in m for m in problems_with(spent).values())

    def wrong_dice(bad):
        blitzer = next(p for p in bad["players"] if p["advancements"])
        blitzer["advancements"][1]["dice"] = [6, 6, 6, 6]

    assert any("do not give Fend" in m for m in problems_with(wrong_dice).values())


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda d: d.update(version=2), "version", "reads version 1"),
        (lambda d: d.update(format="csv"), "format", "bbleague-team"),
        (lambda d: d.update(ruleset="bb2020"), "ruleset", "same ruleset"),
        (lambda d: d.update(team=[]), "team", "object"),
        (lambda d: d.update(players={}), "players", "list"),
    ],
)
def test_the_document_must_be_one_this_league_can_read(people, change, path, words) -> None:
    league = _league(people, "bb2025", "Source")
    team = make_active_team(people["anna"], league, "human", "Reavers", HUMANS)
    document = export_team(db.session, team.id)
    change(document)
    problems = _problems(_league(people, "bb2025", "Target"), document, people["commish"])
    assert words in problems[path]


def test_only_a_commissioner_imports(people) -> None:
    league = _league(people, "bb2025", "Source")
    team = make_active_team(people["anna"], league, "human", "Reavers", HUMANS)
    document = export_team(db.session, team.id)
    target = _league(people, "bb2025", "Target")
    with pytest.raises(Forbidden), unit_of_work() as session:
        import_team(session, people["anna"], target.id, document)
    with pytest.raises(NotFound, match="not a coach"), unit_of_work() as session:
        import_team(session, people["commish"], target.id, document, coach="nobody")
    imported = _import(people["commish"], target, document, coach="bram")
    assert imported.coach.username == "bram"
    admin = make_user("admin", admin=True)
    document["team"]["name"] = "Reavers II"
    assert _import(admin, target, document, coach=None).coach.username == "admin"


# ---------------------------------------------------------------------------
# The API


def _token(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def test_api_export_is_public_and_import_answers_with_the_team(people, client: FlaskClient) -> None:
    _, humans, _ = _season_2025(people)
    response = client.get(f"/api/v1/teams/{humans.id}/export")
    assert response.status_code == 200
    document = response.json
    assert document == exchange.team_document(humans)
    assert client.get("/api/v1/teams/999999/export").status_code == 404

    target = _league(people, "bb2025", "New World")
    url = f"/api/v1/leagues/{target.id}/teams/import"
    assert client.post(url, json=document).status_code == 401
    refused = client.post(url, json=document, headers=_token(people["anna"]))
    assert refused.status_code == 403
    boss = _token(people["commish"])
    assert client.post(url, data="[1, 2]", headers=boss).status_code == 400
    for coach in ("nobody", "%00"):
        missing = client.post(f"{url}?coach={coach}", json=document, headers=boss)
        assert (missing.status_code, missing.json["error"]["code"]) == (404, "not_found")

    bad = copy.deepcopy(document)
    bad["players"][0]["number"] = 0
    bad["ledger"][0]["amount"] = "lots"
    response = client.post(url, json=bad, headers=boss)
    assert response.status_code == 422
    error = response.json["error"]
    assert error["code"] == "invalid_document"
    assert "nothing was imported" in error["message"]
    assert {p["path"] for p in error["problems"]} >= {"players[0].number", "ledger[0].amount"}
    assert all(set(p) == {"path", "message"} for p in error["problems"])

    response = client.post(f"{url}?coach=anna", json=document, headers=boss)
    assert response.status_code == 201, response.json
    assert response.json["league_id"] == target.id
    assert response.json["coach"] == "anna"
    assert _without_ids(response.json) == _without_ids(
        client.get(f"/api/v1/teams/{humans.id}").json
    )
    again = client.get(f"/api/v1/teams/{response.json['id']}/export").json
    assert again == document
