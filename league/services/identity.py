"""A team's identity: its two colours and its logo, set by its coach or a commissioner.

Colours are checked by `league.rules.colours` (the one place that says which pairs
read); logos by `league.services.logos` (what a file must be, how it is re-drawn).
A logo's files are written before the team row changes and the replaced logo's files
removed only once the change is committed: a refusal or a rollback leaves the old
logo shown, and at worst an unused file behind, never a team pointing at nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from league.i18n import gettext
from league.models import Team, User
from league.rules.colours import colours_refusal, parse_colour
from league.services import audit, logos
from league.services.access import get_team, may_manage_team
from league.services.errors import RuleViolation
from league.services.unit_of_work import after_commit

FIELD = "colours"


def team_colours(team: Team) -> tuple[str, str] | None:
    """The team's (primary, secondary) colours, or None: it has not chosen them."""
    if team.primary_colour is None or team.secondary_colour is None:
        return None
    return team.primary_colour, team.secondary_colour


def checked_colours(colours: Sequence[str] | None) -> tuple[str, str] | None:
    """Two ``#rrggbb`` colours (lower case) that read on each other, None for none (None
    or an empty list), or a refusal naming the field "colours"."""
    if not colours:
        return None
    if len(colours) != 2:
        raise RuleViolation(
            gettext("Give two colours, the main one and the second one, or none."),
            code="colours_invalid",
            field=FIELD,
        )
    parsed = [parse_colour(colour) if isinstance(colour, str) else None for colour in colours]
    for given, colour in zip(colours, parsed, strict=True):
        if colour is None:
            raise RuleViolation(
                gettext(
                    "%(colour)s is not a colour: write it as # and six hex digits, e.g. #1f4e9c.",
                    colour=repr(given)[:40],
                ),
                code="colours_invalid",
                field=FIELD,
            )
    primary, secondary = parsed[0] or "", parsed[1] or ""
    refusal = colours_refusal(primary, secondary)
    if refusal is not None:
        raise RuleViolation(refusal, code="colours_unreadable", field=FIELD)
    return primary, secondary


def set_colours(session: Session, actor: User, team_id: int, colours: Sequence[str] | None) -> Team:
    """Give the team two colours, or clear them (None or an empty list)."""
    team = get_team(session, team_id, history=False)
    may_manage_team(team, actor, "identity", session).require()
    pair = checked_colours(colours)
    team.primary_colour, team.secondary_colour = pair if pair else (None, None)
    audit.record(session, actor, "team.colours", "team", team.id, colours=list(pair or ()))
    return team


def set_logo(session: Session, actor: User, team_id: int, data: bytes, filename: str) -> Team:
    """Check, re-draw and store an uploaded logo; the team's former one goes once committed.

    The team's row is locked: of two uploads at once, the second sees the first's logo
    and removes its files when it replaces it."""
    team = get_team(session, team_id, for_update=True, history=False)
    may_manage_team(team, actor, "identity", session).require()
    logo = logos.prepare_logo(team.id, data, filename)
    logos.store(logo)
    _replace_key(session, team, logo.key)
    audit.record(session, actor, "team.logo", "team", team.id, logo=logo.key)
    return team


def remove_logo(session: Session, actor: User, team_id: int) -> Team:
    """The team has no logo any more; its files are removed once that is committed."""
    team = get_team(session, team_id, for_update=True, history=False)
    may_manage_team(team, actor, "identity", session).require()
    if team.logo_key is not None:
        _replace_key(session, team, None)
        audit.record(session, actor, "team.logo_removed", "team", team.id)
    return team


def _replace_key(session: Session, team: Team, key: str | None) -> None:
    old = team.logo_key
    team.logo_key = key
    if old is not None and old != key:
        directory = logos.logo_dir()  # read now: the callback may run outside the request
        after_commit(session, lambda: logos.remove(old, directory))
