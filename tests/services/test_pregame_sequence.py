"""The issue's hand-worked pre-game numbers, played through league.services.pregame.

BB2025 (rulebook, "Pre-game sequence: Inducements"): the team with the higher CTV
buys first from its treasury; the other gets petty cash of the CTV gap plus what
the higher team spent, may add up to 50,000 of its treasury, and what petty cash
does not cover comes from the treasury; unspent petty cash is lost. BB2020 (its
"Inducements" step) is the same, except that the lower team adds no treasury.
Equal CTVs: no petty cash, and no treasury spent on inducements.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from league.extensions import db
from league.models import League, Match, Player, PregameSide, Team, User
from league.rules.match_day import eligible_inducements
from league.services import access, matches, teams
from league.services.errors import RuleViolation
from league.services.pregame import (
    SideChoices,
    chosen_stars,
    get_pregame,
    item_lines,
    record_side,
    side_offer,
    stage,
)
from league.services.unit_of_work import unit_of_work
from tests.factories import buy, hire, make_active_team, make_league, make_team, make_user

# BB2025 Humans: 7 x 50,000 + 2 x 75,000 + 2 x 75,000 + 2 x 85,000 + Ogre 140,000 = 960,000;
# + 3 re-rolls x 50,000 + 4 assistant coaches x 10,000 = 1,150,000.
HUMANS_2025 = (
    ("human-lineman", 7),
    ("human-catcher", 2),
    ("human-thrower", 2),
    ("human-blitzer", 2),
    ("ogre", 1),
)
# BB2025 Orcs: 7 x 50,000 + 2 x 75,000 + 2 x 85,000 + 2 Big Un x 95,000 = 860,000;
# + 2 re-rolls x 60,000 + 2 assistant coaches x 10,000 = 1,000,000.
ORCS_2025 = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2), ("big-un-blocker", 2))
# BB2020 Humans: 7 x 50,000 + 2 x 80,000 + 2 x 65,000 + 2 x 85,000 + Ogre 140,000 = 950,000;
# + 4 re-rolls x 50,000 = 1,150,000.
HUMANS_2020 = (("human-lineman", 7), ("thrower", 2), ("catcher", 2), ("blitzer", 2), ("ogre", 1))
# BB2020 Orcs: 7 x 50,000 + 2 x 65,000 + 2 x 80,000 + 2 Big Un x 90,000 = 820,000;
# + 3 re-rolls x 60,000 = 1,000,000.
ORCS_2020 = (("orc-lineman", 7), ("thrower", 2), ("blitzer", 2), ("big-un", 2))
START = 1_300_000


def _drafted(
    coach: User,
    league: League,
    team_type: str,
    name: str,
    lines: tuple[tuple[str, int], ...],
    *,
    reroll: int,
    coaches: int = 0,
) -> Team:
    """A team drafted with its re-rolls and assistant coaches at draft prices."""
    team = make_team(coach, league, team_type, name)
    for position_id, count in lines:
        hire(coach, team, position_id, count)
    buy(coach, team, "reroll", reroll)
    if coaches:
        buy(coach, team, "assistant_coach", coaches)
    with unit_of_work() as session:
        teams.confirm_draft(session, coach, team.id)
    return team


def _fixture(ruleset_id: str) -> tuple[Match, User, User, User, Team, Team]:
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league: League = make_league(commish, ruleset_id, anna, bram, starting_treasury=START)
    if ruleset_id == "bb2025":
        humans = _drafted(anna, league, "human", "Reavers", HUMANS_2025, reroll=3, coaches=4)
        orcs = _drafted(bram, league, "orc", "Gouged Eye", ORCS_2025, reroll=2, coaches=2)
    else:
        humans = _drafted(anna, league, "human", "Reavers", HUMANS_2020, reroll=4)
        orcs = _drafted(bram, league, "orc", "Gouged Eye", ORCS_2020, reroll=3)
    with unit_of_work() as session:
        match = matches.schedule_match(session, commish, league.id, humans.id, orcs.id)
    return match, commish, anna, bram, humans, orcs


def _record(actor: User, match: Match, side: str, choices: SideChoices) -> PregameSide:
    with unit_of_work() as session:
        return record_side(session, actor, match.id, side, choices)


def _treasury(team: Team) -> int:
    db.session.expire_all()
    return db.session.get(Team, team.id).treasury  # type: ignore[union-attr]


# 2 x Extra Team Training + Blitzer's Best Kegs + Weather Mage + Prayers to Nuffle
# + Temp Agency Cheerleaders = 200,000 + 50,000 + 25,000 + 10,000 + 5,000 = 290,000.
LOWER_2025 = {
    "extra-team-training": 2,
    "blitzers-best-kegs": 1,
    "weather-mage": 1,
    "prayers-to-nuffle": 1,
    "temp-agency-cheerleaders": 1,
}


def test_bb2025_higher_bribe_lower_petty_cash_and_treasury(app) -> None:
    match, _commish, anna, bram, humans, orcs = _fixture("bb2025")
    assert (_treasury(humans), _treasury(orcs)) == (150_000, 300_000)
    match, view = get_pregame(db.session, match.id)
    assert (view.home.ctv, view.away.ctv) == (1_150_000, 1_000_000)
    assert stage(match, view) == "home_first"
    # The higher team (Humans) spends 100,000 of its treasury on a Bribe.
    home = _record(anna, match, "home", SideChoices(inducements={"bribes": 1}))
    assert (home.petty_cash, home.total, home.treasury_spent) == (0, 100_000, 100_000)
    match, view = get_pregame(db.session, match.id)
    # Petty cash: the 150,000 gap + the 100,000 the Humans spent = 250,000; the Orcs may
    # add at most 50,000 of their treasury (BB2025).
    assert view.away.petty_cash == 250_000
    assert view.away.treasury_allowance == 50_000
    assert stage(match, view) == "open"
    # Adding only 30,000: 290,000 is over the 280,000 budget, nothing saved.
    with pytest.raises(RuleViolation) as refused:
        _record(bram, match, "away", SideChoices(inducements=LOWER_2025, treasury=30_000))
    assert refused.value.code == "over_budget"
    assert refused.value.message == "This costs 290,000 but the team may spend 280,000."
    away = _record(bram, match, "away", SideChoices(inducements=LOWER_2025, treasury=50_000))
    # The treasury pays only what petty cash did not cover: 290,000 - 250,000 = 40,000.
    assert (away.petty_cash, away.total, away.treasury_spent) == (250_000, 290_000, 40_000)
    match, view = get_pregame(db.session, match.id)
    assert stage(match, view) == "ready"
    assert [(line.name, line.count, line.cost) for line in item_lines(view.home)] == [
        ("Bribes", 1, 100_000)
    ]
    # Nothing is booked before the result: the treasuries are as they were.
    assert (_treasury(humans), _treasury(orcs)) == (150_000, 300_000)


def test_bb2020_lower_team_adds_no_treasury(app) -> None:
    match, _commish, anna, bram, _humans, _orcs = _fixture("bb2020")
    match, view = get_pregame(db.session, match.id)
    assert (view.home.ctv, view.away.ctv) == (1_150_000, 1_000_000)
    _record(anna, match, "home", SideChoices(inducements={"bribes": 1}))
    match, view = get_pregame(db.session, match.id)
    assert view.away.petty_cash == 250_000
    assert view.away.treasury_allowance == 0  # BB2020: petty cash only
    # 2 Extra Team Training + Bloodweiser Kegs + Weather Mage + 2 cheerleaders (BB2020
    # prices) = 200,000 + 50,000 + 30,000 + 40,000 = 320,000: over the 250,000.
    over = {
        "extra-team-training": 2,
        "bloodweiser-kegs": 1,
        "weather-mage": 1,
        "temp-agency-cheerleaders": 2,
    }
    with pytest.raises(RuleViolation) as refused:
        _record(bram, match, "away", SideChoices(inducements=over, treasury=50_000))
    assert refused.value.message == "This costs 320,000 but the team may spend 250,000."
    # 2 x Extra Team Training + Bloodweiser Kegs = 250,000, all from petty cash.
    away = _record(
        bram,
        match,
        "away",
        SideChoices(inducements={"extra-team-training": 2, "bloodweiser-kegs": 1}),
    )
    assert (away.petty_cash, away.total, away.treasury_spent) == (250_000, 250_000, 0)


def test_equal_ctv_gives_no_inducements(app) -> None:
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2020", anna, bram)
    lines = (("human-lineman", 11),)
    one = make_active_team(anna, league, "human", "Ones", lines)
    two = make_active_team(bram, league, "human", "Twos", lines)
    with unit_of_work() as session:
        match = matches.schedule_match(session, commish, league.id, one.id, two.id)
    match, view = get_pregame(db.session, match.id)
    # 11 x 50,000 each: no petty cash, and (equal CTVs) no treasury for inducements.
    assert (view.home.ctv, view.away.ctv) == (550_000, 550_000)
    assert (view.home.petty_cash, view.away.petty_cash) == (0, 0)
    assert (view.home.treasury_allowance, view.away.treasury_allowance) == (0, 0)
    assert stage(match, view) == "open"
    with pytest.raises(RuleViolation) as refused:
        _record(anna, match, "home", SideChoices(inducements={"bribes": 1}))
    assert refused.value.message == "This costs 100,000 but the team may spend 0."


def test_journeymen_of_the_right_position_counted_at_cost(app) -> None:
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2025", anna, bram)
    # 11 Orcs drafted (9 linemen, 2 blitzers), one lineman fired: 10 on the roster; one
    # blitzer misses the game: 9 available.
    orcs = make_active_team(
        bram, league, "orc", "Ten Orcs", (("orc-lineman", 9), ("orc-blitzer", 2))
    )
    # 11 Snotlings, one fired: 10 (BB2025 Low Cost Linemen: journeymen add nothing to CTV).
    snots = make_active_team(anna, league, "snotling", "Ten Snots", (("snotling-lineman", 11),))
    for team in (orcs, snots):
        first = db.session.scalars(
            select(Player).where(Player.team_id == team.id).order_by(Player.id)
        ).first()
        assert first is not None
        first.status = "fired"
    blitzer = db.session.scalars(
        select(Player).where(Player.team_id == orcs.id, Player.position_id == "orc-blitzer")
    ).first()
    assert blitzer is not None
    blitzer.status = "mng"
    db.session.commit()
    with unit_of_work() as session:
        match = matches.schedule_match(session, commish, league.id, orcs.id, snots.id)
    match, view = get_pregame(db.session, match.id)
    assert (view.home.facts.available, view.home.facts.journeymen_needed) == (9, 2)
    assert view.away.facts.journeymen_needed == 1
    # Only Orc Linemen (the 0-16 Lineman position) come as journeymen.
    assert [p.id for p in view.home.journeyman_positions] == ["orc-lineman"]
    # CTV: 8 x 50,000 + 85,000 (the other blitzer) + 2 journeymen x 50,000 = 585,000.
    assert view.home.ctv == 585_000
    # BB2025 Low Cost Linemen: the 10 Snotling Linemen count 0 in team value, and so does
    # their journeyman (a 15,000 Snotling Lineman everywhere else).
    assert (view.away.facts.ctv, view.away.ctv) == (0, 0)
    side = _record(bram, match, "home", SideChoices())
    assert [(i.kind, i.ref) for i in side.items] == [
        ("journeyman", "orc-lineman"),
        ("journeyman", "orc-lineman"),
    ]
    match, view = get_pregame(db.session, match.id)
    from league.api.pregame import pregame_json

    body = pregame_json(match.id)
    assert (
        body["home"]["journeymen"]
        == [{"position": "orc-lineman", "position_name": "Orc Lineman", "trait": "Loner (4+)"}] * 2
    )


def test_stars_eligible_two_at_most_and_a_pair_takes_two_places(app) -> None:
    match, commish, anna, bram, humans, orcs = _fixture("bb2025")
    humans_offer = {h.id: h for h in side_offer(humans).stars}
    orcs_offer = {h.id for h in side_offer(orcs).stars}
    # Griff Oberwald plays for Old World Classic (Humans), not for the Orcs.
    assert "griff-oberwald" in humans_offer
    assert "griff-oberwald" not in orcs_offer
    # A pair is one hire of two players for one fee.
    pair = humans_offer["grak-and-crumbleberry"]
    assert (pair.cost, pair.roster_places) == (250_000, 2)
    # BB2025: two star choices per game at most.
    three = ("akhorne-the-squirrel", "barik-farblast", "cindy-piewhistle")
    with pytest.raises(RuleViolation) as too_many:
        _record(commish, match, "home", SideChoices(stars=three))
    assert too_many.value.code == "too_many_stars"
    assert too_many.value.field == "star_players"
    # (14 Humans + 3 stars would also be 17 players: both reasons are given.)
    assert too_many.value.message == (
        "At most 2 star players per game (a pair counts once); 3 chosen. "
        "Stars and mercenaries would take the team over 16 players."
    )
    # 14 Humans + the pair (2 places) = 16 fits (only the gold is short) ...
    with pytest.raises(RuleViolation) as gold:
        _record(commish, match, "home", SideChoices(stars=("grak-and-crumbleberry",)))
    assert gold.value.code == "over_budget"
    # ... + one more star is 17 players: over the 16 a roster holds.
    with pytest.raises(RuleViolation) as places:
        _record(
            commish,
            match,
            "home",
            SideChoices(stars=("grak-and-crumbleberry", "akhorne-the-squirrel")),
        )
    assert places.value.code == "no_roster_place"
    # The Humans hire Akhorne (80,000); then the Orcs may not have Griff.
    _record(anna, match, "home", SideChoices(stars=("akhorne-the-squirrel",)))
    with pytest.raises(RuleViolation) as griff:
        _record(bram, match, "away", SideChoices(stars=("griff-oberwald",)))
    assert griff.value.message == "Griff Oberwald does not play for Orc teams."
    # BB2025: a star both teams hire plays for both.
    _record(bram, match, "away", SideChoices(stars=("akhorne-the-squirrel",)))
    match, view = get_pregame(db.session, match.id)
    assert [(c.hire.id, c.plays) for c in chosen_stars(view, "home")] == [
        ("akhorne-the-squirrel", True)
    ]
    assert [(c.hire.id, c.plays) for c in chosen_stars(view, "away")] == [
        ("akhorne-the-squirrel", True)
    ]


def test_bb2020_a_star_both_teams_hire_plays_for_neither(app) -> None:
    match, _commish, anna, bram, _humans, _orcs = _fixture("bb2020")
    _record(anna, match, "home", SideChoices(stars=("akhorne-the-squirrel",)))
    _record(bram, match, "away", SideChoices(stars=("akhorne-the-squirrel",)))
    match, view = get_pregame(db.session, match.id)
    # Both paid his fee (80,000: the Orcs from their 230,000 of petty cash) ...
    assert (view.home.saved.treasury_spent, view.away.saved.treasury_spent) == (80_000, 0)
    # ... and neither fields him.
    assert [c.plays for c in chosen_stars(view, "home")] == [False]
    assert [c.plays for c in chosen_stars(view, "away")] == [False]


PAPA = "famous-coaching-staff-papa-skullbones"


def test_papa_skullbones_is_offered_to_the_teams_the_data_names(app) -> None:
    """Death Zone, "(In)Famous Coaching Staff: Papa Skullbones": 80,000 gold pieces,
    available to any team with a Favoured of... or the Underworld Challenge special rule."""
    commish, anna, bram = make_user("commish"), make_user("anna"), make_user("bram")
    league = make_league(commish, "bb2020", anna, bram, starting_treasury=START)
    # Chaos Chosen (every Favoured of... rule): 11 Beastmen x 60,000 = 660,000, CTV the higher.
    chosen = _drafted(
        anna, league, "chaos-chosen", "Skull Pit", (("beastman-runner-lineman", 11),), reroll=0
    )
    # Humans (Old World Classic only): 11 linemen x 50,000 = 550,000.
    humans = _drafted(bram, league, "human", "Reavers", (("human-lineman", 11),), reroll=0)
    ruleset = access.team_ruleset(chosen)
    # Of the BB2020 rosters, the ones with a Favoured of... rule (Chaos Chosen, Chaos Dwarfs,
    # Chaos Renegades, Khorne, Norse, Nurgle) or Underworld Challenge (Goblins, Skaven,
    # Snotlings, Underworld Denizens).
    offered = {
        team_type.id
        for team_type in ruleset.team_types
        if any(item.id == PAPA for item in eligible_inducements(ruleset, team_type))
    }
    assert offered == {
        "chaos-chosen",
        "chaos-dwarf",
        "chaos-renegades",
        "khorne",
        "norse",
        "nurgle",
        "goblin",
        "skaven",
        "snotling",
        "underworld-denizens",
    }
    with unit_of_work() as session:
        match = matches.schedule_match(session, commish, league.id, chosen.id, humans.id)
    papa = {o.id: o for o in side_offer(chosen).inducements}[PAPA]
    assert (papa.price, papa.limit) == (80_000, 1)
    assert PAPA not in {o.id for o in side_offer(humans).inducements}
    # The Chaos Chosen buy him from their treasury; the Humans may not, and nothing is saved.
    saved = _record(anna, match, "home", SideChoices(inducements={PAPA: 1}))
    assert saved.treasury_spent == 80_000
    with pytest.raises(RuleViolation) as refused:
        _record(bram, match, "away", SideChoices(inducements={PAPA: 1}))
    assert refused.value.field == "inducements"
    assert "Papa Skullbones" in refused.value.message
    assert (
        db.session.scalars(select(PregameSide).where(PregameSide.team_id == humans.id)).all() == []
    )
