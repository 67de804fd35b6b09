"""A fixture's result through void, re-entry and correction; duplicate fixtures; graveyard dates.

Numbers worked out by hand from the BB2025 ruleset data (RULES-FACTS 6b):
winnings are (fan attendance / 2, rounded down, + own TDs + 1 for not
stalling) x 10,000; Expensive Mistakes read a D6 in the treasury's column
(100,000 steps from 100,000), a catastrophe keeps 2D6 x 10,000 and a major
incident loses half the treasury rounded down to 5,000.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from league.extensions import db
from league.models import Match, Player, Team
from league.services import matches
from league.services.access import league_ruleset
from league.services.errors import Conflict, RuleViolation
from league.services.fixtures import season_fixtures
from league.services.match_winnings import winnings_working
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.recompute import check_all
from league.services.standings import standings
from league.services.stats import graveyard
from league.services.submissions import Resubmitted
from league.services.unit_of_work import unit_of_work
from tests.factories import with_match_touchdowns, with_touchdowns

# After the draft: 1,000,000 - (7 x 50,000 + 2 x 75,000 + 2 x 75,000 + 2 x 85,000).
HUMANS_TREASURY = 180_000
# 1,000,000 - (7 x 50,000 + 2 x 75,000 + 2 x 85,000).
ORCS_TREASURY = 330_000


def _fixture(commissioner, league, home, away, round_number=1, day=date(2026, 9, 5)) -> int:
    with unit_of_work() as session:
        match = matches.schedule_match(
            session,
            commissioner,
            league.id,
            home.id,
            away.id,
            round_number=round_number,
            scheduled_for=day,
        )
        return match.id


def _result(commissioner, match_id: int, report: MatchReport) -> Match:
    """The touchdowns `report` leaves out go to each team's first player."""
    report = with_match_touchdowns(report, match_id)
    with unit_of_work() as session:
        return matches.record_result(session, commissioner, match_id, report)


def _check_clean() -> None:
    db.session.expire_all()
    assert check_all(db.session) == []


def _treasury(team: Team) -> int:
    db.session.expire_all()
    found = db.session.get(Team, team.id)
    assert found is not None
    return found.treasury


@pytest.fixture
def dice(monkeypatch) -> Iterator[list[int]]:
    """The server's dice, in the order it rolls them; rolling more than these fails the test."""
    queue: list[int] = []

    def randint(low: int, high: int) -> int:
        assert queue, "the server rolled dice it should not have"
        value = queue.pop(0)
        assert low <= value <= high
        return value

    monkeypatch.setattr(matches.random, "randint", randint)
    yield queue
    assert queue == [], "dice left unrolled"


# ---------------------------------------------------------------------------
# Void, re-entry, correction


