"""Advancement pages: the player's panel, legal choices, confirmation, dice, undo.

Every number is worked out by hand from the rulesets (see tests/services/test_advancement.py):
a Human team of one Blitzer and ten Linemen is worth 85,000 + 10 x 50,000 = 585,000 in
BB2020/BB2025 and 90,000 + 10 x 50,000 = 590,000 in classic.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Advancement, League, Player, User
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_new_match
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import LEAGUE_FORM, field_errors, flashes, form_errors, login, text_of

MINUS = "\u2212"
ARROW = "\u2192"

# ---------------------------------------------------------------------------
# Helpers: read pages the way a person does


def radios(page: str) -> list[str]:
    """Values of the "choice" radio buttons, in page order."""
    return [html.unescape(v) for v in re.findall(r'name="choice" id="[^"]*" value="([^"]*)"', page)]


def skill_groups(page: str) -> dict[str, list[str]]:
    """Category legend -> skills offered, on a chosen-skill page."""
    groups = {}
    for legend, body in re.findall(
        r'<fieldset class="skill-group"[^>]*><legend>(.*?)</legend>(.*?)</fieldset>', page, re.S
    ):
        groups[text_of(legend)] = [
            html.unescape(v) for v in re.findall(r'name="choice" id="[^"]*" value="([^"]*)"', body)
        ]
    return groups


def why_not(page: str) -> list[str]:
    match = re.search(r'<details class="why-not">(.*?)</details>', page, re.S)
    assert match is not None, "no 'Why not these?'"
    assert "<summary>Why not these?</summary>" in match.group(1)
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", match.group(1), re.S)]


def summary(page: str) -> str:
    match = re.search(r'data-testid="advance-summary">(.*?)</p>', page, re.S)
    assert match is not None, text_of(page)[:2000]
    return text_of(match.group(1))


def rolled(page: str) -> str:
    match = re.search(r'data-testid="rolled">(.*?)</p>', page, re.S)
    assert match is not None, text_of(page)[:2000]
    return text_of(match.group(1))


def panel_rows(page: str) -> list[list[str]]:
    table = page[page.index('class="advancement-kinds"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return [
        [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def table_rows(page: str, table_class: str) -> list[list[str]]:
    table = page[page.index(f'class="{table_class}"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return [
        [text_of(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def history_rows(page: str) -> list[list[str]]:
    return table_rows(page, "advancement-history")


def by_testid(page: str, name: str) -> str:
    match = re.search(rf'data-testid="{name}">(.*?)</dd>', page, re.S)
    assert match is not None, name
    return text_of(match.group(1))


def roster_row(page: str, name: str) -> str:
    for row in re.findall(r"<tr>(.*?)</tr>", page, re.S):
        if f"><bdi>{name}</bdi></a>" in row:
            return row
    raise AssertionError(f"{name} is not on the roster")


def team_value(page: str) -> str:
    match = re.search(r'data-testid="team-value">(.*?)</dd>', page)
    assert match is not None
    return match.group(1)


class FixedDice:
    """Stands in for the server's random source: gives these dice, in order."""

    def __init__(self, *dice: int) -> None:
        self.dice = list(dice)

    def randint(self, low: int, high: int) -> int:
        die = self.dice.pop(0)  # an IndexError means the server rolled again: a test failure
        assert low <= die <= high
        return die


@pytest.fixture
def server_dice(monkeypatch: pytest.MonkeyPatch):
    """server_dice(1, 2, ...) makes the service's next rolls these dice."""

    def use(*dice: int) -> FixedDice:
        fixed = FixedDice(*dice)
        monkeypatch.setattr("league.services.advancement.random.SystemRandom", lambda: fixed)
        return fixed

    return use


# ---------------------------------------------------------------------------
# The world: a league, a team, Grim the Blitzer


@dataclass
class World:
    client: FlaskClient
    league: League
    grim: Player
    team_id: int

    def refresh(self) -> Player:
        db.session.expire_all()
        player = db.session.get(Player, self.grim.id)
        assert player is not None
        return player

    @property
    def base(self) -> str:
        return f"/players/{self.grim.id}"

    def choose(self, kind: str | None = None) -> str:
        response = self.client.get(f"{self.base}/advance" + (f"?kind={kind}" if kind else ""))
        assert response.status_code == 200, response.text
        return response.text

    def post(self, path: str, status: int = 200, **data: str) -> str:
        response = self.client.post(f"{self.base}/advance{path}", data=data)
        assert response.status_code == status, text_of(response.text)[:3000]
        return response.text

    def confirm(self, **data: str) -> str:
        """POST the confirmation; follow the redirect; return the page."""
        response = self.client.post(f"{self.base}/advance/confirm", data=data)
        assert response.status_code == 302, text_of(response.text)[:3000]
        return self.client.get(response.headers["Location"]).text

    def player_page(self) -> str:
        return self.client.get(self.base).text

    def team_page(self) -> str:
        return self.client.get(f"/teams/{self.team_id}").text


