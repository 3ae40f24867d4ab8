"""Two people and a spectator in three browser contexts (Playwright, Debian's chromium).

Ann makes a room with Bob (a friend, remote) and a casual CPU; Bob joins through the
invitation link; they play the first rounds in their pages, then their moves go to the server
while the pages watch, to the end of the game. Each sees the other's moves without reloading
(pushed through the event stream), the CPU plays on while both their pages are closed, a
spectator sees every version, and Ann's browser can never act in Bob's seat. Screenshots
of the waiting room and of the game for Ann, Bob and the spectator, at 360 and 1280 px,
go to `test-artifacts/`.
"""

from __future__ import annotations

import statistics
import time

import httpx
import pytest

from fivedice.service.games import GameService
from tests.support.players import human_move
from tests.web.browser.support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, score_a_box
from tests.web.live_helpers import running, wait_until
from tests.web.support import SECRET

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.slow

WAIT_MS = 20_000  # generous: the timing is measured and printed, never asserted
BROWSER_ROUNDS = 3
"""Rounds whose players' turns are played in their pages; the rest of the game, its players'
moves go to the server with their seats' tokens while every page watches (a whole game
played in a page: tests/web/browser/test_play.py)."""


@pytest.fixture
def browser():
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


def _version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def _wait_version(page, above: int) -> None:
    page.wait_for_function(
        "v => { const b = document.querySelector('#board');"
        " return b && Number(b.dataset.version) > v; }",
        arg=above,
        timeout=WAIT_MS,
    )


def _shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _both_widths(page, name: str) -> None:
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        _shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 900})


