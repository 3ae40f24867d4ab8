"""Nobody borrows the solver: attacks on a real `fivedice serve` (SQLite, one worker) whose
rules need a table nobody solved (a private, empty table cache; each attack its own rule
variant, a real solve of ~10 s on this machine), from loopback addresses only.

- A game's solve freezes no other game: an expert CPU on new rules is solved while a
  player's game whose id once shared its lock (ids 256 apart) is played.
- The solver cannot be borrowed past the permit: once a client's quota of new rule sets is
  spent, a `master` seat and a seat handed to an expert on new rules are refused clearly;
  under `--solve-only` a master seat on other rules is refused too.
- The thread pool is not starved while the solver works: many games whose expert CPU waits
  for a table hold no pool thread, so a player's page is served meanwhile.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from fivedice.core.rules import find_ruleset
from fivedice.strategy.cache import cache_key
from tests.web.test_attacks import serving

pytestmark = [pytest.mark.processes, pytest.mark.slow]

ANN = {"name": "Ann"}
EXPERT = {"name": "Deep", "kind": "cpu", "level": "expert"}


@contextlib.contextmanager
def solver_server(tmp_path: Path, monkeypatch, *options: str, **env: str):
    """A server with an empty table cache, CPUs without pause, many games allowed per
    address; yields (base url, database path, cache folder)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(cache))
    monkeypatch.setenv("FIVEDICE_CPU_DELAY_MS", "0")
    monkeypatch.setenv("FIVEDICE_RATE_GAMES", "2000/minute")
    monkeypatch.delenv("FIVEDICE_SOLVE_RULES", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    database = tmp_path / "solver.sqlite3"
    with serving(f"sqlite:///{database}", tmp_path, *options) as (port, _process):
        yield f"http://127.0.0.1:{port}", database, cache


def client(base: str, source: str = "127.0.0.1") -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base, transport=transport, timeout=120)


def made(http: httpx.Client, players: list[dict], **extra) -> dict:
    answer = http.post("/api/games", json={"players": players, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(game: dict, seat: int = 0) -> dict[str, str]:
    token = next(t["token"] for t in game["tokens"] if t["seat"] == seat)
    return {"Authorization": f"Bearer {token}"}


def newest_game_id(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return int(connection.execute("SELECT max(id) FROM games").fetchone()[0])


def versions(database: Path, first: int) -> list[int]:
    """The saved versions of the games from id `first` on (read beside the server: no game
    lock is asked for)."""
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        rows = connection.execute("SELECT version FROM games WHERE id >= ?", (first,))
        return [int(version) for (version,) in rows]


def test_one_games_solve_does_not_freeze_a_game_whose_id_shared_its_lock(tmp_path, monkeypatch):
    with solver_server(tmp_path, monkeypatch) as (base, database, _cache), client(base) as http:
        player = made(http, [ANN])
        player_id = newest_game_id(database)
        for _ in range(255):  # so that the expert's game is the player's id + 256
            made(http, [ANN])
        made(http, [EXPERT, ANN], set={"full_house": 21})
        expert_id = newest_game_id(database)
        assert expert_id == player_id + 256
        time.sleep(1.5)  # its CPU rolled, and is solving the new rules' table now (~10 s)
        rolled = http.post(
            f"/api/games/{player['id']}/actions",
            json={"action": "roll", "version": 0},
            headers=bearer(player),
        )
        assert rolled.status_code == 200, rolled.text
        # The player's roll was answered while the expert still waits for its table (it
        # got no further than its roll, which needs none).
        assert versions(database, expert_id)[0] <= 1


def test_the_solver_is_not_borrowed_past_the_quota(tmp_path, monkeypatch):
    rates = {"FIVEDICE_RATE_NEW_SOLVES": "1/hour"}
    with (
        solver_server(tmp_path, monkeypatch, **rates) as (base, _database, cache),
        client(base, "127.0.0.6") as http,
    ):
        made(http, [EXPERT, ANN], set={"full_house": 22})  # the quota: spent
        master = http.post(
            "/api/games",
            json={"players": [ANN, {**EXPERT, "level": "master"}], "set": {"full_house": 23}},
        )
        assert master.status_code == 503, master.text
        assert "builds only a few" in master.json()["detail"]
        room = http.post(
            "/api/rooms",
            json={
                "players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "local"}],
                "set": {"full_house": 24},
            },
        ).json()
        host = {"Authorization": f"Bearer {room['host_key']}"}
        code = room["room"]["code"]
        started = http.post(
            f"/api/rooms/{code}/start", json={"version": room["room"]["version"]}, headers=host
        )
        assert started.status_code == 200, started.text
        game = started.json()["room"]["game"]
        handed = http.post(f"/api/games/{game}/seats/1/cpu", json={"level": "expert"}, headers=host)
        assert handed.status_code == 503, handed.text
        assert http.get(f"/api/games/{game}").json()["players"][1]["kind"] == "human"
        # What the quota protects: the other client is served, and nothing was solved for
        # the refused rules (the one table built is the one the quota paid for).
        with client(base, "127.0.0.7") as other:
            assert made(other, [ANN])["version"] == 0
        time.sleep(1.0)
        refused = {cache_key(find_ruleset("classic", {"full_house": n})) for n in (23, 24)}
        assert not [path for path in cache.iterdir() if any(key in path.name for key in refused)]


def test_solve_only_refuses_a_master_seat_on_other_rules(tmp_path, monkeypatch):
    with (
        solver_server(tmp_path, monkeypatch, "--solve-only", "classic") as (base, _db, _cache),
        client(base, "127.0.0.8") as http,
    ):
        master = http.post(
            "/api/games",
            json={"players": [ANN, {**EXPERT, "level": "master"}], "set": {"full_house": 27}},
        )
        assert master.status_code == 422, master.text


def test_cpus_waiting_for_a_table_hold_no_pool_thread(tmp_path, monkeypatch):
    games = 200  # (40 pool threads, each step once waiting 2 s for the solver: 10 s of queue)
    new_rules = {"rules": "yatzy", "set": {"upper_bonus_value": 49}}  # (a longer solve)
    with solver_server(tmp_path, monkeypatch) as (base, database, cache):
        first = newest_game_id(database) + 1
        sources = [f"127.0.3.{n}" for n in range(1, 7)]

        def one(n: int) -> dict:
            with client(base, sources[n % len(sources)]) as http:
                return made(http, [EXPERT, ANN], **new_rules)

        def table_built() -> bool:
            return bool(list(cache.glob("strategy-*.bin")))

        # `GET /` asked again and again while the games are made and their CPUs wait for the
        # one solve (however fast this machine solves): each answered, and at the moments no
        # table was written yet no CPU had moved past its roll.
        with ThreadPoolExecutor(8) as pool:
            making = [pool.submit(one, n) for n in range(games)]
            served_during_solve = 0
            with client(base) as http:
                while not (
                    all(f.done() for f in making) and (table_built() or served_during_solve > 20)
                ):
                    assert http.get("/").status_code == 200
                    waiting = versions(database, first)
                    if not table_built() and len(waiting) >= 8:
                        assert max(waiting) <= 1
                        served_during_solve += 1
                    time.sleep(0.1)
            for made_game in making:
                made_game.result()
        assert served_during_solve >= 1
