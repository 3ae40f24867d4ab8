"""The fair-dice attack of issue "trust at the public edge", before and after the two-step.

Prints one JSON object:

* `one_step` (before; still how a game without a commitment handle would be made): the
  server sees the client seed first, then draws server seeds until action 1 of the game
  rolls a Yahtzee. `tries` and `seconds` per forced Yahtzee (median and mean over
  `--forced` runs; expected tries 1296 = 6^4).
* `two_step` (now): the server seed is fixed, and its commitment handed out, before the
  client chooses its seed. The best a cheating server can do is grind a seed that forces a
  Yahtzee for the client seed it *guesses* ("" here); against `--clients` seeds chosen after
  the commitment, Yahtzees on action 1 come at the fair rate 1/1296 (0.077%). Changing the
  seed afterwards means a new commitment, which the client sees differ from the one it got.
* `api`: the two-step over the JSON API of an app in this process (a temporary SQLite file):
  the commitment drawn before the client seed equals the game's, and a second game with the
  same handle is refused (its status).

    .venv/bin/python benchmarks/bench_fair_dice.py [--forced 50] [--clients 200000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from fivedice.core.fairdice import HmacDice, commitment_of


def is_yahtzee(server_seed: bytes, client_seed: str) -> bool:
    return len(set(HmacDice(server_seed, (client_seed,), 1).roll(5))) == 1


def grind(client_seed: str, rng: random.Random) -> tuple[bytes, int]:
    """Server seeds drawn until action 1 rolls a Yahtzee for this client seed."""
    tries = 0
    while True:
        tries += 1
        seed = rng.randbytes(32)
        if is_yahtzee(seed, client_seed):
            return seed, tries


def one_step(runs: int, rng: random.Random) -> dict[str, object]:
    tries, seconds = [], []
    for run in range(runs):
        client_seed = f"client seed {run}"  # sent with the request that draws the server seed
        began = time.perf_counter()
        _, count = grind(client_seed, rng)
        seconds.append(time.perf_counter() - began)
        tries.append(count)
    return {
        "forced_yahtzees": runs,
        "tries_median": statistics.median(tries),
        "tries_mean": round(statistics.fmean(tries), 1),
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_mean": round(statistics.fmean(seconds), 4),
    }


def two_step(clients: int, rng: random.Random) -> dict[str, object]:
    committed, tries = grind("", rng)  # the cheat's best guess of the client's seed
    commitment = commitment_of(committed)
    yahtzees = sum(is_yahtzee(committed, f"{rng.getrandbits(64):x}") for _ in range(clients))
    return {
        "grinding_tries_for_the_guess": tries,
        "client_seeds_after_the_commitment": clients,
        "yahtzees_on_action_1": yahtzees,
        "rate": round(yahtzees / clients, 6),
        "fair_rate": round(1 / 1296, 6),
        "commitment_unchanged": commitment == commitment_of(committed),
    }


def api_protocol() -> dict[str, object]:
    from fastapi.testclient import TestClient

    from fivedice.service.games import GameService
    from fivedice.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        service = GameService.open(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        app = create_app(service, b"bench-secret-0123456789abcdef", drive_cpus=False)
        with TestClient(app) as client:
            drawn = client.post("/api/commitments").json()
            body = {
                "players": [{"name": "Ann"}],
                "client_seeds": ["chosen after seeing the commitment"],
                "commitment_handle": drawn["handle"],
            }
            game = client.post("/api/games", json=body).json()
            again = client.post("/api/games", json=body)
            without = client.post("/api/games", json={**body, "commitment_handle": None})
        service.store.close()
    return {
        "commitment_before_the_client_seed_is_the_games": game["dice_commitment"]
        == drawn["commitment"],
        "same_handle_again_status": again.status_code,
        "client_seed_without_handle_status": without.status_code,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forced", type=int, default=50)
    parser.add_argument("--clients", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    figures = {
        "one_step": one_step(arguments.forced, rng),
        "two_step": two_step(arguments.clients, rng),
        "api": api_protocol(),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
