"""What a PostgreSQL store tells every process that shares its database: what changed.

A notice names a topic (a game's new version, a room's, a game's seats, a game ended, a
game whose CPU driver stopped), the id of the game or room, and its version: never the
state, which the listener reads itself.
It travels on one channel (`CHANNEL`) as the text ``<topic>:<id>:<version>``
(``g:12:3``). `Store.append_action` sends the notice of every action it saves, in the
action's own statement; other changes are sent with `Store.notify`; `pg_notify` listens.

A saved action's notice also carries the action as logged (``<seat>:<dice>:<action>``, a
few dozen bytes, far below NOTIFY's 8,000): a worker that keeps the game at the version
before applies it (`entry`) instead of reading the game's tail back from the database, so a
version another worker wrote reaches this worker's streams without a round trip. A listener
that cannot use it (it keeps another version, or none) reads the tail as before.

>>> Notice(Topic.GAME, 12, 3).payload
'g:12:3'
>>> Notice.parse("g:12:3") == Notice(Topic.GAME, 12, 3)
True
>>> Notice.parse("x:12:3") is None
True
>>> saved = Notice.parse("g:12:3:1:64:hold 1 2")
>>> saved.payload, saved.entry()
('g:12:3:1:64:hold 1 2', ActionEntry(seq=3, seat=1, action='hold 1 2', dice=(6, 4)))
>>> Notice.logging(12, ActionEntry(4, 0, "roll", (3, 1, 5, 5, 2))).payload
'g:12:4:0:31552:roll'
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from fivedice.core.actions import parse_action
from fivedice.core.errors import FivediceError
from fivedice.core.record import UNDO, ActionEntry, dice_text, parse_dice_text

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
    """One change: `topic` of the game or room `ident` is at `version`; `logged`: the
    action a saved action's notice carries (``<seat>:<dice>:<action>``; "" for others)."""

    topic: Topic
    ident: int
    version: int
    logged: str = ""

    @classmethod
    def logging(cls, game_id: int, entry: ActionEntry) -> Notice:
        """The notice of a saved action: the game at the action's number, the action with
        it."""
        logged = f"{entry.seat}:{dice_text(entry.dice)}:{entry.action}"
        return cls(Topic.GAME, game_id, entry.seq, logged)

    @property
    def payload(self) -> str:
        """The notice as sent on the channel."""
        head = f"{self.topic.value}:{self.ident}:{self.version}"
        return f"{head}:{self.logged}" if self.logged else head

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """A notice from its payload; None when the text is not one of ours."""
        topic, _sep, rest = payload.partition(":")
        ident, _sep, rest = rest.partition(":")
        version, _sep, logged = rest.partition(":")
        if topic not in _TOPICS or not _digits(ident) or not _digits(version):
            return None
        return cls(Topic(topic), int(ident), int(version), logged)

    def entry(self) -> ActionEntry | None:
        """The saved action the notice carries, checked as a stored row is (its seat's
        range and its legality are the replay's to check); None when it carries none, an
        undo (which needs the whole log), or text fivedice would not write."""
        seat, _sep, rest = self.logged.partition(":")
        dice, _sep, action = rest.partition(":")
        if self.topic is not Topic.GAME or not _digits(seat) or not action or action == UNDO:
            return None
        try:
            return ActionEntry(
                self.version, int(seat), str(parse_action(action, None)), parse_dice_text(dice, "")
            )
        except FivediceError:
            return None


_TOPICS = frozenset(topic.value for topic in Topic)


def _digits(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also says yes to "²", which int() refuses."""
    return text.isascii() and text.isdigit()
