"""The hub's caches are bounded, games dropped from them come back right,
the hot endpoints answer ready-made JSON that still matches the schema, and the live
benchmark runs (a tiny smoke run, so its code cannot rot)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivedice.service.creation import PlayerSpec
from fivedice.service.games import GameService
from fivedice.service.rooms import RoomSeatSpec
from fivedice.web import hub as hub_module
from fivedice.web.hub import GameHub
from fivedice.web.routers.api import GameOut
from fivedice.web.security import Signer
from tests.web.support import SECRET

ROOT = Path(__file__).resolve().parents[2]


def _players() -> list[PlayerSpec]:
    return [PlayerSpec("Ann"), PlayerSpec("Bob")]


def test_the_latest_json_cache_never_exceeds_its_limit(service, monkeypatch):
    monkeypatch.setattr(hub_module, "LATEST_CACHED", 3)
    hub = GameHub(service, Signer(SECRET))
    views = [hub.create(_players(), seed=n) for n in range(6)]
    for view in views:
        token = hub.seat_tokens(view)[0]["token"]
        hub.act(view.game_id, token, "roll", 0)
        assert len(hub._latest) <= 3
    for view in views:  # the newest three are kept; the others are made again, the same
        text = hub.json_text(hub.load(view.game_id))
        assert json.loads(text)["version"] == 1
        assert len(hub._latest) <= 3


def test_game_locks_are_dropped_when_unused_however_many_games(service):
    hub = GameHub(service, Signer(SECRET))
    for n in range(300):  # (more than the 256 stripes games once shared)
        view = hub.create(_players(), seed=n)
        hub.act(view.game_id, hub.seat_tokens(view)[0]["token"], "roll", 0)
        hub.load(view.game_id)
    assert len(hub._locks) == 0


def test_a_game_dropped_from_every_cache_reloads_the_same(service, monkeypatch):
    monkeypatch.setattr(GameService, "CACHED_VIEWS", 1)
    monkeypatch.setattr(hub_module, "LATEST_CACHED", 1)
    hub = GameHub(service, Signer(SECRET))
    first = hub.create(_players(), seed=3)
    token = hub.seat_tokens(first)[0]["token"]
    played = hub.act(first.game_id, token, "roll", 0)
    played = hub.act(first.game_id, token, "hold 1 2", played.version)
    seen = hub.json_text(played)
    second = hub.create(_players(), seed=4)  # pushes the first game out of both caches
    hub.act(second.game_id, hub.seat_tokens(second)[0]["token"], "roll", 0)
    assert first.game_id not in service._views and first.game_id not in hub._latest
    again = hub.load(first.game_id)
    assert again == played and again is not played
    assert hub.json_text(again) == seen
    # The stream's missed versions are still rebuilt from the log.
    events = hub.events_since(first.game_id, 0, None)
    assert [version for version, _text, _name in events] == [1, 2]
    assert events[-1][1] == seen


def test_ready_made_answers_match_the_documented_schema(client):
    made = client.post("/api/games", json={"players": [{"name": "Ann"}], "seed": 1})
    game = made.json()
    headers = {"Authorization": f"Bearer {game['tokens'][0]['token']}"}
    acted = client.post(
        f"/api/games/{game['id']}/actions", json={"action": "roll", "version": 0}, headers=headers
    )
    assert acted.status_code == 200 and acted.headers["content-type"] == "application/json"
    fetched = client.get(f"/api/games/{game['id']}")
    for answer in (acted, fetched):
        GameOut.model_validate(answer.json())  # raises when the ready-made JSON drifts
    assert fetched.json() == acted.json()
    schema = client.get("/openapi.json").json()
    documented = schema["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]["200"]
    assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/GameOut")


@pytest.mark.processes
@pytest.mark.slow
def test_the_live_benchmark_runs(tmp_path):
    """`bench_web.py --live` with two rooms for a second each (SQLite only, no PostgreSQL)."""
    env = {**os.environ, "FIVEDICE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FIVEDICE_TEST_POSTGRES_URL", None)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_web.py"),
            "--live",
            "--rooms",
            "2",
            "--busy-rooms",
            "1",
            "--seconds",
            "1.5",
            "--think-ms",
            "50",
            "--cpu-delay-ms",
            "50",
            "--clients",
            "1",
            "--no-postgres",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    (sqlite,) = figures["results"]
    assert sqlite["database"] == "sqlite" and sqlite["workers"] == 1
    for scenario in ("throughput", "latency"):
        measured = sqlite[scenario]
        assert measured["errors"] == 0, measured["first_errors"]
        assert measured["actions"] > 0 and measured["http_actions"] > 0
        assert measured["action_latency_ms"]["p50"] > 0
        assert measured["push_latency_ms"]["p99"] >= measured["push_latency_ms"]["p50"] >= 0
        assert measured["server_cpu_ms_per_action"] > 0
        assert len(measured["load_average_before"]) == 3


def test_a_seat_handed_to_a_cpu_is_not_hidden_by_the_kept_json(service):
    # The seats change without a new version: the JSON kept for that version must go.
    hub = GameHub(service, Signer(SECRET))
    room = hub.create_room(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("open", "Bob")],
        host_session="ann-session",
        options={},
    )
    joined, _seat = hub.join_room(room.code, "bob-session")
    _started, view = hub.start_room(room.code, joined.version, fill_with_cpus=False)
    before = json.loads(hub.json_text(hub.load(view.game_id)))
    assert before["players"][1]["kind"] == "human"
    hub.hand_to_cpu(view.game_id, 1)
    after = json.loads(hub.json_text(hub.load(view.game_id)))
    assert after["version"] == before["version"]
    assert after["players"][1]["kind"] == "cpu"


def _play(hub: GameHub, game_id: int, actions: int) -> int:
    """`actions` actions of the humans of a game through the hub; its version after them."""
    from tests.support.players import human_move

    view = hub.load(game_id)
    for _ in range(actions):
        seat = view.state.current_seat
        token = hub.seat_tokens(view)[seat]["token"]
        view = hub.act(game_id, token, human_move(view.state), view.version)
    return view.version


def _no_replays(monkeypatch, service: GameService) -> None:
    """From here on, reading a game's whole log fails the test."""

    def replayed(*_args, **_kwargs):
        raise AssertionError("the whole log was read again")

    monkeypatch.setattr(service, "record", replayed)
    monkeypatch.setattr(service.store, "load_game", replayed)


