"""What the terminal-app tests share: the test's database, as the app's default one."""

from __future__ import annotations

import pytest

from fivedice.service.games import GameService


def use_database(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Makes `url` the database every app (and `open_service`) of this test opens by default."""
    monkeypatch.setenv("FIVEDICE_DATABASE_URL", url)


def open_service() -> GameService:
    """A service of its own on the test's database (what the app saved, read back)."""
    return GameService.open()
