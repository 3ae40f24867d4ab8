"""Winning chances: the moment table against brute force, the chances at the end of a game and
along random games, and the `master` level (plays to win against others, like expert solo)."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivedice.core.card import Column, ScoreCard
from fivedice.core.categories import CATEGORIES
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, RandomDice, roll_probability
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.games import LocalGame, game_win_chances, make_cpu_player
from fivedice.strategy import solver as s
from fivedice.strategy.bots import Bot, Level
from fivedice.strategy.chances import Outlook, combine, win_chances
from fivedice.strategy.levels import LEVELS, parse_level
from fivedice.strategy.master import MasterBot, win_turn
from fivedice.strategy.moments import MomentTable, exact_pmf, exact_roll_pmf
from fivedice.strategy.players import make_bot
from fivedice.strategy.rule_arrays import rule_arrays
from tests.strategy.brute import BruteForce, BruteMoments
from tests.strategy.support import column_with_open_boxes
from tests.support import tables

CLASSIC = find_ruleset("classic")


@pytest.fixture(scope="module")
def moments(classic_table: s.StrategyTable) -> MomentTable:
    return tables.moments(classic_table)


# --- The moment table against brute force ---------------------------------------------------


@pytest.fixture(scope="module")
def brute() -> BruteMoments:
    """One brute force for the module: the cases share the positions below them."""
    return BruteMoments(BruteForce(CLASSIC))


CASES = [
    (("sixes", "full_house"), {"fives": 10}),  # the upper bonus hangs on the sixes
    (("fours", "chance", "large_straight"), {"threes": 6}),  # jokers, the extra bonus armed
    (("ones", "yahtzee"), {"sixes": 24}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("open_boxes", "scores"), CASES)
def test_moments_match_brute_force(
    moments: MomentTable, brute: BruteMoments, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    column = column_with_open_boxes(CLASSIC, open_boxes, **scores)
    m1, m2 = brute.start(column)
    mask, up, armed = s.column_state(CLASSIC, column)
    mean, variance = moments.state(mask, up, armed)
    assert mean == pytest.approx(m1, abs=1e-3)
    assert variance == pytest.approx(m2 - m1 * m1, rel=1e-5, abs=1e-3)
    assert variance > 1.0  # a real spread, not a degenerate case
    # Within the turn: every roll with every number of rolls left.
    in_turn = moments.in_turn(mask, up, armed, CLASSIC.rolls_per_turn)
    levels = brute.rolls(column)
    for left, level in enumerate(levels):
        for roll in ALL_ROLLS[::7]:
            got = in_turn[left, s.ROLL_INDEX[roll]]
            assert got[0] == pytest.approx(level[roll][0], abs=1e-3)
            assert got[1] == pytest.approx(level[roll][1], rel=1e-6, abs=1e-2)
    if len(open_boxes) <= 2:  # the exact distribution has the same moments
        pmf = exact_pmf(moments, mask, up, armed)
        xs = np.arange(pmf.size)
        assert pmf.sum() == pytest.approx(1.0)
        assert xs @ pmf == pytest.approx(m1, abs=1e-3)
        assert (xs * xs) @ pmf == pytest.approx(m2, rel=1e-6)


@pytest.mark.slow
def test_whole_game_moments(moments: MomentTable) -> None:
    """The mean is the solver's optimum; the spread is the published 59.6 standard deviation."""
    mean, variance = moments.state(0, 0, False)
    assert mean == pytest.approx(254.5877, abs=1e-3)
    assert variance**0.5 == pytest.approx(59.6, abs=0.1)


@pytest.mark.slow
def test_last_turn_distribution_is_exact(moments: MomentTable) -> None:
    """Only Chance left (Yahtzee scratched, so no bonus to chase): the pmf of the dice's sum
    under the optimal keeps, checked by a direct enumeration of the last roll."""
    column = column_with_open_boxes(CLASSIC, ("chance",), yahtzee=0)
    mask, up, armed = s.column_state(CLASSIC, column)
    roll_pmf = exact_roll_pmf(moments, mask, up, armed, 3)
    # Scored now (no roll left): all mass on the sum of the dice.
    for roll, points in (((1, 2, 3, 4, 6), 16), ((6, 6, 6, 6, 6), 30)):
        row = roll_pmf[0, s.ROLL_INDEX[roll]]
        assert row[points] == pytest.approx(1.0)
    # One roll left holding 6 6 6 5 x: chance keeps dice of 4 or more and re-rolls the rest.
    row = roll_pmf[1, s.ROLL_INDEX[(1, 5, 6, 6, 6)]]
    expected = np.zeros(row.size)
    for face in range(1, 7):
        expected[23 + face] += 1 / 6
    np.testing.assert_allclose(row, expected, atol=1e-12)


