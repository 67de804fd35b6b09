"""What the match page shows after the result is final, per side: the journeymen who may
be hired for good, and (BB2025) the MVP draw and a conceding team's departures, as
results once made or as forms for the side's coach."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_login import current_user

from league.extensions import db
from league.i18n import gettext
from league.models import Match, MatchTeam, Player
from league.rules import RulesError, Ruleset
from league.rules.postgame import rolls_to_leave
from league.rules.refusals import refusal_text
from league.services import postgame
from league.services.access import league_ruleset, may_manage_team, roster
from league.services.text import isolated
from league.web.forms.postgame import DeparturesForm, MvpDrawForm, departures_form

# ---------------------------------------------------------------------------
# What the match page shows


@dataclass(frozen=True, slots=True)
class JourneymanOffer:
    player: Player
    #: Hired for good already (he is on the roster now).
    hired: bool
    price: int
    #: Why he cannot be hired now (refusal texts), empty when he can.
    refusals: tuple[str, ...]


@dataclass(slots=True)
class SidePanel:
    side: MatchTeam
    manage: bool
    journeymen: list[JourneymanOffer] = field(default_factory=list)
    #: The edition draws the MVP among nominees (BB2025).
    mvp_draw: bool = False
    #: How many players a coach nominates (the edition's number).
    mvp_nominees: int = 0
    #: The MVPs the report entered instead of a draw (their labels): nothing to draw.
    mvp_entered: list[str] = field(default_factory=list)
    mvp_form: MvpDrawForm | None = None
    #: The drawn MVP's name, the nominees' names, the die and who rolled it.
    mvp_result: dict[str, Any] | None = None
    departures: bool = False
    #: The advancements from which a conceding team's player rolls to leave (the edition's).
    departure_advancements: int = 0
    departures_form: DeparturesForm | None = None
    #: (name, die, left) of each roll made.
    departure_results: list[tuple[str, int, bool]] = field(default_factory=list)


def label(player: Player) -> str:
    """A player as the post-game forms list him: "Name (#4)"."""
    return f"{isolated(player.name)} (#{player.number})"


def offers(match: Match, side: MatchTeam) -> list[JourneymanOffer]:
    team = side.team
    kept = roster(team)
    dead = {a.player_id for a in match.players if a.injury == "dead"}
    offers = []
    for player in postgame.match_day_players(db.session(), match, team):
        hired = player.on_roster
        if player.status != "journeyman" and not hired:
            continue
        if player.status == "star" or player.status == "mercenary":
            continue
        try:
            terms = postgame.journeyman_terms(
                team, player, len([p for p in kept if p.id != player.id])
            )
        except RulesError:  # pragma: no cover - journeymen come from the team's positions
            continue
        refusals: list[str] = []
        if not hired:
            refusals = [refusal_text(r, team=team.name) for r in terms.decision.reasons]
            if player.id in dead:
                refusals.append(gettext("%(name)s died in this match.", name=player.name))
        offers.append(JourneymanOffer(player, hired, terms.price, tuple(refusals)))
    return offers


def mvp_choices(side: MatchTeam) -> list[tuple[int, str]]:
    """The players the side's coach may nominate (`postgame.mvp_candidates`)."""
    return [(p.id, label(p)) for p in postgame.mvp_candidates(db.session(), side)]


def _mvp_result(match: Match, side: MatchTeam) -> dict[str, Any] | None:
    drawn = side.mvp_draw
    if drawn is None:
        return None
    names = {p.id: label(p) for p in side.team.players}
    nominees = [names.get(pid, f"#{pid}") for pid in drawn["nominees"]]
    return {
        "mvp": nominees[drawn["die"] - 1],
        "nominees": nominees,
        "die": drawn["die"],
        "rolled": drawn.get("rolled", True),
    }


def _rolling(side: MatchTeam, ruleset: Ruleset) -> list[Player]:
    return [p for p in roster(side.team) if rolls_to_leave(ruleset, len(p.active_advancements))]


def panels(match: Match, forms: dict[tuple[str, str], Any] | None = None) -> list[SidePanel]:
    """Each side's post-game panel; `forms` ((side, "mvp"|"departures") -> form) keeps a
    form sent back with errors."""
    if match.state != "played":
        return []
    forms = forms or {}
    ruleset = league_ruleset(match.league)
    signed_in = current_user.is_authenticated
    table_dice = match.league.table_dice_allowed
    found = []
    for side in match.sides:
        panel = SidePanel(
            side=side, manage=signed_in and may_manage_team(side.team, current_user).allowed
        )
        panel.journeymen = offers(match, side)
        if ruleset.spp.mvp_nominees > 0:
            panel.mvp_draw = True
            panel.mvp_nominees = ruleset.spp.mvp_nominees
            panel.mvp_result = _mvp_result(match, side)
            panel.mvp_entered = [label(p) for p in postgame.reported_mvps(side)]
            if panel.mvp_result is None and not panel.mvp_entered and panel.manage:
                form = forms.get((side.side, "mvp"))
                if form is None:
                    form = MvpDrawForm(
                        prefix=f"{side.side}-mvp", choices=mvp_choices(side), formdata=None
                    )
                if not table_dice and "die" in form:
                    del form.die
                panel.mvp_form = form
        if side.conceded and ruleset.spp.concession_departure_advancements > 0:
            panel.departures = True
            panel.departure_advancements = ruleset.spp.concession_departure_advancements
            if side.departures is not None:
                names = {p.id: p.name for p in side.team.players}
                left = {int(pid) for pid in side.departures.get("left", ())}
                panel.departure_results = [
                    (names.get(int(pid), f"#{pid}"), int(die), int(pid) in left)
                    for pid, die in side.departures.get("rolls", {}).items()
                ]
            elif panel.manage:
                form = forms.get((side.side, "departures"))
                if form is None:
                    form = side_departures_form(side, ruleset, table_dice, formdata=None)
                panel.departures_form = form
        found.append(panel)
    return found


def side_departures_form(
    side: MatchTeam, ruleset: Ruleset, table_dice: bool, **kwargs: Any
) -> DeparturesForm:
    players = [(p.id, label(p)) for p in _rolling(side, ruleset)]
    return departures_form(players, table_dice, prefix=f"{side.side}-departures", **kwargs)
