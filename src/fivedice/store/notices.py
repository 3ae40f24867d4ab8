"""What a PostgreSQL store tells every process that shares its database: what changed.

A notice names a topic (a game's new version, a room's, a game's seats, a game ended, a
game whose CPU driver stopped), the id of the game or room, and its version: never the
state, which the listener reads itself.
It travels on one channel (`CHANNEL`) as the text ``<topic>:<id>:<version>``
(``g:12:3``). `Store.append_action` sends the notice of every action it saves, in the
action's own statement; other changes are sent with `Store.notify`; `pg_notify` listens.

>>> Notice(Topic.GAME, 12, 3).payload
'g:12:3'
>>> Notice.parse("g:12:3") == Notice(Topic.GAME, 12, 3)
True
>>> Notice.parse("x:12:3") is None
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

__all__ = ["CHANNEL", "Notice", "Topic"]

CHANNEL = "fivedice"


class Topic(StrEnum):
    """What changed."""

    GAME = "g"  # a game's new version
    ROOM = "r"  # a room's new version
    SEATS = "s"  # a game's seats (a seat handed to a CPU), at the same version
    ENDED = "a"  # a game abandoned: its status changed at the same version
    DRIVER = "d"  # a stopping worker let the game's CPU seats go: another worker takes them


class Notice(NamedTuple):
    """One change: `topic` of the game or room `ident` is at `version`."""

    topic: Topic
    ident: int
    version: int

    @property
    def payload(self) -> str:
        """The notice as sent on the channel."""
        return f"{self.topic.value}:{self.ident}:{self.version}"

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """A notice from its payload; None when the text is not one of ours."""
        topic, _sep, rest = payload.partition(":")
        ident, _sep, version = rest.partition(":")
        if topic not in _TOPICS or not _digits(ident) or not _digits(version):
            return None
        return cls(Topic(topic), int(ident), int(version))


_TOPICS = frozenset(topic.value for topic in Topic)


def _digits(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also says yes to "²", which int() refuses."""
    return text.isascii() and text.isdigit()