# --- Combining seats ------------------------------------------------------------------------


def test_combine_shares_ties_and_sums_to_one() -> None:
    sure = Outlook(200, np.ones(1))
    coin = Outlook(199, np.array([0.5, 0.0, 0.5]))  # 199 or 201
    assert combine([sure, coin]) == pytest.approx((0.5, 0.5))
    assert combine([sure, Outlook(200, np.ones(1))]) == pytest.approx((0.5, 0.5))
    three = combine([sure, Outlook(200, np.ones(1)), Outlook(150, np.ones(1))])
    assert three == pytest.approx((0.5, 0.5, 0.0))
    # 200 against a coin between 200 and 201: a tie half the time (½ · ½), a loss otherwise.
    assert combine([sure, Outlook(200, np.array([0.5, 0.5]))]) == pytest.approx((0.25, 0.75))


def _finished(totals: tuple[int, int]) -> GameState:
    """A finished two-seat game with these chance-box totals (every other box 0)."""
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"))))
    cards = []
    for total in totals:
        scores = {c.key: 0 for c in CATEGORIES}
        scores["chance"] = total
        cards.append(ScoreCard((Column.from_scores(CLASSIC, scores),)))
    return GameState(state.settings, tuple(cards), state.turn)


def test_chances_at_the_end_are_one_and_zero() -> None:
    assert win_chances(_finished((25, 20))) == (1.0, 0.0)
    assert win_chances(_finished((18, 27))) == (0.0, 1.0)
    assert win_chances(_finished((22, 22))) == (0.5, 0.5)
    assert game_win_chances(_finished((25, 20))) == (1.0, 0.0)


