"""A fivedice cluster on this machine, its hosts Linux network namespaces.

    with Cluster.build(workdir) as cluster:      # root only; refuses clearly otherwise
        cluster.base_url                          # http://10.77.N.2:8080 (HAProxy)
        cluster.kill_host(0)                      # SIGKILL web host 1 (both workers)
        cluster.start_host(0)

Hosts (one namespace each, one veth into a bridge of the root namespace; nothing leaves the
machine, no forwarding is turned on): a PostgreSQL host (.10), three web hosts (.11–.13, each
`fivedice serve --workers 2`), a load-balancer host (.2, HAProxy with `deploy/haproxy.cfg`).
The root namespace is the players' host (.1 on the bridge). N is the first free third octet
of 10.77.0.0/16, picked under a lock so that two clusters (a test and a benchmark) never
share a network.

Everything is taken down by `close()` (the context manager calls it, also on an exception or
Ctrl+C): the processes it started (by their ids, then whatever is left inside its own
namespaces), the namespaces, the bridge and the veths, the PostgreSQL files. A cluster left
behind by a harness that was itself SIGKILLed is swept by the next one: its names carry the
owner's process id, and only those whose owner is gone are removed.

Also a command: `python -m tests.cluster.harness up` builds one and waits (Ctrl+C ends it);
`python -m tests.cluster.harness sweep` removes the leftovers of dead harnesses.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import httpx

from tests.support.postgres import postgres_bin

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"
PREFIX = "fdc"  # every namespace, bridge and veth of a harness: fdc<owner pid>...
LOCK = Path("/tmp/fivedice-cluster.lock")
PG_DIR_PREFIX = "fivedice-cluster-pg-"  # /tmp/fivedice-cluster-pg-<owner pid>-XXXX
WEB_PORT = 8000
LB_PORT = 8080
PG_PORT = 5432
HOSTS = 3
# What the balancer checks (and what a host is waited for): database reachable, migrations
# current, tables loaded (fivedice.web.health).
HEALTH_PATH = "/readyz"
# A loaded 2-core machine starts six workers slowly: 20-30 s at a load of 10-18 (niced),
# once more than 90 s at 18.
START_SECONDS = 120.0


class ClusterUnavailable(RuntimeError):
    """Namespaces cannot be made here (not root, no `ip netns`, no HAProxy or PostgreSQL)."""


class WaitCancelled(RuntimeError):
    """A wait of the harness (a host to answer) was cancelled: the cluster is being taken
    down, or the drill that waited passed its deadline (`Cluster.cancel_waits`)."""


def unavailable_reason() -> str | None:
    """Why a cluster cannot be built on this machine, or None when it can."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "building network namespaces needs root (ip netns)"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    if shutil.which("haproxy") is None:
        return "HAProxy is not installed (scripts/system-deps.sh installs it)"
    if postgres_bin() is None:
        return "PostgreSQL is not installed (scripts/system-deps.sh installs it)"
    probe = f"{PREFIX}{os.getpid()}probe"[:15]
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "delete", probe], capture_output=True)
    return None


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _namespace_pids(namespace: str) -> list[int]:
    listed = _ip("netns", "pids", namespace, check=False)
    return [int(pid) for pid in listed.stdout.split()] if listed.returncode == 0 else []


def _remove_network(owner: int) -> None:
    """Takes down the namespaces (and whatever still runs inside them), the veths and the
    bridge of the harness with process id `owner`."""
    mine = re.compile(rf"^{PREFIX}{owner}(-|$|[a-z])")
    for line in _ip("netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if not mine.match(name):
            continue
        for _attempt in range(50):
            pids = _namespace_pids(name)
            if not pids:
                break
            for pid in pids:  # processes this harness started in its own namespace
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)
        _ip("netns", "delete", name, check=False)
    for line in _ip("-o", "link", "show", check=False).stdout.splitlines():
        link = line.split(":")[1].strip().split("@")[0] if ":" in line else ""
        if mine.match(link):
            _ip("link", "delete", link, check=False)


