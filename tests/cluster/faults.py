"""The fault drill on a namespace cluster, and its audit against the stored logs.

Players play (`players.Crowd`) while, one after the other: a whole web host is SIGKILLed
(both workers) and started again; every host is restarted in turn (SIGTERM, wait for it to
stop, start it again); PostgreSQL is restarted. Each fault owns the time from its start to the
next fault's (the last one's to the end of play). Then each fault's window is audited:

- acknowledged: actions answered 200 that were sent in the window;
- lost: of those, any whose version is missing from PostgreSQL's stored log or holds another
  action there; and any version a player saw (pushed or answered) that is not stored;
- doubled: a version acknowledged twice, or a game whose stored log is not numbered 1..N;
- worst stream gap: the longest time a stream that broke in the window was without a new
  connection answered 200 (through the balancer, so by a living host);
- worst CPU stall: the longest time a game whose CPU was to move waited for its next version,
  among the waits that overlap the window (the server's pace, `FIVEDICE_CPU_DELAY_MS`,
  included);
- worst push: the longest delay from an action's answer to the same version on the other
  human's stream, for the actions of the window; never pushed: those that never came.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import psycopg

from tests.cluster.harness import HOSTS, Cluster
from tests.cluster.players import Crowd, Record

CPU_DELAY_MS = 300  # the server's pace per CPU step in the drill
STOP_SECONDS = 10.0  # a host given SIGTERM is SIGKILLed if it has not stopped by then
PUSH_WAIT_SECONDS = 3.0  # after the last action, for its push to reach the other stream


@dataclass
class FaultFigures:
    fault: str
    acknowledged: int
    lost: int
    doubled: int
    worst_stream_gap_s: float
    worst_cpu_stall_s: float
    worst_push_s: float
    never_pushed: int  # acknowledged versions that never reached the other human's stream
    unanswered: int  # actions sent in the window whose answer never came (not acknowledged)
    surprises: int = 0  # streams of the whole run that failed unexpectedly (a client bug)
    notes: str = ""


def drill_environment() -> dict[str, str]:
    return {
        "FIVEDICE_CPU_DELAY_MS": str(CPU_DELAY_MS),
    }


def stored_logs(cluster: Cluster, games: list[int]) -> dict[int, dict[int, str]]:
    """Each game's stored actions: {game: {seq: action}}."""
    logs: dict[int, dict[int, str]] = {game: {} for game in games}
    with psycopg.connect(cluster.psycopg_url) as connection:
        rows = connection.execute(
            "SELECT game_id, seq, action FROM actions WHERE game_id = ANY(%s)", (games,)
        )
        for game, seq, action in rows:
            logs[game][seq] = action
    return logs


def audit(
    name: str,
    record: Record,
    logs: dict[int, dict[int, str]],
    window: tuple[float, float],
    notes: str = "",
) -> FaultFigures:
    """One fault's figures (see the module's docstring)."""
    start, end = window
    acks = [ack for ack in record.acknowledged if start <= ack.sent < end]
    lost = sum(1 for ack in acks if logs.get(ack.game, {}).get(ack.version) != ack.action)
    lost += sum(
        1
        for (game, version), seen in record.first_seen.items()
        if start <= seen < end and version > 0 and version not in logs.get(game, {})
    )
    counts = Counter((ack.game, ack.version) for ack in acks)
    doubled = sum(count - 1 for count in counts.values() if count > 1)
    doubled += sum(1 for log in logs.values() if sorted(log) != list(range(1, len(log) + 1)))
    gaps = [
        (gap.end if gap.end is not None else end) - gap.start
        for gap in record.gaps
        if start <= gap.start < end
    ]
    stalls = []
    for (game, version), seen in record.first_seen.items():
        if not record.cpu_to_move.get((game, version)):
            continue
        after = record.first_seen.get((game, version + 1), end)
        if seen < end and after > start:
            stalls.append(after - seen)
    pushes = [delay for answered, delay in record.push_delays() if start <= answered < end]
    unanswered = sum(1 for *_rest, sent in record.unanswered if start <= sent < end)
    return FaultFigures(
        fault=name,
        acknowledged=len(acks),
        lost=lost,
        doubled=doubled,
        worst_stream_gap_s=round(max(gaps, default=0.0), 2),
        worst_cpu_stall_s=round(max(stalls, default=0.0), 2),
        worst_push_s=round(max((p for p in pushes if p is not None), default=0.0), 2),
        never_pushed=sum(1 for p in pushes if p is None),
        unanswered=unanswered,
        surprises=record.surprises,
        notes=notes,
    )


