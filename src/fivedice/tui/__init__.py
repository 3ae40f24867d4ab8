"""The terminal app (Textual): screens and widgets render the service's state and send actions.

One App (`tui.app.FivediceApp`) for every terminal command: start it with `fivedice play`,
`fivedice tutorial` or `fivedice table`, or `run_app()`, `run_tutorial()` or `run_table()`
from Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivedice.core.game import GameSettings

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet
    from fivedice.service.games import GameService
    from fivedice.service.holdem import HoldemService

__all__ = ["run_app", "run_holdem", "run_table", "run_tutorial"]


def run_app(
    settings: GameSettings | None = None,
    seed: int | None = None,
    *,
    db: str | None = None,
    resume: bool | int = False,
    practice: bool = False,
) -> None:
    """Runs the terminal app until the player quits (imports Textual only now).

    Args:
        settings: what the new-game screen starts with.
        seed: dice seed.
        db: database URL of the service (default: its own default).
        resume: True for the latest unfinished game, or a game id.
        practice: new games are practice games (kept out of statistics).
    """
    from fivedice.tui.app import FivediceApp
    from fivedice.tui.session import Backend

    FivediceApp(settings, seed, resume=resume, backend=Backend(db, practice)).run()


def run_tutorial(
    rules: RuleSet, *, db: str | None = None, lesson: str | None = None, seed: int | None = None
) -> None:
    """Runs the tutorial ("Learn by playing") in the terminal app until the player leaves."""
    from fivedice.tui.app import FivediceApp, TutorialStart
    from fivedice.tui.session import Backend

    tutorial = TutorialStart(rules, lesson)
    FivediceApp(seed=seed, backend=Backend(db), tutorial=tutorial).run()


def run_practice(*, db: str | None = None) -> None:
    """Runs the drills ("Practice") in the terminal app until the player leaves."""
    from fivedice.tui.app import FivediceApp
    from fivedice.tui.session import Backend

    FivediceApp(backend=Backend(db), drills=True).run()


def run_table(
    service: GameService,
    settings: GameSettings | None,
    *,
    seed: int | None = None,
    practice: bool = False,
    resume: bool = False,
    resume_game: int | None = None,
) -> None:
    """Opens (or resumes) a game at the table and keeps its score in the terminal app until
    the players quit.

    Raises:
        FivediceError: bad settings or nothing to resume (before the app starts).
    """
    from fivedice.core.game import GameKind
    from fivedice.service.opening import open_game
    from fivedice.tui.app import FivediceApp
    from fivedice.tui.session import TableGame

    view = open_game(
        service,
        settings,
        kind=GameKind.TABLE,
        seed=seed,
        practice=practice,
        resume=resume,
        resume_game=resume_game,
    )
    FivediceApp(table=TableGame(service, view)).run()


def run_holdem(service: HoldemService, game_id: int, seat: int = 0) -> None:
    """Plays Texas Hold'em Yahtzee game `game_id` as `seat` in the terminal app until the
    player quits (the game is kept) or it is over."""
    from fivedice.tui.app import FivediceApp
    from fivedice.tui.screens.holdem import HoldemTable

    FivediceApp(holdem=HoldemTable(service, game_id, seat)).run()
