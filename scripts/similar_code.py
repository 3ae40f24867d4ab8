"""Repeated code held down: pylint's similarity check (duplicate-code, R0801) over src/, as a
ratchet against the pairs known today.

pylint lists every pair of places that share `min-similarity-lines` (6) lines or more, imports,
docstrings, comments and signatures ignored (settings in pyproject.toml,
`[tool.pylint.similarities]`). Each pair is named by its two modules; the pairs of today are
in `scripts/similar_code_baseline.txt`. A pair of modules that is not in the baseline (a new
repeat) fails the check; a pair of the baseline that is gone is reported so the baseline can
shrink (`--update` rewrites it). Lines starting with `#` in the baseline are comments; an
entry ending in `# allowed: ...` is a repeat kept on purpose (data tables, a frozen migration).

Usage: `python scripts/similar_code.py [--update]` (`make similar-code`, part of `make test`).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "scripts" / "similar_code_baseline.txt"
SIDE = re.compile(r"^==([\w.]+):\[(\d+):(\d+)\]")


def pylint_pairs() -> list[tuple[str, str]]:
    """The pairs of modules pylint finds sharing lines (one entry per pair of places)."""
    from pylint.lint import Run
    from pylint.reporters.text import TextReporter

    out = io.StringIO()
    Run(
        [
            "--rcfile",
            str(ROOT / "pyproject.toml"),
            "--disable=all",
            "--enable=duplicate-code",
            "--score=n",
            str(ROOT / "src" / "fivedice"),
        ],
        reporter=TextReporter(out),
        exit=False,
    )
    pairs: list[tuple[str, str]] = []
    sides: list[str] = []
    for line in out.getvalue().splitlines():
        found = SIDE.match(line)
        if found:
            sides.append(found.group(1))
            continue
        if len(sides) >= 2:
            first, second = sorted(sides[:2])
            pairs.append((first, second))
        sides = []
    if len(sides) >= 2:
        first, second = sorted(sides[:2])
        pairs.append((first, second))
    return pairs


def read_baseline() -> list[tuple[str, str]]:
    pairs = []
    for raw in BASELINE.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            first, second = line.split()
            pairs.append((first, second))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the baseline")
    options = parser.parse_args()
    found = pylint_pairs()
    if options.update:
        kept = {pair: comment for pair, comment in _comments().items() if pair in found}
        lines = [line for line in BASELINE.read_text(encoding="utf-8").splitlines()
                 if line.startswith("#")]  # fmt: skip
        lines += [
            " ".join(pair) + (f"  # {kept[pair]}" if pair in kept else "") for pair in sorted(found)
        ]
        BASELINE.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{len(found)} pairs written to {BASELINE.relative_to(ROOT)}")
        return 0
    known = read_baseline()
    new = _extra(found, known)
    gone = _extra(known, found)
    print(f"similar code: {len(found)} pairs (baseline {len(known)})")
    for pair in gone:
        print(f"  gone (take it off the baseline, or --update): {' ~ '.join(pair)}")
    for pair in new:
        print(f"  NEW repeat: {' ~ '.join(pair)}", file=sys.stderr)
    if new:
        print(
            "Repeated lines were added: make one piece of code serve both places "
            "(pylint --disable=all --enable=duplicate-code src/fivedice shows where).",
            file=sys.stderr,
        )
        return 1
    return 0


def _comments() -> dict[tuple[str, str], str]:
    comments = {}
    for raw in BASELINE.read_text(encoding="utf-8").splitlines():
        line, _hash, comment = raw.partition("#")
        if line.strip():
            first, second = line.split()
            comments[(first, second)] = comment.strip()
    return {pair: text for pair, text in comments.items() if text}


def _extra(these: list[tuple[str, str]], those: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries of `these` beyond those of `those` (counted: a pair may stand twice)."""
    left = list(those)
    extra = []
    for pair in these:
        if pair in left:
            left.remove(pair)
        else:
            extra.append(pair)
    return sorted(extra)


if __name__ == "__main__":
    sys.exit(main())
