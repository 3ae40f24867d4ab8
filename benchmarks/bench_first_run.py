"""A new player's first commands, printed as JSON: the first `fivedice advise` and the first
`fivedice simulate --games 1000` on an empty cache, without and with `fivedice warm` first
(what `make install` / `make play` run), each the CPU time (user + system of the finished
child), wall time and peak memory; and the warm-up's own cost.

Usage: `.venv/bin/python benchmarks/bench_first_run.py [--modes cold warm]`

Each mode starts from empty directories for the tables (`$FIVEDICE_CACHE_DIR`) and for numba's
compiled kernels (`$NUMBA_CACHE_DIR`): a fresh clone's state. The issue's targets: first advise
≤ 1 s and first simulate of 1000 games ≤ 3 s of CPU after the warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from bench_startup import HERE, run_once

ADVISE = ["advise", "--dice", "11666", "--rolls-left", "2"]
SIMULATE = ["simulate", "--games", "1000", "--json"]


def _rounded(figures: dict[str, float]) -> dict[str, float]:
    return {name: round(value, 2) for name, value in figures.items()}


def measure(mode: str) -> dict[str, object]:
    """One mode on fresh directories: `cold` (nothing prepared) or `warm` (`fivedice warm`)."""
    with tempfile.TemporaryDirectory(prefix="fivedice-first-") as scratch:
        environment = {
            **os.environ,
            "FIVEDICE_CACHE_DIR": str(Path(scratch) / "tables"),
            "NUMBA_CACHE_DIR": str(Path(scratch) / "numba"),
        }
        result: dict[str, object] = {"mode": mode}
        if mode == "warm":
            result["warm"] = _rounded(run_once(HERE, ["warm"], environment))
        result["first_advise"] = _rounded(run_once(HERE, ADVISE, environment))
        result["second_advise"] = _rounded(run_once(HERE, ADVISE, environment))
        result["first_simulate_1000"] = _rounded(run_once(HERE, SIMULATE, environment))
        result["second_simulate_1000"] = _rounded(run_once(HERE, SIMULATE, environment))
        sizes = {
            path.name: path.stat().st_size
            for path in (Path(scratch) / "tables").glob("*")
            if path.is_file()
        }
        result["cache_files"] = sizes
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", nargs="+", default=["cold", "warm"], choices=["cold", "warm"])
    args = parser.parse_args()
    print(json.dumps([measure(mode) for mode in args.modes], indent=2))


if __name__ == "__main__":
    main()
