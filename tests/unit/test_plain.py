"""The plain mode, driven through stdin and stdout in-process (a saved game per test)."""

from __future__ import annotations

import io

from fivedice.core.rules import RuleSet
from fivedice.plain import run_plain
from fivedice.service import GameService


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def play(
    text: str,
    tmp_path,
    *,
    players=("Ann",),
    cpus=(),
    seed: int = 3,
    rules: RuleSet | None = None,
    practice: bool = False,
    cpu_factory=None,
) -> str:
    """Runs the plain mode on `text` and returns what it printed."""
    out = io.StringIO()
    options = {} if cpu_factory is None else {"cpu_factory": cpu_factory}
    code = run_plain(
        rules or RuleSet(),
        list(players),
        list(cpus),
        seed=seed,
        first="first_seat",
        games=1,
        stdin=Stdin(text),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
        practice=practice,
        **options,
    )
    assert code == 0
    return out.getvalue()


def saved_log(tmp_path) -> list[str]:
    service = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    return [entry.action for entry in service.record(1).actions]


def test_undo_takes_back_the_last_action_and_help_lists_it(tmp_path):
    out = play("help\nroll\nhold 1 2\nundo\nundo\nroll\nundo\n", tmp_path)
    assert "undo" in out.split("Ann> ")[1]  # the answer to help
    assert "Your last action is taken back." in out
    assert "Cannot undo: only the last action can be taken back" in out
    assert "Cannot undo: a roll cannot be taken back" in out
    assert saved_log(tmp_path) == ["roll", "hold 1 2", "undo", "roll"]
