"""Line charts drawn as SVG on the server: the geometry here, the markup in
`templates/_macros/charts.html` (Jinja escapes every label, team names included).

A chart is a few series of numbers over the same steps (matches, rounds). Each is
laid out in a fixed `viewBox` the browser scales to the page width, so it reads on a
390 px phone and in print; every series has its own dash pattern as well as its
colour, for a page printed in black and white; and the numbers are given again as a
table (the text alternative) under the chart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from league.i18n import format_number, gettext
from league.services.charts import Race, SppHistory, ValuePoint

#: The drawing's own units (the browser scales them to the width it has).
WIDTH, PLOT_HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 16, 30
#: One legend line's height, under the plot.
LEGEND_LINE = 22
#: Longest name drawn in the legend (the full name is in the table and the tooltip).
LEGEND_CHARS = 32
#: Series colours when a team has none of its own (distinct in print too, with the dashes).
PALETTE = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#57606a")
#: A missing figure in the table (an en dash).
MISSING = "\u2013"
#: A team's own colour is used when it is one (`#rrggbb`).
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float
    value: str
    step: str


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    short_name: str
    colour: str
    dash: str
    points: tuple[Point, ...]
    #: Segments of the line (a missing value breaks it), as SVG "x,y x,y" strings.
    paths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Marker:
    x: float
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True, slots=True)
class LineChart:
    id: str
    title: str
    description: str
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    markers: tuple[Marker, ...]
    #: The text alternative: a header row, then one row per step.
    table_head: tuple[str, ...]
    table_rows: tuple[tuple[str, ...], ...]
    empty_text: str = ""
    #: The legend drawn under the plot (a standalone image); on a page it is HTML.
    legend: bool = True
    width: int = WIDTH
    left: int = LEFT
    top: int = TOP
    plot_width: int = WIDTH - LEFT - RIGHT
    plot_height: int = PLOT_HEIGHT

    @property
    def height(self) -> int:
        legend = LEGEND_LINE * len(self.series) + 8 if self.legend else 0
        return TOP + PLOT_HEIGHT + BOTTOM + legend

    def inline(self) -> LineChart:
        """The chart for a page: the legend is the page's HTML, where long names wrap."""
        return replace(self, legend=False)

    @property
    def bottom(self) -> int:
        return TOP + PLOT_HEIGHT

    @property
    def legend_top(self) -> int:
        return TOP + PLOT_HEIGHT + BOTTOM + 4

    @property
    def empty(self) -> bool:
        return not any(series.points for series in self.series)


def _nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2 or 5 times a power of ten, at least 1: the figures are whole)
    giving about `ticks` gridlines."""
    raw = max(span / ticks, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


#: A series as the pages give it: name, colour (None: the palette's), a value per step.
SeriesData = tuple[str, str | None, Sequence[int | None]]


@dataclass(frozen=True, slots=True)
class _Scale:
    """Where values and steps go in the drawing."""

    low: float
    high: float
    step: float
    steps: int
    inverted: bool

    def y(self, value: float) -> float:
        share = (value - self.low) / (self.high - self.low)
        return round(TOP + (share if self.inverted else 1 - share) * PLOT_HEIGHT, 1)

    def x(self, index: int) -> float:
        inner = WIDTH - LEFT - RIGHT
        if self.steps < 2:
            return round(LEFT + inner / 2, 1)
        return round(LEFT + index * inner / (self.steps - 1), 1)


def _scale(series: Sequence[SeriesData], steps: int, inverted: bool, lowest: int | None) -> _Scale:
    values = [v for _, _, row in series for v in row if v is not None]
    low: float = min([*values, *([lowest] if lowest is not None else [])], default=0)
    high: float = max(values, default=1)
    if inverted:  # places: whole numbers, 1 at the top
        step = float(max(1, math.ceil((high - low) / 5)))
    else:
        step = _nice_step(high - low)
        low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    return _Scale(low, high, step, steps, inverted)


def _series(
    index: int,
    data: SeriesData,
    steps: Sequence[str],
    scale: _Scale,
    shown: Callable[[int], str],
) -> Series:
    name, colour, row = data
    points: list[Point] = []
    paths: list[str] = []
    current: list[str] = []
    for i, value in enumerate(row):
        if value is None:  # a missing value breaks the line
            if current:
                paths.append(" ".join(current))
            current = []
            continue
        point = Point(scale.x(i), scale.y(value), shown(value), steps[i])
        points.append(point)
        current.append(f"{point.x},{point.y}")
    if current:
        paths.append(" ".join(current))
    short = name if len(name) <= LEGEND_CHARS else name[: LEGEND_CHARS - 1] + "\u2026"
    own = colour if colour and _HEX.fullmatch(colour) and _visible(colour) else None
    return Series(
        name,
        short,
        own or PALETTE[index % len(PALETTE)],
        DASHES[index % len(DASHES)],
        tuple(points),
        tuple(paths),
    )


def _visible(colour: str) -> bool:
    """A line of `colour` stands out on the white chart: WCAG contrast of 3:1 or more
    (what graphics need), so a team whose colour is white or pale gets the palette's."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return (1.05) / (luminance + 0.05) >= 3


