"""Not a speed: how much a screen reader has to read in the plain mode (JSON figures).

Plays one whole verifiable solo game in-process with scripted dice (each turn: roll, hold 1 2,
roll, score a box that earns points), then counts what was printed: lines and characters in
all and per turn, 64-digit commitments, score cards, dice in brackets and boxes listed at 0.
Run it on this tree and on another (`PYTHONPATH=that/src`) to compare:

    PYTHONPATH=src .venv/bin/python benchmarks/plain_transcript.py
"""

from __future__ import annotations

import io
import json
import re
import sys
import tempfile
from pathlib import Path

import fivedice.service.view as view
from fivedice.core.dice import ScriptedDice
from fivedice.core.rules import RuleSet
from fivedice.plain.game import run_plain

FINAL_DICE = {
    "ones": [1, 1, 1, 5, 6],
    "twos": [2, 2, 2, 5, 6],
    "threes": [3, 3, 3, 5, 6],
    "fours": [4, 4, 4, 5, 6],
    "fives": [5, 5, 5, 2, 6],
    "sixes": [6, 6, 6, 2, 5],
    "three_of_a_kind": [4, 4, 4, 1, 2],
    "four_of_a_kind": [3, 3, 3, 3, 1],
    "full_house": [2, 2, 5, 5, 5],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "yahtzee": [6, 6, 6, 6, 6],
    "chance": [1, 1, 2, 3, 4],
}


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def transcript() -> tuple[str, list[str]]:
    """The whole game's output, and the lines typed."""
    script: dict[int, list[int]] = {}
    lines: list[str] = []
    for turn, (box, final) in enumerate(FINAL_DICE.items()):
        script[4 * turn + 1] = [*final[:2], 1, 2, 3]
        script[4 * turn + 3] = final[2:]
        lines += ["roll", "hold 1 2", "roll", f"score {box}"]
    view.action_dice = lambda *args, **kwargs: ScriptedDice(script.get(args[3], []))  # type: ignore[assignment]
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        run_plain(
            RuleSet(),
            ["Ann"],
            [],
            seed=None,
            first="first_seat",
            games=1,
            stdin=Stdin("".join(line + "\n" for line in lines)),
            stdout=out,
            db=f"sqlite:///{Path(folder) / 'plain.sqlite3'}",
        )
    return out.getvalue(), lines


def main() -> None:
    text, typed = transcript()
    answers = text.split("Ann> ")
    per_turn = [
        sum(len(answer.splitlines()) for answer in answers[1 + 4 * turn : 5 + 4 * turn])
        for turn in range(13)
    ]
    boxes = [line for line in text.splitlines() if "Boxes: " in line]
    figures = {
        "source": str(Path(view.__file__).parents[2]),
        "lines_typed": len(typed),
        "lines_printed": len(text.splitlines()),
        "characters_printed": len(text),
        "lines_before_first_prompt": len(answers[0].splitlines()),
        "lines_per_turn_mean": round(sum(per_turn) / len(per_turn), 2),
        "lines_per_turn_max": max(per_turn),
        "lines_answering_a_hold": [
            len(answers[1 + 4 * turn + 1].splitlines()) for turn in range(13)
        ][:3],
        "commitments_64_hex": len(re.findall(r"[0-9a-f]{64}", text)),
        "score_cards_printed": text.count("Upper total"),
        "dice_in_brackets": len(re.findall(r"\[\d\]", text)),
        "boxes_listed_at_0": sum(len(re.findall(r" 0(?:,|$)", line)) for line in boxes),
        "characters_of_boxes_lines": sum(len(line) for line in boxes),
    }
    json.dump(figures, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
