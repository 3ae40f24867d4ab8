"""Master's table games in numba: each seat's own dice, paired seatings that swap the players
exactly, legal play, and a last turn never worse than the expert's (computed exactly)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import numpy as np
import pytest

from fivedice.core.dice import (
    ALL_KEEPS,
    ALL_ROLLS,
    keep_outcomes,
    roll_probability,
    sub_multisets,
)
from fivedice.core.errors import FivediceError
from fivedice.core.game import GameState
from fivedice.core.rules import find_ruleset
from fivedice.strategy import solver as s
from fivedice.strategy.bots import Level
from fivedice.strategy.master import play_table, seat_roll, seatings, win_turn
from fivedice.strategy.moments import MomentTable, outcome
from fivedice.strategy.players import make_bot
from fivedice.strategy.rule_arrays import rule_arrays
from fivedice.strategy.simulate import table_outcomes
from tests.strategy.support import column_with_open_boxes
from tests.support import tables

CLASSIC = find_ruleset("classic")
YATZY = find_ruleset("yatzy")


@pytest.fixture(scope="module")
def moments(classic_table: s.StrategyTable) -> MomentTable:
    return tables.moments(classic_table)


@pytest.fixture(scope="module", params=["classic", "yatzy"])
def family_moments(request, moments: MomentTable, solved_table) -> MomentTable:
    """The moment table of classic Yahtzee (13 boxes) and of Scandinavian Yatzy (15)."""
    if request.param == "classic":
        return moments
    return tables.moments(solved_table(YATZY))


# --- The dice: a seat's own stream ------------------------------------------------------------


@pytest.mark.slow  # compiles the dice kernel
def test_a_seats_roll_depends_only_on_its_stream_turn_roll_and_keep() -> None:
    rng = np.empty(1, dtype=np.uint64)
    keep = s.KEEP_INDEX[(2, 5)]
    first = seat_roll(keep, np.uint64(99), 4, 1, rng)
    rng[0] = np.uint64(12345)  # whatever the scratch held before
    assert seat_roll(keep, np.uint64(99), 4, 1, rng) == first
    assert Counter((2, 5)) <= Counter(ALL_ROLLS[first])  # the kept dice stay
    others = {
        seat_roll(keep, np.uint64(stream), turn, roll, rng)
        for stream, turn, roll in ((98, 4, 1), (99, 5, 1), (99, 4, 2), (100, 4, 1))
    }
    assert len(others | {first}) > 1  # other streams, turns and rolls give other dice


@pytest.mark.slow
def test_a_seats_single_die_is_fair() -> None:
    """One die re-rolled (four kept) over 6,000 turns of many streams: every face about 1,000
    times (a bound some 5 standard deviations wide)."""
    rng = np.empty(1, dtype=np.uint64)
    keep = s.KEEP_INDEX[(1, 1, 1, 1)]
    faces: Counter[int] = Counter()
    for stream in range(500):
        for turn in range(12):
            roll = ALL_ROLLS[seat_roll(keep, np.uint64(stream * 7919), turn, 0, rng)]
            faces[sum(roll) - 4] += 1
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 <= count <= 1150 for count in faces.values())


def test_paired_seatings_rotate_players_and_their_streams() -> None:
    positions, streams = seatings(3, 6, 4, paired=True)
    assert positions.tolist() == [[0, 1, 2], [1, 2, 0], [2, 0, 1]] * 2
    for first in (0, 3):
        sets = [
            {int(p): int(x) for p, x in zip(positions[g], streams[g], strict=True)}
            for g in range(first, first + 3)
        ]
        assert sets[0] == sets[1] == sets[2]  # one stream per seat, whoever sits there
    assert set(streams[0].tolist()).isdisjoint(streams[3].tolist())
    _, unpaired = seatings(2, 4, 4, paired=False)
    assert len(set(unpaired.ravel().tolist())) == 8


# --- Paired games -----------------------------------------------------------------------------


def test_paired_games_swap_the_seats_exactly(family_moments: MomentTable) -> None:
    """Two experts, paired: the second game of each pair is the first with the players
    swapped, turn by turn (the expert plays the same dice the same way in either seat)."""
    played = play_table(family_moments, ("expert", "expert"), 40, seed=3, paired=True)
    first, second = slice(0, None, 2), slice(1, None, 2)
    assert (played.positions[second] == played.positions[first][:, ::-1]).all()
    assert (played.streams[second] == played.streams[first][:, ::-1]).all()
    assert (played.finals[second] == played.finals[first][:, ::-1]).all()
    # The records follow the order of play: the same seat moves at the same step.
    assert (played.records[second] == played.records[first][:, :, ::-1]).all()
    assert played.records.shape[1] == 2 * len(family_moments.rules.boxes)  # a turn a box
    assert len(set(played.finals[:, 0].tolist())) > 5  # real games, not one repeated
    rates, _, _, _ = table_outcomes([Level.EXPERT, Level.EXPERT], played.finals.T, 2)
    assert rates[Level.EXPERT] == pytest.approx(1.0)


def test_the_experts_games_do_not_depend_on_who_sits_beside_it(
    family_moments: MomentTable,
) -> None:
    """The expert's seat has the same dice against master as against another expert, so its
    games are the same: only the player who swaps in changes the pair."""
    mixed = play_table(family_moments, ("master", "expert"), 30, seed=8, paired=True)
    experts = play_table(family_moments, ("expert", "expert"), 30, seed=8, paired=True)
    assert (mixed.finals[:, 1] == experts.finals[:, 1]).all()
    assert (mixed.finals[:, 0] != experts.finals[:, 0]).any()  # master plays otherwise


def test_paired_games_must_come_in_whole_sets(moments: MomentTable) -> None:
    with pytest.raises(FivediceError, match="sets of 3"):
        play_table(moments, ("master", "expert", "expert"), 4, paired=True)
    with pytest.raises(FivediceError, match="2 to 8"):
        play_table(moments, ("master", "casual"), 4)


@pytest.mark.parametrize("kinds", [("master", "expert"), ("expert", "master", "master", "expert")])
def test_every_turn_at_the_table_fills_exactly_one_open_box(
    family_moments: MomentTable, kinds: tuple[str, ...]
) -> None:
    """Master's and expert's decisions in the numba games are legal: each turn fills one box
    that was open, the totals never go down, and the cards end full with those totals."""
    played = play_table(family_moments, kinds, 2 * len(kinds), seed=5, paired=True)
    seats = len(kinds)
    boxes = len(family_moments.rules.boxes)
    for g in range(played.finals.shape[0]):
        mover = np.argsort(played.positions[g])  # the player at each seat
        for step in range(boxes * seats):
            player = mover[step % seats]
            before = played.records[g, step, player]
            after = (
                played.records[g, step + seats, player]
                if step + seats < boxes * seats
                else (family_moments.table.full_mask, 0, 0, played.finals[g, player])
            )
            new = int(after[0]) & ~int(before[0])
            assert int(after[0]) & int(before[0]) == int(before[0])
            assert new != 0 and new & (new - 1) == 0
            assert after[3] >= before[3]


# --- The last turn: never worse than the expert -----------------------------------------------


@cache
def _outcomes(keep: int) -> tuple[tuple[int, float], ...]:
    return tuple((s.ROLL_INDEX[roll], float(p)) for roll, p in keep_outcomes(ALL_KEEPS[keep]))


def _chance_of_policy(
    best_keep: np.ndarray, best_box: np.ndarray, ends: np.ndarray, levels: int
) -> float:
    """The exact chance of winning of a turn played by (best_keep, best_box), `ends[b, r]`
    being the result of scoring roll r in box b."""
    value = np.array([ends[best_box[r], r] for r in range(252)])
    for n in range(1, levels):
        value = np.array(
            [sum(p * value[o] for o, p in _outcomes(int(best_keep[n, r]))) for r in range(252)]
        )
    return float(sum(float(roll_probability(roll)) * value[r] for r, roll in enumerate(ALL_ROLLS)))


@pytest.mark.slow
def test_master_last_turn_is_never_worse_than_the_experts_choice(
    family_moments: MomentTable,
) -> None:
    """Master moves last, one box open, the opponent finished: its chance of winning (ties ½),
    computed exactly by enumerating the dice under its decisions, is at least that of the
    expert's decisions, on every position of a varied set - and better on some."""
    moments = family_moments
    rules_set = moments.rules
    keys = [box.key for box in rules_set.boxes]
    five = keys[rules_set.boxes.index(rules_set.all_same_box)]  # yahtzee / yatzy
    arrays = rule_arrays(rules_set)
    rules = arrays.kernel_rules
    levels = 3
    rng = random.Random(24)
    better = 0
    positions = 0
    for box in keys:
        scores = {five: rng.choice((0, 50)), "sixes": rng.choice((12, 18, 24))}
        scores.pop(box, None)
        column = column_with_open_boxes(rules_set, (box,), **scores)
        mask, up, armed = s.column_state(rules_set, column)
        up = min(up, moments.table.upper_cap)
        total = column.total(rules_set)
        expert = s.turn_values(moments.table, column)
        for need in rng.sample(range(0, 45), 3):
            opponent = total + need
            ends = np.zeros((len(keys), 252))
            b = keys.index(box)
            for r in range(252):
                points = outcome(b, r, mask, up, int(armed), rules)[0]
                final = total + points
                ends[b, r] = 1.0 if final > opponent else (0.5 if final == opponent else 0.0)
            best_keep = np.full((levels, 252), -1, dtype=np.int64)
            best_box = np.empty(252, dtype=np.int64)
            win_turn(
                mask, up, int(armed), total, float(opponent), 0.0, np.ones(1), opponent,
                moments.moments, np.zeros((len(keys), 64, 2, 1)), rules, np.empty((levels, 252)),
                np.empty((levels, 462)), best_keep, best_box, np.empty(462),
                np.empty(462, dtype=np.int64),
            )  # fmt: skip
            masters = _chance_of_policy(best_keep, best_box, ends, levels)
            experts = _chance_of_policy(expert.best_keep, np.full(252, b), ends, levels)
            assert masters >= experts - 1e-12, (box, need)
            positions += 1
            better += masters > experts + 1e-9
    assert positions == 3 * len(keys)
    assert better >= 5  # where it matters, master plays for the win


