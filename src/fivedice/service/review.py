"""The review of a finished game: every decision against the best one."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.core.game import GameState
from fivedice.core.record import UNDO, ActionEntry
from fivedice.service.coach import game_win_chances
from fivedice.service.errors import HintsUnavailableError, ReviewRefusedError
from fivedice.service.saved import SavedGames
from fivedice.store import IN_PROGRESS
from fivedice.strategy.hints import estimated_hints
from fivedice.strategy.limits import SolveNotAllowedError, check_supported, waiting_at_most

if TYPE_CHECKING:
    from fivedice.strategy.review import GameReview


def replay_in_effect(
    states: Iterable[tuple[ActionEntry | None, GameState]],
) -> Iterator[tuple[str | None, GameState]]:
    """The game as it stands, action by action: the new game, then each action still in
    effect with the state after it, as `GameRecord.states()` would give them had the undone
    actions never been taken.

    An undo takes back the most recent action still in effect (the game rebuilds itself the
    same way), so an undone action and the undo are both left out: a review judges only the
    decisions that count, and a later action follows the very state it was taken in.
    """
    kept: list[tuple[str | None, GameState]] = []
    for entry, state in states:
        if entry is not None and entry.action == UNDO:
            if len(kept) > 1:  # the record checked that there was an action to take back
                kept.pop()
            continue
        kept.append((entry.action if entry else None, state))
    return iter(kept)


class Reviews(SavedGames):
    """Reviews of saved games (part of `GameService`)."""

    def review(self, game_id: int, explain: bool | None = False) -> GameReview:
        """Every decision of every seat of a finished or abandoned game against the best one.

        Returns a `fivedice.strategy.review.GameReview` (exact for one column; estimates,
        marked so, for several). With several seats every curve point has the winning
        chances of its moment (`game_win_chances`). Abandoned games can be reviewed too:
        they can no longer be played on, so a review helps no one against the others.
        `explain`: one-column decisions get their reasons (`Decision.reasons`): True
        computes the breakdown if needed, None uses it only if at hand (a web page).

        Raises:
            GameNotFoundError; ReviewRefusedError: the game is still in progress;
            HintsUnavailableError: no strategy layer here;
            SolverBusyError: a new table is needed while another is solved (`solve_wait`).
        """
        record = self.store.load_game(game_id)
        if (record.status or IN_PROGRESS) == IN_PROGRESS:
            raise ReviewRefusedError(
                N_("game {game_id} is still in progress: it can be reviewed once it is over"),
                game_id=game_id,
            )
        try:
            check_supported(record.settings.rules)
        except SolveNotAllowedError as error:
            raise ReviewRefusedError(error.template, **error.params) from None
        try:
            from fivedice.strategy.review import review_game
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        replay = replay_in_effect(record.states())  # undone actions and their undos left out
        with waiting_at_most(self.solve_wait):  # unusual rules need a table: bounded, as hints
            return review_game(
                replay,
                game_id=game_id,
                status=record.status or "",
                estimate_options=estimated_hints,
                win_chances=game_win_chances,
                explain=explain,
            )
