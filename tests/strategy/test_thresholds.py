"""Threshold tables: the best chance of reaching every target, against an exhaustive
computation on the core's API (each target's own best policy), and their shape; the coach's
options for a goal from them."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, sub_multisets
from fivedice.core.rules import find_ruleset
from fivedice.strategy import solver as s
from fivedice.strategy.target import column_target_hints
from fivedice.strategy.thresholds import TargetTooHigh, ThresholdTable, compute_thresholds
from tests.strategy.brute import BruteForce, BruteThresholds
from tests.strategy.support import column_with_open_boxes

CLASSIC = find_ruleset("classic")
TOP = 90


@pytest.fixture(scope="module")
def late_classic() -> ThresholdTable:
    """Classic states with at most three boxes open, targets up to TOP."""
    return compute_thresholds(CLASSIC, TOP, min_filled=10)


@pytest.fixture(scope="module")
def brute() -> BruteThresholds:
    """One exhaustive computation for the module: its memo of positions serves every case
    (the goal tests ask about the same column as a case below)."""
    return BruteThresholds(CLASSIC, TOP)


CASES = [
    (("sixes", "full_house"), {"fives": 10}),  # the upper bonus hangs on the sixes
    (("fours", "chance", "large_straight"), {"threes": 6}),  # jokers, the extra bonus armed
    (("ones", "yahtzee"), {"sixes": 24}),  # the Yahtzee box open: arming the bonus
    (("ones", "twos", "yahtzee"), {"yahtzee": 0}),  # a scratched Yahtzee: jokers, no bonus
]


@pytest.mark.slow
@pytest.mark.parametrize(("open_boxes", "scores"), CASES)
def test_chances_match_an_exhaustive_computation(
    late_classic: ThresholdTable,
    brute: BruteThresholds,
    open_boxes: tuple[str, ...],
    scores: dict[str, int],
) -> None:
    column = column_with_open_boxes(CLASSIC, open_boxes, **scores)
    mask, up, armed = s.column_state(CLASSIC, column)
    expected = np.asarray(brute.start(column))
    got = late_classic.state_chances(mask, up, armed)
    np.testing.assert_allclose(got, expected, atol=2e-6)
    # A real spread of chances, not a degenerate case.
    assert expected[0] == pytest.approx(1.0)
    assert ((expected > 0.05) & (expected < 0.95)).sum() >= 10
    # Within the turn, for a few targets: every roll and keep with every number of rolls left,
    # and every legal box of a few rolls.
    levels = brute.rolls(column)
    for need in (1, 17, 33, 60):
        turn = late_classic.turn(mask, up, armed, need, CLASSIC.rolls_per_turn)
        assert turn.start == pytest.approx(expected[need], abs=2e-6)
        for left, level in enumerate(levels):
            want = np.array([level[roll][need] for roll in ALL_ROLLS])
            np.testing.assert_allclose(turn.roll_chances[left], want, atol=2e-6)
        for left in range(1, CLASSIC.rolls_per_turn):
            for keep in ALL_KEEPS[::37]:
                want_keep = brute.keep_chances(column, keep, left)[need]
                got_keep = turn.keep_chances[left, s.KEEP_INDEX[keep]]
                assert got_keep == pytest.approx(want_keep, abs=2e-6)
        for roll in ALL_ROLLS[::25]:
            boxes = dict(late_classic.box_chances(mask, up, armed, s.ROLL_INDEX[roll], need))
            want_boxes = brute.box_chances(column, roll)
            assert {CLASSIC.boxes[b].key for b in boxes} == set(want_boxes)
            for b, chance in boxes.items():
                want_box = want_boxes[CLASSIC.boxes[b].key][need]
                assert chance == pytest.approx(want_box, abs=2e-6)


@pytest.mark.slow
def test_chances_are_probabilities_that_fall_as_the_target_rises(
    late_classic: ThresholdTable,
) -> None:
    rows = late_classic.chances[1:]
    computed = rows[~np.isnan(rows[:, 0])]
    assert computed.shape[0] > 1000
    assert (computed[:, 0] == 1.0).all()
    assert (np.diff(computed, axis=1) <= 4e-6).all()  # float32 rounding
    assert (computed >= 0.0).all() and (computed <= 1.0).all()
    assert (computed[:, -1] < computed[:, 1]).mean() > 0.5


@pytest.mark.slow
def test_targets_out_of_range_are_refused(late_classic: ThresholdTable) -> None:
    column = column_with_open_boxes(CLASSIC, ("chance",), yahtzee=0)  # no extra bonus
    mask, up, armed = s.column_state(CLASSIC, column)
    assert late_classic.chance(mask, up, armed, 0) == 1.0
    assert late_classic.chance(mask, up, armed, -5) == 1.0
    assert late_classic.chance(mask, up, armed, 31) == 0.0  # chance scores at most 30
    with pytest.raises(TargetTooHigh):
        late_classic.chance(mask, up, armed, TOP + 1)
    with pytest.raises(ValueError, match="at least 10"):
        late_classic.chance(0, 0, False, 5)


# --- The coach for a goal --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_goal_options_are_ranked_by_their_exact_chance(
    late_classic: ThresholdTable, brute: BruteThresholds, rolls_left: int
) -> None:
    column = column_with_open_boxes(CLASSIC, ("fours", "chance", "large_straight"), threes=6)
    total = column.total(CLASSIC)
    goal = total + 45
    for dice in [(1, 2, 3, 4, 4), (4, 4, 4, 6, 6), (2, 3, 4, 5, 5)]:
        hints = column_target_hints(late_classic, column, dice, rolls_left, goal, total)
        chances = [hint.value for hint in hints]
        assert all(a >= b - 1e-6 for a, b in itertools.pairwise(chances))
        assert all(hint.goal == goal for hint in hints)
        assert hints[0].loss == 0.0
        boxes = brute.box_chances(column, dice)
        for hint in hints:
            assert hint.loss == pytest.approx(chances[0] - hint.value, abs=1e-9)
            if hint.category is not None:
                want = boxes[hint.category.key][45]
            else:
                assert hint.keep is not None
                want = brute.keep_chances(column, hint.keep, rolls_left)[45]
            assert hint.value == pytest.approx(want, abs=2e-6)
        assert {h.box for h in hints if h.category} == set(boxes)
        assert (len(hints) > len(boxes)) == (rolls_left > 0)


@pytest.mark.slow
def test_a_far_goal_changes_the_advice_from_the_expected_score_one(
    late_classic: ThresholdTable,
) -> None:
    """Needing 60 from sixes, Yahtzee and Chance, the keep that is best on average gives up
    some of the chance of the goal on some rolls, and never gains any."""
    column = column_with_open_boxes(CLASSIC, ("sixes", "yahtzee", "chance"))
    ev = BruteForce(CLASSIC)
    total = column.total(CLASSIC)
    gave_up = 0
    for dice in ALL_ROLLS:
        hints = column_target_hints(late_classic, column, dice, 2, total + 60, total)
        best_ev = max(sub_multisets(dice), key=lambda keep: ev.keep_value(column, keep, 2))
        for_ev = next(h for h in hints if h.keep is not None and tuple(h.keep) == best_ev)
        assert for_ev.value <= hints[0].value
        gave_up += for_ev.value < hints[0].value - 1e-4
    assert gave_up > 0


def test_a_server_client_without_a_permit_starts_no_goal_table(tmp_path, monkeypatch) -> None:
    """Building a goal table costs minutes of CPU and hundreds of MB: a client whose permit
    for new solves is spent is refused, and no build starts."""
    import threading

    from fivedice.strategy import thresholds
    from fivedice.strategy.limits import SolverBusyError, permitting_new_solves

    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(tmp_path))
    # Nothing loaded or being built by an earlier test in this process.
    from fivedice.strategy.derived import DerivedTables

    monkeypatch.setattr(thresholds, "GOAL_TABLES", DerivedTables("goal"))

    def refuse(_rules: object) -> None:
        raise SolverBusyError()

    before = threading.active_count()
    with permitting_new_solves(refuse), pytest.raises(SolverBusyError):
        thresholds.thresholds_if_ready(find_ruleset("classic"), 400)
    assert not thresholds.GOAL_TABLES.building()
    assert threading.active_count() == before
    assert not list(tmp_path.iterdir())


@pytest.mark.processes
@pytest.mark.slow
def test_a_build_cut_short_by_the_process_exiting_leaves_no_file(tmp_path) -> None:
    """A background build dies with its process (a terminal game that quits): its temporary
    file, hundreds of MB when complete, is removed at exit."""
    import os
    import subprocess
    import sys

    script = f"""
import threading, time
from pathlib import Path
from fivedice.core.rules import find_ruleset
from fivedice.strategy import thresholds as th
th.compute_thresholds = lambda *args, **kwargs: time.sleep(60)  # a build still under way
threading.Thread(
    target=th.load_or_compute, args=(find_ruleset("classic"), 10),
    kwargs={{"cache_dir": {str(tmp_path)!r}}}, daemon=True,
).start()
while not list(Path({str(tmp_path)!r}).glob("*.tmp")):
    time.sleep(0.05)
print("building", flush=True)
"""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "building"
    assert list(tmp_path.iterdir()) == []