def make_world(
    client: FlaskClient,
    ruleset_id: str = "bb2025",
    *,
    spp: int = 0,
    table_dice: bool = True,
) -> World:
    commissioner, coach = make_user("comm"), make_user("coach")
    make_user("stranger")
    opponent = make_user("opponent")
    league = make_league(commissioner, ruleset_id, coach, opponent, table_dice_allowed=table_dice)
    classic = ruleset_id.startswith("classic")
    blitzer = "human-blitzer" if ruleset_id == "bb2025" else "blitzer"
    lineman = "lineman" if classic else "human-lineman"
    team = make_active_team(coach, league, "human", "Reavers", ((blitzer, 1), (lineman, 10)))
    grim = next(p for p in team.players if p.position_id == blitzer)
    grim.name = "Grim"
    grim.spp_earned = spp  # as if earned in matches
    db.session.commit()
    login(client, "coach")
    return World(client, league, grim, team.id)


def user(username: str) -> User:
    found = db.session.scalar(select(User).where(User.username == username))
    assert found is not None
    return found


# ---------------------------------------------------------------------------
# The panel


@pytest.mark.parametrize(
    ("ruleset_id", "spp", "facts", "rows"),
    [
        (
            "bb2025",
            10,
            ("10", "0 of 6", "Rookie", "Experienced with the next advancement"),
            [
                ["Random primary skill", "3", "+20,000 (elite skills +30,000)", "Choose"],
                ["Chosen primary skill", "6", "+20,000 (elite skills +30,000)", "Choose"],
                ["Chosen secondary skill", "10", "+40,000 (elite skills +50,000)", "Choose"],
                [
                    "Characteristic improvement",
                    "14",
                    "MA +20,000 · ST +60,000 · AG +30,000 · PA +20,000 · AV +10,000",
                    "needs 14 SPP, has 10",
                ],
            ],
        ),
        (
            "bb2020",
            10,
            ("10", "0 of 6", "Rookie", "Experienced with the next advancement"),
            [
                ["Random primary skill", "3", "+10,000", "Choose"],
                ["Chosen primary skill", "6", "+20,000", "Choose"],
                ["Random secondary skill", "6", "+20,000", "Choose"],
                ["Chosen secondary skill", "12", "+40,000", "needs 12 SPP, has 10"],
                [
                    "Characteristic improvement",
                    "18",
                    "MA +20,000 · ST +80,000 · AG +40,000 · PA +20,000 · AV +10,000",
                    "needs 18 SPP, has 10",
                ],
            ],
        ),
        (
            "classic-spend",
            10,
            ("10", "0 of 6", "Rookie", "Experienced with the next advancement"),
            [
                ["Random primary skill", "3", "+20,000", "Choose"],
                ["Chosen primary skill", "6", "+20,000", "Choose"],
                ["Random secondary skill", "6", "+30,000", "Choose"],
                ["Chosen secondary skill", "12", "+30,000", "needs 12 SPP, has 10"],
                [
                    "Characteristic improvement",
                    "18",
                    "MA +30,000 · ST +50,000 · AG +40,000 · AV +30,000",
                    "needs 18 SPP, has 10",
                ],
            ],
        ),
        (
            "classic",
            7,
            ("7", "0 of 6", "Experienced", "Veteran at 16 SPP"),
            [
                ["Normal skill", "Star Player Roll", "+20,000", "affordable"],
                ["Doubles skill", "Star Player Roll", "+30,000", "affordable"],
                [
                    "Characteristic increase",
                    "Star Player Roll",
                    "MA +30,000 · ST +50,000 · AG +40,000 · AV +30,000",
                    "affordable",
                ],
            ],
        ),
    ],
)
def test_panel_lists_every_kind_with_cost_and_value(
    client: FlaskClient, ruleset_id: str, spp: int, facts: tuple[str, ...], rows: list
) -> None:
    world = make_world(client, ruleset_id, spp=spp)
    page = world.player_page()
    assert (
        by_testid(page, "spp-available"),
        by_testid(page, "advancements-taken"),
        by_testid(page, "level"),
        by_testid(page, "next-level"),
    ) == facts
    assert panel_rows(page) == rows
    assert "No advancements yet." in page
    if ruleset_id == "classic":
        assert "1 Star Player Roll due." in text_of(page)
        assert f'href="/players/{world.grim.id}/advance">Make the Star Player Roll' in page
    else:
        assert f"/players/{world.grim.id}/advance?kind=chosen_primary" in page