def test_voided_fixture_stays_in_its_round_and_takes_a_new_result(
    commissioner, league_2025
) -> None:
    league, humans, orcs = league_2025
    catcher = next(p for p in humans.players if p.position_id == "human-catcher")
    fixture_id = _fixture(commissioner, league, humans, orcs, round_number=2)
    report = MatchReport(
        home=SideReport(score=2, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(PlayerEvents(catcher.id, td=2),),
        fan_attendance=6,
    )
    _result(commissioner, fixture_id, report)
    # (6 / 2 + 2 TD + 1) x 10,000 and (6 / 2 + 1 TD + 1) x 10,000
    assert (_treasury(humans), _treasury(orcs)) == (
        HUMANS_TREASURY + 60_000,
        ORCS_TREASURY + 50_000,
    )
    _check_clean()

    with unit_of_work() as session:
        voided = matches.void_match(session, commissioner, fixture_id)
        assert voided.state == "voided"
        assert voided.voided_by_id == commissioner.id
        assert voided.voided_at is not None
    _check_clean()
    assert (_treasury(humans), _treasury(orcs)) == (HUMANS_TREASURY, ORCS_TREASURY)
    assert db.session.get(Player, catcher.id).spp_earned == 0

    # The round still has its fixture: the same teams, the same date, waiting for a result.
    fixture_list = season_fixtures(db.session, league)
    assert [r.number for r in fixture_list.rounds] == [2]
    (again,) = fixture_list.rounds[0].fixtures
    assert again.match_id != fixture_id
    assert (again.state, again.scheduled_for) == ("scheduled", date(2026, 9, 5))
    assert (again.home.team_id, again.away.team_id) == (humans.id, orcs.id)
    replay = matches.get_match(db.session, again.match_id)
    assert replay.replaces_id == fixture_id
    assert [m.id for m in matches.voided_before(replay)] == [fixture_id]
    assert matches.replacement_of(db.session, voided).id == replay.id
    # The voided match keeps its result for the record and takes no new one.
    with pytest.raises(Conflict, match=f"played again as match #{replay.id}"), unit_of_work() as s:
        matches.record_result(s, commissioner, fixture_id, report)

    # The new result of the same fixture: 1-1, attendance 8.
    redo = MatchReport(
        home=SideReport(score=1, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(PlayerEvents(catcher.id, td=1),),
        fan_attendance=8,
    )
    _result(commissioner, replay.id, redo)
    _check_clean()
    # (8 / 2 + 1 TD + 1) x 10,000 each
    assert (_treasury(humans), _treasury(orcs)) == (
        HUMANS_TREASURY + 60_000,
        ORCS_TREASURY + 60_000,
    )
    table = {
        row.team_name: (row.played, row.drawn, row.won)
        for row in standings(db.session, league).rows
    }
    assert table == {"Reavers": (1, 1, 0), "Gouged Eye": (1, 1, 0)}

    # Corrected: 2-1 after all, attendance unchanged.
    _result(
        commissioner,
        replay.id,
        MatchReport(
            home=SideReport(score=2, mistake_d6=6),
            away=SideReport(score=1, mistake_d6=6),
            players=(PlayerEvents(catcher.id, td=2),),
            fan_attendance=8,
        ),
    )
    _check_clean()
    # (8 / 2 + 2 TD + 1) x 10,000 and (8 / 2 + 1 TD + 1) x 10,000
    assert (_treasury(humans), _treasury(orcs)) == (
        HUMANS_TREASURY + 70_000,
        ORCS_TREASURY + 60_000,
    )
    assert db.session.get(Player, catcher.id).spp_earned == 6  # 2 TD x 3
    table = {
        row.team_name: (row.played, row.won, row.lost) for row in standings(db.session, league).rows
    }
    assert table == {"Reavers": (1, 1, 0), "Gouged Eye": (1, 0, 1)}

    # Voiding the replay too: the fixture is scheduled a third time, with both voided before it.
    with unit_of_work() as session:
        matches.void_match(session, commissioner, replay.id)
    _check_clean()
    (third,) = season_fixtures(db.session, league).rounds[0].fixtures
    third_match = matches.get_match(db.session, third.match_id)
    assert [m.id for m in matches.voided_before(third_match)] == [replay.id, fixture_id]


def test_voiding_an_unplayed_fixture_cancels_it(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    fixture_id = _fixture(commissioner, league, humans, orcs)
    with unit_of_work() as session:
        matches.void_match(session, commissioner, fixture_id)
    assert season_fixtures(db.session, league).empty
    _check_clean()


def test_voiding_a_one_off_result_schedules_nothing(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    with unit_of_work() as session:
        match = matches.record_new_match(
            session,
            commissioner,
            league.id,
            humans.id,
            orcs.id,
            with_touchdowns(
                MatchReport(home=SideReport(score=1, mistake_d6=6), away=SideReport(mistake_d6=6)),
                humans,
                orcs,
            ),
        )
        match_id = match.id
    with unit_of_work() as session:
        matches.void_match(session, commissioner, match_id)
    assert season_fixtures(db.session, league).empty
    assert matches.replacement_of(db.session, matches.get_match(db.session, match_id)) is None


def test_correction_recomputes_formula_winnings_and_keeps_typed_ones(
    commissioner, league_2025
) -> None:
    league, humans, orcs = league_2025
    fixture_id = _fixture(commissioner, league, humans, orcs)
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=2, mistake_d6=6),
            away=SideReport(score=1, winnings=25_000, mistake_d6=6),
            fan_attendance=6,
        ),
    )
    match = matches.get_match(db.session, fixture_id)
    assert (match.home.winnings, match.home.winnings_entered) == (60_000, False)
    assert (match.away.winnings, match.away.winnings_entered) == (25_000, True)
    assert winnings_working(league_ruleset(match.league), match, match.home) == (
        ("fan attendance 6 / 2", 3),
        ("2 TD", 2),
        ("no stalling", 1),
    )
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=2, stalled=True, mistake_d6=6),
            away=SideReport(score=1, winnings=25_000, mistake_d6=6),
            fan_attendance=8,
        ),
    )
    db.session.expire_all()
    match = matches.get_match(db.session, fixture_id)
    # (8 / 2 + 2 TD, no bonus: a player stalled) x 10,000
    assert (match.home.winnings, match.home.stalled) == (60_000, True)
    assert match.away.winnings == 25_000
    assert (_treasury(humans), _treasury(orcs)) == (
        HUMANS_TREASURY + 60_000,
        ORCS_TREASURY + 25_000,
    )
    _check_clean()


