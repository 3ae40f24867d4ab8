"""The review page's chart: a seat's expected final score against the points it scored, and
(with several seats) a second panel with the chances of winning, 0-100 %, after its turns.

Drawn with matplotlib's object API (a `Figure` on the Agg canvas: no pyplot, no global
state, safe in server threads) and written as SVG in memory. The page shows it as an
``<img>`` with a ``data:`` URL: an SVG image never runs scripts or loads anything, and it
keeps its own styles under the pages' Content-Security-Policy (which allows ``data:``
images but no inline styles in the page itself).
"""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

from fivedice.web.palette import seat_color

SCORED_COLOR = "#2b313c"  # the points scored: the pages' ink (the seat's colour is expected)
CHART_WIDTH_INCHES = 4.8
NARROWEST_DISPLAY_PX = 320
"""The chart's width on a 360-pixel phone (the page's margins taken off)."""
SMALLEST_TEXT_PX = 12
"""The chart's smallest text on that phone, in CSS pixels (its legend and tick labels)."""


CHART_RC: Any = {"font.family": ["DejaVu Sans", "Noto Sans CJK JP"], "text.parse_math": False}
"""The charts' settings: fonts for every language, and no mathtext - a player's name is
text, so one such as ``$\\notacommand{$`` is drawn as typed instead of failing the page."""


def chart_svg(
    xs: Sequence[int],
    expected: Sequence[float],
    scored: Sequence[int],
    labels: tuple[str, str, str],
    games: Sequence[int] = (),
    chances: Sequence[tuple[str, Sequence[float]]] = (),
    chance_label: str = "",
    seats: Sequence[int] = (0,),
) -> bytes:
    """The chart as an SVG document, each seat drawn in its colour (`palette.seat_color`:
    the same as on the chances bar and the card), its text readable on a phone.

    Args:
        xs: turns played at each point (over a whole match).
        expected: the expected final score at each point.
        scored: the points scored at each point.
        labels: the expected series', the scored series' and the x axis' names.
        games: x positions where a new game of a match starts (drawn as faint lines).
        chances: each seat's name and its chance of winning (0-1) at each point, the
            reviewed seat first; given, they are drawn in a second panel below (0-100 %).
        chance_label: the second panel's y axis name.
        seats: the seat of each line of `chances` (the reviewed seat first: its expected
            score is drawn in its colour too); the seat's alone without chances.
    """
    from matplotlib import rc_context

    # Latin from DejaVu, and Japanese from Noto Sans CJK when installed (fonts-noto-cjk):
    # matplotlib falls back glyph by glyph along the family list.
    _add_cjk_fonts()
    with rc_context(CHART_RC):
        return _chart_svg(xs, expected, scored, labels, games, chances, chance_label, seats)


@functools.cache
def _add_cjk_fonts() -> None:
    """Registers the sheet's CJK fonts with matplotlib (its font list may predate them)."""
    from matplotlib import font_manager

    from fivedice.sheet.pdf import FALLBACK_FONTS

    for font in FALLBACK_FONTS.get("ja", ()):
        if font.regular.exists():
            font_manager.fontManager.addfont(str(font.regular))
            return


def _chart_svg(
    xs: Sequence[int],
    expected: Sequence[float],
    scored: Sequence[int],
    labels: tuple[str, str, str],
    games: Sequence[int],
    chances: Sequence[tuple[str, Sequence[float]]],
    chance_label: str,
    seats: Sequence[int],
) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    expected_label, scored_label, x_label = labels
    size = text_points()
    own = seat_color(seats[0] if seats else 0)
    # Small in inches with large type: shrunk to a phone's width the words stay readable.
    figure = Figure(figsize=chart_size(bool(chances)), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    if chances:
        axes, lower = figure.subplots(2, 1, sharex=True, height_ratios=(3, 2))
    else:
        axes, lower = figure.add_subplot(), None
    axes.tick_params(labelsize=size)
    for start in games:
        axes.axvline(start, color="#d8d4c8", linewidth=1)
    axes.plot(xs, expected, color=own, linewidth=2, marker="o", markersize=3,
              label=expected_label)  # fmt: skip
    axes.plot(xs, scored, color=SCORED_COLOR, linewidth=2, linestyle="--", marker="s",
              markersize=3, label=scored_label)  # fmt: skip
    if lower is None:
        axes.set_xlabel(x_label, fontsize=size)
    else:
        _chances_panel(lower, xs, chances, chance_label, games, seats)
        lower.set_xlabel(x_label, fontsize=size)
    axes.set_xlim(0, max(xs[-1] if xs else 1, 1))
    axes.set_ylim(bottom=0)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(True, color="#ece9e0", linewidth=0.8)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="lower right", frameon=False, fontsize=size)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def chart_size(with_chances: bool) -> tuple[float, float]:
    """The chart's size in inches (times 100: the ``<img>`` size in pixels)."""
    width = CHART_WIDTH_INCHES
    return (width, width) if with_chances else (width, round(width * 0.62, 2))


