"""Winning chances in Scandinavian Yatzy (15 boxes): the moment table and the exact end-game
distributions against brute force, the chances of a position against an exhaustive
enumeration of both seats' games, and master playing to win at a Yatzy table."""

from __future__ import annotations

import numpy as np
import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.dice import ALL_ROLLS
from fivedice.core.game import GameSettings, GameState, Seat, new_game
from fivedice.core.rules import find_ruleset
from fivedice.strategy import solver as s
from fivedice.strategy.chances import column_pmf, win_chances
from fivedice.strategy.limits import has_win_chances
from fivedice.strategy.master import MasterBot
from fivedice.strategy.moments import MomentTable, exact_pmf
from fivedice.strategy.players import make_bot
from tests.strategy.brute import BruteDistribution, BruteForce, BruteMoments
from tests.strategy.support import column_with_open_boxes
from tests.support import tables

YATZY = find_ruleset("yatzy")

pytestmark = pytest.mark.slow  # a Yatzy solve and its moment table, brute force in Python


@pytest.fixture(scope="module")
def moments(solved_table) -> MomentTable:
    # The session's one moment table of Yatzy (test_master_table's Yatzy seat uses it too).
    return tables.moments(solved_table(YATZY))


@pytest.fixture(scope="module")
def brute() -> BruteForce:
    return BruteForce(YATZY)


def _pmf_of(distribution: dict[int, float]) -> np.ndarray:
    pmf = np.zeros(max(distribution) + 1)
    for x, q in distribution.items():
        pmf[x] += q
    return pmf


# (open boxes, score overrides): small remaining games where Yatzy's own boxes matter.
CASES = [
    (("sixes", "full_house"), {"fives": 10}),  # upper 50 of 63: the 50 bonus hangs on sixes
    (("two_pairs", "four_of_a_kind", "yatzy"), {}),
    (("one_pair", "small_straight", "large_straight"), {}),
]


