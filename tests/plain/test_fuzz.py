"""Fuzzing the plain mode: random bytes and lines on stdin never give a traceback or a hang,
and a refused line leaves the saved game exactly as it was.

Runs in-process on one SQLite file (a new game per example) to stay quick. "Never a hang" is
structural: every loop of the plain mode reads a line or lets a CPU move in a finite game, so
a finite input always ends; the examples are finite and Hypothesis would report one that did
not finish.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import RuleSet
from fivedice.plain.game import MAX_LINE, LineReader, Outcome, PlainSession, run_plain
from fivedice.service.games import GameService
from fivedice.store import Store

VALID = [
    "roll", "r", "ROLL", "hold 1 2", "h 135", "hold 5", "release 2", "rel 1", "release 1 2 3 4 5",
    "score chance", "s full house", "score yahtzee", "score ones", "s 1:sixes", "score Kniffel",
    "y", "n", "yes", "undo", "u", "show", "help", "?", "rules", "",
    "release all", "rel all", "1 3", "25", "z", "v", "h", "fair", "commitment",
]  # fmt: skip
NEAR_VALID = [
    "hold 9", "hold 1 1", "hold 0", "hold -1", "hold", "h", "release", "rel 6", "roll 3", "rol",
    "score", "s", "score nothing", "score 2:chance", "score 0:chance", "score :", ":", "score 1:",
    "score 99999999999999999999:chance", "hold 99999999999999999999", "score full-house!",
    "holdd 1", "undo 2", "hint 1", "help me", "quit now", "\tscore\tchance", "score chance chance",
    "hold 1,2", "hold 1 3 2", "hold ½", "hold ١", "hold ²", "score ²:chance", "y y",
    "score ｆｕｌｌ house", "\ufeffroll",
]  # fmt: skip
NASTY = ["\x00", "\x1b[31m", "\r", "\x7f", "\u202e", "\ufffd", "\ud7ff", "\ufeff", "\x0b", "é"]


def mutate(text: str, insert: str, at: int) -> str:
    """`text` with `insert` put in at a position (wrapped to its length)."""
    at = at % (len(text) + 1)
    return text[:at] + insert + text[at:]


line_strategy = st.one_of(
    # Valid commands three times as often as each other kind, so that games move on.
    st.sampled_from(VALID),
    st.sampled_from(VALID),
    st.sampled_from(VALID),
    st.sampled_from(NEAR_VALID),
    st.builds(
        mutate,
        st.sampled_from(VALID + NEAR_VALID),
        st.sampled_from(NASTY) | st.text(max_size=3),
        st.integers(0, 40),
    ),
    st.text(max_size=40),
)


class SixesCpu:
    def choose_keep(self, rules, card, dice, rolls_left):
        return tuple(d for d in dice if d == 6)

    def choose_box(self, rules, card, dice):
        return max(card.placements(rules, dice), key=lambda p: p.points)


def cpu_factory(level, seed, rules):
    return SixesCpu()


@pytest.fixture(scope="module")
def db_url(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'plain.sqlite3'}"


@pytest.fixture(scope="module")
def service(db_url):
    store = Store(db_url)
    yield GameService(store, cpu_factory=cpu_factory)
    store.close()


TABLES = [
    (GameSettings((Seat("Ann"),)), False),
    (GameSettings((Seat("Ann"), Seat("CPU 1", "casual"))), True),
    (GameSettings((Seat("Ann"), Seat("Bob"))), False),
]


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    lines=st.lists(line_strategy, max_size=30),
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 2**31),
)
def test_a_refused_line_changes_nothing_and_nothing_raises(service, lines, table, seed):
    game_settings, practice = table
    view = service.create_game(game_settings, seed=seed, practice=practice)
    out = io.StringIO()
    # A roll first, so that holds and scores are often legal.
    stream = io.StringIO("".join(line + "\n" for line in ["roll", *lines]))
    session = PlainSession(service, view, LineReader(stream), out)
    while True:
        assert session.play_cpu_turns()
        before = service.load(view.game_id)
        line = session.reader.read()
        if line is None:
            break
        outcome = session.handle(line)
        after = service.load(view.game_id)
        assert session.view.version == after.version  # the screen shows what is saved
        if outcome is Outcome.QUIT:
            break
        if outcome is Outcome.ACTION:
            assert after.version == before.version + 1
        else:
            assert after.version == before.version, (line, outcome)
            assert after.state == before.state
    assert "Traceback" not in out.getvalue()


byte_chunks = st.one_of(
    st.sampled_from([line.encode() for line in VALID + NEAR_VALID]),
    st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\r", b"\n"]),
    st.binary(max_size=20),
    st.just(b"x" * (MAX_LINE * 3)),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    chunks=st.lists(st.tuples(byte_chunks, st.sampled_from([b"\n", b"", b"\r\n"])), max_size=25),
    with_cpu=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_random_bytes_on_stdin_end_cleanly(db_url, chunks, with_cpu, seed):
    data = b"".join(chunk + end for chunk, end in chunks)
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")  # strict, like sys.stdin
    out = io.StringIO()
    code = run_plain(
        RuleSet(),
        ["Ann"],
        ["casual"] if with_cpu else [],
        seed=seed,
        first="first_seat",
        games=1,
        stdin=stdin,
        stdout=out,
        db=db_url,
        practice=True,
        cpu_factory=cpu_factory,
    )
    assert code == 0
    text = out.getvalue()
    assert (
        text.rstrip().endswith(("is saved.", "continues it.", "1.", "2.")) or "Game over." in text
    )


def test_nasty_lines_are_refused_and_the_next_line_still_works(tmp_path):
    data = (
        b"\xff\xferoll\n"  # not UTF-8
        + b"ro\x00ll\n"  # a NUL
        + b"\x1b[31mroll\n"  # a terminal escape
        + b"r" * 100_000  # a very long line
        + b"\n\xef\xbb\xbfroll\n"  # a byte-order mark before a valid command: accepted
    )
    out = io.StringIO()
    run_plain(
        RuleSet(),
        ["Ann"],
        [],
        seed=1,
        first="first_seat",
        games=1,
        stdin=io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'nasty.sqlite3'}",
    )
    text = out.getvalue()
    assert text.count("That line has characters no command uses") == 3
    assert "That line is too long (over 1000 characters)." in text
    assert "\x1b" not in text and "\x00" not in text
    log = [
        e.action
        for e in GameService.open(f"sqlite:///{tmp_path / 'nasty.sqlite3'}").record(1).actions
    ]
    assert log == ["roll"]
