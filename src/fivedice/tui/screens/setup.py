"""The new-game screen: seats, rules (preset and every option), first player, match, language.

It also lists unfinished saved games to resume or abandon, and opens the statistics and
high-score pages.

The form's values live in a `SetupForm` so the screen can be rebuilt (a seat added, the
language switched) without losing what the player typed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Collapsible, Footer, Input, Label, Select, Static, Switch

from fivedice.core.errors import FivediceError
from fivedice.core.game import MAX_MATCH_LENGTH, FirstPlayer, GameSettings
from fivedice.core.names import MAX_NAME_LENGTH, name_key
from fivedice.core.rules import PRESETS, RuleSet, find_preset, nearest_preset
from fivedice.i18n import LANGUAGES, _, current_language, set_language
from fivedice.service.settings import (
    DEFAULT_LEVEL,
    LEVELS,
    default_human_name,
    game_settings,
    is_default_human_name,
)
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.screens.practice import PracticeScreen
from fivedice.tui.screens.records import open_records
from fivedice.tui.screens.tutorial import TutorialScreen
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import text_width
from fivedice.wording.drills import practice_title
from fivedice.wording.labels import level_name
from fivedice.wording.options import choice_label, option_label
from fivedice.wording.text import (
    cpu_name,
    error_text,
    first_player_name,
    preset_description,
    preset_title,
)

MAX_TABLE_SEATS = 8
HUMAN = "human"


@dataclass
class SetupForm:
    """What the new-game form holds; seats are (name, "human" or a CPU level)."""

    seats: list[tuple[str, str]] = field(default_factory=list)
    preset: str = "classic"
    options: dict[str, object] = field(default_factory=dict)
    first_player: str = FirstPlayer.FIRST_SEAT.value
    match_length: int = 1
    practice: bool = False
    """A practice game: kept out of statistics and high scores."""

    @classmethod
    def default(cls, practice: bool = False) -> SetupForm:
        """You and one casual CPU, classic rules."""
        seats = [(default_human_name(), HUMAN), (cpu_name(1), DEFAULT_LEVEL.value)]
        return cls(seats=seats, practice=practice)

    @classmethod
    def from_settings(cls, settings: GameSettings, practice: bool = False) -> SetupForm:
        """A form showing existing settings (a rematch, or what the command line asked for)."""
        preset = nearest_preset(settings.rules).name
        return cls(
            seats=[(s.name, s.cpu_level or HUMAN) for s in settings.seats],
            preset=preset,
            options=settings.rules.all_settings(),
            first_player=settings.first_player.value,
            match_length=settings.match_length,
            practice=practice,
        )

    def rules(self) -> RuleSet:
        """The rule set: the preset with every option of the advanced panel applied."""
        base = find_preset(self.preset).rules
        return base.with_settings(self.options) if self.options else base

    def settings(self) -> GameSettings:
        """The game settings, checked as every front end's are (raises FivediceError)."""
        return game_settings(
            [(name, None if kind == HUMAN else kind) for name, kind in self.seats],
            self.rules(),
            first_player=self.first_player,
            match_length=self.match_length,
        )


def _top_row_is_tight(labels: list[str]) -> bool:
    """Whether the title and the buttons of the top row would run past 80 columns with
    buttons at their usual width (16 cells): then they are as wide as their words
    ("Meilleurs scores", "Mejores puntuaciones"), so Quit stays in sight."""
    # From the page's left padding: the title and its margin, each button and its margin.
    usual = sum(max(16, text_width(label) + 2) + 1 for label in labels) - 1
    return 1 + text_width(_("New game")) + 2 + usual > 80


def _default_kind(name: str) -> int | None:
    """0 for the human's default name, n for "CPU n" (in the language in force), else None."""
    if is_default_human_name(name):
        return 0
    return next(
        (n for n in range(1, MAX_TABLE_SEATS + 1) if name_key(cpu_name(n)) == name_key(name)),
        None,
    )


