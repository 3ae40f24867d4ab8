"""The exact solver on Maxi Yatzy without saved rolls (six dice, 20 boxes, a compact table):
small remaining games against an independent brute force on the core's API (values, best
keeps, best boxes), the compact layout against the full one, and its state count."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from fivedice.core.card import Column
from fivedice.core.dice import all_keeps, sub_multisets
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import Joker, RuleSet, find_ruleset
from fivedice.core.scoring import possible_scores
from fivedice.service.games import GameService
from fivedice.strategy.advisor import advise
from fivedice.strategy.bots import values_from_table
from fivedice.strategy.cache import cache_path, load_table, save_table
from fivedice.strategy.compact import compact_layout, reachable_upper
from fivedice.strategy.rule_arrays import rule_arrays
from fivedice.strategy.simulate import simulate
from fivedice.strategy.solver import (
    StrategyTable,
    decision_values,
    solve,
    solve_compact,
    turn_values,
)
from tests.strategy.brute import BruteForce

EXACT = 1e-9
MAXI = find_ruleset("maxi-yatzy", {"saved_rolls": "off"})

# Typical scores of a filled Maxi Yatzy card (each one the box can hold).
_FULL = {
    "ones": 3,
    "twos": 6,
    "threes": 12,
    "fours": 16,
    "fives": 15,
    "sixes": 24,
    "one_pair": 12,
    "two_pairs": 18,
    "three_pairs": 24,
    "three_of_a_kind": 15,
    "four_of_a_kind": 16,
    "five_of_a_kind": 20,
    "small_straight": 15,
    "large_straight": 20,
    "full_straight": 21,
    "full_house": 24,
    "castle": 27,
    "tower": 26,
    "chance": 25,
    "maxi_yatzy": 0,
}


def _card(rules: RuleSet, open_boxes: tuple[str, ...], **scores: int) -> Column:
    """A column with every box filled (typical scores, then overrides) except `open_boxes`."""
    filled = {box.key: _FULL[box.key] for box in rules.boxes} | scores
    for key in open_boxes:
        filled.pop(key)
    for key, score in filled.items():
        assert score in possible_scores(rules, rules.box(key)), key
    return Column.from_scores(rules, filled)


def _sub_game(rules: RuleSet, column: Column) -> StrategyTable:
    """The compact table of the game left on this card (only that sub-game is solved)."""
    values, layout, states = solve_compact(rule_arrays(rules), within=column.filled_mask)
    return StrategyTable(rules, values, float("nan"), states, layout)


# (rules, open boxes, score overrides): small remaining games where the choices matter.
# Boxes with few possible scores keep the brute force (a Python expectimax over every
# distinct card) quick.
CASES = [
    # Upper total 72 (+ sixes can reach 84: the bonus is at stake).
    (MAXI, ("sixes", "maxi_yatzy", "full_straight"), {"fours": 24, "fives": 25, "twos": 2}),
    (MAXI, ("fives", "small_straight", "five_of_a_kind"), {"sixes": 30, "threes": 9}),
    (MAXI, ("ones", "large_straight", "maxi_yatzy"), {}),
    # Bonus at 30 and 50 points: another threshold and value.
    (
        MAXI.replace(upper_bonus_threshold=30, upper_bonus_value=50),
        ("twos", "threes", "full_straight"),
        {"ones": 1, "fours": 4, "fives": 5, "sixes": 6},
    ),
    # A bonus for further Maxi Yatzies with a forced joker: the armed blocks.
    (
        MAXI.replace(yahtzee_bonus=True, yahtzee_bonus_value=100, joker=Joker.FORCED),
        ("fours", "large_straight", "five_of_a_kind"),
        {"maxi_yatzy": 100},
    ),
    (MAXI.replace(rolls_per_turn=2), ("fours", "tower", "maxi_yatzy"), {}),
    # No upper bonus: the upper total is not kept at all (one slot per filled upper boxes).
    (MAXI.replace(upper_bonus=False), ("ones", "full_straight", "maxi_yatzy"), {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "open_boxes", "scores"), CASES)
def test_small_maxi_games_match_brute_force(
    rules: RuleSet, open_boxes: tuple[str, ...], scores: dict[str, int]
) -> None:
    column = _card(rules, open_boxes, **scores)
    table = _sub_game(rules, column)
    brute = BruteForce(rules)
    assert table.column_value(column) == pytest.approx(brute.future(column), abs=EXACT)
    turn = turn_values(table, column)
    assert turn.start_value == pytest.approx(brute.future(column), abs=EXACT)
    levels = brute.roll_values(column)
    rolls = rule_arrays(rules).dice.rolls
    keeps = all_keeps(6)
    rng = random.Random("".join(open_boxes))
    chosen = [*rng.sample(rolls, 12), (6,) * 6, (4,) * 6, (1, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6, 6)]
    for roll in chosen:
        r = rolls.index(roll)
        for rolls_left in range(rules.rolls_per_turn):
            assert turn.roll_values[rolls_left, r] == pytest.approx(
                levels[rolls_left][roll], abs=EXACT
            )
        # The best box and the best keep are the brute force's (by value: ties may differ).
        box_values = brute.box_values(column, roll)
        best_box = rules.boxes[int(turn.best_box[r])].key
        assert box_values[best_box] == pytest.approx(max(box_values.values()), abs=EXACT)
        for rolls_left in range(1, rules.rolls_per_turn):
            best_keep = keeps[int(turn.best_keep[rolls_left, r])]
            assert best_keep in sub_multisets(roll)
            assert brute.keep_value(column, best_keep, rolls_left) == pytest.approx(
                max(brute.keep_value(column, k, rolls_left) for k in sub_multisets(roll)),
                abs=EXACT,
            )
        keep_row, boxes = decision_values(table, column, roll, rules.rolls_per_turn - 1)
        assert {box.key: v for box, v in boxes} == pytest.approx(box_values, abs=EXACT)
        for keep in rng.sample(sub_multisets(roll), 4):
            assert keep_row[keeps.index(keep)] == pytest.approx(
                brute.keep_value(column, keep, rules.rolls_per_turn - 1), abs=EXACT
            )
        # The coach (the advisor, six dice) is exact for every option, best first.
        for rolls_left in range(rules.rolls_per_turn):
            options = advise(table, column, list(reversed(roll)), rolls_left)
            assert [o.value for o in options] == sorted((o.value for o in options), reverse=True)
            assert options[0].loss == 0.0
            expected_keeps = set(sub_multisets(roll)) if rolls_left else set()
            assert {o.keep for o in options if o.keep is not None} == expected_keeps
            assert {o.category.key for o in options if o.category} == set(box_values)
            for option in options:
                if option.category is not None:
                    expected = box_values[option.category.key]
                else:
                    assert option.keep is not None
                    expected = brute.keep_value(column, option.keep, rolls_left)
                assert option.value == pytest.approx(expected, abs=EXACT)


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        find_ruleset("yatzy"),
        find_ruleset("yatzy").replace(joker=Joker.FORCED, yahtzee_bonus=True),
        find_ruleset("yatzy").replace(upper_bonus_threshold=40),
    ],
    ids=["yatzy", "yatzy-joker-bonus", "yatzy-bonus-40"],
)
def test_compact_table_equals_the_full_one(rules: RuleSet) -> None:
    """Every reachable state of a compact solve holds the full table's value."""
    full = solve(rules)
    values, layout, _ = solve_compact(rule_arrays(rules))
    compact = StrategyTable(rules, values, float(values[0]), 0, layout)
    assert compact.value(0, 0, False) == pytest.approx(full.expected_score, abs=EXACT)
    found = np.argwhere(~np.isnan(full.values))
    rng = np.random.default_rng(1)
    for mask, up, armed in found[rng.choice(len(found), 20_000, replace=False)].tolist():
        if armed and not (mask >> rules.box_index(rules.all_same_box)) & 1:  # type: ignore[arg-type]
            continue  # never armed: the full table copies the unarmed value there
        assert compact.value(mask, up, bool(armed)) == pytest.approx(
            float(full.values[mask, up, armed]), abs=EXACT
        )


