"""Words of the match pages: injury labels, a player's events, how winnings and an
Expensive Mistakes result came about."""

from __future__ import annotations

from fractions import Fraction

from league.i18n import N_, format_list, format_number, gettext
from league.models import Match, MatchPlayer, MatchTeam, Team
from league.rules import Ruleset, expensive_mistake_column, spp_variants
from league.services.access import team_type_of
from league.services.labels import mistake_name  # with the ledger's words
from league.services.match_winnings import winnings_working
from league.web.forms.matches import COUNTER_LABELS

DASH = "\u2014"

#: What each casualty effect means for the player, after the injury's name.
EFFECT_NOTES = {
    "badly_hurt": N_("no lasting effect"),
    "mng": N_("misses next game"),
    "niggling": N_("niggling injury, misses next game"),
    "lasting": N_("misses next game"),
    "dead": N_("dead"),
}


def injury_name(ruleset: Ruleset, code: str) -> str:
    """ "Seriously Hurt"; a classic code covering several D68 results by its code."""
    results = [r for r in ruleset.casualty_table.results if r.code == code]
    if len(results) == 1:
        return results[0].name
    return code.replace("_", " ").capitalize()


def injury_label(ruleset: Ruleset, code: str) -> str:
    """ "Seriously Hurt (misses next game)"; classic codes cover several D68 results."""
    results = [r for r in ruleset.casualty_table.results if r.code == code]
    if not results:
        return injury_name(ruleset, code)
    first = results[0]
    note = EFFECT_NOTES.get(first.effect)
    note = gettext(note) if note else first.effect
    if first.effect == "lasting":
        note = gettext("\u22121 characteristic, %(note)s", note=note)
    return gettext("%(injury)s (%(note)s)", injury=injury_name(ruleset, code), note=note)


def injury_result(ruleset: Ruleset, appearance: MatchPlayer) -> str | None:
    """What a player's injury came to: "Seriously Hurt (-1 MA), apothecary used"."""
    if not appearance.injury:
        return gettext("Apothecary used") if appearance.apothecary_used else None
    injury = injury_name(ruleset, appearance.injury)
    if appearance.lasting:
        injury = gettext(
            "%(injury)s (\u22121 %(characteristic)s)",
            injury=injury,
            characteristic=appearance.lasting.upper(),
        )
    if appearance.apothecary_used:
        injury = gettext("%(injury)s, apothecary used", injury=injury)
    return injury


def counter_text(count: int, name: str) -> str:
    """ "2 TD": a count and the counter's label."""
    return gettext(
        "%(count)s %(counter)s", count=format_number(count), counter=gettext(COUNTER_LABELS[name])
    )


def events_text(appearance: MatchPlayer) -> str:
    """ "2 TD, 1 CAS, MVP", or a dash for a player who did nothing counted."""
    parts = [
        counter_text(getattr(appearance, name), name)
        for name in COUNTER_LABELS
        if getattr(appearance, name)
    ]
    if appearance.mvp:
        parts.append(
            gettext("MVP")
            if appearance.mvp == 1
            else gettext("%(count)s MVP", count=format_number(appearance.mvp))
        )
    return ", ".join(parts) or DASH


def winnings_text(ruleset: Ruleset, match: Match, side: MatchTeam) -> str:
    """ "(fan attendance 8 / 2: 4 + 1 TD: 1 + no stalling: 1) x 10,000" or how else they came."""
    if side.conceded:
        return gettext("none: the team conceded")
    if side.winnings_entered:
        return gettext("entered by hand")
    terms = winnings_working(ruleset, match, side)
    if not terms or ruleset.winnings is None:
        return gettext("no formula winnings")
    added = " + ".join(
        gettext("%(term)s: %(units)s", term=what, units=_units(units)) for what, units in terms
    )
    return gettext(
        "(%(terms)s) \u00d7 %(unit)s", terms=added, unit=format_number(ruleset.winnings.unit)
    )


def _units(units: Fraction) -> str:
    """ "3.5" (the half of an odd attendance is kept), "2"."""
    return format_number(int(units) if units.denominator == 1 else float(units))


