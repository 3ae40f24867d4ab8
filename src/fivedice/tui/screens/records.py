"""Statistics and high-score screens: what the service has saved about finished games.

Both screens ask the service once, when they are built, and render what it returns; on an
empty database (or with no database at all) they say there is nothing yet instead of failing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from fivedice.core.boxes import KNOWN_BOXES
from fivedice.core.errors import FivediceError
from fivedice.i18n import _, formats
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.review import phase_note, skill_heading, skill_lines, text_skill_chart
from fivedice.wording.text import box_name, error_text, preset_title

if TYPE_CHECKING:
    from fivedice.service.games import SkillStats
    from fivedice.store.stats import HighScore, ProfileStats


class RecordsScreen(Screen[None]):
    """A scrolling page built from saved results; s and t switch between the two pages."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,b", "close", "Back"),
        Binding("s", "show('stats')", "Statistics"),
        Binding("k", "show('skill')", "Skill"),
        Binding("t", "show('top')", "High scores"),
    ]
    PAGE = ""

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        localize_bindings(self)
        self.backend = backend

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page"):
            yield Static(Text(self.heading(), style="bold"), classes="title", id="records-title")
            yield Static(self._safe_body(), id="records")
        yield Footer()

    def _safe_body(self) -> RenderableType:
        try:
            return self.body()
        except FivediceError as error:  # e.g. the database cannot be read
            return Text(error_text(error), style="red")

    def rerender(self) -> None:
        """Asks the service again and shows the page anew (title and content)."""
        title = Text(self.heading(), style="bold")
        self.query_one("#records-title", Static).update(title)
        self.query_one("#records", Static).update(self._safe_body())

    def heading(self) -> str:
        """The page's title."""
        raise NotImplementedError

    def body(self) -> RenderableType:
        """The page's content, read from the service."""
        raise NotImplementedError

    def action_close(self) -> None:
        self.dismiss(None)

    def action_show(self, page: str) -> None:
        # The other page replaces this one, so Back still returns to where both were opened.
        if page != self.PAGE:
            self.app.switch_screen(records_screen(page, self.backend))


class StatsScreen(RecordsScreen):
    """Per player and rule preset: games, wins, average, best, worst, bonus rate, scores, boxes.

    `p` cycles the player shown: every player, then each profile in turn.
    """

    PAGE = "stats"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "next_player", "Player"),
    ]

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.player: str | None = None  # None: every player

    def heading(self) -> str:
        if self.player is None:
            return _("Statistics: every player")
        return _("Statistics: {player}").format(player=self.player)

    def players(self) -> list[str]:
        """The profiles with statistics, in the service's order (empty when none can be read)."""
        try:
            found = self.backend.statistics()
        except FivediceError:
            return []
        return list(dict.fromkeys(entry.profile for entry in found))

    def action_next_player(self) -> None:
        """Shows the next player's statistics (after the last one: every player again)."""
        cycle: list[str | None] = [None, *self.players()]
        index = cycle.index(self.player) if self.player in cycle else 0
        self.player = cycle[(index + 1) % len(cycle)]
        self.rerender()
        self.query_one("#page", VerticalScroll).scroll_home(animate=False)

    def body(self) -> RenderableType:
        found = self.backend.statistics(self.player)
        if not found:
            return Text(_("No games yet: finish a game to see statistics here."), style="dim")
        parts: list[RenderableType] = [
            Text(_("Per player and rule preset; practice games are not counted."), style="dim")
        ]
        titles = self.backend.rules_titles()
        for entry in found:
            parts.append(Text(""))
            parts.extend(stats_block(entry, titles.get(entry.rules)))
        return Group(*parts)


class SkillScreen(StatsScreen):
    """Per player and rule preset: the loss per decision over their games, with its trend,
    the optimal decisions, where the points went, and a chart game by game (`p` cycles the
    player, as on the statistics page)."""

    PAGE = "skill"

    def heading(self) -> str:
        if self.player is None:
            return _("Skill: every player")
        return _("Skill: {player}").format(player=self.player)

    def body(self) -> RenderableType:
        skills = self.backend.skill(self.player)
        if not skills:
            return Text(_("No games yet: finish a game to see statistics here."), style="dim")
        parts: list[RenderableType] = [Text(skill_heading(), style="dim")]
        titles = self.backend.rules_titles()
        width = max(self.size.width - 6, 40)
        for skill in skills:
            rules = titles.get(skill.rules) or preset_title(skill.rules)
            parts += [Text(""), Text(f"{skill.profile} · {rules}", style="bold underline")]
            parts.extend(skill_block(skill, width))
        parts += [Text(""), Text(phase_note(), style="dim")]
        return Group(*parts)


