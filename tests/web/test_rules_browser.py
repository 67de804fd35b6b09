"""The rules browser pages and the rulesets API (docs/api.md, Rules)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

RULESETS = ["bb2025", "bb2020", "classic", "classic-spend"]


def test_rulesets_api_lists_every_ruleset(client: FlaskClient) -> None:
    response = client.get("/api/v1/rulesets")
    assert response.status_code == 200
    listed = {r["id"]: r for r in response.json["rulesets"]}
    assert set(listed) == set(RULESETS)
    assert listed["bb2025"]["edition"] == "BB2025"
    assert set(listed["bb2020"]) == {"id", "name", "edition"}


def test_bb2025_ruleset_api_follows_the_contract(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/bb2025").json
    assert body["stat_style"] == "target"
    advancement = body["advancement"]
    assert advancement["mode"] == "spend"
    assert advancement["max_advancements"] == 6
    assert advancement["levels"][0] == "Rookie"
    assert advancement["costs"]["chosen_primary"] == [6, 8, 12, 16, 20, 30]
    assert advancement["costs"]["chosen_secondary"] == [10, 12, 16, 20, 24, 34]
    assert "random_secondary" not in advancement["costs"]
    assert body["value_increase"]["st"] == 60000
    assert body["spp_awards"]["td"] == 3
    assert {"code": "D", "name": "Devious"} in body["skill_categories"]
    block = next(s for s in body["skills"] if s["name"] == "Block")
    assert block["category"] == "G"
    assert block["trait"] is False
    assert block["summary"]
    assert {"id": "human", "name": "Human"} in body["team_types"]


def test_classic_ruleset_api_uses_thresholds(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/classic").json
    assert body["stat_style"] == "value"
    assert body["advancement"]["mode"] == "roll"
    assert body["advancement"]["thresholds"] == [6, 16, 31, 51, 76, 176]
    assert body["spp_awards"]["mvp"] == 5


def test_team_type_api_gives_position_lines(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/bb2025/team-types/human").json
    assert body["reroll_cost"] == 50000
    assert body["apothecary"] is True
    blitzer = next(p for p in body["positions"] if p["name"] == "Human Blitzer")
    assert blitzer == {
        "id": blitzer["id"],
        "name": "Human Blitzer",
        "max": 2,
        "cost": 85000,
        "ma": 7,
        "st": 3,
        "ag": 3,
        "pa": 4,
        "av": 9,
        "skills": ["Block", "Tackle"],
        "primary": ["G", "S"],
        "secondary": ["A", "D"],
    }


def test_a_position_without_pa_is_null(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/classic/team-types/human").json
    assert all(position["pa"] is None for position in body["positions"])


@pytest.mark.parametrize(
    "path",
    ["/api/v1/rulesets/nope", "/api/v1/rulesets/bb2025/team-types/nope"],
)
def test_unknown_rulesets_and_teams_are_json_404s(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_page_renders(client: FlaskClient, ruleset_id: str) -> None:
    for suffix in ("", "/skills", "/teams", "/inducements", "/star-players"):
        response = client.get(f"/rules/{ruleset_id}{suffix}")
        assert response.status_code == 200, suffix


def test_rules_index_lists_rulesets(client: FlaskClient) -> None:
    page = client.get("/rules").text
    assert "Blood Bowl" in page
    assert page.count('class="card"') == len(RULESETS)


def test_ruleset_page_shows_the_tables(client: FlaskClient) -> None:
    page = client.get("/rules/bb2020").text
    assert "Chosen secondary" in page
    assert "14 SPP" in page  # 2nd chosen secondary skill in BB2020
    assert "Legend" in page
    assert "Seriously Hurt" in page


def test_skills_page_filters_and_marks(client: FlaskClient) -> None:
    page = client.get("/rules/bb2025/skills?q=mighty").text
    assert "Mighty Blow" in page
    assert 'class="tag elite"' in page
    assert "Tentacles" not in page
    page = client.get("/rules/bb2025/skills?q=zzzz").text
    assert "No skill matches" in page


def test_team_page_shows_target_numbers(client: FlaskClient) -> None:
    page = client.get("/rules/bb2025/teams/human").text
    assert "Human Blitzer" in page
    assert "85,000" in page
    assert "9+" in page


def test_inducements_api_follows_the_contract(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/bb2025/inducements").json
    bribes = next(i for i in body["inducements"] if i["id"] == "bribes")
    assert bribes["cost"] == 100000
    assert bribes["max"] == 3
    assert bribes["reduced"] == [
        {"for": "Bribery and Corruption", "kind": "special_rule", "cost": 50000, "max": 6}
    ]
    assert body["petty_cash"]["lower_adds_treasury_max"] == 50000
    assert body["mercenaries"]["max"] == 3
    bb2020 = client.get("/api/v1/rulesets/bb2020/inducements").json
    assert bb2020["petty_cash"]["lower_adds_treasury_max"] == 0
    assert bb2020["star_players"]["same_star"] == "neither"
    # Death Zone: Bottles of Heady Brew, 0-3 at 40,000, for tier 3 teams only.
    brew = next(i for i in bb2020["inducements"] if i["id"] == "bottles-of-heady-brew")
    assert (brew["cost"], brew["max"], brew["tiers"]) == (40000, 3, [3])


def test_star_players_api_follows_the_contract(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets/bb2025/star-players").json
    griff = next(s for s in body["star_players"] if s["id"] == "griff-oberwald")
    assert (griff["cost"], griff["ma"], griff["pa"]) == (300000, 7, 3)
    assert griff["plays_for"] == ["Old World Classic"]
    assert griff["mega_star"] is True
    assert griff["pair"] is None
    grak = next(s for s in body["star_players"] if s["id"] == "grak")
    assert grak["pair"] == "grak-and-crumbleberry"
    pair = next(p for p in body["pairs"] if p["id"] == "grak-and-crumbleberry")
    assert pair == {
        "id": "grak-and-crumbleberry",
        "name": "Grak and Crumbleberry",
        "cost": 250000,
        "members": ["crumbleberry", "grak"],
    }
    assert client.get("/api/v1/rulesets/nope/star-players").status_code == 404


def test_inducements_page_filters_by_team(client: FlaskClient) -> None:
    page = client.get("/rules/bb2025/inducements").text
    assert "Riotous Rookies" in page  # every inducement, restricted or not
    assert "up to 50,000 of its treasury" in page  # BB2025 petty cash top-up
    assert "50,000 (0\N{EN DASH}6) for Bribery and Corruption teams" in page
    goblin = client.get("/rules/bb2025/inducements?team=goblin").text
    # Goblins (Bribery and Corruption): Bribes at 50,000, 0-6; no Riotous Rookies.
    row = goblin.split('id="bribes"')[1].split("</tr>")[0]
    assert "50,000" in row
    assert "0\N{EN DASH}6" in row
    assert "Riotous Rookies" not in goblin
    bb2020 = client.get("/rules/bb2020/inducements").text
    assert "may not add treasury" in bb2020
    row = bb2020.split('id="bottles-of-heady-brew"')[1].split("</tr>")[0]
    assert "teams of tier 3" in row
    skullbones = bb2020.split('id="famous-coaching-staff-papa-skullbones"')[1].split("</tr>")[0]
    assert "teams with Favoured of... or Underworld Challenge" in skullbones


def test_star_players_page_answers_who_can_this_team_hire(client: FlaskClient) -> None:
    every = client.get("/rules/bb2025/star-players").text
    assert "Griff Oberwald" in every
    assert "mega star" in every
    human = client.get("/rules/bb2025/star-players?team=human").text
    assert "Griff Oberwald" in human  # Old World Classic
    orc = client.get("/rules/bb2025/star-players?team=orc").text
    assert "Griff Oberwald" not in orc
    assert "Grak and Crumbleberry" in orc  # a pair that plays for any team
    classic = client.get("/rules/classic/star-players?team=dwarf").text
    assert "Barik Farblast" in classic
    assert client.get("/rules/bb2025/star-players?team=nope").status_code == 404


def test_unknown_ruleset_page_is_404(client: FlaskClient) -> None:
    assert client.get("/rules/nope").status_code == 404
    assert client.get("/rules/bb2025/teams/nope").status_code == 404


@pytest.mark.parametrize(
    ("path", "says", "ruleset_pages"),
    [
        ("/rules/characteristic?kind=characteristic", "no ruleset called", False),
        ("/rules/bb2025/characteristic?kind=characteristic", "Blood Bowl 2025 has no rules", True),
        ("/rules/bb2025/teams/nope", "Blood Bowl 2025 has no team type", True),
    ],
)
def test_a_bad_rules_link_is_a_404_leading_back_to_the_rules(
    client: FlaskClient, path: str, says: str, ruleset_pages: bool
) -> None:
    response = client.get(path)
    assert response.status_code == 404
    page = response.text
    assert says in page
    assert 'href="/rules">Back to the rules</a>' in page
    assert 'href="/rules/classic">' in page  # every ruleset is one click away
    assert ('href="/rules/bb2025/skills"' in page) is ruleset_pages


def test_the_site_icon_is_served_and_linked(client: FlaskClient) -> None:
    with client.get("/favicon.ico") as response:  # closes the file sent
        assert response.status_code == 200
        assert response.mimetype == "image/vnd.microsoft.icon"
        assert response.data[:4] == b"\x00\x00\x01\x00"  # the ICO file header
    assert '<link rel="icon" href="/favicon.ico"' in client.get("/rules").text
