"""The command line's cost as whole processes, printed as JSON: `fivedice advise` on a cached
table, `fivedice --help` and `fivedice play --plain` (to the end of its empty input), each the
CPU time (user + system, as `/usr/bin/time -f %U+%S` reports it), wall time and peak memory of
the finished child.

Usage: `.venv/bin/python benchmarks/bench_startup.py [--runs N] [--warmup N]
[--against OTHER/src]`

Each command runs `--runs` times after `--warmup` runs not counted; with `--against` the same
command of another tree runs in turn with this one (A B A B ...), so that both meet the same
load, and the ratio is taken run by run (its median is the figure to read on a shared machine).
The warm-up runs write the bytecode into a private cache (`PYTHONPYCACHEPREFIX`, the standard
library's too), as an installed package has it; `play --plain` writes to a throwaway SQLite
file and signs with a throwaway record key. The table of the classic rules must be in the
cache (`fivedice solve` once).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"
COMMANDS = {
    "advise": ["advise", "--dice", "11666", "--rolls-left", "2"],
    "help": ["--help"],
    "play_plain": ["play", "--plain"],
}


def run_once(source: Path, args: list[str], environment: dict[str, str]) -> dict[str, float]:
    """One child process: its CPU seconds, wall seconds and peak MiB (`wait4`'s accounting)."""
    env = {**environment, "PYTHONPATH": str(source)}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "fivedice.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{args} exited with {child.returncode} ({source})")
    return {
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "peak_mib": usage.ru_maxrss / 1024,
    }


def measure(runs: int, warmup: int, against: Path | None) -> dict[str, object]:
    sources = [HERE] + ([against] if against is not None else [])
    with tempfile.TemporaryDirectory(prefix="fivedice-startup-") as scratch:
        environment = {
            **os.environ,
            "PYTHONPYCACHEPREFIX": str(Path(scratch) / "pycache"),
            "FIVEDICE_DATABASE_URL": f"sqlite:///{Path(scratch) / 'games.sqlite3'}",
            "FIVEDICE_RECORD_KEY": "5eed" * 16,  # not the user's own key file
            "FIVEDICE_LANG": "en",
        }
        environment.pop("PYTHONDONTWRITEBYTECODE", None)  # the warm-up runs write it
        report: dict[str, object] = {"runs": runs, "load_before": os.getloadavg()[0]}
        for name, args in COMMANDS.items():
            figures: dict[str, list[dict[str, float]]] = {str(s): [] for s in sources}
            for index in range(warmup + runs):
                for source in sources:
                    result = run_once(source, args, environment)
                    if index >= warmup:
                        figures[str(source)].append(result)
            report[name] = _summary(figures, sources)
        report["load_after"] = os.getloadavg()[0]
    return report


def _summary(figures: dict[str, list[dict[str, float]]], sources: list[Path]) -> dict[str, object]:
    summary: dict[str, object] = {}
    for label, source in zip(("this", "against"), sources, strict=False):
        runs = figures[str(source)]
        summary[label] = {
            key: {
                "median": round(statistics.median(run[key] for run in runs), 3),
                "min": round(min(run[key] for run in runs), 3),
                "max": round(max(run[key] for run in runs), 3),
            }
            for key in ("cpu", "wall", "peak_mib")
        }
    if len(sources) == 2:
        pairs = zip(figures[str(sources[0])], figures[str(sources[1])], strict=True)
        summary["cpu_ratio_median"] = round(
            statistics.median(a["cpu"] / b["cpu"] for a, b in pairs), 3
        )
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--warmup", type=int, default=2, help="at least 1: it compiles")
    parser.add_argument("--against", type=Path, default=None, help="another tree's src")
    args = parser.parse_args()
    print(json.dumps(measure(args.runs, max(args.warmup, 1), args.against), indent=2))


if __name__ == "__main__":
    main()