# --- The clairvoyant ceiling ------------------------------------------------------------------


@pytest.mark.slow
def test_the_clairvoyant_is_the_expert_until_it_plays_for_the_known_total(
    classic_table: s.StrategyTable,
) -> None:
    """Before its clairvoyant turns it plays the expert's game on its stream: with none at all,
    each pair is the same two games mirrored; knowing the opponent's total for the last turn,
    it changes only last turns, and wins at least as often as the expert there."""
    from fivedice.strategy.clairvoyant import play_ceiling
    from fivedice.strategy.thresholds import compute_thresholds

    last = compute_thresholds(CLASSIC, top=400, min_filled=12)
    blind = play_ceiling(classic_table, last, 400, seed=6, since=13).finals
    assert (blind[1::2] == blind[0::2][:, ::-1]).all()
    seeing = play_ceiling(classic_table, last, 400, seed=6).finals
    assert (seeing[:, 1] == blind[:, 1]).all()  # the expert's games are its own
    changed = seeing[:, 0] != blind[:, 0]
    assert changed.any()

    def wins(finals: np.ndarray) -> float:
        return float(((finals[:, 0] > finals[:, 1]) + 0.5 * (finals[:, 0] == finals[:, 1])).sum())

    assert wins(seeing) >= wins(blind)