def test_expensive_mistakes_keep_their_dice_and_are_read_again_on_correction(
    commissioner, league_2025, dice
) -> None:
    league, humans, orcs = league_2025
    fixture_id = _fixture(commissioner, league, humans, orcs)
    # Humans: 180,000 + 0 is in the 100,000 column, D6 6: crisis averted (typed).
    # Orcs: 330,000 + 200,000 = 530,000, the 500,000 column; the server rolls D6 1:
    # catastrophe, 2D6 3 + 4 = 7 keeps 70,000: 460,000 lost.
    dice.extend([1, 3, 4])
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=0, winnings=0, mistake_d6=6),
            away=SideReport(score=1, winnings=200_000),
        ),
    )
    match = matches.get_match(db.session, fixture_id)
    orcs_side = match.away
    assert (orcs_side.mistake, orcs_side.mistake_loss) == ("catastrophe", 460_000)
    assert (orcs_side.mistake_treasury, orcs_side.mistake_d6, orcs_side.mistake_rolled) == (
        530_000,
        1,
        True,
    )
    assert (orcs_side.mistake_roll, orcs_side.mistake_dice) == (7, [3, 4])
    assert (match.home.mistake, match.home.mistake_d6, match.home.mistake_rolled) == (
        "crisis_averted",
        6,
        False,
    )
    assert _treasury(orcs) == 70_000
    _check_clean()

    # Winnings corrected to 100,000: 430,000 is the 400,000 column, where the same D6 1
    # reads a major incident: half of 430,000 = 215,000 lost. No die is rolled again.
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=0, winnings=0),
            away=SideReport(score=1, winnings=100_000),
        ),
    )
    db.session.expire_all()
    orcs_side = matches.get_match(db.session, fixture_id).away
    assert (orcs_side.mistake, orcs_side.mistake_loss) == ("major", 215_000)
    assert (orcs_side.mistake_treasury, orcs_side.mistake_d6) == (430_000, 1)
    assert _treasury(orcs) == ORCS_TREASURY + 100_000 - 215_000
    _check_clean()

    # Back to 200,000: catastrophe again; its 2D6 were dropped with the major incident,
    # so they are rolled anew (5 + 1 = 6 keeps 60,000: 470,000 lost).
    dice.extend([5, 1])
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=0, winnings=0),
            away=SideReport(score=1, winnings=200_000),
        ),
    )
    db.session.expire_all()
    orcs_side = matches.get_match(db.session, fixture_id).away
    assert (orcs_side.mistake, orcs_side.mistake_loss, orcs_side.mistake_dice) == (
        "catastrophe",
        470_000,
        [5, 1],
    )
    assert _treasury(orcs) == 60_000
    _check_clean()