def _default_in_language(default: int | None, name: str) -> str:
    """A default name (`_default_kind`) in the language now in force; a typed name as it is."""
    if default is None:
        return name
    return default_human_name() if default == 0 else cpu_name(default)


def switch_state(on: bool) -> str:
    """A switch's state in words."""
    return _("on") if on else _("off")


def _option_kind(name: str) -> type:
    """The Python type of a rule option's value (bool, int, an Enum, tuple)."""
    return type(getattr(RuleSet(), name))


class SetupScreen(Screen[None]):
    """Chooses everything about the next game; the App starts it (`Start`), or resumes a
    saved one (`Resume`)."""

    class Start(Message):
        """The player starts a game with these settings (from this form)."""

        def __init__(self, settings: GameSettings, form: SetupForm) -> None:
            super().__init__()
            self.settings = settings
            self.form = form

    class Resume(Message):
        """The player resumes a saved game."""

        def __init__(self, game_id: int) -> None:
            super().__init__()
            self.game_id = game_id

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f5", "start", "Start"),
        # Plain letters: an Input with the focus takes them as typing, so names stay typeable.
        Binding("s", "records('stats')", "Statistics"),
        Binding("t", "records('top')", "High scores"),
        Binding("escape", "quit_app", "Quit"),
    ]
    AUTO_FOCUS = "#start"

    def __init__(self, backend: Backend, form: SetupForm | None = None) -> None:
        """Args:
        backend: the service, for the saved games, the records and the lessons.
        form: what the form shows (default: you and one casual CPU, classic rules).
        """
        super().__init__()
        localize_bindings(self)
        self.backend = backend
        self.form = form or SetupForm.default(backend.practice)
        self.saved: list[tuple[str, int]] = []  # the unfinished games listed, as composed
        if not self.form.options:
            self.form.options = find_preset(self.form.preset).rules.all_settings()

    def compose(self) -> ComposeResult:
        form = self.form
        kinds = [(_("Human"), HUMAN)] + [
            (_("CPU: {level}").format(level=level_name(level)), level) for level in LEVELS
        ]
        with VerticalScroll(id="page"):
            labels = [_("Start"), _("Statistics"), _("High scores"), _("Quit")]
            with Horizontal(classes="row tight" if _top_row_is_tight(labels) else "row"):
                yield Static(_("New game"), classes="title")
                yield Button(labels[0], id="start", variant="success", compact=True)
                yield Button(labels[1], id="stats", compact=True)
                yield Button(labels[2], id="top", compact=True)
                yield Button(labels[3], id="quit", compact=True)
            with Horizontal(classes="row"):
                yield Button(_("Learn by playing"), id="learn", compact=True)
                yield Button(practice_title(), id="drills", compact=True)
            try:
                self.saved = self.backend.unfinished_games()
            except FivediceError as error:  # shown, never silently an empty list
                self.saved = []
                yield Label(_("Unfinished games"), classes="section")
                yield Static(
                    Text(
                        _("The saved games cannot be listed: {reason}").format(
                            reason=error_text(error)
                        ),
                        style="red",
                    ),
                    id="saved-error",
                )
            if self.saved:
                yield Label(_("Unfinished games"), classes="section")
                for index, (description, _handle) in enumerate(self.saved):
                    # Abandon first: a long description must never push it out of sight.
                    with Horizontal(classes="row saved-game"):
                        yield Button(
                            _("Abandon"), id=f"abandon-{index}", compact=True, variant="error"
                        )
                        yield Button(
                            _("Resume: {game}").format(game=description),
                            id=f"resume-{index}",
                            compact=True,
                            classes="resume",
                        )
            yield Label(_("Players"), classes="section")
            for index, (name, kind) in enumerate(form.seats):
                with Horizontal(classes="row seat"):
                    yield Label(f"{index + 1}.", classes="seat-number")
                    yield Input(
                        value=name, id=f"name-{index}", max_length=MAX_NAME_LENGTH, classes="name"
                    )
                    yield Select(
                        kinds, value=kind, allow_blank=False, id=f"kind-{index}", compact=True
                    )
            with Horizontal(classes="row"):
                yield Button(_("Add player"), id="add-seat", compact=True)
                yield Button(_("Remove player"), id="remove-seat", compact=True)
            yield Label(_("Rules"), classes="section")
            with Horizontal(classes="row"):
                yield Label(_("Preset"), classes="field")
                yield Select(
                    [
                        (
                            _("{title}: {description}").format(
                                title=preset_title(p.name), description=preset_description(p.name)
                            ),
                            p.name,
                        )
                        for p in PRESETS
                    ],
                    value=form.preset,
                    allow_blank=False,
                    id="preset",
                    compact=True,
                )
            with Collapsible(title=_("Advanced rules"), collapsed=True, id="advanced"):
                for name, value in form.options.items():
                    yield from self._option_row(name, value)
            with Horizontal(classes="row"):
                yield Label(_("First player"), classes="field")
                yield Select(
                    [(first_player_name(mode), mode.value) for mode in FirstPlayer],
                    value=form.first_player,
                    allow_blank=False,
                    id="first-player",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label(_("Practice game"), classes="field")
                yield Switch(value=form.practice, id="practice")
                yield Label(
                    switch_state(form.practice), id="practice-state", classes="switch-state"
                )
                yield Static(
                    Text(_("kept out of statistics and high scores"), style="dim"),
                    classes="note",
                )
            with Horizontal(classes="row"):
                yield Label(_("Games in the match"), classes="field")
                yield Input(
                    value=str(form.match_length), type="integer", id="match-length", classes="num"
                )
            with Horizontal(classes="row"):
                yield Label(_("Language"), classes="field")
                yield Select(
                    [(label, code) for code, label in LANGUAGES.items()],
                    value=current_language(),
                    allow_blank=False,
                    id="language",
                    compact=True,
                )
        yield Footer()

    def _option_row(self, name: str, value: object) -> ComposeResult:
        """One rule option's editor, chosen by the type of the option (so new options show)."""
        kind = _option_kind(name)
        with Horizontal(classes="row option"):
            yield Label(option_label(name), classes="field")
            if kind is bool:
                yield Switch(value=bool(value), id=f"opt-{name}")
                yield Label(
                    switch_state(bool(value)), id=f"opt-{name}-state", classes="switch-state"
                )
            elif issubclass(kind, Enum):
                yield Select(
                    [(choice_label(str(member.value)), str(member.value)) for member in kind],
                    value=str(value),
                    allow_blank=False,
                    id=f"opt-{name}",
                    compact=True,
                )
            elif kind is int:
                yield Input(value=str(value), type="integer", id=f"opt-{name}", classes="num")
            else:  # a list of numbers, e.g. the column multipliers
                text = ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
                yield Input(value=text, id=f"opt-{name}", classes="num")

    # Reading the form ----------------------------------------------------------------------

    def read_form(self) -> SetupForm:
        """The form as it stands on screen."""
        seats = []
        for index in range(len(self.form.seats)):
            name = self.query_one(f"#name-{index}", Input).value
            kind = self.query_one(f"#kind-{index}", Select).value
            seats.append((name, str(kind)))
        options: dict[str, object] = {}
        for name in self.form.options:
            widget = self.query_one(f"#opt-{name}")
            value: Any = widget.value  # type: ignore[attr-defined]
            options[name] = value
        try:
            match_length = int(self.query_one("#match-length", Input).value or "1")
        except ValueError:
            match_length = 1
        return dataclasses.replace(
            self.form,
            seats=seats,
            preset=str(self.query_one("#preset", Select).value),
            options=options,
            first_player=str(self.query_one("#first-player", Select).value),
            match_length=min(max(match_length, 1), MAX_MATCH_LENGTH),
            practice=self.query_one("#practice", Switch).value,
        )

    # Events --------------------------------------------------------------------------------

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button == "start":
            self.action_start()
        elif button == "quit":
            self.app.exit()
        elif button == "learn":
            self.open_tutorial()
        elif button == "drills":
            self.app.push_screen(PracticeScreen(self.backend))
        elif button in ("stats", "top"):
            self.action_records(button)
        elif button == "add-seat" and len(self.form.seats) < MAX_TABLE_SEATS:
            self.form = self.read_form()
            taken = {name_key(name) for name, _kind in self.form.seats}
            number = len(self.form.seats) + 1
            while name_key(cpu_name(number)) in taken:
                number += 1
            self.form.seats.append((cpu_name(number), DEFAULT_LEVEL.value))
            await self.recompose()
            self.query_one(f"#name-{len(self.form.seats) - 1}").focus()
        elif button == "remove-seat" and len(self.form.seats) > 1:
            self.form = self.read_form()
            self.form.seats.pop()
            await self.recompose()
        elif button.startswith("resume-"):
            index = int(button.removeprefix("resume-"))
            if index < len(self.saved):
                self.post_message(self.Resume(self.saved[index][1]))
        elif button.startswith("abandon-"):
            index = int(button.removeprefix("abandon-"))
            if index < len(self.saved):
                self.confirm_abandon(self.saved[index][1])

    def confirm_abandon(self, game_id: int) -> None:
        """Asks once, then abandons the saved game through the service and lists the rest."""

        def answer(confirmed: bool | None) -> None:
            if not confirmed:
                return
            try:
                self.backend.abandon_game(game_id)
            except FivediceError as error:
                self.notify(error_text(error), severity="error", timeout=6)
                return
            self.notify(_("Game {id} abandoned.").format(id=game_id), timeout=3)
            self.call_later(self._rebuild)

        question = _("Abandon game #{id}? It stays saved but can no longer be resumed.").format(
            id=game_id
        )
        self.app.push_screen(ConfirmScreen(question), answer)

    async def _rebuild(self) -> None:
        # Keep what the player typed; only the list of saved games changes.
        self.form = self.read_form()
        await self.recompose()
        self.query_one("#start").focus()

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "language" and event.value != current_language():
            self.form = self.read_form()
            # Default names follow the language ("You" → "あなた", "CPU 2"); typed ones stay.
            defaults = [_default_kind(name) for name, _kind in self.form.seats]
            set_language(str(event.value))
            self.form.seats = [
                (_default_in_language(default, name), kind)
                for (name, kind), default in zip(self.form.seats, defaults, strict=True)
            ]
            await self.recompose()
            self.query_one("#start").focus()
        elif event.select.id == "preset" and event.value != self.form.preset:
            # A preset replaces every advanced option with its own values.
            self.form = self.read_form()
            self.form.preset = str(event.value)
            self.form.options = find_preset(self.form.preset).rules.all_settings()
            await self.recompose()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """Says "on" or "off" in words next to a switch, not by its colour only."""
        if event.switch.id:
            label = self.query(f"#{event.switch.id}-state")
            for widget in label:
                if isinstance(widget, Label):
                    widget.update(switch_state(event.value))

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        form = self.read_form()
        try:
            settings = form.settings()
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=6)
            return
        self.post_message(self.Start(settings, form))

    def action_records(self, page: str) -> None:
        """Opens the statistics ("stats") or high-score ("top") page."""
        open_records(self.app, page, self.backend)

    def open_tutorial(self) -> None:
        """ "Learn by playing": the lessons under the form's rules, over this screen (or the
        reason those rules cannot be played)."""
        try:
            rules = self.read_form().rules()
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=6)
            return
        self.app.push_screen(TutorialScreen(rules, self.backend))

    def action_quit_app(self) -> None:
        self.app.exit()
