"""Recording, correcting and voiding results, with hand-computed numbers."""

from __future__ import annotations

import dataclasses

import pytest

from league.extensions import db
from league.models import Match, Player, Team
from league.services import leagues, matches, recompute
from league.services.errors import Conflict, Forbidden
from league.services.matches import MatchReport, PlayerEvents, ReportErrors, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user, with_touchdowns


def _player(team: Team, position_id: str, index: int = 0) -> Player:
    return [p for p in team.players if p.position_id == position_id][index]


def _record(commissioner, league, home, away, report, **kwargs) -> Match:
    """The touchdowns `report` leaves out go to each team's first player."""
    report = with_touchdowns(report, home, away)
    with unit_of_work() as session:
        return matches.record_new_match(
            session, commissioner, league.id, home.id, away.id, report, **kwargs
        )


def test_bb2025_spp_and_brawlin_brutes(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    thrower, catcher = _player(humans, "human-thrower"), _player(humans, "human-catcher")
    blitzer = _player(orcs, "orc-blitzer")
    report = MatchReport(
        home=SideReport(score=2),
        away=SideReport(score=1),
        players=(
            PlayerEvents(thrower.id, comp=2, mvp=1),  # 2x1 + 4 = 6
            PlayerEvents(catcher.id, td=2, interceptions=1),  # 2x3 + 2 = 8
            PlayerEvents(blitzer.id, td=1, cas=2),  # Brawlin' Brutes: 1x2 + 2x3 = 8
        ),
    )
    match = _record(commissioner, league, humans, orcs, report)
    assert match.state == "played"
    assert (thrower.spp_earned, catcher.spp_earned, blitzer.spp_earned) == (6, 8, 8)
    assert [line.spp for line in match.players] == [6, 8, 8]


def test_bb2020_and_classic_spp(commissioner) -> None:
    anna, bram = make_user("anna"), make_user("bram")
    for ruleset_id, hires, expected in (
        # BB2020: TD 3, CAS 2, COMP 1, INT 2, deflection 1, MVP 4
        ("bb2020", (("human-lineman", 11),), 3 + 2 + 1 + 2 + 1 + 4),
        # classic: TD 3, CAS 2, COMP 1, INT 2, no deflections, MVP 5
        ("classic", (("lineman", 11),), 3 + 2 + 1 + 2 + 0 + 5),
    ):
        league = make_league(commissioner, ruleset_id, anna, bram)
        home = make_active_team(anna, league, "human", f"{ruleset_id} A", hires)
        away = make_active_team(bram, league, "human", f"{ruleset_id} B", hires)
        star = home.players[0]
        report = MatchReport(
            home=SideReport(score=1),
            away=SideReport(score=0),
            players=(
                PlayerEvents(star.id, td=1, cas=1, comp=1, interceptions=1, deflection=1, mvp=1),
            ),
        )
        _record(commissioner, league, home, away, report)
        assert star.spp_earned == expected, ruleset_id


# One full match report, entered the same way in every ruleset. Home wins 2-1.
# Columns: side, position, then the events: td, cas, comp, int, deflection, mvp.
FULL_REPORT = (
    ("home", "thrower", 0, 0, 2, 0, 0, 0),
    ("home", "catcher", 2, 0, 0, 0, 0, 0),
    ("home", "blitzer", 0, 1, 0, 0, 2, 1),
    ("home", "lineman", 0, 0, 0, 1, 0, 0),
    ("away", "thrower", 0, 0, 1, 0, 1, 0),
    ("away", "catcher", 1, 0, 0, 1, 0, 0),
    ("away", "blitzer", 0, 1, 0, 1, 0, 0),
    ("away", "lineman", 0, 2, 0, 0, 0, 1),
)


#: classic [spp]: TD 3, CAS 2, COMP 1, INT 2, deflection 0, MVP 5 (RULES-FACTS 4, LRB6).
CLASSIC_FULL_REPORT_SPP = (
    2,  # home thrower:  2 comp x1
    6,  # home catcher:  2 td x3
    7,  # home blitzer:  1 cas x2 + 2 deflections x0 + MVP 5
    2,  # home lineman:  1 int x2
    1,  # away thrower:  1 comp x1 + 1 deflection x0
    5,  # away catcher:  1 td x3 + 1 int x2
    4,  # away blitzer:  1 cas x2 + 1 int x2
    9,  # away lineman:  2 cas x2 + MVP 5
)


@pytest.mark.parametrize(
    ("ruleset_id", "lineman", "expected"),
    [
        # BB2020 [spp]: TD 3, CAS 2, COMP 1, INT 2, deflection 1, MVP 4 (RULES-FACTS 4).
        (
            "bb2020",
            "human-lineman",
            (
                2,  # home thrower:  2 comp x1
                6,  # home catcher:  2 td x3
                8,  # home blitzer:  1 cas x2 + 2 deflections x1 + MVP 4
                2,  # home lineman:  1 int x2
                2,  # away thrower:  1 comp x1 + 1 deflection x1
                5,  # away catcher:  1 td x3 + 1 int x2
                4,  # away blitzer:  1 cas x2 + 1 int x2
                8,  # away lineman:  2 cas x2 + MVP 4
            ),
        ),
        ("classic", "lineman", CLASSIC_FULL_REPORT_SPP),
        # classic-spend [spp]: the classic awards (only how SPP are used differs).
        ("classic-spend", "lineman", CLASSIC_FULL_REPORT_SPP),
    ],
)
def test_full_report_spp_in_each_ruleset(commissioner, ruleset_id, lineman, expected) -> None:
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, ruleset_id, anna, bram)
    hires = ((lineman, 7), ("thrower", 2), ("catcher", 2), ("blitzer", 2))
    teams = {
        "home": make_active_team(anna, league, "human", "Reavers", hires),
        "away": make_active_team(bram, league, "human", "Marauders", hires),
    }
    positions = {"thrower": "thrower", "catcher": "catcher", "blitzer": "blitzer"}
    positions["lineman"] = lineman
    players, events = [], []
    for side, position, td, cas, comp, ints, deflection, mvp in FULL_REPORT:
        player = _player(teams[side], positions[position])
        players.append(player)
        events.append(
            PlayerEvents(
                player.id,
                td=td,
                cas=cas,
                comp=comp,
                interceptions=ints,
                deflection=deflection,
                mvp=mvp,
            )
        )
    report = MatchReport(home=SideReport(score=2), away=SideReport(score=1), players=tuple(events))
    match = _record(commissioner, league, teams["home"], teams["away"], report)
    assert match.state == "played"
    assert tuple(player.spp_earned for player in players) == expected
    spp_by_player = {line.player_id: line.spp for line in match.players}
    assert tuple(spp_by_player[player.id] for player in players) == expected


