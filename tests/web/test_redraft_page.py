"""The re-draft page's new hires and rest and recovery rolls (BB2025).

RULES-FACTS 5b "Off-season": each niggling injury heals on a D6 of 4+, +1 with an
apothecary; RULES-FACTS 6b "Re-draft" for the budget and the agent's fee.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, Player, Team, TreasuryEntry
from league.services import seasons
from league.services.matches import PlayerEvents
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import field_errors, login, text_of
from tests.services.test_standings import play

LINEMEN = (("human-lineman", 11),)
#: The BB2025 Human roster's positions, in the page's order.
BLITZERS = 4


def _injured(table_dice: bool) -> tuple[Team, Player]:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    db.session.get(League, league.id).table_dice_allowed = table_dice
    db.session.commit()
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    hurt = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(comm, league, reavers, gouged, 0, 1, PlayerEvents(hurt.id, injury="serious_injury"))
    with unit_of_work() as session:
        seasons.close_season(session, comm, league.id, 1)
    return reavers, hurt


def _form(players: list[int], **extra: str) -> dict[str, object]:
    data: dict[str, object] = {
        "keep": players,
        "rerolls": "0",
        "assistant_coaches": "0",
        "cheerleaders": "0",
    }
    for index in range(6):
        data[f"hire_counts-{index}"] = "0"
    for index in range(len(players)):
        data[f"recovery_dice-{index}"] = ""
    data.update(extra)
    return data


def test_hires_and_table_dice_on_the_page(client: FlaskClient) -> None:
    reavers, hurt = _injured(table_dice=True)
    login(client, "coach")
    page = client.get(f"/teams/{reavers.id}/redraft").text
    assert f'data-testid="recovery-{hurt.id}"' in page
    assert 'name="hire_counts-4"' in page
    assert "Human Blitzer" in page
    players = sorted(p.id for p in db.session.get(Team, reavers.id).players)

    # BB2025 Humans: 0-2 Blitzers.
    refused = client.post(
        f"/teams/{reavers.id}/redraft", data=_form(players, **{f"hire_counts-{BLITZERS}": "3"})
    )
    assert refused.status_code == 422
    assert field_errors(refused.text, "hires") == [
        "Reavers already has 2 Human Blitzers; the roster allows 2."
    ]
    bad_dice = client.post(
        f"/teams/{reavers.id}/redraft", data=_form(players, **{"recovery_dice-0": "7"})
    )
    assert bad_dice.status_code == 422
    assert "D6 results, 1 to 6." in text_of(bad_dice.text)

    response = client.post(
        f"/teams/{reavers.id}/redraft",
        data=_form(players, **{f"hire_counts-{BLITZERS}": "2", "recovery_dice-0": "4"}),
    )
    assert response.status_code == 302, field_errors(response.text, "keep")
    html = client.get(response.headers["Location"]).text
    page = text_of(html)
    # Kept: 11 x (50,000 + a season's agent's fee of 20,000: all on the roster through
    # Season 1) = 770,000; 2 Blitzers x 85,000 = 170,000: 940,000 chosen of 1,300,000 (capped).
    assert "<span data-redraft-spent>940,000</span>" in html
    assert "left for the treasury: <span data-redraft-left>360,000</span>." in html
    assert "4 (table dice)" in page

    login(client, "comm")
    client.post(f"/teams/{reavers.id}/redraft/approve", data={"confirmed": "yes"})
    db.session.expire_all()
    assert db.session.get(Player, hurt.id).niggling_injuries == 0  # 4 heals on 4+
    team = db.session.get(Team, reavers.id)
    assert sorted(p.position_id for p in team.players if p.number > 11) == ["human-blitzer"] * 2
    assert team.treasury == 360_000
    rows = db.session.query(TreasuryEntry).filter_by(team_id=team.id, kind="redraft")
    assert [e.amount for e in rows.order_by(TreasuryEntry.id)][1:] == [-770_000, -170_000]
    page = text_of(client.get(f"/teams/{reavers.id}/redraft").text)
    assert "rolled 4 (table dice): 1 niggling injury healed." in page


def test_the_apothecary_bonus_shows_beside_the_die(client: FlaskClient) -> None:
    reavers, hurt = _injured(table_dice=True)
    login(client, "coach")
    players = sorted(p.id for p in db.session.get(Team, reavers.id).players)
    response = client.post(
        f"/teams/{reavers.id}/redraft",
        data=_form(players, apothecary="y", **{"recovery_dice-0": "3"}),
    )
    assert response.status_code == 302, field_errors(response.text, "keep")
    page = client.get(response.headers["Location"]).text
    # BB2025 re-draft: a niggling injury heals on 4+, +1 with an apothecary: 3 + 1 = 4 heals.
    shown = re.search(rf'data-testid="recovery-dice-{hurt.id}">(.*?)</span>', page)[1]
    assert shown == "3 + 1 (apothecary) = 4"
    login(client, "comm")
    client.post(f"/teams/{reavers.id}/redraft/approve", data={"confirmed": "yes"})
    page = text_of(client.get(f"/teams/{reavers.id}/redraft").text)
    assert "rolled 3 + 1 (apothecary) = 4 (table dice): 1 niggling injury healed." in page


def test_server_dice_where_the_league_has_no_table_dice(client: FlaskClient) -> None:
    reavers, hurt = _injured(table_dice=False)
    login(client, "coach")
    page = client.get(f"/teams/{reavers.id}/redraft").text
    assert f'data-testid="recovery-{hurt.id}"' in page
    assert "Rolled by the server when submitted." in text_of(page)
    assert 'name="recovery_dice-0"' not in page
    players = sorted(p.id for p in db.session.get(Team, reavers.id).players)
    data = _form(players)
    data = {k: v for k, v in data.items() if not k.startswith("recovery_dice")}
    response = client.post(f"/teams/{reavers.id}/redraft", data=data)
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).text
    assert "(server dice)" in text_of(page)


def test_approving_before_a_season_closed_is_refused_not_a_server_error(
    client: FlaskClient,
) -> None:
    """The approve button's POST, sent while the league has no closed season: the same
    refusal the re-draft page gives (back to the team, the reason flashed), nothing changed."""
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    treasury = db.session.get(Team, reavers.id).treasury
    login(client, "comm")
    response = client.post(f"/teams/{reavers.id}/redraft/approve", data={"confirmed": "yes"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/teams/{reavers.id}"
    page = text_of(client.get(response.headers["Location"]).text)
    assert f"{league.name} has not closed a season yet: nothing to re-draft." in page
    db.session.expire_all()
    assert db.session.get(Team, reavers.id).treasury == treasury