def _open_game(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#board")
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads
    return page


def test_ann_and_bob_play_live_with_a_cpu_and_a_spectator(browser, tmp_path):
    from fivedice.web import create_app

    service = GameService.open(f"sqlite:///{tmp_path / 'live.sqlite3'}")
    app = create_app(service, SECRET, cpu_delay_ms=150)
    with running(app) as base:
        contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in "abs"]
        ann_ctx, bob_ctx, spy_ctx = contexts
        # Ann names the seats: herself, Bob (a friend), a casual CPU.
        ann = ann_ctx.new_page()
        ann.goto(base + "/")
        ann.fill("#name0", "Ann")
        ann.select_option("#kind1", "friend")
        ann.fill("#name1", "Bob")
        ann.select_option("#kind2", "cpu")
        ann.fill("#name2", "Cee")
        ann.select_option("#level2", "casual")
        ann.fill("#seed", "4")
        ann.click("#start")
        ann.wait_for_selector("#room")
        invite = ann.locator("input[data-invite]").input_value()
        assert invite.startswith(base + "/r/")  # shown whole by app.js
        _both_widths(ann, "20-waiting-room-host")
        # Bob opens the invitation and joins; Ann's waiting room shows it without a reload.
        bob = bob_ctx.new_page()
        bob.goto(invite)
        bob.fill("#join-name", "Bob")
        bob.click("#join")
        bob.wait_for_selector("#room")
        ann.wait_for_selector("#seat-1.joined", timeout=WAIT_MS)
        _both_widths(bob, "21-waiting-room-friend")
        ann.click("#start")
        ann.wait_for_selector("#board")
        bob.wait_for_url("**/g/*", timeout=WAIT_MS)  # sent on by the room's stream
        game_url = ann.url
        pid = game_url.rsplit("/", 1)[1]
        api = f"{base}/api/games/{pid}"
        ann = _open_game(ann_ctx, game_url)
        bob = _open_game(bob_ctx, game_url)
        spy = _open_game(spy_ctx, game_url)
        # The spectator also records every event id its stream delivers.
        spy.evaluate(
            "url => { window.__seen = []; const s = new EventSource(url);"
            " s.onmessage = e => window.__seen.push(Number(e.lastEventId)); }",
            f"/api/games/{pid}/events?after={_version(spy)}",
        )
        first_version = _version(spy)
        cpu_requests = []
        for page in (ann, bob, spy):
            page.on(
                "request",
                lambda r: cpu_requests.append(r.url) if r.url.endswith("/cpu") else None,
            )
        pages = {0: ann, 1: bob}
        latencies: list[float] = []
        closed_during_cpu = False
        shots_taken = False
        while True:
            state = httpx.get(api).json()
            if state["status"] != "in_progress":
                break
            if state["is_cpu_turn"]:
                wait_until(
                    lambda v=state["version"]: httpx.get(api).json()["version"] > v,
                    "the CPU's next step",
                )
                continue
            seat = state["current_seat"]
            actor, other = pages[seat], pages[1 - seat]
            version = state["version"]
            if state["turn_number"] > BROWSER_ROUNDS and closed_during_cpu and shots_taken:
                hub = app.state.hub
                view = hub.load(hub.game_id(pid))
                token = hub.seat_token(view.game_id, seat)
                hub.act(view.game_id, token, human_move(view.state), view.version)
                continue
            actor.wait_for_function(
                "v => { const b = document.querySelector('#board');"
                " return b && Number(b.dataset.version) === v && b.dataset.state === 'act'; }",
                arg=version,
                timeout=WAIT_MS,
            )
            # Never in another's seat: the other page offers nothing to click, and a forged
            # post from it is refused without changing the game.
            assert other.locator("#roll").count() == 0
            assert other.locator("td.legal button").count() == 0
            forged = other.evaluate(
                "async v => { const f = new FormData(); f.append('action', 'roll');"
                " f.append('version', String(v));"
                " const t = document.querySelector('meta[name=csrf-token]').content;"
                " const r = await fetch(location.pathname + '/act', {method: 'POST', body: f,"
                " headers: {'X-CSRF-Token': t}}); return r.status; }",
                version,
            )
            assert forged == 403 and httpx.get(api).json()["version"] == version
            started = time.monotonic()
            actor.click("#roll")
            _wait_version(other, version)  # pushed: the other page never reloads
            latencies.append(time.monotonic() - started)
            other_dice = other.locator("#die-1").get_attribute("aria-label")
            assert "not rolled" not in other_dice
            _wait_version(actor, version)
            if not shots_taken and seat == 0:
                _both_widths(ann, "22-game-ann")
                _both_widths(bob, "23-game-bob")
                _both_widths(spy, "24-game-spectator")
                shots_taken = True
            score_a_box(actor)
            _wait_version(actor, version + 1)
            if seat == 1 and not closed_during_cpu:
                # Bob scored: Cee's turn. Both players close their pages; Cee plays on.
                ann.close()
                bob.close()
                closed_at = httpx.get(api).json()
                wait_until(
                    lambda: not httpx.get(api).json()["is_cpu_turn"], "the CPU to end its turn"
                )
                after = httpx.get(api).json()
                if closed_at["is_cpu_turn"]:
                    assert after["version"] > closed_at["version"]  # moved with no page open
                    closed_during_cpu = True
                ann = _open_game(ann_ctx, game_url)
                bob = _open_game(bob_ctx, game_url)
                pages = {0: ann, 1: bob}
        final = httpx.get(api).json()
        assert final["status"] == "finished"
        assert closed_during_cpu, "the CPU's turn ended before the pages were closed"
        for page in (ann, bob, spy):
            page.wait_for_selector("#standings-h", timeout=WAIT_MS)
            assert page.evaluate("() => window.__sameDocument === true")  # never reloaded
        seen = wait_until(
            lambda: (lambda s: s if s and s[-1] == final["version"] else None)(
                spy.evaluate("() => window.__seen")
            ),
            "the spectator's last event",
        )
        assert seen == list(range(first_version + 1, final["version"] + 1))
        assert cpu_requests == []  # pages never step a CPU
        _both_widths(spy, "25-game-over-spectator")
        print(
            f"\npushed roll seen by the other player: median {statistics.median(latencies):.3f}"
            f" s, max {max(latencies):.3f} s over {len(latencies)} rolls"
        )
        for context in contexts:
            context.close()
    service.store.close()


def test_an_open_page_shows_its_game_abandoned_without_reloading(browser, tmp_path):
    """Bob's page is open on his turn; the game is abandoned elsewhere: his page shows it
    over (the "abandoned" event), in the same document, and stops listening."""
    from fivedice.web import create_app

    service = GameService.open(f"sqlite:///{tmp_path / 'abandon.sqlite3'}")
    app = create_app(service, SECRET, cpu_delay_ms=0)
    with running(app) as base:
        made = httpx.post(f"{base}/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert made.status_code == 201, made.text
        game = made.json()
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = _open_game(context, f"{base}/g/{game['id']}")
        assert page.locator("#board").get_attribute("data-state") != "over"
        hub = app.state.hub
        hub.abandon(hub.game_id(game["id"]))
        page.wait_for_selector('#board[data-state="over"]', timeout=WAIT_MS)
        assert page.evaluate("() => window.__sameDocument === true")
        assert page.locator("#board").get_attribute("data-events") is None
        assert page.locator("#turn-h").inner_text() == "Game abandoned."
        _shot(page, "live-abandoned-1280")
        context.close()
