"""View models of the match pages: what the report form offers for one match (its
layout and player slots, the stored result as form data) and the result rows of
the match page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.i18n import current_language, gettext
from league.models import Match, Player, Team
from league.rules import RulesError, Ruleset
from league.services.access import roster, team_ruleset, team_type_of
from league.web.forms.matches import COUNTER_LABELS, PlayerSlot, ReportLayout, field_name
from league.web.matches.text import (
    concession_fans_text,
    events_text,
    injury_label,
    injury_result,
    mistake_name,
    mistake_text,
    spp_rule_texts,
    winnings_text,
)

# ---------------------------------------------------------------------------
# What the report form offers


def injury_choices(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    codes = list(dict.fromkeys(r.code for r in ruleset.casualty_table.results))
    return tuple((code, injury_label(ruleset, code)) for code in codes)


def lasting_codes(ruleset: Ruleset) -> tuple[str, ...]:
    codes = []
    for code in dict.fromkeys(r.code for r in ruleset.casualty_table.results):
        first = next(r for r in ruleset.casualty_table.results if r.code == code)
        if first.effect == "lasting":  # classic fixes the characteristic per D68 row
            codes.append(code)
    return tuple(codes)


def characteristic_choices(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    names: dict[str, list[str]] = {}
    for row in ruleset.lasting_injuries:
        names.setdefault(row.characteristic, []).append(row.name)
    return tuple(
        (
            c,
            gettext(
                "%(characteristic)s (%(injuries)s)",
                characteristic=c.upper(),
                injuries=", ".join(names[c]),
            )
            if c in names
            else c.upper(),
        )
        for c in ruleset.characteristics
    )


def counters(ruleset: Ruleset, match: Match) -> tuple[str, ...]:
    """TD, CAS, COMP, INT always; the others where the ruleset pays SPP for them."""
    awards = ruleset.spp.awards
    shown = ["td", "cas", "comp", "interceptions"]
    if awards.get("deflection", 0) or ruleset.edition == "BB2020":
        shown.append("deflection")
    shown.extend(name for name in ("throw_completion", "safe_landing") if awards.get(name, 0))
    # A stored result keeps every counter it has, so a correction loses nothing.
    for name in COUNTER_LABELS:
        if name not in shown and any(getattr(appearance, name) for appearance in match.players):
            shown.append(name)
    return tuple(name for name in COUNTER_LABELS if name in shown)


def _position_name(team: Team, player: Player) -> str:
    if player.status == "star":
        return ""  # his tag says "star player"
    try:
        name = team_type_of(team).position(player.position_id).name
    except RulesError:
        return player.position_id
    return team_ruleset(team).text(current_language()).position_name(name)


def _match_day_status(player: Player, match: Match) -> str | None:
    """How the report tags a player taken on for this match (a hired journeyman stays one)."""
    if player.match_day_match_id != match.id:
        return None
    return player.status if player.match_day_only else "journeyman"


def slots(match: Match, match_day: Sequence[Player] = ()) -> tuple[PlayerSlot, ...]:
    """A row for each player of the two rosters, and for those the stored result names;
    then the match's journeymen, mercenaries and star players (`match_day`), tagged."""
    played = {appearance.player_id for appearance in match.players}
    found = []
    for side in match.sides:
        team = side.team
        players = [p for p in roster(team) if p.match_day_match_id != match.id]
        # Correcting a result: players it killed (or who left since) keep their row.
        players += [
            p
            for p in team.players
            if p.id in played and p not in players and p.match_day_match_id != match.id
        ]
        extra = [p for p in match_day if p.team_id == team.id]
        extra += [p for p in team.players if p.id in played and p.match_day_match_id == match.id]
        ordered = sorted(players, key=lambda p: (p.number, p.id))
        ordered += sorted(dict.fromkeys(extra), key=lambda p: (p.number, p.id))
        for player in ordered:
            missing = None
            if match.state in ("scheduled", "draft") and player.status == "mng":
                missing = gettext("Misses this match: injured in the previous one.")
            found.append(
                PlayerSlot(
                    id=player.id,
                    side=side.side,
                    number=player.number,
                    name=player.name,
                    position=_position_name(team, player),
                    missing=missing,
                    match_day=_match_day_status(player, match),
                )
            )
    return tuple(found)


