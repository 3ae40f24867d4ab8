"""What the docs name exists: every file path, `fivedice` command and option and `make` target
written in the README and the pages of docs/ (in backticks or in a shell block).

Paths are checked against the repository (a path may also be written from `src/fivedice/`
or `src/`, as the pages of the layers do); commands and options against the command line's
own parser (typer's click command tree), so a renamed option fails here, not in a reader's
terminal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from fivedice.cli import app

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PATH_BASES = (ROOT, ROOT / "src" / "fivedice", ROOT / "src", ROOT / "src" / "fivedice" / "web")
TO_CREATE = {"src/fivedice/i18n/locale/it/LC_MESSAGES/fivedice.po"}  # adding a language: made
TOP_FOLDERS = ("src/", "tests/", "docs/", "scripts/", "benchmarks/", "deploy/")
FILE_ENDINGS = (".py", ".md", ".toml", ".yml", ".yaml", ".txt", ".sh", ".json", ".tcss", ".html",
                ".js", ".css", ".cfg", ".service", ".env")  # fmt: skip
INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|console|shell)\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _relative(page: Path) -> str:
    return str(page.relative_to(ROOT))


def inline_code(page: Path) -> Iterator[str]:
    """The backticked spans of a page, outside its fenced blocks."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    yield from (found.group(1).strip() for found in INLINE.finditer(text))


def shell_lines(page: Path) -> Iterator[str]:
    """The lines of a page's shell blocks, comments dropped and continuations joined."""
    for block in SHELL_BLOCK.findall(page.read_text(encoding="utf-8")):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            line = line.split(" # ", 1)[0].split("  #", 1)[0].strip()
            if line and not line.startswith("#"):
                yield line


def is_path(text: str) -> bool:
    """Whether a backticked span names a file or folder of the repository."""
    if " " in text or any(mark in text for mark in "<>{}*$=()|,:…") or text.startswith("/"):
        return False
    if "..." in text:
        return False
    if text.startswith(TOP_FOLDERS):
        return True
    return "/" in text and text.endswith(FILE_ENDINGS) and not text.startswith(("http", "~"))


def path_exists(text: str) -> bool:
    return text in TO_CREATE or any((base / text.rstrip("/")).exists() for base in PATH_BASES)


def named_paths() -> list[tuple[str, str]]:
    return sorted(
        {(_relative(page), span) for page in PAGES for span in inline_code(page) if is_path(span)}
    )


def fivedice_commands() -> list[tuple[str, str]]:
    """Each `fivedice ...` command line written in the pages (backticks and shell blocks)."""
    found: set[tuple[str, str]] = set()
    for page in PAGES:
        spans = [*inline_code(page), *shell_lines(page)]
        for span in spans:
            for command in re.split(r"\s*(?:&&|\||;)\s*", span):
                command = command.strip()
                if command.startswith(("fivedice ", ".venv/bin/fivedice ")):
                    found.add((_relative(page), command))
    return sorted(found)


def make_targets() -> list[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for page in PAGES:
        for span in [*inline_code(page), *shell_lines(page)]:
            for match in re.finditer(r"(?:^|&&\s*)make ([a-z][\w-]*)", span):
                found.add((_relative(page), match.group(1)))
    return sorted(found)


def test_the_pages_are_found() -> None:
    assert ROOT / "README.md" in PAGES and len(PAGES) > 20
    assert len(named_paths()) > 20 and len(fivedice_commands()) > 20 and make_targets()


def test_every_path_named_in_the_docs_exists() -> None:
    missing = [f"{page}: `{path}`" for page, path in named_paths() if not path_exists(path)]
    assert missing == [], "paths named in the docs that do not exist:\n" + "\n".join(missing)


def test_every_make_target_named_in_the_docs_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))
    missing = [f"{page}: make {target}" for page, target in make_targets() if target not in targets]
    assert missing == [], "make targets named in the docs that do not exist:\n" + "\n".join(missing)


def _command_tree() -> Any:
    """The click group typer makes of the `fivedice` app (typer's own click: duck-typed)."""
    group = typer.main.get_command(app)
    assert hasattr(group, "commands")
    return group


def _options(command: Any) -> dict[str, bool]:
    """The options of a command, each with whether it takes a value."""
    return {
        name: not getattr(param, "is_flag", False) and not getattr(param, "count", False)
        for param in command.params
        for name in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ()))
    }


def command_problem(tree: Any, line: str) -> str | None:
    """What is wrong with a `fivedice ...` line (None: its commands and options exist)."""
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    words = words[1:]  # "fivedice"
    context = tree
    options = _options(tree)
    while words:
        word = words.pop(0)
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            if name in ("--help", "-h"):
                continue
            if name not in options:
                return f"{context.name or 'fivedice'} has no option {name}"
            if options[name] and "=" not in word and words:
                words.pop(0)  # its value
            continue
        if word.isupper():  # a placeholder (COMMAND)
            continue
        if hasattr(context, "commands"):
            if word not in context.commands:
                if context is tree:
                    return f"no command {word!r}"
                continue  # an argument of the group's callback
            context = context.commands[word]
            options |= _options(context)
    return None


@pytest.mark.slow  # (imports every command group: ≥ 0.5 s)
def test_every_fivedice_command_and_option_named_in_the_docs_exists() -> None:
    tree = _command_tree()
    bad = [
        f"{page}: `{line}`: {problem}"
        for page, line in fivedice_commands()
        if (problem := command_problem(tree, line)) is not None
    ]
    assert bad == [], "commands or options named in the docs that do not exist:\n" + "\n".join(bad)


def test_the_command_check_finds_a_wrong_option() -> None:
    tree = _command_tree()
    assert command_problem(tree, "fivedice solve --rules classic") is None
    assert command_problem(tree, "fivedice solve --no-such-option") is not None
    assert command_problem(tree, "fivedice no-such-command") is not None
