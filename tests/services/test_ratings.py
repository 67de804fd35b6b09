"""Coach ratings over the stored results (league.services.ratings), and the profile.

NAF ranking formula: both coaches start at 150; in a league of two coaches
K = 2 x sqrt(2) = 2.828427, so a first win between them moves each by 1.414214.
"""

from __future__ import annotations

import math

import pytest

from league.extensions import db
from league.services import matches
from league.services.coaches import coach_profile
from league.services.errors import NotFound
from league.services.matches import MatchReport, SideReport
from league.services.ratings import league_ratings, site_ratings
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, with_touchdowns
from tests.services.conftest import HUMANS, ORCS

HALF_K_TWO = math.sqrt(2)  # K x (1 - 0.5) with K = 2 x sqrt(2)


def _play(commissioner, league, home, away, home_score, away_score, *, conceded=False):
    report = with_touchdowns(
        MatchReport(
            home=SideReport(score=home_score, conceded=conceded),
            away=SideReport(score=away_score),
        ),
        home,
        away,
    )
    with unit_of_work() as session:
        return matches.record_new_match(
            session, commissioner, league.id, home.id, away.id, report
        ).id


def _coaches(league_2025):
    _league, humans, orcs = league_2025
    return humans.coach_id, orcs.coach_id


def test_a_win_moves_both_coaches(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    anna, bram = _coaches(league_2025)
    _play(commissioner, league, humans, orcs, 2, 1)
    ratings = league_ratings(db.session, league.id)
    assert ratings.of(anna, league.id) == pytest.approx(150 + HALF_K_TWO)
    assert ratings.of(bram, league.id) == pytest.approx(150 - HALF_K_TWO)
    assert ratings.k[league.id] == pytest.approx(2 * math.sqrt(2))


def test_a_voided_result_no_longer_counts(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    anna, bram = _coaches(league_2025)
    first = _play(commissioner, league, humans, orcs, 2, 1)
    _play(commissioner, league, humans, orcs, 0, 1)
    # Win then loss: 151.414214, then expected 1 / (10^(-2.828427/150) + 1) = 0.510853,
    # 151.414214 + 2.828427 x (0 - 0.510853) = 151.414214 - 1.444911 = 149.969303.
    assert site_ratings(db.session).of(anna) == pytest.approx(149.969303, abs=1e-5)
    with unit_of_work() as session:
        matches.void_match(session, commissioner, first)
    # Only the loss is left: 150 - 1.414214 for anna, 150 + 1.414214 for bram.
    ratings = site_ratings(db.session)
    assert ratings.of(anna) == pytest.approx(150 - HALF_K_TWO)
    assert ratings.of(bram) == pytest.approx(150 + HALF_K_TWO)
    assert ratings.games[anna] == 1


def test_a_corrected_result_counts_as_it_now_stands(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    anna, _bram = _coaches(league_2025)
    match_id = _play(commissioner, league, humans, orcs, 2, 1)
    report = with_touchdowns(
        MatchReport(home=SideReport(score=1), away=SideReport(score=1)), humans, orcs
    )
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)
    # A draw between equals: 150 + K x (0.5 - 0.5) = 150.
    assert site_ratings(db.session).of(anna) == pytest.approx(150)


def test_a_concession_is_a_loss_whatever_the_score(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    anna, _bram = _coaches(league_2025)
    # The standings' outcome: the team that concedes loses, even two touchdowns up.
    _play(commissioner, league, humans, orcs, 2, 0, conceded=True)
    assert site_ratings(db.session).of(anna) == pytest.approx(150 - HALF_K_TWO)


def test_the_profile_sums_every_league(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    anna = humans.coach
    _play(commissioner, league, humans, orcs, 2, 1)
    other = make_league(commissioner, "bb2025", anna)
    mine = make_active_team(anna, other, "orc", "Second Team", ORCS)
    theirs = make_active_team(commissioner, other, "human", "Hosts", HUMANS)
    _play(commissioner, other, theirs, mine, 1, 1)
    profile = coach_profile(db.session, "anna")
    assert [team.team_name for team in profile.teams] == ["Reavers", "Second Team"]
    assert (profile.record.played, profile.record.won, profile.record.drawn) == (2, 1, 1)
    assert (profile.record.td_for, profile.record.td_against) == (3, 2)
    # First league: one win, 151.414214. Second: a draw between equals, 150. Site-wide the
    # draw comes second: anna 151.414214 against the commissioner at 150; expected
    # 1 / (10^(-1.414214/150) + 1) = 0.505428; 151.414214 + 2.828427 x (0.5 - 0.505428)
    # = 151.398862.
    ratings = {rating.league_id: rating.rating for rating in profile.league_ratings}
    assert ratings[league.id] == pytest.approx(150 + HALF_K_TWO)
    assert ratings[other.id] == pytest.approx(150)
    assert profile.rating == pytest.approx(151.398862, abs=1e-5)


def test_an_unknown_coach_is_not_found() -> None:
    with pytest.raises(NotFound):
        coach_profile(db.session, "nobody")