def test_must_spend_is_a_warning_on_roster_and_player_page(client: FlaskClient) -> None:
    world = make_world(client, spp=13)
    assert "must spend SPP" not in world.team_page()
    player = world.refresh()
    player.spp_earned = 14  # the next characteristic costs 14: BB2025 says spend
    db.session.commit()
    assert "must spend SPP" in roster_row(world.team_page(), "Grim")
    page = world.player_page()
    assert "by the must-spend rule he should take an advancement before his next match" in page
    assert "does not enforce it" in page


# ---------------------------------------------------------------------------
# Chosen skills: only the legal ones, and why not the others


def test_chosen_skill_pages_offer_only_legal_skills(client: FlaskClient) -> None:
    world = make_world(client, spp=30)  # a BB2025 Human Blitzer starts with Block and Tackle
    page = world.choose("chosen_primary")
    groups = skill_groups(page)
    assert list(groups) == ["General", "Strength"]
    assert groups["General"] == [
        "Dauntless",
        "Fend",
        "Frenzy",
        "Kick",
        "Pro",
        "Steady Footing",
        "Strip Ball",
        "Sure Hands",
        "Taunt",
        "Wrestle",
    ]
    assert "Guard" in groups["Strength"]
    assert "Bullseye" not in groups["Strength"]  # needs Throw Team-mate
    assert "Dodge" not in radios(page)
    # Summaries and values next to each skill.
    assert "On a Both Down result in a block this player makes or receives" in page
    assert re.search(r"Mighty Blow</label> <span class=\"tag elite\">elite</span>\s*<span", page)
    reasons = why_not(page)
    assert "Block (General): already has it" in reasons
    assert "Tackle (General): already has it" in reasons
    assert "Bullseye (Strength): needs Throw Team-mate first" in reasons
    assert any(
        r.startswith("Agility: secondary category: take these as a secondary skill")
        for r in reasons
    )
    assert any(r.startswith("Traits: cannot be learned (") for r in reasons)

    page = world.choose("chosen_secondary")
    groups = skill_groups(page)
    assert list(groups) == ["Agility", "Devious"]
    assert "Dodge" in groups["Agility"]
    assert "Block" not in radios(page)
    assert any(
        r.startswith("General: primary category: take these as a primary skill")
        for r in why_not(page)
    )

    # A held skill excludes others: after Grab, Frenzy is gone and the reason says why.
    world.post("", kind="chosen_primary", choice="Grab")
    world.confirm(kind="chosen_primary", choice="Grab")
    page = world.choose("chosen_primary")
    assert "Frenzy" not in radios(page)
    assert "Frenzy (General): cannot be taken together with Grab" in why_not(page)


def test_confirm_then_buy_changes_the_roster(client: FlaskClient) -> None:
    world = make_world(client, spp=14)
    page = world.post("", kind="chosen_primary", choice="Mighty Blow")
    assert summary(page) == (
        f"Grim takes Mighty Blow as his 1st advancement: {MINUS}6 SPP, value +30,000, "
        f"TV 585,000 {ARROW} 615,000."
    )
    assert "Take Mighty Blow" in page
    assert world.refresh().spp_spent == 0  # the confirmation writes nothing

    page = world.confirm(kind="chosen_primary", choice="Mighty Blow")
    assert flashes(page) == [
        f"Grim took Mighty Blow as his 1st advancement: {MINUS}6 SPP, value +30,000."
    ]
    assert by_testid(page, "spp-available") == "8"
    assert by_testid(page, "level") == "Experienced"
    assert history_rows(page)[0][:6] == [
        "1",
        "Chosen primary skill",
        "Mighty Blow",
        "-",
        "6",
        "+30,000",
    ]

    page = world.post("", kind="chosen_primary", choice="Wrestle")
    assert summary(page) == (
        f"Grim takes Wrestle as his 2nd advancement: {MINUS}8 SPP, value +20,000, "
        f"TV 615,000 {ARROW} 635,000."
    )
    world.confirm(kind="chosen_primary", choice="Wrestle")

    team = world.team_page()
    assert team_value(team) == "635,000"
    row = roster_row(team, "Grim")
    assert (
        'Block, Tackle, <strong class="skill-gained" title="Gained by an advancement">Mighty Blow'
        "</strong>, "
        '<strong class="skill-gained" title="Gained by an advancement">Wrestle</strong>'
    ) in row
    assert "135,000" in row
    assert "0 / 14" in row
    player = world.refresh()
    assert (player.spp_spent, player.value) == (14, 135_000)


