"""Per-column breakdowns of the several-column estimates: the same model as the values, split."""

from __future__ import annotations

import random

import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.game import GameSettings, GameState, Seat, Turn
from fivedice.core.rules import PRESETS, RuleSet, find_ruleset
from fivedice.strategy.bots import Level
from fivedice.strategy.column_breakdown import card_breakdown
from fivedice.strategy.hints import estimated_hints
from fivedice.strategy.limits import is_supported
from fivedice.strategy.players import make_bot
from tests.support import tables

EXACT = 1e-9
SEVERAL_COLUMNS = [
    preset.name
    for preset in PRESETS
    if preset.rules.columns > 1 and is_supported(preset.rules) and not preset.rules.saved_rolls
]
HOUSE_COLUMNS = {"yatzy-two-columns": find_ruleset("yatzy").replace(column_multipliers=(1, 2))}
"""A several-column Yatzy of house rules: other boxes, the 50-point bonus, no extra bonuses."""


def _rules(name: str) -> RuleSet:
    return HOUSE_COLUMNS.get(name) or find_ruleset(name)


def _random_card(rules: RuleSet, rng: random.Random) -> ScoreCard:
    """A card reached by play: random dice placed in random legal boxes of random columns."""
    columns = [Column.empty(rules) for _ in range(rules.columns)]
    for _ in range(rng.randrange(rules.columns * len(rules.boxes))):
        index = rng.randrange(rules.columns)
        if columns[index].is_complete:
            continue
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        box = rng.choice(columns[index].placements(rules, dice)).category
        columns[index] = columns[index].fill(rules, box, dice)
    return ScoreCard(tuple(columns))


def _state(rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int) -> GameState:
    turn = Turn(0, dice, (False,) * 5, rules.rolls_per_turn - rolls_left)
    return GameState(GameSettings(seats=(Seat("Ann"),), rules=rules), (card,), turn)


def test_there_are_several_column_presets() -> None:
    assert "triple" in SEVERAL_COLUMNS


@pytest.mark.parametrize("preset", [*SEVERAL_COLUMNS, *HOUSE_COLUMNS])
def test_every_options_parts_sum_to_its_estimate(solved_table, preset: str) -> None:
    rules = _rules(preset)
    single = rules.replace(column_multipliers=(1,))
    breakdown = tables.breakdown(solved_table(single))
    bot = make_bot(Level.EXPERT, rules)
    values = bot.values_for(rules)
    rng = random.Random(preset)
    checked = 0
    for _ in range(25):
        card = _random_card(rules, rng)
        if card.is_complete:
            continue
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for rolls_left in range(rules.rolls_per_turn):
            split = card_breakdown(breakdown, values, rules, card, dice, rolls_left)
            hints = estimated_hints(_state(rules, card, dice, rolls_left))
            # Every option is split, and the split sums to the option's estimate.
            assert len(split.placements) + len(split.keeps) == len(hints)
            for (column, box), (parts, value) in split.placements.items():
                hint = next(
                    h for h in hints if h.column == column and h.box == rules.boxes[box].key
                )
                assert value == pytest.approx(hint.value, abs=EXACT)
                assert sum(parts.values()) == pytest.approx(hint.value, abs=EXACT)
                checked += 1
            # The keeps' values are `Bot.keep_options`' to 1e-9.
            options = dict(bot.keep_options(rules, card, dice, rolls_left)) if rolls_left else {}
            assert set(split.keeps) == set(options)
            for keep, (parts, chances, value) in split.keeps.items():
                assert value - split.base == pytest.approx(options[keep], abs=EXACT)
                assert sum(parts.values()) == pytest.approx(value, abs=EXACT)
                assert all(0.0 < p <= 1.0 + EXACT for p in chances.values())
                assert sum(chances.values()) <= 1.0 + EXACT
                checked += 1
            # Filled boxes of a column score nothing more there.
            for index, column in enumerate(card.columns):
                for box in rules.boxes:
                    if column.is_filled(box):
                        key = f"{index + 1}:{box.key}"
                        assert all(abs(p[key]) <= EXACT for p, _ in split.placements.values())
    assert checked > 300


def test_explained_estimates_carry_parts_by_column_and_chances(solved_table) -> None:
    rules = next(p.rules for p in PRESETS if p.name == "triple")
    solved_table(rules.replace(column_multipliers=(1,)))  # solved (and cached) beforehand
    rng = random.Random(7)
    card = _random_card(rules, rng)
    state = _state(rules, card, (2, 3, 4, 6, 6), 2)
    hints = estimated_hints(state, explain=True)
    assert hints and all(hint.estimate for hint in hints)
    for hint in hints:
        assert hint.parts is not None
        assert sum(points for _, points in hint.parts) == pytest.approx(hint.value, abs=EXACT)
        assert {key.split(":")[0] for key, _ in hint.parts} == {"1", "2", "3"}
    keeps = [hint for hint in hints if hint.keep is not None]
    assert keeps and all(hint.chances for hint in keeps)
    for hint in keeps:
        odds = [p for _, p in hint.chances or ()]
        assert odds == sorted(odds, reverse=True)  # likeliest first
    # Without asking, the estimates stay bare (no breakdown computed for them).
    assert all(hint.parts is None for hint in estimated_hints(state))
