"""Recording a side's pre-game (league.services.pregame), BB2025 league play.

The conftest's teams: Humans 7 x 50,000 + 2 x 75,000 + 2 x 75,000 + 2 x 85,000 = 820,000
(treasury 180,000); Orcs 7 x 50,000 + 2 x 75,000 + 2 x 85,000 = 670,000 (treasury
330,000). CTV gap 150,000, the Humans higher.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from league.extensions import db
from league.models import League, Match, Player, PregameSide, Team, User
from league.rules import MercenaryOrder
from league.services import matches
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.pregame import SideChoices, pregame_view, record_side
from league.services.unit_of_work import unit_of_work


def _fixture(commissioner: User, league: League, home: Team, away: Team) -> Match:
    with unit_of_work() as session:
        match = matches.schedule_match(session, commissioner, league.id, home.id, away.id)
    return match


def _record(actor: User, match: Match, side: str, choices: SideChoices) -> PregameSide:
    with unit_of_work() as session:
        return record_side(session, actor, match.id, side, choices)


def _coach(team: Team) -> User:
    user = db.session.get(User, team.coach_id)
    assert user is not None
    return user


# 2 x Extra Team Training + Blitzer's Best Kegs + Weather Mage + Prayers to Nuffle
# + Temp Agency Cheerleaders = 200,000 + 50,000 + 25,000 + 10,000 + 5,000 = 290,000.
LOWER_ORDER = {
    "extra-team-training": 2,
    "blitzers-best-kegs": 1,
    "weather-mage": 1,
    "prayers-to-nuffle": 1,
    "temp-agency-cheerleaders": 1,
}


def test_the_bb2025_sequence(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    match = _fixture(commissioner, league, humans, orcs)
    anna, bram = _coach(humans), _coach(orcs)
    # The lower team (Orcs) waits for the higher team: nothing is saved.
    with pytest.raises(RuleViolation) as early:
        _record(bram, match, "away", SideChoices(inducements={"bribes": 1}))
    assert early.value.code == "not_your_turn"
    assert db.session.scalars(select(PregameSide)).all() == []
    # A coach cannot fill in the other team's side.
    with pytest.raises(Forbidden):
        _record(anna, match, "away", SideChoices())
    view = pregame_view(db.session, match)
    assert (view.home.ctv, view.away.ctv) == (820_000, 670_000)
    assert (view.home.petty_cash, view.away.petty_cash) == (0, 150_000)
    assert (view.home.treasury_allowance, view.away.treasury_allowance) == (180_000, 50_000)
    assert view.home.turn
    assert view.away.turn.codes == ("not_your_turn",)
    # The Humans spend 100,000 of treasury on a Bribe.
    home = _record(anna, match, "home", SideChoices(inducements={"bribes": 1}))
    assert (home.ctv, home.petty_cash, home.total, home.treasury_spent) == (
        820_000,
        0,
        100_000,
        100_000,
    )
    # Orcs: petty cash 150,000 gap + 100,000 spent = 250,000; up to 50,000 treasury added.
    too_much = dict(LOWER_ORDER, **{"extra-team-training": 3})  # 390,000
    with pytest.raises(RuleViolation) as refused:
        _record(bram, match, "away", SideChoices(inducements=too_much))
    assert refused.value.code == "over_budget"
    assert refused.value.field == "treasury"
    assert refused.value.message == "This costs 390,000 but the team may spend 300,000."
    away = _record(bram, match, "away", SideChoices(inducements=LOWER_ORDER))
    # The treasury pays only what petty cash did not cover: 290,000 - 250,000.
    assert (away.ctv, away.petty_cash, away.total, away.treasury_spent) == (
        670_000,
        250_000,
        290_000,
        40_000,
    )
    assert {(i.kind, i.ref, i.count, i.cost) for i in away.items} == {
        ("inducement", "extra-team-training", 2, 200_000),
        ("inducement", "blitzers-best-kegs", 1, 50_000),
        ("inducement", "weather-mage", 1, 25_000),
        ("inducement", "prayers-to-nuffle", 1, 10_000),
        ("inducement", "temp-agency-cheerleaders", 1, 5_000),
    }
    view = pregame_view(db.session, match)
    assert view.away.petty_cash == 250_000
    assert view.away.turn
    # Nothing is booked yet: the treasuries are untouched until the result.
    assert db.session.get(Team, orcs.id).treasury == 330_000  # type: ignore[union-attr]
    # The Humans may not now change the spend the Orcs' petty cash was worked out from.
    with pytest.raises(Conflict):
        _record(anna, match, "home", SideChoices())


def test_journeymen_and_stars(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    orc_players = db.session.scalars(
        select(Player).where(Player.team_id == orcs.id).order_by(Player.id)
    ).all()
    # 11 Orcs: one fired (a lineman), one missing the game (a blitzer): 9 available.
    orc_players[0].status = "fired"
    blitzer = next(p for p in orc_players if p.position_id == "orc-blitzer")
    blitzer.status = "mng"
    db.session.commit()
    match = _fixture(commissioner, league, humans, orcs)
    anna, bram = _coach(humans), _coach(orcs)
    _record(anna, match, "home", SideChoices())
    # Two journeymen are needed; a Blitzer cannot be one.
    with pytest.raises(RuleViolation) as wrong:
        _record(bram, match, "away", SideChoices(journeymen=("orc-lineman", "orc-blitzer")))
    assert wrong.value.code == "not_journeyman_position"
    with pytest.raises(RuleViolation) as short:
        _record(bram, match, "away", SideChoices(journeymen=("orc-lineman",)))
    assert short.value.code == "journeymen_count"
    # Griff Oberwald plays for Old World Classic only: refused to the Orcs.
    with pytest.raises(RuleViolation) as griff:
        _record(bram, match, "away", SideChoices(stars=("griff-oberwald",)))
    assert griff.value.code == "star_not_eligible"
    assert griff.value.field == "star_players"
    # CTV: 670,000 - 50,000 (fired) - 85,000 (missing) + 2 journeymen x 50,000 = 635,000.
    # Petty cash: 820,000 - 635,000 = 185,000: a mercenary Orc Lineman with Block costs
    # 50,000 + 30,000 + 50,000 = 130,000.
    away = _record(
        bram,
        match,
        "away",
        SideChoices(mercenaries=(MercenaryOrder("orc-lineman", "Block"),)),
    )
    assert (away.ctv, away.petty_cash, away.total, away.treasury_spent) == (
        635_000,
        185_000,
        130_000,
        0,
    )
    assert sorted((i.kind, i.ref, i.cost) for i in away.items) == [
        ("journeyman", "orc-lineman", 0),
        ("journeyman", "orc-lineman", 0),
        ("mercenary", "orc-lineman", 130_000),
    ]
