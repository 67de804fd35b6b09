"""Names people type are one line of valid Unicode: leagues, tokens and usernames too."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from league.extensions import db
from league.models import ApiToken, League, User
from league.services import leagues
from league.services.errors import RuleViolation
from league.services.text import checked_name, is_valid_unicode
from league.services.unit_of_work import unit_of_work
from league.services.users import NewUser, create_user, issue_token
from tests.factories import make_user

#: A line break of each kind and each bidirectional control (U+202A-U+202E, U+2066-U+2069).
NOT_ONE_LINE = [
    *(f"Bad{c}Name" for c in "\r\n\v\f\x85\u2028\u2029"),
    *(f"Bad{chr(c)}Name" for c in range(0x202A, 0x202F)),
    *(f"Bad{chr(c)}Name" for c in range(0x2066, 0x206A)),
]


@pytest.mark.parametrize("name", NOT_ONE_LINE)
def test_checked_name_refuses_line_breaks_and_direction_controls(name: str) -> None:
    with pytest.raises(RuleViolation, match="A name is one line of text") as refused:
        checked_name(name, field="name", what="A name", length=(1, 60))
    assert (refused.value.code, refused.value.field) == ("invalid_name", "name")


def test_checked_name_trims_and_keeps_everything_else() -> None:
    # Marks that join scripts (ZWJ in emoji, Arabic letters) are not direction controls.
    for name in ("Grüngrot", "Ωmega Orcs", "ملوك", "🧌\u200d🧌 Trolls", "O'Reilly-Smith"):
        assert checked_name(f"\n {name}\r\n", field="name", what="A name", length=(1, 60)) == name
    with pytest.raises(RuleViolation, match="A name has 1 to 60 characters"):
        checked_name("\r\n", field="name", what="A name", length=(1, 60))


def test_a_lone_surrogate_is_not_valid_unicode() -> None:
    assert not is_valid_unicode("x\ud800")
    assert not is_valid_unicode("\udfff")
    assert is_valid_unicode("\U0001f9cc")  # a real pair: one character
    with pytest.raises(RuleViolation, match="one line of text"):
        checked_name("Bad\udc00", field="name", what="A name", length=(1, 60))


@pytest.mark.parametrize("name", ["Old\nWorld", "Old\u202eWorld"])
def test_league_names_are_one_line(name: str) -> None:
    boss = make_user("boss")
    with pytest.raises(RuleViolation, match="A league name is one line"), unit_of_work() as s:
        leagues.create_league(s, boss, leagues.LeagueSettings(name, "bb2025"))
    assert db.session.scalar(select(func.count(League.id))) == 0


@pytest.mark.parametrize("name", ["Discord\nbot", "bot\u2066"])
def test_token_names_are_one_line(name: str) -> None:
    boss = make_user("boss")
    with (
        pytest.raises(RuleViolation, match="A token name is one line") as refused,
        unit_of_work() as session,
    ):
        issue_token(session, boss, name)
    assert refused.value.code == "invalid_token_name"
    assert db.session.scalar(select(func.count(ApiToken.id))) == 0


@pytest.mark.parametrize("username", ["ann\nbob", "ann\u202ebob", "ann\u2066"])
def test_usernames_are_one_line(username: str) -> None:
    """Letters, digits, dots, dashes and underscores only: no break, no direction control."""
    with (
        pytest.raises(RuleViolation, match="A username has 3 to 40 letters"),
        unit_of_work() as session,
    ):
        create_user(session, NewUser(username, "long enough password"))
    assert db.session.scalar(select(func.count(User.id))) == 0
