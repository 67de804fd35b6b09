"""The webhooks page of a league's settings: register, deliveries, pause banner, edit, delete."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, User, Webhook, WebhookDelivery
from league.services import webhooks
from league.services.unit_of_work import unit_of_work
from tests.factories import make_league, make_team, make_user
from tests.pages import field_errors, flashes, login, table_rows
from tests.receiver import receiver


def _hooks() -> list[Webhook]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(Webhook)))


def _paused_hook(boss: User, league: League) -> Webhook:
    """A webhook of the league paused after PAUSE_AFTER failures in a row."""
    with unit_of_work() as session:
        hook = webhooks.create_webhook(
            session,
            boss,
            league.id,
            webhooks.WebhookSettings("https://1.1.1.1/hook", ("team.created",)),
        )
        hook.paused_at = datetime.now(UTC)
        hook.failures = webhooks.PAUSE_AFTER
    return hook


def test_a_commissioner_registers_a_discord_webhook_and_sees_its_deliveries(
    app: Flask, client: FlaskClient
) -> None:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    login(client, "boss")
    with receiver() as listening:
        page = client.post(
            f"/leagues/{league.id}/webhooks",
            data={"url": listening.url, "events": ["team.created"], "format": "discord"},
        )
        assert page.status_code == 201
        [hook] = _hooks()
        # The secret is on this answer only.
        assert hook.secret in page.text
        assert hook.secret not in client.get(f"/leagues/{league.id}/webhooks").text
        make_team(coach, league, "human", "Reikland Reavers")
        assert listening.events() == ["team.created"]
    page = client.get(f"/leagues/{league.id}/webhooks").text
    assert table_rows(page, "Latest deliveries") == [
        ["A team is created", "delivered", "1", "204", "—"]
    ]


def test_a_private_address_is_refused_next_to_the_field(app: Flask, client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    login(client, "boss")
    page = client.post(
        f"/leagues/{league.id}/webhooks",
        data={"url": "http://127.0.0.1:8080/hook", "events": ["team.created"], "format": "json"},
    )
    assert page.status_code == 400
    assert field_errors(page.text, "url") == [
        "127.0.0.1 points to this server or a private network; "
        "webhooks only post to public addresses."
    ]
    # The cloud metadata service behind NAT64 (64:ff9b::/96 carries 169.254.169.254).
    page = client.post(
        f"/leagues/{league.id}/webhooks",
        data={
            "url": "http://[64:ff9b::a9fe:a9fe]/latest",
            "events": ["team.created"],
            "format": "json",
        },
    )
    assert field_errors(page.text, "url") == [
        "64:ff9b::a9fe:a9fe points to this server or a private network; "
        "webhooks only post to public addresses."
    ]
    page = client.post(
        f"/leagues/{league.id}/webhooks", data={"url": "https://1.1.1.1/hook", "format": "json"}
    )
    assert field_errors(page.text, "events") == ["Tick at least one event."]
    assert _hooks() == []


def test_a_paused_webhook_is_announced_on_the_settings_page_and_can_be_resumed(
    app: Flask, client: FlaskClient
) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    hook = _paused_hook(boss, league)
    with unit_of_work() as session:
        session.add(
            WebhookDelivery(
                webhook_id=hook.id,
                event="team.created",
                body="{}",
                status="failed",
                attempts=webhooks.MAX_ATTEMPTS,
                response_code=500,
            )
        )
    login(client, "boss")
    settings = client.get(f"/leagues/{league.id}/settings").text
    assert "A webhook is paused" in settings
    assert "https://1.1.1.1/hook" in settings
    page = client.get(f"/leagues/{league.id}/webhooks").text
    assert table_rows(page, "Latest deliveries") == [
        ["A team is created", "failed", "5", "500", "—"]
    ]
    response = client.post(f"/webhooks/{hook.id}/resume")
    assert response.status_code == 302
    [resumed] = _hooks()
    assert resumed.paused_at is None
    assert "A webhook is paused" not in client.get(f"/leagues/{league.id}/settings").text


def test_editing_and_deleting_asks_first(app: Flask, client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    with unit_of_work() as session:
        hook = webhooks.create_webhook(
            session,
            boss,
            league.id,
            webhooks.WebhookSettings("https://1.1.1.1/hook", ("team.created",)),
        )
    login(client, "boss")
    response = client.post(
        f"/webhooks/{hook.id}/edit",
        data={"url": "https://1.0.0.1/hook", "events": ["season.closed"], "format": "json"},
    )
    assert response.status_code == 302
    [edited] = _hooks()
    assert (edited.url, edited.events, edited.format) == (
        "https://1.0.0.1/hook",
        ["season.closed"],
        "json",
    )
    asked = client.post(f"/webhooks/{hook.id}/delete")
    assert asked.status_code == 200
    assert "Delete this webhook?" in asked.text
    assert len(_hooks()) == 1
    done = client.post(f"/webhooks/{hook.id}/delete", data={"confirmed": "yes"})
    assert done.status_code == 302
    assert flashes(client.get(done.headers["Location"]).text) == ["Webhook deleted."]
    assert _hooks() == []


def test_a_coach_cannot_see_the_webhooks(app: Flask, client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    login(client, "grim")
    assert client.get(f"/leagues/{league.id}/webhooks").status_code == 403


def test_send_a_test_posts_a_message_and_lists_its_delivery(
    app: Flask, client: FlaskClient
) -> None:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    login(client, "boss")
    with receiver() as listening:
        client.post(
            f"/leagues/{league.id}/webhooks",
            data={"url": listening.url, "events": ["season.closed"], "format": "discord"},
        )
        [hook] = _hooks()
        response = client.post(f"/webhooks/{hook.id}/test")
        assert response.status_code == 302
        # Sent although the webhook did not choose it: a test goes to any webhook.
        assert listening.events() == ["webhook.test"]
        [embed] = listening.received[0].json["embeds"]
        assert embed["title"] == "Test message"
        assert embed["description"] == (
            "This webhook works: events of bb2025 league will be posted here."
        )
    page = client.get(response.headers["Location"]).text
    assert flashes(page) == ["Test message sent: its delivery is listed below."]
    assert table_rows(page, "Latest deliveries") == [["Test message", "delivered", "1", "204", "—"]]
    # Reloading the test's address shows the webhooks page instead of "405".
    assert client.get(f"/webhooks/{hook.id}/test").status_code == 302


def test_a_paused_webhook_takes_no_test_until_resumed(app: Flask, client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    hook = _paused_hook(boss, league)
    login(client, "boss")
    page = client.post(f"/webhooks/{hook.id}/test", follow_redirects=True).text
    assert flashes(page) == ["This webhook is paused; resume it first, then send a test."]
    assert db.session.scalars(db.select(WebhookDelivery)).all() == []
    login(client, "grim")
    assert client.post(f"/webhooks/{hook.id}/test").status_code == 403
