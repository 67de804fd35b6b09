"""A team's value chart: the team value each side took the field with, stored with the result.

Numbers worked out by hand from the BB2025 ruleset data (RULES-FACTS 6b, 7a): TV is the sum
of the rostered players' current values (hiring fee plus value increases; the dead count
for nothing, players missing the next game still count) plus re-rolls at the roster's price
and sideline staff; Dedicated Fans do not count in BB2025 (`counts_in_team_value = false`).
Humans: lineman 50,000, catcher and thrower 75,000, blitzer 85,000, re-roll 50,000 (bought
after the draft at double price, counted at 50,000), assistant coach 10,000. Orcs: lineman
50,000, thrower 75,000, blitzer 85,000.
"""

from __future__ import annotations

import re
from datetime import date

from sqlalchemy import update

from league.extensions import db
from league.models import Match, MatchTeam, PregameSide, Team
from league.services import charts, matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.recompute import check_all
from league.services.rosters import team_values
from league.services.unit_of_work import unit_of_work
from tests.factories import buy, with_match_touchdowns

# 7 x 50,000 + 2 x 75,000 + 2 x 75,000 + 2 x 85,000 players, a re-roll at 50,000, an
# assistant coach at 10,000.
HUMANS_TV = 820_000 + 50_000 + 10_000
# 7 x 50,000 + 2 x 75,000 + 2 x 85,000.
ORCS_TV = 670_000
# 1,000,000 - 820,000 at the draft, then 100,000 for the re-roll (double after the draft)
# and 10,000 for the coach.
HUMANS_TREASURY = 180_000 - 100_000 - 10_000


def _fixture(commissioner, league, home, away, round_number: int) -> int:
    with unit_of_work() as session:
        return matches.schedule_match(
            session,
            commissioner,
            league.id,
            home.id,
            away.id,
            round_number=round_number,
            scheduled_for=date(2026, 9, round_number),
        ).id


def _result(commissioner, match_id: int, report: MatchReport) -> None:
    report = with_match_touchdowns(report, match_id)
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)
    db.session.expire_all()


def _stored(match_id: int) -> dict[str, int | None]:
    match = db.session.get(Match, match_id)
    assert match is not None
    return {side.side: side.team_value for side in match.sides}


def _points(team: Team) -> list[tuple[int, int | None]]:
    return [(p.match_id, p.team_value) for p in charts.team_values(db.session, team.id)]


def _report(home: int, away: int, *players: PlayerEvents) -> MatchReport:
    # Winnings typed as 0 and the Expensive Mistakes D6 typed: the treasury stays put.
    return MatchReport(
        home=SideReport(score=home, winnings=0, mistake_d6=6),
        away=SideReport(score=away, winnings=0, mistake_d6=6),
        players=players,
        fan_attendance=6,
    )


def test_the_value_a_team_took_the_field_with_is_stored_and_charted(
    commissioner, league_2025, client
) -> None:
    league, humans, orcs = league_2025
    anna = humans.coach
    buy(anna, humans, "reroll")
    buy(anna, humans, "assistant_coach")
    humans = db.session.get(Team, humans.id)
    assert team_values(humans).team_value == HUMANS_TV  # what the roster page shows
    linemen = sorted(
        (p for p in humans.players if p.position_id == "human-lineman"), key=lambda p: p.number
    )
    victim = linemen[-1]  # not the lowest number, who is credited the touchdowns
    catcher = next(p for p in humans.players if p.position_id == "human-catcher")

    first = _fixture(commissioner, league, humans, orcs, 1)
    _result(
        commissioner,
        first,
        _report(
            1,
            0,
            PlayerEvents(victim.id, injury="dead"),
            PlayerEvents(catcher.id, injury="seriously_hurt"),
        ),
    )
    # The dead lineman took the field: the stored value is the one before the match.
    assert _stored(first) == {"home": HUMANS_TV, "away": ORCS_TV}
    # The roster now: the lineman's 50,000 gone; the catcher misses the next game but still
    # counts in TV (he would not in CTV).
    humans = db.session.get(Team, humans.id)
    assert team_values(humans).team_value == HUMANS_TV - 50_000
    assert team_values(humans).current_team_value == HUMANS_TV - 50_000 - 75_000

    second = _fixture(commissioner, league, humans, orcs, 2)
    _result(commissioner, second, _report(0, 0))
    assert _stored(second) == {"home": HUMANS_TV - 50_000, "away": ORCS_TV}
    assert _points(humans) == [(first, HUMANS_TV), (second, HUMANS_TV - 50_000)]
    assert [p.treasury for p in charts.team_values(db.session, humans.id)] == [
        HUMANS_TREASURY,
        HUMANS_TREASURY,
    ]
    assert _points(orcs) == [(first, ORCS_TV), (second, ORCS_TV)]
    # The history page's table of the value chart's figures, in thousands as the rules books
    # write TV: match, team value, treasury.
    history = client.get(f"/teams/{humans.id}/history").text
    rows = re.findall(
        r'<tr><th scope="row">(\d+)</th><td class="num">([^<]*)</td><td class="num">([^<]*)</td>',
        history,
    )
    assert rows == [("1", "880k", "70k"), ("2", "830k", "70k")]

    # A correction of the first result keeps the value the team played with (the roster's
    # TV is 830,000 by now): 2-0 instead of 1-0, the same casualties.
    _result(
        commissioner,
        first,
        _report(
            2,
            0,
            PlayerEvents(victim.id, injury="dead"),
            PlayerEvents(catcher.id, injury="seriously_hurt"),
        ),
    )
    assert db.session.get(Match, first).home.score == 2
    assert _stored(first) == {"home": HUMANS_TV, "away": ORCS_TV}
    assert _points(humans) == [(first, HUMANS_TV), (second, HUMANS_TV - 50_000)]

    # A void takes the match off the chart (its replay is only scheduled).
    with unit_of_work() as session:
        matches.void_match(session, commissioner, second)
    db.session.expire_all()
    assert _points(humans) == [(first, HUMANS_TV)]
    # The stored values are no cache: the check finds nothing to repair.
    assert check_all(db.session) == []


def test_results_recorded_before_values_were_kept_show_their_pre_game_ctv(
    commissioner, league_2025
) -> None:
    league, humans, orcs = league_2025
    match_id = _fixture(commissioner, league, humans, orcs, 1)
    _result(commissioner, match_id, _report(1, 0))
    assert _stored(match_id) == {"home": 820_000, "away": ORCS_TV}
    # The humans' pre-game worked out a CTV; the chart shows the stored TV all the same.
    with unit_of_work() as session:
        session.add(PregameSide(match_id=match_id, team_id=humans.id, side="home", ctv=765_000))
    assert _points(humans) == [(match_id, 820_000)]
    # As a result from before the column: no stored value, the pre-game's CTV instead.
    with unit_of_work() as session:
        session.execute(update(MatchTeam).values(team_value=None))
    db.session.expire_all()
    assert _points(humans) == [(match_id, 765_000)]
    assert _points(orcs) == [(match_id, None)]
    # A correction of such a result does not make one up from today's roster.
    _result(commissioner, match_id, _report(2, 0))
    assert _stored(match_id) == {"home": None, "away": None}
    assert _points(humans) == [(match_id, 765_000)]