@pytest.mark.parametrize(
    ("injury", "lasting", "status", "niggling", "reduction"),
    [
        ("badly_hurt", None, "active", 0, None),
        ("seriously_hurt", None, "mng", 0, None),
        ("serious_injury", None, "mng", 1, None),
        ("lasting_injury", "av", "mng", 0, "av"),
        ("lasting_injury", "ma", "mng", 0, "ma"),
        ("dead", None, "dead", 0, None),
    ],
)
def test_each_casualty_outcome(
    commissioner, league_2025, injury, lasting, status, niggling, reduction
) -> None:
    league, humans, orcs = league_2025
    victim = _player(humans, "human-lineman")
    report = MatchReport(
        home=SideReport(score=0),
        away=SideReport(score=0),
        players=(PlayerEvents(victim.id, injury=injury, lasting=lasting),),
    )
    _record(commissioner, league, humans, orcs, report)
    assert victim.status == status
    assert victim.niggling_injuries == niggling
    for characteristic in ("ma", "st", "ag", "pa", "av"):
        assert victim.reduction(characteristic) == (1 if characteristic == reduction else 0)


def test_mng_is_cleared_after_exactly_one_match(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    victim = _player(humans, "human-lineman")
    hurt = MatchReport(
        home=SideReport(),
        away=SideReport(),
        players=(PlayerEvents(victim.id, injury="seriously_hurt"),),
    )
    _record(commissioner, league, humans, orcs, hurt)
    assert victim.status == "mng"
    with pytest.raises(ReportErrors):  # he may not play the match he misses
        _record(
            commissioner,
            league,
            humans,
            orcs,
            MatchReport(SideReport(), SideReport(), (PlayerEvents(victim.id),)),
        )
    _record(commissioner, league, humans, orcs, MatchReport(SideReport(), SideReport()))
    assert victim.status == "active"


def test_a_dead_player_cannot_play_again(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    victim = _player(orcs, "orc-lineman")
    _record(
        commissioner,
        league,
        humans,
        orcs,
        MatchReport(SideReport(), SideReport(), (PlayerEvents(victim.id, injury="dead"),)),
    )
    assert victim.status == "dead"
    assert victim not in [p for p in orcs.players if p.on_roster]
    with pytest.raises(ReportErrors, match="cannot play"):
        _record(
            commissioner,
            league,
            humans,
            orcs,
            MatchReport(SideReport(), SideReport(), (PlayerEvents(victim.id, td=1),)),
        )


def test_winnings_and_dedicated_fans(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    # The drafts, at the bb2025 roster prices, from 1,000,000 each: Reavers 7 linemen at
    # 50,000, 2 catchers and 2 throwers at 75,000, 2 blitzers at 85,000 (820,000 spent);
    # Gouged Eye 7 linemen at 50,000, 2 throwers at 75,000, 2 blitzers at 85,000 (670,000).
    assert (humans.treasury, orcs.treasury) == (180_000, 330_000)
    report = MatchReport(
        # The Expensive Mistakes dice entered, so nothing is left to an unseeded die.
        home=SideReport(score=2, fans_change=1, mistake_d6=1, mistake_dice=2),
        away=SideReport(score=1, fans_change=0, stalled=True, mistake_d6=1),
        fan_attendance=9,
    )
    match = _record(commissioner, league, humans, orcs, report)
    # BB2025 (RULES-FACTS 6b): (attendance / 2 + own TDs + 1 unless a player stalled)
    # x 10,000, the half kept: 9 / 2 = 4.5 units.
    assert match.home.winnings == 75_000  # 4.5 + 2 + 1
    assert match.away.winnings == 55_000  # 4.5 + 1, stalled
    # Expensive Mistakes (RULES-FACTS 6b, the D6 row x treasury column table), on the
    # treasury the winnings arrive in. Reavers: 180,000 + 75,000 = 255,000, column
    # 200-295k, D6 1: a Minor Incident, D3 (2) x 10,000 lost.
    assert (match.home.mistake, match.home.mistake_loss) == ("minor", 20_000)
    # Gouged Eye: 330,000 + 55,000 = 385,000, column 300-395k, D6 1: a Major Incident,
    # half the treasury (192,500) rounded down to 5,000.
    assert (match.away.mistake, match.away.mistake_loss) == ("major", 190_000)
    assert humans.treasury == 180_000 + 75_000 - 20_000
    assert orcs.treasury == 330_000 + 55_000 - 190_000
    assert humans.dedicated_fans == 2
    assert orcs.dedicated_fans == 1


def test_bad_reports_change_nothing(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    catcher = _player(humans, "human-catcher")
    stranger = make_user("stranger")
    bad = MatchReport(
        home=SideReport(score=1, fans_change=-1),
        away=SideReport(score=0),
        players=(PlayerEvents(catcher.id, td=2, mvp=2),),
    )
    with pytest.raises(ReportErrors) as caught:
        _record(commissioner, league, humans, orcs, bad)
    errors = caught.value.fields
    assert "scored 2 touchdowns but the score says 1" in errors["home_score"][0]
    assert "2 MVPs" in errors["home_mvp"][0]
    assert "only fall after a loss" in errors["home_fans_change"][0]
    assert db.session.query(Match).count() == 0
    assert catcher.spp_earned == 0
    with pytest.raises(Forbidden):
        _record(stranger, league, humans, orcs, MatchReport(SideReport(), SideReport()))


def test_a_score_the_touchdowns_do_not_make_is_refused(commissioner, league_2025) -> None:
    """Every touchdown is some player's: 5-0 with one touchdown entered is refused on the
    score, and nothing is recorded (the winnings would otherwise pay for 5)."""
    league, humans, orcs = league_2025
    catcher = _player(humans, "human-catcher")
    blitzer = _player(orcs, "orc-blitzer")
    report = MatchReport(
        home=SideReport(score=5),
        away=SideReport(score=0),
        players=(PlayerEvents(catcher.id, td=1), PlayerEvents(blitzer.id, td=1)),
    )
    with pytest.raises(ReportErrors) as caught, unit_of_work() as session:
        matches.record_new_match(session, commissioner, league.id, humans.id, orcs.id, report)
    assert caught.value.fields == {
        "home_score": ["The players of Reavers scored 1 touchdown but the score says 5."],
        "away_score": ["The players of Gouged Eye scored 1 touchdown but the score says 0."],
    }
    db.session.expire_all()
    assert db.session.query(Match).count() == 0
    assert (catcher.spp_earned, blitzer.spp_earned) == (0, 0)


def test_resubmitting_the_same_form_records_once(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    catcher = _player(humans, "human-catcher")
    report = MatchReport(SideReport(score=1), SideReport(), (PlayerEvents(catcher.id, td=1),))
    first = _record(commissioner, league, humans, orcs, report, idempotency_key="abc")
    second = _record(commissioner, league, humans, orcs, report, idempotency_key="abc")
    assert first.id == second.id
    assert db.session.query(Match).count() == 1
    assert catcher.spp_earned == 3


def test_correcting_and_voiding_recompute_everything(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    catcher, victim = _player(humans, "human-catcher"), _player(orcs, "orc-lineman")
    report = MatchReport(
        # D6 6 on Expensive Mistakes: crisis averted below 600,000 in the treasury.
        home=SideReport(score=1, winnings=50_000, mistake_d6=6),
        away=SideReport(score=0, winnings=30_000, mistake_d6=6),
        players=(PlayerEvents(catcher.id, td=1), PlayerEvents(victim.id, injury="dead")),
    )
    humans_before = humans.treasury
    match = _record(commissioner, league, humans, orcs, report)
    assert (catcher.spp_earned, victim.status) == (3, "dead")
    corrected = MatchReport(
        home=SideReport(score=2, winnings=60_000),
        away=SideReport(score=0, winnings=30_000),
        players=(PlayerEvents(catcher.id, td=2), PlayerEvents(victim.id, injury="badly_hurt")),
    )
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match.id, corrected)
    assert (catcher.spp_earned, victim.status) == (6, "active")
    assert humans.treasury == humans_before + 60_000
    with unit_of_work() as session:
        matches.void_match(session, commissioner, match.id)
    assert match.state == "voided"
    assert (catcher.spp_earned, victim.status) == (0, "active")
    assert humans.treasury == humans_before
    assert recompute.check_all(db.session) == []


def test_refused_when_spent_spp_would_be_taken_back(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    catcher = _player(humans, "human-catcher")
    match = _record(
        commissioner,
        league,
        humans,
        orcs,
        MatchReport(SideReport(score=2), SideReport(), (PlayerEvents(catcher.id, td=2),)),
    )
    catcher.spp_spent = 6  # as if he had bought an advancement with them
    db.session.commit()
    with pytest.raises(Conflict, match="already spent 6 SPP"), unit_of_work() as session:
        matches.void_match(session, commissioner, match.id)
    db.session.expire_all()
    assert db.session.get(Match, match.id).state == "played"
    assert db.session.get(Player, catcher.id).spp_earned == 6


def test_expensive_mistakes_use_the_entered_dice(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    before = humans.treasury  # 180,000 after the draft
    report = MatchReport(
        # 180,000 + 70,000 = 250,000: the 200-295k column; D6 1 there is a Minor Incident,
        # which loses D3 x 10,000 (D3 = 2).
        home=SideReport(score=1, winnings=70_000, mistake_d6=1, mistake_dice=2),
        away=SideReport(score=0, winnings=0),
    )
    match = _record(commissioner, league, humans, orcs, report)
    assert before == 180_000
    assert (match.home.mistake, match.home.mistake_loss) == ("minor", 20_000)
    assert humans.treasury == before + 70_000 - 20_000
    assert [e.kind for e in humans.ledger if e.match_id == match.id] == ["winnings", "mistake"]


def test_classic_lasting_injury_names_its_characteristic(commissioner) -> None:
    anna, bram = make_user("anna"), make_user("bram")
    league = make_league(commissioner, "classic", anna, bram)
    home = make_active_team(anna, league, "human", "Alpha", (("lineman", 11),))
    away = make_active_team(bram, league, "human", "Beta", (("lineman", 11),))
    victim = home.players[0]
    # D68 55-56 (Serious Concussion / Fractured Skull): -1 AV.
    _record(
        commissioner,
        league,
        home,
        away,
        MatchReport(
            SideReport(),
            SideReport(),
            (PlayerEvents(victim.id, injury="lasting_injury", lasting="av"),),
        ),
    )
    assert (victim.av_reduction, victim.ma_reduction, victim.status) == (1, 0, "mng")
    with pytest.raises(ReportErrors, match="which characteristic"):
        _record(
            commissioner,
            league,
            home,
            away,
            MatchReport(
                SideReport(),
                SideReport(),
                (PlayerEvents(home.players[1].id, injury="lasting_injury", lasting="pa"),),
            ),
        )


def test_changed_spp_awards_apply_to_every_played_match_at_once(commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    catcher = _player(humans, "human-catcher")
    report = MatchReport(
        home=SideReport(score=2),
        away=SideReport(score=0),
        players=(PlayerEvents(catcher.id, td=2),),
    )
    _record(commissioner, league, humans, orcs, report)
    assert db.session.get(Player, catcher.id).spp_earned == 6  # BB2025: 3 SPP per touchdown
    with unit_of_work() as session:
        settings = leagues.current_settings(league)
        changed = dataclasses.replace(settings, house_rules={"spp_awards": {"td": 2}})
        leagues.update_settings(session, commissioner, league.id, changed)
    db.session.expire_all()
    assert db.session.get(Player, catcher.id).spp_earned == 4  # 2 touchdowns x 2 SPP
    assert recompute.check_all(db.session) == []
