"""A full 16-player BB2025 Human team for the PDF tests and bench/pdf.py.

Built through the services (draft, staff, advancements, firing); the injuries
and the SPP a season would have brought are written onto the players directly,
since a match report is not what these tests are about.
"""

from __future__ import annotations

from dataclasses import dataclass

from league.extensions import db
from league.models import Advancement, League, Player, Team, User
from league.services import access, teams
from league.services.advancement import AdvancementRequest, buy_advancement
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user

PASSWORD = "correct horse battery"
INJECTION = '<img src="file:///etc/passwd">'

#: (position, name) in shirt-number order: 16 players, Unicode names among them.
HIRES = (
    ("ogre", "Ωmega Thrust"),
    ("human-blitzer", "Zoë Brandt"),
    ("human-blitzer", "Jørgen Ødegaard"),
    ("human-thrower", "王小明"),
    ("human-thrower", "Griff Oberwald"),
    ("human-catcher", "Mighty Zug"),
    ("human-catcher", "Lena Fleetfoot"),
    ("halfling-hopeful", "Pip Tallfellow"),
    ("halfling-hopeful", "Bramble Hornblower"),
    ("halfling-hopeful", "Tom Greenbottle"),
    ("human-lineman", "Karl Stampfer"),
    ("human-lineman", "Otto Brenner"),
    ("human-lineman", "Hans Müller"),
    ("human-lineman", "Dieter Vogt"),
    ("human-lineman", "Erik Falkenrath"),
    ("human-lineman", "Franz Kessel"),
)


@dataclass(frozen=True, slots=True)
class Sample:
    commissioner: User
    coach: User
    league: League
    team: Team


def make_users() -> tuple[User, User]:
    with unit_of_work() as session:
        commissioner = create_user(session, NewUser("commish", PASSWORD, False))
        coach = create_user(session, NewUser("coach_zoe", PASSWORD, False))
    return commissioner, coach


def make_sample_league(commissioner: User, coach: User, name: str = "Ünïcode League") -> League:
    with unit_of_work() as session:
        league = create_league(
            session,
            commissioner,
            LeagueSettings(name, "bb2025", starting_treasury=1_500_000),
        )
        add_member(session, commissioner, league, coach, "coach")
    return league


def make_sample_team(
    coach: User, league: League, name: str = "Altdorf Übermächtige", players: int = 16
) -> Team:
    """A confirmed team of `players` (up to 16) with staff, advancements and injuries."""
    with unit_of_work() as session:
        team = teams.create_team(session, coach, teams.NewTeam(league.id, name, "human"))
        for number, (position, player_name) in enumerate(HIRES[:players], start=1):
            teams.hire_player(
                session, coach, team.id, teams.HirePlayer(position, player_name, number)
            )
        for item, count in (("reroll", 3), ("apothecary", 1), ("assistant_coach", 2)):
            for _ in range(count):
                teams.buy_team_item(session, coach, team.id, item)
        teams.buy_team_item(session, coach, team.id, "cheerleader")
        if players >= 11:  # smaller teams stay drafts (printable all the same)
            teams.confirm_draft(session, coach, team.id)
        team_id = team.id
    if players < 11:
        return access.get_team(db.session, team_id)

    by_number = {p.number: p for p in access.get_team(db.session, team_id).players}
    with unit_of_work() as session:
        for number, spp in ((2, 14), (3, 20), (5, 9), (8, 3)):
            if number in by_number:
                by_number[number].spp_earned = spp
    skills = ((2, "Wrestle"), (3, "Guard"), (3, "Mighty Blow"), (5, "Accurate"))
    with unit_of_work() as session:
        for number, skill in skills:
            if number in by_number:
                buy_advancement(
                    session,
                    coach,
                    by_number[number].id,
                    AdvancementRequest("chosen_primary", skill=skill),
                )
    with unit_of_work() as session:
        if 11 in by_number:  # +MA by a characteristic improvement
            karl = by_number[11]
            session.add(
                Advancement(
                    player=karl,
                    number=1,
                    kind="random_characteristic",
                    spp_cost=0,
                    characteristic="ma",
                    value_increase=20_000,
                )
            )
            karl.value += 20_000
        if 12 in by_number:  # a lasting injury and a niggle, and out for the next game
            otto = by_number[12]
            otto.av_reduction = 1
            otto.niggling_injuries = 2
            otto.status = "mng"
        if 7 in by_number:
            by_number[7].status = "mng"
    return access.get_team(db.session, team_id)


def dead_and_gone(coach: User, team: Team) -> list[Player]:
    """Players #14-#16 leave the roster: one dies, one retires, one is fired."""
    by_number = {p.number: p for p in team.players if p.on_roster}
    leaving = [by_number[14], by_number[15], by_number[16]]
    with unit_of_work() as session:
        leaving[0].status = "dead"
        leaving[1].status = "retired"
        teams.fire_player(session, coach, leaving[2].id)
    return leaving


def build() -> Sample:
    commissioner, coach = make_users()
    league = make_sample_league(commissioner, coach)
    return Sample(commissioner, coach, league, make_sample_team(coach, league))


def player_by_name(team: Team, name: str) -> Player:
    return next(p for p in team.players if p.name == name)