# ---------------------------------------------------------------------------
# Random skills


def test_random_skill_with_table_dice(client: FlaskClient) -> None:
    world = make_world(client, spp=3)
    page = world.choose("random_primary")
    assert "Possible results: Dauntless, Fend, Frenzy" in page
    assert "Two rolls of 2D6 (four dice)" in page

    # BB2025: two results, the coach keeps one.
    page = world.post("", kind="random_primary", category="G", dice="1 2 1 3", source="table")
    assert rolled(page) == (
        "1 2 / 1 3 rolled at the table. The dice (1 2 / 1 3) give Dauntless or Fend: keep one."
    )
    assert radios(page) == ["Dauntless", "Fend"]
    page = world.post(
        "",
        status=400,
        kind="random_primary",
        category="G",
        dice="1 2 1 3",
        source="table",
        choice="Pro",
    )
    assert field_errors(page, "choice") == ["Keep one of the rolled skills: Dauntless or Fend."]
    assert radios(page) == ["Dauntless", "Fend"]

    page = world.post(
        "", kind="random_primary", category="G", dice="1 2 1 3", source="table", choice="Fend"
    )
    assert summary(page) == (
        f"Grim takes Fend (random General skill, dice 1 2 / 1 3) as his 1st advancement: "
        f"{MINUS}3 SPP, value +20,000, TV 585,000 {ARROW} 605,000."
    )
    page = world.confirm(
        kind="random_primary", category="G", dice="1 2 1 3", source="table", choice="Fend"
    )
    assert history_rows(page)[0][:6] == [
        "1",
        "Random primary skill (General)",
        "Fend",
        "1 2 / 1 3 (table)",
        "3",
        "+20,000",
    ]
    advancement = db.session.scalar(select(Advancement))
    assert advancement is not None
    assert (advancement.dice, advancement.dice_source) == ([1, 2, 1, 3], "table")


def test_bb2020_random_skill_rerolls_what_the_player_cannot_take(client: FlaskClient) -> None:
    world = make_world(client, "bb2020", spp=3)  # Block from the start
    page = world.post("", 400, kind="random_primary", category="G", dice="1 1", source="table")
    assert field_errors(page, "dice") == [
        "The dice give Block, which Grim cannot take: roll again."
    ]
    page = world.post("", 400, kind="random_primary", category="G", dice="1 7", source="table")
    assert field_errors(page, "dice") == ["Second die must be a whole number 1-6, got 7."]
    page = world.post("", 400, kind="random_primary", category="G", dice="six", source="table")
    assert field_errors(page, "dice") == [
        "Write the dice as whole numbers 1-16 separated by spaces, e.g. 3 5."
    ]
    page = world.post("", 400, kind="random_primary", dice="1 2", source="table")
    assert field_errors(page, "category") == ["Pick the skill category to roll on."]
    page = world.post("", kind="random_primary", category="G", dice="1 2", source="table")
    assert summary(page) == (
        f"Grim takes Dauntless (random General skill, dice 1 2) as his 1st advancement: "
        f"{MINUS}3 SPP, value +10,000, TV 585,000 {ARROW} 595,000."
    )


