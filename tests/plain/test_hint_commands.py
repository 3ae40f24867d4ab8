"""The plain mode's hint says exactly what to type: each option's commands, typed from the
dice held when it was asked, hold exactly the dice the option keeps (releasing the others)."""

from __future__ import annotations

import io
import re

import pytest

from fivedice.core.rules import RuleSet
from fivedice.plain.game import LINE_WIDTH, run_plain
from fivedice.service.games import GameService

PROMPT = "Ann> "
OPTION = re.compile(r"^\s+\d+\. keep ([\d ]+?)(?: \(type: (.*)\))?: ")


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def play(lines: list[str], database: str) -> list[str]:
    """What the plain mode said to each line (the game is played on seed 3 from scratch)."""
    out = io.StringIO()
    code = run_plain(
        RuleSet(),
        ["Ann"],
        [],
        seed=3,
        first="first_seat",
        games=1,
        stdin=Stdin("".join(line + "\n" for line in lines)),
        stdout=out,
        db=database,
    )
    assert code == 0
    said = out.getvalue()
    assert all(len(line) < LINE_WIDTH + 1 for line in said.splitlines()), said
    return said.split(PROMPT)[1:]


@pytest.mark.slow  # (a game per option, with the classic table)
@pytest.mark.parametrize("before", [[], ["hold 1 2"], ["hold 1 2 3 4 5"], ["hold 4"]])
def test_typing_what_the_hint_says_holds_exactly_the_keep(tmp_path, classic_table, before):
    database = f"sqlite:///{tmp_path / 'hint.sqlite3'}"
    hint = play(["r", *before, "h"], database)[-2]  # (the last answer is the goodbye)
    options = [OPTION.match(line) for line in hint.splitlines()]
    found = [(match.group(1), match.group(2)) for match in options if match]
    assert len(found) >= 3, hint
    for number, (keep, commands) in enumerate(found):
        typed = commands.split("; ") if commands else []
        assert all(re.fullmatch(r"(hold|release) [\d ]+|release all", c) for c in typed), hint
        path = tmp_path / f"option-{number}.sqlite3"
        play(["r", *before, *typed], f"sqlite:///{path}")
        view = GameService.open(f"sqlite:///{path}").view(1)
        state = view.state
        assert state.dice is not None
        held = sorted(d for d, h in zip(state.dice, state.turn.held, strict=True) if h)
        assert held == sorted(map(int, keep.split())), (keep, typed, hint)
