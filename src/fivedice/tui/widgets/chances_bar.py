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
from fivedice.wording.cells import fit_cells, text_width

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


def chances_text(
    state: GameState, chances: tuple[float, ...], width: int, estimate: bool = False
) -> Text:
    """Two lines: a stacked bar `width` cells wide, and each seat's name and percentage."""
    text = Text()
    cells = [round(c * width) for c in chances]
    # Rounding may leave the bar a cell short or long: the largest share absorbs it.
    cells[max(range(len(cells)), key=lambda i: chances[i])] += width - sum(cells)
    for seat, count in enumerate(cells):
        text.append("█" * max(count, 0), style=SEAT_STYLES[seat % len(SEAT_STYLES)])
    text.append("\n")
    # The figures line: with the label if it fits, else without, else with shortened names.
    # Translators: a label and its colon, before what it labels ("Chances to win: ").
    label = _("{label}: ").format(label=_("Chances to win") + (" ≈" if estimate else ""))
    names = [seat.name for seat in state.seats[: len(chances)]]
    for lead, cut in (
        (label, None),
        ("≈ " if estimate else "", None),
        ("≈ " if estimate else "", 4),
    ):
        parts = [
            f"{name if cut is None else fit_cells(name, cut)} {formats.percent(chance)}"
            for name, chance in zip(names, chances, strict=True)
        ]
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