@pytest.mark.slow
def test_paired_head_to_head_rounds_up_to_whole_pairs_and_reports_draws_apart() -> None:
    from fivedice.strategy.simulate import head_to_head

    match = head_to_head(CLASSIC, ["master", "expert"], 5, seed=2, paired=True)
    assert match.paired and all(result.games == 6 for result in match.results)
    for level in (Level.MASTER, Level.EXPERT):
        # Two seats: a draw is half a win.
        assert match.win_rates[level] == pytest.approx(
            match.outright[level] + match.draws[level] / 2
        )
        low, high = match.intervals[level]
        assert low <= match.win_rates[level] <= high
    assert sum(match.win_rates.values()) == pytest.approx(1.0)
    assert match.summary()["paired"] is True


# --- The level in games: the threshold tables when at hand ----------------------------------


def _last_turn_position(behind: int) -> GameState:
    """Two classic seats: the opponent has finished `behind` points ahead of master, whose card
    has only Chance open (Yahtzee scratched); master to move, its dice 1 3 4 5 6 rolled once."""
    from fivedice.core.card import ScoreCard
    from fivedice.core.dice import ScriptedDice
    from fivedice.core.game import GameSettings, Seat, apply, new_game

    column = column_with_open_boxes(CLASSIC, ("chance",), yahtzee=0)
    done = column_with_open_boxes(CLASSIC, (), yahtzee=0, chance=behind)  # the same, and Chance
    seats = (Seat("M", "master"), Seat("E", "expert"))
    dice = ScriptedDice([1, 3, 4, 5, 6])
    state = apply(new_game(GameSettings(seats=seats)), "roll", dice)
    cards = (ScoreCard((column,)), ScoreCard((done,)))
    return GameState(state.settings, cards, state.turn)


