"""After the pre-game: the ledger books the treasury spent, match-day players play, and
journeymen are hired (league.services.postgame, league.services.matches), BB2025.

The conftest's teams: Humans CTV 820,000 (treasury 180,000), Orcs CTV 670,000 (treasury
330,000): a CTV gap of 150,000, the same gap as the issue's worked example (1,150,000
against 1,000,000).
"""

from __future__ import annotations

import pytest
from sqlalchemy import delete, select

from league.extensions import db
from league.models import Advancement, League, Match, Player, Team, TreasuryEntry, User
from league.services import matches, postgame, recompute, teams
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.pregame import SideChoices, record_side
from league.services.unit_of_work import unit_of_work
from tests.factories import with_match_touchdowns

# 2 x Extra Team Training + Blitzer's Best Kegs + Weather Mage + Prayers to Nuffle
# + Temp Agency Cheerleaders = 200,000 + 50,000 + 25,000 + 10,000 + 5,000 = 290,000.
LOWER_ORDER = {
    "extra-team-training": 2,
    "blitzers-best-kegs": 1,
    "weather-mage": 1,
    "prayers-to-nuffle": 1,
    "temp-agency-cheerleaders": 1,
}


def _coach(team: Team) -> User:
    user = db.session.get(User, team.coach_id)
    assert user is not None
    return user


def _fixture(commissioner: User, league: League, home: Team, away: Team) -> Match:
    with unit_of_work() as session:
        return matches.schedule_match(session, commissioner, league.id, home.id, away.id)


def _pregame(actor: User, match: Match, side: str, choices: SideChoices) -> None:
    with unit_of_work() as session:
        record_side(session, actor, match.id, side, choices)


def _side(score: int, winnings: int, *, conceded: bool = False) -> SideReport:
    # Expensive Mistakes (BB2025 table): a D6 of 6 averts the crisis below 600,000.
    return SideReport(score=score, winnings=winnings, mistake_d6=6, conceded=conceded)


def _result(actor: User, match: Match, report: MatchReport) -> None:
    """The touchdowns `report` leaves out go to each team's first player."""
    report = with_match_touchdowns(report, match.id)
    with unit_of_work() as session:
        matches.record_result(session, actor, match.id, report)


def _treasury(team: Team) -> int:
    db.session.expire_all()
    found = db.session.get(Team, team.id)
    assert found is not None
    return found.treasury


def _ledger(team: Team, match: Match) -> list[tuple[str, int]]:
    return [
        (entry.kind, entry.amount)
        for entry in db.session.scalars(
            select(TreasuryEntry)
            .where(TreasuryEntry.team_id == team.id, TreasuryEntry.match_id == match.id)
            .order_by(TreasuryEntry.id)
        )
    ]


def _bb2025_worked_example(commissioner: User, league_2025) -> tuple[Match, Team, Team]:
    league, humans, orcs = league_2025
    match = _fixture(commissioner, league, humans, orcs)
    # The higher team (Humans) spends 100,000 of treasury on a Bribe.
    _pregame(_coach(humans), match, "home", SideChoices(inducements={"bribes": 1}))
    # BB2025 petty cash: the gap 150,000 plus the 100,000 the higher team spent = 250,000;
    # the lower team may add up to 50,000 of treasury and buys 290,000.
    _pregame(_coach(orcs), match, "away", SideChoices(inducements=LOWER_ORDER))
    return match, humans, orcs


def test_finalising_books_only_what_petty_cash_did_not_cover(
    commissioner: User, league_2025
) -> None:
    match, humans, orcs = _bb2025_worked_example(commissioner, league_2025)
    assert (_treasury(humans), _treasury(orcs)) == (180_000, 330_000)  # nothing booked yet
    _result(commissioner, match, MatchReport(home=_side(1, 50_000), away=_side(0, 30_000)))
    # Humans: 180,000 - 100,000 (the Bribe, all from treasury) + 50,000 winnings.
    assert _ledger(humans, match) == [("inducements", -100_000), ("winnings", 50_000)]
    assert _treasury(humans) == 130_000
    # Orcs: 290,000 bought, 250,000 of it petty cash: the treasury pays 40,000 (the other
    # 10,000 it could have added stays); petty cash is never booked, none is left over.
    assert _ledger(orcs, match) == [("inducements", -40_000), ("winnings", 30_000)]
    assert _treasury(orcs) == 330_000 - 40_000 + 30_000
    assert recompute.check_all(db.session) == []


