"""Property: any sequence of record / correct / void leaves every cache consistent."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.extensions import db
from league.models import Match
from league.services import matches, recompute
from league.services.errors import DomainError
from league.services.matches import MatchReport, PlayerEvents, ReportErrors, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user

INJURIES = [None, None, None, "badly_hurt", "seriously_hurt", "serious_injury", "dead"]

operation = st.tuples(
    st.sampled_from(["record", "record", "correct", "void"]),
    st.integers(0, 3),  # home score
    st.integers(0, 3),  # away score
    st.lists(  # (player index, td, cas, injury index, lasting injury?)
        st.tuples(
            st.integers(0, 21),
            st.integers(0, 1),
            st.integers(0, 2),
            st.integers(0, len(INJURIES) - 1),
            st.booleans(),
        ),
        max_size=4,
    ),
    st.integers(0, 20),  # which match to correct/void
)


@pytest.fixture
def world():
    commissioner, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    away = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    return commissioner, league, home, away


def _report(home, away, home_score, away_score, lines) -> MatchReport:
    players = [*home.players, *away.players]
    events = {}
    for index, td, cas, injury, lasting in lines:
        player = players[index % len(players)]
        events[player.id] = PlayerEvents(
            player.id,
            td=td,
            cas=cas,
            injury="lasting_injury" if lasting and INJURIES[injury] else INJURIES[injury],
            lasting="av" if lasting and INJURIES[injury] else None,
        )
    scores = {"home": home_score, "away": away_score}
    for side, team in (("home", home), ("away", away)):
        scored = sum(e.td for e in events.values() if e.player_id in {p.id for p in team.players})
        scores[side] = max(scores[side], scored)
    return MatchReport(
        SideReport(score=scores["home"], winnings=10_000 * scores["home"]),
        SideReport(score=scores["away"], winnings=10_000 * scores["away"]),
        tuple(events.values()),
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(operations=st.lists(operation, min_size=1, max_size=6))
def test_any_sequence_keeps_caches_consistent(world, operations) -> None:
    commissioner, league, home, away = world
    for kind, home_score, away_score, lines, pick in operations:
        report = _report(home, away, home_score, away_score, lines)
        played = [m for m in db.session.query(Match).order_by(Match.id) if m.state == "played"]
        try:
            with unit_of_work() as session:
                if kind == "record" or not played:
                    matches.record_new_match(
                        session, commissioner, league.id, home.id, away.id, report
                    )
                elif kind == "correct":
                    target = played[pick % len(played)]
                    matches.record_result(session, commissioner, target.id, report)
                else:
                    matches.void_match(session, commissioner, played[pick % len(played)].id)
        except (ReportErrors, DomainError):
            pass  # refused operations must leave everything as it was
        db.session.expire_all()
        assert recompute.check_all(db.session) == []
