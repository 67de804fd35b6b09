"""A concession, followed everywhere it counts: the standings, the webhook's points,
Dedicated Fans and the winnings of both sides agree (RULES-FACTS 6b, BB2025).

The conceding team loses the match whatever the score, gets no winnings and loses
D3 Dedicated Fans (never below 1); the other team wins and takes the whole Fan
Attendance (not halved) plus its touchdowns, with no stalling bonus.
"""

from __future__ import annotations

import pytest

from league.extensions import db
from league.models import League, Match, Team, User
from league.rules import Dice
from league.services import matches, recompute, standings, teams, webhooks
from league.services.matches import MatchReport, PlayerEvents, ReportErrors, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_league, make_team, make_user
from tests.receiver import Receiver
from tests.services.conftest import HUMANS, ORCS


def _team(coach: User, league: League, kind: str, name: str, hires, fans_bought: int) -> Team:
    """A confirmed team that bought `fans_bought` Dedicated Fans at the draft."""
    team = make_team(coach, league, kind, name)
    for position_id, count in hires:
        hire(coach, team, position_id, count)
    with unit_of_work() as session:
        for _ in range(fans_bought):
            teams.buy_team_item(session, coach, team.id, "dedicated_fan")
        teams.confirm_draft(session, coach, team.id)
    return team


def _league(*, table_dice: bool) -> tuple[User, League, Team, Team]:
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    with unit_of_work() as session:
        session.get(League, league.id).table_dice_allowed = table_dice  # type: ignore[union-attr]
    # Humans start with 1 + 2 bought = 3 Dedicated Fans, Orcs with 1.
    humans = _team(anna, league, "human", "Reavers", HUMANS, fans_bought=2)
    orcs = _team(bram, league, "orc", "Gouged Eye", ORCS, fans_bought=0)
    return boss, league, humans, orcs


def _conceded_leading(humans: Team, fans_change: int) -> MatchReport:
    """Humans lead 1-0 (a catcher's touchdown) and concede; attendance 7; the Orcs' fans +1."""
    catcher = next(p for p in humans.players if p.position_id == "human-catcher")
    return MatchReport(
        # D6 6 on Expensive Mistakes: crisis averted at these treasuries.
        home=SideReport(score=1, conceded=True, fans_change=fans_change, mistake_d6=6),
        away=SideReport(score=0, fans_change=1, mistake_d6=6),
        players=(PlayerEvents(catcher.id, td=1),),
        fan_attendance=7,
    )


def _record(boss: User, league: League, home: Team, away: Team, report: MatchReport) -> Match:
    with unit_of_work() as session:
        return matches.record_new_match(session, boss, league.id, home.id, away.id, report)


def test_a_concession_at_1_0_for_the_conceding_team(listening: Receiver) -> None:
    boss, league, humans, orcs = _league(table_dice=True)
    with unit_of_work() as session:
        webhooks.create_webhook(
            session,
            boss,
            league.id,
            webhooks.WebhookSettings(listening.url, ("match.finalised",), "json"),
        )
    humans_gold, orcs_gold = humans.treasury, orcs.treasury
    # The table rolled a 2 on the D3: the Humans lose 2 of their 3 fans.
    match = _record(boss, league, humans, orcs, _conceded_leading(humans, -2))

    # Winnings: the Humans gave the match up, nothing; the Orcs take the whole attendance
    # and their touchdowns, no stalling bonus: (7 + 0) x 10,000.
    assert (match.home.winnings, match.away.winnings) == (0, 70_000)
    assert humans.treasury == humans_gold
    assert orcs.treasury == orcs_gold + 70_000
    # Dedicated Fans: 3 - 2 = 1 for the Humans; the Orcs won, 1 + 1 = 2.
    assert (humans.dedicated_fans, orcs.dedicated_fans) == (1, 2)

    # The standings: a loss for the team that led, 0 points; a win and 3 points for the other.
    table = standings.standings(db.session, db.session.get(League, league.id))
    rows = {row.team_name: row for row in table.rows}
    assert (rows["Gouged Eye"].won, rows["Gouged Eye"].points) == (1, 3)
    assert (rows["Reavers"].lost, rows["Reavers"].points, rows["Reavers"].concessions) == (
        1,
        0,
        1,
    )
    assert (rows["Reavers"].td_for, rows["Reavers"].td_against) == (1, 0)

    # The webhook's points change is the table's: 3 for the Orcs, nothing for the Humans.
    [got] = listening.received
    changes = {r["team"]: (r["points"], r["points_change"]) for r in got.json["data"]["standings"]}
    assert changes == {"Gouged Eye": (3, 3), "Reavers": (0, 0)}
    # Every cache and the ledger still follow from the stored events.
    with unit_of_work() as session:
        assert recompute.check_all(session) == []


def test_a_conceding_team_never_gains_fans_whatever_the_score() -> None:
    boss, league, humans, orcs = _league(table_dice=True)
    with pytest.raises(ReportErrors) as caught:
        _record(boss, league, humans, orcs, _conceded_leading(humans, 1))
    assert caught.value.fields["home_fans_change"] == [
        "A team that concedes loses D3 Dedicated Fans, never below 1: change them by -1, -2."
    ]
    # Nothing was written.
    db.session.expire_all()
    assert db.session.query(Match).count() == 0
    assert db.session.get(Team, humans.id).dedicated_fans == 3  # type: ignore[union-attr]


def test_the_server_rolls_the_d3_and_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    boss, league, humans, orcs = _league(table_dice=False)
    rolled: list[Dice | None] = []

    def three(dice: Dice | None, _randint: object) -> int:
        rolled.append(dice)
        return 3

    monkeypatch.setattr(matches, "roll", three)
    match = _record(boss, league, humans, orcs, _conceded_leading(humans, 0))
    # A 3 on the D3 would leave 0 fans: the Humans stop at 1 (3 - 2).
    assert rolled == [Dice(1, 3)]
    assert (match.home.concession_fans_roll, match.home.fans_change) == (3, -2)
    assert humans.dedicated_fans == 1
    # The table's roll is refused where the server rolls the league's dice.
    with pytest.raises(ReportErrors) as caught, unit_of_work() as session:
        matches.record_result(session, boss, match.id, _conceded_leading(humans, -1))
    assert "rolled by the server" in caught.value.fields["home_fans_change"][0]
    # A correction does not roll again: the stored die stands.
    with unit_of_work() as session:
        matches.record_result(session, boss, match.id, _conceded_leading(humans, 0))
    assert rolled == [Dice(1, 3)]
    assert (match.home.concession_fans_roll, humans.dedicated_fans) == (3, 1)
    with unit_of_work() as session:
        assert recompute.check_all(session) == []