def sweep() -> list[int]:
    """Removes what harnesses that are gone (SIGKILLed) left behind; returns their ids."""
    owners = set()
    names = [line.split()[0] for line in _ip("netns", "list", check=False).stdout.splitlines()]
    names += [
        line.split(":")[1].strip().split("@")[0]
        for line in _ip("-o", "link", "show", check=False).stdout.splitlines()
        if ":" in line
    ]
    for name in names:
        found = re.match(rf"^{PREFIX}(\d+)", name)
        if found:
            owners.add(int(found.group(1)))
    for directory in Path("/tmp").glob(f"{PG_DIR_PREFIX}*-*"):
        found = re.match(rf"^{PG_DIR_PREFIX}(\d+)-", directory.name)
        if found:
            owners.add(int(found.group(1)))
    gone = sorted(owner for owner in owners if not _alive(owner))
    for owner in gone:
        _remove_network(owner)  # (its PostgreSQL ran in its namespace: ended with it)
        for directory in Path("/tmp").glob(f"{PG_DIR_PREFIX}{owner}-*"):
            shutil.rmtree(directory, ignore_errors=True)
    return gone


def _used_octets() -> set[int]:
    shown = _ip("-o", "-4", "addr", "show", check=False).stdout
    return {int(octet) for octet in re.findall(r"inet 10\.77\.(\d+)\.", shown)}


