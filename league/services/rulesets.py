"""The shipped rulesets by the ids an address names: an unknown one is a NotFound."""

from __future__ import annotations

from league.i18n import gettext
from league.rules import Ruleset, load_ruleset, ruleset_ids
from league.rules.model import RulesError, TeamType
from league.services.errors import NotFound


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in ruleset_ids():
        raise NotFound(gettext("There is no ruleset called %(id)s.", id=repr(ruleset_id)))
    return load_ruleset(ruleset_id)


def get_team_type(ruleset: Ruleset, team_type_id: str) -> TeamType:
    try:
        return ruleset.team_type(team_type_id)
    except RulesError:
        raise NotFound(
            gettext(
                "%(ruleset)s has no team type %(id)s.", ruleset=ruleset.name, id=repr(team_type_id)
            )
        ) from None
