"""The coach, the review and the optimal CPU levels ask the turn engine (`strategy.turn_cache`,
the public `fivedice.advise`'s) where it can play the rules: their options, values and
decisions are the advisor's and the CPU kernels' (values to 1e-9), on many positions and on
every decision of played games."""

from __future__ import annotations

import random

import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.cpu import cpu_next_action
from fivedice.strategy import advisor, turn_cache
from fivedice.strategy.bots import Bot, values_from_table
from fivedice.strategy.hints import exact_hints
from tests.strategy.test_turn_cache import _positions

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("preset", ["classic", "yatzy"])
@pytest.mark.parametrize("level", ["expert", "strong"])
def test_the_optimal_cpus_value_and_choose_as_the_kernels_do(
    preset: str, level: str, solved_table: object
) -> None:
    """A bot given the table asks the turn engine; one given the same values reads them with
    the CPU kernels. On 250 reachable positions, each with every number of rolls left: the
    same keeps in the same order with the same values (to 1e-9), and the same keep and box
    chosen, slips included (`strong`: the same seed, the same near misses)."""
    rules = find_ruleset(preset)
    table = solved_table(rules)  # type: ignore[operator]
    fast = Bot(level, rules, random.Random(7), table=table)
    kernels = Bot(level, rules, random.Random(7), values=values_from_table(table))
    assert fast.engine_table(rules) is table and kernels.engine_table(rules) is None
    worst = 0.0
    for column, dice, _ in _positions(rules, 250, seed=11):
        card = ScoreCard((column,))
        for left in range(1, rules.rolls_per_turn):
            expected = kernels.keep_options(rules, card, dice, left)
            found = fast.keep_options(rules, card, dice, left)
            assert [keep for keep, _ in found] == [keep for keep, _ in expected]
            pairs = zip(found, expected, strict=True)
            worst = max([worst, *(abs(a - b) for (_, a), (_, b) in pairs)])
            assert fast.choose_keep(rules, card, dice, left) == kernels.choose_keep(
                rules, card, dice, left
            )
        assert fast.choose_box(rules, card, dice) == kernels.choose_box(rules, card, dice)
    assert worst < 1e-9


@pytest.mark.parametrize("preset", ["classic", "yatzy"])
def test_the_expert_breaks_ties_as_the_kernels_do(preset: str, solved_table: object) -> None:
    """Late in a game (one or two boxes open) many keeps are worth the same (the dice no box
    wants): the expert on the engine keeps and scores exactly as on the kernels, which take
    the first of the tied options in their order."""
    rules = find_ruleset(preset)
    table = solved_table(rules)  # type: ignore[operator]
    fast = Bot("expert", rules, random.Random(7), table=table)
    kernels = Bot("expert", rules, random.Random(7), values=values_from_table(table))
    rng = random.Random(9)
    tied = 0
    for _ in range(400):
        column = Column.empty(rules)
        for _ in range(len(column.scores) - rng.choice((1, 2))):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            column = column.fill(rules, rng.choice(column.placements(rules, roll)).category, roll)
        card = ScoreCard((column,))
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for left in range(1, rules.rolls_per_turn):
            options = kernels.keep_options(rules, card, dice, left)
            best = max(value for _, value in options)
            tied += sum(value >= best - 1e-9 for _, value in options) > 1
            assert fast.choose_keep(rules, card, dice, left) == kernels.choose_keep(
                rules, card, dice, left
            )
        assert fast.choose_box(rules, card, dice) == kernels.choose_box(rules, card, dice)
    assert tied > 20  # the ties this test is about were met


def test_a_cpu_decides_through_the_engine_only_where_it_can(classic_table: object) -> None:
    """Values handed in, several columns, six dice or a level that does not play the optimal
    values: the CPU kernels decide, as before."""
    classic = find_ruleset("classic")
    values = values_from_table(classic_table)  # type: ignore[arg-type]
    assert Bot("expert", classic, values=values).engine_table(classic) is None
    assert Bot("casual", classic).engine_table(classic) is None
    assert Bot("guide", classic).engine_table(classic) is None
    triple = find_ruleset("triple")
    assert Bot("expert", triple, values=values).engine_table(triple) is None
    maxi = find_ruleset("maxi-yatzy")
    assert Bot("expert", maxi).engine_table(maxi) is None


def _options(options: list) -> list:
    return [(o.keep, o.category, o.value, o.loss) for o in options]


@pytest.mark.parametrize("preset", ["classic", "free-choice", "yatzy"])
def test_the_coach_on_every_decision_of_played_games_gives_the_advisors_options(
    preset: str, solved_table: object
) -> None:
    """Three games of the expert CPU (through the service's one-step-at-a-time decisions, so
    that each turn's card is asked about again at every hold): at every decision the coach's
    hints (`exact_hints`, on the turn engine) are the advisor's options, values and losses,
    bit for bit, and `turn_cache.advise` is `advisor.advise`."""
    rules = find_ruleset(preset)
    table = solved_table(rules)  # type: ignore[operator]
    turn_cache.engine(table).clear()
    player = Bot("expert", rules, random.Random(1), table=table)
    asked = 0
    for seed in range(3):
        dice = RandomDice(seed)
        state = new_game(GameSettings((Seat("Ann"),), rules), dice)
        while not state.is_game_over:
            if state.turn.dice is not None:
                column = state.cards[0].columns[0]
                expected = advisor.advise(table, column, state.turn.dice, state.rolls_left)
                hints = exact_hints(table, state)
                assert [(h.keep, h.category, h.value, h.loss) for h in hints] == _options(expected)
                assert _options(
                    turn_cache.advise(table, column, state.turn.dice, state.rolls_left)
                ) == _options(expected)
                asked += 1
            state = apply(state, cpu_next_action(state, player), dice)
    assert asked > 3 * 2 * len(rules.boxes)  # each turn asked at least twice on its card