def test_random_skill_with_server_dice_keeps_the_roll(client: FlaskClient, server_dice) -> None:
    world = make_world(client, spp=10, table_dice=False)
    page = world.choose("random_primary")
    assert "bb2025 league uses server dice only" in page
    assert 'name="dice"' not in page
    page = world.post("", 400, kind="random_primary", category="G", dice="1 2 1 3", source="table")
    assert field_errors(page, "dice") == [
        "bb2025 league uses server dice only: let the server roll."
    ]

    page = world.post("", kind="random_primary", category="S", source="server")
    assert summary(page) == (
        f"Grim rolls twice for a random Strength skill and keeps one as his 1st advancement: "
        f"{MINUS}3 SPP, value +20,000, TV 585,000 {ARROW} 605,000 "
        "(+10,000 more for an elite skill)."
    )
    page = world.post("", kind="random_primary", category="G", source="server")
    assert "Roll the dice" in page

    server_dice(1, 2, 1, 3)  # Dauntless, Fend
    page = world.confirm(kind="random_primary", category="G", source="server")
    assert flashes(page) == ["The server rolled 1 2 / 1 3 for Grim. Now pick what the dice allow."]
    assert rolled(page) == (
        "1 2 / 1 3 rolled by the server and kept. The dice (1 2 / 1 3) give Dauntless or Fend: "
        "keep one."
    )
    assert world.refresh().pending_roll == {
        "kind": "random_primary",
        "category": "G",
        "dice": [1, 2, 1, 3],
    }
    assert world.refresh().spp_spent == 0

    # Asking again, or for another kind, shows the same dice: nothing is rolled again.
    assert rolled(world.choose("chosen_primary")).startswith("1 2 / 1 3 rolled by the server")
    page = world.confirm(kind="random_primary", category="G", source="server")
    assert rolled(page).startswith("1 2 / 1 3 rolled by the server")
    assert "Dice waiting (1 2 / 1 3): finish this advancement." in world.player_page()

    page = world.post("", kind="random_primary", category="G", source="server", choice="Dauntless")
    assert summary(page) == (
        f"Grim takes Dauntless (random General skill, dice 1 2 / 1 3) as his 1st advancement: "
        f"{MINUS}3 SPP, value +20,000, TV 585,000 {ARROW} 605,000."
    )
    page = world.confirm(kind="random_primary", category="G", source="server", choice="Dauntless")
    assert flashes(page) == [
        f"Grim took Dauntless (dice 1 2 / 1 3) as his 1st advancement: {MINUS}3 SPP, value +20,000."
    ]
    assert history_rows(page)[0][3] == "1 2 / 1 3 (server)"
    player = world.refresh()
    assert (player.pending_roll, player.spp_spent, player.value) == (None, 3, 105_000)


# ---------------------------------------------------------------------------
# Characteristics


def test_characteristic_with_table_dice_and_skill_fallback(client: FlaskClient) -> None:
    world = make_world(client, "bb2020", spp=18)
    page = world.choose("random_characteristic")
    assert "Characteristic table (D16)" in page
    assert "15 : ST or AG" in text_of(page)

    page = world.post("", kind="random_characteristic", dice="15", source="table")
    assert rolled(page) == "15 rolled at the table. The D16 shows 15: ST or AG, or a skill instead."
    choices = radios(page)
    assert choices[:2] == ["st", "ag"]
    assert "Sure Feet" in choices
    assert "Accurate" in choices
    assert "Mighty Blow" not in choices  # BB2020 falls back on secondary skills only

    page = world.post("", 400, kind="random_characteristic", dice="15", source="table", choice="pa")
    assert field_errors(page, "choice") == ["A roll of 15 does not allow PA."]
    assert radios(page)[:2] == ["st", "ag"]  # the choice is still on screen

    page = world.post("", kind="random_characteristic", dice="15", source="table", choice="ag")
    assert summary(page) == (
        f"Grim improves AG (roll 15) as his 1st advancement: {MINUS}18 SPP, value +40,000, "
        f"TV 585,000 {ARROW} 625,000."
    )
    page = world.post(
        "", kind="random_characteristic", dice="15", source="table", choice="Sure Feet"
    )
    assert summary(page) == (
        f"Grim takes Sure Feet instead of a characteristic (roll 15) as his 1st advancement: "
        f"{MINUS}18 SPP, value +40,000, TV 585,000 {ARROW} 625,000."
    )
    data = {
        "kind": "random_characteristic",
        "dice": "15",
        "source": "table",
        "choice": "Sure Feet",
        "number": "1",
    }
    page = world.confirm(**data)
    assert flashes(page) == [
        f"Grim took Sure Feet (dice 15) as his 1st advancement: {MINUS}18 SPP, value +40,000."
    ]
    page = world.confirm(**{**data, "choice": "ag"})  # the button clicked twice
    assert flashes(page) == [
        "Grim's 1st advancement is already recorded (the form was sent twice)."
    ]
    assert len(world.refresh().active_advancements) == 1
    assert '<strong class="skill-gained" title="Gained by an advancement">Sure Feet</strong>' in (
        roster_row(world.team_page(), "Grim")
    )


