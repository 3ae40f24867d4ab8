"""Text measured in terminal cells, not characters.

Japanese (and Chinese, Korean) characters take two cells of a terminal, so a column aligned
with `len()` or `f"{text:<16}"` comes out ragged and a name cut to `width` characters can be
twice too wide. Every width the terminal app and the plain mode compute goes through these
helpers; they measure as rich (and so Textual) draws.
"""

from __future__ import annotations

from rich.cells import cell_len

ELLIPSIS = "…"


def text_width(text: str) -> int:
    """The cells `text` takes in a terminal (a double-width character counts 2)."""
    return cell_len(text)


def fit_cells(text: str, cells: int) -> str:
    """`text` if it fits in `cells`, else cut to fit with a trailing "…" (never wider)."""
    if cell_len(text) <= cells:
        return text
    if cells <= 0:
        return ""
    kept, used = [], 0
    for character in text:
        size = cell_len(character)
        if used + size > cells - 1:
            break
        kept.append(character)
        used += size
    return "".join(kept) + ELLIPSIS


def pad_cells(text: str, cells: int, align: str = "<") -> str:
    """`text` padded with spaces to `cells` ("<" left, ">" right, "^" centred); text wider
    than `cells` is returned whole, as an f-string's alignment would."""
    room = cells - cell_len(text)
    if room <= 0:
        return text
    if align == ">":
        return " " * room + text
    if align == "^":
        left = room // 2
        return " " * left + text + " " * (room - left)
    return text + " " * room
