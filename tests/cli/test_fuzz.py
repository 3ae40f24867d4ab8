"""Fuzzing the command line: random argument lists for every command, random lines for plain play.

Whatever comes in, a command ends with status 0, 1 or 2, never with a traceback and never
hangs; what plain play saved always replays. Every run happens in-process (CliRunner, fast)
in a private world: a temporary working directory, database, table cache and web secret.

Bounds that keep the runs short without hiding anything: `$FIVEDICE_SOLVE_RULES=classic`
(other rule sets are refused quickly instead of being solved; the refusal is fuzzed too),
small `--games` values, and `serve` and the terminal app stopped at their start (their
argument checks run; the stand-ins record that they were reached). Each call has a deadline:
a SIGALRM interrupts Python code that runs too long (the test fails), and a watchdog ends the
whole process, naming the arguments, if native code (numba) does not return at all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.i18n import set_language

DEADLINE_SECONDS = 30.0
"""Per call: far above any bounded command here (most take milliseconds)."""

runner = CliRunner()


class CommandHung(Exception):
    """A command ran past its deadline."""


def _on_alarm(signum: int, frame: object) -> None:
    raise CommandHung(f"no answer within {DEADLINE_SECONDS} s")


_capture: list[object] = []  # pytest's capture manager, to speak past it when giving up


def _give_up(args: list[str]) -> None:
    """Native code did not return (SIGALRM cannot interrupt it): say which call, and stop."""
    for manager in _capture:
        with contextlib.suppress(Exception):
            manager.suspend_global_capture(in_=False)  # type: ignore[attr-defined]
    sys.stderr.write(f"\nfivedice hung on {args!r}; stopping the test run\n")
    sys.stderr.flush()
    os._exit(70)


def invoke(args: list[str], stdin: str = "") -> object:
    """Runs one command line with a deadline; restores the environment afterwards."""
    saved = dict(os.environ)
    watchdog = threading.Timer(2 * DEADLINE_SECONDS, _give_up, args=(args,))
    watchdog.daemon = True
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, DEADLINE_SECONDS)
    watchdog.start()
    try:
        return runner.invoke(app, args, input=stdin)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        watchdog.cancel()
        os.environ.clear()
        os.environ.update(saved)
        set_language("en")


def check(result: object, args: list[str]) -> None:
    """The fuzzing oracle: a clean status, no traceback, no escaped exception."""
    exception = result.exception  # type: ignore[attr-defined]
    output = result.output  # type: ignore[attr-defined]
    assert exception is None or isinstance(exception, SystemExit), (args, repr(exception))
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, output)  # type: ignore[attr-defined]
    assert "Traceback" not in output, (args, output)


# -- the private world ---------------------------------------------------------------------------


class World:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = f"sqlite:///{root / 'fuzz.sqlite3'}"
        self.other_db = f"sqlite:///{root / 'other.sqlite3'}"
        self.record = root / "record.txt"
        self.noise = root / "noise.txt"
        self.started: list[str] = []


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Iterator[World]:
    _capture[:] = [pytestconfig.pluginmanager.getplugin("capturemanager")]
    root = tmp_path_factory.mktemp("fuzz")
    world = World(root)
    patch = pytest.MonkeyPatch()
    patch.chdir(root)  # a relative sqlite path lands here
    patch.setenv("FIVEDICE_DATABASE_URL", world.db)
    patch.setenv("FIVEDICE_CACHE_DIR", str(root / "cache"))
    patch.setenv("FIVEDICE_SOLVE_RULES", "classic")
    patch.setenv("FIVEDICE_SECRET", "fuzzing-secret-0123456789abcdef")
    patch.setenv("FIVEDICE_LANG", "en")
    patch.setenv("XDG_DATA_HOME", str(root / "data"))
    patch.setattr("fivedice.web.server.run_server", lambda *a, **k: world.started.append("serve"))
    patch.setattr("fivedice.tui.run_app", lambda *a, **k: world.started.append("app"))
    # Warm up once, outside the deadlines: the classic table and the compiled kernels.
    for args, stdin in (
        (["advise", "--dice", "11666", "--rolls-left", "2"], ""),
        (["simulate", "--bot", "expert", "--vs", "beginner", "--games", "2"], ""),
        (["play", "--plain", "--cpu", "expert", "--seed", "1"], "roll\nscore chance\nquit\n"),
    ):
        result = runner.invoke(app, args, input=stdin)
        assert result.exit_code == 0, result.output
    world.record.write_text(runner.invoke(app, ["export", "1"]).stdout, encoding="utf-8")
    world.noise.write_bytes(b"\x00\xff garbage\nseat: \n1. x: roll -> 9 9\n")
    yield world
    patch.undo()


# -- what arguments look like ---------------------------------------------------------------------

HUGE = ["9223372036854775807", "9223372036854775808", "18446744073709551616", "9" * 30]
INTEGERS = st.one_of(
    st.sampled_from(HUGE + ["-" + h for h in HUGE]),  # the edges first: half the draws
    st.integers(min_value=-3, max_value=12).map(str),
    st.sampled_from(["1e3", "0x10", "", " 7", "٣"]),
)
EDGE_INTEGERS = st.sampled_from([*HUGE, "-" + HUGE[0], "-1", "0", "7"])
JUNK = st.text(
    st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12
) | st.sampled_from(["--", "-", "--help", "\x1b[31m", "a\nb", "'", '"', "{", "%s", "../.."])
DICE = st.one_of(
    st.text("0123456789", min_size=0, max_size=7),
    st.sampled_from(["11666", "55666", "6 6 6 6 6", "1,2,3,4,5", "abcde"]),
    JUNK,
)
SETTINGS = st.one_of(
    st.tuples(
        st.sampled_from(
            [
                "rolls_per_turn",
                "upper_bonus",
                "upper_bonus_threshold",
                "yahtzee",
                "yahtzee_bonus",
                "yahtzee_bonus_condition",
                "joker",
                "columns",
                "column_multipliers",
                "straights",
                "bogus",
            ]
        ),
        st.one_of(INTEGERS, st.sampled_from(["on", "off", "forced", "box_filled", "1,2,3"]), JUNK),
    ).map(lambda kv: f"{kv[0]}={kv[1]}"),
    JUNK,
)
CARDS = st.one_of(
    st.sampled_from(
        [
            "{}",
            '{"yahtzee": 50}',
            '{"large_straight": 0}',
            '{"yahtzee": 50, "extra_yahtzees": 3}',
            '{"extra_yahtzees": 99999999999999999999}',
            '{"ones": 1e999}',
            '{"chance": NaN}',
            "[" * 3000,
            "[" * 20_000,
            '{"ones": ' + "7" * 5000 + "}",
            "null",
            '"text"',
        ]
    ),
    st.dictionaries(
        st.sampled_from(["ones", "sixes", "yahtzee", "chance", "full_house", "sevens"]),
        st.one_of(
            st.integers(-10, 200), st.none(), st.booleans(), st.floats(), st.text(max_size=3)
        ),
        max_size=6,
    ).map(lambda d: __import__("json").dumps(d)),
    JUNK,
)
PRESETS = st.sampled_from(["classic", "free-choice", "simple", "triple", "classic-five", "x"])
LEVELS = st.sampled_from(["beginner", "casual", "strong", "expert", "god", ""])


def _options(pools: dict[str, st.SearchStrategy[str] | None]) -> st.SearchStrategy[list[str]]:
    """A shuffled list of (option, value) pairs and flags drawn from per-option pools."""
    names = sorted(pools)

    def pair(name: str) -> st.SearchStrategy[list[str]]:
        pool = pools[name]
        return st.just([name]) if pool is None else pool.map(lambda value: [name, value])

    pairs = st.lists(st.sampled_from(names).flatmap(pair), max_size=6)
    return pairs.map(lambda items: [token for item in items for token in item])


COMMON: dict[str, st.SearchStrategy[str] | None] = {
    "--rules": PRESETS,
    "--set": SETTINGS,
    "--json": None,
}


def _db(world: World) -> st.SearchStrategy[str]:
    return st.sampled_from(
        [world.db, world.other_db, "nonsense", "mysql://x/y", "sqlite:///", "", "sqlite://"]
    )


COMMANDS = {
    "score", "rules", "advise", "solve", "simulate", "play", "games", "stats", "highscores",
    "export", "abandon", "replay", "serve", "table", "sheet", "review", "tutorial",
}  # fmt: skip


def command_lines(world: World, command: str) -> st.SearchStrategy[tuple[list[str], str]]:
    ids = st.one_of(INTEGERS, st.just("1"), JUNK)
    db = _db(world)
    path = st.sampled_from(
        [str(world.record), str(world.noise), str(world.root), "missing.txt", ""]
    )
    plot = st.sampled_from(["p.png", "p.svg", "p", "p.txt", ".", "no/such/dir/p.png", "p.PDF"])
    grammars = {
        "score": _options({**COMMON, "--dice": DICE, "--card": CARDS}),
        "rules": _options(COMMON),
        "advise": _options({**COMMON, "--dice": DICE, "--rolls-left": INTEGERS, "--card": CARDS}),
        "solve": _options(COMMON),
        "simulate": _options(
            {
                **COMMON,
                "--bot": LEVELS,
                "--vs": LEVELS,
                "--games": st.sampled_from(["1", "3", "0", "-1", *HUGE, "x"]),
                "--seed": INTEGERS,
                "--plot": plot,
            }
        ),
        "play": _options(
            {
                **COMMON,
                "--plain": None,
                "--player": JUNK,
                "--cpu": LEVELS,
                "--seed": INTEGERS,
                "--first": st.sampled_from(["first_seat", "highest_die", "highest_sum", "x"]),
                "--games": st.sampled_from(["1", "2", "0", "-1", *HUGE]),
                "--resume": None,
                "--practice": None,
                "--db": db,
            }
        ),
        "games": _options({"--db": db, "--json": None}),
        "stats": _options({"--db": db, "--json": None}),
        "highscores": _options({"--db": db, "--json": None}),
        "export": _options({"--db": db}),
        "abandon": _options({"--db": db}),
        "replay": st.just([]),
        "serve": _options(
            {
                "--db": db,
                "--port": INTEGERS,
                "--workers": INTEGERS,
                "--solve-only": st.sampled_from(["classic", "classic,free-choice", "nope", ""]),
                "--host": st.sampled_from(["127.0.0.1", "::1", "x"]),
            }
        ),
        # (table and tutorial always with --plain, see `base`: their apps are not stubbed)
        "table": _options(
            {
                "--rules": PRESETS,
                "--set": SETTINGS,
                "--player": JUNK | st.sampled_from(["Ann", "Bob"]),
                "--first": st.sampled_from(["first_seat", "highest_die", "Ann", "x"]),
                "--seed": INTEGERS,
                "--resume": None,
                "--practice": None,
                "--db": db,
            }
        ),
        "tutorial": _options(
            {
                "--rules": PRESETS,
                "--set": SETTINGS,
                "--json": None,
                "--list": None,
                "--lesson": INTEGERS | JUNK | st.sampled_from(["1", "7", "guided", "basics"]),
                "--seed": INTEGERS,
                "--db": db,
            }
        ),
        "sheet": _options(
            {
                "--rules": PRESETS,
                "--set": SETTINGS,
                "--players": JUNK | st.sampled_from(["Ann,Bob", "a\x1bb", ",,,"]),
                "--columns": INTEGERS,
                "--game": ids,
                "--paper": st.sampled_from(["a4", "letter", "A4", "x"]),
                "--lang": st.sampled_from(["en", "nl", "de", "xx"]),
                "--db": db,
            }
        ),
        "review": _options({"--db": db, "--json": None}),
    }
    positional = {
        "export": ids, "abandon": ids, "replay": path, "stats": JUNK, "play": ids, "table": ids,
        "review": ids,
    }  # fmt: skip
    # A mostly valid start, so that the random options reach past the first check.
    valid_dice = st.sampled_from(["11666", "55666", "12345", "66666"])
    card = st.lists(CARDS, max_size=1).map(lambda cards: [t for c in cards for t in ("--card", c)])
    base = {
        "advise": st.tuples(valid_dice, INTEGERS | st.sampled_from(["0", "1", "2"]), card).map(
            lambda t: ["--dice", t[0], "--rolls-left", t[1], *t[2]]
        ),
        "score": st.tuples(valid_dice, card).map(lambda t: ["--dice", t[0], *t[1]]),
        "simulate": st.tuples(st.sampled_from(["1", "3"]), EDGE_INTEGERS).map(
            lambda t: ["--games", t[0], "--seed", t[1]]
        ),
        "play": st.tuples(st.sampled_from([["--plain"], ["--plain"], []]), EDGE_INTEGERS).map(
            lambda t: [*t[0], "--seed", t[1]]
        ),
        "table": st.sampled_from([["--plain", "--player", "Ann", "--player", "Bob"], ["--plain"]]),
        "tutorial": st.just(["--plain"]),
        "sheet": st.sampled_from(["sheet.pdf", "-", ".", "no/such/dir/s.pdf", "s.txt"]).map(
            lambda out: ["-o", out]
        ),
    }

    def build(command: str) -> st.SearchStrategy[tuple[list[str], str]]:
        extra = positional.get(command)
        required = command in {"export", "abandon", "replay", "review"}
        head = (
            st.lists(extra, min_size=int(required), max_size=1)
            if extra is not None
            else st.just([])
        )
        lang = st.lists(st.sampled_from(["en", "nl", "de", "xx"]), max_size=1).map(
            lambda values: [token for value in values for token in ("--lang", value)]
        )
        stray = st.lists(JUNK, max_size=1)
        start = base.get(command, st.just([]))
        return st.tuples(lang, start, grammars[command], head, stray, PLAIN_INPUT).map(
            lambda parts: (
                [*parts[0], command, *parts[1], *parts[2], *parts[3], *parts[4]],
                parts[5],
            )
        )

    return build(command)


ACTION_LINES = st.one_of(
    st.sampled_from(
        ["roll", "hold 1 3", "hold 135", "release 2", "score chance", "score 2:chance", "show"]
    ),
    st.sampled_from(["rules", "help", "hold 9", "score sevens", "hold", "roll roll", "score"]),
    st.sampled_from(
        ["hint", "hint 11666 2", "hint \u00b2", "dice 12345", "dice 1234\u00b2", "1", "7"]
    ),
    st.text(max_size=20),
)
PLAIN_INPUT = st.lists(ACTION_LINES, max_size=12).map(lambda lines: "\n".join(lines) + "\n")


# -- the tests -----------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=40,
    deadline=None,  # the per-call deadline above is the bound; first calls import modules
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,  # the same examples every run: a failure here is a bug, not luck
)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
@FUZZ
@given(data=st.data())
def test_random_command_lines_end_cleanly(world: World, command: str, data: st.DataObject) -> None:
    args, stdin = data.draw(command_lines(world, command))
    result = invoke(args, stdin)
    check(result, args)
    event(f"exit {result.exit_code}")  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(FUZZ, max_examples=60)
@given(
    lines=st.lists(ACTION_LINES, max_size=40),
    raw=st.binary(max_size=200),
    cpu=st.booleans(),
)
def test_random_lines_in_plain_play_save_only_what_replays(
    world: World, lines: list[str], raw: bytes, cpu: bool
) -> None:
    stdin = "\n".join(lines) + "\n" + raw.decode("utf-8", errors="replace")
    args = ["play", "--plain", "--player", "Fuzz", "--seed", "5", "--db", world.db]
    args += ["--cpu", "casual"] * cpu
    from fivedice.core.record import parse_record
    from fivedice.service.games import GameService

    service = GameService.open(world.db)
    try:
        before = {game.game_id for game in service.list_games()}
        check(invoke(args, stdin), args)
        # The game this run saved replays exactly, action by action: whatever was refused
        # changed nothing that was saved.
        new = [game for game in service.list_games() if game.game_id not in before]
        assert len(new) == 1, new
        record = parse_record(service.export(new[0].game_id))
        states = list(record.states())
        assert len(states) == new[0].actions + 1
        assert record.version == new[0].actions
    finally:
        service.store.close()
