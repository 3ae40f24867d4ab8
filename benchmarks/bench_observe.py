"""What watching a server costs per request: the `Observe` middleware (request id, request
metrics, the JSON access log line) around a small Starlette app, against the bare app in the
same run; once with prometheus-client in one process, once in multiprocess mode (what
`fivedice serve --workers N` uses: values in memory-mapped files). Requests are ASGI calls in
one event loop (no sockets), so the figure is the middleware's own CPU time.

    .venv/bin/python benchmarks/bench_observe.py [--requests N] [--rounds N]

Prints JSON: microseconds per request (best round) bare and observed, the difference, for
each mode.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from typing import Any


def measure(requests: int, rounds: int) -> dict[str, Any]:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from fivedice.web.logs import JsonFormatter
    from fivedice.web.metrics import MULTIPROCESS_DIRECTORY
    from fivedice.web.observe import Observe

    async def game(request: Any) -> JSONResponse:
        return JSONResponse({"id": request.path_params["game_id"], "version": 3})

    bare = Starlette(routes=[Route("/api/games/{game_id}", game)])
    observed = Observe(bare, game_number=lambda public: int(public.split("-")[0]), metrics_from=())
    handler = logging.StreamHandler(open(os.devnull, "w"))  # noqa: SIM115 (kept for the run)
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.INFO)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/games/12-0123456789abcdef0123",
        "raw_path": b"/api/games/12-0123456789abcdef0123",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"x-request-id", b"bench-1")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_message: dict[str, Any]) -> None:
        return None

    async def run(app: Any) -> float:
        began = time.perf_counter()
        for _ in range(requests):
            await app(dict(scope), receive, send)
        return (time.perf_counter() - began) / requests * 1e6

    async def rounds_of() -> tuple[float, float]:
        best_bare = best_observed = float("inf")
        for _ in range(rounds):  # (taking turns: a busy moment hits both alike)
            best_bare = min(best_bare, await run(bare))
            best_observed = min(best_observed, await run(observed))
        return best_bare, best_observed

    bare_us, observed_us = asyncio.run(rounds_of())
    return {
        "mode": "multiprocess" if MULTIPROCESS_DIRECTORY else "one process",
        "bare_us_per_request": round(bare_us, 1),
        "observed_us_per_request": round(observed_us, 1),
        "observe_overhead_us": round(observed_us - bare_us, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.requests, args.rounds)))
        return
    results = []
    for multiprocess in (False, True):
        env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
        with tempfile.TemporaryDirectory(prefix="bench-observe-") as directory:
            if multiprocess:
                env["PROMETHEUS_MULTIPROC_DIR"] = directory  # (before prometheus-client loads)
            command = [
                sys.executable, __file__, "--one",
                "--requests", str(args.requests), "--rounds", str(args.rounds),
            ]  # fmt: skip
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            results.append(json.loads(done.stdout))
    print(
        json.dumps({"requests": args.requests, "rounds": args.rounds, "results": results}, indent=2)
    )


if __name__ == "__main__":
    main()