def test_correction_rebooks_and_void_gives_the_gold_back(commissioner: User, league_2025) -> None:
    match, humans, orcs = _bb2025_worked_example(commissioner, league_2025)
    _result(commissioner, match, MatchReport(home=_side(1, 50_000), away=_side(0, 30_000)))
    # Corrected: a draw, the Orcs' winnings 40,000. The inducements stay booked; only
    # the difference moves (a correction row of +10,000).
    _result(commissioner, match, MatchReport(home=_side(1, 50_000), away=_side(1, 40_000)))
    assert _ledger(orcs, match) == [
        ("inducements", -40_000),
        ("winnings", 30_000),
        ("correction", 10_000),
    ]
    assert _treasury(orcs) == 330_000 - 40_000 + 40_000
    assert _treasury(humans) == 130_000
    # Voided: everything the match moved comes back, the treasury spent on inducements too.
    with unit_of_work() as session:
        matches.void_match(session, commissioner, match.id)
    assert _treasury(humans) == 180_000
    assert _treasury(orcs) == 330_000
    assert sum(amount for _, amount in _ledger(humans, match)) == 0
    assert _ledger(humans, match)[-1] == ("correction", 100_000 - 50_000)
    assert recompute.check_all(db.session) == []


def test_check_reports_a_ledger_without_the_booking(commissioner: User, league_2025) -> None:
    match, _humans, orcs = _bb2025_worked_example(commissioner, league_2025)
    _result(commissioner, match, MatchReport(home=_side(1, 50_000), away=_side(0, 30_000)))
    db.session.execute(
        delete(TreasuryEntry).where(
            TreasuryEntry.team_id == orcs.id, TreasuryEntry.kind == "inducements"
        )
    )
    db.session.commit()
    found = {str(d) for d in recompute.check_all(db.session)}
    # The ledger holds +30,000 for the match; winnings less the 40,000 spent is -10,000.
    assert f"Gouged Eye ledger for match #{match.id}: stored 30000, events say -10000" in found


