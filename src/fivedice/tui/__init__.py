"""The terminal app (Textual): screens and widgets render the service's state and send actions.

Start it with `fivedice play`, or `run_app()` from Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivedice.core.game import GameSettings

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet

__all__ = ["run_app", "run_tutorial"]


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
    from fivedice.tui.screens.tutorial import TutorialApp
    from fivedice.tui.session import Backend

    TutorialApp(rules, lesson=lesson, seed=seed, backend=Backend(db)).run()