def skill_block(skill: SkillStats, width: int = 76) -> list[RenderableType]:
    """A player's skill under one preset: the loss per decision (the headline), its trend,
    the optimal decisions, where the points went, and a chart of it game by game."""
    title, headline, *details = skill_lines(skill)
    parts: list[RenderableType] = [
        Text(title, style="dim"),
        Text(headline, style="bold"),
        *(Text(line) for line in details),
    ]
    chart = text_skill_chart(skill, width, 9, color=True)
    if chart is not None:
        parts.append(Text.from_ansi(chart))
    return parts


def stats_block(entry: ProfileStats, rules: str | None = None) -> list[RenderableType]:
    """One player's figures under one preset: a summary and the average of every box
    (`rules`: the rules' name, custom rules by what differs; default the preset's title)."""
    rules = rules or preset_title(entry.rules)
    title = Text(f"{entry.profile} · {rules}", style="bold underline")
    wins = (
        _("{wins} of {games}").format(wins=entry.wins, games=entry.multiplayer_games)
        if entry.multiplayer_games
        else "–"
    )
    summary = Table.grid(padding=(0, 2))
    for _column in range(3):
        summary.add_column(style="dim")
        summary.add_column(justify="right")
    summary.add_row(
        _("Games"),
        str(entry.games),
        _("Average"),
        formats.number(entry.average, 1),
        _("Upper bonus"),
        formats.percent(entry.upper_bonus_rate),
    )
    summary.add_row(_("Wins"), wins, _("Best"), str(entry.best), _("Yahtzees"), str(entry.yahtzees))
    summary.add_row("", "", _("Worst"), str(entry.worst), "", "")
    # Thirteen boxes in three pairs of columns: five lines instead of thirteen.
    boxes = Table.grid(padding=(0, 1))
    for column in range(3):
        if column:
            boxes.add_column(width=2)  # a gap between the pairs
        boxes.add_column()
        boxes.add_column(justify="right", style="bold")
    cells = [
        (box_name(KNOWN_BOXES[key]), formats.number(average, 1))
        for key, average in entry.box_averages.items()
        if key in KNOWN_BOXES
    ]
    rows = (len(cells) + 2) // 3
    for row in range(rows):
        line: list[str] = []
        for column in range(3):
            index = column * rows + row  # read down the columns, in card order
            if column:
                line.append("")
            line.extend(cells[index] if index < len(cells) else ("", ""))
        boxes.add_row(*line)
    return [
        title,
        summary,
        Text(_("Scores (games per 50 points)"), style="dim"),
        distribution_grid(entry.distribution),
        Text(_("Average per box"), style="dim"),
        boxes,
    ]


DISTRIBUTION_PER_ROW = 5  # score ranges a line: 77 cells at most (five of "1450–1499 999")


def distribution_grid(distribution: dict[str, int]) -> Table:
    """The score distribution (range "150-199": games), a few ranges a line, lowest first."""
    grid = Table.grid(padding=(0, 3, 0, 0))
    cells = [
        Text.assemble((span.replace("-", "–") + " ", "dim"), (str(count), "bold"))
        for span, count in distribution.items()
    ]
    width = max((cell.cell_len for cell in cells), default=0)
    for _column in range(min(DISTRIBUTION_PER_ROW, len(cells))):
        grid.add_column(no_wrap=True, min_width=width)
    for start in range(0, len(cells), DISTRIBUTION_PER_ROW):
        grid.add_row(*cells[start : start + DISTRIBUTION_PER_ROW])
    return grid


class HighScoresScreen(RecordsScreen):
    """The ten best solo games per rule preset."""

    PAGE = "top"

    def heading(self) -> str:
        return _("High scores")

    def body(self) -> RenderableType:
        lists = self.backend.high_score_lists()
        if not lists:
            return Text(_("No games yet: finish a solo game to enter the list."), style="dim")
        parts: list[RenderableType] = [
            Text(_("The ten best solo games per rule preset."), style="dim")
        ]
        titles = self.backend.rules_titles()
        for rules, entries in lists.items():
            parts.append(Text(""))
            parts.append(Text(titles.get(rules) or preset_title(rules), style="bold underline"))
            parts.append(high_score_table(entries))
        return Group(*parts)


def high_score_table(entries: list[HighScore]) -> Table:
    """One preset's list: place, points, player, date and game number."""
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="dim")
    table.add_column("#", justify="right")
    table.add_column(_("Points"), justify="right", style="bold")
    table.add_column(_("Player"))
    table.add_column(_("Date"))
    table.add_column(_("Game"), justify="right")
    for entry in entries:
        table.add_row(
            str(entry.place),
            str(entry.total),
            entry.profile,
            formats.day(entry.date),
            f"#{entry.game_id}",
        )
    return table


def records_screen(page: str, backend: Backend) -> RecordsScreen:
    """The statistics ("stats"), skill ("skill") or high-score ("top") screen."""
    if page == "top":
        return HighScoresScreen(backend)
    return SkillScreen(backend) if page == "skill" else StatsScreen(backend)


def open_records(app: App[Any], page: str, backend: Backend) -> None:
    """Opens a records page on top of the current screen (Back returns to it)."""
    app.push_screen(records_screen(page, backend))
