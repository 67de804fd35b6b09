"""Issue 31, tournament day: roster approval and its lock, the event's start, a round's entry."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from league.extensions import db
from league.models import Match, MatchPlayer, Player, Team, User
from league.services import access, advancement, roster_approval, round_entry, teams, tournament
from league.services.advancement import AdvancementRequest
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.leagues import current_settings, update_settings
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from tests.factories import make_user


def _set_deadlines(commissioner: User, league_id: int, **deadlines: datetime | None) -> None:
    with unit_of_work() as session:
        current = current_settings(access.get_league(session, league_id))
        update_settings(session, commissioner, league_id, replace(current, **deadlines))


def _review(actor: User, team_id: int, approved: bool, note: str | None = None) -> Team:
    with unit_of_work() as session:
        return roster_approval.review_roster(session, actor, team_id, approved=approved, note=note)


def _hire(actor: User, team_id: int) -> Player:
    with unit_of_work() as session:
        return teams.hire_player(
            session, actor, team_id, teams.HirePlayer("human-lineman", "Extra", None)
        )


def _state(team_id: int) -> tuple[str, str | None]:
    db.session.expire_all()
    team = db.session.get(Team, team_id)
    assert team is not None
    return team.roster_state, team.roster_note


def test_an_approved_roster_is_locked_until_the_organiser_unlocks_it(commissioner, league_2025):
    _league, humans, _orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    players_before = len(humans.players)
    _review(commissioner, humans.id, True)
    assert _state(humans.id) == ("approved", None)

    # The coach cannot hire, fire, buy staff or advance: one refusal, with its code.
    with pytest.raises(Conflict) as refused:
        _hire(anna, humans.id)
    assert refused.value.code == "roster_locked"
    assert "Reavers" in refused.value.message
    assert refused.value.message == (
        "Reavers's roster is approved and locked; the organiser can unlock it."
    )
    player_id = humans.players[0].id
    with pytest.raises(Conflict, match="locked"), unit_of_work() as session:
        teams.fire_player(session, anna, player_id)
    with pytest.raises(Conflict, match="locked"), unit_of_work() as session:
        teams.buy_team_item(session, anna, humans.id, "reroll")
    with pytest.raises(Conflict, match="locked"), unit_of_work() as session:
        advancement.buy_advancement(
            session, anna, player_id, AdvancementRequest(kind="chosen_primary", skill="Block")
        )
    # The organiser too: what was approved is what is played.
    with pytest.raises(Conflict, match="locked"):
        _hire(commissioner, humans.id)
    db.session.expire_all()
    assert (
        db.session.scalar(
            select(func.count()).select_from(Player).where(Player.team_id == humans.id)
        )
        == players_before
    )

    # Unlocked (approved false, no note): open for changes, still counted as submitted.
    _review(commissioner, humans.id, False)
    assert _state(humans.id) == ("submitted", None)
    _hire(anna, humans.id)


def test_a_roster_sent_back_carries_the_note_the_coach_reads(commissioner, league_2025):
    _league, humans, _orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    _review(commissioner, humans.id, False, "  Two throwers is one too many.  ")
    assert _state(humans.id) == ("returned", "Two throwers is one too many.")
    _hire(anna, humans.id)  # a returned roster is the coach's to correct
    with unit_of_work() as session:
        roster_approval.submit_roster(session, anna, humans.id)
    assert _state(humans.id) == ("submitted", None)


def test_only_the_organiser_approves_and_a_long_note_is_refused(commissioner, league_2025):
    _league, humans, _orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    with pytest.raises(Forbidden, match="organiser"):
        _review(anna, humans.id, True)
    with pytest.raises(RuleViolation) as refused:
        _review(commissioner, humans.id, False, "x" * 501)
    assert refused.value.field == "note"
    assert _state(humans.id) == ("open", None)


def test_after_the_correction_deadline_only_the_organiser_changes_a_roster(
    commissioner, league_2025
):
    league, humans, _orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    past = datetime.now(UTC) - timedelta(hours=1)
    _set_deadlines(
        commissioner, league.id, roster_deadline=past - timedelta(hours=1), correction_deadline=past
    )
    with pytest.raises(Conflict) as refused:
        _hire(anna, humans.id)
    assert refused.value.code == "corrections_closed"
    assert refused.value.message == (
        "The correction deadline has passed: only the organiser changes Reavers."
    )
    _hire(commissioner, humans.id)
    # The roster deadline has passed too: the open roster counts as submitted.
    db.session.expire_all()
    team = db.session.get(Team, humans.id)
    assert roster_approval.approval_of(team).state == "submitted"


def test_the_correction_deadline_cannot_come_first(commissioner, league_2025):
    league = league_2025[0]
    now = datetime.now(UTC)
    with pytest.raises(RuleViolation) as refused:
        _set_deadlines(
            commissioner, league.id, roster_deadline=now, correction_deadline=now - timedelta(1)
        )
    assert refused.value.field == "correction_deadline"


def test_the_event_starts_when_every_roster_is_approved_or_anyway(commissioner, league_2025):
    league, humans, _orcs = league_2025
    _set_deadlines(commissioner, league.id, roster_deadline=datetime.now(UTC) + timedelta(1))
    _review(commissioner, humans.id, True)
    with pytest.raises(Conflict) as refused, unit_of_work() as session:
        tournament.pair_next_round(session, commissioner, league.id, random.Random(1))
    assert refused.value.code == "rosters_unapproved"
    assert refused.value.message == "1 roster is not approved yet: Gouged Eye."
    assert db.session.scalar(select(func.count()).select_from(Match)) == 0
    with unit_of_work() as session:
        pairing = tournament.pair_next_round(
            session, commissioner, league.id, random.Random(1), start_anyway=True
        )
    assert pairing.number == 1
    assert len(pairing.matches) == 1


def test_without_deadlines_a_league_pairs_as_before(commissioner, league_2025):
    league = league_2025[0]
    with unit_of_work() as session:
        pairing = tournament.pair_next_round(session, commissioner, league.id, random.Random(1))
    assert len(pairing.matches) == 1


# ---------------------------------------------------------------------------
# A round's results at once


def _round(commissioner: User, league_id: int) -> Match:
    with unit_of_work() as session:
        pairing = tournament.pair_next_round(session, commissioner, league_id, random.Random(1))
    return pairing.matches[0]


def test_a_round_entered_in_one_go_scores_bonus_points(commissioner, league_2025):
    league, humans, orcs = league_2025
    with unit_of_work() as session:
        found = access.get_league(session, league.id)
        found.house_rules = {
            "tournament": {"bonus": [{"kind": "touchdowns", "threshold": 3, "points": 1}]}
        }
    match = _round(commissioner, league.id)
    home_is_humans = match.home.team_id == humans.id
    with unit_of_work() as session:
        recorded = round_entry.enter_round(
            session,
            commissioner,
            league.id,
            1,
            [round_entry.TableResult(1, home_td=3, home_cas=2, away_td=1, away_cas=0)],
        )
    assert recorded == [match.id]
    db.session.expire_all()
    played = db.session.get(Match, match.id)
    assert played.state == "played"
    assert (played.home.score, played.away.score) == (3, 1)
    # The home side's totals are on its lowest-numbered active player's line.
    lines = db.session.scalars(select(MatchPlayer).where(MatchPlayer.match_id == match.id)).all()
    assert sorted((line.td, line.cas) for line in lines) == [(1, 0), (3, 2)]
    rows = {
        r.team_id: r for r in standings(db.session, access.get_league(db.session, league.id)).rows
    }
    winner = humans.id if home_is_humans else orcs.id
    # A win (3 points) and the bonus for three touchdowns (+1): 4.
    assert rows[winner].points == 4
    # Bonus shown on the screen as typed: the same rule.
    tournament_rules = round_entry.round_entry(db.session, commissioner, league.id, 1).tournament
    assert round_entry.side_bonus(tournament_rules, (3, 2), (1, 0)) == 1
    assert round_entry.side_bonus(tournament_rules, (2, 2), (1, 0)) == 0


def test_bad_input_writes_nothing(commissioner, league_2025):
    league = league_2025[0]
    match = _round(commissioner, league.id)
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        round_entry.enter_round(
            session,
            commissioner,
            league.id,
            1,
            [round_entry.TableResult(1, home_td=-1, home_cas=0, away_td=100, away_cas=0)],
        )
    assert set(refused.value.fields) == {"t1_home_td", "t1_away_td"}
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        round_entry.enter_round(
            session, commissioner, league.id, 1, [round_entry.TableResult(7, 1, 0, 0, 0)]
        )
    db.session.expire_all()
    assert db.session.get(Match, match.id).state == "scheduled"
    assert db.session.scalar(select(func.count()).select_from(MatchPlayer)) == 0


def test_only_the_organiser_enters_a_round(commissioner, league_2025):
    league, humans, _orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    _round(commissioner, league.id)
    with pytest.raises(Forbidden, match="organiser"), unit_of_work() as session:
        round_entry.enter_round(
            session, anna, league.id, 1, [round_entry.TableResult(1, 1, 0, 0, 0)]
        )
    outsider = make_user("zed")
    with pytest.raises(Forbidden), unit_of_work() as session:
        round_entry.round_entry(session, outsider, league.id, 1)


def test_a_side_without_an_active_player_cannot_be_given_totals(commissioner, league_2025):
    league, humans, orcs = league_2025
    match = _round(commissioner, league.id)
    away_id = match.away.team_id
    with unit_of_work() as session:
        for player in session.scalars(select(Player).where(Player.team_id == away_id)):
            player.status = "fired"
    away_name = humans.name if away_id == humans.id else orcs.name
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        round_entry.enter_round(
            session, commissioner, league.id, 1, [round_entry.TableResult(1, 2, 0, 1, 0)]
        )
    assert refused.value.fields == {"t1_away_td": [f"{away_name} has no active player to credit."]}
    db.session.expire_all()
    assert db.session.get(Match, match.id).state == "scheduled"  # type: ignore[union-attr]
    # A side that scored nothing needs no player: 1-0 is recorded.
    with unit_of_work() as session:
        round_entry.enter_round(
            session, commissioner, league.id, 1, [round_entry.TableResult(1, 1, 0, 0, 0)]
        )
    db.session.expire_all()
    assert db.session.get(Match, match.id).state == "played"  # type: ignore[union-attr]
