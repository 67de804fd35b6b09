"""Round-robin schedules, generating a season's fixtures, the fixture list and iCalendar."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime
from itertools import combinations

import pytest
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Match, User
from league.services import access, fixtures, matches, seasons, teams
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.fixtures import (
    CalendarEvent,
    generate_fixtures,
    ics_calendar,
    ics_escape,
    ics_fold,
    round_robin,
    schedule_size,
)
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import (
    give_scorers,
    make_league,
    make_team,
    make_user,
    with_match_touchdowns,
    with_touchdowns,
)

# ---------------------------------------------------------------------------
# round_robin (pure)


def _home_away(rounds: list[list[tuple[int, int]]]) -> tuple[Counter[int], Counter[int]]:
    return (
        Counter(home for pairs in rounds for home, _ in pairs),
        Counter(away for pairs in rounds for _, away in pairs),
    )


def _byes(rounds: list[list[tuple[int, int]]], team_ids: list[int]) -> Counter[int]:
    return Counter(
        team
        for pairs in rounds
        for team in team_ids
        if team not in {t for pair in pairs for t in pair}
    )


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_single_round_robin(count: int) -> None:
    team_ids = list(range(101, 101 + count))
    rounds = round_robin(team_ids)

    # n - 1 rounds for an even count; n rounds (one bye each) for an odd count.
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    assert len(rounds) == schedule_size(count)[0]
    met = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert set(met) == {frozenset(p) for p in combinations(team_ids, 2)}
    assert set(met.values()) == {1}
    assert sum(met.values()) == schedule_size(count)[1]
    for pairs in rounds:
        playing = [team for pair in pairs for team in pair]
        assert len(playing) == len(set(playing)), "a team plays twice in one round"
        assert len(pairs) == count // 2
    byes = _byes(rounds, team_ids)
    if count % 2:
        assert byes == dict.fromkeys(team_ids, 1)
    else:
        assert not byes
    home, away = _home_away(rounds)
    for team in team_ids:
        assert abs(home[team] - away[team]) <= 1, team
        if count % 2:  # an even number of games each: exactly balanced
            assert home[team] == away[team]


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_double_round_robin(count: int) -> None:
    team_ids = list(range(1, count + 1))
    rounds = round_robin(team_ids, double=True)
    half = len(rounds) // 2

    assert len(rounds) == schedule_size(count, double=True)[0]
    pairs = Counter(pair for r in rounds for pair in r)
    for a, b in combinations(team_ids, 2):
        assert pairs[(a, b)] == 1
        assert pairs[(b, a)] == 1
    assert sum(pairs.values()) == count * (count - 1)
    # The second cycle repeats the first with home and away swapped.
    assert rounds[half:] == [[(away, home) for home, away in r] for r in rounds[:half]]
    home, away = _home_away(rounds)
    assert all(home[team] == away[team] == count - 1 for team in team_ids)
    for cycle in (rounds[:half], rounds[half:]):
        byes = _byes(cycle, team_ids)
        assert byes == (dict.fromkeys(team_ids, 1) if count % 2 else {})


def test_round_robin_small_and_invalid_inputs() -> None:
    assert round_robin([]) == []
    assert round_robin([7]) == []
    assert round_robin([7, 8]) == [[(8, 7)]]
    assert round_robin(["a", "b", "c"]) == [[("b", "c")], [("c", "a")], [("a", "b")]]
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 2, 2])


# ---------------------------------------------------------------------------
# generate_fixtures


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league_with_teams(commissioner: User, coach: User, count: int, **settings) -> League:
    league = make_league(commissioner, "bb2025", coach, **settings)
    names = ["Athelorn Avengers", "Bogenhafen Barons", "Creeveland Crushers"]
    names += ["Darkside Cowboys", "Elfheim Eagles", "Flingers", "Gouged Eye"]
    with unit_of_work() as session:
        for name in names[:count]:
            teams.create_team(session, coach, teams.NewTeam(league.id, name, "human", active=True))
    give_scorers(coach, league)
    return league


def _season_matches(league: League) -> list[Match]:
    return list(
        db.session.scalars(
            select(Match).where(Match.league_id == league.id).order_by(Match.round, Match.id)
        )
    )


def test_generate_a_dated_double_round_robin(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 5)
    make_team(coach, league, "orc", "Still In Draft")  # not active: no fixtures
    with unit_of_work() as session:
        created = generate_fixtures(
            session, commissioner, league.id, True, date(2025, 9, 6), days_between=14
        )
    assert len(created) == 20
    found = _season_matches(league)
    assert len(found) == 20
    season = access.get_league(db.session, league.id).current_season
    assert {m.season_id for m in found} == {season.id}
    assert {m.state for m in found} == {"scheduled"}
    assert not any(m.friendly for m in found)
    dates = {m.round: m.scheduled_for for m in found}
    assert sorted(dates) == list(range(1, 11))
    assert dates[1] == date(2025, 9, 6)
    assert dates[2] == date(2025, 9, 20)
    assert dates[10] == date(2026, 1, 10)
    names = {m.home.team.name for m in found} | {m.away.team.name for m in found}
    assert "Still In Draft" not in names
    assert len(names) == 5


def test_generate_without_dates_keeps_alphabetical_draw(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 4)
    with unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False, shuffle=False)
    found = _season_matches(league)
    assert len(found) == 6
    assert {m.scheduled_for for m in found} == {None}
    ids = [t.id for t in sorted(league.teams, key=lambda t: t.name)]
    expected = [pair for pairs in round_robin(ids) for pair in pairs]
    assert [(m.home.team_id, m.away.team_id) for m in found] == expected


def test_only_a_commissioner_generates(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 4)
    with pytest.raises(Forbidden), unit_of_work() as session:
        generate_fixtures(session, coach, league.id, False)
    assert _season_matches(league) == []


def test_generating_twice_in_a_season_is_refused(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 4)
    with unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False)
    refused = pytest.raises(Conflict, match="Season 1 already has 6 league matches")
    with refused as caught, unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, True)
    assert caught.value.code == "season_has_fixtures"
    assert len(_season_matches(league)) == 6


def test_a_hand_added_fixture_also_blocks_generation_but_friendlies_do_not(
    commissioner, coach
) -> None:
    league = _league_with_teams(commissioner, coach, 3)
    a, b, _ = sorted(league.teams, key=lambda t: t.name)
    with unit_of_work() as session:
        matches.schedule_match(session, commissioner, league.id, a.id, b.id, friendly=True)
    with unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False)  # a friendly is no fixture
    other = _league_with_teams(commissioner, coach, 0)
    with unit_of_work() as session:
        for name in ("One", "Two"):
            teams.create_team(session, coach, teams.NewTeam(other.id, name, "human", active=True))
    one, two = sorted(access.get_league(db.session, other.id).teams, key=lambda t: t.name)
    with unit_of_work() as session:
        matches.schedule_match(session, commissioner, other.id, one.id, two.id, round_number=1)
    with pytest.raises(Conflict, match="1 league match;"), unit_of_work() as session:
        generate_fixtures(session, commissioner, other.id, False)


def test_a_voided_match_does_not_block_and_a_new_season_can_be_scheduled(
    commissioner, coach
) -> None:
    league = _league_with_teams(commissioner, coach, 2)
    a, b = sorted(league.teams, key=lambda t: t.name)
    with unit_of_work() as session:
        match = matches.record_new_match(
            session,
            commissioner,
            league.id,
            a.id,
            b.id,
            with_touchdowns(MatchReport(home=SideReport(score=1), away=SideReport(score=0)), a, b),
        )
    with unit_of_work() as session:
        matches.void_match(session, commissioner, match.id)
    with unit_of_work() as session:
        assert len(generate_fixtures(session, commissioner, league.id, False)) == 1
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    with unit_of_work() as session:
        created = generate_fixtures(session, commissioner, league.id, True)
    assert len(created) == 2
    season_2 = access.get_league(db.session, league.id).current_season
    assert {m.season_id for m in created} == {season_2.id}


def test_generate_needs_two_active_teams_and_sane_spacing(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 1)
    refused = pytest.raises(RuleViolation, match="two active teams for a schedule; it has 1")
    with refused, unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False)
    league = _league_with_teams(commissioner, coach, 0)
    with pytest.raises(RuleViolation) as caught, unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False, date(2025, 1, 1), 0)
    assert caught.value.field == "days_between"
    assert db.session.scalar(select(func.count()).select_from(Match)) == 0


def test_season_fixtures_lists_rounds_byes_and_other_matches(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 3)
    with unit_of_work() as session:
        generate_fixtures(session, commissioner, league.id, False, date(2025, 3, 1), shuffle=False)
    a, b, c = sorted(league.teams, key=lambda t: t.name)
    with unit_of_work() as session:
        friendly = matches.schedule_match(
            session, commissioner, league.id, c.id, a.id, friendly=True
        )
    listing = fixtures.season_fixtures(db.session, access.get_league(db.session, league.id))
    assert listing.season_name == "Season 1"
    assert [r.number for r in listing.rounds] == [1, 2, 3]
    # round_robin([a, b, c]): (b, c) with a on a bye, then (c, a), then (a, b).
    assert [(f.home.team_name, f.away.team_name) for r in listing.rounds for f in r.fixtures] == [
        (b.name, c.name),
        (c.name, a.name),
        (a.name, b.name),
    ]
    assert [r.byes for r in listing.rounds] == [(a.name,), (b.name,), (c.name,)]
    assert [r.dates for r in listing.rounds] == [
        (date(2025, 3, 1),),
        (date(2025, 3, 8),),
        (date(2025, 3, 15),),
    ]
    assert [(f.match_id, f.friendly) for f in listing.others] == [(friendly.id, True)]
    assert listing.count == 4


# ---------------------------------------------------------------------------
# iCalendar


def test_ics_escape_follows_rfc_5545() -> None:
    assert ics_escape("Smith, Jones; Co\\Ltd\nline 2\r\nline 3") == (
        "Smith\\, Jones\\; Co\\\\Ltd\\nline 2\\nline 3"
    )
    assert ics_escape("bell\x07 tab\t") == "bell tab\t"


def test_ics_fold_at_75_octets_without_splitting_characters() -> None:
    line = "SUMMARY:" + "Ünterwald Ölbeißer " * 10
    folded = ics_fold(line)
    parts = folded.split("\r\n")
    assert len(parts) > 1
    assert all(len(part.encode()) <= 75 for part in parts)
    assert all(part.startswith(" ") for part in parts[1:])
    assert "".join([parts[0]] + [p[1:] for p in parts[1:]]) == line
    assert ics_fold("SHORT:line") == "SHORT:line"


def test_ics_calendar_text() -> None:
    text = ics_calendar(
        "Old World; Cup",
        [CalendarEvent("match-3@example.org", date(2025, 9, 6), "A, B vs C", "Round 1")],
        now=datetime(2025, 8, 1, 12, 30, tzinfo=UTC),
    )
    assert text == (
        "BEGIN:VCALENDAR\r\n"
        "VERSION:2.0\r\n"
        "PRODID:-//Blood Bowl League Manager//Fixtures//EN\r\n"
        "CALSCALE:GREGORIAN\r\n"
        "METHOD:PUBLISH\r\n"
        "X-WR-CALNAME:Old World\\; Cup\r\n"
        "BEGIN:VEVENT\r\n"
        "UID:match-3@example.org\r\n"
        "DTSTAMP:20250801T123000Z\r\n"
        "DTSTART;VALUE=DATE:20250906\r\n"
        "DTEND;VALUE=DATE:20250907\r\n"
        "SUMMARY:A\\, B vs C\r\n"
        "DESCRIPTION:Round 1\r\n"
        "END:VEVENT\r\n"
        "END:VCALENDAR\r\n"
    )


def test_calendar_events_skip_undated_and_voided_matches(commissioner, coach) -> None:
    league = _league_with_teams(commissioner, coach, 2)
    a, b = sorted(league.teams, key=lambda t: t.name)
    with unit_of_work() as session:
        dated = matches.schedule_match(
            session, commissioner, league.id, a.id, b.id, scheduled_for=date(2025, 5, 4)
        )
        matches.schedule_match(session, commissioner, league.id, b.id, a.id)
        voided = matches.schedule_match(
            session, commissioner, league.id, b.id, a.id, scheduled_for=date(2025, 5, 11)
        )
    with unit_of_work() as session:
        matches.void_match(session, commissioner, voided.id)
    with unit_of_work() as session:
        matches.record_result(
            session,
            commissioner,
            dated.id,
            with_match_touchdowns(
                MatchReport(home=SideReport(score=2), away=SideReport(score=1)), dated.id
            ),
        )
    events = fixtures.calendar_events(
        db.session, access.get_league(db.session, league.id), uid_domain="example.org"
    )
    assert [(e.uid, e.day, e.summary, e.description) for e in events] == [
        (
            f"match-{dated.id}@example.org",
            date(2025, 5, 4),
            f"{a.name} 2-1 {b.name}",
            "bb2025 league, Season 1",
        )
    ]
