"""A change of house rules and a result recorded at the same time (PostgreSQL).

The result reads the league's rules under a share lock and the settings change takes the
league's row for update, so the result uses the rules that are committed when it gets
the lock: here the new ones, and its lines agree with `recompute --check`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.orm import Session

from league.extensions import db
from league.models import Player
from league.services import access, leagues, matches, recompute
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from tests.conftest import ON_POSTGRES
from tests.factories import make_active_team, make_league, make_user

pytestmark = pytest.mark.skipif(
    not ON_POSTGRES, reason="two connections at once: the PostgreSQL pass (SQLite shares one)"
)


def test_a_result_whose_league_was_read_before_a_rules_change_uses_the_new_rules() -> None:
    commissioner, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2025", anna, bram)
    home = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    away = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    scorer = home.players[0].id
    with unit_of_work() as session:
        match = matches.schedule_match(session, commissioner, league.id, home.id, away.id)
    # The result's own session has read the league (and holds it) before the new rules commit;
    # closed whatever happens, or its locks would hold up the test's clean-up.
    with Session(db.engine) as result_session:
        read_early = access.get_league(result_session, league.id, collections=False)
        with unit_of_work() as session:
            current = leagues.current_settings(access.get_league(session, league.id))
            new_rules = replace(current, house_rules={"spp_awards": {"td": 5}})
            leagues.update_settings(session, commissioner, league.id, new_rules)
        report = MatchReport(
            SideReport(score=1), SideReport(score=0), (PlayerEvents(scorer, td=1),)
        )
        matches.record_result(result_session, commissioner, match.id, report)
        assert read_early.house_rules == {"spp_awards": {"td": 5}}  # read again under the lock
        result_session.commit()
    db.session.expire_all()
    assert db.session.get(Player, scorer).spp_earned == 5  # the house rule: 5 SPP a touchdown
    assert recompute.check_all(db.session) == []
