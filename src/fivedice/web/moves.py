"""The moves a page has not shown yet, in words, for the screen reader's live region.

A page tells the server the version it last showed (`?seen=V`, the form's `version`); the
board it gets back announces every action saved since then: each roll with its dice, each
hold, each score with its box and points, the player's own as well as the others' and the
CPUs' that arrived over the event stream. The words are `fivedice.wording.text.move_sentence`, the
same as the plain mode's, in the visitor's language.
"""

from __future__ import annotations

from fivedice.core.actions import parse_action
from fivedice.core.errors import FivediceError
from fivedice.core.record import UNDO
from fivedice.service.games import GameService
from fivedice.wording.moves import move_sentence, undo_sentence

MAX_TOLD = 12  # a page far behind hears the latest moves, not a whole game


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
                    told.append(
                        move_sentence(name, parse_action(entry.action, None), before, state)
                    )
            before = state
            if entry is not None and entry.seq >= version:
                break
    except FivediceError:
        return []
    return told
