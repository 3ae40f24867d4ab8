"""Lines that wrap by meaning to the width they are given, never cut mid-word.

The coach's panel is as wide as the window leaves it: at 60 columns an option, its reasons or
its chances take two lines, at 120 one. `Wrapped` is a Rich renderable that wraps each of its
rows when it is drawn, at the width Textual gives it (so a resized window wraps again):

- a row is a `prefix` (figures, kept whole) and a `body`; the body's continuation lines are
  indented under the body, so the figures stay a column of their own;
- a body breaks only between its `pieces` ("+0.6 in Upper bonus, " / "+0.5 in Yahtzee"; "hold
  1 2 " / "(6 6)"), then at spaces, and folds a word only when it is wider than the whole line
  (a language without spaces);
- a row may have at most `lines` lines: the pieces that do not fit are left out, and an
  ellipsis after the last whole piece says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style, StyleType
from textual.visual import RichVisual
from textual.widget import Widget

from fivedice.wording.wrap import ELLIPSIS, list_separators, pieces, wrap_row

MIN_BODY = 12
"""The narrowest body kept beside its prefix."""

__all__ = [
    "ELLIPSIS",
    "Row",
    "Wrapped",
    "WrappedVisual",
    "list_separators",
    "pieces",
    "wrap_row",
    "wrapped_rows",
]


@dataclass(frozen=True)
class Row:
    """One row of a `Wrapped`: figures kept whole (`prefix`) and a body that wraps under
    itself; `lines` caps the row's lines (None: as many as it needs)."""

    body: tuple[str, ...]
    prefix: str = ""
    style: StyleType = ""
    lines: int | None = None

    @classmethod
    def of(
        cls,
        text: str,
        prefix: str = "",
        style: StyleType = "",
        separators: Sequence[str] = (),
        lines: int | None = None,
    ) -> Row:
        """A row of `text` that may break after each of `separators` first, and around a
        bracket ("hold 1 2 3" / "(6 6 4)")."""
        body = [
            part
            for piece in pieces(text, separators)
            for part in re.split(r"(?<= )(?=\()|(?=（)|(?<=\) )|(?<=）)", piece)
            if part
        ]
        return cls(tuple(body), prefix, style, lines)


class Wrapped:
    """Rows wrapped by meaning to the width they are drawn at (see the module's doc)."""

    def __init__(self, rows: Iterable[Row]) -> None:
        self.rows = tuple(rows)

    def lines(self, width: int) -> list[tuple[str, StyleType]]:
        """Every line at `width` cells, with its row's style."""
        result: list[tuple[str, StyleType]] = []
        for row in self.rows:
            indent = cell_len(row.prefix)
            if width - indent >= MIN_BODY:  # the body beside its figures, wrapped under itself
                wrapped = wrap_row(row.body, width - indent, row.lines)
                result.append((row.prefix + wrapped[0], row.style))
                result.extend((" " * indent + line, row.style) for line in wrapped[1:])
            else:  # too narrow for a column: the figures, then the body under them
                if row.prefix.strip():
                    result.append((row.prefix.rstrip(), row.style))
                wrapped = wrap_row(row.body, width, row.lines)
                result.extend((line, row.style) for line in wrapped)
        return result

    def __str__(self) -> str:
        return "\n".join(line for line, _style in self.lines(10_000))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line, style in self.lines(options.max_width):
            yield Segment(line, console.get_style(style) if style else Style())
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(line) for line, _style in self.lines(10_000)), default=0)
        return Measurement(min(12, widest), widest)


class WrappedVisual(RichVisual):
    """A `Wrapped` as a widget shows it; as a string, its rows unwrapped (what it says)."""

    def __init__(self, widget: Widget, wrapped: Wrapped) -> None:
        super().__init__(widget, wrapped)
        self.wrapped = wrapped

    def __str__(self) -> str:
        return str(self.wrapped)


def wrapped_rows(widget: Widget, rows: Iterable[Row]) -> WrappedVisual:
    """What `widget` (a `Static`) shows for `rows`: `widget.update(wrapped_rows(widget, rows))`."""
    return WrappedVisual(widget, Wrapped(rows))
