"""The moves a page has not shown yet, in words, for the screen reader's live region.

A page tells the server the version it last showed (`?seen=V`, the form's `version`); the
board it gets back announces every action saved since then: each roll with its dice, each
hold, each score with its box and points (and the extra turn or saved rolls it earned), the
player's own as well as the others' and the CPUs' that arrived over the event stream. The
words are `fivedice.wording.moves`' (`move_sentence`, `turn_news`), the same as the plain
mode's, in the visitor's language.
"""

from __future__ import annotations

from threading import Lock
from weakref import WeakKeyDictionary

from fivedice.core.actions import parse_action
from fivedice.core.errors import FivediceError
from fivedice.core.record import UNDO
from fivedice.service.games import GameService
from fivedice.web.wording import in_language
from fivedice.wording.moves import move_sentence, turn_news, undo_sentence

MAX_TOLD = 12  # a page far behind hears the latest moves, not a whole game
LOG_LENGTH = 6
"""Moves the board's log shows: about one turn of each of two players, or the last turn of
a solo game (a turn is one to three rolls, the holds between them and a score)."""
LOGS_CACHED = 2048

_logs: WeakKeyDictionary[GameService, dict[tuple[int, int, str], tuple[str, ...]]] = (
    WeakKeyDictionary()
)  # per service: game ids are a database's (tests run many databases in one process)
_logs_lock = Lock()


def moves_since(service: GameService, game_id: int, seen: int, version: int) -> list[str]:
    """Sentences for the actions after version `seen` up to `version` (oldest first).

    Call it with the visitor's language current (`wording.in_language`). A damaged or
    unreadable log tells nothing rather than failing the page.
    """
    if seen >= version or seen < 0:
        return []
    first = max(seen, version - MAX_TOLD)
    try:
        record = service.record(game_id)
        told: list[str] = []
        before = None
        for entry, state in record.states():
            if entry is not None and first < entry.seq <= version and before is not None:
                name = before.seats[entry.seat].name
                if entry.action == UNDO:
                    told.append(undo_sentence(name))
                else:
                    # An extra turn or saved rolls are said with the score that earned them.
                    said = move_sentence(name, parse_action(entry.action, None), before, state)
                    told.append(" ".join([said, *turn_news(name, before, state)]))
            before = state
            if entry is not None and entry.seq >= version:
                break
    except FivediceError:
        return []
    return told


def recent_moves(
    service: GameService,
    game_id: int,
    version: int,
    language: str,
) -> tuple[str, ...]:
    """The board's move log: the last `LOG_LENGTH` moves up to `version`, oldest first, in
    `language`.

    Every page that shows a version shows the same log, so it is kept per (game, version,
    language): the spectators a move wakes up replay the game's log once between them, not
    once each. A version's moves never change (an undo is a version of its own).
    """
    key = (game_id, version, language)
    with _logs_lock:
        logs = _logs.setdefault(service, {})
        kept = logs.get(key)
    if kept is not None:
        return kept
    told = tuple(
        in_language(language, moves_since, service, game_id, max(0, version - LOG_LENGTH), version)
    )
    if not told:  # (nothing yet, or a log that could not be read now: not kept)
        return told
    with _logs_lock:
        if len(logs) >= LOGS_CACHED:
            logs.clear()
        logs[key] = told
    return told