def cpu_games_by_host(cluster: Cluster) -> list[int]:
    """How many games' CPU each web host drives now (holds the game's advisory lock)."""
    from fivedice.store.pg_lease import LOCK_CLASS

    with psycopg.connect(cluster.psycopg_url, autocommit=True) as connection:
        names = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.granted",
            (LOCK_CLASS,),
        ).fetchall()
    pids = [int(name.rsplit("-", 1)[1]) for (name,) in names if name.startswith("fivedice-cpu-")]
    hosts = [set(cluster.worker_pids(index)) for index in range(HOSTS)]
    return [sum(1 for pid in pids if pid in host) for host in hosts]


def _busiest_cpu_host(cluster: Cluster, seconds: float = 5.0) -> tuple[int, int]:
    """The web host driving the most CPU games (waiting up to `seconds` for one that drives
    any): the SIGKILL then proves that another host takes its games over."""
    deadline = time.monotonic() + seconds
    while True:
        counts = cpu_games_by_host(cluster)
        if max(counts) > 0 or time.monotonic() > deadline:
            victim = max(range(HOSTS), key=lambda index: counts[index])
            return victim, counts[victim]
        time.sleep(0.1)


async def _in_thread(work: Callable[[], Any]) -> Any:
    return await asyncio.to_thread(work)


def _rolling_restart(cluster: Cluster) -> str:
    """SIGTERM each host in turn, wait for it to stop (SIGKILL after STOP_SECONDS), start it
    again and wait until it answers; says how each stopped."""
    how = []
    for index in range(HOSTS):
        began = time.monotonic()
        gentle = cluster.stop_host(index, timeout=STOP_SECONDS)
        took = time.monotonic() - began
        cluster.start_host(index)
        how.append(
            f"host {index + 1} {'stopped' if gentle else 'SIGKILLed'} after {took:.1f} s,"
            f" back after {time.monotonic() - began:.1f} s"
        )
    return "; ".join(how)


async def drill(
    cluster: Cluster, *, tables: int = 8, settle: float = 3.0, observe: float = 5.0
) -> list[FaultFigures]:
    """Plays `tables` games through the balancer and runs the three faults (each followed by
    `observe` seconds of play); returns the fault table."""
    crowd = Crowd(cluster.base_url, tables=tables, cpu=True, think_seconds=0.3)
    windows: list[tuple[str, float, str]] = []
    try:
        await crowd.start()
        crowd.play()
        await asyncio.sleep(settle)

        victim, driving = await _in_thread(lambda: _busiest_cpu_host(cluster))
        windows.append((f"SIGKILL of web host {victim + 1} (both workers)", time.monotonic(), ""))
        began = time.monotonic()
        await _in_thread(lambda: cluster.kill_host(victim))
        # Started again at once (as systemd would), while the others carry the play.
        restarted = asyncio.ensure_future(_in_thread(lambda: cluster.start_host(victim)))
        await asyncio.sleep(observe)
        await restarted
        back = time.monotonic() - began
        notes = f"it drove {driving} CPU games; started again, back after {back:.1f} s"
        windows[-1] = (*windows[-1][:2], notes)

        windows.append(("rolling restart of all 3 hosts (SIGTERM)", time.monotonic(), ""))
        notes = await _in_thread(lambda: _rolling_restart(cluster))
        windows[-1] = (windows[-1][0], windows[-1][1], notes)
        await asyncio.sleep(observe)

        windows.append(("PostgreSQL restarted (pg_ctl restart -m fast)", time.monotonic(), ""))
        await _in_thread(cluster.restart_postgres)
        await asyncio.sleep(observe)
        finished = time.monotonic()
        await crowd.stop_playing()
        await asyncio.sleep(PUSH_WAIT_SECONDS)  # the last actions' pushes arrive
    finally:
        await crowd.stop()
    logs = stored_logs(cluster, [table.number for table in crowd.tables])
    ends = [start for _name, start, _notes in windows[1:]] + [finished]
    return [
        audit(name, crowd.record, logs, (start, stop), notes)
        for (name, start, notes), stop in zip(windows, ends, strict=True)
    ]


def table_text(figures: list[FaultFigures]) -> str:
    """The fault table as Markdown."""
    head = (
        "| fault | acknowledged | lost | doubled | worst stream gap | worst CPU stall"
        " | worst push | never pushed | unanswered |\n|---|---|---|---|---|---|---|---|---|"
    )
    rows = [
        f"| {f.fault} | {f.acknowledged} | {f.lost} | {f.doubled} | {f.worst_stream_gap_s} s"
        f" | {f.worst_cpu_stall_s} s | {f.worst_push_s} s | {f.never_pushed} | {f.unanswered} |"
        for f in figures
    ]
    return "\n".join([head, *rows])


def as_json(figures: list[FaultFigures]) -> list[dict[str, Any]]:
    return [asdict(f) for f in figures]