def test_a_solo_game_has_no_chances() -> None:
    assert game_win_chances(new_game(GameSettings(seats=(Seat("Ann"),)))) is None


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 3))
def test_chances_sum_to_one_along_random_games(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    dice = RandomDice(seed)
    state = new_game(GameSettings(seats=tuple(Seat(f"P{i}") for i in range(seats))), dice)
    checked = 0
    while not state.is_game_over:
        chances = win_chances(state)
        assert len(chances) == seats
        assert sum(chances) == pytest.approx(1.0, abs=1e-9)
        assert all(0.0 <= c <= 1.0 for c in chances)
        checked += 1
        if state.dice is None or (state.rolls_left > 0 and rng.random() < 0.5):
            state = apply(state, "roll", dice)
        else:
            placement = rng.choice(state.placements())
            state = apply(state, f"score {placement.category.key}", dice)
    final = win_chances(state)
    best = max(state.totals)
    winners = [i for i, t in enumerate(state.totals) if t == best]
    assert final == pytest.approx(
        tuple(1 / len(winners) if i in winners else 0.0 for i in range(seats))
    )
    assert checked > 13 * seats


# --- The master level -----------------------------------------------------------------------


def test_master_is_a_level_everywhere() -> None:
    assert "master" in LEVELS
    assert parse_level("Master") == "master"
    assert Level.parse("master") is Level.MASTER
    assert isinstance(make_cpu_player("master", 1, CLASSIC), MasterBot)


@pytest.mark.slow
def test_master_plays_like_expert_solo() -> None:
    """A solo game: master and expert make the same decisions on the same dice."""
    finals = []
    for level in ("master", "expert"):
        game = LocalGame.start(GameSettings(seats=(Seat("CPU", level),)), seed=11)
        while not game.state.is_match_over:
            game.cpu_step()
        finals.append((game.state.cards, game.log))
    assert finals[0] == finals[1]


@pytest.mark.slow
def test_master_last_turn_maximises_the_chance_of_winning(moments: MomentTable) -> None:
    """Last turn, only Chance open, the opponent finished with 26 more points: master's turn
    values are the exact best chances (checked by enumeration), and it keeps differently from
    the expert where that helps."""
    # No Yahtzee bonus: chance = the dice's sum.
    column = column_with_open_boxes(CLASSIC, ("chance",), yahtzee=0)
    total = column.total(CLASSIC)
    need = 26  # win with a chance of 27 or more, tie with 26
    mask, up, armed = s.column_state(CLASSIC, column)
    arrays = rule_arrays(CLASSIC)
    levels = 3
    roll_w = np.empty((levels, 252))
    best_keep = np.empty((levels, 252), dtype=np.int64)
    win_turn(
        mask, up, int(armed), total, float(total + need), 0.0, np.ones(1), total + need,
        moments.moments, np.zeros((13, 64, 2, 1)), arrays.kernel_rules, roll_w,
        np.empty((levels, 462)), best_keep, np.empty(252, dtype=np.int64), np.empty(462),
        np.empty(462, dtype=np.int64),
    )  # fmt: skip

    def result(roll: tuple[int, ...]) -> float:
        points = sum(roll)
        return 1.0 if points > need else (0.5 if points == need else 0.0)

    from fivedice.core.dice import keep_outcomes, sub_multisets

    exact = [{roll: result(roll) for roll in ALL_ROLLS}]
    for _ in range(1, levels):
        previous = exact[-1]
        exact.append(
            {
                roll: max(
                    sum(float(p) * previous[r] for r, p in keep_outcomes(keep))
                    for keep in sub_multisets(roll)
                )
                for roll in ALL_ROLLS
            }
        )
    for left in range(levels):
        for roll in ALL_ROLLS:
            assert roll_w[left, s.ROLL_INDEX[roll]] == pytest.approx(exact[left][roll], abs=1e-6)
    start = sum(float(roll_probability(r)) * exact[2][r] for r in ALL_ROLLS)
    assert 0.0 < start < 0.5
    expert = s.turn_values(moments.table, column)
    differs = [
        roll
        for roll in ALL_ROLLS
        if ALL_KEEPS[int(best_keep[1, s.ROLL_INDEX[roll]])] != expert.best_keep_for(roll, 1)
    ]
    assert differs  # needing 27, master gives up points the expert would keep


@pytest.mark.slow
def test_master_observes_the_table_and_plays_legally() -> None:
    """A whole three-seat game with master: every decision legal, the game completes."""
    game = LocalGame.start(
        GameSettings(seats=(Seat("M", "master"), Seat("E", "expert"), Seat("C", "casual"))),
        seed=5,
    )
    while not game.state.is_match_over:
        game.cpu_step()
    assert all(card.is_complete for card in game.state.cards)
    bot = game.cpu_players[0]
    assert isinstance(bot, MasterBot) and isinstance(bot, Bot)


def test_make_bot_master_falls_back_to_expert_without_a_table_view() -> None:
    master = make_bot("master", CLASSIC, 3)
    expert = make_bot("expert", CLASSIC, 3)
    card = ScoreCard.empty(CLASSIC)
    for dice in ((1, 1, 6, 6, 6), (2, 3, 4, 5, 5), (1, 2, 3, 4, 6)):
        assert master.choose_keep(CLASSIC, card, dice, 2) == expert.choose_keep(
            CLASSIC, card, dice, 2
        )
        assert master.choose_box(CLASSIC, card, dice) == expert.choose_box(CLASSIC, card, dice)


def test_tables_not_at_hand_are_prepared_in_the_background(tmp_path, monkeypatch) -> None:
    """A web page asks without waiting: nothing yet, and one background preparation."""
    from fivedice.strategy import moments as m

    started = []
    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(m.MOMENTS, "of", lambda rules, **_: started.append(rules))
    monkeypatch.setattr(m.MOMENTS, "_memory", type(m.MOMENTS._memory)())
    assert not m.MOMENTS.building()
    rules = CLASSIC.replace(rolls_per_turn=4)
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules))
    before = set(threading.enumerate())
    assert game_win_chances(state, wait=False) is None
    for thread in set(threading.enumerate()) - before:  # the preparation it started
        thread.join(timeout=5)
    assert started == [rules]


@pytest.mark.slow
def test_master_plays_to_win_only_in_the_last_game_of_a_match() -> None:
    bot = make_bot("master", CLASSIC, 1)
    assert isinstance(bot, MasterBot)
    seats = (Seat("M", "master"), Seat("E", "expert"))
    for length, plays_to_win in ((2, False), (1, True)):
        dice = RandomDice(3)
        state = apply(new_game(GameSettings(seats=seats, match_length=length), dice), "roll", dice)
        bot.observe(state)
        assert (bot._opponent is not None) is plays_to_win
