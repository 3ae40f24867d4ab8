"""SIGKILL a real `fivedice play --plain` at random moments; nothing acknowledged is lost.

An action counts as acknowledged once the process has printed its result (the next prompt).
After every kill the test checks the saved log: every acknowledged action is there, in order,
plus at most the one action that was in flight. The next process resumes (`--resume`); what
it shows must be the state a replay of the log gives, and every die in the log must be the
die of (seed, action number), so a crash never changes the game's dice.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time

import pytest

from fivedice.core.dice import ScriptedDice
from fivedice.core.game import replay
from fivedice.service.games import GameService
from fivedice.store import IN_PROGRESS, Store, dice_for
from fivedice.wording.plain import turn_summary
from tests.support.players import human_move

# The suite's run ends after MIN_KILLS kills (each at a random moment, start-up included);
# a longer soak asks for seconds as well: FIVEDICE_CRASH_SECONDS=600.
DURATION = float(os.environ.get("FIVEDICE_CRASH_SECONDS", "0"))
SEED = int(os.environ.get("FIVEDICE_CRASH_SEED", "20261129"))
MIN_KILLS = 20
TIME_LIMIT = max(3 * DURATION, 120.0)  # a slow machine may take longer, not for ever
PROMPT = "Ann> "


class Child:
    """A `fivedice play --plain` process and what it printed."""

    def __init__(self, args: list[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fivedice.cli", "play", "--plain", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.output = ""

    def read_prompt(self, timeout: float = 60.0) -> str | None:
        """Reads until the process waits at a prompt (returns what it printed) or exits."""
        start = len(self.output)
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while len(self.output) == start or not self.output.endswith(PROMPT):
            left = deadline - time.monotonic()
            assert left > 0, f"no prompt in {timeout}s:\n{self.output[-2000:]}"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    return None
                self.output += chunk.decode()
        return self.output[start:]

    def send(self, line: str) -> None:
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def send_move(self, state, move: str) -> None:
        """Sends a move, and "y" after it when it scores 0 (the plain mode asks first)."""
        self.send(move + ("\ny" if scores_zero(state, move) else ""))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()


def scores_zero(state, move: str) -> bool:
    return move.startswith("score") and any(
        str(p.category.key) == move.split()[-1] and p.points == 0 for p in state.placements()
    )


@pytest.mark.processes
@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path):
    url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    reader = GameService(Store(url))
    rng = random.Random(SEED)
    acknowledged: list[str] = []
    runs = kills = in_flight_saved = in_flight_lost = startup_kills = games = 0
    game_id: int | None = None
    start = time.monotonic()
    # At least DURATION seconds and MIN_KILLS kills, within TIME_LIMIT.
    while (time.monotonic() - start < DURATION or kills < MIN_KILLS) and (
        time.monotonic() - start < TIME_LIMIT
    ):
        if game_id is None:
            games += 1
            args = ["--db", url, "--player", "Ann", "--seed", str(games), "--games", "2"]
        else:
            args = ["--db", url, "--resume", str(game_id)]
        child = Child(args)
        runs += 1
        if rng.random() < 0.15:  # die during start-up, perhaps while creating the game
            time.sleep(rng.uniform(0, 0.8))
            child.kill()
            kills += 1
            startup_kills += 1
            found = reader.list_games(IN_PROGRESS)
            if game_id is None and found:
                game_id = found[0].game_id
            continue
        shown = child.read_prompt()
        assert shown is not None, child.process.stderr.read().decode()
        if game_id is None:
            game_id = reader.list_games(IN_PROGRESS)[0].game_id
        view = reader.load(game_id)
        log = [entry.action for entry in reader.record(game_id).actions]
        # Every acknowledged action survived; at most the in-flight one was added.
        assert log[: len(acknowledged)] == acknowledged, (log, acknowledged)
        assert len(log) - len(acknowledged) in (0, 1)
        acknowledged = log
        # What the resumed process shows is the state the replayed log gives.
        assert "\n".join(turn_summary(view.state)) in shown
        steps = rng.randint(0, 12)
        for step in range(steps + 1):
            move = human_move(view.state)
            child.send_move(view.state, move)
            if step == steps:
                break
            if child.read_prompt() is None:  # the game ended
                break
            acknowledged.append(move)
            view = reader.load(game_id)
            assert [e.action for e in reader.record(game_id).actions] == acknowledged
        if view.state.is_match_over or child.process.poll() is not None:
            child.process.wait()
            game_id = None
            acknowledged = []
            continue
        time.sleep(rng.choice([0, 0, rng.uniform(0, 0.002), rng.uniform(0, 0.05)]))
        child.kill()
        kills += 1
        saved = [entry.action for entry in reader.record(game_id).actions]
        assert saved[: len(acknowledged)] == acknowledged
        if len(saved) > len(acknowledged):
            in_flight_saved += 1
        else:
            in_flight_lost += 1
        if reader.load(game_id).state.is_match_over:
            game_id, acknowledged = None, []

    # Every saved game replays from its log, and its dice are those of (seed, number).
    checked = 0
    for summary in reader.list_games():
        record = reader.record(summary.game_id)
        state = replay(
            record.settings,
            [entry.action for entry in record.actions],
            ScriptedDice([d for entry in record.actions for d in entry.dice]),
        )
        assert state == reader.load(summary.game_id).state
        for entry in record.actions:
            if entry.dice:
                assert entry.dice == dice_for(record.seed, entry.seq).roll(len(entry.dice))
        checked += len(record.actions)
    print(
        f"\ncrash test (seed {SEED}): {runs} runs, {kills} SIGKILLs "
        f"({startup_kills} during start-up), "
        f"in-flight action saved {in_flight_saved}x / not saved {in_flight_lost}x, "
        f"{games} games, {checked} actions checked"
    )
    assert kills >= MIN_KILLS and checked >= 50