def text_points() -> float:
    """The charts' text size in points, from their display width rather than fixed.

    An SVG is scaled as a whole: its text shows at (size / width of the SVG) × (the width
    it is displayed at). Sized so that at `NARROWEST_DISPLAY_PX` the text is
    `SMALLEST_TEXT_PX` CSS pixels (matplotlib's SVG measures in points, 72 an inch);
    on a desktop, where the chart is at most `review.css`'s 560 px, it is about 21 px.
    """
    return round(SMALLEST_TEXT_PX * CHART_WIDTH_INCHES * 72 / NARROWEST_DISPLAY_PX, 1)


def _chances_panel(
    axes: Axes,
    xs: Sequence[int],
    chances: Sequence[tuple[str, Sequence[float]]],
    label: str,
    games: Sequence[int],
    seats: Sequence[int],
) -> None:
    """The chances of winning in percent, each seat in its colour: the reviewed seat bold,
    the others thin and dash-dotted (told apart without colour too)."""
    from matplotlib.ticker import PercentFormatter

    size = text_points()
    axes.tick_params(labelsize=size)
    for start in games:
        axes.axvline(start, color="#d8d4c8", linewidth=1)
    axes.axhline(50, color="#d8d4c8", linewidth=1, linestyle=":")
    for index, (name, values) in enumerate(chances):
        percent = [100 * value for value in values]
        color = seat_color(seats[index] if index < len(seats) else index)
        if index == 0:
            axes.plot(xs, percent, color=color, linewidth=2.5, marker="o",
                      markersize=3, label=name)  # fmt: skip
        else:
            axes.plot(xs, percent, color=color, linewidth=1.4, linestyle="-.", label=name)
    axes.set_ylim(-3, 103)
    axes.set_yticks([0, 50, 100])
    axes.yaxis.set_major_formatter(PercentFormatter(100))
    axes.set_ylabel(label, fontsize=size)
    axes.grid(True, color="#ece9e0", linewidth=0.8)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="best", frameon=False, fontsize=size, ncols=min(len(chances), 2))


def data_url(svg: bytes) -> str:
    """The SVG as a ``data:`` URL for an ``<img src>`` (base64: nothing to escape)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def skill_chart_svg(losses: Sequence[float], labels: tuple[str, str], seat: int = 0) -> bytes:
    """A player's loss per decision game by game (the statistics page), as an SVG document
    sized and lettered as the review's chart.

    Args:
        losses: the expected points lost per decision in each game, oldest first.
        labels: the x axis' name (the games) and the y axis' (the loss per decision).
        seat: the colour to draw in (`palette.seat_color`).
    """
    from matplotlib import rc_context

    _add_cjk_fonts()
    with rc_context(CHART_RC):
        return _skill_chart_svg(losses, labels, seat)


def _skill_chart_svg(losses: Sequence[float], labels: tuple[str, str], seat: int) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    games_label, loss_label = labels
    size = text_points()
    figure = Figure(figsize=chart_size(False), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.tick_params(labelsize=size)
    xs = list(range(1, len(losses) + 1))
    axes.plot(xs, losses, color=seat_color(seat), linewidth=2, marker="o", markersize=4)
    axes.set_xlabel(games_label, fontsize=size)
    axes.set_ylabel(loss_label, fontsize=size)
    axes.set_xlim(0.5, max(len(losses), 1) + 0.5)
    axes.set_ylim(bottom=0)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(True, color="#ece9e0", linewidth=0.8)
    axes.spines[["top", "right"]].set_visible(False)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
