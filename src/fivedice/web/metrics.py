"""What a server counts for Prometheus (`GET /metrics`, text format, `prometheus-client`).

Every metric is named ``fivedice_...``; labels are small closed sets (never a game id, a
token, a session id, a path or a seed). The table with every metric is in the README
("Watching a server"):

- actions: `fivedice_actions_total` {kind, outcome} and `fivedice_action_seconds` {kind}
  (from the service receiving an action to its commit);
- pushes: `fivedice_pushes_total` {stream} (events written to streams after their first
  answer) and `fivedice_push_delay_seconds` {origin} (from the commit, ``local``, or the
  notice's arrival, ``remote``, to the write to the stream);
- gauges: `fivedice_open_streams`, `fivedice_cpu_moves_waiting`, `fivedice_solves_queued`;
- the database: `fivedice_database_errors_total` {kind},
  `fivedice_database_retries_total` {where};
- requests: `fivedice_http_requests_total` {method, route, status} and
  `fivedice_http_request_seconds` {route}, by route template.

**Several workers.** `fivedice serve` gives every server run a directory of its own in
``$PROMETHEUS_MULTIPROC_DIR`` (made before the workers start, removed when the server
ends): each worker writes its values there (prometheus-client's multiprocess mode) and
whichever worker answers a scrape adds them all up (gauges: the sum over the living workers;
the files of workers that died are dropped at each scrape). Without the variable (a single
process, the tests) the process's own registry is served, with its process metrics.

**Who may read it.** The addresses of `metrics_allowed` (`--metrics-allow`,
``$FIVEDICE_METRICS_ALLOW``): by default loopback and the trusted proxies of
``--forwarded-allow-ips``; ``*`` opens it to everyone. The address is the client's as
uvicorn sees it (a request forwarded by a trusted proxy counts as its original client).
Others get 403. Like the probes it is answered before sessions and rates.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import ipaddress
import os
import re
import time
from collections.abc import Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from fivedice.core.errors import N_, FivediceError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_ALLOW_ENV = "FIVEDICE_METRICS_ALLOW"
METRICS_PATH = "/metrics"
LOOPBACK = "127.0.0.0/8, ::1"
CONTENT_TYPE = CONTENT_TYPE_LATEST

MULTIPROCESS_DIRECTORY = os.environ.get(MULTIPROC_ENV) or None
"""The directory of multiprocess mode, as prometheus-client decided it when this module
imported it (a process that set the variable later keeps its own registry)."""

ACTION_KINDS = frozenset({"roll", "hold", "release", "dice", "score", "undo"})
CPU = "cpu"  # the kind of a CPU seat's step
CPU_STEP = "cpu step"  # where a step is done again: a CPU step after a failure
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter(
    "fivedice_actions", "Game actions tried, by kind and outcome.", ["kind", "outcome"]
)
ACTION_SECONDS = Histogram(
    "fivedice_action_seconds",
    "From the service receiving an action to its commit (actions done).",
    ["kind"],
    buckets=_FAST,
)
PUSHES = Counter("fivedice_pushes", "Events written to event streams.", ["stream"])
PUSH_DELAY = Histogram(
    "fivedice_push_delay_seconds",
    "From the commit of a change (local) or its notice's arrival (remote) to its write to a"
    " stream.",
    ["origin"],
    buckets=_FAST,
)
OPEN_STREAMS = Gauge("fivedice_open_streams", "Event streams open.", multiprocess_mode="livesum")
CPU_MOVES_WAITING = Gauge(
    "fivedice_cpu_moves_waiting",
    "Games whose CPU seat is to move and whose step is not saved yet.",
    multiprocess_mode="livesum",
)
SOLVES_QUEUED = Gauge(
    "fivedice_solves_queued",
    "Strategy table solves running or waiting for the solving slot.",
    multiprocess_mode="livesum",
)
DATABASE_ERRORS = Counter("fivedice_database_errors", "Database errors met, by kind.", ["kind"])
DATABASE_RETRIES = Counter(
    "fivedice_database_retries", "Database steps done again, by where.", ["where"]
)
REQUESTS = Counter(
    "fivedice_http_requests", "HTTP requests answered.", ["method", "route", "status"]
)
REQUEST_SECONDS = Histogram(
    "fivedice_http_request_seconds",
    "From a request's arrival to the end of its answer's head.",
    ["route"],
    buckets=_FAST,
)


class MetricsAllowError(FivediceError):
    """`--metrics-allow` is not a list of addresses and networks."""


def metrics_networks(text: str) -> tuple[Network, ...] | None:
    """The networks of a comma-separated list of addresses and networks (None: ``*``,
    every address).

    Raises:
        MetricsAllowError: an item is neither.

    >>> metrics_networks("127.0.0.1, 10.0.0.0/8")
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    >>> metrics_networks("*") is None
    True
    """
    networks = []
    for item in text.split(","):
        item = item.strip()
        if item == "*":
            return None
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise MetricsAllowError(
                N_("not an address or a network: {item!r} (e.g. 127.0.0.1, 10.0.0.0/8 or *)"),
                item=item,
            ) from None
    return tuple(networks)


def default_metrics_allow(forwarded_allow_ips: str) -> str:
    """Loopback and the trusted proxies' addresses (those of them that are addresses).

    >>> default_metrics_allow("127.0.0.1, 10.1.0.0/16, unix:")
    '127.0.0.0/8, ::1, 127.0.0.1, 10.1.0.0/16'
    """
    items = [LOOPBACK]
    for item in forwarded_allow_ips.split(","):
        item = item.strip()
        with contextlib.suppress(ValueError):
            if item and item != "*":
                ipaddress.ip_network(item, strict=False)
                items.append(item)
    return ", ".join(items)


def action_kind(text: str) -> str:
    """The kind of an action by its notation's verb (a closed set: never the text itself).

    >>> action_kind("hold 1 3"), action_kind("score chance"), action_kind("dance")
    ('hold', 'score', 'other')
    """
    verb = text.strip().split(" ", 1)[0].lower()
    return verb if verb in ACTION_KINDS else "other"


class ActionTiming:
    """The action of a `timed_action` block; `not_done()` when it turned out nothing was
    tried (an answer "ask again in a thread"): then nothing is counted."""

    def __init__(self) -> None:
        self.counted = True

    def not_done(self) -> None:
        self.counted = False


@contextlib.contextmanager
def timed_action(kind: str) -> Iterator[ActionTiming]:
    """Counts the action of the block as done (and its time), refused (a `ValueError`: the
    typed errors of fivedice) or failed (anything else); `kind` from `action_kind`."""
    timing = ActionTiming()
    began = time.perf_counter()
    try:
        yield timing
    except ValueError:
        ACTIONS.labels(kind, "refused").inc()
        raise
    except BaseException:
        ACTIONS.labels(kind, "failed").inc()
        raise
    if timing.counted:
        done, seconds = _done_metrics(kind)
        done.inc()
        seconds.observe(time.perf_counter() - began)


@functools.cache
def _done_metrics(kind: str) -> tuple[Counter, Histogram]:
    """The done-actions counter and the seconds of one kind of action (a handful of kinds),
    looked up once: `labels` costs more than counting."""
    return ACTIONS.labels(kind, "done"), ACTION_SECONDS.labels(kind)


def count_database_error(kind: str) -> None:
    """A database error of `kind` (unavailable, conflict, damaged, other)."""
    DATABASE_ERRORS.labels(kind).inc()


def count_database_retry(where: str) -> None:
    """A database step done again (`where`: connection, listener, cpu step)."""
    DATABASE_RETRIES.labels(where).inc()


def change_solves_queued(delta: int) -> None:
    SOLVES_QUEUED.inc(delta)


def scrape() -> bytes:
    """The metrics now, in Prometheus' text format: every worker's, in multiprocess mode."""
    directory = MULTIPROCESS_DIRECTORY
    if not directory:
        return generate_latest(REGISTRY)
    _forget_dead_workers(directory)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


_PID_OF_FILE = re.compile(r"_(\d+)\.db$")


def _forget_dead_workers(directory: str) -> None:
    """Drops the live gauges of workers that died (uvicorn restarts a dead worker without
    telling anyone): a dead worker's open streams are not open any more."""
    for path in glob.glob(os.path.join(directory, "gauge_live*_*.db")):
        found = _PID_OF_FILE.search(path)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
        except PermissionError:
            pass  # (alive, someone else's: not ours to judge)