def concession_fans_text(ruleset: Ruleset, side: MatchTeam) -> str | None:
    """ "D3 rolled by the server: 2": the roll behind a conceding team's loss of fans."""
    dice = ruleset.team_building.dedicated_fans.concession_loss
    if not side.conceded or dice is None:
        return None
    if side.concession_fans_roll is None:
        return gettext("%(dice)s rolled at the table", dice=dice.name)
    return gettext(
        "%(dice)s rolled by the server: %(roll)s",
        dice=dice.name,
        roll=side.concession_fans_roll,
    )


def mistake_text(ruleset: Ruleset, side: MatchTeam) -> str | None:
    """The roll behind an Expensive Mistakes result, die by die, and the table's reading."""
    table = ruleset.expensive_mistakes
    if side.mistake is None or table is None:
        return None
    if side.mistake_d6 is None or side.mistake_treasury is None:
        return gettext("recorded before the dice were kept")
    treasury = side.mistake_treasury
    column = expensive_mistake_column(ruleset, treasury)
    by_server, at_table = gettext("rolled by the server"), gettext("rolled at the table")
    text = gettext(
        "treasury %(treasury)s, read in the %(column)s+ column; D6 %(d6)s (%(who)s): %(result)s",
        treasury=format_number(treasury),
        column=format_number(column or 0),
        d6=side.mistake_d6,
        who=by_server if side.mistake_rolled else at_table,
        result=mistake_name(side.mistake),
    )
    dice = table.dice_for(side.mistake)
    if dice is not None and side.mistake_roll is not None:
        shown = str(side.mistake_roll)
        if side.mistake_dice and len(side.mistake_dice) > 1:
            shown = f"{' + '.join(str(d) for d in side.mistake_dice)} = {side.mistake_roll}"
        # Only the server's rolls keep each die; a typed roll is its total.
        text = gettext(
            "%(text)s; %(dice)s %(roll)s (%(who)s)",
            text=text,
            dice=dice.name,
            roll=shown,
            who=by_server if side.mistake_dice is not None else at_table,
        )
    if side.mistake == "minor" and side.mistake_roll is not None:
        text = gettext(
            "%(text)s \u00d7 %(per_pip)s lost",
            text=text,
            per_pip=format_number(table.minor_loss_per_pip),
        )
    elif side.mistake == "major":
        text = gettext(
            "%(text)s; the treasury / %(divisor)s, rounded down to %(round_to)s, is lost",
            text=text,
            divisor=table.major_divisor,
            round_to=format_number(table.major_round_down_to),
        )
    elif side.mistake == "catastrophe" and side.mistake_roll is not None:
        kept = treasury - side.mistake_loss  # the service worked out the loss
        text = gettext(
            "%(text)s \u00d7 %(per_pip)s = %(kept)s kept, the rest lost",
            text=text,
            per_pip=format_number(table.catastrophe_kept_per_pip),
            kept=format_number(kept),
        )
    elif side.mistake == "crisis_averted":
        text = gettext("%(text)s, nothing lost", text=text)
    return text


def spp_rule_texts(ruleset: Ruleset, team: Team) -> list[str]:
    """Each team rule that changes the SPP its players earn, with the awards it gives:
    "Brawlin' Brutes (team rule): 2 SPP per TD, 3 SPP per CAS"."""
    texts = []
    for variant in spp_variants(ruleset, team_type_of(team)):
        awards = [
            gettext(
                "%(spp)s SPP per %(counter)s",
                spp=format_number(spp),
                counter=gettext(COUNTER_LABELS[name]) if name in COUNTER_LABELS else gettext("MVP"),
            )
            for name, spp in variant.awards.items()
        ]
        texts.append(
            gettext(
                "%(rule)s (team rule): %(awards)s.",
                rule=variant.special_rule,
                awards=format_list(awards),
            )
        )
    return texts


def kind_label(kind: str) -> str:
    """An event kind of the live match log, as its button and the timeline name it."""
    labels = {
        "td": gettext("Touchdown"),
        "comp": gettext("Completion"),
        "throw_completion": gettext("Throw team-mate"),
        "safe_landing": gettext("Safe landing"),
        "int": gettext("Interception"),
        "deflection": gettext("Deflection"),
        "cas": gettext("Casualty"),
        "injury": gettext("Injury"),
        "ko": gettext("KO"),
        "sent_off": gettext("Sent off"),
        "mvp": gettext("MVP"),
        "stalling": gettext("Stalling"),
        "concession": gettext("Concession"),
    }
    return labels[kind]
