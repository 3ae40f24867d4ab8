"""The review of a finished game: every decision against the best one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivedice.core.errors import N_
from fivedice.service.coach import game_win_chances
from fivedice.service.errors import HintsUnavailableError, ReviewRefusedError
from fivedice.service.saved import SavedGames
from fivedice.store import IN_PROGRESS
from fivedice.strategy.hints import estimated_hints
from fivedice.strategy.limits import SolveNotAllowedError, check_supported, waiting_at_most

if TYPE_CHECKING:
    from fivedice.strategy.review import GameReview


class Reviews(SavedGames):
    """Reviews of saved games (part of `GameService`)."""

    def review(self, game_id: int) -> GameReview:
        """Every decision of every seat of a finished or abandoned game against the best one.

        Returns a `fivedice.strategy.review.GameReview` (exact for one column; estimates,
        marked so, for several). With several seats every curve point has the winning
        chances of its moment (`game_win_chances`). Abandoned games can be reviewed too:
        they can no longer be played on, so a review helps no one against the others.

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
        replay = ((entry.action if entry else None, state) for entry, state in record.states())
        with waiting_at_most(self.solve_wait):  # unusual rules need a table: bounded, as hints
            return review_game(
                replay,
                game_id=game_id,
                status=record.status or "",
                estimate_options=estimated_hints,
                win_chances=game_win_chances,
            )