def test_a_stream_far_behind_gets_every_version_without_a_replay(service, monkeypatch):
    """A stream more versions behind than the hub keeps JSON for (a busy worker's) gets
    them made from the kept views, equal to what a replay of the log gives."""
    assert hub_module.RECENT_TEXTS < 20 < hub_module.RECENT_VERSIONS
    hub = GameHub(service, Signer(SECRET))
    game_id = hub.create(_players(), seed=11).game_id
    newest = _play(hub, game_id, 24)
    after = newest - 20
    # What the whole log gives (a fresh hub keeps nothing: it replays).
    expected = GameHub(GameService(service.store), Signer(SECRET)).events_since(
        game_id, after, None
    )
    assert [version for version, _text, _kind in expected] == list(range(after + 1, newest + 1))
    _no_replays(monkeypatch, service)
    assert hub.events_since(game_id, after, newest) == expected
    assert len([kept for kept in hub._latest[game_id] if kept.text is not None]) >= 20


def test_a_worker_catching_up_keeps_the_versions_in_between(service, monkeypatch):
    """Worker A's stream saw version 0; worker B saves 20 actions; A's stream gets all 20 in
    order from one short read of the new log rows, never from a replay."""
    a = GameHub(service, Signer(SECRET))
    b = GameHub(GameService(service.store), Signer(SECRET))
    game_id = a.create(_players(), seed=12).game_id
    assert a.events_since(game_id, None, None)[0][0] == 0
    newest = _play(b, game_id, 20)
    expected = GameHub(GameService(service.store), Signer(SECRET)).events_since(game_id, 0, None)
    _no_replays(monkeypatch, service)
    got = a.events_since(game_id, 0, newest)
    assert [version for version, _t, _k in got] == list(range(1, newest + 1))
    assert got == expected


def test_a_refused_stale_write_keeps_the_view_and_catches_up(service, monkeypatch):
    from fivedice.core.game import GameSettings, Seat
    from fivedice.store import StaleVersionError

    a, b = service, GameService(service.store)
    game = a.create_game(GameSettings((Seat("Ann"),)), seed=9)
    b.apply_action(game.game_id, "roll", 0)
    b.apply_action(game.game_id, "hold 1", 1)
    with pytest.raises(StaleVersionError):
        a.apply_action(game.game_id, "roll", 0)  # A still has version 0
    assert a.kept(game.game_id) is not None  # behind, but kept
    expected = b.load(game.game_id)
    _no_replays(monkeypatch, a)
    assert a.latest(game.game_id) == expected  # the two new rows, applied
    assert a.apply_action(game.game_id, "roll", 2).version == 3


def test_the_cpu_driver_ignores_news_it_has_already(service):
    """Pokes that cannot mean a CPU is to move start nothing and wake nothing: this
    worker's own writes heard back through PostgreSQL, a version where a person is to
    move, anything heard while the game's task is letting it go. Real news wakes it."""
    from fivedice.web.driver import CpuDriver

    hub = GameHub(service, Signer(SECRET))
    players = [PlayerSpec("Ann"), PlayerSpec("Cora", "casual")]
    view = hub.create(players, seed=5)
    game_id = _play_until_cpu(hub, view.game_id)
    kept = service.kept(game_id)
    assert kept is not None and kept.is_cpu_turn
    driver = CpuDriver(hub, delay_ms=0, scan_seconds=60)
    driver._tasks[game_id] = None  # type: ignore[assignment]  # (a task of this game runs)
    driver._stepping[game_id] = kept.version + 1
    driver.poke(game_id, kept.version, remote=True)  # its own write, heard back
    driver.poke(game_id, kept.version + 1)  # the step it is making
    assert game_id not in driver._again
    driver.poke(game_id, kept.version + 2, remote=True)  # another worker moved it on
    assert game_id in driver._again
    driver._again.clear()
    driver._finishing.add(game_id)  # the task found a person to move: letting go
    driver.poke(game_id, kept.version + 2, remote=True)
    assert game_id not in driver._again
    driver.poke(game_id, seats=True)  # a seat handed to a CPU: always news
    assert game_id in driver._again


def _play_until_cpu(hub: GameHub, game_id: int) -> int:
    from tests.support.players import human_move

    view = hub.load(game_id)
    while not view.is_cpu_turn:
        token = hub.seat_tokens(view)[0]["token"]
        view = hub.act(game_id, token, human_move(view.state), view.version)
    return game_id
