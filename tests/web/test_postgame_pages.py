"""The match pages after a pre-game (BB2025): match-day players tagged in the report, a
journeyman hired for good from the match page, a star player who cannot be MVP, the
MVP drawn among nominees and a conceding team's departures."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Advancement, League, Match, MatchPlayer, Player, Team, TreasuryEntry
from league.services import matches, postgame
from league.services.errors import Conflict
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.pregame import SideChoices, record_side
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user, with_match_touchdowns
from tests.pages import field_errors, flashes, form_errors, login, text_of
from tests.web.test_match_pages import finalise, player_row


class World:
    """BB2025: Reavers (eleven Human linemen, anna) at home to Gouged Eye (bram)."""

    def __init__(self, humans: int = 11) -> None:
        self.boss, self.anna, self.bram = make_user("boss"), make_user("anna"), make_user("bram")
        self.league: League = make_league(self.boss, "bb2025", self.anna, self.bram)
        self.humans: Team = make_active_team(
            self.anna, self.league, "human", "Reavers", (("human-lineman", humans),)
        )
        self.orcs: Team = make_active_team(
            self.bram, self.league, "orc", "Gouged Eye", (("orc-lineman", 11),)
        )
        with unit_of_work() as session:
            self.match_id = matches.schedule_match(
                session, self.boss, self.league.id, self.humans.id, self.orcs.id
            ).id

    def pregame(self, home: SideChoices, away: SideChoices) -> list[Player]:
        with unit_of_work() as session:
            record_side(session, self.anna, self.match_id, "home", home)
        with unit_of_work() as session:
            record_side(session, self.bram, self.match_id, "away", away)
        match = self.match()
        return postgame.match_day_players(db.session(), match)

    def match(self) -> Match:
        db.session.expire_all()
        match = db.session.get(Match, self.match_id)
        assert match is not None
        return match

    def orc_players(self) -> list[Player]:
        db.session.expire_all()
        return list(
            db.session.scalars(
                select(Player)
                .where(Player.team_id == self.orcs.id, Player.status == "active")
                .order_by(Player.number)
            )
        )


def _fire_one_orc(world: World) -> None:
    """Ten Orcs on the roster: BB2025 fills the eleventh place with a journeyman."""
    world.orc_players()[-1].status = "fired"
    db.session.commit()


def test_a_journeyman_who_scored_is_hired_from_the_match_page(app, client: FlaskClient) -> None:
    world = World()
    _fire_one_orc(world)
    # Humans 550,000 against Orcs 500,000 + one journeyman at 50,000: no petty cash.
    (journeyman,) = world.pregame(SideChoices(), SideChoices())
    assert (journeyman.status, journeyman.position_id) == ("journeyman", "orc-lineman")

    login(client, "boss")
    page = client.get(f"/matches/{world.match_id}/report").text
    row = player_row(page, journeyman)
    # Beside the Orc roster, tagged; a journeyman may be MVP.
    assert text_of(re.search(r'data-testid="tag-\d+">(.*?)<', row)[1]) == "journeyman"
    assert page.index(f'id="player-{journeyman.id}"') > page.index('id="away-players"')
    assert f'name="p{journeyman.id}_mvp"' in row
    assert "disabled" not in row

    response = finalise(
        client,
        world.match_id,
        away_score=2,
        away_winnings=0,
        home_winnings=0,
        **{f"p{journeyman.id}_td": 2, f"p{journeyman.id}_mvp": "y"},
    )
    assert response.status_code == 302, response.text
    db.session.expire_all()
    scored = db.session.get(Player, journeyman.id)
    assert scored is not None
    # BB2025 Brawlin' Brutes: 2 SPP a touchdown, 4 for the MVP: 2 x 2 + 4.
    assert scored.spp_earned == 8
    treasury = db.session.get(Team, world.orcs.id).treasury  # type: ignore[union-attr]

    # A stranger to the Orcs sees no button and cannot open the confirmation.
    hire_url = f"/matches/{world.match_id}/journeymen/{journeyman.id}/hire"
    login(client, "anna")
    page = client.get(f"/matches/{world.match_id}").text
    assert hire_url not in page
    assert client.get(hire_url).status_code == 403
    assert client.post(hire_url).status_code == 403

    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    offer = text_of(
        page[page.index(f'data-testid="journeyman-{journeyman.id}"') :].split("</li>")[0]
    )
    # BB2025: the position's 50,000 hiring fee plus value gained (none).
    assert "Price: 50,000" in offer
    assert "Hire for good" in offer
    confirm = client.get(hire_url)
    assert confirm.status_code == 200
    assert text_of(
        re.search(r'data-testid="confirm-explanation">(.*?)</p>', confirm.text, re.S)[1]
    ) == (
        # The name isolated (FSI ... PDI): a right-to-left one would not mirror "(#11)".
        f"\u2068{journeyman.name}\u2069 (#{journeyman.number}) joins Gouged Eye's roster "
        "for 50,000 gold "
        "from the treasury, keeps his SPP and loses the journeyman's trait."
    )
    # Only the confirmation's POST spends: the page itself changed nothing.
    db.session.expire_all()
    assert db.session.get(Player, journeyman.id).status == "journeyman"  # type: ignore[union-attr]

    # The name field offers his match-day name; a bad name is refused next to it.
    assert f'value="{journeyman.name}"' in confirm.text
    refused = client.post(hire_url, data={"name": "Grom\nthe Second"})
    assert refused.status_code == 200
    assert field_errors(refused.text, "name")
    db.session.expire_all()
    assert db.session.get(Player, journeyman.id).status == "journeyman"  # type: ignore[union-attr]

    hired = client.post(hire_url, data={"name": "Grom the Second"})
    assert hired.status_code == 302
    assert hired.location == f"/teams/{world.orcs.id}#roster"
    team_page = client.get(hired.location).text
    assert flashes(team_page) == ["Grom the Second is hired for good, for 50,000 gold."]
    shown = text_of(re.search(r'data-testid="treasury">(.*?)<', team_page)[1])
    assert shown == f"{treasury - 50_000:,}"
    db.session.expire_all()
    player = db.session.get(Player, journeyman.id)
    assert player is not None
    assert (player.status, player.spp_earned) == ("active", 8)
    entry = db.session.scalar(
        select(TreasuryEntry)
        .where(TreasuryEntry.team_id == world.orcs.id, TreasuryEntry.kind == "hire")
        .order_by(TreasuryEntry.id.desc())
    )
    assert entry is not None
    assert entry.amount == -50_000

    # Hired once: the page says so, and a second post is refused with the service's words.
    page = client.get(f"/matches/{world.match_id}").text
    assert "hired for good" in text_of(page)
    again = client.post(hire_url)
    assert again.status_code == 302
    page = client.get(again.location).text
    assert flashes(page) == [
        "Nothing changed: Grom the Second is not a journeyman waiting to be hired."
    ]


def test_a_journeyman_the_treasury_cannot_pay_for_shows_why(app, client: FlaskClient) -> None:
    world = World()
    _fire_one_orc(world)
    (journeyman,) = world.pregame(SideChoices(), SideChoices())
    login(client, "boss")
    assert finalise(client, world.match_id, home_winnings=0, away_winnings=0).status_code == 302
    orcs = db.session.get(Team, world.orcs.id)
    assert orcs is not None
    orcs.treasury = 20_000
    db.session.commit()
    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    refusal = text_of(
        re.search(rf'data-testid="journeyman-refusal-{journeyman.id}">(.*?)</span>', page, re.S)[1]
    )
    assert "50,000" in refusal
    assert "20,000" in refusal
    assert f"/journeymen/{journeyman.id}/hire" not in page
    response = client.post(f"/matches/{world.match_id}/journeymen/{journeyman.id}/hire")
    assert response.status_code == 302
    assert flashes(client.get(response.location).text)[0].startswith("Nothing changed: ")
    db.session.expire_all()
    assert db.session.get(Team, world.orcs.id).treasury == 20_000  # type: ignore[union-attr]


def test_a_star_player_has_no_mvp_input_and_the_form_cannot_make_him_mvp(
    app, client: FlaskClient
) -> None:
    # Humans 13 x 50,000 = 650,000 against Orcs 550,000: 100,000 of petty cash (BB2025).
    world = World(humans=13)
    # Akhorne the Squirrel (80,000) plays for the Orcs.
    (star,) = world.pregame(SideChoices(), SideChoices(stars=("akhorne-the-squirrel",)))
    assert star.status == "star"
    login(client, "boss")
    page = client.get(f"/matches/{world.match_id}/report").text
    row = player_row(page, star)
    assert text_of(re.search(r'data-testid="tag-\d+">(.*?)<', row)[1]) == "star player"
    mvp_input = re.search(rf'<input[^>]*name="p{star.id}_mvp"[^>]*>', row)
    assert mvp_input is not None
    assert "disabled" in mvp_input.group(0)
    assert "A star player cannot be MVP." in text_of(row)

    # A hand-made post naming him MVP is refused next to his row; nothing is stored.
    refused = finalise(
        client,
        world.match_id,
        away_score=1,
        home_winnings=0,
        away_winnings=0,
        **{f"p{star.id}_td": 1, f"p{star.id}_mvp": "y"},
    )
    assert refused.status_code == 400
    assert "Akhorne the Squirrel is a star player: no MVP." in refused.text
    assert world.match().state == "scheduled"

    # Without the MVP his touchdown counts for the team, and he earns no SPP.
    done = finalise(
        client,
        world.match_id,
        away_score=1,
        home_winnings=0,
        away_winnings=0,
        **{f"p{star.id}_td": 1},
    )
    assert done.status_code == 302, done.text
    db.session.expire_all()
    line = db.session.scalar(select(MatchPlayer).where(MatchPlayer.player_id == star.id))
    assert line is not None
    assert (line.td, line.spp) == (1, 0)
    assert world.match().away.score == 1
    # The match page tags him in the result and offers no "hire" for a star.
    page = client.get(f"/matches/{world.match_id}").text
    assert f"/journeymen/{star.id}/hire" not in page
    result_row = page[page.index(f'<a href="/players/{star.id}"') :].split("</td>")[0]
    assert text_of(result_row) == f"#{star.number} Akhorne the Squirrel star player"


def _played(world: World, *, concede: str | None = None) -> None:
    def side(score: int, conceded: bool) -> SideReport:
        return SideReport(score=score, winnings=0, mistake_d6=6, conceded=conceded)

    with unit_of_work() as session:
        matches.record_result(
            session,
            world.boss,
            world.match_id,
            with_match_touchdowns(
                MatchReport(home=side(1, concede == "home"), away=side(0, concede == "away")),
                world.match_id,
            ),
        )


def test_mvp_draw_with_table_dice(app, client: FlaskClient) -> None:
    world = World()
    world.league.table_dice_allowed = True
    db.session.commit()
    _played(world)
    orcs = world.orc_players()
    nominees = orcs[:6]
    url = f"/matches/{world.match_id}/mvp/away"

    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    assert f'action="{url}"' in page
    assert 'name="away-mvp-die"' in page
    # The Humans' form is anna's: bram sees only his own.
    assert f'action="/matches/{world.match_id}/mvp/home"' not in page
    assert client.post(f"/matches/{world.match_id}/mvp/home", data={}).status_code == 403

    # BB2025 nominates six: five is refused next to the checkboxes, nothing drawn.
    five = client.post(
        url, data={"away-mvp-nominees": [str(p.id) for p in nominees[:5]], "away-mvp-die": "2"}
    )
    assert five.status_code == 400
    assert field_errors(five.text, "away-mvp-nominees") == [
        "Nominate 6 players for MVP (5 nominated)."
    ]
    assert world.match().away.mvp_draw is None
    # A die is a D6.
    seven = client.post(
        url, data={"away-mvp-nominees": [str(p.id) for p in nominees], "away-mvp-die": "7"}
    )
    assert seven.status_code == 400
    assert field_errors(seven.text, "away-mvp-die") == ["A D6 shows 1 to 6."]

    # The table rolled a 4: the fourth nominee is the MVP.
    drawn = client.post(
        url, data={"away-mvp-nominees": [str(p.id) for p in nominees], "away-mvp-die": "4"}
    )
    assert drawn.status_code == 302
    page = client.get(drawn.location).text
    assert flashes(page) == [f"{nominees[3].name} is the MVP."]
    result = text_of(re.search(r'data-testid="away-mvp-result">(.*?)</p>', page, re.S)[1])
    assert result == (
        f"\u2068{nominees[3].name}\u2069 (#{nominees[3].number}) is the MVP: "
        "the table rolled 4 among the nominees."
    )
    assert f'action="{url}"' not in page
    db.session.expire_all()
    line = db.session.scalar(select(MatchPlayer).where(MatchPlayer.player_id == nominees[3].id))
    assert line is not None
    assert line.mvp == 1
    # BB2025: the MVP is worth 4 SPP.
    assert db.session.get(Player, nominees[3].id).spp_earned == 4  # type: ignore[union-attr]
    again = client.post(
        url, data={"away-mvp-nominees": [str(p.id) for p in nominees], "away-mvp-die": "1"}
    )
    assert again.status_code == 302
    assert flashes(client.get(again.location).text) == ["Gouged Eye's MVP was drawn already."]


def test_mvp_draw_by_the_server_has_no_die_field(app, client: FlaskClient) -> None:
    world = World()
    _played(world)
    nominees = world.orc_players()[:6]
    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    assert 'name="away-mvp-die"' not in page
    drawn = client.post(
        f"/matches/{world.match_id}/mvp/away",
        data={"away-mvp-nominees": [str(p.id) for p in nominees]},
    )
    assert drawn.status_code == 302
    side = world.match().away
    assert side.mvp_draw is not None
    assert side.mvp_draw["rolled"] is True
    assert 1 <= side.mvp_draw["die"] <= 6
    assert side.mvp_draw["nominees"] == [p.id for p in nominees]
    page = client.get(f"/matches/{world.match_id}").text
    assert "the server rolled" in text_of(page)


def _advance(player: Player, times: int) -> None:
    for number in range(1, times + 1):
        db.session.add(
            Advancement(
                player_id=player.id,
                number=number,
                kind="chosen_primary",
                spp_cost=0,
                skill=f"Skill {number}",
                value_increase=0,
            )
        )
    db.session.commit()


def test_departures_of_a_conceding_team_with_table_dice(app, client: FlaskClient) -> None:
    world = World()
    world.league.table_dice_allowed = True
    db.session.commit()
    veteran, old_hand, rookie = world.orc_players()[:3]
    _advance(veteran, 3)
    _advance(old_hand, 4)
    _advance(rookie, 2)
    _played(world, concede="away")
    url = f"/matches/{world.match_id}/departures/away"

    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    # Only the two with three or more advancements roll (BB2025), one D6 field each.
    assert f'name="away-departures-d{veteran.id}"' in page
    assert f'name="away-departures-d{old_hand.id}"' in page
    assert f'name="away-departures-d{rookie.id}"' not in page
    # The Humans did not concede: no departures for them.
    assert client.post(f"/matches/{world.match_id}/departures/home").status_code in (403, 404)

    bad = client.post(url, data={f"away-departures-d{veteran.id}": "9"})
    assert bad.status_code == 400
    assert field_errors(bad.text, f"away-departures-d{veteran.id}") == ["A D6 shows 1 to 6."]
    half = client.post(url, data={f"away-departures-d{veteran.id}": "2"})
    assert half.status_code == 400
    assert form_errors(half.text) == [
        "Enter one D6 (1 to 6) for each of the 2 players who roll to leave."
    ]
    assert world.match().away.departures is None

    # They leave on 1-3: the veteran's 3 sends him away, the old hand's 4 keeps him.
    rolled = client.post(
        url,
        data={f"away-departures-d{veteran.id}": "3", f"away-departures-d{old_hand.id}": "4"},
    )
    assert rolled.status_code == 302
    page = client.get(rolled.location).text
    assert flashes(page) == [f"Departures rolled: {veteran.name} left."]
    listed = text_of(re.search(r'data-testid="away-departures">(.*?)</ul>', page, re.S)[1])
    assert listed == (
        f"{veteran.name} rolled 3 and left the team. {old_hand.name} rolled 4 and stays."
    )
    db.session.expire_all()
    assert db.session.get(Player, veteran.id).status == "retired"  # type: ignore[union-attr]
    assert db.session.get(Player, old_hand.id).status == "active"  # type: ignore[union-attr]


def test_an_mvp_entered_in_the_report_is_not_drawn_again(app, client: FlaskClient) -> None:
    world = World()
    orcs = world.orc_players()
    login(client, "boss")
    assert finalise(client, world.match_id, **{f"p{orcs[0].id}_mvp": "y"}).status_code == 302
    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    assert text_of(re.search(r'data-testid="away-mvp-entered">(.*?)</p>', page, re.S)[1]) == (
        # The name is isolated (U+2068 ... U+2069) for right-to-left names.
        f"The report names the MVP (\u2068{orcs[0].name}\u2069 (#{orcs[0].number})): "
        "there is nothing to draw."
    )
    url = f"/matches/{world.match_id}/mvp/away"
    assert f'action="{url}"' not in page
    response = client.post(url, data={"away-mvp-nominees": [str(p.id) for p in orcs[:6]]})
    assert response.status_code == 302
    assert flashes(client.get(response.location).text) == [
        "The report names the MVP: there is nothing to draw."
    ]
    assert world.match().away.mvp_draw is None
    # The service refuses it too, whoever asks.
    with pytest.raises(Conflict), unit_of_work() as session:
        postgame.draw_mvp(
            session, world.boss, world.match_id, world.orcs.id, [p.id for p in orcs[:6]]
        )


def test_a_player_who_missed_the_match_is_no_mvp_nominee(app, client: FlaskClient) -> None:
    world = World()
    orcs = world.orc_players()
    hurt = orcs[0]
    # An earlier match: a Seriously Hurt player misses his team's next game (BB2025).
    with unit_of_work() as session:
        matches.record_new_match(
            session,
            world.boss,
            world.league.id,
            world.humans.id,
            world.orcs.id,
            MatchReport(
                home=SideReport(winnings=0, mistake_d6=6),
                away=SideReport(winnings=0, mistake_d6=6),
                players=(PlayerEvents(hurt.id, injury="seriously_hurt"),),
            ),
        )
    _played(world)
    side = world.match().away
    candidates = [p.id for p in postgame.mvp_candidates(db.session(), side)]
    assert hurt.id not in candidates
    assert candidates == [p.id for p in orcs[1:]]
    login(client, "bram")
    page = client.get(f"/matches/{world.match_id}").text
    assert f'value="{hurt.id}"' not in page.split('action="/matches/')[-1]


def test_the_match_page_names_the_team_rule_that_changes_spp(app, client: FlaskClient) -> None:
    world = World()
    _played(world)
    page = client.get(f"/matches/{world.match_id}").text
    # BB2025 ruleset.toml [[spp.variant]]: Brawlin' Brutes teams (Orcs among them) earn 2 SPP
    # a touchdown and 3 a casualty.
    assert re.findall(r'data-testid="away-spp-rule">(.*?)</p>', page) == [
        "Brawlin&#39; Brutes (team rule): 2 SPP per TD and 3 SPP per CAS."
    ]
    assert 'data-testid="home-spp-rule"' not in page
