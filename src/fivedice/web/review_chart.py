"""The review page's chart: a seat's expected final score against the points it scored.

Drawn with matplotlib's object API (a `Figure` on the Agg canvas: no pyplot, no global
state, safe in server threads) and written as SVG in memory. The page shows it as an
``<img>`` with a ``data:`` URL: an SVG image never runs scripts or loads anything, and it
keeps its own styles under the pages' Content-Security-Policy (which allows ``data:``
images but no inline styles in the page itself).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

EXPECTED_COLOR = "#1f6feb"  # the pages' accent
SCORED_COLOR = "#1a7f37"  # the pages' "good" green


def chart_svg(
    xs: Sequence[int],
    expected: Sequence[float],
    scored: Sequence[int],
    labels: tuple[str, str, str],
    games: Sequence[int] = (),
) -> bytes:
    """The chart as an SVG document.

    Args:
        xs: turns played at each point (over a whole match).
        expected: the expected final score at each point.
        scored: the points scored at each point.
        labels: the expected series', the scored series' and the x axis' names.
        games: x positions where a new game of a match starts (drawn as faint lines).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    expected_label, scored_label, x_label = labels
    # Small in inches with large type: shrunk to a phone's width the words stay readable.
    figure = Figure(figsize=(5.6, 3.3), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.tick_params(labelsize=12)
    for start in games:
        axes.axvline(start, color="#d8d4c8", linewidth=1)
    axes.plot(xs, expected, color=EXPECTED_COLOR, linewidth=2, marker="o", markersize=3,
              label=expected_label)  # fmt: skip
    axes.plot(xs, scored, color=SCORED_COLOR, linewidth=2, linestyle="--", marker="s",
              markersize=3, label=scored_label)  # fmt: skip
    axes.set_xlabel(x_label, fontsize=12)
    axes.set_xlim(0, max(xs[-1] if xs else 1, 1))
    axes.set_ylim(bottom=0)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(True, color="#ece9e0", linewidth=0.8)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="lower right", frameon=False, fontsize=12)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def data_url(svg: bytes) -> str:
    """The SVG as a ``data:`` URL for an ``<img src>`` (base64: nothing to escape)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