def test_a_correction_keeps_a_fans_fall_back_to_the_start(commissioner, league_2025) -> None:
    """The fans limits apply to the fans before the match, not after its own change."""
    league, humans, orcs = league_2025
    start = league_ruleset(league).team_building.dedicated_fans.start
    won = _fixture(commissioner, league, humans, orcs, round_number=1)
    _result(
        commissioner,
        won,
        MatchReport(
            home=SideReport(score=1, fans_change=1, mistake_d6=6),
            away=SideReport(score=0, mistake_d6=6),
        ),
    )
    lost = _fixture(commissioner, league, humans, orcs, round_number=2)
    report = MatchReport(
        home=SideReport(score=0, fans_change=-1, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
    )
    _result(commissioner, lost, report)
    assert db.session.get(Team, humans.id).dedicated_fans == start
    _result(commissioner, lost, report)  # corrected unchanged: not "cannot fall below"
    db.session.expire_all()
    assert db.session.get(Team, humans.id).dedicated_fans == start
    _check_clean()


# ---------------------------------------------------------------------------
# Fixtures and the graveyard


def test_the_same_fixture_twice_in_a_round_needs_add_another(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    first = _fixture(commissioner, league, humans, orcs, round_number=3)
    for home, away in ((humans, orcs), (orcs, humans)):
        with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
            matches.schedule_match(
                session, commissioner, league.id, home.id, away.id, round_number=3
            )
        assert refused.value.field == "add_another"
        assert refused.value.message.startswith(
            f"{home.name} and {away.name} already meet in round 3 (match #{first})."
        )
    # Another round, or said on purpose: added.
    _fixture(commissioner, league, orcs, humans, round_number=4)
    with unit_of_work() as session:
        matches.schedule_match(
            session, commissioner, league.id, humans.id, orcs.id, round_number=3, add_another=True
        )
    assert [len(r.fixtures) for r in season_fixtures(db.session, league).rounds] == [2, 1]


def test_a_voided_fixture_can_be_added_to_its_round_again(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    cancelled = _fixture(commissioner, league, humans, orcs, round_number=1)
    with unit_of_work() as session:
        matches.void_match(session, commissioner, cancelled)
    again = _fixture(commissioner, league, humans, orcs, round_number=1)
    # The cancelled fixture leaves the list; round 1 holds the new one.
    [round_one] = season_fixtures(db.session, league).rounds
    assert round_one.number == 1
    assert [(f.match_id, f.state) for f in round_one.fixtures] == [(again, "scheduled")]
    assert db.session.get(Match, cancelled).state == "voided"


def test_graveyard_gives_the_day_the_match_was_played(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    victim = next(p for p in orcs.players if p.position_id == "orc-lineman")
    fixture_id = _fixture(commissioner, league, humans, orcs, day=date(2026, 9, 5))
    _result(
        commissioner,
        fixture_id,
        MatchReport(
            home=SideReport(score=1, mistake_d6=6),
            away=SideReport(mistake_d6=6),
            players=(PlayerEvents(victim.id, injury="dead"),),
        ),
    )
    match = db.session.get(Match, fixture_id)
    match.played_at = datetime(2026, 9, 12, 20, 30, tzinfo=UTC)  # a week late
    db.session.commit()
    (grave,) = graveyard(db.session, league)
    assert grave.day == date(2026, 9, 12)


def test_a_result_form_sent_twice_is_refused_the_second_time(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    fixture_id = _fixture(commissioner, league, humans, orcs)
    # The second copy changes nothing: the first report (2-1) stays.
    report = with_match_touchdowns(
        MatchReport(home=SideReport(score=2), away=SideReport(score=1)), fixture_id
    )
    with unit_of_work() as session:
        matches.record_result(session, commissioner, fixture_id, report, form_token="t-1")
    again = with_match_touchdowns(
        MatchReport(home=SideReport(score=5), away=SideReport(score=0)), fixture_id
    )
    with pytest.raises(Resubmitted) as refused, unit_of_work() as session:
        matches.record_result(session, commissioner, fixture_id, again, form_token="t-1")
    assert refused.value.message == "This result was already recorded; the form was sent twice."
    db.session.expire_all()
    match = matches.get_match(db.session, fixture_id)
    assert (match.home.score, match.away.score) == (2, 1)
    _check_clean()
