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

A wait still open when the drill ends (a stream never back, a CPU that never moved) counts
until the end of the drill, not of its window: a CPU stuck for good shows as the whole time
since, never as the few seconds left in the last window. The drill waits for the last CPU
moves and pushes only as long as they take (at most `CPU_MOVING_SECONDS` and
`PUSH_WAIT_SECONDS`), so a clean run ends early and a stuck one is seen as stuck.

The whole drill has a deadline (`DRILL_SECONDS`): past it, `DrillTimeout` says what it was
waiting for and since when. Either way `diagnosis` writes down what is needed to find out
why: every game's last version seen and whether its CPU was to move, its stored log, who
holds its CPU lease, and each web host's log lines about it and its warnings.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import psycopg

from tests.cluster.harness import HOSTS, Cluster, WaitCancelled
from tests.cluster.players import Crowd, Record

CPU_DELAY_MS = 300  # the server's pace per CPU step in the drill
STOP_SECONDS = 10.0  # a host given SIGTERM is SIGKILLed if it has not stopped by then
PUSH_WAIT_SECONDS = 3.0  # after the last action, at most, for its push to reach the other stream
CPU_MOVING_SECONDS = 5.0  # a CPU to move moves within this (the bound)
STREAM_BACK_SECONDS = 3.0  # a broken stream is back within this (the bound)
# The drill's own deadline, from its first game made to its audit (the cluster's build and
# teardown are bounded by the harness). A clean run takes 30-60 s of it on a loaded machine;
# past it something waits for good, and DrillTimeout says what.
DRILL_SECONDS = 240.0


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
    worst_cpu_stall_at: str = ""  # which game waited longest for its CPU, from which version


def drill_environment() -> dict[str, str]:
    return {
        "FIVEDICE_CPU_DELAY_MS": str(CPU_DELAY_MS),
    }


