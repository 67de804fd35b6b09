"""Tournament entries through the services: late entries, drops, swaps, a first round by
hand, the pairing settings, and who may do it."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from league.extensions import db
from league.models import Match, SwissBye, Team, User
from league.models.match import MatchTeam
from league.services import access, entries, matches, tournament
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import MatchReport, SideReport
from league.services.ratings import Ratings
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from league.services.users import set_naf_identity
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns

CLUBS = ("North", "South", "East")


@pytest.fixture
def coaches() -> list[User]:
    return [make_user(f"coach{n:02d}") for n in range(1, 13)]


def _event(commissioner: User, coaches: list[User], count: int, **settings: object) -> int:
    """A league with ``count`` entries, coach n's team Tn in club CLUBS[n % 3]."""
    league = make_league(commissioner, "bb2025", *coaches, **settings)
    with unit_of_work() as session:
        for n in range(1, count + 1):
            entries.add_entry(session, commissioner, _new(league.id, n))
    return league.id


def _new(league_id: int, n: int) -> entries.NewEntry:
    return entries.NewEntry(
        league_id, name=f"T{n}", team_type_id="human", coach=f"coach{n:02d}", club=CLUBS[n % 3]
    )


def _ids(league_id: int) -> dict[str, int]:
    db.session.expire_all()
    return {t.name: t.id for t in access.get_league(db.session, league_id).teams}


def _pair(commissioner: User, league_id: int, seed: int = 0) -> tournament.SwissPairing:
    with unit_of_work() as session:
        return tournament.pair_next_round(session, commissioner, league_id, random.Random(seed))


def _play_round(commissioner: User, pairing: tournament.SwissPairing) -> None:
    for match in pairing.matches:
        report = with_match_touchdowns(
            MatchReport(home=SideReport(score=1, mistake_d6=6), away=SideReport(score=0)),
            match.id,
        )
        with unit_of_work() as session:
            matches.record_result(session, commissioner, match.id, report)


def _paired(pairing: tournament.SwissPairing) -> set[int]:
    return {side.team_id for m in pairing.matches for side in m.sides}


# The event through the services: 11 entries in round 1 (a bye), coach 12 enters
# late before round 2 (0 points, paired from round 2), one coach drops after round 2 (no
# longer paired, its games stand in the standings, and the odd number left gets a bye).
def test_a_late_entry_and_a_drop_over_five_rounds(commissioner: User, coaches: list[User]) -> None:
    league_id = _event(commissioner, coaches, 11)
    give_scorers(commissioner, access.get_league(db.session, league_id))
    first = _pair(commissioner, league_id, 1)
    assert len(first.matches) == 5
    assert first.bye_team_id is not None
    _play_round(commissioner, first)
    with unit_of_work() as session:
        late = entries.add_entry(session, commissioner, _new(league_id, 12))
        assert late.entered_round == 2
    give_scorers(commissioner, access.get_league(db.session, league_id))
    ids = _ids(league_id)
    table = standings(db.session, access.get_league(db.session, league_id))
    assert next(r for r in table.rows if r.team_id == ids["T12"]).points == 0
    second = _pair(commissioner, league_id, 2)
    assert len(second.matches) == 6
    assert second.bye_team_id is None
    assert ids["T12"] in _paired(second)
    _play_round(commissioner, second)
    leaving = ids["T5"]
    with unit_of_work() as session:
        dropped = entries.drop_entry(session, commissioner, league_id, leaving)
        assert dropped.dropped_after_round == 2
    met: set[frozenset[int]] = set()
    byes = {first.bye_team_id}
    for pairing in (first, second):
        met |= {frozenset(m.sides[i].team_id for i in (0, 1)) for m in pairing.matches}
    for number in (3, 4, 5):
        pairing = _pair(commissioner, league_id, number)
        assert pairing.number == number
        assert leaving not in _paired(pairing)
        assert pairing.bye_team_id not in byes
        assert pairing.bye_team_id != leaving
        byes.add(pairing.bye_team_id)
        assert len(pairing.matches) == 5
        for m in pairing.matches:
            pair = frozenset(side.team_id for side in m.sides)
            assert pair not in met
            met.add(pair)
        assert "rematch" not in pairing.broken
        _play_round(commissioner, pairing)
    table = standings(db.session, access.get_league(db.session, league_id))
    # The dropped team's two games stand.
    assert next(r for r in table.rows if r.team_id == leaving).played == 2