def test_compact_layout_merges_what_plays_alike() -> None:
    """Maxi Yatzy's bonus at 84: the reachable (filled upper boxes, total) pairs with the
    totals that can no longer reach 84 merged into one slot each, exhaustively recounted."""
    layout = compact_layout(84, 6, 20, -1)
    reach = reachable_upper(84, 6)
    expected = 0
    for upper in range(64):
        totals = np.flatnonzero(reach[upper])
        open_faces = [b + 1 for b in range(6) if not (upper >> b) & 1]
        dead = [t for t in totals if t + 6 * sum(open_faces) < 84]
        expected += len(totals) - max(len(dead) - 1, 0)
        # Every reachable total has a slot; the dead ones share the first one's.
        slots = {int(layout.slot[upper, t]) for t in dead}
        assert len(slots) <= 1
        assert all(layout.slot[upper, t] >= 0 for t in totals)
        assert (layout.slot[upper] >= 0).sum() == len(totals)
    assert layout.block == expected
    assert layout.states == expected << 14
    # Every slot of a block is used exactly once by the totals solved.
    used = sorted(
        int(layout.slot[upper, t])
        for upper in range(64)
        for t in layout.solved_totals[upper, : layout.solved_count[upper]]
    )
    assert used == list(range(layout.block))


@pytest.mark.slow
def test_armed_states_get_their_own_blocks() -> None:
    """With a bonus for further all-same rolls, each mask with that box filled has an armed
    block of its own, after the 2^14 unarmed ones, and no two states share a place."""
    from fivedice.strategy.compact import compact_index

    box = 19
    layout = compact_layout(84, 6, 20, box)
    assert layout.blocks == (1 << 14) + (1 << 13)
    seen = set()
    for low in range(1 << 14):
        mask = low << 6
        seen.add(compact_index(layout.slot, layout.layout, mask, 0, 0))
        if (mask >> box) & 1:
            seen.add(compact_index(layout.slot, layout.layout, mask, 0, 1))
    assert len(seen) == (1 << 14) + (1 << 13)
    assert max(seen) < layout.states


