"""A fivedice cluster across hosts (Linux network namespaces on this machine: PostgreSQL,
three web hosts with two workers each, HAProxy) survives a host SIGKILLed, a rolling restart
and a PostgreSQL restart with players driving games through the balancer: nothing
acknowledged is lost or doubled in the stored logs, streams come back within 3 s, CPU games
move again within 5 s (tests/cluster/faults.py says how each figure is read)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.cluster.faults import as_json, drill, drill_environment, table_text
from tests.cluster.harness import (
    Cluster,
    default_web_env,
    terminated_as_interrupt,
    unavailable_reason,
)

pytestmark = [pytest.mark.processes, pytest.mark.postgres, pytest.mark.cluster]

STREAM_BACK_SECONDS = 3.0
CPU_MOVING_SECONDS = 5.0


@pytest.fixture
def hosts(tmp_path):
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no namespace cluster here: {reason}")
    environment = {**default_web_env(), **drill_environment()}
    # A SIGTERM to pytest takes the cluster down too (as Ctrl+C does).
    with terminated_as_interrupt(), Cluster.build(tmp_path / "c", web_env=environment) as built:
        yield built


def test_three_faults_lose_and_double_nothing_and_players_are_back_in_time(hosts, tmp_path):
    figures = asyncio.run(drill(hosts))
    (tmp_path / "faults.json").write_text(json.dumps(as_json(figures), indent=2))
    print("\n" + table_text(figures))
    for fault in figures:
        assert fault.acknowledged > 0, f"{fault.fault}: nobody could play"
        assert fault.lost == 0, fault
        assert fault.doubled == 0, fault
        assert fault.worst_stream_gap_s <= STREAM_BACK_SECONDS, fault
        assert fault.worst_cpu_stall_s <= CPU_MOVING_SECONDS, fault
        assert fault.never_pushed == 0, f"{fault.fault}: a version never reached a stream"
        assert fault.surprises == 0, f"the players' streams failed: {fault}"