def test_characteristic_with_server_dice(client: FlaskClient, server_dice) -> None:
    world = make_world(client, spp=14, table_dice=False)
    page = world.post("", kind="random_characteristic", source="server")
    assert summary(page) == (
        "Grim rolls a D8 on the characteristic table for his 1st advancement. The dice are kept: "
        f"then you pick what they allow ({MINUS}14 SPP)."
    )
    server_dice(7)
    page = world.confirm(kind="random_characteristic", source="server")
    assert flashes(page) == ["The server rolled 7 for Grim. Now pick what the dice allow."]
    assert rolled(page) == (
        "7 rolled by the server and kept. The D8 shows 7: AG or ST, or a skill instead."
    )
    assert radios(page)[:2] == ["ag", "st"]
    assert "Mighty Blow" in radios(page)
    assert "Dodge" in radios(page)

    page = world.post("", kind="random_characteristic", source="server", choice="st")
    assert summary(page) == (
        f"Grim improves ST (roll 7) as his 1st advancement: {MINUS}14 SPP, value +60,000, "
        f"TV 585,000 {ARROW} 645,000."
    )
    page = world.confirm(kind="random_characteristic", source="server", choice="st")
    assert flashes(page) == [
        f"Grim took +1 ST (dice 7) as his 1st advancement: {MINUS}14 SPP, value +60,000."
    ]
    row = roster_row(world.team_page(), "Grim")
    assert '<td class="num stat-improved" title="Raised by an advancement">4</td>' in row
    assert history_rows(world.player_page())[0][2:4] == ["+1 ST", "7 (server)"]


def test_undoing_keeps_the_server_dice_for_the_next_try(client: FlaskClient, server_dice) -> None:
    world = make_world(client, spp=14, table_dice=False)
    server_dice(7)
    world.confirm(kind="random_characteristic", source="server")
    world.confirm(kind="random_characteristic", source="server", choice="st")

    page = world.client.get(f"{world.base}/advance/undo").text
    assert text_of(re.search(r'data-testid="undo-summary">(.*?)</p>', page).group(1)).endswith(
        "The server's dice (7) are not rolled again: they wait for his next "
        "characteristic improvement."
    )
    response = world.client.post(f"{world.base}/advance/undo")
    page = world.client.get(response.headers["Location"]).text
    assert flashes(page) == [
        f"Undid +1 ST: 14 SPP back, value {MINUS}60,000. The server's dice (7) are kept: "
        "the next advancement of that kind uses them."
    ]
    assert "Dice waiting (7): finish this advancement." in text_of(page)
    assert table_rows(page, "dice-log") == [
        [
            history_rows(page)[0][-1],  # the date
            "Characteristic improvement",
            "7",
            "#1 +1 ST (undone)",
            "waiting for the next advancement of this kind",
        ]
    ]

    server_dice()  # no die left: rolling again would fail the test
    # D8 7 allows AG or ST (RULES-FACTS 3b); AG adds 30,000 in BB2025.
    page = world.confirm(kind="random_characteristic", source="server", choice="ag")
    assert flashes(page) == [
        f"Grim took +1 AG (dice 7) as his 1st advancement: {MINUS}14 SPP, value +30,000."
    ]
    assert table_rows(world.player_page(), "dice-log")[0][3:] == [
        "#1 +1 ST (undone), #1 +1 AG",
        "used",
    ]


# ---------------------------------------------------------------------------
# Classic: Star Player Rolls


def test_classic_star_player_roll_with_table_dice(client: FlaskClient) -> None:
    world = make_world(client, "classic", spp=6)
    page = world.choose()
    assert "Star Player Roll (2D6)" in page
    assert "12 : +1 ST or a new skill from his normal categories" in text_of(page)

    page = world.post("", source="table", dice="5 5")
    assert rolled(page) == (
        "5 5 rolled at the table. Star Player Roll: 5 + 5 = 10 (a double: doubles skills are "
        "open too)."
    )
    choices = radios(page)
    assert choices[:2] == ["ma", "av"]
    assert "Tackle" in choices
    assert "Dodge" in choices
    page = world.post("", source="table", dice="5 5", choice="Dodge")
    assert summary(page) == (
        f"Grim takes Dodge with his 1st Star Player Roll (5 + 5): value +30,000, "
        f"TV 590,000 {ARROW} 620,000."
    )
    page = world.confirm(kind="chosen_secondary", source="table", dice="5 5", choice="Dodge")
    assert flashes(page) == ["Grim took Dodge (dice 5 5) as his 1st advancement: value +30,000."]
    assert history_rows(page)[0][:6] == [
        "1",
        "Doubles skill",
        "Dodge",
        "5 5 (table)",
        "0",
        "+30,000",
    ]
    assert world.refresh().spp_spent == 0  # classic never spends SPP

    # No roll before 16 SPP; then a non-double cannot take a doubles skill.
    page = world.post("", 400, source="table", dice="3 4", choice="Tackle")
    assert "the next Star Player Roll comes at 16 SPP" in " ".join(form_errors(page))
    player = world.refresh()
    player.spp_earned = 16
    db.session.commit()
    page = world.post("", 400, source="table", dice="3 4", choice="Catch")
    assert field_errors(page, "choice") == ["A roll of 3 + 4 is not a double: no doubles skill."]
    page = world.post("", source="table", dice="3 4", choice="Tackle")
    assert summary(page).startswith("Grim takes Tackle with his 2nd Star Player Roll (3 + 4)")


