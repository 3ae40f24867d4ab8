"""The board offers only what works under the game's rules: in Maxi Yatzy (six dice, saved
rolls: the coach gives the expert CPU's estimates) no goal box the coach would refuse, no
winning-chances toggle that shows no bar, no review link the review would refuse; the coach
never counts the dice as five."""

from __future__ import annotations

import pytest

from fivedice.core import GameSettings, Roll, ScriptedDice, Seat, apply, find_ruleset, new_game
from fivedice.service.coach import chances_offered, goal_hints, goal_offered
from fivedice.service.errors import HintsUnavailableError, TablesPreparingError
from fivedice.service.review import review_offered
from fivedice.strategy.review import Choice
from fivedice.wording.coach import keep_text
from fivedice.wording.review import choice_words
from tests.web.support import start


def test_a_maxi_yatzy_board_offers_no_goal_and_no_chances(client):
    game = start(client, preset="maxi-yatzy")
    client.post(game + "/act", data={"action": "roll", "version": 0})
    page = client.get(game).text
    assert 'id="roll"' in page and 'id="hint"' in page
    assert 'id="goal-form"' not in page and 'id="chances-toggle"' not in page
    classic = start(client)
    client.post(classic + "/act", data={"action": "roll", "version": 0})
    page = client.get(classic).text
    assert 'id="goal-form"' in page and 'id="chances-toggle"' in page


def test_the_goal_offered_nowhere_the_coach_refuses_one():
    # Maxi Yatzy: refused before any table is looked at; classic: offered.
    settings = GameSettings((Seat("Ann"),), find_ruleset("maxi-yatzy"))
    state = apply(new_game(settings), Roll(), ScriptedDice([6] * 6))
    with pytest.raises(HintsUnavailableError) as refused:
        goal_hints(state, 300, wait=False)
    assert not isinstance(refused.value, TablesPreparingError)
    assert not goal_offered(state.rules)
    assert goal_offered(find_ruleset("classic"))
    assert not chances_offered(state)  # one seat


def test_maxi_yatzy_offers_no_review_and_classic_does():
    assert not review_offered(find_ruleset("maxi-yatzy"))
    assert review_offered(find_ruleset("classic"))


def test_rolling_every_die_again_counts_no_dice():
    for words in (keep_text(()), choice_words(Choice(keep=()))):
        assert "five" not in words and "dice" in words
