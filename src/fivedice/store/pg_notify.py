"""Hearing the notices of every process that writes to the same PostgreSQL database.

`NoticeListener` keeps one connection of its own (``LISTEN`` on `notices.CHANNEL`), awaited
in the event loop: a notice is handed on without waking a thread. A lost connection is opened
again (waiting a little longer each time, up to `MAX_RETRY_SECONDS`); whatever was sent
while it was closed is lost, so every (re)connection is reported first (`missed`), and the
owner treats everything as possibly changed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from fivedice.store import signals
from fivedice.store.notices import CHANNEL, Notice
from fivedice.store.pg_connection import connect

if TYPE_CHECKING:
    from fivedice.store.database import Store

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.2
MAX_RETRY_SECONDS = 5.0


class NoticeListener:
    """Calls `heard` with every notice of the store's database, in the event loop.

    Args:
        store: a PostgreSQL store.
        heard: called with each notice (texts on the channel that are not notices are
            skipped).
        missed: called each time the connection is (re)established: notices sent before
            may never arrive.
    """

    def __init__(
        self, store: Store, heard: Callable[[Notice], None], missed: Callable[[], None]
    ) -> None:
        self.store = store
        self.heard = heard
        self.missed = missed

    async def listen(self) -> None:
        """Listens until cancelled."""
        delay = FIRST_RETRY_SECONDS
        while True:
            try:
                async with await connect(self.store.url) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    delay = FIRST_RETRY_SECONDS
                    self.missed()
                    async for note in connection.notifies():
                        notice = Notice.parse(note.payload)
                        if notice is not None:
                            self.heard(notice)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listener connection lost (%s); reconnecting", error)
                self.store.signals.error(signals.UNAVAILABLE)
                self.store.signals.retry(signals.LISTENER)
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_RETRY_SECONDS)
