"""The charts' layout (league.web.charts): where values go, gaps, colours, ticks."""

from __future__ import annotations

from league.web.charts import LEFT, PALETTE, PLOT_HEIGHT, TOP, WIDTH, line_chart


def test_values_scale_into_the_plot_and_a_gap_breaks_the_line() -> None:
    chart = line_chart("c", "t", "d", ["1", "2", "3"], [("A", None, [0, None, 100])])
    (series,) = chart.series
    # 0 sits on the bottom edge (TOP + PLOT_HEIGHT), 100 on the top (TOP); the steps run
    # from the left edge to the right one (WIDTH - 20).
    assert [(p.x, p.y) for p in series.points] == [
        (LEFT, TOP + PLOT_HEIGHT),
        (WIDTH - 20, TOP),
    ]
    # The missing middle value: two pieces of line, one point each.
    assert len(series.paths) == 2
    # Gridlines every 50 (a round step for about four lines over 0-100).
    assert [tick.label for tick in chart.y_ticks] == ["0", "50", "100"]
    assert chart.table_rows[1] == ("2", "\u2013")


def test_positions_put_first_place_at_the_top() -> None:
    chart = line_chart("c", "t", "d", ["1", "2"], [("A", None, [3, 1])], inverted=True, lowest=1)
    first, second = chart.series[0].points
    assert second.y < first.y
    assert second.y == TOP


def test_a_team_colour_is_used_unless_it_would_not_show() -> None:
    chart = line_chart(
        "c",
        "t",
        "d",
        ["1"],
        [("Dark", "#123456", [1]), ("White", "#ffffff", [2]), ("Bad", "red;x", [3])],
    )
    assert [series.colour for series in chart.series] == ["#123456", PALETTE[1], PALETTE[2]]
    # Each series has its own dash pattern, for a page printed in black and white.
    assert len({series.dash for series in chart.series}) == 3


def test_long_names_are_cut_in_the_legend_only() -> None:
    name = "N" * 80
    (series,) = line_chart("c", "t", "d", ["1"], [(name, None, [1])]).series
    assert series.name == name
    assert series.short_name == "N" * 31 + "\u2026"
