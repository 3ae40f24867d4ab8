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
import sys
import tempfile
from pathlib import Path


def verdict(path: Path, *options: str) -> dict[str, object]:
    """The exit status, the first line, and the first problem named (if any)."""
    from typer.testing import CliRunner

    from fivedice.cli import app

    result = CliRunner().invoke(app, ["verify", str(path), *options])
    lines = result.output.strip().splitlines() or [""]
    found: dict[str, object] = {"exit": result.exit_code, "says": lines[0][:110]}
    problems = [line for line in lines if line.startswith("- ")]
    if problems:
        found["first problem"] = problems[0][:110]
    return found


def main() -> None:
    from tests.support.players import play_out, simple_cpu_factory
    from tests.support.tampering import header, tamperings

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
    cases["no fair-dice lines, dice from the game seed, practice: no"] = header(
        practice_text, "practice", lambda _: "no"
    )
    options: dict[str, list[str]] = {}
    try:  # records signed (since the signing change): the forgeries a key makes possible
        from tests.support.tampering import unsigned

        from fivedice.core.record import split_signature
        from fivedice.service.signing import record_key
    except ImportError:
        pass
    else:
        ours = record_key()
        changed = tamperings(text)
        status, _ = split_signature(changed["the status (finished -> abandoned)"])
        renamed, _ = split_signature(changed["a player renamed"])
        cases["status changed, signature removed"] = unsigned(status + "\n")
        cases["player renamed, re-signed by the server's own key"] = ours.sign(renamed)
        os.environ["FIVEDICE_RECORD_KEY"] = "0123456789abcdef" * 4
        forged = record_key().sign(status)
        cases["status changed, re-signed by another key (no --key)"] = forged
        cases["status changed, re-signed by another key, --key pinned"] = forged
        options["status changed, re-signed by another key, --key pinned"] = [
            "--key",
            ours.fingerprint,
        ]
    results = {}
    for name, changed_text in cases.items():
        path = root / "record.txt"
        path.write_text(changed_text, encoding="utf-8")
        results[name] = verdict(path, *options.get(name, []))
    json.dump(results, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