@pytest.mark.parametrize(("open_boxes", "scores"), CASES)
def test_yatzy_moments_match_brute_force(
    moments: MomentTable, brute: BruteForce, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    column = column_with_open_boxes(YATZY, open_boxes, **scores)
    exhaustive = BruteMoments(brute)
    m1, m2 = exhaustive.start(column)
    mask, up, armed = s.column_state(YATZY, column)
    mean, variance = moments.state(mask, up, armed)
    assert mean == pytest.approx(m1, abs=1e-3)
    assert variance == pytest.approx(m2 - m1 * m1, rel=1e-5, abs=1e-3)
    assert variance > 1.0  # a real spread, not a degenerate case
    in_turn = moments.in_turn(mask, up, armed, YATZY.rolls_per_turn)
    for left, level in enumerate(exhaustive.rolls(column)):
        for roll in ALL_ROLLS[::5]:
            got = in_turn[left, s.ROLL_INDEX[roll]]
            assert got[0] == pytest.approx(level[roll][0], abs=1e-3)
            assert got[1] == pytest.approx(level[roll][1], rel=1e-6, abs=1e-2)


@pytest.mark.parametrize(
    ("open_boxes", "scores"),
    [
        (("sixes", "full_house"), {"fives": 10}),
        (("chance",), {}),
        (("one_pair", "yatzy"), {}),
        (("threes",), {"sixes": 24, "fives": 20}),  # 3 threes reach 63: the bonus or not
    ],
)
def test_yatzy_last_boxes_distribution_is_the_exhaustive_one(
    moments: MomentTable, brute: BruteForce, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    """With two boxes open or fewer the chances use the exact distribution of the points to
    come: the same, point by point, as an enumeration of every roll and keep."""
    column = column_with_open_boxes(YATZY, open_boxes, **scores)
    expected = _pmf_of(BruteDistribution(brute).start(column))
    mask, up, armed = s.column_state(YATZY, column)
    got = exact_pmf(moments, mask, up, armed)
    assert got.size == expected.size
    np.testing.assert_allclose(got, expected, atol=1e-9)
    np.testing.assert_allclose(column_pmf(moments, mask, up, armed), expected, atol=1e-9)
    assert np.count_nonzero(expected > 1e-12) > 3  # a real distribution


def test_yatzy_whole_game_moments(moments: MomentTable) -> None:
    """The mean is the published optimum (Larsson & Sjöberg); the spread is Yatzy's narrower
    one (σ ≈ 38 against classic's 59.6: no 100-point bonuses)."""
    mean, variance = moments.state(0, 0, False)
    assert mean == pytest.approx(248.4399894, abs=1e-6)
    assert 37.0 < variance**0.5 < 40.0


def _two_seat_state(cards: tuple[Column, Column]) -> GameState:
    """Two seats on Yatzy rules with these columns, seat 0 to move before its first roll."""
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=YATZY))
    return GameState(state.settings, tuple(ScoreCard((c,)) for c in cards), state.turn)


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ((("sixes", "chance"), {"fives": 10}), (("yatzy",), {"chance": 17})),
        # Neither has the upper bonus: a pair of 2-12 against full house and two pairs.
        (
            (("one_pair",), {"chance": 9, "yatzy": 0, "fours": 4}),
            (("full_house", "two_pairs"), {"yatzy": 0, "fives": 5}),
        ),
    ],
)
def test_yatzy_win_chances_equal_an_exhaustive_enumeration(
    moments: MomentTable,
    brute: BruteForce,
    mine: tuple[tuple[str, ...], dict[str, int]],
    theirs: tuple[tuple[str, ...], dict[str, int]],
) -> None:
    """Both seats near the end: each seat's chance of winning (ties half) is the one an
    enumeration of both seats' remaining games under the optimal play gives."""
    columns = (column_with_open_boxes(YATZY, mine[0], **mine[1]),
               column_with_open_boxes(YATZY, theirs[0], **theirs[1]))  # fmt: skip
    distributions = [BruteDistribution(brute).start(c) for c in columns]
    totals = [c.total(YATZY) for c in columns]
    first = 0.0
    for x, p in distributions[0].items():
        for y, q in distributions[1].items():
            mine_total, their_total = totals[0] + x, totals[1] + y
            first += (
                p * q * (1.0 if mine_total > their_total else 0.5 * (mine_total == their_total))
            )
    assert 0.05 < first < 0.95  # a game still open
    chances = win_chances(_two_seat_state(columns), moments)
    assert chances == pytest.approx((first, 1.0 - first), abs=1e-9)


def test_master_plays_to_win_at_a_yatzy_table(moments: MomentTable) -> None:
    """Under Yatzy rules master watches the other seats: on its last turn, only Chance open and
    the other seat finished 26 points ahead, every keep it makes with one roll left has the
    best chance of winning (ties half), checked by enumerating the last roll; and where that
    needs it, it keeps other dice than the expert, who plays for points."""
    from fivedice.core.dice import keep_outcomes, sub_multisets

    assert has_win_chances(YATZY)
    assert isinstance(make_bot("master", YATZY, 1), MasterBot)
    need = 26  # the dice must sum to 27 or more to win, 26 ties
    mine = column_with_open_boxes(YATZY, ("chance",))
    theirs = column_with_open_boxes(YATZY, (), chance=need)  # the same card, Chance filled
    assert theirs.total(YATZY) == mine.total(YATZY) + need
    state = _two_seat_state((mine, theirs))
    bot = MasterBot(YATZY, moments=moments, thresholds=False)  # no table build in a test
    bot.observe(state)
    expert = make_bot("expert", YATZY, 1)
    card = state.cards[0]

    def chance_of_winning(keep: tuple[int, ...]) -> float:
        return sum(
            float(p) * (1.0 if sum(roll) > need else 0.5 * (sum(roll) == need))
            for roll, p in keep_outcomes(keep)
        )

    differs = 0
    for roll in ALL_ROLLS:
        keep = bot.choose_keep(YATZY, card, roll, 1)
        best = max(chance_of_winning(k) for k in sub_multisets(roll))
        assert chance_of_winning(keep) == pytest.approx(best, abs=1e-9), roll
        differs += tuple(sorted(keep)) != tuple(sorted(expert.choose_keep(YATZY, card, roll, 1)))
    assert differs > 0  # needing 27, master rerolls dice the expert would keep for points
