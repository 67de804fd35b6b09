"""Issue 20: codes and stored English that pages put in front of people, translated.

New message ids have no translation until the catalogues are next translated, so these
tests either read a text the catalogues already translate (a player's status in French)
or install `tests.fake_i18n.bracketing`, which shows that a text was looked up.
"""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.i18n import in_language
from league.models import League, Team, TreasuryEntry, User
from league.pdf.context import roster_context
from league.rules import purchase_item_name
from league.services import access, teams, users
from league.services.errors import RuleViolation
from league.services.labels import ledger_text, season_name
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_team, make_user
from tests.fake_i18n import bracketing
from tests.pages import flashes, login, text_of
from tests.web.test_advancement_pages import make_world
from tests.web.test_team_pages import ledger, section


def reads_in(username: str, language: str) -> None:
    """As the profile page sets it: every page of ``username`` in ``language``."""
    with unit_of_work() as session:
        user = session.scalar(select(User).where(User.username == username))
        assert user is not None
        users.set_language(session, user, language)


def human_team(client: FlaskClient, ruleset_id: str = "bb2025") -> tuple[League, Team]:
    """An active Human team of `coach` (logged in) in a league run by `comm`."""
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, ruleset_id, coach)
    blitzer = "human-blitzer" if ruleset_id != "classic" else "blitzer"
    team = make_active_team(
        coach, league, "human", "Reikland Reavers", ((blitzer, 1), ("human-lineman", 10))
    )
    login(client, "coach")
    return league, team