def test_classic_star_player_roll_with_server_dice(client: FlaskClient, server_dice) -> None:
    world = make_world(client, "classic", spp=6, table_dice=False)
    page = world.post("", source="server")
    assert summary(page) == (
        "Grim makes his 1st Star Player Roll (2D6). The dice are kept: then you pick what they "
        "allow."
    )
    server_dice(6, 6)
    page = world.confirm(source="server")
    assert rolled(page) == (
        "6 6 rolled by the server and kept. Star Player Roll: 6 + 6 = 12 (a double: doubles "
        "skills are open too)."
    )
    assert radios(page)[0] == "st"
    # The roll serves whatever the coach takes from it (here a characteristic).
    page = world.post("", source="server", choice="st")
    assert summary(page) == (
        f"Grim gains +1 ST with his 1st Star Player Roll (6 + 6): value +50,000, "
        f"TV 590,000 {ARROW} 640,000."
    )
    page = world.confirm(source="server", choice="st")
    assert flashes(page) == ["Grim took +1 ST (dice 6 6) as his 1st advancement: value +50,000."]
    player = world.refresh()
    assert (player.value, player.pending_roll) == (140_000, None)


# ---------------------------------------------------------------------------
# Undo


def _play(world: World, *events: PlayerEvents) -> None:
    """The commissioner records a match of the Reavers against the Gouged Eye."""
    orcs = next((t for t in world.league.teams if t.id != world.team_id), None)
    if orcs is None:
        orcs = make_active_team(
            user("opponent"), world.league, "orc", "Gouged Eye", (("orc-lineman", 11),)
        )
    report = MatchReport(
        home=SideReport(score=sum(e.td for e in events), mistake_d6=6),
        away=SideReport(score=0, mistake_d6=6),
        players=events,
    )
    with unit_of_work() as session:
        record_new_match(session, user("comm"), world.league.id, world.team_id, orcs.id, report)


def test_undo_by_coach_until_the_next_match_and_by_commissioner(client: FlaskClient) -> None:
    world = make_world(client)
    _play(world, PlayerEvents(world.grim.id, td=2))  # 6 SPP
    assert world.refresh().spp_earned == 6
    world.confirm(kind="chosen_primary", choice="Mighty Blow")

    page = world.client.get(f"{world.base}/advance/undo").text
    assert text_of(re.search(r'data-testid="undo-summary">(.*?)</p>', page).group(1)) == (
        f"Grim gives up Mighty Blow (his 1st advancement): 6 SPP come back, value {MINUS}30,000, "
        f"TV 615,000 {ARROW} 585,000."
    )
    response = world.client.post(f"{world.base}/advance/undo")
    assert response.status_code == 302
    page = world.client.get(response.headers["Location"]).text
    assert flashes(page) == [f"Undid Mighty Blow: 6 SPP back, value {MINUS}30,000."]
    assert by_testid(page, "spp-available") == "6"
    assert history_rows(page)[0][2].startswith("Mighty Blow undone ")
    player = world.refresh()
    assert (player.spp_spent, player.value) == (0, 85_000)
    assert "Mighty Blow" not in roster_row(world.team_page(), "Grim")

    world.confirm(kind="chosen_primary", choice="Mighty Blow")
    _play(world)  # the team's next match is recorded
    response = world.client.post(f"{world.base}/advance/undo")
    page = world.client.get(response.headers["Location"]).text
    assert flashes(page) == [
        "Reavers has played since Grim took that advancement; ask a commissioner to undo it."
    ]
    assert world.refresh().spp_spent == 6

    login(client, "comm")
    response = world.client.post(f"{world.base}/advance/undo")
    page = world.client.get(response.headers["Location"]).text
    assert flashes(page) == [f"Undid Mighty Blow: 6 SPP back, value {MINUS}30,000."]
    player = world.refresh()
    assert (player.spp_spent, player.value) == (0, 85_000)


# ---------------------------------------------------------------------------
# Permissions and errors