def layout_for(match: Match, ruleset: Ruleset, match_day: Sequence[Player] = ()) -> ReportLayout:
    formula = ruleset.winnings.formula if ruleset.winnings else None
    loss = ruleset.team_building.dedicated_fans.concession_loss
    return ReportLayout(
        team_names={side.side: side.team.name for side in match.sides},
        players=slots(match, match_day),
        counters=counters(ruleset, match),
        injuries=injury_choices(ruleset),
        lasting_codes=lasting_codes(ruleset),
        characteristics=characteristic_choices(ruleset),
        winnings_formula=formula,
        winnings_unit=ruleset.winnings.unit if ruleset.winnings else 0,
        stalling=bool(ruleset.winnings and ruleset.winnings.no_stalling_bonus),
        mistakes=ruleset.expensive_mistakes is not None,
        concession_fans=loss.name if loss is not None else None,
        concession_fans_most=loss.highest if loss is not None else 0,
        table_dice=match.league.table_dice_allowed,
    )


def stored_result(match: Match) -> dict[str, str]:
    """A played match as form data: the correction form starts from what is stored."""
    data: dict[str, str] = {}
    for side in match.sides:
        data[f"{side.side}_score"] = str(side.score)
        # The server's roll of a concession's loss stays unless the table's is entered.
        kept_roll = side.conceded and side.concession_fans_roll is not None
        data[f"{side.side}_fans_change"] = "0" if kept_roll else str(side.fans_change)
        # Only typed winnings come back typed: computed ones are computed again from the
        # corrected inputs. Expensive Mistakes keep their dice unless new ones are typed.
        if side.winnings_entered:
            data[f"{side.side}_winnings"] = str(side.winnings)
        if side.winnings_d6 is not None:
            data[f"{side.side}_winnings_d6"] = str(side.winnings_d6)
        data[f"{side.side}_fame"] = str(side.fame)
        if side.stalled:
            data[f"{side.side}_stalled"] = "y"
        if side.conceded:
            data["concession"] = side.side
    if match.fan_attendance is not None:
        data["fan_attendance"] = str(match.fan_attendance)
    for appearance in match.players:
        for name in COUNTER_LABELS:
            if getattr(appearance, name):
                data[field_name(appearance.player_id, name)] = str(getattr(appearance, name))
        if appearance.mvp:
            data[field_name(appearance.player_id, "mvp")] = "y"
        if appearance.injury:
            data[field_name(appearance.player_id, "injury")] = appearance.injury
        if appearance.lasting:
            data[field_name(appearance.player_id, "lasting")] = appearance.lasting
        if appearance.apothecary_used:
            data[field_name(appearance.player_id, "apothecary")] = "y"
    return data


# ---------------------------------------------------------------------------
# The result


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player_id: int
    number: int
    name: str
    events: str
    injury: str | None
    spp: int
    #: Taken on for this match: "journeyman", "mercenary" or "star" (else None).
    match_day: str | None = None


@dataclass(frozen=True, slots=True)
class SideResult:
    side: str
    team: Team
    score: int
    conceded: bool
    winnings: int
    #: How the winnings came about: the formula's working, or "entered by hand".
    winnings_working: str
    fans_change: int
    #: The server's roll behind a conceding team's loss of Dedicated Fans.
    fans_working: str | None
    mistake: str | None
    mistake_loss: int
    #: The dice of the Expensive Mistakes roll and what the table made of them.
    mistake_working: str | None
    players: tuple[PlayerResult, ...]
    #: The team rules that change the SPP its players earn, worded.
    spp_rules: tuple[str, ...] = ()


def side_results(match: Match, ruleset: Ruleset) -> list[SideResult]:
    """Each side's score, winnings, Expensive Mistakes and player rows."""
    results = []
    for side in match.sides:
        players = [
            PlayerResult(
                appearance.player_id,
                appearance.player.number,
                appearance.player.name,
                events_text(appearance),
                injury_result(ruleset, appearance),
                appearance.spp,
                _match_day_status(appearance.player, match),
            )
            for appearance in match.players
            if appearance.team_id == side.team_id
        ]
        players.sort(key=lambda p: (p.number, p.player_id))
        results.append(
            SideResult(
                side=side.side,
                team=side.team,
                score=side.score,
                conceded=side.conceded,
                winnings=side.winnings,
                winnings_working=winnings_text(ruleset, match, side),
                fans_change=side.fans_change,
                fans_working=concession_fans_text(ruleset, side),
                mistake=mistake_name(side.mistake),
                mistake_loss=side.mistake_loss,
                mistake_working=mistake_text(ruleset, side),
                players=tuple(players),
                spp_rules=tuple(spp_rule_texts(ruleset, side.team)),
            )
        )
    return results
