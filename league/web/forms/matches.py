"""Match forms: scheduling a match, and the report form built for one match's players.

The report form has fixed fields (score, post-game sequence) plus one group of
fields per player of the two teams (``p<id>_td``, ``p<id>_injury``, ...), added
to a subclass made for the match. The form checks shape only (whole numbers,
ranges, choices); the rules (touchdowns against the score, MVP count, who may
play) are the service's, and its `ReportErrors` are put back on the fields here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import flask_babel
from wtforms import (
    BooleanField,
    HiddenField,
    SelectField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, StopValidation

from league.i18n import N_, format_number, gettext
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.web.forms import FlaskForm, IntegerField, OneTimeForm

SIDES = ("home", "away")


def _l(message: str, **variables: Any) -> str:
    """Flask-Babel's ``lazy_gettext``, typed as the ``str`` WTForms' stubs expect: a label
    or message translated when shown, in the language of that request."""
    return cast(str, flask_babel.lazy_gettext(message, **variables))


#: Counters a report may carry for a player, with their labels (translate with gettext).
COUNTER_LABELS = {
    "td": N_("TD"),
    "cas": N_("CAS"),
    "comp": N_("COMP"),
    "interceptions": N_("INT"),
    "deflection": N_("Deflections"),
    "throw_completion": N_("Throw completions"),
    "safe_landing": N_("Safe landings"),
}
#: The fields of one player row, after the ``p<id>_`` prefix.
PLAYER_FIELDS = (*COUNTER_LABELS, "mvp", "injury", "lasting", "apothecary")
_ROW_OTHERS = ("mvp", "injury", "lasting", "apothecary")
_PLAYER_FIELD = re.compile(r"^p(\d{1,9})_(" + "|".join(PLAYER_FIELDS) + r")$")

MAX_COUNTER = 99
MAX_GOLD = 10_000_000


@dataclass(frozen=True, slots=True)
class PlayerSlot:
    """A player the report form has a row for."""

    id: int
    side: str
    number: int
    name: str
    position: str
    #: Why the player cannot play this match (the row is shown disabled), or None.
    missing: str | None = None
    #: A match-day player's status ("journeyman", "mercenary", "star"), else None.
    match_day: str | None = None

    @property
    def may_be_mvp(self) -> bool:
        """A star player cannot be MVP (his touchdowns and casualties still count)."""
        return self.match_day != "star"


@dataclass(frozen=True, slots=True)
class ReportLayout:
    """What the report form offers for one match: its players and the ruleset's choices."""

    team_names: Mapping[str, str]
    players: tuple[PlayerSlot, ...]
    counters: tuple[str, ...]
    #: (code, label) of the casualty table's results, "dead" included.
    injuries: tuple[tuple[str, str], ...]
    #: Injury codes whose characteristic is chosen from `characteristics`.
    lasting_codes: tuple[str, ...]
    #: (characteristic, label) for a lasting injury.
    characteristics: tuple[tuple[str, str], ...]
    #: "fan_attendance" | "d6_fame" | None (no formula: winnings are entered).
    winnings_formula: str | None
    #: Gold per unit of the winnings formula (the ruleset's, 0 without a formula).
    winnings_unit: int
    #: BB2025: +1 winnings unless the team stalled.
    stalling: bool
    #: The ruleset has an Expensive Mistakes table.
    mistakes: bool
    #: The dice a conceding team loses Dedicated Fans by ("D3"; None: it loses none), and
    #: their highest roll; the league lets coaches enter table dice.
    concession_fans: str | None = None
    concession_fans_most: int = 0
    table_dice: bool = False

    def side_players(self, side: str) -> tuple[PlayerSlot, ...]:
        return tuple(slot for slot in self.players if slot.side == side)


def _readable(form: Any, field: Any) -> None:
    """Stop at "Not a valid integer value." rather than adding a range error to it."""
    if field.process_errors:
        raise StopValidation()


def field_name(player_id: int, what: str) -> str:
    return f"p{player_id}_{what}"


