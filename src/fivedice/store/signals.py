"""What the store tells whoever watches it (a server's metrics): database errors and retries.

The store knows nothing of metrics; a server adds its counters' functions here
(`Store.signals`), and every place the store meets a database error or does a step again
calls `error` or `retry`. Callbacks must be quick and must not raise.

>>> signals = StoreSignals()
>>> seen = []
>>> signals.errors.append(seen.append)
>>> signals.error("unavailable")
>>> seen
['unavailable']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

UNAVAILABLE = "unavailable"  # a database that could not be reached or was busy
CONFLICT = "conflict"  # a write a constraint refused (another got there first)
DAMAGED = "damaged"  # what was read is not what fivedice wrote
OTHER = "other"

CONNECTION = "connection"  # a dead pooled connection replaced before use
LISTENER = "listener"  # the NOTIFY listener connecting again


@dataclass
class StoreSignals:
    """The callbacks of one store: `errors` get an error's kind, `retries` where a step is
    done again."""

    errors: list[Callable[[str], None]] = field(default_factory=list)
    retries: list[Callable[[str], None]] = field(default_factory=list)

    def error(self, kind: str) -> None:
        for callback in self.errors:
            callback(kind)

    def retry(self, where: str) -> None:
        for callback in self.retries:
            callback(where)
