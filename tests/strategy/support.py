"""Columns for the strategy tests: a nearly full card with chosen boxes left open; the games
of a playout worth replaying move for move."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fivedice.core.card import Column
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import possible_scores

TYPICAL_SCORES = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 20,
    "four_of_a_kind": 22,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 22,
}
TYPICAL_YATZY_SCORES = TYPICAL_SCORES | {
    "one_pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 16,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 18,
    "yatzy": 50,
}
"""Scandinavian Yatzy's boxes score the matching dice, its straights 15 and 20."""


def column_with_open_boxes(rules: RuleSet, open_boxes: tuple[str, ...], **scores: int) -> Column:
    """A column of the rules' card with every box filled (typical scores, then overrides)
    except `open_boxes`."""
    typical = (
        TYPICAL_YATZY_SCORES if "yatzy" in {box.key for box in rules.boxes} else (TYPICAL_SCORES)
    )
    filled = {box.key: typical.get(box.key, 0) for box in rules.boxes} | scores
    for key in open_boxes:
        filled.pop(key)
    # Fixed scores follow the rules' values; anything the box cannot hold becomes a scratch.
    for key, score in list(filled.items()):
        if score not in possible_scores(rules, rules.box(key)):
            filled[key] = 0
    return Column.from_scores(rules, filled)


def telling_games(out: npt.NDArray[np.int64], count: int) -> list[int]:
    """The `count` games of a playout (rows of `out`: total, then event counts such as
    bonuses, Yahtzees, extra Yahtzees) that a move-for-move replay learns most from: for each
    event the game with the most of it, then the highest and the lowest total, then the
    first games. A replay of these says what a replay of every game does, in a fraction of
    the time (the Python bots are slow)."""
    order: list[int] = []
    for column in range(1, out.shape[1]):
        if out[:, column].max() > 0:
            order.append(int(out[:, column].argmax()))
    order += [int(out[:, 0].argmax()), int(out[:, 0].argmin()), *range(len(out))]
    chosen = list(dict.fromkeys(order))[:count]
    return sorted(chosen)


def assert_breakdown_sums_to_values(rules: RuleSet, table, breakdown, exact: float = 1e-9) -> int:  # type: ignore[no-untyped-def]
    """Exhaustive: every state of every layer the solver solved has its per-box parts summing
    to its table value, the states stored one after another (each sum runs to the next start:
    the open boxes and the bonuses the rules have); the start's parts sum to the optimum and
    every box scores sometimes. Returns the number of states checked."""
    from fivedice.strategy.breakdown import component_keys
    from fivedice.strategy.moments import policy_layers

    boxes = len(rules.boxes)
    states = 0
    for masks, ups, armeds, *_ in policy_layers(rules):
        if masks.size == 0:
            continue
        starts = breakdown.index[masks, ups, armeds].astype(np.int64)
        open_count = sum(1 - ((masks >> b) & 1) for b in range(boxes))
        sizes = open_count + len(component_keys(rules)) - boxes
        assert (starts[1:] == starts[:-1] + sizes[:-1]).all()
        sums = np.add.reduceat(breakdown.data[: starts[-1] + sizes[-1]], starts)
        np.testing.assert_allclose(sums, table.values[masks, ups, armeds], rtol=0, atol=exact)
        states += int(masks.size)
    start = breakdown.state(0, 0, False)
    assert abs(sum(start.values()) - table.expected_score) <= exact
    assert all(points > 0 for points in start.values())  # every box scores sometimes
    return states
