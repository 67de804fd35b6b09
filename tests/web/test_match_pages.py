"""Match pages through the test client: schedule, report (draft, finalise), show, correct, void."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Match, MatchPlayer, Player, Team, TreasuryEntry
from league.services import advancement, matches
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import field_errors, flashes, form_errors, login, text_of

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2), ("human-blitzer", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))
# After the draft: 1,000,000 - (7 x 50,000 + 2 x 75,000 + 2 x 75,000 + 2 x 85,000).
HUMANS_TREASURY = 180_000
# 1,000,000 - (7 x 50,000 + 2 x 75,000 + 2 x 85,000).
ORCS_TREASURY = 330_000

# ---------------------------------------------------------------------------
# Helpers: read the pages the way a person does


def input_tag(page: str, name: str) -> str:
    found = re.search(rf'<(?:input|select)[^>]*\bname="{re.escape(name)}"[^>]*>', page)
    assert found is not None, f"no field {name}"
    return found.group(0)


def input_value(page: str, name: str) -> str | None:
    value = re.search(r'\bvalue="([^"]*)"', input_tag(page, name))
    return html.unescape(value.group(1)) if value else None


def selected(page: str, name: str) -> str:
    start = page.index(f'name="{name}"')
    block = page[start : page.index("</select>", start)]
    found = re.search(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', block)
    assert found is not None, f"nothing selected in {name}"
    return found.group(1) or found.group(2)


def player_row(page: str, player: Player) -> str:
    start = page.index(f'id="player-{player.id}"')
    return page[page.rindex("<details", 0, start) : page.index("</details>", start)]


def token(page: str) -> str:
    return input_value(page, "token") or ""


def roster_row(page: str, player: Player) -> list[str]:
    """A player's row of the team page's roster table."""
    block = page[page.index('<table class="roster">') :]
    block = block[: block.index("</table>")]
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", block, re.S):
        if f'href="/players/{player.id}"' in row:
            return [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    raise AssertionError(f"{player.name} is not on the roster")


def spp_cell(cells: list[str]) -> str:
    """'available / earned' from a roster row."""
    return next(cell for cell in cells if re.fullmatch(r"\d+ / \d+", cell))


def match_lines(page: str, side: str) -> dict[str, list[str]]:
    """The match page's player lines of one side: '#3 Name' -> [events, injury, SPP]."""
    start = page.index(f'id="{side}-result"')
    block = page[start : page.index("</section>", start)]
    lines = {}
    for row in re.findall(r"<tr>(.*?)</tr>", block, re.S):
        cells = [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells:
            lines[f"{side} {cells[0]}"] = cells[1:]
    return lines


def fact(page: str, label: str) -> str:
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd[^>]*>(.*?)</dd>", page, re.S)
    assert found is not None, label
    return text_of(found.group(1))


# ---------------------------------------------------------------------------
# Data


class World:
    """A BB2025 league: humans (anna) v orcs (bram), a third team (carl), a commissioner."""

    def __init__(self) -> None:
        self.commissioner = make_user("commish")
        self.anna, self.bram, self.carl = make_user("anna"), make_user("bram"), make_user("carl")
        self.stranger = make_user("stranger")
        self.league: League = make_league(
            self.commissioner, "bb2025", self.anna, self.bram, self.carl
        )
        self.humans: Team = make_active_team(self.anna, self.league, "human", "Reavers", HUMANS)
        self.orcs: Team = make_active_team(self.bram, self.league, "orc", "Gouged Eye", ORCS)
        self.others: Team = make_active_team(self.carl, self.league, "orc", "Da Others", ORCS)

    def player(self, team: Team, position_id: str, index: int = 0) -> Player:
        return [p for p in team.players if p.position_id == position_id][index]


@pytest.fixture
def world(app) -> World:
    return World()


def schedule(client: FlaskClient, world: World, **extra: str) -> int:
    """As the logged-in commissioner: a new match, humans at home; returns its id."""
    response = client.post(
        f"/leagues/{world.league.id}/matches/new",
        data={"home_team": world.humans.id, "away_team": world.orcs.id, **extra},
    )
    assert response.status_code == 302, response.text
    found = re.fullmatch(r"/matches/(\d+)/report", response.location)
    assert found is not None, response.location
    return int(found.group(1))


def report_data(page: str, **fields: object) -> dict[str, str]:
    """What the form sends untouched (its token, both fan selects), plus `fields`."""
    data = {
        "token": token(page),
        "home_score": "0",
        "away_score": "0",
        "home_fans_change": "0",
        "away_fans_change": "0",
        "home_mistake_d6": "6",  # 6: crisis averted below 600,000 gold
        "away_mistake_d6": "6",
    }
    data.update({key: str(value) for key, value in fields.items()})
    return data


def finalise(client: FlaskClient, match_id: int, **fields: object):
    """Send the report; the touchdowns `fields` leave out go to each team's first player
    (every touchdown is some player's: the score must be the players' touchdowns)."""
    page = client.get(f"/matches/{match_id}/report").text
    data = report_data(page, **fields)
    match = match_row(match_id)
    for side in ("home", "away"):
        players = match.side(side).team.players
        if not data[f"{side}_score"].isdigit():
            continue  # a damaged score: the form refuses it anyway
        given = sum(int(data.get(f"p{p.id}_td") or 0) for p in players)
        missing = int(data[f"{side}_score"]) - given
        if missing > 0:
            first = min((p for p in players if p.status == "active"), key=lambda p: p.number)
            data[f"p{first.id}_td"] = str(int(data.get(f"p{first.id}_td") or 0) + missing)
    return client.post(f"/matches/{match_id}/report", data={**data, "finalise": "Finalise result"})


def match_row(match_id: int) -> Match:
    db.session.expire_all()
    match = db.session.get(Match, match_id)
    assert match is not None
    return match


def events_stored() -> int:
    return db.session.scalar(select(func.count()).select_from(MatchPlayer)) or 0


# ---------------------------------------------------------------------------
# Full entry


def test_full_result_updates_the_team_pages(client: FlaskClient, world: World) -> None:
    thrower = world.player(world.humans, "human-thrower")
    catcher = world.player(world.humans, "human-catcher")
    blitzer = world.player(world.orcs, "orc-blitzer")
    victim = world.player(world.orcs, "orc-lineman")
    login(client, "commish")
    match_id = schedule(client, world)

    form = client.get(f"/matches/{match_id}/report").text
    assert "<h1>Match report</h1>" in form
    assert 'value="Save draft"' in form
    assert 'value="Finalise result"' in form
    # BB2025 pays SPP for throw completions and safe landings, not for deflections.
    assert f'name="p{thrower.id}_throw_completion"' in form
    assert f'name="p{thrower.id}_safe_landing"' in form
    assert f'name="p{thrower.id}_deflection"' not in form
    # Player rows are collapsed; every counter starts at 0.
    assert "<details" in player_row(form, catcher)
    assert " open" not in player_row(form, catcher).split(">")[0]
    assert input_value(form, f"p{catcher.id}_td") == "0"
    # The injury select offers the casualty table, dead included.
    assert '<option value="dead">Dead (dead)</option>' in player_row(form, victim)
    assert 'value="lasting_injury"' in player_row(form, victim)

    response = client.post(
        f"/matches/{match_id}/report",
        data={
            **report_data(
                form,
                home_score=2,
                away_score=1,
                fan_attendance=9,
                home_fans_change=1,
                **{
                    f"p{thrower.id}_comp": 2,  # 2 x 1
                    f"p{thrower.id}_mvp": "y",  # + 4 = 6
                    f"p{catcher.id}_td": 2,  # 2 x 3
                    f"p{catcher.id}_interceptions": 1,  # + 2 = 8
                    f"p{blitzer.id}_td": 1,  # Brawlin' Brutes: 2
                    f"p{blitzer.id}_cas": 2,  # + 2 x 3 = 8
                    f"p{victim.id}_injury": "lasting_injury",
                    f"p{victim.id}_lasting": "av",
                },
            ),
            "finalise": "Finalise result",
        },
    )
    assert response.status_code == 302, response.text
    assert response.location == f"/matches/{match_id}"

    page = client.get(response.location).text
    assert flashes(page) == ["Result recorded: Reavers 2\u20131 Gouged Eye."]
    assert text_of(re.search(r'data-testid="score">(.*?)</p>', page, re.S)[1]) == "2 \u2013 1"
    # BB2025 winnings (RULES-FACTS 6b): (9 / 2 + own TDs + 1 as nobody stalled) x 10,000,
    # the half kept: (4.5 + 2 + 1) x 10,000.
    assert fact(page, "Winnings") == "75,000"
    assert "fan attendance 9 / 2: 4.5 + 2 TD: 2 + no stalling: 1" in page
    assert "#4 Player 4" not in page  # no events, no line
    shown = {**match_lines(page, "home"), **match_lines(page, "away")}
    assert shown[f"home #{thrower.number} {thrower.name}"] == ["2 COMP, MVP", "", "6"]
    assert shown[f"home #{catcher.number} {catcher.name}"] == ["2 TD, 1 INT", "", "8"]
    assert shown[f"away #{blitzer.number} {blitzer.name}"] == ["1 TD, 2 CAS", "", "8"]
    assert shown[f"away #{victim.number} {victim.name}"] == [
        "\u2014",
        "Lasting Injury (\u22121 AV)",
        "0",
    ]
    assert "Correct result" in page
    assert "Void" in page

    humans = client.get(f"/teams/{world.humans.id}").text
    assert spp_cell(roster_row(humans, thrower)) == "6 / 6"
    assert spp_cell(roster_row(humans, catcher)) == "8 / 8"
    assert fact(humans, "Treasury") == f"{HUMANS_TREASURY + 75_000:,}"
    assert fact(humans, "Dedicated fans") == "2"
    orcs = client.get(f"/teams/{world.orcs.id}").text
    assert spp_cell(roster_row(orcs, blitzer)) == "8 / 8"
    assert any("MNG" in cell for cell in roster_row(orcs, victim))
    # Winnings (4.5 + 1 + 1) x 10,000; a loss leaves the fans where they were.
    assert fact(orcs, "Treasury") == f"{ORCS_TREASURY + 65_000:,}"
    assert fact(orcs, "Dedicated fans") == "1"

    # The next match: the injured orc misses it, his row is disabled and says why.
    next_id = schedule(client, world)
    form = client.get(f"/matches/{next_id}/report").text
    row = player_row(form, victim)
    assert "is-missing" in row
    assert "Misses this match: injured in the previous one." in row
    assert "disabled" in input_tag(row, f"p{victim.id}_td")


def test_winnings_entered_directly_and_concession(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    match_id = schedule(client, world, friendly="y")
    response = finalise(
        client,
        match_id,
        home_score=1,
        concession="away",
        home_winnings=40_000,
        fan_attendance=12,
        home_fans_change=1,
        away_fans_change=0,
    )
    assert response.status_code == 302, response.text
    match = match_row(match_id)
    assert match.friendly
    assert (match.home.winnings, match.away.winnings) == (40_000, 0)
    assert match.away.conceded
    page = client.get(f"/matches/{match_id}").text
    assert "Gouged Eye conceded." in page
    assert "Friendly" in page


def test_a_concession_costs_d3_fans_rolled_as_the_league_says(
    client: FlaskClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # BB2025 (RULES-FACTS 6b): a conceding team loses D3 Dedicated Fans, never below 1.
    login(client, "commish")
    match_id = schedule(client, world)
    form = client.get(f"/matches/{match_id}/report").text
    # Server dice: the report says so, and offers no loss above one to enter.
    assert "A team that concedes loses D3 Dedicated Fans, rolled by the server: leave 0." in form
    assert 'value="-2"' not in form
    monkeypatch.setattr(matches, "roll", lambda dice, randint: 2)
    response = finalise(client, match_id, away_score=1, concession="away", fan_attendance=7)
    assert response.status_code == 302, response.text
    page = client.get(f"/matches/{match_id}").text
    # The Orcs had 1 fan: a 2 on the D3 takes none. The Humans' winnings: the whole
    # attendance, no touchdown, no stalling bonus: 7 x 10,000.
    assert "D3 rolled by the server: 2" in page
    assert match_row(match_id).away.fans_change == 0
    assert match_row(match_id).home.winnings == 70_000
    assert "fan attendance 7: 7" in page
    # A correction keeps the server's roll: the form offers the loss back as 0.
    form = client.get(f"/matches/{match_id}/report").text
    away_fans = re.search(r'<select[^>]*name="away_fans_change".*?</select>', form, re.S)
    assert away_fans is not None
    assert re.search(r'<option selected value="0">', away_fans.group(0)), away_fans.group(0)
    response = finalise(client, match_id, away_score=2, concession="away", fan_attendance=7)
    assert response.status_code == 302, response.text
    assert match_row(match_id).away.concession_fans_roll == 2

    # Where the league lets coaches enter table dice, the loss rolled at the table is offered.
    db.session.get(League, world.league.id).table_dice_allowed = True  # type: ignore[union-attr]
    db.session.commit()
    form = client.get(f"/matches/{schedule(client, world)}/report").text
    assert "choose the loss rolled at the table, or 0 and the server rolls it." in form
    assert 'value="-3"' in form


# ---------------------------------------------------------------------------
# Errors


def test_report_errors_are_shown_next_to_their_fields(client: FlaskClient, world: World) -> None:
    catcher = world.player(world.humans, "human-catcher")
    thrower = world.player(world.humans, "human-thrower")
    outsider = world.player(world.others, "orc-blitzer")
    login(client, "commish")
    match_id = schedule(client, world)
    form = client.get(f"/matches/{match_id}/report").text
    response = client.post(
        f"/matches/{match_id}/report",
        data={
            **report_data(
                form,
                home_score=1,
                away_score=0,
                away_fans_change=1,  # fans rise only after a win
                **{
                    f"p{catcher.id}_td": 2,  # more touchdowns than the score
                    f"p{catcher.id}_mvp": "y",
                    f"p{thrower.id}_mvp": "y",  # two MVPs
                    f"p{outsider.id}_td": 1,  # forged: a player of another team
                },
            ),
            "finalise": "Finalise result",
        },
    )
    assert response.status_code == 400
    page = response.text
    # (The service's wording may change; each message sits next to its own field.)
    [score_error] = field_errors(page, "home_score")
    assert "scored 2 touchdowns but the score says 1" in score_error
    [mvp_error] = field_errors(page, "home_mvp")
    assert "2 MVPs" in mvp_error
    [fans_error] = field_errors(page, "away_fans_change")
    assert "only rise after a win" in fans_error
    [forged_error] = form_errors(page)
    assert f"Player {outsider.id} plays for neither team" in forged_error
    # What was typed is still there, the token too (the form can be sent again).
    assert input_value(page, f"p{catcher.id}_td") == "2"
    assert input_value(page, "token") == token(form)
    assert selected(page, "away_fans_change") == "1"
    # Nothing stored.
    match = match_row(match_id)
    assert match.state == "scheduled"
    assert match.idempotency_key is None
    assert events_stored() == 0
    assert db.session.get(Player, catcher.id).spp_earned == 0


def test_a_score_the_touchdowns_do_not_make_is_refused_on_the_form(
    client: FlaskClient, world: World
) -> None:
    """5-0 with one touchdown entered: the message sits under the home score, nothing is
    stored (the winnings would otherwise pay for five)."""
    catcher = world.player(world.humans, "human-catcher")
    login(client, "commish")
    match_id = schedule(client, world)
    form = client.get(f"/matches/{match_id}/report").text
    response = client.post(
        f"/matches/{match_id}/report",
        data={
            **report_data(form, home_score=5, away_score=0, **{f"p{catcher.id}_td": 1}),
            "finalise": "Finalise result",
        },
    )
    assert response.status_code == 400
    assert field_errors(response.text, "home_score") == [
        "The players of Reavers scored 1 touchdown but the score says 5."
    ]
    assert field_errors(response.text, "away_score") == []
    assert match_row(match_id).state == "scheduled"
    assert events_stored() == 0


def test_player_row_errors_and_negative_counters(client: FlaskClient, world: World) -> None:
    catcher = world.player(world.humans, "human-catcher")
    blitzer = world.player(world.humans, "human-blitzer")
    login(client, "commish")
    match_id = schedule(client, world)

    response = finalise(client, match_id, **{f"p{catcher.id}_cas": -1})
    assert response.status_code == 400
    row = player_row(response.text, catcher)
    assert " open" in row.split(">")[0]  # the row with the error is open
    assert field_errors(row, f"p{catcher.id}_cas") == ["Enter 0 to 99."]
    assert 'aria-invalid="true"' in input_tag(row, f"p{catcher.id}_cas")
    assert " open" not in player_row(response.text, blitzer).split(">")[0]

    # A lasting injury needs the characteristic it hits: the service says so on the row.
    response = finalise(client, match_id, **{f"p{blitzer.id}_injury": "lasting_injury"})
    assert response.status_code == 400
    [row_error] = field_errors(response.text, f"player_{blitzer.id}")
    assert "characteristic" in row_error
    assert match_row(match_id).state == "scheduled"
    assert events_stored() == 0


def test_a_damaged_form_says_so(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    match_id = schedule(client, world)
    response = finalise(client, match_id, token="x" * 100, home_score="lots")
    assert response.status_code == 400
    assert form_errors(response.text) == [
        "This form is damaged; reload the page and enter it again."
    ]
    assert field_errors(response.text, "home_score") == ["Not a valid integer value."]
    assert match_row(match_id).state == "scheduled"


# ---------------------------------------------------------------------------
# Drafts


def test_a_coach_saves_a_draft_and_only_a_commissioner_finalises(
    client: FlaskClient, world: World
) -> None:
    catcher = world.player(world.humans, "human-catcher")
    login(client, "commish")
    match_id = schedule(client, world)
    client.post("/logout")

    login(client, "bram")  # the away coach
    form = client.get(f"/matches/{match_id}/report").text
    assert 'value="Save draft"' in form
    assert "Finalise result" not in form
    typed = report_data(
        form, home_score=1, fan_attendance=7, **{f"p{catcher.id}_td": 1, f"p{catcher.id}_mvp": "y"}
    )
    response = client.post(
        f"/matches/{match_id}/report", data={**typed, "save_draft": "Save draft"}
    )
    assert response.status_code == 302
    assert response.location == f"/matches/{match_id}/report"
    match = match_row(match_id)
    assert match.state == "draft"
    assert match.draft_report is not None
    assert match.draft_report[f"p{catcher.id}_td"] == "1"
    assert "token" not in match.draft_report

    page = client.get(response.location).text
    assert flashes(page) == [
        "Draft saved. Nothing counts until a commissioner finalises the result."
    ]
    assert input_value(page, "home_score") == "1"
    assert input_value(page, "fan_attendance") == "7"
    assert input_value(page, f"p{catcher.id}_td") == "1"
    assert "checked" in input_tag(page, f"p{catcher.id}_mvp")
    assert "1 TD \u00b7 MVP" in player_row(page, catcher)  # the collapsed row says what is in it

    # A coach cannot finalise, even with a forged button.
    response = client.post(
        f"/matches/{match_id}/report", data={**typed, "finalise": "Finalise result"}
    )
    assert response.status_code == 403
    assert match_row(match_id).state == "draft"
    assert events_stored() == 0
    client.post("/logout")

    # The commissioner finds the draft in the form and finalises it.
    login(client, "commish")
    page = client.get(f"/matches/{match_id}/report").text
    assert input_value(page, f"p{catcher.id}_td") == "1"
    response = client.post(
        f"/matches/{match_id}/report",
        data={**report_data(page, home_score=1, **{f"p{catcher.id}_td": 1}), "finalise": "x"},
    )
    assert response.status_code == 302
    match = match_row(match_id)
    assert (match.state, match.draft_report) == ("played", None)
    assert db.session.get(Player, catcher.id).spp_earned == 3


# ---------------------------------------------------------------------------
# Idempotency, correction, voiding


def test_a_form_sent_twice_records_once(client: FlaskClient, world: World) -> None:
    catcher = world.player(world.humans, "human-catcher")
    login(client, "commish")
    match_id = schedule(client, world)
    page = client.get(f"/matches/{match_id}/report").text
    data = {
        **report_data(page, home_score=1, home_winnings=50_000, **{f"p{catcher.id}_td": 1}),
        "finalise": "Finalise result",
    }
    first = client.post(f"/matches/{match_id}/report", data=data)
    second = client.post(f"/matches/{match_id}/report", data=data)
    assert first.status_code == second.status_code == 302
    assert first.location == second.location == f"/matches/{match_id}"
    assert flashes(client.get(second.location).text) == [
        "Result recorded: Reavers 1\u20130 Gouged Eye.",
        "This result was already recorded; the form was sent twice.",
    ]
    assert db.session.scalar(select(func.count()).select_from(Match)) == 1
    assert events_stored() == 1
    db.session.expire_all()
    assert db.session.get(Player, catcher.id).spp_earned == 3
    winnings = db.session.scalars(
        select(TreasuryEntry.amount).where(TreasuryEntry.match_id == match_id)
    ).all()
    assert winnings == [50_000]
    assert db.session.get(Team, world.humans.id).treasury == HUMANS_TREASURY + 50_000


def test_correct_then_void_a_result(client: FlaskClient, world: World) -> None:
    catcher = world.player(world.humans, "human-catcher")
    victim = world.player(world.orcs, "orc-lineman")
    login(client, "commish")
    match_id = schedule(client, world)
    finalise(
        client,
        match_id,
        home_score=1,
        home_winnings=50_000,
        away_winnings=30_000,
        **{f"p{catcher.id}_td": 1, f"p{victim.id}_injury": "dead"},
    )
    assert db.session.get(Player, victim.id).status == "dead"

    # The correction form starts from the stored result; a dead player keeps his row.
    form = client.get(f"/matches/{match_id}/report").text
    assert "<h1>Correct the result</h1>" in form
    assert 'value="Save draft"' not in form
    assert 'value="Save correction"' in form
    assert input_value(form, "home_score") == "1"
    assert input_value(form, "home_winnings") == "50000"
    assert input_value(form, f"p{catcher.id}_td") == "1"
    assert selected(form, f"p{victim.id}_injury") == "dead"
    response = client.post(
        f"/matches/{match_id}/report",
        data={
            **report_data(
                form,
                home_score=2,
                home_winnings=60_000,
                away_winnings=30_000,
                **{f"p{catcher.id}_td": 2, f"p{victim.id}_injury": "badly_hurt"},
            ),
            "finalise": "Save correction",
        },
    )
    assert response.status_code == 302, response.text
    page = client.get(response.location).text
    assert flashes(page) == ["Result corrected: Reavers 2\u20130 Gouged Eye."]
    db.session.expire_all()
    assert db.session.get(Player, catcher.id).spp_earned == 6
    assert db.session.get(Player, victim.id).status == "active"
    humans = client.get(f"/teams/{world.humans.id}").text
    assert fact(humans, "Treasury") == f"{HUMANS_TREASURY + 60_000:,}"
    assert spp_cell(roster_row(humans, catcher)) == "6 / 6"

    # Void: a confirmation page first, then everything is undone.
    confirm = client.get(f"/matches/{match_id}/void")
    assert confirm.status_code == 200
    assert "the SPP players earned in it are taken back" in confirm.text
    response = client.post(f"/matches/{match_id}/void")
    assert response.location == f"/matches/{match_id}"
    page = client.get(response.location).text
    assert flashes(page) == ["The match is voided; everything its result caused is undone."]
    assert "This match was voided" in page
    assert "Correct result" not in page
    assert match_row(match_id).state == "voided"
    assert db.session.get(Player, catcher.id).spp_earned == 0
    humans = client.get(f"/teams/{world.humans.id}").text
    assert fact(humans, "Treasury") == f"{HUMANS_TREASURY:,}"
    # A voided match's report form is closed.
    response = client.get(f"/matches/{match_id}/report")
    assert response.status_code == 302
    assert response.location == f"/matches/{match_id}"


def test_void_refused_when_spp_was_spent(client: FlaskClient, world: World) -> None:
    catcher = world.player(world.humans, "human-catcher")
    login(client, "commish")
    match_id = schedule(client, world)
    finalise(client, match_id, home_score=2, **{f"p{catcher.id}_td": 2})
    client.get(f"/matches/{match_id}")  # (shows the "Result recorded" message)
    # The coach spends the 6 SPP of the two touchdowns on Block.
    coach = db.session.get(Team, world.humans.id).coach
    with unit_of_work() as session:
        advancement.buy_advancement(
            session, coach, catcher.id, advancement.AdvancementRequest("chosen_primary", "Block")
        )

    response = client.post(f"/matches/{match_id}/void")
    assert response.location == f"/matches/{match_id}"
    page = client.get(response.location).text
    [message] = flashes(page)
    assert message.startswith("Nothing changed: ")
    assert "already spent 6 SPP" in message
    assert "undo Block (6 SPP) first" in message  # names what to undo
    assert match_row(match_id).state == "played"
    assert db.session.get(Player, catcher.id).spp_earned == 6


# ---------------------------------------------------------------------------
# Scheduling and permissions


def test_new_match_form(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    page = client.get(f"/leagues/{world.league.id}/matches/new").text
    assert "Da Others" in page
    response = client.post(
        f"/leagues/{world.league.id}/matches/new",
        data={"home_team": world.humans.id, "away_team": world.humans.id},
    )
    assert response.status_code == 200
    assert field_errors(response.text, "away_team") == ["A team cannot play itself."]
    assert db.session.scalar(select(func.count()).select_from(Match)) == 0

    match_id = schedule(client, world)
    page = client.get(f"/matches/{match_id}").text
    assert "Not played yet." in page
    assert "Enter the result" in page


def test_permissions(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    match_id = schedule(client, world)
    finalise(client, match_id, home_score=1)
    open_id = schedule(client, world)
    client.post("/logout")

    # Anonymous: the result is public, everything else asks to log in.
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    assert "Correct result" not in page.text
    assert "/void" not in page.text
    for url in (
        f"/matches/{open_id}/report",
        f"/matches/{match_id}/void",
        f"/leagues/{world.league.id}/matches/new",
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response.location.startswith("/login?next=")
    assert client.post(f"/matches/{open_id}/report", data={}).status_code == 302

    # A stranger, and a coach whose team does not play: 403.
    for username in ("stranger", "carl"):
        login(client, username)
        assert client.get(f"/matches/{open_id}/report").status_code == 403
        response = client.post(
            f"/matches/{open_id}/report", data={"home_score": "1", "save_draft": "Save draft"}
        )
        assert response.status_code == 403
        assert client.get(f"/matches/{match_id}/void").status_code == 403
        assert client.post(f"/matches/{match_id}/void").status_code == 403
        assert client.get(f"/leagues/{world.league.id}/matches/new").status_code == 403
        client.post("/logout")
    assert match_row(open_id).state == "scheduled"
    assert match_row(match_id).state == "played"

    # A coach of a playing team: reports the open match, cannot correct the played one.
    login(client, "anna")
    assert client.get(f"/matches/{open_id}/report").status_code == 200
    assert client.get(f"/matches/{match_id}/report").status_code == 403
    page = client.get(f"/matches/{match_id}").text
    assert "Correct result" not in page
    assert client.get("/matches/999").status_code == 404


# ---------------------------------------------------------------------------
# What the form offers depends on the league's ruleset


@pytest.mark.parametrize(
    ("ruleset_id", "lineman", "thrower", "offered", "not_offered"),
    [
        (
            "bb2020",
            "human-lineman",
            "thrower",
            ["deflection", "throw_completion", "lasting", "fan_attendance", "home_mistake_d6"],
            ["safe_landing", "home_stalled", "home_winnings_d6"],
        ),
        (
            "classic",
            "lineman",
            "thrower",
            # Classic D68 lasting results each name their characteristic: pick which one.
            ["home_winnings_d6", "home_fame", "lasting"],
            [
                "deflection",
                "throw_completion",
                "safe_landing",
                "fan_attendance",
                "home_mistake_d6",
            ],
        ),
    ],
)
def test_fields_follow_the_ruleset(
    client: FlaskClient,
    app,
    ruleset_id: str,
    lineman: str,
    thrower: str,
    offered: list[str],
    not_offered: list[str],
) -> None:
    commissioner, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commissioner, ruleset_id, anna, bram)
    hires = ((lineman, 9), (thrower, 2))
    humans = make_active_team(anna, league, "human", "Reavers", hires)
    others = make_active_team(bram, league, "human", "Altdorf", hires)
    player = next(p for p in humans.players if p.position_id == thrower)
    login(client, "commish")
    response = client.post(
        f"/leagues/{league.id}/matches/new", data={"home_team": humans.id, "away_team": others.id}
    )
    page = client.get(response.location).text
    names = set(re.findall(r'\bname="([^"]+)"', page))
    for name in offered:
        assert {name, f"p{player.id}_{name}"} & names, name
    for name in not_offered:
        assert not {name, f"p{player.id}_{name}"} & names, name
    # Every casualty code is offered once, dead included.
    start = page.index(f'name="p{player.id}_injury"')
    injury_select = page[start : page.index("</select>", start)]
    assert re.findall(r'<option[^>]*value="(\w*)"', injury_select) == [
        "",
        "badly_hurt",
        "seriously_hurt",
        "serious_injury",
        "lasting_injury",
        "dead",
    ]

    if ruleset_id == "classic":
        # (D6 + FAME + 1 for the win) x 10,000; the loser's D6 alone.
        data = {
            **report_data(page, home_score=1, home_winnings_d6=4, home_fame=1, away_winnings_d6=2),
            f"p{player.id}_td": "1",
            "finalise": "Finalise result",
        }
        response = client.post(response.location, data=data)
        assert response.status_code == 302, response.text
        match = match_row(int(response.location.rsplit("/", 1)[1]))
        assert (match.home.winnings, match.away.winnings) == (60_000, 20_000)


# ---------------------------------------------------------------------------
# Corrections work out what was computed; the match page shows the working


def form_as_sent(page: str) -> dict[str, str]:
    """What the browser sends for the report form untouched: every prefilled value."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'\bname="([^"]+)"', tag)
        value = re.search(r'\bvalue="([^"]*)"', tag)
        if name is None or 'type="submit"' in tag:
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name.group(1)] = value.group(1) if value else "y"
        elif value is not None:
            data[name.group(1)] = html.unescape(value.group(1))
    for name in re.findall(r'<select[^>]*\bname="([^"]+)"', page):
        data[name] = selected(page, name)
    return data


def test_a_correction_works_out_computed_winnings_again(client: FlaskClient, world: World) -> None:
    login(client, "commish")
    match_id = schedule(client, world)
    assert (
        finalise(client, match_id, home_score=2, away_score=1, fan_attendance=6).status_code == 302
    )
    # BB2025: (6 / 2 + 2 TD + 1 for not stalling) x 10,000 and (6 / 2 + 1 TD + 1) x 10,000.
    match = match_row(match_id)
    assert (match.home.winnings, match.away.winnings) == (60_000, 50_000)

    form = client.get(f"/matches/{match_id}/report").text
    assert input_value(form, "fan_attendance") == "6"
    # Computed winnings are not put in the form as if they had been typed.
    assert not input_value(form, "home_winnings")
    assert not input_value(form, "away_winnings")
    assert not input_value(form, "home_mistake_d6")  # the dice of record stay
    data = {**form_as_sent(form), "fan_attendance": "8", "finalise": "Save correction"}
    response = client.post(f"/matches/{match_id}/report", data=data)
    assert response.status_code == 302, response.text
    # (8 / 2 + 2 + 1) x 10,000 and (8 / 2 + 1 + 1) x 10,000.
    match = match_row(match_id)
    assert (match.home.winnings, match.away.winnings) == (70_000, 60_000)
    humans = client.get(f"/teams/{world.humans.id}").text
    assert fact(humans, "Treasury") == f"{HUMANS_TREASURY + 70_000:,}"

    # Typed winnings stay typed through the next correction.
    form = client.get(f"/matches/{match_id}/report").text
    data = {**form_as_sent(form), "away_winnings": "45000", "finalise": "Save correction"}
    assert client.post(f"/matches/{match_id}/report", data=data).status_code == 302
    form = client.get(f"/matches/{match_id}/report").text
    assert not input_value(form, "home_winnings")
    assert input_value(form, "away_winnings") == "45000"
    data = {**form_as_sent(form), "fan_attendance": "10", "finalise": "Save correction"}
    assert client.post(f"/matches/{match_id}/report", data=data).status_code == 302
    match = match_row(match_id)
    assert (match.home.winnings, match.away.winnings) == (80_000, 45_000)


def test_the_match_page_shows_the_dice_and_the_working(
    client: FlaskClient, world: World, monkeypatch
) -> None:
    rolls = [3, 4]  # the server's catastrophe 2D6
    monkeypatch.setattr(matches.random, "randint", lambda low, high: rolls.pop(0))
    login(client, "commish")
    match_id = schedule(client, world)
    response = finalise(
        client,
        match_id,
        home_score=2,
        away_score=1,
        fan_attendance=6,
        away_winnings=200_000,
        away_mistake_d6=1,
    )
    assert response.status_code == 302, response.text
    assert rolls == []
    page = client.get(f"/matches/{match_id}").text

    def shown(testid: str) -> str:
        found = re.search(rf'data-testid="{testid}">(.*?)</(?:dd|span)>', page, re.S)
        assert found is not None, testid
        return text_of(found.group(1))

    # BB2025 winnings: (6 / 2 + 2 TD + 1) x 10,000.
    assert shown("home-winnings-working") == (
        "(fan attendance 6 / 2: 3 + 2 TD: 2 + no stalling: 1) \u00d7 10,000"
    )
    assert shown("away-winnings-working") == "entered by hand"
    # Humans: 180,000 + 60,000 = 240,000, the 200,000 column; D6 6 (typed): crisis averted.
    assert shown("home-mistake-working") == (
        "treasury 240,000, read in the 200,000+ column; D6 6 (rolled at the table): "
        "Crisis averted, nothing lost"
    )
    # Orcs: 330,000 + 200,000 = 530,000, the 500,000 column; D6 1: catastrophe; the
    # server's 2D6 3 + 4 = 7 keeps 70,000, so 460,000 are lost.
    assert shown("away-mistake-working") == (
        "treasury 530,000, read in the 500,000+ column; D6 1 (rolled at the table): "
        "Catastrophe; 2D6 3 + 4 = 7 (rolled by the server) \u00d7 10,000 = 70,000 kept, "
        "the rest lost"
    )
    assert "Catastrophe: \u2212460,000" in text_of(page)
