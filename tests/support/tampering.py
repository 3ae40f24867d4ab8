"""A true game record changed as a forger would: one kind of change at a time, each made
consistent where it can be (the totals fixed after a moved score or a changed rule). Shared by
the tampering tests and `benchmarks/bench_record_tampering.py`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

ACTION = re.compile(r"^(?P<seq>\d+)\. (?P<name>[^:]+): (?P<action>.+?)(?: -> (?P<dice>[1-6 ]+))?$")


def header(text: str, key: str, change: Callable[[str], str]) -> str:
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


def fix_totals(text: str) -> str:
    """The record with its totals line set to what its actions give (as a forger would)."""
    from fivedice.core.record import parse_record

    state = parse_record(text, check=False).rebuild()  # (the signature line is left aside)
    return header(text, "totals", lambda _: " ".join(map(str, state.match_totals)))


def unsigned(text: str) -> str:
    """The record without its signature line (as records were before they were signed)."""
    lines = text.split("\n")
    return "\n".join(line for line in lines if not line.startswith("signature: "))


def _plus_one(totals: str) -> str:
    return " ".join(str(int(total) + 1) for total in totals.split())


def tamperings(text: str) -> dict[str, str]:
    """Each kind of change, by name: the record changed in that one way (signature kept)."""
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
                fixed = fix_totals(candidate)
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

        return fix_totals(header(text, "rules_settings", worth_more))

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
        "the server seed": lambda: header(text, "server_seed", lambda v: "0" * len(v)),
        "a client seed": lambda: header(text, "client_seeds", lambda v: v.replace("ann", "bob")),
        "the game seed": lambda: header(text, "seed", lambda v: str(int(v) + 1)),
        "the rules (totals fixed)": rules,
        "a player renamed": renamed,
        "a score moved to another box (totals fixed)": moved_score,
        "a total": lambda: header(text, "totals", _plus_one),
        "the status (finished -> abandoned)": lambda: header(text, "status", lambda _: "abandoned"),
        "the practice flag (no -> yes)": lambda: header(text, "practice", lambda _: "yes"),
        "the game id": lambda: header(text, "game", lambda v: str(int(v) + 100)),
        "the start time": lambda: header(text, "started", lambda v: v.replace("20", "19", 1)),
        "the fair-dice lines removed": fair_lines_removed,
        "a comment line added": added_comment,
    }
    return {name: make() for name, make in cases.items()}
