"""One colour per seat, everywhere a seat is drawn: the chances bar, the score card's columns,
the review charts.

`SEAT_COLORS` is the one list. The pages read it through `seat_css()` (served as
``/seats.css``: the Content-Security-Policy allows no inline style, and a generated file
keeps the list in one place), the review charts through `seat_color()`. Each colour is dark
enough for text on the pages' paper and on white (a contrast of at least 4.5:1, WCAG AA), so
the same colour serves the bar's fill, the figures' text and the card's column heads.
"""

from __future__ import annotations

SEAT_COLORS = (
    "#1f5fcf",  # blue
    "#b45309",  # amber
    "#1a7f37",  # green
    "#a21caf",  # magenta
    "#0e7490",  # teal
    "#b42318",  # red
    "#6d28d9",  # violet
    "#57606a",  # slate
)
"""Seat n's colour is `SEAT_COLORS[n % 8]`; seat 0 (the host, or the solo player) is blue."""


def seat_color(seat: int) -> str:
    """The colour of seat `seat` (0-based), as ``#rrggbb``.

    >>> seat_color(0), seat_color(9)
    ('#1f5fcf', '#b45309')
    """
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def seat_css() -> str:
    """The stylesheet of the seat colours: ``.chance-n`` (the chances bar's rectangles and
    figures) and ``.seat-n`` (a card's column head and its cells, marked by alive.js), with
    ``--seat`` set for anything else that wants the colour."""
    lines = ["/* Generated from fivedice.web.palette.SEAT_COLORS: one colour per seat. */"]
    for seat, color in enumerate(SEAT_COLORS):
        lines.append(
            f".chance-{seat}, .seat-{seat} {{ --seat: {color}; fill: {color}; color: {color}; }}"
        )
    return "\n".join(lines) + "\n"


def relative_luminance(color: str) -> float:
    """WCAG's relative luminance of ``#rrggbb`` (0 black to 1 white)."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    a, b = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)