def followed(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 302, response.text
    return client.get(response.headers["Location"]).text


# ---------------------------------------------------------------------------
# 2. Codes inside sentences: player statuses, skill kinds


def test_a_players_status_reads_in_the_readers_language(client: FlaskClient) -> None:
    _, team = human_team(client)
    player = team.players[0]
    player.status = "dead"
    db.session.commit()
    reads_in("coach", "fr")
    # fr: "%(name)s is %(status)s and cannot advance." and "dead" are translated.
    assert f"{player.name} est mort et ne peut pas progresser." in flashes(
        followed(client, f"/players/{player.id}/advance")
    )
    assert f"{player.name} ne fait plus partie de l'effectif (mort)." in [
        html.unescape(f) for f in flashes(followed(client, f"/players/{player.id}/fire"))
    ]


def test_the_status_labels_of_pages_and_messages_are_one_mapping(client: FlaskClient) -> None:
    league, team = human_team(client)
    player = team.players[0]
    player.status = "fired"
    db.session.commit()
    with bracketing():
        page = client.get(f"/teams/{team.id}").text
        table = client.get(f"/leagues/{league.id}").text
        flashed = flashes(followed(client, f"/players/{player.id}/advance"))
    assert "⟦fired⟧" in text_of(page)  # the former players' table, through the macro
    assert "⟦active⟧" in text_of(table)  # the team's status in the league's table
    assert f"⟦{player.name} is ⟦fired⟧ and cannot advance.⟧" in flashed


def test_the_fallback_skill_kinds_are_words_of_the_readers_language(
    client: FlaskClient,
) -> None:
    # BB2025's D8 table: a chosen primary or secondary skill instead of the result.
    world = make_world(client, "bb2025", spp=14)
    with bracketing():
        choose = text_of(world.choose("random_characteristic"))
        rules = text_of(client.get("/rules/bb2025").text)
    assert "Instead of the result: a ⟦primary⟧ or ⟦secondary⟧ skill." in choose
    assert (
        "Instead of the rolled improvement the coach may take: "
        "⟦chosen primary⟧ or ⟦chosen secondary⟧ skill."
    ) in rules
    # Without the stand-in, the English of before.
    assert "Instead of the result: a primary or secondary skill." in text_of(
        world.choose("random_characteristic")
    )
    assert "may take: chosen primary or chosen secondary skill." in text_of(
        client.get("/rules/bb2025").text
    )


# ---------------------------------------------------------------------------
# 3. Purchase items: the team page's table and the roster sheet's staff lines


def test_the_team_items_are_named_in_the_readers_language(client: FlaskClient) -> None:
    _, team = human_team(client)
    reads_in("coach", "fr")
    with bracketing():
        page = client.get(f"/teams/{team.id}").text
    rows = re.findall(r'<td class="card-title">([^<]*)</td>', section(page, "staff"))
    assert rows == [
        "⟦team re-roll⟧",
        "⟦apothecary⟧",
        "⟦assistant coach⟧",
        "⟦cheerleader⟧",
        "⟦dedicated fan⟧",
    ]
    # "Buy %(item)s" is translated in French; the item is looked up too.
    assert 'aria-label="Acheter ⟦team re-roll⟧"' in page
    # English: the rows as before.
    reads_in("coach", "en")
    page = client.get(f"/teams/{team.id}").text
    assert re.findall(r'<td class="card-title">([^<]*)</td>', section(page, "staff"))[:2] == [
        "Team re-roll",
        "Apothecary",
    ]
    assert 'aria-label="Buy team re-roll"' in page


def test_purchase_item_names() -> None:
    assert purchase_item_name("assistant_coach") == "assistant coach"
    assert purchase_item_name("assistant_coach", title=True) == "Assistant coach"
    assert purchase_item_name("mascot", title=True) == "Mascot"
    with bracketing() as backend:
        assert purchase_item_name("cheerleader", title=True) == "⟦cheerleader⟧"
    assert backend.asked == ["cheerleader"]


def test_the_roster_sheets_staff_lines_in_french(client: FlaskClient) -> None:
    _, team = human_team(client)
    fresh = access.get_team(db.session, team.id)
    sheet = roster_context(fresh, url="http://x", printed_on=date(2026, 11, 24), paper="a4")
    with in_language("fr"):
        french = roster_context(
            fresh, url="http://x", printed_on=date(2026, 11, 24), paper="a4", language="fr"
        )
    assert [line.label for line in sheet.staff] == [
        "Team re-rolls",
        "Apothecary",
        "Assistant coaches",
        "Cheerleaders",
        "Dedicated fans",
    ]
    assert [line.label for line in french.staff] == [
        "Relances d'équipe",
        "Apothicaire",
        "Assistants",
        "Pom-pom girls",
        "Fans dévoués",
    ]


# ---------------------------------------------------------------------------
# 4. Ledger rows: stored in English, shown in the reader's language


def entry(kind: str, description: str, **fields: object) -> TreasuryEntry:
    return TreasuryEntry(kind=kind, description=description, amount=0, **fields)


def test_the_ledger_in_french(client: FlaskClient) -> None:
    _, team = human_team(client)
    reads_in("coach", "fr")
    page = client.get(f"/teams/{team.id}").text
    # "Starting treasury" is translated in French; the rows' text stays English in the API.
    assert ledger(page)[-1][0] == "Trésorerie de départ"
    assert team.ledger[0].description == "Starting treasury"


def test_each_ledger_kind_is_worded_in_the_readers_language() -> None:
    rows = [
        entry("starting", "Starting treasury"),
        entry("hire", "Hired Grim (Human Blitzer)"),
        entry("purchase", "Bought a team re-roll", item="reroll"),
        entry("refund", "Draft: gave back an apothecary", item="apothecary"),
        entry("refund", "Draft: removed Grim"),
        entry("winnings", "Winnings, match #12", match_id=12),
        entry("mistake", "Expensive mistakes (minor), match #12", match_id=12),
        entry("correction", "Match #12 voided", match_id=12),
        entry("correction", "Match #12 corrected", match_id=12),
        entry("prize", "2nd place, Season 3"),
        entry("redraft", "Re-draft budget after Season 3: 1,150,000, 50,000 lost to the cap"),
        entry("redraft", "Re-draft budget after Autumn Cup: 1,000,000"),
        entry("redraft", "Re-draft after Season 3: players, staff and re-rolls kept"),
    ]
    with bracketing():
        worded = [ledger_text(row) for row in rows]
        kept = [
            ledger_text(entry("adjustment", "Lost a bet")),
            ledger_text(entry("starting", "Imported from the old site")),
            ledger_text(entry("purchase", "Bought two mascots", item="mascot")),
        ]
    assert worded == [
        "⟦Starting treasury⟧",
        "⟦Hired \u2068Grim\u2069 (Human Blitzer)⟧",  # the typed name isolated
        "⟦Bought ⟦a team re-roll⟧⟧",
        "⟦Draft: gave back ⟦an apothecary⟧⟧",
        "⟦Draft: removed \u2068Grim\u2069⟧",
        "⟦Winnings, match #12⟧",
        "⟦Expensive mistakes (⟦Minor incident⟧), match #12⟧",
        "⟦Match #12 voided⟧",
        "⟦Match #12 corrected⟧",
        "⟦⟦2.⟧ place, ⟦Season 3⟧⟧",  # the French pattern of a place, looked up
        "⟦Re-draft budget after ⟦Season 3⟧: #1150000, #50000 lost to the cap⟧",
        "⟦Re-draft budget after Autumn Cup: #1000000⟧",
        "⟦Re-draft after ⟦Season 3⟧: players, staff and re-rolls kept⟧",
    ]
    # Typed by a commissioner, imported or unknown: as stored.
    assert kept == ["Lost a bet", "Imported from the old site", "Bought two mascots"]
    # Without a translation the English rows read as stored (typed names isolated).
    assert [ledger_text(row) for row in rows] == [
        row.description.replace("(minor)", "(Minor incident)").replace("Grim", "\u2068Grim\u2069")
        for row in rows
    ]


# ---------------------------------------------------------------------------
# 5. Season names: the default "Season 1" in the reader's language


def test_season_names() -> None:
    assert season_name("Season 2") == "Season 2"
    with bracketing() as backend:
        assert season_name("Season 2") == "⟦Season 2⟧"
        assert season_name("Autumn Cup") == "Autumn Cup"  # named by hand: as stored
        assert season_name("Season 2 (rerun)") == "Season 2 (rerun)"
        assert season_name("") == ""
    assert backend.asked == ["Season %(number)s"]


def test_the_default_season_name_is_shown_translated(client: FlaskClient) -> None:
    league, _ = human_team(client)
    season = league.current_season
    assert season is not None
    assert season.name == "Season 1"
    with bracketing():
        page = text_of(client.get(f"/leagues/{league.id}").text)
        fixtures = text_of(client.get(f"/leagues/{league.id}/fixtures").text)
    assert "⟦Season 1⟧" in page
    assert "· ⟦Season 1⟧" in fixtures
    # Stored as it was; the API sends the stored name.
    db.session.expire_all()
    assert db.session.get(type(season), season.id).name == "Season 1"  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# 6. Skill categories: the advancement page's group headings from the rules' i18n files


def test_the_skill_groups_are_headed_in_the_readers_language(client: FlaskClient) -> None:
    # BB2025 Human Blitzer: primary General and Strength; a chosen primary costs 6 SPP.
    world = make_world(client, "bb2025", spp=6)
    english = world.choose("chosen_primary")
    assert re.findall(r'data-category="(\w)"><legend>([^<]+)</legend>', english) == [
        ("G", "General"),
        ("S", "Strength"),
    ]
    reads_in("coach", "fr")
    french = world.choose("chosen_primary")
    # league/rules/data/bb2025/i18n/fr.toml: G = "Générale", S = "Force".
    assert re.findall(r'data-category="(\w)"><legend>([^<]+)</legend>', french) == [
        ("G", "Générale"),
        ("S", "Force"),
    ]


def test_a_refused_booking_names_the_row_as_the_ledger_shows_it(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach, starting_treasury=0)
    team = make_team(coach, league, "human", "Poor Humans")
    with bracketing(), pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        teams.buy_team_item(session, coach, team.id, "reroll")
    assert "(⟦Bought ⟦a team re-roll⟧⟧)" in refused.value.message