def test_permissions(client: FlaskClient) -> None:
    world = make_world(client, spp=10)
    world.confirm(kind="chosen_primary", choice="Wrestle")
    base = world.base

    login(client, "stranger")
    assert client.get(f"{base}/advance?kind=chosen_primary").status_code == 403
    assert client.post(f"{base}/advance", data={"kind": "chosen_primary"}).status_code == 403
    response = client.post(
        f"{base}/advance/confirm", data={"kind": "chosen_primary", "choice": "Pro"}
    )
    assert response.status_code == 403
    assert client.post(f"{base}/advance/undo").status_code == 403
    page = client.get(base).text
    assert "Choose" not in text_of(page.split('id="advancement"')[1].split("</section>")[0])
    assert "Undo the last advancement" not in page
    assert world.refresh().spp_spent == 6

    client.post("/logout")
    for path in (f"{base}/advance?kind=chosen_primary", f"{base}/advance/undo"):
        response = client.get(path)
        assert response.status_code == 302
        assert response.headers["Location"].startswith("/login")
    response = client.post(f"{base}/advance/confirm", data={"kind": "chosen_primary"})
    assert response.headers["Location"].startswith("/login")
    page = client.get(base).text  # anyone may read the panel and the history
    assert panel_rows(page)[0][:2] == ["Random primary skill", "4"]
    assert history_rows(page)[0][2] == "Wrestle"


def test_errors_show_next_to_their_fields(client: FlaskClient) -> None:
    world = make_world(client, spp=10)
    page = world.post("", 400, kind="chosen_primary")
    assert field_errors(page, "choice") == ["Pick the skill to take."]
    page = world.post("", 400, kind="chosen_primary", choice="Dodge")
    assert field_errors(page, "choice") == ["Dodge: not a primary category for this position."]
    assert skill_groups(page)["General"][0] == "Dauntless"  # the choices are still there
    page = world.post("", 400, kind="chosen_primary", choice="Block")
    assert field_errors(page, "choice") == ["Block: already has it."]
    page = world.post("", 400, kind="chosen_primary", choice="Stunty")
    assert field_errors(page, "choice") == ["Stunty: a trait: traits cannot be learned."]

    # Too few SPP: the page says so, and so does a forced POST (the service refuses too).
    page = world.choose("random_characteristic")
    assert "Grim cannot take this advancement now: needs 14 SPP, has 10." in form_errors(page)
    page = world.post("", 400, kind="random_characteristic", source="server")
    assert form_errors(page) == ["Grim cannot take this advancement now: needs 14 SPP, has 10."]
    page = world.post(
        "/confirm", 400, kind="random_characteristic", dice="8", source="table", choice="st"
    )
    assert form_errors(page) == ["Grim needs 14 SPP and has 10."]
    page = world.post("/confirm", 400, kind="chosen_primary", choice="Dodge")
    assert field_errors(page, "choice") == ["Grim has no primary access to that category: Dodge."]
    assert world.refresh().spp_spent == 0

    assert world.client.get(f"{world.base}/advance?kind=random_secondary").status_code == 404
    assert world.client.get(f"{world.base}/advance?kind=nonsense").status_code == 404
    assert world.client.get("/players/999/advance?kind=chosen_primary").status_code == 404


def test_league_setting_table_dice(client: FlaskClient) -> None:
    world = make_world(client, table_dice=False)
    login(client, "comm")
    page = client.get(f"/leagues/{world.league.id}/settings").text
    checkbox = re.search(r'<input[^>]*id="table_dice_allowed"[^>]*>', page)
    assert checkbox is not None
    assert "checked" not in checkbox.group(0)
    assert "Off: server dice only" in page
    data = {
        "name": "bb2025 league",
        **LEAGUE_FORM,
        "table_dice_allowed": "y",
    }
    assert client.post(f"/leagues/{world.league.id}/settings", data=data).status_code == 302
    db.session.expire_all()
    assert db.session.get(League, world.league.id).table_dice_allowed is True
    page = client.get(f"/leagues/{world.league.id}/settings").text
    checkbox = re.search(r'<input[^>]*id="table_dice_allowed"[^>]*>', page)
    assert checkbox is not None
    assert "checked" in checkbox.group(0)
    login(client, "coach")
    assert 'name="dice"' in world.choose("random_primary")


def test_the_chosen_skill_page_labels_skills_in_the_page_language(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BB2025 chosen primary costs 6 SPP (ruleset.toml); a French reader sees French
    labels and summaries, while the submitted values stay the English names."""
    from babel import Locale

    world = make_world(client, "bb2025", spp=6)
    monkeypatch.setattr("flask_babel.get_locale", lambda: Locale("fr"))
    page = world.choose("chosen_primary")
    assert "Mighty Blow" in radios(page)
    assert 'for="skill-mighty-blow" class="choice-name">Châtaigne</label>' in page
    assert (
        "Quand ce joueur plaque un adversaire par un blocage, il ajoute +1 au jet "
        "d&#39;armure ou au jet de blessure, au choix après avoir vu les dés."
    ) in page
