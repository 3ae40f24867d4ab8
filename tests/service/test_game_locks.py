"""One lock per game: two games never wait for each other, a game's threads take turns, and a
lock is dropped once nobody holds or awaits it."""

from __future__ import annotations

import asyncio
import threading

from fivedice.service.locks import GameLocks


def test_a_held_game_lock_never_blocks_another_game_whatever_their_ids():
    locks = GameLocks()
    for other in (1 + 256, 1 + 512, 2):  # (ids that once shared a stripe, and a neighbour)
        with locks.held(1), locks.held(other, blocking=False) as taken:
            assert taken
    assert len(locks) == 0


def test_a_games_lock_is_taken_by_one_thread_at_a_time():
    locks = GameLocks()
    inside, release, seen = threading.Event(), threading.Event(), []

    def holder() -> None:
        with locks.held(7):
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    assert inside.wait(10)
    with locks.held(7, blocking=False) as taken:
        seen.append(taken)
    release.set()
    thread.join(10)
    with locks.held(7, blocking=False) as taken:
        seen.append(taken)
    assert seen == [False, True]
    assert len(locks) == 0


def test_a_coroutine_holding_a_game_finds_a_thread_holding_it_and_the_lock_goes_after():
    locks = GameLocks()

    async def main() -> list[bool]:
        found = []
        async with locks.held_async(3) as taken:
            found.append(taken)
            assert locks.busy_async(3) and not locks.busy_async(4)
        with locks.held(3):
            async with locks.held_async(3) as taken:
                found.append(taken)
        return found

    assert asyncio.run(main()) == [True, False]
    assert len(locks) == 0
