"""`flask recompute winnings`: a league with history keeps the winnings it booked
until the corrected ones are applied, then the differences are booked once."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from league.extensions import db
from league.models import League, Match, Team, TreasuryEntry
from league.services import matches
from league.services.booked_winnings import apply_winnings_corrections, winnings_corrections
from league.services.labels import ledger_text
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from tests.factories import with_touchdowns


def _booked_the_old_way(match: Match, side: str, old: int) -> None:
    """What the formula before the correction booked: the half of the attendance dropped
    (and a concession paid like any match): the side's winnings and its ledger row."""
    with unit_of_work() as session:
        stored = session.get(Match, match.id).side(side)  # type: ignore[union-attr]
        row = session.scalar(
            select(TreasuryEntry).where(
                TreasuryEntry.match_id == match.id,
                TreasuryEntry.team_id == stored.team_id,
                TreasuryEntry.kind == "winnings",
            )
        )
        assert row is not None
        team = session.get(Team, stored.team_id)
        assert team is not None
        team.treasury += old - row.amount
        row.amount = old
        stored.winnings = old


def _record(commissioner, league: League, home: Team, away: Team, report: MatchReport) -> Match:
    # Each touchdown is credited to a team's first player: the score is what matters here.
    report = with_touchdowns(report, home, away)
    with unit_of_work() as session:
        return matches.record_new_match(session, commissioner, league.id, home.id, away.id, report)


def test_review_then_apply_the_corrected_winnings(app: Flask, commissioner, league_2025) -> None:
    league, humans, orcs = league_2025
    # BB2025, attendance 7 (RULES-FACTS 6b, the half kept): Humans 2 TD, no stalling:
    # 3.5 + 2 + 1 = 65,000; Orcs 1 TD, stalled: 3.5 + 1 = 45,000. The formula before the
    # correction dropped the half: 60,000 and 40,000.
    played = _record(
        commissioner,
        league,
        humans,
        orcs,
        MatchReport(
            home=SideReport(score=2, mistake_d6=6),
            away=SideReport(score=1, stalled=True, mistake_d6=6),
            fan_attendance=7,
        ),
    )
    # Attendance 13, the Orcs conceded at 0-0: the Humans take all of it, (13 + 0) x 10,000
    # = 130,000; the old formula paid them 6 + 0 + 1 = 70,000.
    conceded = _record(
        commissioner,
        league,
        humans,
        orcs,
        MatchReport(
            home=SideReport(mistake_d6=6),
            away=SideReport(conceded=True, mistake_d6=6),
            fan_attendance=13,
        ),
    )
    assert (played.home.winnings, played.away.winnings, conceded.home.winnings) == (
        65_000,
        45_000,
        130_000,
    )
    _booked_the_old_way(played, "home", 60_000)
    _booked_the_old_way(played, "away", 40_000)
    _booked_the_old_way(conceded, "home", 70_000)
    humans_before, orcs_before = humans.treasury, orcs.treasury
    runner = app.test_cli_runner()

    # The league keeps what it booked: the caches and the ledger agree with it.
    check = runner.invoke(args=["recompute", "--check"])
    assert check.exit_code == 0, check.output
    # The review lists each side that changes, and each treasury's total.
    review = runner.invoke(args=["recompute", "winnings", "--league", str(league.id)])
    assert review.exit_code == 0, review.output
    assert (
        f"Reavers (team #{humans.id}), match #{played.id}: booked 60,000, the rules give "
        "65,000 (+5,000)" in review.output
    )
    assert f"match #{played.id}: booked 40,000, the rules give 45,000 (+5,000)" in review.output
    assert f"match #{conceded.id}: booked 70,000, the rules give 130,000 (+60,000)" in (
        review.output
    )
    assert "Reavers: treasury +65,000" in review.output
    assert "Gouged Eye: treasury +5,000" in review.output
    db.session.expire_all()
    assert db.session.get(Team, humans.id).treasury == humans_before  # type: ignore[union-attr]

    applied = runner.invoke(args=["recompute", "winnings", "--apply"])
    assert applied.exit_code == 0, applied.output
    assert "Booked 3 correction(s)." in applied.output
    db.session.expire_all()
    assert db.session.get(Team, humans.id).treasury == humans_before + 65_000  # type: ignore[union-attr]
    assert db.session.get(Team, orcs.id).treasury == orcs_before + 5_000  # type: ignore[union-attr]
    rows = db.session.scalars(
        select(TreasuryEntry).where(TreasuryEntry.kind == "correction").order_by(TreasuryEntry.id)
    ).all()
    assert [(row.team_id, row.match_id, row.amount) for row in rows] == [
        (humans.id, played.id, 5_000),
        (orcs.id, played.id, 5_000),
        (humans.id, conceded.id, 60_000),
    ]
    assert ledger_text(rows[0]) == f"Winnings corrected, match #{played.id}"

    # Idempotent: nothing left to book, and every balance still checks.
    again = runner.invoke(args=["recompute", "winnings", "--apply"])
    assert "Every match's booked winnings follow the current rules." in again.output
    with unit_of_work() as session:
        assert winnings_corrections(session) == []
        assert apply_winnings_corrections(session) == []
    assert (
        db.session.scalar(
            select(db.func.count())
            .select_from(TreasuryEntry)
            .where(TreasuryEntry.kind == "correction")
        )
        == 3
    )
    check = runner.invoke(args=["recompute", "--check"])
    assert check.exit_code == 0, check.output