def test_a_withdrawal_before_the_start_and_taking_a_drop_back(
    commissioner: User, coaches: list[User]
) -> None:
    league_id = _event(commissioner, coaches, 4)
    ids = _ids(league_id)
    with unit_of_work() as session:
        entries.drop_entry(session, commissioner, league_id, ids["T1"])
    db.session.expire_all()
    assert db.session.get(Team, ids["T1"]).dropped_after_round == 0  # type: ignore[union-attr]
    with pytest.raises(Conflict) as twice, unit_of_work() as session:
        entries.drop_entry(session, commissioner, league_id, ids["T1"])
    assert twice.value.code == "dropped"
    pairing = _pair(commissioner, league_id)
    assert _paired(pairing) | {pairing.bye_team_id} == {ids["T2"], ids["T3"], ids["T4"]}
    with pytest.raises(Conflict) as waiting, unit_of_work() as session:
        entries.drop_entry(session, commissioner, league_id, ids["T2"])
    assert waiting.value.code == "match_waiting" or ids["T2"] == pairing.bye_team_id
    with unit_of_work() as session:
        entries.undrop_entry(session, commissioner, league_id, ids["T1"])
    with pytest.raises(Conflict) as not_dropped, unit_of_work() as session:
        entries.undrop_entry(session, commissioner, league_id, ids["T1"])
    assert not_dropped.value.code == "not_dropped"


def test_own_second_entry_is_kept_apart_in_the_first_round(
    commissioner: User, coaches: list[User]
) -> None:
    # coach01 enters two teams, coach02 two: whatever the draw, each coach's pair is apart.
    for seed in range(6):
        league = make_league(commissioner, "bb2025", *coaches[:2])
        with unit_of_work() as session:
            for name, coach in (
                ("AA", "coach01"),
                ("BB", "coach01"),
                ("CC", "coach02"),
                ("DD", "coach02"),
            ):
                entries.add_entry(
                    session,
                    commissioner,
                    entries.NewEntry(league.id, name=name, team_type_id="human", coach=coach),
                )
        ids = _ids(league.id)
        coach_of = {ids["AA"]: 1, ids["BB"]: 1, ids["CC"]: 2, ids["DD"]: 2}
        pairing = _pair(commissioner, league.id, seed)
        assert pairing.broken == ()
        for m in pairing.matches:
            assert coach_of[m.home.team_id] != coach_of[m.away.team_id]


def test_a_seeded_first_round_uses_the_entries_ratings(
    commissioner: User, coaches: list[User]
) -> None:
    league_id = _event(commissioner, coaches, 4, pairing_first_round="rating")
    ids = _ids(league_id)
    # Ratings 200 (T4), 180 (T3), none (T2: the default 150), 100 (T1). Clubs: T4 and T1
    # South (n % 3 = 1), T3 North, T2 East: the fold's pairs keep clubs apart anyway.
    with unit_of_work() as session:
        for name, rating in (("T4", 200), ("T3", 180), ("T1", 100)):
            entries.update_entry(session, commissioner, league_id, ids[name], None, rating)
    pairing = _pair(commissioner, league_id)
    # By rating: T4 200, T3 180, T2 150, T1 100: the top half meets the bottom half.
    assert {frozenset(s.team_id for s in m.sides) for m in pairing.matches} == {
        frozenset((ids["T4"], ids["T2"])),
        frozenset((ids["T3"], ids["T1"])),
    }
    assert tournament.entry_seed_rating(db.session.get(Team, ids["T2"])) == 150  # type: ignore[arg-type]
    # With no rating typed in, a coach's rating on this site seeds the entry (rounded):
    # a coach at 151.414 (one win in a two-coach league: 150 + 2 x sqrt(2) x 0.5) seeds
    # at 151; a coach who has not played yet at the starting 150.
    t2 = db.session.get(Team, ids["T2"])
    assert t2 is not None
    played = Ratings(site={t2.coach_id: 151.414214})
    assert tournament.entry_seed_rating(t2, played) == 151
    assert tournament.entry_seed_rating(t2, Ratings()) == 150
    typed = db.session.get(Team, ids["T4"])
    assert typed is not None
    assert tournament.entry_seed_rating(typed, played) == 200  # the organiser's rating first


def test_a_manual_first_round(commissioner: User, coaches: list[User]) -> None:
    league_id = _event(commissioner, coaches, 5, pairing_first_round="manual")
    ids = _ids(league_id)
    with pytest.raises(Conflict) as refused, unit_of_work() as session:
        tournament.pair_next_round(session, commissioner, league_id)
    assert refused.value.code == "manual_first_round"
    for bad in (
        [(ids["T1"], ids["T2"]), (ids["T1"], ids["T3"])],  # T1 twice
        [(ids["T1"], ids["T2"])],  # three left out
        [(ids["T1"], ids["T1"]), (ids["T2"], ids["T3"])],
    ):
        with pytest.raises(RuleViolation) as invalid, unit_of_work() as session:
            entries.pair_by_hand(session, commissioner, league_id, bad)
        assert invalid.value.code == "invalid_pairing"
        assert db.session.scalar(select(func.count()).select_from(Match)) == 0
    with unit_of_work() as session:
        pairing = entries.pair_by_hand(
            session, commissioner, league_id, [(ids["T1"], ids["T3"]), (ids["T2"], ids["T5"])]
        )
    assert pairing.bye_team_id == ids["T4"]
    # T2 and T5 are both club CLUBS[2 % 3] = CLUBS[5 % 3] = "East": said, not refused.
    assert pairing.broken == ("same_club",)
    assert db.session.scalar(select(SwissBye.team_id)) == ids["T4"]
    with pytest.raises(Conflict), unit_of_work() as session:
        entries.pair_by_hand(session, commissioner, league_id, [(ids["T1"], ids["T2"])])


