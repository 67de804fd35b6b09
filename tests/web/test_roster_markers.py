"""After a match the roster marks lowered characteristics and players who may advance."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user


def test_roster_and_player_page_after_a_match(client: FlaskClient) -> None:
    commissioner, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    scorer, victim = humans.players[0], humans.players[1]
    report = MatchReport(
        home=SideReport(score=1, mistake_d6=6),
        away=SideReport(score=0, mistake_d6=6),
        players=(
            PlayerEvents(scorer.id, td=1),  # 3 SPP: enough for a random primary skill
            PlayerEvents(victim.id, injury="lasting_injury", lasting="av"),
        ),
    )
    with unit_of_work() as session:
        match = matches.record_new_match(
            session, commissioner, league.id, humans.id, orcs.id, report
        )

    page = client.get(f"/teams/{humans.id}").text
    assert page.count("can advance") == 1
    assert 'class="num stat-injured" title="Lowered by a lasting injury">8+' in page  # AV 9+ -> 8+
    assert "MNG" in page

    history = client.get(f"/players/{scorer.id}").text
    assert "Match history" in history
    assert f"/matches/{match.id}" in history
    assert "Gouged Eye" in history
    assert "1-0" in history
