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

from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style, StyleType
from textual.visual import RichVisual
from textual.widget import Widget

from fivedice.i18n import _

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

ELLIPSIS = "…"
MIN_BODY = 12
"""The narrowest body kept beside its prefix."""
_PIECE = re.compile(r"\([^()]*\)\S*|[^\s(]+(?:\s+\([^()]*\)\S*)?")
"""A word, or a parenthesised group with what sticks to it ("(6 6)", "(column 3):")."""


def list_separators() -> tuple[str, ...]:
    """Where a list in the current language may break: after its commas and semicolons (the
    ones `wording.reasons` joins items with) and after a colon."""
    return (_(", "), _("; "), ": ")


def pieces(text: str, separators: Sequence[str] = ()) -> list[str]:
    """`text` cut after each of the `separators` (", ", "; ", "、"), each piece keeping its
    separator: the places where a line may break without splitting a thought."""
    if not separators:
        return [text]
    pattern = re.compile("|".join(re.escape(separator) for separator in separators))
    parts, start = [], 0
    for match in pattern.finditer(text):
        parts.append(text[start : match.end()])
        start = match.end()
    parts.append(text[start:])
    return [part for part in parts if part]


def _words(piece: str) -> list[str]:
    """A piece's words, each with the spaces after it; a parenthesised group stays whole."""
    found = [match.group(0) for match in _PIECE.finditer(piece)]
    if "".join(found).replace(" ", "") != piece.replace(" ", ""):
        found = piece.split(" ")  # (unbalanced brackets: plain words)
    words = []
    for word in found:
        if word:
            words.append(word + " ")
    if words and not piece.endswith(" "):
        words[-1] = words[-1][:-1]
    return words


def _fold(word: str, width: int) -> list[str]:
    """A word wider than the line, folded at cell boundaries (a language without spaces)."""
    return chop_cells(word, max(width, 1)) if cell_len(word) > width else [word]


def wrap_row(body: Sequence[str], width: int, lines: int | None = None) -> list[str]:
    """The `body` pieces filled into lines of at most `width` cells, breaking between pieces
    where it can, between words where a piece alone is too wide; at most `lines` lines, the
    last ending with an ellipsis when pieces were left out."""
    width = max(width, 1)
    result: list[str] = [""]
    for piece in body:
        if cell_len((result[-1] + piece).rstrip()) <= width:
            result[-1] += piece
            continue
        if result[-1].strip():
            result.append("")
        for word in _words(piece):
            if cell_len((result[-1] + word).rstrip()) > width and result[-1].strip():
                result.append("")
            for part in _fold(word.rstrip(), width)[:-1]:
                result[-1] += part
                result.append("")
            result[-1] += _fold(word.rstrip(), width)[-1] + word[len(word.rstrip()) :]
    result = [line.rstrip() for line in result]
    if lines is not None and len(result) > lines:
        return _shortened(body, width, lines)
    return result


def _shortened(body: Sequence[str], width: int, lines: int) -> list[str]:
    """As many whole pieces as fit in `lines` lines with an ellipsis after them."""
    for count in range(len(body) - 1, 0, -1):
        kept = [*body[: count - 1], body[count - 1].rstrip() + " " + ELLIPSIS]
        wrapped = wrap_row(kept, width)
        if len(wrapped) <= lines:
            return wrapped
    return wrap_row([body[0]], width)[: max(lines, 1)]


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
