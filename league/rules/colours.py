"""A team's two colours: what a colour is, and which pairs can be read.

The one place that decides whether a team's colours are readable. Colours are
``#rrggbb`` (stored in lower case). A team without a logo shows a crest on its
page and its sheets: the initials of its name in the *secondary* colour on the
*primary* one (templates/_macros/team.html). So the pair is text on a background,
and it is checked as such, rather than each colour against the page: the WCAG 2.x
contrast ratio, ``(L1 + 0.05) / (L2 + 0.05)`` with L the relative luminance of the
lighter and the darker colour. The initials are large bold text, for which WCAG's
AA level asks 3:1 (success criterion 1.4.3; the same 3:1 is its minimum for
coloured shapes told apart, 1.4.11, which the small two-colour discs beside the
names in tables are), so a pair under 3:1 is refused. Red and white (4.0:1)
passes; red and green (2.9:1) does not.
"""

from __future__ import annotations

import re

from league.i18n import gettext

#: WCAG 2.x AA contrast for large text (and for shapes told apart): 3:1.
MINIMUM_CONTRAST = 3.0
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def parse_colour(value: str) -> str | None:
    """``"#A0B1C2"`` -> ``"#a0b1c2"``; None when `value` is not ``#rrggbb``."""
    text = value.strip()
    return text.lower() if _HEX.match(text) else None


def _channel(value: int) -> float:
    """sRGB channel (0-255) to linear light, as WCAG 2.x defines relative luminance."""
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised channels (0 black, 1 white)."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(red) + 0.7152 * _channel(green) + 0.0722 * _channel(blue)


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours, from 1 (the same) to 21."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def colours_refusal(primary: str, secondary: str) -> str | None:
    """Why the pair cannot be a team's colours (their name in `secondary` on `primary`
    is hard to read), or None: they can. Both are ``#rrggbb``."""
    ratio = contrast_ratio(primary, secondary)
    if ratio >= MINIMUM_CONTRAST:
        return None
    return gettext(
        "These two colours are too alike to read the team's name in one on the other "
        "(contrast %(ratio)s:1, at least %(minimum)s:1 is needed). Pick a lighter or "
        "darker second colour.",
        ratio=f"{ratio:.1f}",
        minimum=f"{MINIMUM_CONTRAST:.0f}",
    )