@dataclass
class Process:
    """A process the harness started (in its own session: a signal reaches its workers too)."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def signal_group(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, number)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM, then SIGKILL after `timeout`; waits for it."""
        if self.popen.poll() is None:
            self.signal_group(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.signal_group(signal.SIGKILL)
                self.popen.wait(timeout=10)
        self.signal_group(signal.SIGKILL)  # a worker its supervisor left behind


def file_limit() -> int:
    """The most files a process here may open (the hard limit; the soft one is raised)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return 1 << 20 if hard == resource.RLIM_INFINITY else int(hard)


def _raise_file_limit(files: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, min(files, hard if hard != resource.RLIM_INFINITY else files))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))


@dataclass
class Cluster:
    """A built cluster: its addresses, hosts and processes (see the module's docstring)."""

    workdir: Path
    owner: int
    octet: int
    web_env: dict[str, str] = field(default_factory=dict)
    files: int = 65536
    haproxy_config: Path = HAPROXY_CONFIG
    src: Path = ROOT / "src"  # the fivedice the web hosts run
    web: list[Process | None] = field(default_factory=lambda: [None] * HOSTS)
    balancer: Process | None = None
    pg_dir: Path | None = None
    closed: bool = False
    # Set to end every wait of the harness at once (`cancel_waits`): a drill past its
    # deadline leaves no thread behind polling a host for minutes.
    waits_cancelled: threading.Event = field(default_factory=threading.Event)

    # --- names and addresses ---------------------------------------------------------------

    def address(self, last: int) -> str:
        return f"10.77.{self.octet}.{last}"

    @property
    def client_address(self) -> str:
        return self.address(1)

    @property
    def balancer_address(self) -> str:
        return self.address(2)

    @property
    def pg_address(self) -> str:
        return self.address(10)

    def web_address(self, index: int) -> str:
        return self.address(11 + index)

    @property
    def base_url(self) -> str:
        return f"http://{self.balancer_address}:{LB_PORT}"

    @property
    def database_url(self) -> str:
        return f"postgresql+psycopg://postgres@{self.pg_address}:{PG_PORT}/postgres"

    @property
    def psycopg_url(self) -> str:
        return self.database_url.replace("postgresql+psycopg", "postgresql")

    def namespace(self, host: str) -> str:
        return f"{PREFIX}{self.owner}-{host}"

    @property
    def bridge(self) -> str:
        return f"{PREFIX}{self.owner}br"

    # --- building ------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        workdir: Path,
        *,
        web_env: dict[str, str] | None = None,
        files: int = 0,
        haproxy_config: Path = HAPROXY_CONFIG,
        src: Path = ROOT / "src",
    ) -> Cluster:
        """Builds the network, starts PostgreSQL, the three web hosts and HAProxy.

        Raises ClusterUnavailable (nothing made) when namespaces cannot be made here; on any
        other failure everything made so far is taken down before the error propagates.
        """
        reason = unavailable_reason()
        if reason is not None:
            raise ClusterUnavailable(reason)
        sweep()
        files = min(files or 65536, file_limit())
        _raise_file_limit(files)
        workdir.mkdir(parents=True, exist_ok=True)
        LOCK.touch(exist_ok=True)
        with open(LOCK) as lock:  # the octet is picked and taken (the bridge's address) at once
            fcntl.flock(lock, fcntl.LOCK_EX)
            used = _used_octets()
            octet = next(n for n in range(0, 255) if n not in used)
            cluster = cls(
                workdir, os.getpid(), octet, dict(web_env or {}), files, haproxy_config, src
            )
            try:
                cluster._network()
            except BaseException:
                cluster.close()
                raise
        try:
            cluster._start_postgres()
            cluster.migrate()
            for index in range(HOSTS):
                cluster.start_host(index, wait=False)
            for index in range(HOSTS):
                cluster.wait_host(index)
            cluster._start_balancer()
        except BaseException:
            cluster.close()
            raise
        return cluster

    def _network(self) -> None:
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.client_address}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        hosts = {"lb": 2, "pg": 10, **{f"web{i + 1}": 11 + i for i in range(HOSTS)}}
        for host, last in hosts.items():
            namespace, outside = self.namespace(host), f"{PREFIX}{self.owner}{host}"
            inside = f"{PREFIX}{self.owner}{host}i"
            _ip("netns", "add", namespace)
            _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            _ip("link", "set", outside, "master", self.bridge)
            _ip("link", "set", outside, "up")
            _ip("link", "set", inside, "netns", namespace)
            inns = ("-n", namespace)
            _ip(*inns, "link", "set", inside, "name", "eth0")
            _ip(*inns, "addr", "add", f"{self.address(last)}/24", "dev", "eth0")
            _ip(*inns, "link", "set", "eth0", "up")
            _ip(*inns, "link", "set", "lo", "up")

    def _spawn(self, host: str, name: str, command: list[str], env: dict[str, str]) -> Process:
        log = self.workdir / f"{name}.log"
        files = self.files

        def limits() -> None:  # in the child: as many files as the streams need
            _raise_file_limit(files)

        with open(log, "ab") as out:
            popen = subprocess.Popen(
                ["ip", "netns", "exec", self.namespace(host), *command],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=limits,  # the harness's children are started from one thread
            )
        return Process(name, popen, log)

    # --- PostgreSQL ------------------------------------------------------------------------

    def _pg(self, tool: str, *args: str, timeout: float = 120) -> None:
        bin_dir = postgres_bin()
        assert bin_dir is not None
        command = ["ip", "netns", "exec", self.namespace("pg"), "runuser", "-u", "postgres",
                   "--", str(bin_dir / tool), *args]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            log = self.pg_dir / "server.log" if self.pg_dir else None
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{tool} failed: {done.stderr.strip()}\n{tail}")

    def _start_postgres(self) -> None:
        self.pg_dir = Path(tempfile.mkdtemp(prefix=f"{PG_DIR_PREFIX}{self.owner}-", dir="/tmp"))
        os.chmod(self.pg_dir, 0o755)
        shutil.chown(self.pg_dir, "postgres", "postgres")
        data = self.pg_dir / "data"
        self._pg("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                 "--no-sync")  # fmt: skip
        with open(data / "pg_hba.conf", "a") as hba:  # the hosts of this cluster's network
            hba.write(f"host all all 10.77.{self.octet}.0/24 trust\n")
        self.start_postgres()

    def migrate(self) -> None:
        """Migrates the database once, before the hosts start (three at once would race)."""
        from fivedice.service.games import GameService

        GameService.open(self.database_url).store.close()

    def start_postgres(self) -> None:
        """Starts the PostgreSQL host's server (again) and waits until it accepts."""
        assert self.pg_dir is not None
        options = (
            f"-p {PG_PORT} -k {self.pg_dir} -c listen_addresses={self.pg_address}"
            " -c max_connections=300 -c fsync=off -c full_page_writes=off"
            " -c synchronous_commit=off"
        )
        self._pg("pg_ctl", "-D", str(self.pg_dir / "data"), "-l", str(self.pg_dir / "server.log"),
                 "-w", "-t", "60", "-o", options, "start")  # fmt: skip

    def stop_postgres(self, mode: str = "fast") -> None:
        """Stops the server (`fast`: sessions ended, committed work kept)."""
        assert self.pg_dir is not None
        self._pg("pg_ctl", "-D", str(self.pg_dir / "data"), "-m", mode, "-w", "stop")

    def restart_postgres(self) -> None:
        self.stop_postgres("fast")
        self.start_postgres()

    def postgres_pids(self) -> list[int]:
        return _namespace_pids(self.namespace("pg"))

    # --- web hosts --------------------------------------------------------------------------

    def start_host(self, index: int, *, wait: bool = True) -> None:
        """Starts web host `index` (0-based): `fivedice serve --workers 2`."""
        host = f"web{index + 1}"
        data_home = self.workdir / host
        data_home.mkdir(exist_ok=True)
        env = {
            **os.environ,
            "PYTHONPATH": str(self.src),
            "XDG_DATA_HOME": str(data_home),  # each host its own disk; secrets from the env
            **self.web_env,
        }
        command = [
            sys.executable, "-m", "fivedice.cli", "serve",
            "--host", self.web_address(index), "--port", str(WEB_PORT), "--workers", "2",
            "--db", self.database_url,
            "--forwarded-allow-ips", self.balancer_address,
            "--public-url", self.base_url,
        ]  # fmt: skip
        self.web[index] = self._spawn(host, host, command, env)
        if wait:
            self.wait_host(index)

    def host_url(self, index: int) -> str:
        return f"http://{self.web_address(index)}:{WEB_PORT}"

    def wait_host(self, index: int, timeout: float = START_SECONDS) -> None:
        """Waits until web host `index` answers its health check."""
        process = self.web[index]
        assert process is not None
        deadline = time.monotonic() + timeout
        while True:
            if process.popen.poll() is not None:
                raise RuntimeError(
                    f"web host {index + 1} exited:\n{process.log.read_text()[-3000:]}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.host_url(index) + HEALTH_PATH, timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"web host {index + 1} did not answer {HEALTH_PATH} in {timeout:.0f} s"
                    f" (load average {os.getloadavg()[0]:.1f}); its log:\n"
                    + process.log.read_text(errors="replace")[-3000:]
                )
            if self.waits_cancelled.wait(0.2):
                raise WaitCancelled(f"no longer waiting for web host {index + 1} to start")

    def kill_host(self, index: int) -> None:
        """SIGKILL to the whole host: its supervisor and both workers at once."""
        process = self.web[index]
        assert process is not None
        process.signal_group(signal.SIGKILL)
        process.popen.wait(timeout=10)
        for pid in _namespace_pids(self.namespace(f"web{index + 1}")):
            with contextlib.suppress(ProcessLookupError):  # what it started, nothing else
                os.kill(pid, signal.SIGKILL)

    def stop_host(self, index: int, timeout: float = 30.0) -> bool:
        """SIGTERM to the host's supervisor (which stops its workers) and waits; SIGKILL to
        the whole host after `timeout`. Returns whether it stopped by itself."""
        process = self.web[index]
        assert process is not None
        gentle = True
        if process.popen.poll() is None:
            process.popen.send_signal(signal.SIGTERM)
            try:
                process.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                gentle = False
        deadline = time.monotonic() + 2  # (its helpers, e.g. multiprocessing's tracker)
        while self.worker_pids(index) and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.worker_pids(index):  # the supervisor is gone; nothing of it may linger
            gentle = False
            self.kill_host(index)
        return gentle

    def worker_pids(self, index: int) -> list[int]:
        """The web host's processes (its supervisor and workers)."""
        return _namespace_pids(self.namespace(f"web{index + 1}"))

    # --- the balancer ----------------------------------------------------------------------

    def _start_balancer(self) -> None:
        env = {
            **os.environ,
            "FIVEDICE_LB_BIND": f"{self.balancer_address}:{LB_PORT}",
            "FIVEDICE_LB_MAXCONN": str(self.files // 2 - 200),
            "FIVEDICE_HEALTH_PATH": HEALTH_PATH,
            **{f"FIVEDICE_WEB{i + 1}": f"{self.web_address(i)}:{WEB_PORT}" for i in range(HOSTS)},
        }
        check = subprocess.run(
            ["haproxy", "-c", "-q", "-f", str(self.haproxy_config)],
            env=env,
            capture_output=True,
            text=True,
        )
        if check.returncode != 0:
            raise RuntimeError(f"deploy/haproxy.cfg: {check.stdout}{check.stderr}")
        self.balancer = self._spawn(
            "lb", "haproxy", ["haproxy", "-db", "-f", str(self.haproxy_config)], env
        )
        deadline = time.monotonic() + 30
        while True:
            if self.balancer.popen.poll() is not None:
                raise RuntimeError(f"HAProxy exited:\n{self.balancer.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base_url + HEALTH_PATH, timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("HAProxy did not answer in 30 s")
            time.sleep(0.1)

    # --- taking it down --------------------------------------------------------------------

    def cancel_waits(self) -> None:
        """Ends every wait of the harness, now and later (in any thread): `WaitCancelled`."""
        self.waits_cancelled.set()

    def close(self) -> None:
        """Stops everything and removes the network and files (safe to call twice). A second
        Ctrl+C or SIGTERM while it runs is held back: half a cleanup would leave things."""
        self.cancel_waits()
        if self.closed:
            return
        self.closed = True
        with _signals_held():
            running = [p for p in [self.balancer, *self.web] if p is not None]
            for process in running:  # all at once, then wait: a host stops in seconds
                process.signal_group(signal.SIGTERM)
            deadline = time.monotonic() + 10
            for process in running:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
                process.signal_group(signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.popen.wait(timeout=5)
            if self.pg_dir is not None:
                with contextlib.suppress(Exception):
                    self.stop_postgres("immediate")
            _remove_network(self.owner)
            if self.pg_dir is not None:
                shutil.rmtree(self.pg_dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP ignored for the block (in the main thread only)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM (and SIGHUP) raise KeyboardInterrupt here, so `finally` blocks take the
    cluster down when the harness itself is told to stop."""

    def interrupt(_number: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = {
        number: signal.signal(number, interrupt) for number in (signal.SIGTERM, signal.SIGHUP)
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def default_web_env() -> dict[str, str]:
    """What every web host of a cluster shares: the secret and record key (one site), and
    the per-client limits lifted (every simulated player comes from the one client host)."""
    return {
        "FIVEDICE_SECRET": uuid.uuid4().hex,
        "FIVEDICE_RECORD_KEY": uuid.uuid4().hex + uuid.uuid4().hex,
        "FIVEDICE_RATE_GAMES": "1000000/minute",
        "FIVEDICE_RATE_ROOMS": "1000000/minute",
        "FIVEDICE_STREAMS_PER_CLIENT": "1000000",
        "FIVEDICE_CONNECTIONS_PER_CLIENT": "1000000",
    }


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "up"
    if command == "sweep":
        print(f"removed the leftovers of harnesses {sweep()}")
        return 0
    if command != "up":
        print("usage: python -m tests.cluster.harness [up|sweep]", file=sys.stderr)
        return 2
    with terminated_as_interrupt(), tempfile.TemporaryDirectory(prefix="fivedice-cluster-") as tmp:
        try:
            with Cluster.build(Path(tmp), web_env=default_web_env()) as cluster:
                print(f"fivedice cluster at {cluster.base_url} (database {cluster.database_url})")
                print("Ctrl+C takes it down.")
                while True:
                    time.sleep(3600)
        except ClusterUnavailable as error:
            print(f"cannot build the cluster: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
