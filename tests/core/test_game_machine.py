"""Random legal and illegal play for 1-4 seats under several rule sets (Hypothesis)."""

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fivedice.core.actions import Hold, Release, Roll, Score
from fivedice.core.categories import CATEGORIES
from fivedice.core.dice import RandomDice
from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings, Seat, apply, legal_actions, new_game
from fivedice.core.rules import find_ruleset

RULE_SETS = [
    find_ruleset("classic"),
    find_ruleset("free-choice"),
    find_ruleset("simple", {"upper_first": "on", "rolls_per_turn": "2"}),
    find_ruleset("classic-five", {"of_a_kind_scores": "matching_dice"}),
    find_ruleset("triple"),
]

any_action = st.one_of(
    st.just(Roll()),
    st.sets(st.integers(1, 5), min_size=1).map(lambda s: Hold(tuple(sorted(s)))),
    st.sets(st.integers(1, 5), min_size=1).map(lambda s: Release(tuple(sorted(s)))),
    st.builds(Score, st.sampled_from(CATEGORIES), st.integers(0, 3)),
)


class GameMachine(RuleBasedStateMachine):
    @initialize(
        rules=st.sampled_from(RULE_SETS), seats=st.integers(1, 4), seed=st.integers(0, 2**32)
    )
    def start(self, rules, seats, seed):
        self.dice = RandomDice(random.Random(seed))
        self.state = new_game(GameSettings(tuple(Seat(f"P{i}") for i in range(seats)), rules))
        self.turns = [0] * seats
        self.filled_before = 0

    @precondition(lambda self: not self.state.is_match_over)
    @rule(data=st.data())
    def legal_action(self, data):
        action = data.draw(st.sampled_from(legal_actions(self.state)))
        seat = self.state.current_seat
        filled = sum(card.boxes_filled for card in self.state.cards)
        self.state = apply(self.state, action, self.dice)
        after = sum(card.boxes_filled for card in self.state.cards)
        assert after == filled + (1 if isinstance(action, Score) else 0)
        if isinstance(action, Score):
            self.turns[seat] += 1

    @rule(action=any_action)
    def any_action(self, action):
        legal = legal_actions(self.state)
        before = self.state
        if action in legal or (isinstance(action, Hold | Release) and self._multi_ok(action)):
            self.state = apply(self.state, action, self.dice)
            if isinstance(action, Score):
                self.turns[before.current_seat] += 1
            return
        try:
            apply(self.state, action, self.dice)
        except FivediceError:
            assert self.state == before
        else:
            raise AssertionError(f"{action} was applied but is not legal")

    def _multi_ok(self, action):
        single = Hold if isinstance(action, Hold) else Release
        legal = legal_actions(self.state)
        return all(single((p,)) in legal for p in action.positions)

    @invariant()
    def totals_are_the_sum_of_their_parts(self):
        rules = self.state.rules
        for card in self.state.cards:
            total = 0
            for column, multiplier in zip(card.columns, rules.column_multipliers, strict=True):
                boxes = sum(s for s in column.scores if s is not None)
                upper = sum(s for s in column.scores[:6] if s is not None)
                bonus = (
                    rules.upper_bonus_value
                    if rules.upper_bonus and upper >= rules.upper_bonus_threshold
                    else 0
                )
                total += multiplier * (
                    boxes + bonus + column.extra_yahtzees * rules.yahtzee_bonus_value
                )
            assert card.total(rules) == total

    @invariant()
    def turns_match_filled_boxes(self):
        for seat, card in enumerate(self.state.cards):
            assert card.boxes_filled == self.turns[seat]
        if self.state.is_match_over:
            assert all(t == 13 * self.state.rules.columns for t in self.turns)


GameMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = GameMachine.TestCase
TestGameMachine.pytestmark = [pytest.mark.slow]  # hundreds of random games: make test only
