"""The winning-chances bar of the game screen: each seat's chance of winning, live.

The bar watches the game state it is given (a function its screen passes) and, whenever it
changes, computes the chances in a worker thread through the service (the first time for a
rule set may load or compute the strategy tables), then shows one stacked bar (a colour per
seat) and each seat's percentage. It is hidden with a single seat, and `w` switches it off
and on (on by default).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widget import Widget

from fivedice.core.game import GameState
from fivedice.i18n import _, formats
from fivedice.service.settings import shown_name
from fivedice.wording.cells import text_width
from fivedice.wording.shares import whole_percents

# One colour per seat (up to eight seats), readable on dark and light themes.
SEAT_STYLES: tuple[str, ...] = (
    "dodger_blue2",
    "orange3",
    "green3",
    "magenta3",
    "gold3",
    "cyan3",
    "red3",
    "purple",
)
POLL = 0.2  # seconds between two looks at the game state


TAG_CELLS = 6
"""A seat's tag on a narrow bar is at most this many cells wide ("You", "C2", "あなた")."""


def _cut(text: str, cells: int) -> str:
    """The start of `text` that fits in `cells` (no ellipsis: a tag is short on purpose)."""
    kept = ""
    for character in text:
        if text_width(kept + character) > cells:
            break
        kept += character
    return kept


def short_tags(names: list[str], cells: int = TAG_CELLS) -> list[str]:
    """Short tags that tell every seat apart, in seat order: a name that fits stays whole;
    a longer one becomes its initial and its number ("CPU 2 (casual)" → "C2"), or more of
    its letters while two tags are alike; the seat number settles what is still alike.

    >>> short_tags(["You", "CPU 1 (casual)", "CPU 2 (expert)"])
    ['You', 'C1', 'C2']
    >>> short_tags(["Annabel", "Annemarie"])
    ['Anna', 'Anne']
    """

    def tag(name: str, letters: int) -> str:
        if letters == 0 and text_width(name) <= cells:
            return name
        words = name.split()
        digits = "".join(ch for ch in (words[1] if len(words) > 1 else "") if ch.isdigit())
        head = "".join(ch for ch in name if not ch.isspace())
        return _cut(head[: max(letters, 1)] + digits, cells)

    tags = [tag(name, 0) for name in names]
    for letters in range(1, cells + 1):
        alike = {t for t in tags if tags.count(t) > 1}
        if not alike:
            return tags
        tags = [
            tag(name, letters) if t in alike else t for name, t in zip(names, tags, strict=True)
        ]
    if len(set(tags)) < len(tags):
        tags = [_cut(t, cells - 1) + str(i) for i, t in enumerate(tags, 1)]
    return tags


def chances_text(
    state: GameState, chances: tuple[float, ...], width: int, estimate: bool = False
) -> Text:
    """Two lines: a stacked bar `width` cells wide, and each seat's name and percentage.

    Seats are always in seat order; where full names do not fit, each seat gets a short tag
    that differs from the others' (`short_tags`).
    """
    text = Text()
    cells = [round(c * width) for c in chances]
    # Rounding may leave the bar a cell short or long: the largest share absorbs it.
    cells[max(range(len(cells)), key=lambda i: chances[i])] += width - sum(cells)
    for seat, count in enumerate(cells):
        text.append("█" * max(count, 0), style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    text.append("\n")
    # The figures line: with the label if it fits, else without, else with short tags.
    # Translators: a label and its colon, before what it labels ("Chances to win: ").
    label = _("{label}: ").format(label=_("Chances to win") + (" ≈" if estimate else ""))
    names = [shown_name(seat.name) for seat in state.seats[: len(chances)]]
    percents = [formats.percent(p / 100) for p in whole_percents(chances)]
    mark = "≈ " if estimate else ""
    for lead, shown in (
        (label, names),
        (mark, names),
        (mark, short_tags(names)),
        (mark, short_tags(names, 3)),
    ):
        parts = [f"{name} {percent}" for name, percent in zip(shown, percents, strict=True)]
        if text_width(lead + " · ".join(parts)) <= width:
            break
    text.append(lead, style="dim")
    for seat, part in enumerate(parts):
        if seat:
            text.append(" · ", style="dim")
        text.append(part, style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    return text


class ChancesBar(Widget):
    """Each seat's chance of winning, updated after every action (see the module docstring)."""

    def __init__(self, state_of: Callable[[], GameState], **options: object) -> None:
        """Args:
        state_of: the game state now (the bar looks at it every `POLL` seconds).
        options: the widget's (id, classes).
        """
        super().__init__(**options)  # type: ignore[arg-type]
        self.state_of = state_of
        self.enabled = True
        self._seen: GameState | None = None
        self._shown: tuple[GameState, tuple[float, ...], bool] | None = None

    def on_mount(self) -> None:
        self.display = False
        self.set_interval(POLL, self._look)

    def toggle(self) -> bool:
        """Switches the bar off or on; returns whether it is now on."""
        self.enabled = not self.enabled
        self._seen = None
        if not self.enabled:
            self.display = False
        return self.enabled

    def _look(self) -> None:
        state = self.state_of()
        if not self.enabled or state is self._seen:
            return
        self._seen = state
        if len(state.seats) < 2:
            self.display = False
            return
        self.run_worker(lambda: self._compute(state), thread=True, exclusive=True, group="chances")

    def _compute(self, state: GameState) -> None:
        try:
            from fivedice.service.games import chances_are_estimates, game_win_chances

            chances = game_win_chances(state)
            estimate = chances_are_estimates(state.rules)
        except Exception:  # no strategy layer or no table: no bar, the game goes on
            chances = None
            estimate = False
        self.app.call_from_thread(self._show, state, chances, estimate)

    def _show(self, state: GameState, chances: tuple[float, ...] | None, estimate: bool) -> None:
        if not self.enabled or state is not self._seen:
            return  # switched off meanwhile, or an older answer than the one on its way
        if chances is None:
            self.display = False
            return
        self._shown = (state, chances, estimate)
        self.display = True
        self.refresh()

    def render(self) -> Text:
        if self._shown is None:
            return Text("")
        state, chances, estimate = self._shown
        return chances_text(state, chances, max(self.size.width, 10), estimate)
