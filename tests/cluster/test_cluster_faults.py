"""A fivedice cluster across hosts (Linux network namespaces on this machine: PostgreSQL,
three web hosts with two workers each, HAProxy) survives a host SIGKILLed, a rolling restart
and a PostgreSQL restart with players driving games through the balancer: nothing
acknowledged is lost or doubled in the stored logs, streams come back within 3 s, CPU games
move again within 5 s (tests/cluster/faults.py says how each figure is read).

Part of `make test`: where namespaces cannot be made (not root, no HAProxy or PostgreSQL) it
is skipped with the reason. It never hangs the suite: the drill has a deadline of its own
(`faults.DRILL_SECONDS`, failing with what it was waiting for), and pytest-timeout ends the
test past `TEST_SECONDS` (the cluster's build and teardown included); the fixture takes the
cluster down either way. A failure prints the fault table and the diagnosis (each game's
last version, its CPU lease, the workers' log lines about it)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from tests.cluster.faults import (
    CPU_MOVING_SECONDS,
    DRILL_SECONDS,
    STREAM_BACK_SECONDS,
    FaultFigures,
    as_json,
    diagnosis,
    drill,
    drill_environment,
    table_text,
)
from tests.cluster.harness import (
    START_SECONDS,
    Cluster,
    default_web_env,
    terminated_as_interrupt,
    unavailable_reason,
)

pytestmark = [pytest.mark.processes, pytest.mark.postgres, pytest.mark.cluster]

# The drill's deadline, plus the build (three hosts waited for, each at most START_SECONDS,
# started at once) and the teardown: past it the test fails (SIGALRM in the test's thread, so
# the fixture's teardown still runs) rather than hold `make test` up.
TEST_SECONDS = DRILL_SECONDS + START_SECONDS + 60


@pytest.fixture
def hosts(tmp_path):
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no namespace cluster here: {reason}")
    environment = {**default_web_env(), **drill_environment()}
    began = time.monotonic()
    # A SIGTERM to pytest takes the cluster down too (as Ctrl+C does).
    with terminated_as_interrupt(), Cluster.build(tmp_path / "c", web_env=environment) as built:
        print(f"\ncluster built in {time.monotonic() - began:.1f} s")
        yield built


def problems(fault: FaultFigures) -> list[str]:
    """What is wrong with one fault's figures (nothing: the cluster held)."""
    found = []
    if fault.acknowledged == 0:
        found.append("nobody could play")
    if fault.lost:
        found.append(f"{fault.lost} acknowledged actions lost")
    if fault.doubled:
        found.append(f"{fault.doubled} actions doubled")
    if fault.worst_stream_gap_s > STREAM_BACK_SECONDS:
        found.append(f"a stream was back only after {fault.worst_stream_gap_s} s")
    if fault.worst_cpu_stall_s > CPU_MOVING_SECONDS:
        found.append(
            f"a CPU waited {fault.worst_cpu_stall_s} s to move: {fault.worst_cpu_stall_at}"
        )
    if fault.never_pushed:
        found.append(f"{fault.never_pushed} versions never reached the other human's stream")
    if fault.surprises:
        found.append(f"the players' streams failed unexpectedly {fault.surprises} times")
    return [f"{fault.fault}: {problem}" for problem in found]


@pytest.mark.timeout(TEST_SECONDS, method="signal")
def test_three_faults_lose_and_double_nothing_and_players_are_back_in_time(hosts, tmp_path):
    began = time.monotonic()
    figures, crowd = asyncio.run(drill(hosts))
    (tmp_path / "faults.json").write_text(json.dumps(as_json(figures), indent=2))
    print(f"\n{table_text(figures)}\ndrill {time.monotonic() - began:.1f} s")
    found = [problem for fault in figures for problem in problems(fault)]
    if found:
        report = "\n".join([*found, "", table_text(figures), "", diagnosis(hosts, crowd)])
        (tmp_path / "diagnosis.txt").write_text(report)
        pytest.fail(report, pytrace=False)
