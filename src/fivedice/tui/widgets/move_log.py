"""The move log of the game screen, kept as data and worded only when shown.

Each entry is a small JSON object (what happened, with its numbers), not a sentence: so the
log is shown again in whatever language is chosen later, a coach's verdict can be put right
after the move it judges, and the log is saved with the game's session and restored on
resume. An entry that cannot be read (a damaged session) is skipped, never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.events import Resize
from textual.widgets import RichLog

from fivedice.core.actions import Hold, Release, Roll, Score, parse_action
from fivedice.core.categories import Category
from fivedice.core.game import GameState
from fivedice.core.scoring import position_codes
from fivedice.i18n import _, formats
from fivedice.service.settings import is_default_human_name
from fivedice.wording.moves import undo_sentence
from fivedice.wording.text import (
    choice_text,
    hold_sentence,
    placement_words,
    roll_sentence,
    score_sentence,
    turn_events,
    turn_news_sentences,
)

Entry = dict[str, Any]
MAX_ENTRIES = 500
"""The log keeps its newest entries only (the oldest go first)."""


def action_entry(before: GameState, action: str, after: GameState) -> Entry:
    """The entry of one action of the seat to move in `before`, which led to `after`."""
    name = before.seats[before.current_seat].name
    parsed = parse_action(action, None)
    if isinstance(parsed, Roll):
        # The rolled dice are those of the seat's turn, before any next game started.
        return {
            "kind": "roll",
            "name": name,
            "dice": list(position_codes(after.rules, after.dice or ())),  # the wild die apart
            "held": list(after.turn.held),
        }
    if isinstance(parsed, Hold | Release):
        return {
            "kind": "hold" if isinstance(parsed, Hold) else "release",
            "name": name,
            "positions": list(parsed.positions),
            "dice": [
                position_codes(before.rules, before.dice or ())[p - 1] for p in parsed.positions
            ],
        }
    assert isinstance(parsed, Score)  # the four actions are exhaustive
    placement = next(
        (
            p
            for p in before.placements()
            if (p.column, p.category) == (parsed.column, parsed.category)
        ),
        None,
    )
    extra_turn, saved = turn_events(before, after)
    return {
        "kind": "score",
        "name": name,
        "box": parsed.category.key,
        "column": parsed.column + 1 if before.rules.columns > 1 else None,
        "points": placement.box_points if placement else 0,
        "upper_bonus": placement.upper_bonus if placement else 0,
        "yahtzee_bonus": placement.yahtzee_bonus if placement else 0,
        "extra_turn": extra_turn,
        "saved_rolls": saved,
    }


def game_entry(number: int, count: int) -> Entry:
    """Game `number` of a match of `count` begins."""
    return {"kind": "game", "number": number, "count": count}


def coach_entry(
    loss: float,
    keep: tuple[int, ...] | None,
    category: Category | None,
    column: int | None,
    estimate: bool,
) -> Entry:
    """The coach's verdict on a decision: what it cost, and the best choice."""
    return {
        "kind": "coach",
        "loss": round(loss, 4),
        "keep": None if keep is None else list(keep),
        "box": None if category is None else category.key,
        "column": column,
        "estimate": estimate,
    }


def correction_entry(name: str, undone: Entry | None) -> Entry:
    """An action taken back (undo): the log keeps what happened and says so."""
    return {"kind": "undo", "name": name, "undone": undone}


def entry_text(entry: Entry) -> str | None:
    """The entry in the current language; None when it cannot be read."""
    try:
        return _entry_text(entry)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _actor(entry: Entry) -> str | None:
    """Who acted, for the sentence: None (said "You ...") for the human's default name."""
    name = str(entry["name"])
    return None if is_default_human_name(name) else name


