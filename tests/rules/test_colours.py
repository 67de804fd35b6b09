"""A team's colours: WCAG contrast worked out by hand, and which pairs are refused."""

from __future__ import annotations

import pytest

from league.rules.colours import (
    MINIMUM_CONTRAST,
    colours_refusal,
    contrast_ratio,
    parse_colour,
    relative_luminance,
)


def test_parse_colour_lowers_and_refuses_other_spellings() -> None:
    assert parse_colour("#A0B1C2") == "#a0b1c2"
    assert parse_colour(" #ffffff ") == "#ffffff"
    for bad in ("ffffff", "#fff", "#gggggg", "#ffffff0", "red", "", "#12345"):
        assert parse_colour(bad) is None, bad


def test_relative_luminance_of_the_primaries() -> None:
    # WCAG 2.x: L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised channels.
    assert relative_luminance("#000000") == 0
    assert relative_luminance("#ffffff") == pytest.approx(1)
    assert relative_luminance("#ff0000") == pytest.approx(0.2126)
    assert relative_luminance("#00ff00") == pytest.approx(0.7152)
    assert relative_luminance("#0000ff") == pytest.approx(0.0722)
    # 0x77 = 119: c = 0.4667 > 0.03928, ((0.4667 + 0.055) / 1.055) ** 2.4 = 0.1845.
    assert relative_luminance("#777777") == pytest.approx(0.1845, abs=1e-4)


@pytest.mark.parametrize(
    ("first", "second", "ratio"),
    [
        # (L1 + 0.05) / (L2 + 0.05)
        ("#ffffff", "#000000", 21.0),  # 1.05 / 0.05
        ("#000000", "#ffffff", 21.0),  # the order does not matter
        ("#ff0000", "#ffffff", 3.998),  # 1.05 / 0.2626
        ("#ff0000", "#00ff00", 2.914),  # 0.7652 / 0.2626
        ("#0000ff", "#ffffff", 8.592),  # 1.05 / 0.1222
        ("#777777", "#ffffff", 4.478),  # 1.05 / 0.2345
        ("#123456", "#123456", 1.0),
    ],
)
def test_contrast_ratio_worked_by_hand(first: str, second: str, ratio: float) -> None:
    assert contrast_ratio(first, second) == pytest.approx(ratio, abs=1e-3)


def test_pairs_under_three_to_one_are_refused() -> None:
    assert MINIMUM_CONTRAST == 3.0  # WCAG 2.x AA, large text (SC 1.4.3) and shapes (1.4.11)
    assert colours_refusal("#ffffff", "#000000") is None
    assert colours_refusal("#ff0000", "#ffffff") is None  # 4.0:1
    refusal = colours_refusal("#ff0000", "#00ff00")  # 2.9:1
    assert refusal is not None
    assert "2.9:1" in refusal
    assert "3:1" in refusal
    assert colours_refusal("#123456", "#123456") is not None  # 1.0:1
