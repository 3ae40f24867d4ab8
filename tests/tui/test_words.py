"""The terminal app's move log words moves as every front end does (`fivedice.wording.text`)."""

from __future__ import annotations

import pytest

from fivedice.core.actions import parse_action
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.i18n import set_language
from fivedice.tui.widgets.move_log import action_entry, entry_text
from fivedice.wording.text import move_sentence


@pytest.fixture
def language():
    yield set_language
    set_language("en")


def test_cpu_moves_in_the_log_have_their_dice_and_points(language):
    dice = ScriptedDice([3, 3, 5, 6, 6, 3, 6, 6])
    settings = GameSettings((Seat("CPU 2", cpu_level="casual"),))
    state = new_game(settings, dice)
    moves = []
    for action in ("roll", "hold 1 2", "roll", "score full_house"):
        after = apply(state, action, dice)
        moves.append((state, action, after))
        state = after
    english = [entry_text(action_entry(b, a, c)) for b, a, c in moves]
    assert english[0] == "CPU 2 rolls 3 3 5 6 6"
    assert english[1] == "CPU 2 holds dice 1 2 (3 3)"
    assert english[2] == "CPU 2 rolls 3 3 3 6 6"
    assert english[3] == "CPU 2 scores 25 in Full house"
    for code in ("en", "nl", "de"):
        language(code)
        for before, action, after in moves:
            if action.startswith("hold"):
                continue  # the log names held dice by position, the plain mode by face
            text = entry_text(action_entry(before, action, after))
            assert text == move_sentence("CPU 2", parse_action(action), before, after)
            assert "full_house" not in text and "CPU 2:" not in text  # never the notation
