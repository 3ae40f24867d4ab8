"""The master CPU plays for Generala's instant win: with others at the table, a served
Generala with its box open is scored at once (a certain win), whatever the points."""

from __future__ import annotations

from fivedice.core.actions import Score
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.cpu import cpu_next_action
from fivedice.strategy.master import MasterBot

GENERALA = find_ruleset("generala")


def test_master_scores_a_served_generala_and_wins_at_once() -> None:
    settings = GameSettings((Seat("CPU", cpu_level="master"), Seat("Ann")), GENERALA)
    dice = ScriptedDice([4] * 5)
    state = apply(new_game(settings, dice), "roll", dice)
    master = MasterBot(GENERALA)
    action = cpu_next_action(state, master)  # no table needed: the win is certain
    assert action == Score(GENERALA.box("generala"), 0)
    after = apply(state, action)
    assert after.instant_winner == 0 and after.is_match_over


def test_master_wins_only_with_the_generala_box_open_on_a_first_roll() -> None:
    settings = GameSettings((Seat("CPU", cpu_level="master"), Seat("Ann")), GENERALA)
    master = MasterBot(GENERALA)
    dice = ScriptedDice([4] * 5)
    state = apply(new_game(settings, dice), "roll", dice)
    master.observe(state)
    card = state.cards[0]
    assert master.choose_keep(GENERALA, card, (4,) * 5, 2) == (4,) * 5
    # Not on a later roll, nor with the box filled, nor alone.
    assert master._winning_box(GENERALA, card, (4,) * 5, 1) is None
    filled = card.fill(GENERALA, 0, GENERALA.box("generala"), (1, 1, 1, 1, 2))
    assert master._winning_box(GENERALA, filled, (4,) * 5, 2) is None
    alone = apply(
        new_game(GameSettings((Seat("CPU", cpu_level="master"),), GENERALA), dice),
        "roll",
        ScriptedDice([4] * 5),
    )
    master.observe(alone)
    assert master._winning_box(GENERALA, card, (4,) * 5, 2) is None
