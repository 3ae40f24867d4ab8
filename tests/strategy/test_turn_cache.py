"""The library's advice engine that keeps each state's turn values (`strategy.turn_cache`):
first questions and repeated ones give the advisor's answers exactly, states sharing a row never
mix, and the best values equal the peer's (`yatzy-solver`) to 1e-9, asked first or again."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from fivedice import advise
from fivedice.core.card import Column
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy import advisor, turn_cache
from fivedice.strategy.solver import StrategyTable

pytestmark = pytest.mark.slow


def _positions(
    rules: RuleSet, count: int, seed: int, rolls_left: int | None = None
) -> list[tuple[Column, tuple[int, ...], int]]:
    """Reachable decision points: a card filled by random legal moves, dice in the order rolled
    and rolls left (random unless given)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        column = Column.empty(rules)
        for _ in range(rng.randrange(len(column.scores))):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        left = rng.randrange(rules.rolls_per_turn) if rolls_left is None else rolls_left
        positions.append((column, dice, left))
    return positions


def _triples(table: StrategyTable, column: Column, dice: tuple[int, ...], left: int) -> list:
    return [(o.keep, o.box, o.value, o.loss) for o in advise(table, dice, left, column)]


def _advisor_triples(
    table: StrategyTable, column: Column, dice: tuple[int, ...], left: int
) -> list:
    return [
        (o.keep, o.category.key if o.category else None, o.value, o.loss)
        for o in advisor.advise(table, column, dice, left)
    ]


@pytest.mark.parametrize("preset", ["classic", "free-choice"])
def test_first_and_repeated_questions_give_the_advisors_answers(
    preset: str, solved_table: object
) -> None:
    """Each position asked on an empty cache (a first question), then again, then the same card
    with every other number of rolls left and other dice (a turn's later questions): always
    the advisor's options, values and losses, bit for bit."""
    rules = find_ruleset(preset)
    table = solved_table(rules)  # type: ignore[operator]
    engine = turn_cache.engine(table)
    rng = random.Random(5)
    for column, dice, left in _positions(rules, 150, seed=len(preset)):
        engine.clear()
        expected = _advisor_triples(table, column, dice, left)
        assert _triples(table, column, dice, left) == expected  # first: the kernel's turn
        assert _triples(table, column, dice, left) == expected  # again: read from the row
        for other_left in range(rules.rolls_per_turn):  # fewer, then more, rolls left
            other = tuple(rng.randint(1, 6) for _ in range(5))
            assert _triples(table, column, other, other_left) == _advisor_triples(
                table, column, other, other_left
            )


def test_states_sharing_a_set_of_rows_never_mix(classic_table: StrategyTable) -> None:
    """More positions than a set of the cache has rows, all of whose states fall in that set,
    asked in turn (each overwriting the least recently used), answer as the advisor does every
    time."""
    rules = classic_table.rules
    by_row: dict[int, list[tuple[Column, tuple[int, ...], int]]] = {}
    for column, dice, left in _positions(rules, 1500, seed=11, rolls_left=2):
        scores = column.scores
        mask = sum(1 << i for i, points in enumerate(scores) if points is not None)
        up = min(sum(points or 0 for points in scores[:6]), classic_table.upper_cap)
        armed = int(scores[11] is not None and scores[11] > 0)
        key = (mask * (classic_table.upper_cap + 1) + up) * 2 + armed
        row = by_row.setdefault(key % turn_cache.SETS, [])
        if all(column.scores != seen.scores for seen, _, _ in row):
            row.append((column, dice, left))
    shared = max(by_row.values(), key=len)
    assert len(shared) > turn_cache.WAYS  # more states than the set has rows
    turn_cache.engine(classic_table).clear()
    for _ in range(3):
        for column, dice, left in shared:
            assert _triples(classic_table, column, dice, left) == _advisor_triples(
                classic_table, column, dice, left
            )


def test_a_new_card_object_and_dice_in_any_order_give_the_same_advice(
    classic_table: StrategyTable,
) -> None:
    """A first question comes on a card object never seen (its cached totals not computed) and
    dice in the order rolled: the state is read from the scores, the dice sorted once."""
    for column, dice, left in _positions(classic_table.rules, 200, seed=3):
        expected = _advisor_triples(classic_table, column, dice, left)
        fresh = replace(column, scores=tuple(column.scores))
        shuffled = tuple(random.Random(len(dice)).sample(dice, 5))
        assert _triples(classic_table, fresh, shuffled, left) == expected
        assert _triples(classic_table, fresh, list(dice), left) == expected


_PEER_NAMES = {"yahtzee": "five_of_a_kind"}  # the peer's names of boxes that differ from ours


def _peer_situation(rules: RuleSet, column: Column, dice: tuple[int, ...], left: int) -> str:
    """A position in the peer's notation (`yatzy_solver.Solver.option_values`)."""
    keys = [box.key for box in column.boxes]
    filled = [key for key, points in zip(keys, column.scores, strict=True) if points is not None]
    situation = (
        f"dice {' '.join(map(str, sorted(dice)))} | rolls {left}"
        f" | upper {min(column.upper_total, rules.upper_bonus_threshold)}"
        f" | filled {','.join(_PEER_NAMES.get(key, key) for key in filled) or '-'}"
    )
    if "yahtzee" in filled and rules.yahtzee_bonus:
        situation += f" | five_of_a_kind {column.scores[keys.index('yahtzee')]}"
    return situation


def test_best_values_equal_the_peers_asked_first_and_again(classic_table: StrategyTable) -> None:
    """The best value of 2,000 positions (any rolls left), each asked first on an empty cache
    and then again from it, equals the peer's (`yatzy-solver`, classic rules with the forced
    joker) to 1e-9."""
    yatzy_solver = pytest.importorskip("yatzy_solver")
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    rules = classic_table.rules
    engine = turn_cache.engine(classic_table)
    worst = 0.0
    for column, dice, left in _positions(rules, 2000, seed=24):
        theirs = max(
            value for _, value in peer.option_values(_peer_situation(rules, column, dice, left))
        )
        turn_cache.forget()
        assert not (engine.cache[: turn_cache.SLOTS, 0] >= 0).any()  # nothing held: a first ask
        first = advise(classic_table, dice, left, column).best.value
        again = advise(classic_table, dice, left, column).best.value
        assert first == again
        worst = max(worst, abs(first - theirs))
    assert worst < 1e-9


def test_threads_asking_at_once_get_the_advisors_answers(classic_table: StrategyTable) -> None:
    """Four threads asking about different cards at once (sharing the engine's rows and its
    last card) each get the advisor's answers."""
    positions = _positions(classic_table.rules, 400, seed=8)
    expected = [_advisor_triples(classic_table, c, d, left) for c, d, left in positions]
    turn_cache.forget()

    def ask(start: int) -> list[int]:
        wrong = []
        for _ in range(3):
            for i in range(start, len(positions), 4):
                column, dice, left = positions[i]
                if _triples(classic_table, column, dice, left) != expected[i]:
                    wrong.append(i)
        return wrong

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert [i for wrong in pool.map(ask, range(4)) for i in wrong] == []