def test_star_player_scores_but_earns_nothing(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    match = _fixture(commissioner, league, humans, orcs)
    _pregame(_coach(humans), match, "home", SideChoices())
    # Akhorne the Squirrel (80,000) plays for the Orcs: from the 150,000 of petty cash.
    _pregame(_coach(orcs), match, "away", SideChoices(stars=("akhorne-the-squirrel",)))
    with unit_of_work() as session:
        (star,) = postgame.match_day_players(session, session.get(Match, match.id), orcs)
    assert (star.status, star.position_id, star.name, star.cost) == (
        "star",
        "akhorne-the-squirrel",
        "Akhorne the Squirrel",
        80_000,
    )
    assert not star.on_roster
    # A star cannot be MVP (every edition): the report is refused and nothing is stored.
    with pytest.raises(RuleViolation) as refused:
        _result(
            commissioner,
            match,
            MatchReport(
                home=_side(0, 0),
                away=_side(1, 0),
                players=(PlayerEvents(star.id, td=1, mvp=1),),
            ),
        )
    assert [(p.path, p.message) for p in refused.value.problems] == [
        (f"player_{star.id}", "Akhorne the Squirrel is a star player: no MVP.")
    ]
    _result(
        commissioner,
        match,
        MatchReport(
            home=_side(0, 0),
            away=_side(1, 0),
            players=(PlayerEvents(star.id, td=1, cas=1, injury="seriously_hurt"),),
        ),
    )
    db.session.expire_all()
    star = db.session.get(Player, star.id)
    assert star is not None
    # BB2025 Brawlin' Brutes (Orcs): 2 SPP a touchdown, 3 a casualty; a star keeps none.
    assert star.spp_earned == 0
    # His injury is not carried: he stays a star, off the roster.
    assert star.status == "star"
    # The touchdown and casualty count for the team: 1-0 and one casualty caused.
    appearance = db.session.scalar(
        select(matches.MatchPlayer).where(matches.MatchPlayer.player_id == star.id)
    )
    assert appearance is not None
    assert (appearance.td, appearance.cas, appearance.team_id) == (1, 1, orcs.id)
    # Petty cash paid him: nothing booked from the treasury.
    assert _ledger(orcs, match) == []
    assert recompute.check_all(db.session) == []


def _fire_one_lineman(team: Team) -> None:
    lineman = db.session.scalars(
        select(Player)
        .where(
            Player.team_id == team.id,
            Player.position_id == "orc-lineman",
            Player.status == "active",
        )
        .order_by(Player.id)
    ).first()
    assert lineman is not None
    lineman.status = "fired"
    db.session.commit()


def test_journeyman_scores_twice_is_mvp_and_is_hired(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    _fire_one_lineman(orcs)  # 10 Orcs left: one journeyman (BB2025: up to 11)
    match = _fixture(commissioner, league, humans, orcs)
    _pregame(_coach(humans), match, "home", SideChoices())
    _pregame(_coach(orcs), match, "away", SideChoices())
    with unit_of_work() as session:
        (journeyman,) = postgame.match_day_players(session, session.get(Match, match.id), orcs)
    # An Orc Lineman (the only 0-16 Lineman position), valued at the fee, 50,000.
    assert (journeyman.status, journeyman.position_id, journeyman.cost) == (
        "journeyman",
        "orc-lineman",
        50_000,
    )
    roster_numbers = {
        p.number
        for p in db.session.scalars(select(Player).where(Player.team_id == orcs.id))
        if p.on_roster
    }
    assert journeyman.number not in roster_numbers
    # Hiring waits for the result.
    with pytest.raises(Conflict) as early, unit_of_work() as session:
        postgame.hire_journeyman(session, _coach(orcs), match.id, journeyman.id)
    assert "after the result is final" in str(early.value)
    _result(
        commissioner,
        match,
        MatchReport(
            home=_side(0, 0),
            away=_side(2, 0),
            players=(PlayerEvents(journeyman.id, td=2, mvp=1),),
        ),
    )
    db.session.expire_all()
    journeyman = db.session.get(Player, journeyman.id)
    assert journeyman is not None
    # BB2025 SPP for a Brawlin' Brutes team (Orcs): 2 a touchdown, 4 for the MVP:
    # 2 x 2 + 4 = 8.
    assert (journeyman.spp_earned, journeyman.status) == (8, "journeyman")
    # The other coach may not hire him.
    with pytest.raises(Forbidden), unit_of_work() as session:
        postgame.hire_journeyman(session, _coach(humans), match.id, journeyman.id)
    with unit_of_work() as session:
        postgame.hire_journeyman(session, _coach(orcs), match.id, journeyman.id)
    db.session.expire_all()
    hired = db.session.get(Player, journeyman.id)
    assert hired is not None
    # BB2025: the hiring fee plus value increases (none): 50,000; he keeps his 8 SPP and
    # joins the roster without the journeyman's Loner.
    assert (hired.status, hired.spp_earned, hired.on_roster) == ("active", 8, True)
    assert _treasury(orcs) == 330_000 - 50_000
    entry = db.session.scalars(
        select(TreasuryEntry)
        .where(TreasuryEntry.team_id == orcs.id)
        .order_by(TreasuryEntry.id.desc())
    ).first()
    assert entry is not None
    assert (entry.kind, entry.amount) == ("hire", -50_000)
    # Hired once: not again.
    with pytest.raises(RuleViolation) as again, unit_of_work() as session:
        postgame.hire_journeyman(session, _coach(orcs), match.id, journeyman.id)
    assert again.value.code == "not_a_journeyman"
    assert recompute.check_all(db.session) == []


def test_unhired_journeyman_leaves_and_cannot_play_again(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    _fire_one_lineman(orcs)
    first = _fixture(commissioner, league, humans, orcs)
    _pregame(_coach(humans), first, "home", SideChoices())
    _pregame(_coach(orcs), first, "away", SideChoices())
    with unit_of_work() as session:
        (journeyman,) = postgame.match_day_players(session, session.get(Match, first.id), orcs)
    _result(
        commissioner,
        first,
        MatchReport(
            home=_side(0, 0), away=_side(1, 0), players=(PlayerEvents(journeyman.id, td=1),)
        ),
    )
    second = _fixture(commissioner, league, humans, orcs)
    # Not hired, he is off the books: the next match needs a journeyman again.
    _pregame(_coach(humans), second, "home", SideChoices())
    _pregame(_coach(orcs), second, "away", SideChoices())
    with unit_of_work() as session:
        (fresh,) = postgame.match_day_players(session, session.get(Match, second.id), orcs)
    assert fresh.id != journeyman.id
    with pytest.raises(RuleViolation) as refused:
        _result(
            commissioner,
            second,
            MatchReport(
                home=_side(0, 0), away=_side(1, 0), players=(PlayerEvents(journeyman.id, td=1),)
            ),
        )
    assert [(p.path, p.message) for p in refused.value.problems] == [
        (f"player_{journeyman.id}", f"{journeyman.name} was taken on for match #{first.id} only.")
    ]
    _result(commissioner, second, MatchReport(home=_side(0, 0), away=_side(0, 0)))
    # Once the team has played again, the first match's journeyman is gone for good.
    with pytest.raises(RuleViolation) as gone, unit_of_work() as session:
        postgame.hire_journeyman(session, _coach(orcs), first.id, journeyman.id)
    assert gone.value.code == "journeyman_gone"


def test_bb2020_hire_needs_room_under_sixteen(commissioner: User) -> None:
    from tests.factories import (
        hire,
        make_active_team,
        make_league,
        make_user,
    )

    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "bb2020", anna, bram)
    humans = make_active_team(anna, league, "human", "Reavers", (("human-lineman", 11),))
    orcs = make_active_team(bram, league, "orc", "Gouged Eye", (("orc-lineman", 11),))
    _fire_one_lineman(orcs)  # 10 left: one journeyman; both CTVs 550,000
    match = _fixture(commissioner, league, humans, orcs)
    _pregame(anna, match, "home", SideChoices())
    _pregame(bram, match, "away", SideChoices())
    with unit_of_work() as session:
        (journeyman,) = postgame.match_day_players(session, session.get(Match, match.id), orcs)
    _result(commissioner, match, MatchReport(home=_side(0, 0), away=_side(0, 0)))
    # Six more linemen: 16 on the roster, no room (BB2020: hired only with room under 16).
    hire(bram, orcs, "orc-lineman", 6)
    with pytest.raises(RuleViolation) as full, unit_of_work() as session:
        postgame.hire_journeyman(session, bram, match.id, journeyman.id)
    assert full.value.code == "roster_full"
    assert full.value.message == "Gouged Eye already has 16 players, the most a team may have."
    # 1,000,000 - 11 linemen drafted - 6 hired at 50,000 each: nothing spent on him.
    assert _treasury(orcs) == 1_000_000 - 11 * 50_000 - 6 * 50_000
    _fire_one_lineman(orcs)  # 15 on the roster: room for him
    with unit_of_work() as session:
        postgame.hire_journeyman(session, bram, match.id, journeyman.id)
    # BB2020: his current value, the 50,000 fee with no advancement.
    assert _treasury(orcs) == 150_000 - 50_000


# ---------------------------------------------------------------------------
# BB2025: the MVP drawn among nominees, a conceding team's departures


def _team_players(team: Team) -> list[Player]:
    return list(
        db.session.scalars(select(Player).where(Player.team_id == team.id).order_by(Player.id))
    )


def test_the_mvp_is_drawn_among_six_nominees(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    match = _fixture(commissioner, league, humans, orcs)
    _result(commissioner, match, MatchReport(home=_side(1, 0), away=_side(0, 0)))
    nominees = [p.id for p in _team_players(humans)[:6]]
    anna = _coach(humans)
    # BB2025: six nominees (RULES-FACTS 4), whatever the size of the roster.
    with pytest.raises(RuleViolation) as five, unit_of_work() as session:
        postgame.draw_mvp(session, anna, match.id, humans.id, nominees[:5])
    assert five.value.message == "Nominate 6 players for MVP (5 nominated)."
    # This league's server rolls the dice: a table die is refused.
    with pytest.raises(RuleViolation) as table, unit_of_work() as session:
        postgame.draw_mvp(session, anna, match.id, humans.id, nominees, die=4)
    assert table.value.code == "server_dice"
    db.session.get(League, league.id).table_dice_allowed = True  # type: ignore[union-attr]
    db.session.commit()
    with pytest.raises(Forbidden), unit_of_work() as session:
        postgame.draw_mvp(session, _coach(orcs), match.id, humans.id, nominees, die=4)
    with unit_of_work() as session:
        drawn_here = postgame.draw_mvp(session, anna, match.id, humans.id, nominees, die=4)
        winner_id = drawn_here.player.id
        assert (drawn_here.die, drawn_here.rolled) == (4, False)
    # The D6 shows 4: the fourth nominee; BB2025 gives the MVP 4 SPP.
    assert winner_id == nominees[3]
    db.session.expire_all()
    assert db.session.get(Player, winner_id).spp_earned == 4  # type: ignore[union-attr]
    with pytest.raises(Conflict), unit_of_work() as session:
        postgame.draw_mvp(session, anna, match.id, humans.id, nominees, die=1)
    # A correction of the score keeps the drawn MVP and his 4 SPP.
    _result(commissioner, match, MatchReport(home=_side(2, 0), away=_side(0, 0)))
    db.session.expire_all()
    assert db.session.get(Player, winner_id).spp_earned == 4  # type: ignore[union-attr]
    # The Orcs' coach lets the server roll.
    orc_nominees = [p.id for p in _team_players(orcs)[:6]]
    with unit_of_work() as session:
        drawn = postgame.draw_mvp(session, _coach(orcs), match.id, orcs.id, orc_nominees).player.id
    side = db.session.scalar(
        select(matches.MatchTeam).where(
            matches.MatchTeam.match_id == match.id, matches.MatchTeam.team_id == orcs.id
        )
    )
    assert side is not None
    assert side.mvp_draw is not None
    assert side.mvp_draw["rolled"] is True
    assert drawn == orc_nominees[side.mvp_draw["die"] - 1]
    assert recompute.check_all(db.session) == []


def _advance(player: Player, times: int) -> None:
    for number in range(1, times + 1):
        db.session.add(
            Advancement(
                player_id=player.id,
                number=number,
                kind="chosen_primary",
                spp_cost=0,
                skill=f"Skill {number}",
                value_increase=0,
            )
        )
    db.session.commit()


def test_a_conceding_teams_veterans_roll_to_leave(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    db.session.get(League, league.id).table_dice_allowed = True  # type: ignore[union-attr]
    veteran, old_hand, rookie = _team_players(orcs)[:3]
    _advance(veteran, 3)
    _advance(old_hand, 4)
    _advance(rookie, 2)
    match = _fixture(commissioner, league, humans, orcs)
    _result(commissioner, match, MatchReport(home=_side(2, 0), away=_side(0, 0, conceded=True)))
    bram = _coach(orcs)
    # Only the two with three or more advancements roll (RULES-FACTS 6, BB2025).
    with pytest.raises(RuleViolation) as missing, unit_of_work() as session:
        postgame.concession_departures(session, bram, match.id, {veteran.id: 2})
    assert missing.value.message == (
        "Enter one D6 (1 to 6) for each of the 2 players who roll to leave."
    )
    with unit_of_work() as session:
        rolled = postgame.concession_departures(
            session, bram, match.id, {veteran.id: 3, old_hand.id: 4}
        )
        outcome = [(d.player.id, d.die, d.left) for d in rolled]
    # They leave on 1-3: the veteran's 3 sends him away, the old hand's 4 keeps him.
    assert outcome == [(veteran.id, 3, True), (old_hand.id, 4, False)]
    db.session.expire_all()
    statuses = {p.id: p.status for p in _team_players(orcs)}
    assert (statuses[veteran.id], statuses[old_hand.id], statuses[rookie.id]) == (
        "retired",
        "active",
        "active",
    )
    with pytest.raises(Conflict), unit_of_work() as session:
        postgame.concession_departures(session, bram, match.id)
    # Voided, the concession sent nobody away: the veteran is back on the roster.
    with unit_of_work() as session:
        matches.void_match(session, commissioner, match.id)
    db.session.expire_all()
    assert db.session.get(Player, veteran.id).status == "active"  # type: ignore[union-attr]


def test_no_mvp_is_drawn_for_a_team_with_nobody_to_nominate(
    commissioner: User, league_2025, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team that played without a player on its roster (a result with no player lines)
    has nobody to nominate: refused, instead of rolling for a nominee for ever."""
    league, humans, _orcs = league_2025
    anna = _coach(humans)
    with unit_of_work() as session:
        empty = teams.create_team(
            session, anna, teams.NewTeam(league.id, "Nobody Home", "human", active=True)
        )
    match = _fixture(commissioner, league, humans, empty)
    _result(commissioner, match, MatchReport(home=_side(1, 0), away=_side(0, 0)))

    def no_roll(low: int, high: int) -> int:
        raise AssertionError("a die was rolled with no nominee to name")

    monkeypatch.setattr(postgame.random, "randint", no_roll)
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        postgame.draw_mvp(session, anna, match.id, empty.id, [])
    assert refused.value.code == "mvp_no_nominees"
    assert refused.value.message == "Nobody Home has no player who could be this match's MVP."
    side = db.session.scalar(
        select(matches.MatchTeam).where(
            matches.MatchTeam.match_id == match.id, matches.MatchTeam.team_id == empty.id
        )
    )
    assert side is not None
    assert side.mvp_draw is None