def _entry_text(entry: Entry) -> str | None:
    kind = entry["kind"]
    # Moves are worded as every front end words them (`fivedice.wording.text`):
    # "CPU 2 rolls 3 3 5 6 6", "You roll 1 2 3 4 4",
    # "CPU 2 scores 25 in Full house".
    if kind == "roll":
        return roll_sentence(_actor(entry), tuple(int(d) for d in entry["dice"]))
    if kind in ("hold", "release"):
        return hold_sentence(
            _actor(entry),
            tuple(int(p) for p in entry["positions"]),
            tuple(int(d) for d in entry["dice"]),
            hold=kind == "hold",
        )
    if kind == "score":
        column = entry.get("column")
        where = placement_words(
            int(entry["points"]),
            Category.parse(entry["box"]),
            None if column is None else int(column) - 1,
            int(entry.get("upper_bonus") or 0),
            int(entry.get("yahtzee_bonus") or 0),
        )
        news = turn_news_sentences(
            _actor(entry), bool(entry.get("extra_turn")), int(entry.get("saved_rolls") or 0)
        )
        return "\n".join([score_sentence(_actor(entry), where), *news])
    if kind == "game":
        return _("Game {number} of {count} begins.").format(
            number=int(entry["number"]), count=int(entry["count"])
        )
    if kind == "coach":
        loss = float(entry["loss"])
        if loss < 0.005:
            return _("Coach: the best choice.")
        keep = None if entry.get("keep") is None else tuple(int(d) for d in entry["keep"])
        category = None if entry.get("box") is None else Category.parse(entry["box"])
        column = entry.get("column")
        choice = choice_text(keep, category, None if column is None else int(column))
        if entry.get("estimate"):
            message = _("Coach: that cost ≈{points} points (an estimate); best was {choice}.")
        else:
            message = _("Coach: that cost {points} expected points; best was {choice}.")
        return message.format(points=formats.number(loss, 2), choice=choice)
    if kind == "undo":
        name = _actor(entry)
        undone = entry.get("undone")
        action = entry_text(undone) if isinstance(undone, dict) else None
        return undo_sentence(name, action)
    return None


class MoveLog:
    """The entries of the log, oldest first."""

    def __init__(self, entries: list[Entry] | None = None) -> None:
        self.entries: list[Entry] = list(entries or [])[-MAX_ENTRIES:]

    def append(self, entry: Entry) -> None:
        """Adds an entry at the end."""
        self.entries.append(entry)
        if len(self.entries) > MAX_ENTRIES:
            del self.entries[0]

    def insert_after(self, anchor: Entry, entry: Entry) -> None:
        """Puts an entry right after `anchor` (and after verdicts already there); at the end
        when the anchor is no longer in the log."""
        position = next((i for i, e in enumerate(self.entries) if e is anchor), None)
        if position is None:
            self.append(entry)
            return
        position += 1
        while position < len(self.entries) and self.entries[position].get("kind") == "coach":
            position += 1
        self.entries.insert(position, entry)
        if len(self.entries) > MAX_ENTRIES:
            del self.entries[0]

    def lines(self) -> list[str]:
        """Every readable entry in the current language."""
        return [text for text in map(entry_text, self.entries) if text is not None]

    @classmethod
    def from_json(cls, data: object) -> MoveLog:
        """A log from saved data; anything that is not a list of objects is dropped."""
        if not isinstance(data, list):
            return cls()
        return cls([entry for entry in data if isinstance(entry, dict)])


class LogView(RichLog):
    """The move log on screen: each line wrapped to the log's width, and wrapped again
    when that width changes (a narrower window never cuts a line or needs a horizontal
    scrollbar; a wider one unwraps them)."""

    def __init__(self, lines_of: Callable[[], list[str]], **options: Any) -> None:
        """Args:
        lines_of: the log's lines now (in the current language), to write again.
        options: the widget's (id, classes).
        """
        super().__init__(wrap=True, max_lines=MAX_ENTRIES, markup=False, min_width=20, **options)
        self.lines_of = lines_of
        self._wrapped_at: int | None = None

    def on_resize(self, event: Resize) -> None:
        # (RichLog's own handler runs too: it writes what waited for a first size.)
        width = event.size.width
        if self._wrapped_at is not None and width != self._wrapped_at:
            self.call_after_refresh(self.rewrite)
        self._wrapped_at = width

    def rewrite(self) -> None:
        """Writes every line again, wrapped to the width the log has now."""
        self.clear()
        for line in self.lines_of():
            self.write(line)
