"""The server's expiry of rooms never started and games never played.

Every worker runs `expire_periodically` in its lifespan: once a minute it deletes the rooms
nobody started within `$FIVEDICE_ROOM_EXPIRY_HOURS` (default 24) of their creation and the
games with no action within `$FIVEDICE_GAME_EXPIRY_DAYS` (default 7), by
`GameService.expire_unstarted`. Several workers doing it
at once is harmless (each deletion is one transaction over locked rows).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from starlette.concurrency import run_in_threadpool

from fivedice.core.errors import N_, FivediceError
from fivedice.service.games import GameService

__all__ = [
    "GAME_DAYS_ENV",
    "ROOM_HOURS_ENV",
    "ExpirySettingError",
    "ExpirySettings",
    "expire_periodically",
]

ROOM_HOURS_ENV = "FIVEDICE_ROOM_EXPIRY_HOURS"
GAME_DAYS_ENV = "FIVEDICE_GAME_EXPIRY_DAYS"
_log = logging.getLogger(__name__)


class ExpirySettingError(FivediceError):
    """An expiry variable is not a positive number."""


@dataclass(frozen=True)
class ExpirySettings:
    """How long unstarted things live, and how often the server looks for them."""

    room_age: timedelta = timedelta(hours=24)
    game_age: timedelta = timedelta(days=7)
    every_seconds: float = 60.0

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ExpirySettings:
        """The defaults, with the ages the environment sets.

        Raises:
            ExpirySettingError: a variable is not a positive number.
        """
        environ = os.environ if environ is None else environ
        hours = _positive(environ, ROOM_HOURS_ENV, 24.0)
        days = _positive(environ, GAME_DAYS_ENV, 7.0)
        return cls(room_age=timedelta(hours=hours), game_age=timedelta(days=days))


def _positive(environ: Mapping[str, str], variable: str, default: float) -> float:
    text = environ.get(variable, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1e6:
        raise ExpirySettingError(
            N_("{variable} must be a positive number, not {value!r}"),
            variable=variable,
            value=text[:40],
        )
    return value


async def expire_periodically(service: GameService, settings: ExpirySettings) -> None:
    """Deletes what expired, every `settings.every_seconds`, until cancelled (the first
    time one period after the start). A database that is away is tried again next time."""
    while True:
        await asyncio.sleep(settings.every_seconds)
        try:
            expired = await run_in_threadpool(
                service.expire_unstarted, game_age=settings.game_age, room_age=settings.room_age
            )
        except FivediceError as error:
            _log.warning("expiry: %s", error)
            continue
        if expired.game_ids or expired.room_ids:
            _log.info(
                "expired %d games never played and %d rooms never started",
                len(expired.game_ids),
                len(expired.room_ids),
            )
