"""Scripted dice for Hold'em tests: the faces that make the bag give chosen dice."""

from __future__ import annotations

from collections.abc import Sequence

from fivedice.core.dice import RandomDice, ScriptedDice
from fivedice.core.holdem.dice import COLOURS, Die, full_bag, parse_dice


def faces_drawing(dice: Sequence[Die], bag: tuple[int, ...] | None = None) -> list[int]:
    """The faces a source must give so that the bag draws `dice` in this order (the first
    die of the colour each time: two faces name its place in the bag, one more rolls it)."""
    counts = list(full_bag() if bag is None else bag)
    faces: list[int] = []
    for die in dice:
        position = COLOURS.index(die.colour)
        index = sum(counts[:position])
        faces += [index // 6 + 1, index % 6 + 1, die.face]
        counts[position] -= 1
    return faces


class ThenRandom:
    """Scripted faces first, then seeded random ones (the hands after the scripted one)."""

    def __init__(self, faces: list[int]) -> None:
        self.script = ScriptedDice(faces)
        self.left = len(faces)
        self.rest = RandomDice(0)

    def roll(self, count: int) -> tuple[int, ...]:
        if count <= self.left:
            self.left -= count
            return self.script.roll(count)
        return self.rest.roll(count)


def deal(pockets: Sequence[str], board: str, button: int = 0) -> ThenRandom:
    """The dice of a whole hand: each seat's pocket (seat 0 first; they are drawn one die a
    round starting left of the button) and then the board."""
    count = len(pockets)
    order = [(button + step) % count for step in range(1, count + 1)]
    parsed = [parse_dice(text) for text in pockets]
    drawn = [parsed[seat][round_] for round_ in range(2) for seat in order]
    return ThenRandom(faces_drawing([*drawn, *parse_dice(board)]))
