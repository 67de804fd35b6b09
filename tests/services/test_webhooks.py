"""Outgoing webhooks, delivered to a real HTTP server on 127.0.0.1 (tests.receiver)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

from league.extensions import db
from league.models import League, Team, User, Webhook, WebhookDelivery
from league.models.types import utcnow
from league.models.webhook import WEBHOOK_EVENTS
from league.services import leagues, matches, redraft, scheduling, seasons, webhooks
from league.services.advancement import AdvancementRequest, buy_advancement
from league.services.errors import RuleViolation
from league.services.fixtures import generate_fixtures
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from tests.factories import make_active_team, make_league, make_user
from tests.receiver import Receiver, receiver

HUMANS = (("human-blitzer", 2), ("human-lineman", 9))


def _league() -> tuple[User, League, Team, Team]:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bogenhafen Bruisers", HUMANS)
    return boss, league, home, away


def _hook(
    boss: User, league: League, url: str, events: tuple[str, ...], shape: str = "json"
) -> Webhook:
    with unit_of_work() as session:
        return webhooks.create_webhook(
            session, boss, league.id, WebhookSettings(url, events, shape)
        )


def _players(team: Team) -> list[int]:
    db.session.expire_all()
    return [p.id for p in sorted(db.session.get(Team, team.id).players, key=lambda p: p.number)]


def _record(boss: User, league: League, home: Team, away: Team, report: MatchReport) -> int:
    with unit_of_work() as session:
        return matches.record_new_match(session, boss, league.id, home.id, away.id, report).id


def _win(home: Team, away: Team) -> MatchReport:
    """2-1: home's first blitzer scores twice and kills away's first lineman."""
    scorer, victim_team = _players(home)[0], _players(away)
    return MatchReport(
        home=SideReport(score=2, mistake_d6=6),
        away=SideReport(score=1, mistake_d6=6),
        players=(
            PlayerEvents(scorer, td=2, cas=1),
            PlayerEvents(victim_team[0], td=1),
            PlayerEvents(victim_team[2], injury="dead"),
        ),
    )


def _shutout(scorer: int) -> MatchReport:
    """2-0, both touchdowns by `scorer`, nobody hurt."""
    return MatchReport(
        home=SideReport(score=2, mistake_d6=6),
        away=SideReport(score=0, mistake_d6=6),
        players=(PlayerEvents(scorer, td=2),),
    )


def _record_replay(boss: User, league: League) -> int:
    """The fixture scheduled again when its result was voided."""
    with unit_of_work() as session:
        found = matches.league_matches(session, session.get(League, league.id))
        return next(m.id for m in found if m.state == "scheduled")


def _deliveries() -> list[WebhookDelivery]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(WebhookDelivery).order_by(WebhookDelivery.id)))


def test_a_result_reaches_the_receiver_signed_as_json(listening: Receiver) -> None:
    boss, league, home, away = _league()
    hook = _hook(boss, league, listening.url, ("match.finalised",))
    match_id = _record(boss, league, home, away, _win(home, away))

    [got] = listening.received
    assert got.path == "/hook"
    assert got.event == "match.finalised"
    assert got.headers["Content-Type"] == "application/json"
    expected = hmac.new(hook.secret.encode(), got.body, hashlib.sha256).hexdigest()
    assert got.headers["X-League-Signature"] == f"sha256={expected}"
    body = got.json
    assert body["event"] == "match.finalised"
    assert body["league"]["name"] == "bb2025 league"
    match = body["data"]["match"]
    assert (match["id"], match["home"]["score"], match["away"]["score"]) == (match_id, 2, 1)
    assert match["url"].endswith(f"/matches/{match_id}")
    assert [s["td"] for s in match["home"]["scorers"]] == [2]
    assert [c["injury"] for c in body["data"]["casualties"]] == ["dead"]
    # The league's default points: 3 for the win, 0 for the loss; the winner is first.
    assert [
        (r["position"], r["team"], r["points"], r["points_change"])
        for r in body["data"]["standings"]
    ] == [(1, "Altdorf Amblers", 3, 3), (2, "Bogenhafen Bruisers", 0, 0)]
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 1, 204)
    # Only the events asked for: the death in that match was not wanted by this webhook.
    assert delivery.event == "match.finalised"


def test_a_discord_webhook_gets_an_embed_within_discords_limits(listening: Receiver) -> None:
    boss, league, home, away = _league()
    _hook(boss, league, listening.url, ("match.finalised", "player.died"), "discord")
    match_id = _record(boss, league, home, away, _win(home, away))

    assert listening.events() == ["match.finalised", "player.died"]
    result, death = (r.json for r in listening.received)
    assert set(result) == {"embeds", "allowed_mentions"}
    [embed] = result["embeds"]
    assert embed["title"] == "Altdorf Amblers 2 \u2013 1 Bogenhafen Bruisers"
    assert embed["url"].endswith(f"/matches/{match_id}")
    assert embed["author"]["name"] == "bb2025 league"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Altdorf Amblers scorers"] == "Player 1 \u00d72"
    assert fields["Bogenhafen Bruisers scorers"] == "Player 1"
    assert fields["Casualties"] == "Player 3 (Dead)"
    assert fields["Standings"] == (
        "1. Altdorf Amblers \u2013 3 pts (+3)\n2. Bogenhafen Bruisers \u2013 0 pts (+0)"
    )
    assert webhooks.discord_problems(result) == []
    assert death["embeds"][0]["title"] == "Player 3 (Bogenhafen Bruisers) died"


def test_long_names_are_clipped_to_discords_limits(hooks_app: Flask) -> None:
    name = "N" * 5000
    side = {"name": name, "score": 1, "scorers": [{"player": name, "td": 1}] * 40, "url": ""}
    envelope = {
        "event": "match.finalised",
        "league": {"name": name},
        "occurred_at": "2026-11-23T20:00:00+00:00",
        "data": {
            "match": {"url": "https://x.example/matches/1", "round": 1, "friendly": False}
            | {"home": side, "away": side},
            "casualties": [{"player": name, "injury": "dead"}] * 40,
            "standings": [],
        },
    }
    message = webhooks.discord_message(envelope)
    embed = message["embeds"][0]
    assert webhooks.discord_problems(message) == []
    # Discord: title 256, author 256, field values 1024, all text at most 6000.
    assert len(embed["title"]) == 256
    assert len(embed["author"]["name"]) == 256
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    assert webhooks.embed_length(embed) <= 6000


def test_a_failing_receiver_is_retried_later_and_later_then_paused(
    listening: Receiver,
) -> None:
    boss, league, home, away = _league()
    hook = _hook(boss, league, listening.url, ("match.finalised",))
    listening.statuses = [500] * 10
    _record(boss, league, home, away, _win(home, away))

    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("retrying", 1, 500)
    # Back-off: 30 s after the first failure, then 4 times longer each time.
    start = datetime.now(UTC)
    waits = []
    moment = start
    for _ in range(4):
        moment += timedelta(hours=1)
        webhooks.deliver(delivery.id, now=lambda m=moment: m)
        [delivery] = _deliveries()
        if delivery.next_attempt_at is not None:
            waits.append(delivery.next_attempt_at.replace(tzinfo=UTC) - moment)
    assert waits == [timedelta(seconds=120), timedelta(seconds=480), timedelta(seconds=1920)]
    assert webhooks.retry_delay(1) == timedelta(seconds=30)
    assert len(listening.received) == 5
    # Five attempts: the delivery is given up, and five failures in a row pause the webhook.
    assert (delivery.status, delivery.attempts) == ("failed", 5)
    db.session.expire_all()
    paused = db.session.get(Webhook, hook.id)
    assert paused is not None
    assert paused.paused_at is not None
    # A paused webhook gets nothing new.
    _record(boss, league, home, away, MatchReport(SideReport(score=0), SideReport(score=0)))
    assert len(listening.received) == 5
    assert len(_deliveries()) == 1


def test_a_delivery_that_succeeds_on_a_retry_resets_the_failures(listening: Receiver) -> None:
    boss, league, home, away = _league()
    hook = _hook(boss, league, listening.url, ("match.finalised",))
    listening.statuses = [503, 500]
    _record(boss, league, home, away, _win(home, away))
    later = datetime.now(UTC) + timedelta(minutes=1)
    with unit_of_work() as session:
        assert webhooks.deliver_due(session, now=later) == 1  # the 30 s wait is over
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts) == ("retrying", 2)
    with unit_of_work() as session:
        assert webhooks.deliver_due(session, now=later) == 0  # 2 minutes not yet
        assert webhooks.deliver_due(session, now=later + timedelta(minutes=3)) == 1
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 3, 204)
    assert db.session.get(Webhook, hook.id).failures == 0  # type: ignore[union-attr]
    # Each attempt carried the same body and signature.
    assert len({r.body for r in listening.received}) == 1


def test_the_cli_sends_the_retries_that_are_due(
    listening: Receiver, runner: FlaskCliRunner
) -> None:
    boss, league, home, away = _league()
    _hook(boss, league, listening.url, ("match.finalised",))
    listening.statuses = [502]
    _record(boss, league, home, away, _win(home, away))
    [delivery] = _deliveries()
    with unit_of_work():
        delivery.next_attempt_at = datetime.now(UTC) - timedelta(seconds=1)  # now due
    result = runner.invoke(args=["webhooks", "retry"])
    assert result.output == "Attempted 1 webhook deliveries.\n"
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 2, 204)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/hook", "http:// or https://"),
        ("http://127.0.0.1:9/hook", "private network"),
        ("http://localhost/hook", "private network"),
        ("http://[::1]/hook", "private network"),
        ("http://10.1.2.3/hook", "private network"),
        ("http://192.168.0.10/hook", "private network"),
        ("http://169.254.169.254/latest/meta-data", "private network"),
        ("http://[::ffff:127.0.0.1]/hook", "private network"),
        ("http://user:pw@example.com/hook", "user name and password"),
        ("https://example.invalid/hook", "cannot be found"),
    ],
)
def test_addresses_of_this_server_and_private_networks_are_refused(
    app: Flask, url: str, message: str
) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        webhooks.create_webhook(
            session, boss, league.id, WebhookSettings(url, ("match.finalised",))
        )
    assert message in refused.value.message
    assert refused.value.field == "url"
    assert db.session.scalars(db.select(Webhook)).all() == []


def test_the_address_is_checked_again_before_each_attempt(hooks_app: Flask) -> None:
    boss, league, home, away = _league()
    with receiver() as listening:
        _hook(boss, league, listening.url, ("match.finalised",))
        hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = False
        _record(boss, league, home, away, _win(home, away))
        assert listening.received == []
    [delivery] = _deliveries()
    assert delivery.status == "retrying"
    assert delivery.response_code is None
    assert "private network" in (delivery.error or "")


def test_nothing_is_sent_when_the_transaction_rolls_back(listening: Receiver) -> None:
    boss, league, _, _ = _league()
    _hook(boss, league, listening.url, ("team.created",))

    def fail_after_emitting() -> None:
        with unit_of_work() as session:
            webhooks.emit(session, league.id, "team.created", {"team": {"name": "Ghosts"}})
            raise RuntimeError("the service failed after emitting")

    with pytest.raises(RuntimeError):
        fail_after_emitting()
    assert listening.received == []
    assert _deliveries() == []


def test_every_event_reaches_the_receiver_in_both_formats(listening: Receiver) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    plain = _hook(boss, league, listening.url + "/json", WEBHOOK_EVENTS)
    _hook(boss, league, listening.url + "/discord", WEBHOOK_EVENTS, "discord")
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bogenhafen Bruisers", HUMANS)
    with unit_of_work() as session:
        generate_fixtures(session, boss, league.id, double=False, shuffle=False)
    with unit_of_work() as session:  # due tomorrow: no time agreed, no pre-game filled
        fixture = matches.league_matches(session, session.get(League, league.id))[0]
        fixture.scheduled_for = utcnow().date() + timedelta(days=1)
    with unit_of_work() as session:
        scheduling.send_due_reminders(session)
    with unit_of_work() as session:
        fixture = matches.league_matches(session, session.get(League, league.id))[0]
        # Generated fixtures draw who plays at home; the winner is the home team.
        home, away = (home, away) if fixture.home.team_id == home.id else (away, home)
        matches.record_result(session, boss, fixture.id, _win(home, away))
        fixture_id = fixture.id
    with unit_of_work() as session:
        matches.record_result(session, boss, fixture_id, _win(home, away))  # a correction
    with unit_of_work() as session:
        matches.void_match(session, boss, fixture_id)
    replay = _record_replay(boss, league)
    scorer = _players(home)[0]
    with unit_of_work() as session:
        matches.record_result(session, boss, replay, _shutout(scorer))
    with unit_of_work() as session:
        # Two touchdowns (3 SPP each in BB2025): 6 SPP, the price of a first chosen primary.
        buy_advancement(session, coach, scorer, AdvancementRequest("chosen_primary", "Dauntless"))
    with unit_of_work() as session:
        seasons.close_season(session, boss, league.id)
    with unit_of_work() as session:
        keep = redraft.redraft_plan(session, home.id).current
        redraft.submit_redraft(session, coach, home.id, keep)
    with unit_of_work() as session:
        redraft.approve_redraft(session, boss, home.id)

    expected = [
        "team.created",
        "team.created",
        "fixtures.generated",
        "fixture.reminder",
        "fixture.reminder",
        "match.finalised",
        "player.died",
        "match.corrected",
        "match.voided",
        "match.finalised",
        "advancement.bought",
        "season.closed",
        "team.redrafted",
    ]
    # The last of each event (the replay's result for "match.finalised").
    as_json = {r.event: r for r in listening.received if r.path == "/hook/json"}
    as_discord = [r for r in listening.received if r.path == "/hook/discord"]
    assert [r.event for r in listening.received if r.path == "/hook/json"] == expected
    assert [r.event for r in as_discord] == expected
    assert set(expected) == set(WEBHOOK_EVENTS)
    for got in as_discord:
        assert webhooks.discord_problems(got.json) == [], got.event
    for event, got in as_json.items():
        assert got.json["event"] == event
        expected_signature = hmac.new(plain.secret.encode(), got.body, hashlib.sha256).hexdigest()
        assert got.headers["X-League-Signature"] == f"sha256={expected_signature}"
    bought = as_json["advancement.bought"].json["data"]
    assert (bought["player"]["id"], bought["skill"], bought["spp"]) == (scorer, "Dauntless", 6)
    assert [f["round"] for f in as_json["fixtures.generated"].json["data"]["fixtures"]] == [1]
    # The void takes the win's 3 points back.
    voided = as_json["match.voided"].json["data"]["standings"]
    assert {(r["team"], r["points"], r["points_change"]) for r in voided} == {
        (home.name, 0, -3),
        (away.name, 0, 0),
    }
    reminded = [
        r.json["data"]["kind"]
        for r in listening.received
        if r.event == "fixture.reminder" and r.path == "/hook/json"
    ]
    assert reminded == ["time", "pregame"]
    closed = as_json["season.closed"].json["data"]
    assert (closed["season"], closed["name"]) == (1, "Season 1")
    redrafted = as_json["team.redrafted"].json["data"]["team"]
    assert redrafted["name"] == home.name


def test_only_a_commissioner_registers_webhooks(app: Flask) -> None:
    _, league, _, _ = _league()
    coach = db.session.scalar(db.select(User).where(User.username == "grim"))
    assert coach is not None
    with pytest.raises(leagues.Forbidden), unit_of_work() as session:
        webhooks.create_webhook(
            session, coach, league.id, WebhookSettings("https://example.com/h", ("team.created",))
        )


def test_cancelling_a_fixture_before_it_is_played_is_no_voided_result(
    listening: Receiver,
) -> None:
    boss, league, home, away = _league()
    _hook(boss, league, listening.url, ("match.voided",))
    with unit_of_work() as session:
        fixture = matches.schedule_match(session, boss, league.id, home.id, away.id).id
    with unit_of_work() as session:
        matches.void_match(session, boss, fixture)
    assert listening.received == []


def test_deliveries_go_through_the_job_queue(hooks_app: Flask, listening: Receiver) -> None:
    # The default dispatch: the job queue (immediate in the tests, a worker in production).
    from league import jobs

    hooks_app.config["WEBHOOK_DISPATCH"] = "queue"
    boss, league, home, away = _league()
    _hook(boss, league, listening.url, ("match.finalised",))
    listening.statuses = [500]
    _record(boss, league, home, away, _win(home, away))
    # The first attempt ran as a job and failed; its retry waits in the queue's schedule.
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("retrying", 1, 500)
    [scheduled] = jobs.huey.scheduled()
    assert scheduled.args == (delivery.id,)
    # When it is due (here: made due now), the worker runs it: this time it is delivered.
    with unit_of_work() as session:
        session.get(WebhookDelivery, delivery.id).next_attempt_at = datetime.now(UTC)
    jobs.huey.execute(scheduled, timestamp=scheduled.eta)
    [delivery] = _deliveries()
    assert (delivery.status, delivery.attempts, len(listening.received)) == ("delivered", 2, 2)


def test_discord_messages_speak_the_leagues_language(listening: Receiver) -> None:
    """Read in the league's channel: in the league's language (issue 20), whoever acted."""
    boss, league, home, away = _league()
    with unit_of_work() as session:
        settings = replace(leagues.current_settings(league), default_language="fr")
        leagues.update_settings(session, boss, league.id, settings)
    _hook(boss, league, listening.url, ("match.finalised",), "discord")
    _record(boss, league, home, away, _win(home, away))
    [embed] = listening.received[0].json["embeds"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Blessés"] == "Player 3 (Morts)"
    assert fields["Classement"].startswith("1. Altdorf Amblers")
