"""What `fivedice verify` says about a true game record and about each kind of tampering.

Plays one finished game (Ann and a CPU, classic rules, verifiable dice) into a temporary
SQLite database, exports its record, changes it as a forger would - one kind of change at a
time, each made consistent where it can be (totals fixed after a moved score or a changed
rule) - and prints, as JSON, each case's exit status and the first line `fivedice verify`
printed. Run from the repository root:

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python benchmarks/bench_record_tampering.py
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ACTION = re.compile(r"^(?P<seq>\d+)\. (?P<name>[^:]+): (?P<action>.+?)(?: -> (?P<dice>[1-6 ]+))?$")


def _header(text: str, key: str, change: Callable[[str], str]) -> str:
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(f"{key}: "):
            lines[index] = f"{key}: {change(line[len(key) + 2 :])}"
            return "\n".join(lines)
    raise LookupError(key)


def _body_end(lines: list[str]) -> int:
    """The index after the last action line (a signature line, if any, follows)."""
    last = max(i for i, line in enumerate(lines) if ACTION.match(line))
    return last + 1


def _fix_totals(text: str) -> str:
    """The record with its totals line set to what its actions give (as a forger would)."""
    from fivedice.core.record import parse_record

    unsigned = _unsigned(text)
    state = parse_record(unsigned, check=False).rebuild()
    return _header(text, "totals", lambda _: " ".join(map(str, state.match_totals)))


def _unsigned(text: str) -> str:
    lines = text.split("\n")
    return "\n".join(line for line in lines if not line.startswith("signature: "))


def _plus_one(totals: str) -> str:
    return " ".join(str(int(total) + 1) for total in totals.split())


def tamperings(text: str) -> dict[str, str]:
    lines = text.split("\n")
    actions = [(i, m) for i, line in enumerate(lines) if (m := ACTION.match(line))]
    rolls = [(i, m) for i, m in actions if m["dice"]]

    def die() -> str:
        index, match = rolls[len(rolls) // 3]
        dice = match["dice"].split()
        dice[0] = str(int(dice[0]) % 6 + 1)
        changed = lines.copy()
        changed[index] = f"{match['seq']}. {match['name']}: {match['action']} -> {' '.join(dice)}"
        return "\n".join(changed)

    def moved_score() -> str:
        # Two of Ann's scores swap boxes (each box was open when it is now scored).
        scores = [
            (i, m) for i, m in actions if m["name"] == "Ann" and m["action"].startswith("score")
        ]
        for (i, a), (j, b) in ((x, y) for x in scores for y in scores if x[0] < y[0]):
            if a["action"] == b["action"]:
                continue
            changed = lines.copy()
            changed[i] = lines[i].replace(a["action"], b["action"], 1)
            changed[j] = lines[j].replace(b["action"], a["action"], 1)
            candidate = "\n".join(changed)
            try:
                fixed = _fix_totals(candidate)
            except Exception:  # an illegal swap (a joker rule, ...): try the next pair
                continue
            if fixed != candidate:
                return fixed
        raise LookupError("no swap changes the totals")

    def rules() -> str:
        def worth_more(value: str) -> str:
            settings = json.loads(value)
            settings["full_house"] = settings["full_house"] + 15
            settings["small_straight"] = settings["small_straight"] + 15
            return json.dumps(settings, sort_keys=True)

        return _fix_totals(_header(text, "rules_settings", worth_more))

    def renamed() -> str:
        changed = [
            line.replace("Ann", "Zoe") if line.startswith("seat: ") or ACTION.match(line) else line
            for line in lines
        ]
        return "\n".join(changed)

    def fair_lines_removed() -> str:
        keys = ("dice_scheme:", "dice_commitment:", "client_seeds:", "server_seed:")
        return "\n".join(line for line in lines if not line.startswith(keys))

    def added_comment() -> str:
        changed = lines.copy()
        changed.insert(_body_end(lines), "# Ann's dice were loaded")
        return "\n".join(changed)

    cases = {
        "a die": die,
        "the server seed": lambda: _header(text, "server_seed", lambda v: "0" * len(v)),
        "a client seed": lambda: _header(text, "client_seeds", lambda v: v.replace("ann", "bob")),
        "the game seed": lambda: _header(text, "seed", lambda v: str(int(v) + 1)),
        "the rules (totals fixed)": rules,
        "a player renamed": renamed,
        "a score moved to another box (totals fixed)": moved_score,
        "a total": lambda: _header(text, "totals", _plus_one),
        "the status (finished -> abandoned)": lambda: _header(
            text, "status", lambda _: "abandoned"
        ),
        "the practice flag (no -> yes)": lambda: _header(text, "practice", lambda _: "yes"),
        "the game id": lambda: _header(text, "game", lambda v: str(int(v) + 100)),
        "the start time": lambda: _header(text, "started", lambda v: v.replace("20", "19", 1)),
        "the fair-dice lines removed": fair_lines_removed,
        "a comment line added": added_comment,
    }
    return {name: make() for name, make in cases.items()}


def verdict(path: Path) -> dict[str, object]:
    from typer.testing import CliRunner

    from fivedice.cli import app

    result = CliRunner().invoke(app, ["verify", str(path)])
    first = (result.output.strip().splitlines() or [""])[0]
    return {"exit": result.exit_code, "says": first[:150]}


def main() -> None:
    from tests.support.players import play_out, simple_cpu_factory

    from fivedice.core.game import FirstPlayer, GameSettings, Seat
    from fivedice.core.rules import find_ruleset
    from fivedice.service.games import GameService
    from fivedice.store import Store

    root = Path(tempfile.mkdtemp(prefix="fivedice-tamper-"))
    os.environ.setdefault("XDG_DATA_HOME", str(root / "data"))  # a throwaway installation key
    os.environ["FIVEDICE_LANG"] = "en"
    store = Store(f"sqlite:///{root / 'games.sqlite3'}")
    service = GameService(store, cpu_factory=simple_cpu_factory)
    settings = GameSettings(
        (Seat("Ann"), Seat("CPU", cpu_level="casual")),
        find_ruleset("classic"),
        FirstPlayer.HIGHEST_DIE,
    )
    view = service.create_game(settings, client_seeds=["ann's seed", None])
    play_out(service, view.game_id)
    text = service.export(view.game_id)
    practice = service.create_game(settings, seed=7)
    play_out(service, practice.game_id)
    practice_text = service.export(practice.game_id)
    store.close()

    cases = {"(the true record)": text, "(a practice game's true record)": practice_text}
    cases.update(tamperings(text))
    # The fair-dice lines gone and the dice rolled from the game's own seed (as a forger can
    # write any game he likes), passed off as a game that counts:
    cases["no fair-dice lines, dice from the game seed, practice: no"] = _header(
        practice_text, "practice", lambda _: "no"
    )
    results = {}
    for name, changed in cases.items():
        path = root / "record.txt"
        path.write_text(changed, encoding="utf-8")
        results[name] = verdict(path)
    json.dump(results, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
