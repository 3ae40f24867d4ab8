"""Rendered PDF sheets kept in memory, so a sheet asked for again costs nothing.

A PDF of a sheet depends only on the sheet (its rules, columns, words and language, all in the
frozen `Sheet`) and the paper, so those are the key. The cache holds at most `max_bytes` of
PDFs and drops the least recently used first; a sheet larger than the whole budget is not kept.
Per process (each server worker has its own).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from fivedice.sheet.model import Paper, Sheet

__all__ = ["DEFAULT_CACHE_BYTES", "RenderedSheets"]

DEFAULT_CACHE_BYTES = 16_000_000
"""About 300 classic sheets (27-60 kB each), or 50 of the largest allowed."""


class RenderedSheets:
    """PDF bytes by (sheet, paper), bounded by their total size, least recently used out."""

    def __init__(self, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._pdfs: OrderedDict[tuple[Sheet, Paper], bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, sheet: Sheet, paper: Paper) -> bytes | None:
        """The PDF rendered before for this sheet and paper, if still kept."""
        with self._lock:
            pdf = self._pdfs.get((sheet, paper))
            if pdf is not None:
                self._pdfs.move_to_end((sheet, paper))
            return pdf

    def put(self, sheet: Sheet, paper: Paper, pdf: bytes) -> None:
        """Keeps a rendered PDF, dropping the least recently used past the budget."""
        if len(pdf) > self.max_bytes:
            return
        with self._lock:
            old = self._pdfs.pop((sheet, paper), None)
            self._bytes -= len(old) if old is not None else 0
            self._pdfs[(sheet, paper)] = pdf
            self._bytes += len(pdf)
            while self._bytes > self.max_bytes:
                _key, dropped = self._pdfs.popitem(last=False)
                self._bytes -= len(dropped)

    @property
    def size(self) -> int:
        """Bytes of PDFs kept now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._pdfs)
