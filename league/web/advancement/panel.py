"""The advancement panel on the player page: the player's level, what each kind of
advancement costs, the advancements taken and the server's dice log."""

from __future__ import annotations

from dataclasses import dataclass

from flask_login import current_user

from league.i18n import N_, format_number, gettext
from league.models import Advancement, DiceRoll, Player, Team
from league.rules import AdvancementOption, rolls_earned, stat_label
from league.services import access
from league.web.advancement.text import decision_text, dice_text, gained_text, kind_label
from league.web.advancement.views import Context, context_for

#: Who rolled an advancement's dice, as its history row says it.
DICE_SOURCES = {"server": N_("server"), "table": N_("table")}


@dataclass(frozen=True, slots=True)
class KindRow:
    kind: str
    label: str
    cost: int | None
    affordable: bool
    refusal: str
    value: str


@dataclass(frozen=True, slots=True)
class HistoryRow:
    advancement: Advancement
    label: str
    gained: str
    dice: str


@dataclass(frozen=True, slots=True)
class DiceLogRow:
    """One roll the server made: the dice, what for, and every use of them."""

    roll: DiceRoll
    rolled_for: str
    dice: str
    uses: tuple[str, ...]
    state: str


@dataclass(frozen=True, slots=True)
class Panel:
    ctx: Context
    spp: int
    level: str
    next_level: str | None
    next_level_note: str
    kinds: tuple[KindRow, ...]
    history: tuple[HistoryRow, ...]
    can_advance: bool
    can_undo: bool
    pending: str | None
    spr_due: bool = False
    dice_log: tuple[DiceLogRow, ...] = ()


def _value_text(ctx: Context, option: AdvancementOption) -> str:
    if option.value_increase is None:
        return " · ".join(
            f"{stat_label(c)} +{format_number(v)}"
            for c, v in option.characteristic_value_increases.items()
        )
    text = f"+{format_number(option.value_increase)}"
    if option.elite_value_increase is not None:
        text = gettext(
            "%(value)s (elite skills +%(elite)s)",
            value=text,
            elite=format_number(option.elite_value_increase),
        )
    return text


def _history(ctx: Context) -> tuple[HistoryRow, ...]:
    rows = []
    for adv in ctx.player.advancements:
        gained = gained_text(adv, ctx.ruleset)
        dice = (
            gettext(
                "%(dice)s (%(source)s)",
                dice=dice_text(adv.dice),
                source=gettext(DICE_SOURCES.get(adv.dice_source or "", adv.dice_source or "")),
            )
            if adv.dice
            else ""
        )
        rows.append(HistoryRow(adv, kind_label(ctx.ruleset, adv.kind), gained, dice))
    return tuple(rows)


def _dice_log(ctx: Context) -> tuple[DiceLogRow, ...]:
    rows = []
    for roll in ctx.player.dice_rolls:
        label = kind_label(ctx.ruleset, roll.kind)
        if roll.category:
            label = gettext(
                "%(kind)s (%(category)s)", kind=label, category=ctx.category_name(roll.category)
            )
        uses = tuple(
            gettext(
                "#%(number)s %(gained)s (undone)",
                number=a.number,
                gained=gained_text(a, ctx.ruleset),
            )
            if a.undone_at
            else f"#{a.number} {gained_text(a, ctx.ruleset)}"
            for a in roll.uses
        )
        if roll.void_reason:
            state = roll.void_reason
        elif roll.waiting:
            state = (
                gettext("waiting for the next Star Player Roll")
                if ctx.roll_mode
                else gettext("waiting for the next advancement of this kind")
            )
        else:
            state = gettext("used")
        rows.append(
            DiceLogRow(
                roll,
                label,
                dice_text(roll.dice),
                uses,
                state,
            )
        )
    return tuple(rows)


def panel_for(player: Player, team: Team | None = None) -> Panel:
    """Everything the player page's advancement panel shows."""
    ctx = context_for(player, team)
    options = ctx.options
    levels = ctx.ruleset.advancement.levels
    taken = options.advancements_taken
    spp = options.available_spp
    if ctx.roll_mode:
        thresholds = ctx.ruleset.advancement.thresholds
        earned = rolls_earned(ctx.ruleset, spp)
        level = levels[earned]
        next_level = levels[earned + 1] if earned < len(thresholds) else None
        note = gettext("at %(spp)s SPP", spp=thresholds[earned]) if next_level else ""
    else:
        level = levels[min(taken, len(levels) - 1)]
        next_level = levels[taken + 1] if options.next_advancement else None
        note = gettext("with the next advancement") if next_level else ""
    kinds = tuple(
        KindRow(
            o.kind,
            kind_label(ctx.ruleset, o.kind),
            o.cost,
            o.affordable,
            "" if o.affordable else decision_text(o.decision),
            _value_text(ctx, o),
        )
        for o in options.options
    )
    manage = access.may_change_roster(ctx.team, current_user).allowed and player.on_roster
    pending = None
    if player.pending_roll:
        pending = gettext(
            "Dice waiting (%(dice)s): finish this advancement.",
            dice=dice_text(player.pending_roll["dice"]),
        )
    return Panel(
        ctx=ctx,
        spp=spp,
        level=ctx.text.level_name(level),
        next_level=ctx.text.level_name(next_level) if next_level else None,
        next_level_note=note,
        kinds=kinds,
        history=_history(ctx),
        can_advance=manage and ctx.team.status != "draft",
        can_undo=manage and bool(player.active_advancements),
        pending=pending,
        spr_due=ctx.roll_mode and options.pending_rolls > 0,
        dice_log=_dice_log(ctx),
    )