def test_swapping_two_pairings_before_the_round_starts(
    commissioner: User, coaches: list[User]
) -> None:
    league_id = _event(commissioner, coaches, 4, pairing_first_round="manual")
    ids = _ids(league_id)
    # T1 (South) v T2 (East), T3 (North) v T4 (South).
    with unit_of_work() as session:
        entries.pair_by_hand(
            session, commissioner, league_id, [(ids["T1"], ids["T2"]), (ids["T3"], ids["T4"])]
        )
    league = access.get_league(db.session, league_id)
    # T2 <-> T4 makes T1 v T4: both South.
    assert entries.swap_breaks(db.session, league, ids["T2"], ids["T4"]) == ("same_club",)
    assert entries.swap_breaks(db.session, league, ids["T2"], ids["T3"]) == ()
    with unit_of_work() as session:
        broken = entries.swap_entries(session, commissioner, league_id, ids["T2"], ids["T3"])
    assert broken == ()
    db.session.expire_all()
    pairs = {
        frozenset(
            db.session.scalars(select(MatchTeam.team_id).where(MatchTeam.match_id == m)).all()
        )
        for m in db.session.scalars(select(Match.id))
    }
    assert pairs == {frozenset((ids["T1"], ids["T3"])), frozenset((ids["T2"], ids["T4"]))}
    with pytest.raises(RuleViolation), unit_of_work() as session:
        entries.swap_entries(session, commissioner, league_id, ids["T1"], ids["T3"])
    # A result entered: the round has started, no more swaps.
    match_id = db.session.scalar(select(Match.id).order_by(Match.id))
    give_scorers(commissioner, access.get_league(db.session, league_id))
    report = with_match_touchdowns(
        MatchReport(home=SideReport(score=1, mistake_d6=6), away=SideReport(score=0)), match_id
    )
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)
    with pytest.raises(Conflict) as started, unit_of_work() as session:
        entries.swap_entries(session, commissioner, league_id, ids["T2"], ids["T3"])
    assert started.value.code == "round_started"


def test_only_the_organiser_manages_entries(commissioner: User, coaches: list[User]) -> None:
    league_id = _event(commissioner, coaches, 2)
    ids = _ids(league_id)
    coach = coaches[0]
    for act in (
        lambda s: entries.add_entry(s, coach, _new(league_id, 3)),
        lambda s: entries.drop_entry(s, coach, league_id, ids["T1"]),
        lambda s: entries.undrop_entry(s, coach, league_id, ids["T1"]),
        lambda s: entries.update_entry(s, coach, league_id, ids["T1"], "X", 1),
        lambda s: entries.swap_entries(s, coach, league_id, ids["T1"], ids["T2"]),
        lambda s: entries.pair_by_hand(s, coach, league_id, [(ids["T1"], ids["T2"])]),
    ):
        with pytest.raises(Forbidden), unit_of_work() as session:
            act(session)
    db.session.expire_all()
    assert db.session.get(Team, ids["T1"]).dropped_at is None  # type: ignore[union-attr]
    assert db.session.scalar(select(func.count()).select_from(Team)) == 2


def test_bad_entry_values_name_their_field(commissioner: User, coaches: list[User]) -> None:
    league_id = _event(commissioner, coaches, 1)
    ids = _ids(league_id)
    for club, rating, field in (("x" * 61, None, "club"), ("Ok", -1, "seed_rating")):
        with pytest.raises(RuleViolation) as bad, unit_of_work() as session:
            entries.update_entry(session, commissioner, league_id, ids["T1"], club, rating)
        assert bad.value.field == field
    with pytest.raises(RuleViolation) as missing, unit_of_work() as session:
        entries.add_entry(session, commissioner, entries.NewEntry(league_id, name="New"))
    assert [p.path for p in missing.value.problems] == ["team_type_id", "coach"]


def test_naf_identity_on_the_profile(commissioner: User) -> None:
    with unit_of_work() as session:
        set_naf_identity(session, commissioner, "  Boss  ", 12345)
    db.session.expire_all()
    user = db.session.get(User, commissioner.id)
    assert (user.naf_name, user.naf_number) == ("Boss", 12345)  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as bad, unit_of_work() as session:
        set_naf_identity(session, commissioner, "Boss", 0)
    assert bad.value.field == "naf_number"
