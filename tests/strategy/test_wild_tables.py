"""The tables walked over the solver's layers with the wild die: the breakdown of the coach's
reasons, the moments and winning chances, the goal (threshold) tables and the master CPU, all
over the wild die's own rolls and keeps. Exhaustive on Yacht with the wild die (12 boxes and no
upper bonus: a small table), against enumerations written here over the dice as (regular dice,
wild face)."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from fivedice.core.boxes import score_box
from fivedice.core.card import Column, ScoreCard
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.core.scoring import scoring_roll
from fivedice.core.wild import WILD, wild_roll
from fivedice.strategy import solver as s
from fivedice.strategy.advisor import advise
from fivedice.strategy.breakdown import option_breakdowns
from fivedice.strategy.chances import seat_outlooks
from fivedice.strategy.limits import (
    UnsupportedByStrategyError,
    check_coached,
    check_cpu_levels,
    cpus_supported,
    has_layer_tables,
    has_table_games,
    has_win_chances,
    is_supported,
)
from fivedice.strategy.master import MasterBot, play_table
from fivedice.strategy.moments import exact_pmf, exact_roll_pmf
from fivedice.strategy.rule_arrays import rule_arrays
from fivedice.strategy.target import column_target_hints
from fivedice.strategy.thresholds import ThresholdTable, compute_thresholds
from tests.strategy.support import assert_breakdown_sums_to_values, column_with_open_boxes
from tests.support import tables

EXACT = 1e-9
FLOAT32 = 1e-5
"""The goal tables hold float32 chances."""
YACHT_WILD = find_ruleset("yacht", {"wild_die": "on"})
CLASSIC_WILD = find_ruleset("classic", {"wild_die": "on"})


def test_the_wild_die_has_layer_tables_winning_chances_but_no_numba_table_games() -> None:
    for rules in (YACHT_WILD, CLASSIC_WILD, find_ruleset("yatzy", {"wild_die": "on"})):
        assert is_supported(rules) and has_layer_tables(rules) and has_win_chances(rules)
        assert not has_table_games(rules)
    assert has_table_games(find_ruleset("classic"))


def test_several_columns_with_the_wild_die_are_refused_in_words() -> None:
    """Their coach and CPUs would play from the expert's estimates, whose kernels know no wild
    die: refused, saying so (not as Maxi Yatzy's saved rolls)."""
    rules = find_ruleset("triple", {"wild_die": "on"})
    assert not cpus_supported(rules)
    with pytest.raises(UnsupportedByStrategyError, match="wild die on several score columns"):
        check_coached(rules)
    with pytest.raises(UnsupportedByStrategyError, match="wild die"):
        check_cpu_levels(rules, ["expert"])
    check_cpu_levels(rules, [None, None])  # people only: they play


def test_numba_table_games_refuse_the_wild_die() -> None:
    moments = tables.moments(tables.solved(YACHT_WILD))
    with pytest.raises(s.UnsupportedRulesError):
        play_table(moments, ("expert", "master"), 2)


# --- The breakdown ----------------------------------------------------------------------------


def test_every_wild_state_sums_to_its_table_value() -> None:
    """Exhaustive: every state of every layer the solver solved."""
    table = tables.solved(YACHT_WILD)
    states = assert_breakdown_sums_to_values(YACHT_WILD, table, tables.breakdown(table), EXACT)
    assert states == 2 ** len(YACHT_WILD.boxes) - 1  # every card but the full one (one armed)


def _random_position(rules: RuleSet, rng: random.Random) -> Column:
    column = Column.empty(rules)
    for _ in range(rng.randrange(len(rules.boxes))):
        dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
        column = column.fill(rules, rng.choice(column.placements(rules, dice)).category, dice)
    return column


def test_wild_option_breakdowns_sum_to_the_option_values() -> None:
    breakdown = tables.breakdown(tables.solved(YACHT_WILD))
    rng = random.Random(5)
    checked = wild_keeps = 0
    for _ in range(30):
        column = _random_position(YACHT_WILD, rng)
        dice = tuple(rng.randint(1, 6) for _ in range(5))  # position order, the wild die last
        for rolls_left in range(YACHT_WILD.rolls_per_turn):
            advised = advise(breakdown.table, column, dice, rolls_left)
            explained = option_breakdowns(breakdown, column, dice, rolls_left)
            assert [(o.keep, o.category, o.value) for o in explained] == [
                (o.keep, o.category, o.value) for o in advised
            ]
            # Each option's parts sum to its value; its chances are chances of one box each.
            sums = [sum(o.parts.values()) for o in explained]
            np.testing.assert_allclose(sums, [o.value for o in advised], rtol=0, atol=EXACT)
            chances = [list(o.chances.values()) for o in explained]
            assert all(0.0 < p <= 1.0 + EXACT for row in chances for p in row)
            assert max(sum(row) for row in chances) <= 1.0 + EXACT
            checked += len(explained)
            wild_keeps += sum(
                o.keep is not None and any(v > WILD for v in o.keep) for o in explained
            )
    assert checked > 300 and wild_keeps > 50


def test_a_keep_of_three_fours_and_the_star_makes_a_yacht_one_time_in_six() -> None:
    """One roll left holding 4 4 4 and the wild ★: the one die rolled makes a Yacht when it
    shows 4 (the ★ is the fifth 4), and on an empty card the policy scores it as a Yacht."""
    breakdown = tables.breakdown(tables.solved(YACHT_WILD))
    options = option_breakdowns(breakdown, Column.empty(YACHT_WILD), (4, 4, 4, 2, 1), 1)
    keep = next(o for o in options if o.keep == (4, 4, 4, 1 + WILD))
    assert keep.chances["yacht"] == pytest.approx(1 / 6, abs=EXACT)
    plain = next(o for o in options if o.keep == (4, 4, 4))  # the ★ rolled again
    assert plain.chances["yacht"] < keep.chances["yacht"]


# --- An enumeration over (regular dice, wild face) --------------------------------------------

State = tuple[tuple[int, ...], int]
"""The dice after a roll: the four regular dice (sorted) and the wild die's face (1: ★)."""
STATES: list[State] = [
    (regular, wild)
    for regular in itertools.combinations_with_replacement(range(1, 7), 4)
    for wild in range(1, 7)
]


@cache
def _outcomes(regular: tuple[int, ...], wild: int | None) -> tuple[tuple[State, float], ...]:
    """Every state after keeping `regular` (and the wild die showing `wild`, or rolling it),
    die by die, with its chance."""
    result: dict[State, float] = {}
    rolled = 4 - len(regular)
    faces = [wild] if wild is not None else list(range(1, 7))
    for dice in itertools.product(range(1, 7), repeat=rolled):
        for face in faces:
            state = (tuple(sorted(regular + dice)), face)
            result[state] = result.get(state, 0.0) + 1.0 / (6**rolled * len(faces))
    return tuple(result.items())


@cache
def _keeps(state: State) -> tuple[tuple[tuple[int, ...], int | None], ...]:
    regular, wild = state
    subs = {
        tuple(sorted(c))
        for size in range(len(regular) + 1)
        for c in itertools.combinations(regular, size)
    }
    return tuple((sub, kept) for sub in sorted(subs) for kept in (wild, None))


def _best(end: dict[State, float], rolls_left: int) -> dict[State, float]:
    """Each state's best expected `end` with `rolls_left` rolls left (any keep)."""
    values = end
    for _ in range(rolls_left):
        previous = values
        values = {
            state: max(
                sum(p * previous[after] for after, p in _outcomes(*keep)) for keep in _keeps(state)
            )
            for state in STATES
        }
    return values


def _start(values: dict[State, float]) -> float:
    return sum(p * values[state] for state, p in _outcomes((), None))


def _card(open_boxes: tuple[str, ...], **scores: int) -> Column:
    """A Yacht card with only `open_boxes` open (Choice, when filled, holds 20: it cannot
    hold 0)."""
    if "choice" not in open_boxes:
        scores = {"choice": 20} | scores
    return column_with_open_boxes(YACHT_WILD, open_boxes, **scores)


def _points(rules: RuleSet, box: str, state: State) -> int:
    return score_box(rules.box(box), wild_roll((*state[0], state[1])))


# --- Moments and winning chances --------------------------------------------------------------


@pytest.mark.slow
def test_wild_moments_follow_the_policy_exactly() -> None:
    """With one box open the policy plays for its points: the exact distribution of the
    points to come is enumerated here over the wild dice, and the moment table, the exact pmf
    and the in-turn moments of every roll agree with it."""
    table = tables.solved(YACHT_WILD)
    moments = tables.moments(table)
    for box in ("choice", "big_straight", "yacht", "fours"):
        column = _card((box,))
        mask, up, armed = s.column_state(YACHT_WILD, column)
        end = {state: float(_points(YACHT_WILD, box, state)) for state in STATES}
        held = _best(end, 2)
        mean, variance = moments.state(mask, up, armed)
        assert mean == pytest.approx(_start(held), abs=EXACT)
        pmf = exact_pmf(moments, mask, up, armed)
        assert pmf.sum() == pytest.approx(1.0, abs=EXACT)
        xs = np.arange(pmf.size)
        assert float(xs @ pmf) == pytest.approx(mean, abs=EXACT)
        assert float((xs - mean) ** 2 @ pmf) == pytest.approx(variance, abs=1e-7)
        in_turn = moments.in_turn(mask, up, armed, 3)
        roll_pmf = exact_roll_pmf(moments, mask, up, armed, 3)
        dice = rule_arrays(YACHT_WILD).dice
        for state in STATES[::7]:
            r = dice.roll_index[wild_roll((*state[0], state[1]))]
            assert in_turn[0, r, 0] == pytest.approx(end[state], abs=EXACT)
            assert in_turn[2, r, 0] == pytest.approx(held[state], abs=EXACT)
            assert float(xs[: roll_pmf.shape[2]] @ roll_pmf[2, r]) == pytest.approx(
                held[state], abs=EXACT
            )


def _position(rules: RuleSet, column: Column, done: Column, dice: tuple[int, ...]) -> GameState:
    """Two seats: the first (master) to move with `column` and `dice` rolled once (in
    position order, the wild die last), the second finished with `done`."""
    seats = (Seat("M", "master"), Seat("E", "expert"))
    state = apply(new_game(GameSettings(seats=seats, rules=rules)), "roll", ScriptedDice(dice))
    return GameState(state.settings, (ScoreCard((column,)), ScoreCard((done,))), state.turn)


def _choice_position(behind: int) -> GameState:
    """Master has only Choice open; the opponent's card is the same with `behind` in Choice;
    master's dice 6 6 2 3 and the ★ (a 6 in Choice)."""
    column = _card(("choice",))
    done = _card((), choice=behind)
    return _position(YACHT_WILD, column, done, (6, 6, 2, 3, 1))


def test_wild_winning_chances_use_the_wild_dice() -> None:
    """The seat to move holds a ★ with only Choice open: its outlook is the distribution of
    the wild dice's Choice under the policy (the ★ a 6)."""
    moments = tables.moments(tables.solved(YACHT_WILD))
    state = _choice_position(behind=20)
    outlook = seat_outlooks(state, moments)[0]
    end = {state_: float(_points(YACHT_WILD, "choice", state_)) for state_ in STATES}
    best = _best(end, state.rolls_left)
    total = state.cards[0].total(YACHT_WILD)
    assert outlook.pmf.sum() == pytest.approx(1.0, abs=EXACT)
    mean = float((np.arange(outlook.pmf.size) + outlook.offset) @ outlook.pmf)
    assert mean == pytest.approx(total + best[((2, 3, 6, 6), 1)], abs=EXACT)
    support = np.flatnonzero(outlook.pmf > 0) + outlook.offset
    assert support.max() == total + 30  # five 6s: the ★ stands for the fifth
    assert support.min() >= total + 6 + 6 + 6  # the two 6s and the ★ are never thrown away


# --- Goals ------------------------------------------------------------------------------------


@cache
def _last_box_thresholds() -> ThresholdTable:
    """The goal table of the states with one box open."""
    return compute_thresholds(YACHT_WILD, top=80, min_filled=len(YACHT_WILD.boxes) - 1)


@pytest.mark.slow
@pytest.mark.parametrize(("box", "need"), [("choice", 24), ("choice", 28), ("yacht", 50)])
def test_wild_goal_hints_are_the_enumerated_best_chances(box: str, need: int) -> None:
    thresholds = _last_box_thresholds()
    column = _card((box,))
    total = column.total(YACHT_WILD)
    end = {state: float(_points(YACHT_WILD, box, state) >= need) for state in STATES}
    mask, up, armed = s.column_state(YACHT_WILD, column)
    best = [_best(end, n) for n in range(3)]
    assert thresholds.chance(mask, up, armed, need) == pytest.approx(_start(best[2]), abs=FLOAT32)
    rng = random.Random(need)
    for state in [*rng.sample(STATES, 8), ((2, 4, 4, 4), 1), ((2, 3, 4, 6), 1)]:
        dice = (*state[0], state[1])
        for rolls_left in (1, 2):
            hints = column_target_hints(thresholds, column, dice, rolls_left, total + need, total)
            after = best[rolls_left - 1]
            for hint in hints:
                if hint.keep is None:
                    assert hint.value == pytest.approx(end[state], abs=FLOAT32)
                    continue
                regular = tuple(v for v in hint.keep if v <= WILD)
                wild = next((v - WILD for v in hint.keep if v > WILD), None)
                wanted = sum(p * after[a] for a, p in _outcomes(regular, wild))
                assert hint.value == pytest.approx(wanted, abs=FLOAT32), hint
                # The hold names positions whose dice are the keep (the ★ is position 5).
                held = sorted(scoring_roll_positions(dice, hint.hold))
                assert held == sorted(hint.keep)
            best_keep = max(
                sum(p * after[a] for a, p in _outcomes(*keep)) for keep in _keeps(state)
            )
            assert hints[0].value == pytest.approx(max(best_keep, end[state]), abs=FLOAT32)


def scoring_roll_positions(dice: tuple[int, ...], hold: tuple[int, ...]) -> list[int]:
    """The coded values of the dice at the positions `hold` (1-5; the fifth is the wild die)."""
    return [dice[i - 1] + (WILD if i == len(dice) else 0) for i in hold]


# --- Master -----------------------------------------------------------------------------------


def _win_chances(behind: int) -> dict[tuple[tuple[int, ...], int | None], float]:
    """Master's chance of winning (a tie a half) for each keep of 6 6 2 3 ★ with Choice its
    last box and the opponent `behind` points ahead of master before it."""
    end = {}
    for state in STATES:
        points = _points(YACHT_WILD, "choice", state)
        end[state] = 1.0 if points > behind else (0.5 if points == behind else 0.0)
    after = _best(end, 1)
    return {
        keep: sum(p * after[a] for a, p in _outcomes(*keep)) for keep in _keeps(((2, 3, 6, 6), 1))
    }


@pytest.mark.parametrize("from_thresholds", [False, True])
@pytest.mark.parametrize("behind", [22, 27])
def test_wild_master_keeps_for_the_best_chance_of_winning(
    behind: int, from_thresholds: bool
) -> None:
    moments = tables.moments(tables.solved(YACHT_WILD))
    thresholds = _last_box_thresholds() if from_thresholds else False
    state = _choice_position(behind)
    bot = MasterBot(YACHT_WILD, moments=moments, thresholds=thresholds)
    bot.observe(state)
    card = state.cards[0]
    keep = bot.choose_keep(YACHT_WILD, card, state.dice, state.rolls_left)
    chances = _win_chances(behind)
    regular = tuple(v for v in keep if v <= WILD)
    wild = next((v - WILD for v in keep if v > WILD), None)
    assert (regular, wild) in chances  # a keep of these dice
    assert chances[regular, wild] == pytest.approx(max(chances.values()), abs=1e-9)
    # The last roll: every box master names is legal for the dice.
    for dice in [(6, 6, 6, 6, 1), (1, 2, 3, 4, 5), (2, 2, 3, 3, 1)]:
        placement = bot.choose_box(YACHT_WILD, card, dice)
        assert placement in card.placements(YACHT_WILD, scoring_roll(YACHT_WILD, dice))


def test_wild_master_scores_the_box_that_wins() -> None:
    """Choice or Yacht open, 6 6 6 6 ★ to score, the opponent 40 points ahead: only the Yacht
    (50) wins; 30 in Choice loses."""
    moments = tables.moments(tables.solved(YACHT_WILD))
    column = _card(("choice", "yacht"))
    done = _card((), yacht=50)  # Choice 20 and Yacht 50 more
    state = _position(YACHT_WILD, column, done, (6, 6, 6, 6, 1))
    bot = MasterBot(YACHT_WILD, moments=moments, thresholds=False)
    bot.observe(state)
    placement = bot.choose_box(YACHT_WILD, state.cards[0], state.dice)
    assert placement.category.key == "yacht" and placement.box_points == 50
