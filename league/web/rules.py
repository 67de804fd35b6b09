"""The rules browser: rulesets, their tables, skills and team rosters (read-only)."""

from __future__ import annotations

import unicodedata

import flask_babel
from flask import Blueprint, render_template, request
from werkzeug.exceptions import HTTPException

from league.i18n import format_number, gettext
from league.rules import (
    Ruleset,
    RulesText,
    TeamType,
    eligible_inducements,
    eligible_stars,
    inducement_limit,
    inducement_price,
    load_ruleset,
    ruleset_ids,
    skill_kind_words,
    stat_label,
)
from league.rules.model import MatchDay
from league.services.errors import NotFound
from league.services.rulesets import get_ruleset, get_team_type

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.app_template_filter("stat")
def format_stat(value: int | None, characteristic: str, ruleset: Ruleset) -> str:
    """A characteristic as printed on a roster: 3+ for target numbers, - for none."""
    if value is None:
        return "-"
    if ruleset.stat_style == "target" and characteristic in ("ag", "pa", "av"):
        return f"{value}+"
    return str(value)


@bp.app_template_global("rules_text")
def rules_text(ruleset: Ruleset) -> RulesText:
    """Skill, category and inducement texts of ``ruleset`` in the page's language."""
    return ruleset.text(flask_babel.get_locale())


@bp.app_template_global("stat_label")
@bp.app_template_filter("stat_label")
def stat_label_global(characteristic: str) -> str:
    """``stat_label('ma')``: the characteristic's abbreviation in the reader's language."""
    return stat_label(characteristic)


@bp.app_template_filter("skill_kind")
def format_skill_kind(kind: str, side_only: bool = False) -> str:
    """A skill kind code ("chosen_primary") as words in the reader's language."""
    return skill_kind_words(kind, side_only=side_only)


@bp.app_template_filter("gold")
def format_gold(value: int | None) -> str:
    """Gold as the reader's language groups digits (1,000,000 / 1.000.000 / 1 000 000)."""
    return "-" if value is None else format_number(value)


@bp.route("")
def index() -> str:
    rulesets = [load_ruleset(ruleset_id) for ruleset_id in ruleset_ids()]
    return render_template("rules/index.html", rulesets=rulesets)


@bp.route("/<ruleset_id>")
def ruleset(ruleset_id: str) -> str:
    return render_template("rules/ruleset.html", ruleset=get_ruleset(ruleset_id))


@bp.route("/<ruleset_id>/skills")
def skills(ruleset_id: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    query = (request.args.get("q") or "").strip()
    needle = query.casefold()
    text = rules_text(ruleset)
    categories = []
    for category in ruleset.skill_categories:
        # Found by its English name too: roster links and coaches use it.
        members = [
            skill
            for skill in ruleset.skills_in(category.code)
            if not needle
            or any(
                needle in words.casefold()
                for words in (
                    skill.name,
                    skill.summary,
                    text.skill_name(skill.name),
                    text.skill_summary(skill.name),
                )
            )
        ]
        if members:
            categories.append((category, members))
    return render_template("rules/skills.html", ruleset=ruleset, categories=categories, query=query)


@bp.route("/<ruleset_id>/teams")
def teams(ruleset_id: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    return render_template("rules/teams.html", ruleset=ruleset, team_types=_by_name(ruleset))


@bp.route("/<ruleset_id>/teams/<team_type_id>")
def team(ruleset_id: str, team_type_id: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    team_type = get_team_type(ruleset, team_type_id)
    return render_template("rules/team.html", ruleset=ruleset, team_type=team_type)


def _by_name(ruleset: Ruleset) -> list[TeamType]:
    """The team types in alphabetical order of their names in the page's language."""
    text = rules_text(ruleset)
    return sorted(ruleset.team_types, key=lambda t: _sort_key(text.team_type_name(t.id)))


def _sort_key(name: str) -> str:
    """Accents ignored, so "Élus du Chaos" sorts with the E's."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _team_names(ruleset: Ruleset) -> dict[str, str]:
    text = rules_text(ruleset)
    return {t.id: text.team_type_name(t.id) for t in ruleset.team_types}


def _match_day(ruleset: Ruleset) -> MatchDay:
    if ruleset.match_day is None:
        raise NotFound(
            gettext("%(ruleset)s has no inducements or star players.", ruleset=ruleset.name)
        )
    return ruleset.match_day


def _chosen_team(ruleset: Ruleset) -> TeamType | None:
    """The team type picked in the "who can this team hire?" filter (None: all)."""
    team_id = (request.args.get("team") or "").strip()
    if not team_id:
        return None
    return get_team_type(ruleset, team_id)


@bp.route("/<ruleset_id>/inducements")
def inducements(ruleset_id: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    match_day = _match_day(ruleset)
    team_type = _chosen_team(ruleset)
    if team_type is None:
        items = [(item, item.cost, item.max) for item in match_day.inducements]
    else:
        items = [
            (
                item,
                inducement_price(ruleset, team_type, item.id),
                inducement_limit(ruleset, team_type, item.id),
            )
            for item in eligible_inducements(ruleset, team_type)
        ]
    return render_template(
        "rules/inducements.html",
        ruleset=ruleset,
        match_day=match_day,
        items=items,
        team_type=team_type,
        team_types=_by_name(ruleset),
        team_names=_team_names(ruleset),
    )


@bp.route("/<ruleset_id>/star-players")
def star_players(ruleset_id: str) -> str:
    ruleset = get_ruleset(ruleset_id)
    match_day = _match_day(ruleset)
    team_type = _chosen_team(ruleset)
    stars = match_day.stars if team_type is None else eligible_stars(ruleset, team_type)
    return render_template(
        "rules/star_players.html",
        ruleset=ruleset,
        match_day=match_day,
        stars=sorted(stars, key=lambda s: s.name),
        pairs={p.id: p for p in match_day.pairs},
        star_names={s.id: s.name for s in match_day.stars},
        team_names=_team_names(ruleset),
        team_type=team_type,
        team_types=_by_name(ruleset),
    )


def not_found_page(error: HTTPException) -> str:
    """A 404 under /rules: what was not found, and the way back into the rules browser.

    A link to a page the browser does not have never reaches a view (so there is no
    description of our own); the ruleset named in the address, if it exists, gets
    its pages linked.
    """
    ruleset_id = request.path.removeprefix(bp.url_prefix or "").strip("/").partition("/")[0]
    ruleset = load_ruleset(ruleset_id) if ruleset_id in ruleset_ids() else None
    if request.endpoint is not None and error.description:
        message = error.description
    elif ruleset is not None:
        message = gettext(
            "%(ruleset)s has no rules page at %(path)s.", ruleset=ruleset.name, path=request.path
        )
    else:
        message = gettext("The rules browser has no page at %(path)s.", path=request.path)
    rulesets = [load_ruleset(other) for other in ruleset_ids()]
    return render_template(
        "rules/not_found.html", message=message, ruleset=ruleset, rulesets=rulesets
    )
