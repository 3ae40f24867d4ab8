"""Terminal-app fixtures: each test's games in a SQLite file of its own, and English after."""

from __future__ import annotations

from pathlib import Path

import pytest

from fivedice.i18n import set_language
from tests.tui.support import use_database


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Every test saves its games in its own SQLite file; the language is English after it."""
    use_database(monkeypatch, f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield
    set_language("en")