def stored_logs(cluster: Cluster, games: list[int]) -> dict[int, dict[int, str]]:
    """Each game's stored actions: {game: {seq: action}}."""
    logs: dict[int, dict[int, str]] = {game: {} for game in games}
    with psycopg.connect(cluster.psycopg_url, connect_timeout=10) as connection:
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
    closed: float | None = None,
) -> FaultFigures:
    """One fault's figures (see the module's docstring); `closed`: when the drill stopped
    looking (a wait still open then counts until it; default the window's end)."""
    start, end = window
    closed = end if closed is None else max(closed, end)
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
        (gap.end if gap.end is not None else closed) - gap.start
        for gap in record.gaps
        if start <= gap.start < end
    ]
    stalls: list[tuple[float, str]] = []
    for (game, version), seen in record.first_seen.items():
        if not record.cpu_to_move.get((game, version)):
            continue
        after = record.first_seen.get((game, version + 1))
        if seen < end and (after is None or after > start):
            waited = (closed if after is None else after) - seen
            moved = "never moved" if after is None else "moved"
            stalls.append((waited, f"game {game} from version {version} ({moved})"))
    worst_stall = max(stalls, default=(0.0, ""))
    pushes = [delay for answered, delay in record.push_delays() if start <= answered < end]
    unanswered = sum(1 for *_rest, sent in record.unanswered if start <= sent < end)
    return FaultFigures(
        fault=name,
        acknowledged=len(acks),
        lost=lost,
        doubled=doubled,
        worst_stream_gap_s=round(max(gaps, default=0.0), 2),
        worst_cpu_stall_s=round(worst_stall[0], 2),
        worst_push_s=round(max((p for p in pushes if p is not None), default=0.0), 2),
        never_pushed=sum(1 for p in pushes if p is None),
        unanswered=unanswered,
        surprises=record.surprises,
        notes=notes,
        worst_cpu_stall_at=worst_stall[1],
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


class Progress:
    """What the drill is doing now, and since when (for `DrillTimeout` and the diagnosis);
    set from the drill's loop and from the threads that restart hosts."""

    def __init__(self) -> None:
        self.doing = "starting"
        self.since = time.monotonic()
        self.began = self.since

    def step(self, doing: str) -> None:
        self.doing, self.since = doing, time.monotonic()

    def __str__(self) -> str:
        now = time.monotonic()
        return (
            f"{self.doing} (for {now - self.since:.1f} s, {now - self.began:.1f} s into the drill)"
        )


class DrillTimeout(AssertionError):
    """The drill passed its deadline: what it was waiting for, and the diagnosis."""


async def _in_thread(work: Callable[[], Any]) -> Any:
    return await asyncio.to_thread(work)


def _rolling_restart(cluster: Cluster, progress: Progress) -> str:
    """SIGTERM each host in turn, wait for it to stop (SIGKILL after STOP_SECONDS), start it
    again and wait until it answers; says how each stopped."""
    how = []
    for index in range(HOSTS):
        if cluster.waits_cancelled.is_set():
            raise WaitCancelled("the rolling restart was cancelled")
        began = time.monotonic()
        progress.step(f"rolling restart: waiting for web host {index + 1} to stop (SIGTERM)")
        gentle = cluster.stop_host(index, timeout=STOP_SECONDS)
        took = time.monotonic() - began
        progress.step(f"rolling restart: waiting for web host {index + 1} to answer /readyz")
        cluster.start_host(index)
        how.append(
            f"host {index + 1} {'stopped' if gentle else 'SIGKILLed'} after {took:.1f} s,"
            f" back after {time.monotonic() - began:.1f} s"
        )
    return "; ".join(how)


async def _until(done: Callable[[], bool], seconds: float) -> bool:
    """Waits until `done()` (looked at every 50 ms), at most `seconds`; whether it is."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _cpu_to_move(record: Record, tables: list[int]) -> list[tuple[int, int]]:
    """The games whose newest version seen has a CPU to move: (game, version)."""
    newest: dict[int, int] = {}
    for game, version in record.first_seen:
        if game in tables and version > newest.get(game, -1):
            newest[game] = version
    return [(game, v) for game, v in newest.items() if record.cpu_to_move.get((game, v))]


def _all_pushed(record: Record) -> bool:
    return all(delay is not None for _answered, delay in record.push_delays())


async def drill(
    cluster: Cluster,
    *,
    tables: int = 8,
    settle: float = 2.0,
    observe: float = 3.0,
    deadline: float = DRILL_SECONDS,
    progress: Progress | None = None,
) -> tuple[list[FaultFigures], Crowd]:
    """Plays `tables` games through the balancer and runs the three faults (each followed by
    at least `observe` seconds of play); returns the fault table and the players (stopped;
    what they saw is their `record`, for `diagnosis`).

    Raises:
        DrillTimeout: the drill did not end within `deadline` seconds (with what it was
            waiting for, and the diagnosis).
    """
    progress = progress or Progress()
    crowd = Crowd(cluster.base_url, tables=tables, cpu=True, think_seconds=0.3)
    windows: list[tuple[str, float, str]] = []
    finished = closed = 0.0
    try:
        async with asyncio.timeout(deadline):
            progress.step(f"making {tables} games and opening their streams")
            await crowd.start()
            crowd.play()
            await asyncio.sleep(settle)

            progress.step("looking for the web host that drives the most CPU games")
            victim, driving = await _in_thread(lambda: _busiest_cpu_host(cluster))
            windows.append(
                (f"SIGKILL of web host {victim + 1} (both workers)", time.monotonic(), "")
            )
            began = time.monotonic()
            await _in_thread(lambda: cluster.kill_host(victim))
            # Started again at once (as systemd would), while the others carry the play;
            # its start (several seconds) is the window's time of play.
            progress.step(f"waiting for web host {victim + 1} to answer /readyz after its SIGKILL")
            restarted = asyncio.ensure_future(_in_thread(lambda: cluster.start_host(victim)))
            await asyncio.sleep(observe)
            await restarted
            back = time.monotonic() - began
            notes = f"it drove {driving} CPU games; started again, back after {back:.1f} s"
            windows[-1] = (*windows[-1][:2], notes)

            windows.append(("rolling restart of all 3 hosts (SIGTERM)", time.monotonic(), ""))
            notes = await _in_thread(lambda: _rolling_restart(cluster, progress))
            windows[-1] = (windows[-1][0], windows[-1][1], notes)
            progress.step("playing after the rolling restart")
            await asyncio.sleep(observe)

            windows.append(("PostgreSQL restarted (pg_ctl restart -m fast)", time.monotonic(), ""))
            progress.step("restarting PostgreSQL")
            await _in_thread(cluster.restart_postgres)
            progress.step("playing after the PostgreSQL restart")
            await asyncio.sleep(observe)
            finished = time.monotonic()
            progress.step("stopping the players")
            await crowd.stop_playing()
            # The CPUs finish their turns and the last pushes arrive: waited for only as
            # long as they take (a CPU that never moves is then seen waiting that long).
            numbers = [table.number for table in crowd.tables]
            progress.step("waiting for the last CPU moves, pushes and reconnections")
            await _until(lambda: not _cpu_to_move(crowd.record, numbers), CPU_MOVING_SECONDS + 0.5)
            await _until(
                lambda: (
                    _all_pushed(crowd.record)
                    and all(human.connected for table in crowd.tables for human in table.humans)
                ),
                PUSH_WAIT_SECONDS,
            )
            closed = time.monotonic()
    except TimeoutError:
        cluster.cancel_waits()  # (the threads still waiting for a host end now)
        message = f"the drill did not end within {deadline:.0f} s: it was {progress}"
        raise DrillTimeout(message + "\n" + diagnosis(cluster, crowd)) from None
    except BaseException:
        cluster.cancel_waits()  # (interrupted: asyncio.run waits for its threads to end)
        raise
    finally:
        await crowd.stop()
    logs = stored_logs(cluster, [table.number for table in crowd.tables])
    ends = [start for _name, start, _notes in windows[1:]] + [finished]
    figures = [
        audit(name, crowd.record, logs, (start, stop), notes, closed)
        for (name, start, notes), stop in zip(windows, ends, strict=True)
    ]
    return figures, crowd


def diagnosis(cluster: Cluster, crowd: Crowd, lines_per_host: int = 40) -> str:
    """What is needed to see why a drill failed: each game's newest version seen (and
    whether a CPU was to move, how long ago), its stored log's length, the worker that holds
    its CPU lease; then each web host's warnings and its lines about the games a CPU was to
    move in; HAProxy's last lines. Never raises (the database may be what is gone)."""
    record, now = crowd.record, time.monotonic()
    numbers = [table.number for table in crowd.tables]
    out = ["games (newest version seen; stored actions; CPU lease holder):"]
    stored: dict[int, dict[int, str]] = {}
    holders: dict[int, str] = {}
    try:
        stored = stored_logs(cluster, numbers)
        holders = _lease_holders(cluster)
    except Exception as error:  # (the database itself may be the trouble)
        out.append(f"  (the database could not be read: {error!r})")
    waiting = set(_cpu_to_move(record, numbers))
    for table in crowd.tables:
        game = table.number
        versions = [v for g, v in record.first_seen if g == game]
        newest = max(versions, default=-1)
        seen = record.first_seen.get((game, newest))
        ago = f", seen {now - seen:.1f} s ago" if seen is not None else ""
        cpu = " CPU TO MOVE" if (game, newest) in waiting else ""
        log = stored.get(game, {})
        out.append(
            f"  game {game} ({table.game_id}): version {newest}{cpu}{ago}; stored"
            f" {len(log)} actions; lease {holders.get(game, 'held by nobody')};"
            f" streams {['up' if h.connected else 'down' for h in table.humans]}"
        )
    stuck = {game for game, _version in waiting}
    for index in range(HOSTS):
        process = cluster.web[index]
        if process is None or not process.log.exists():
            continue
        lines = process.log.read_text(errors="replace").splitlines()
        about = re.compile(rf'"game":({"|".join(map(str, stuck)) or "-"})[,}}]')
        wanted = [
            line for line in lines if '"logger":"fivedice.access"' not in line or about.search(line)
        ]
        out.append(f"web host {index + 1} ({process.log}): last {lines_per_host} of"
                   f" {len(wanted)} lines that are not access lines of other games:")  # fmt: skip
        out.extend(f"  {line[:400]}" for line in wanted[-lines_per_host:])
    if cluster.balancer is not None and cluster.balancer.log.exists():
        tail = cluster.balancer.log.read_text(errors="replace").splitlines()[-15:]
        out.append("HAProxy, last lines:")
        out.extend(f"  {line[:300]}" for line in tail)
    return "\n".join(out)


def _lease_holders(cluster: Cluster) -> dict[int, str]:
    """Who holds each game's CPU lease: {game: "worker PID (web host N)"}."""
    from fivedice.store.pg_lease import LOCK_CLASS

    with psycopg.connect(cluster.psycopg_url, autocommit=True, connect_timeout=3) as connection:
        rows = connection.execute(
            "SELECT l.objid, a.application_name FROM pg_locks l JOIN pg_stat_activity a"
            " USING (pid) WHERE l.locktype = 'advisory' AND l.classid = %s AND l.granted",
            (LOCK_CLASS,),
        ).fetchall()
    hosts = {pid: index + 1 for index in range(HOSTS) for pid in cluster.worker_pids(index)}
    holders = {}
    for game, name in rows:
        pid = int(name.rsplit("-", 1)[1]) if name.startswith("fivedice-cpu-") else 0
        holders[int(game)] = f"worker {pid} (web host {hosts.get(pid, '?')})"
    return holders


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
