"""The fault drill's audit finds what it is there to find: an acknowledged action missing
from the stored log or stored differently is lost, a version acknowledged twice or a log with
a hole is doubled, and the gaps, stalls and pushes are read within the fault's window."""

from __future__ import annotations

from tests.cluster.faults import audit
from tests.cluster.players import Acknowledged, Gap, Record

WINDOW = (100.0, 110.0)


def _ack(game: int, version: int, action: str, at: float) -> Acknowledged:
    return Acknowledged(game, version, action, sent=at, answered=at + 0.01, listener=1)


def _played() -> tuple[Record, dict[int, dict[int, str]]]:
    """Game 7: roll, hold 1 2, roll acknowledged and stored; all pushed to seat 1."""
    record = Record()
    for version, action in enumerate(("roll", "hold 1 2", "roll"), start=1):
        at = 100.0 + version
        record.acknowledged.append(_ack(7, version, action, at))
        record.arrivals[(7, 1, version)] = at + 0.05
    logs = {7: {1: "roll", 2: "hold 1 2", 3: "roll"}}
    return record, logs


def test_a_faultless_window_counts_every_acknowledged_action_and_nothing_else():
    record, logs = _played()
    record.acknowledged.append(_ack(7, 4, "score chance", 120.0))  # after the window
    figures = audit("none", record, logs, WINDOW)
    assert (figures.acknowledged, figures.lost, figures.doubled) == (3, 0, 0)
    assert figures.never_pushed == 0 and 0.03 < figures.worst_push_s < 0.05


def test_an_acknowledged_action_missing_or_different_in_the_log_is_lost():
    record, logs = _played()
    del logs[7][3]
    assert audit("missing", record, logs, WINDOW).lost == 1
    record, logs = _played()
    logs[7][2] = "hold 3 4"
    assert audit("different", record, logs, WINDOW).lost == 1


def test_a_version_seen_on_a_stream_but_never_stored_is_lost():
    record, logs = _played()
    record.first_seen[(7, 4)] = 105.0
    assert audit("seen", record, logs, WINDOW).lost == 1


def test_a_version_acknowledged_twice_or_a_hole_in_the_log_is_doubled():
    record, logs = _played()
    record.acknowledged.append(_ack(7, 3, "roll", 104.5))
    assert audit("twice", record, logs, WINDOW).doubled == 1
    record, logs = _played()
    logs[7][5] = "roll"  # 1, 2, 3, 5
    assert audit("hole", record, logs, WINDOW).doubled == 1


def test_gaps_stalls_and_missing_pushes_are_read_within_the_window():
    record, logs = _played()
    record.gaps += [Gap(104.0, 106.5), Gap(111.0, 119.0)]  # the second after the window
    record.first_seen.update({(7, 3): 103.0, (7, 4): 107.0})
    record.cpu_to_move[(7, 3)] = True  # the CPU was to move from 103 to 107
    del record.arrivals[(7, 1, 2)]
    figures = audit("faults", record, logs | {7: {**logs[7], 4: "roll"}}, WINDOW)
    assert figures.worst_stream_gap_s == 2.5
    assert figures.worst_cpu_stall_s == 4.0
    assert figures.never_pushed == 1