def line_chart(
    chart_id: str,
    title: str,
    description: str,
    steps: Sequence[str],
    series: Sequence[SeriesData],
    *,
    number: str = "plain",
    inverted: bool = False,
    lowest: int | None = None,
    marks: Sequence[tuple[int, str]] = (),
    step_heading: str = "",
) -> LineChart:
    """`series`: (name, colour or None, one value per step or None). With `inverted`
    (positions) 1 is at the top. `marks`: (step index, label) drawn on the first series."""
    scale = _scale(series, len(steps), inverted, lowest)

    def shown(value: int) -> str:
        return _money(value) if number == "money" else format_number(value)

    every = max(1, math.ceil(len(steps) / 8))
    x_ticks = tuple(
        Tick(scale.x(i), label)
        for i, label in enumerate(steps)
        if i % every == 0 or i == len(steps) - 1
    )
    count = int((scale.high - scale.low) / scale.step)
    y_ticks = tuple(
        Tick(scale.y(scale.low + k * scale.step), shown(int(scale.low + k * scale.step)))
        for k in range(count + 1)
    )
    first = series[0][2] if series else []
    markers = tuple(
        Marker(scale.x(i), scale.y(first[i] or 0), label)
        for i, label in marks
        if 0 <= i < len(first)
    )
    rows = tuple(
        (label, *(MISSING if row[i] is None else shown(row[i] or 0) for _, _, row in series))
        for i, label in enumerate(steps)
    )
    return LineChart(
        chart_id,
        title,
        description,
        tuple(_series(i, data, steps, scale, shown) for i, data in enumerate(series)),
        x_ticks,
        y_ticks,
        markers,
        (step_heading, *(name for name, _, _ in series)),
        rows,
    )


def _money(value: int) -> str:
    """Gold in thousands, as the rules books write team values (1,050k)."""
    return gettext("%(amount)sk", amount=format_number(value // 1000))


# ---------------------------------------------------------------------------
# The charts of the pages


def team_value_chart(team_name: str, points: Sequence[ValuePoint]) -> LineChart:
    steps = [str(index) for index in range(1, len(points) + 1)]
    return line_chart(
        "team-value-chart",
        gettext("%(team)s: team value and treasury, match by match", team=team_name),
        gettext(
            "The team value each match was played with and the treasury after the match, "
            "over the team's played matches (results recorded before team values were kept "
            "show the pre-game's value, or none without a pre-game)."
        ),
        steps,
        [
            (gettext("Team value"), None, [point.team_value for point in points]),
            (gettext("Treasury"), None, [point.treasury for point in points]),
        ],
        number="money",
        lowest=0,
        step_heading=gettext("Match"),
    )


def position_chart(team_id: int, team_name: str, race: Race) -> LineChart:
    line = race.line_of(team_id)
    return line_chart(
        "team-position-chart",
        gettext("%(team)s: league position round by round", team=team_name),
        gettext(
            "The team's place in the table of %(season)s after each round (1 is top, of "
            "%(teams)s teams).",
            season=race.season_name,
            teams=race.teams,
        ),
        [_round_label(number) for number in race.rounds],
        [(team_name, line.colour if line else None, list(line.positions) if line else [])],
        inverted=True,
        lowest=1,
        step_heading=gettext("Round"),
    )


def race_chart(race: Race) -> LineChart:
    top = race.top()
    return line_chart(
        "league-race-chart",
        gettext("The race: points round by round, %(season)s", season=race.season_name),
        gettext(
            "Points after each round for the %(count)s teams at the top of the table.",
            count=len(top),
        ),
        [_round_label(number) for number in race.rounds],
        [(line.team_name, line.colour, list(line.points)) for line in top],
        lowest=0,
        step_heading=gettext("Round"),
    )


def spp_chart(player_name: str, history: SppHistory) -> LineChart:
    steps = [str(index) for index in range(1, len(history.points) + 1)]
    return line_chart(
        "player-spp-chart",
        gettext("%(player)s: Star Player Points over the career", player=player_name),
        gettext(
            "SPP earned in the career after each played match; each advancement is marked "
            "after the match it followed."
        ),
        steps,
        [(gettext("SPP earned"), None, [point.total for point in history.points])],
        lowest=0,
        marks=[
            (max(mark.after_match - 1, 0), f"{mark.number}. {mark.label}")
            for mark in history.marks
            if history.points
        ],
        step_heading=gettext("Match"),
    )


def _round_label(number: int) -> str:
    return str(number) if number else MISSING