@pytest.mark.slow
def test_master_plays_from_the_threshold_table_when_it_is_at_hand(
    moments: MomentTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the rules' threshold table at hand, master's turn comes from it: its keep is one
    with the exact best chance of winning (every keep of the roll enumerated)."""
    from fivedice.strategy import master as m
    from fivedice.strategy.thresholds import compute_thresholds

    table = compute_thresholds(CLASSIC, top=400, min_filled=12)
    calls = []
    real_turn = m.threshold_turn

    def recording(*args: object) -> None:
        calls.append(args[3])  # the total
        real_turn(*args)

    monkeypatch.setattr(m, "PLAYS_FROM_THRESHOLDS", True)  # off for the rest of the suite
    monkeypatch.setattr(m, "thresholds_if_ready", lambda rules, top: table)
    monkeypatch.setattr(m, "threshold_turn", recording)
    state = _last_turn_position(behind=22)  # 23 or more wins: keep 4 5 6, not the expert's 5 6
    bot = m.MasterBot(CLASSIC, moments=moments)
    bot.observe(state)
    keep = bot.choose_keep(CLASSIC, state.cards[0], state.dice, state.rolls_left)
    assert calls  # the table's turn, not the normal model's

    @cache
    def chance(keep: tuple[int, ...], rolls_left: int) -> float:
        """The exact best chance (a tie ½) of a Chance box over 22 after keeping `keep`."""
        total = 0.0
        for roll, p in keep_outcomes(keep):
            if rolls_left == 1:
                best = 1.0 if sum(roll) > 22 else (0.5 if sum(roll) == 22 else 0.0)
            else:
                best = max(chance(k, rolls_left - 1) for k in sub_multisets(roll))
            total += float(p) * best
        return total

    options = {k: chance(k, 2) for k in sub_multisets(tuple(sorted(state.dice)))}
    assert chance(tuple(sorted(keep)), 2) == pytest.approx(max(options.values()), abs=1e-9)
    expert = make_bot("expert", CLASSIC, 1).choose_keep(CLASSIC, state.cards[0], state.dice, 2)
    assert options[tuple(sorted(expert))] < max(options.values()) - 1e-3  # a real choice


def test_master_plays_the_normal_model_while_the_table_is_built(
    moments: MomentTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No threshold table at hand (it is being built): master does not wait, and plays exactly
    as it does without tables."""
    from fivedice.strategy import master as m

    asked = []
    monkeypatch.setattr(m, "PLAYS_FROM_THRESHOLDS", True)  # off for the rest of the suite
    monkeypatch.setattr(m, "thresholds_if_ready", lambda rules, top: asked.append(top))
    state = _last_turn_position(behind=24)
    waiting = m.MasterBot(CLASSIC, moments=moments)
    without = m.MasterBot(CLASSIC, moments=moments, thresholds=False)
    for bot in (waiting, without):
        bot.observe(state)
    dice, left = state.dice, state.rolls_left
    card = state.cards[0]
    assert waiting.choose_keep(CLASSIC, card, dice, left) == without.choose_keep(
        CLASSIC, card, dice, left
    )
    assert asked == [400]  # it asked for the table (and would have it built), once