def _counter(label: str) -> IntegerField:
    return IntegerField(
        _l(label),
        validators=[
            Optional(),
            _readable,
            NumberRange(0, MAX_COUNTER, message=_l("Enter 0 to %(max)s.", max=MAX_COUNTER)),
        ],
        default=0,
    )


class ReportForm(FlaskForm):
    """The fixed part of the report; `report_form` adds the player rows."""

    token = HiddenField(validators=[Length(max=64)])
    home_score = IntegerField(
        _l("Home score"),
        validators=[InputRequired(_l("Enter the score.")), _readable, NumberRange(0, MAX_COUNTER)],
        default=0,
    )
    away_score = IntegerField(
        _l("Away score"),
        validators=[InputRequired(_l("Enter the score.")), _readable, NumberRange(0, MAX_COUNTER)],
        default=0,
    )
    concession = SelectField(_l("Concession"), default="")
    fan_attendance = IntegerField(
        _l("Fan attendance"),
        validators=[
            Optional(),
            _readable,
            NumberRange(0, 999, message=_l("Enter 0 to %(max)s.", max=999)),
        ],
    )
    home_stalled = BooleanField(_l("A player stalled (no +1 winnings)"))
    away_stalled = BooleanField(_l("A player stalled (no +1 winnings)"))
    home_winnings_d6 = IntegerField(
        _l("Winnings D6"),
        validators=[Optional(), _readable, NumberRange(1, 6, message=_l("A D6 shows 1 to 6."))],
    )
    away_winnings_d6 = IntegerField(
        _l("Winnings D6"),
        validators=[Optional(), _readable, NumberRange(1, 6, message=_l("A D6 shows 1 to 6."))],
    )
    home_fame = SelectField(_l("FAME"), default="0")
    away_fame = SelectField(_l("FAME"), default="0")
    home_winnings = IntegerField(
        _l("Winnings (gold)"), validators=[Optional(), _readable, NumberRange(0, MAX_GOLD)]
    )
    away_winnings = IntegerField(
        _l("Winnings (gold)"), validators=[Optional(), _readable, NumberRange(0, MAX_GOLD)]
    )
    home_fans_change = SelectField(_l("Dedicated fans change"), default="0")
    away_fans_change = SelectField(_l("Dedicated fans change"), default="0")
    home_mistake_d6 = IntegerField(
        _l("Expensive Mistakes D6"),
        validators=[Optional(), _readable, NumberRange(1, 6, message=_l("A D6 shows 1 to 6."))],
    )
    away_mistake_d6 = IntegerField(
        _l("Expensive Mistakes D6"),
        validators=[Optional(), _readable, NumberRange(1, 6, message=_l("A D6 shows 1 to 6."))],
    )
    save_draft = SubmitField(_l("Save draft"))
    finalise = SubmitField(_l("Finalise result"))

    layout: ReportLayout

    def __init__(self, *args: Any, layout: ReportLayout, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.layout = layout
        names = layout.team_names
        self.concession.choices = [
            ("", gettext("No concession")),
            ("home", gettext("%(team)s conceded", team=names["home"])),
            ("away", gettext("%(team)s conceded", team=names["away"])),
        ]
        for side in SIDES:
            self[f"{side}_score"].label.text = names[side]
        for fame in (self.home_fame, self.away_fame):
            fame.choices = [("0", "0"), ("1", "+1"), ("2", "+2")]
        # A conceding team's loss rolled at the table may be more than one.
        most = layout.concession_fans_most if layout.table_dice else 1
        for fans_change in (self.home_fans_change, self.away_fans_change):
            fans_change.choices = [
                *((str(-n), f"\u2212{n}") for n in range(max(most, 1), 0, -1)),
                ("0", "0"),
                ("1", "+1"),
            ]
        # Fields this ruleset has no use for are dropped, so nothing unseen can be wrong.
        unused = []
        if layout.winnings_formula != "fan_attendance":
            unused.append("fan_attendance")
        for side in SIDES:
            if layout.winnings_formula != "d6_fame":
                unused += [f"{side}_winnings_d6", f"{side}_fame"]
            if not layout.stalling:
                unused.append(f"{side}_stalled")
            if not layout.mistakes:
                unused.append(f"{side}_mistake_d6")
        if not layout.lasting_codes:
            unused += [field_name(slot.id, "lasting") for slot in layout.players]
        for name in unused:
            del self[name]
        injuries = [("", gettext("No injury")), *layout.injuries]
        characteristics = [("", "\u2014"), *layout.characteristics]
        for slot in layout.players:
            self.player(slot, "injury").choices = injuries
            if layout.lasting_codes:
                self.player(slot, "lasting").choices = characteristics
        #: Errors about a whole team ("home_mvp") and about one player's row.
        self.side_errors: dict[str, list[str]] = {side: [] for side in SIDES}
        self.player_errors: dict[int, list[str]] = {}

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        if self.token.errors:
            # A hidden field has nowhere to show its error.
            self.form_errors.append(
                gettext("This form is damaged; reload the page and enter it again.")
            )
        return valid

    # -- reading -------------------------------------------------------------

    def value(self, name: str) -> Any:
        """A field's data; None for a field this ruleset does not use."""
        field = self._fields.get(name)
        return None if field is None else field.data

    def player(self, slot: PlayerSlot, what: str) -> Any:
        return self[field_name(slot.id, what)]

    def row_fields(self, slot: PlayerSlot) -> list[Any]:
        names = [field_name(slot.id, what) for what in (*self.layout.counters, *_ROW_OTHERS)]
        return [self._fields[name] for name in names if name in self._fields]

    def row_has_errors(self, slot: PlayerSlot) -> bool:
        return bool(self.player_errors.get(slot.id)) or any(f.errors for f in self.row_fields(slot))

    def row_summary(self, slot: PlayerSlot) -> str:
        """What the collapsed row says: "2 TD · MVP · Dead"."""
        parts = []
        for name in self.layout.counters:
            count = self.player(slot, name).data
            if isinstance(count, int) and count:
                parts.append(
                    gettext(
                        "%(count)s %(counter)s",
                        count=format_number(count),
                        counter=gettext(COUNTER_LABELS[name]),
                    )
                )
        if self.player(slot, "mvp").data:
            parts.append(gettext("MVP"))
        injury = self.player(slot, "injury").data
        if injury:
            label = dict(self.layout.injuries).get(injury, injury)
            parts.append(label.split(" (")[0])
        return " \u00b7 ".join(parts)

    def unfinished_report(self) -> dict[str, str]:
        """The typed values, as the form sends them, kept on the match until it is finished."""
        skip = {"csrf_token", "token", "save_draft", "finalise"}
        data = {}
        for field in self:
            if field.name in skip or not field.raw_data:
                continue
            data[field.name] = str(field.raw_data[0])[:20]
        return data

    def report(self, stray: tuple[PlayerEvents, ...] = ()) -> MatchReport:
        """The validated form as the service's command (call after `validate()`)."""
        conceded = self.concession.data or ""
        sides = {side: self._side(side, conceded == side) for side in SIDES}
        fan_attendance = self.value("fan_attendance")
        entered = [
            events for slot in self.layout.players if (events := self._events(slot)) is not None
        ]
        return MatchReport(
            home=sides["home"],
            away=sides["away"],
            players=(*entered, *stray),
            fan_attendance=fan_attendance,
        )

    def _side(self, side: str, conceded: bool) -> SideReport:
        return SideReport(
            score=self.value(f"{side}_score") or 0,
            conceded=conceded,
            winnings=self.value(f"{side}_winnings"),
            fans_change=int(self.value(f"{side}_fans_change") or 0),
            stalled=bool(self.value(f"{side}_stalled")),
            winnings_d6=self.value(f"{side}_winnings_d6"),
            fame=int(self.value(f"{side}_fame") or 0),
            mistake_d6=self.value(f"{side}_mistake_d6"),
        )

    def _events(self, slot: PlayerSlot) -> PlayerEvents | None:
        counters = {name: self.player(slot, name).data or 0 for name in self.layout.counters}
        injury = self.player(slot, "injury").data or None
        # The characteristic select only means something for a lasting injury.
        lasting = self.value(field_name(slot.id, "lasting")) or None
        if injury not in self.layout.lasting_codes:
            lasting = None
        mvp = 1 if self.player(slot, "mvp").data else 0
        apothecary = bool(self.player(slot, "apothecary").data)
        if not any(counters.values()) and not (mvp or injury or apothecary):
            return None
        return PlayerEvents(
            slot.id,
            mvp=mvp,
            injury=injury,
            lasting=lasting,
            apothecary_used=apothecary,
            **counters,
        )

    # -- errors from the service ---------------------------------------------

    def attach_report_errors(self, errors: Mapping[str, list[str]]) -> None:
        """Put each of the service's messages next to the field (or row) it is about."""
        slots = {slot.id for slot in self.layout.players}
        for key, messages in errors.items():
            side, _, rest = key.partition("_")
            player = re.fullmatch(r"player_(\d+)", key)
            if player and int(player.group(1)) in slots:
                self.player_errors.setdefault(int(player.group(1)), []).extend(messages)
            elif side in SIDES and rest == "mvp":
                self.side_errors[side].extend(messages)
            elif side in SIDES and rest == "conceded":
                self.concession.errors = [*self.concession.errors, *messages]
            elif key and key in self and key not in ("csrf_token", "token"):
                self[key].errors = [*self[key].errors, *messages]
            else:
                self.form_errors.extend(messages)


def report_form(layout: ReportLayout, **kwargs: Any) -> ReportForm:
    """A report form with a row of fields for every player of `layout`."""

    class MatchReportForm(ReportForm):
        pass

    for slot in layout.players:
        for name in layout.counters:
            setattr(MatchReportForm, field_name(slot.id, name), _counter(COUNTER_LABELS[name]))
        setattr(MatchReportForm, field_name(slot.id, "mvp"), BooleanField(_l("MVP")))
        setattr(
            MatchReportForm,
            field_name(slot.id, "injury"),
            SelectField(_l("Injury"), default=""),
        )
        setattr(
            MatchReportForm,
            field_name(slot.id, "lasting"),
            SelectField(_l("Characteristic lost"), default=""),
        )
        setattr(
            MatchReportForm, field_name(slot.id, "apothecary"), BooleanField(_l("Apothecary used"))
        )
    return MatchReportForm(layout=layout, **kwargs)


def stray_player_lines(formdata: Mapping[str, str], known: set[int]) -> tuple[PlayerEvents, ...]:
    """Rows sent for players the form does not list (a forged or stale form).

    They go to the service like any other row, so its refusal ("plays for
    neither team") is shown and nothing is stored.
    """
    # Per player, keyword arguments of PlayerEvents: its counters, read by name.
    values: dict[int, dict[str, Any]] = {}
    for key, value in formdata.items():
        found = _PLAYER_FIELD.match(key)
        if found is None or int(found.group(1)) in known:
            continue
        player_id, what = int(found.group(1)), found.group(2)
        counts = values.setdefault(player_id, {})
        if what in COUNTER_LABELS:
            try:
                counts[what] = max(int(value), 0)
            except ValueError:
                counts[what] = 0
        elif what == "mvp":
            counts["mvp"] = 1
    return tuple(PlayerEvents(player_id, **counters) for player_id, counters in values.items())


class NewMatchForm(OneTimeForm):
    home_team = SelectField(_l("Home team"), coerce=int)
    away_team = SelectField(_l("Away team"), coerce=int)
    friendly = BooleanField(_l("Friendly (does not count in the standings)"))
    submit = SubmitField(_l("Schedule and enter the result"))

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.home_team.choices = list(teams)
        self.away_team.choices = list(teams)
