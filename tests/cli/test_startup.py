"""The console script's start-up: only the command run is built, plain option values are read
without pydantic (as pydantic reads them), and typer's rich help loads only to print help or a
refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import typer.main
from pydantic import TypeAdapter, ValidationError

from fivedice.cli import app
from fivedice.cli.help import localized_command
from fivedice.cli.startup import _plain_value

HEAVY = ("pydantic", "typer.rich_utils", "markdown_it", "pygments", "numpy", "numba")
"""Modules a command needs not load (the wording may use `rich.cells` to measure text)."""


def _modules_after(*args: str) -> list[str]:
    """The heavy modules a `fivedice ARGS...` process has imported when it ends."""
    code = (
        "import sys\n"
        f"sys.argv = ['fivedice', *{list(args)!r}]\n"
        "from fivedice.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print('MODULES', [name for name in {HEAVY!r} if name in sys.modules])\n"
    )
    env = {**os.environ, "FIVEDICE_LANG": "en", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    line = next(line for line in done.stdout.splitlines() if line.startswith("MODULES"))
    return json.loads(line.removeprefix("MODULES ").replace("'", '"'))


@pytest.mark.processes
def test_a_command_loads_neither_pydantic_nor_rich_but_help_and_refusals_do() -> None:
    assert _modules_after("score", "--dice", "33355", "--json") == []
    assert _modules_after("--lang", "de", "rules", "--rules", "yatzy") == []
    assert "typer.rich_utils" in _modules_after("score", "--help")
    assert "typer.rich_utils" in _modules_after("score", "--dice")  # refused: no value


def test_only_the_command_named_is_built_and_every_command_is_listed() -> None:
    group = localized_command(app, ["score"])
    commands = group.commands
    assert list(commands) == list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert "advise" in commands and "nonsense" not in commands
    assert commands._built == {}  # listing and `in` build nothing
    score = group.get_command(None, "score")
    assert score is commands["score"] and list(commands._built) == ["score"]
    assert group.get_command(None, "nonsense") is None


@pytest.mark.parametrize(
    "value",
    ["0", "7", "+4", "-3", "007", "-0", "123456789012345678", "x", "3.0", " 5", "1_000", "٣", ""],
)
def test_a_whole_number_is_read_as_pydantic_reads_it_or_left_to_pydantic(value: str) -> None:
    known, plain = _plain_value(int, value)
    if known:
        assert plain == TypeAdapter(int).validate_python(value)
    else:
        assert value in {"x", "3.0", " 5", "1_000", "٣", ""}  # pydantic's own reading


@pytest.mark.parametrize(
    ("annotation", "value"),
    [(str, "abc"), (str, "\udcff"), (bool, True), (bool, False), (list[str], ("a", "b"))],
)
def test_text_flags_and_lists_are_read_as_pydantic_reads_them(annotation, value) -> None:
    known, plain = _plain_value(annotation, value)
    assert known
    assert plain == TypeAdapter(annotation).validate_python(value)


def test_a_value_pydantic_refuses_is_left_to_it() -> None:
    known, _ = _plain_value(int, "x")
    assert not known
    with pytest.raises(ValidationError):
        TypeAdapter(int).validate_python("x")


@pytest.mark.parametrize(("given", "left"), [(None, "1"), ("4", "4")])
def test_the_command_line_starts_no_blas_threads_unless_the_user_asks(
    monkeypatch: pytest.MonkeyPatch, given: str | None, left: str
) -> None:
    """numpy is not loaded yet when the command line starts, so OpenBLAS reads the setting."""
    from fivedice.cli import main

    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    monkeypatch.setattr(sys, "argv", ["fivedice", "--help"])
    with pytest.raises(SystemExit):
        main()
    assert os.environ["OPENBLAS_NUM_THREADS"] == left