@pytest.mark.slow
def test_a_compact_table_survives_the_cache_as_float32(tmp_path: Path) -> None:
    """Saved as float32 (Maxi Yatzy's table stays under 200 MB), loaded back with its
    layout; the expected score in the header stays exact."""
    column = _card(MAXI, ("sixes", "maxi_yatzy", "full_straight"), fours=24, fives=25, twos=2)
    sub_game = _sub_game(MAXI, column)
    table = StrategyTable(MAXI, sub_game.values, 123.456789012345, 77, sub_game.layout)
    path = tmp_path / "maxi.bin"
    save_table(table, path)
    assert path.stat().st_size < 200_000_000
    loaded = load_table(MAXI, path)
    assert loaded is not None and loaded.layout is not None
    assert (loaded.expected_score, loaded.states) == (123.456789012345, 77)
    assert loaded.values.dtype == np.float64
    assert np.array_equal(loaded.values, sub_game.values.astype(np.float32))
    assert loaded.column_value(column) == pytest.approx(sub_game.column_value(column), abs=1e-4)
    assert load_table(MAXI.replace(upper_bonus_threshold=80), path) is None  # other rules


@pytest.mark.full_solve
@pytest.mark.tables
def test_the_full_solve_is_confirmed_by_its_own_play(
    solved_table: Callable[[RuleSet], StrategyTable],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole table (minutes): the optimum is what the expert CPU, which plays its policy,
    scores on average (within four standard errors); a game of that CPU, reviewed by the
    service, loses nothing on any decision (the review parses six dice' holds)."""
    table = solved_table(MAXI)
    assert table.states == 33_472_510
    games = simulate(MAXI, "expert", 4000, seed=3, values=values_from_table(table))
    scores = games.scores.astype(np.float64)
    error = scores.std(ddof=1) / np.sqrt(scores.size)
    assert abs(scores.mean() - table.expected_score) < 4 * error
    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(tmp_path))
    save_table(table, cache_path(MAXI, tmp_path))
    service = GameService.open(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        view = service.create_game(GameSettings(seats=(Seat("Ada", "expert"),), rules=MAXI), seed=7)
        while not view.is_over:
            _, view = service.cpu_step(view.game_id, view.version)
        review = service.review(view.game_id)
    finally:
        service.store.close()
    (seat,) = review.seats
    assert review.exact and len(seat.decisions) >= 20
    assert seat.total_loss == pytest.approx(0.0, abs=1e-9)


def test_no_save_maxi_is_played_exactly_and_bounded_like_any_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without saved rolls the coach and the strong and expert CPUs play from the exact
    table, so a server's allow-list refuses them as for any rule set it does not solve;
    with saved rolls they stay the heuristic levels, which need no table."""
    from fivedice.strategy.bots import profile_for
    from fivedice.strategy.limits import (
        SOLVE_RULES_ENV,
        SolveNotAllowedError,
        check_cpu_levels,
        is_supported,
    )

    saved = find_ruleset("maxi-yatzy")
    assert is_supported(MAXI) and not is_supported(saved)
    assert profile_for("expert", MAXI).optimal_values
    assert not profile_for("expert", saved).optimal_values
    monkeypatch.setenv(SOLVE_RULES_ENV, "classic")
    with pytest.raises(SolveNotAllowedError, match="solves only classic"):
        check_cpu_levels(MAXI, [None, "expert"])
    check_cpu_levels(MAXI, [None, "casual"])  # plays from the casual estimate: no table
    check_cpu_levels(saved, [None, "expert"])


def test_maxi_yatzy_has_no_breakdown_or_goal_tables_and_says_so() -> None:
    """The breakdown, the goal coach's threshold tables and the moment tables walk the
    solver's full layers (2^20 sets of boxes here): Maxi Yatzy's coach refuses a goal in
    words, before any table is loaded, and its reasons say its values are exact (with saved
    rolls: estimates) rather than that a breakdown is coming."""
    from fivedice.service.coach import column_goal_hints
    from fivedice.service.errors import HintsUnavailableError
    from fivedice.strategy.breakdown import breakdown_if_ready
    from fivedice.strategy.hints import Hint
    from fivedice.strategy.limits import has_layer_tables
    from fivedice.strategy.moments import policy_layers
    from fivedice.strategy.rule_arrays import UnsupportedRulesError
    from fivedice.wording.reasons import NO_BREAKDOWN, NO_BREAKDOWN_EXACT, why_lines

    assert not has_layer_tables(MAXI) and has_layer_tables(find_ruleset("yatzy"))
    with pytest.raises(HintsUnavailableError, match="Maxi Yatzy"):
        column_goal_hints(MAXI, Column(), (1, 2, 3, 4, 5, 6), 2, "300")
    with pytest.raises(UnsupportedRulesError):
        policy_layers(MAXI)
    assert breakdown_if_ready(MAXI) is None
    best = Hint(keep=None, category="chance", value=300.0)
    assert why_lines(MAXI, [best]) == [NO_BREAKDOWN_EXACT]
    assert why_lines(find_ruleset("maxi-yatzy"), [best]) == [NO_BREAKDOWN]
