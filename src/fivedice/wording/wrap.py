"""Text wrapped by meaning to a width, never cut mid-word: lists break between their items,
then between words; a word is folded only when it is wider than the whole line (a language
without spaces). The terminal app's coach panel (`tui.widgets.wrapped`) and the plain mode's
lines (`wrap_line`) share it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len, chop_cells

from fivedice.i18n import _

__all__ = ["ELLIPSIS", "list_separators", "pieces", "wrap_line", "wrap_row"]

ELLIPSIS = "…"
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


def wrap_line(line: str, width: int) -> list[str]:
    """A line of at most `width` cells as it is; a longer one wrapped between its list items
    (then words), the lines after the first indented two spaces more than the first."""
    if cell_len(line) <= width:
        return [line]
    first = wrap_row(pieces(line, list_separators()), width)[0]
    if not line.startswith(first):  # (spaces the wrapping changed: leave the line whole)
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    rest = pieces(line[len(first) :].lstrip(), list_separators())
    return [first, *(indent + part for part in wrap_row(rest, width - len(indent)))]
