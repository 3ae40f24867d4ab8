"""The review of a finished game (every decision against the best one), and each player's
proficiency over their games (Verhoeff's loss per decision) for the statistics.

A finished game's proficiency per human seat is stored when the game finishes
(`summarize_game`, called by `GameService.apply_action`), and computed on first need for
games finished before (`skill`): the statistics never review every game again.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.core.record import UNDO, ActionEntry, GameRecord
from fivedice.core.rules import RuleSet
from fivedice.service.coach import GOAL_TABLES_PREPARING, game_win_chances
from fivedice.service.errors import HintsUnavailableError, ReviewRefusedError, TablesPreparingError
from fivedice.service.saved import SavedGames
from fivedice.service.settings import is_default_human_name, profile_of
from fivedice.store import FINISHED, IN_PROGRESS
from fivedice.store.review_summaries import ReviewSummaries
from fivedice.strategy.hints import estimated_hints
from fivedice.strategy.limits import (
    SolveNotAllowedError,
    check_supported,
    has_layer_tables,
    is_supported,
    waiting_at_most,
)

if TYPE_CHECKING:
    from fivedice.strategy.review import GameReview, SkillStats

log = logging.getLogger(__name__)


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


def review_offered(rules: RuleSet) -> bool:
    """Whether a game of these rules can be reviewed (`Reviews.review` refuses the others:
    rules the solver does not handle exactly, such as Maxi Yatzy's saved rolls, whose coach
    gives the expert CPU's estimates): a page offers the review only then."""
    try:
        check_supported(rules)
    except SolveNotAllowedError:
        return False
    return True


class Reviews(SavedGames):
    """Reviews of saved games (part of `GameService`)."""

    def review(
        self, game_id: int, explain: bool | None = False, *, against_winning_total: bool = False
    ) -> GameReview:
        """Every decision of every seat of a finished or abandoned game against the best one.

        Returns a `fivedice.strategy.review.GameReview` (exact for one column; estimates,
        marked so, for several). With several seats every curve point has the winning
        chances of its moment (`game_win_chances`). Abandoned games can be reviewed too:
        they can no longer be played on, so a review helps no one against the others.
        `explain`: decisions get their reasons (`Decision.reasons`; several columns: the
        estimates' split per column): True computes the breakdown if needed, None uses it
        only if at hand (a web page).

        Raises:
            GameNotFoundError; ReviewRefusedError: the game is still in progress;
            HintsUnavailableError: no strategy layer here;
            SolverBusyError: a new table is needed while another is solved (`solve_wait`).

        `against_winning_total`: each decision is judged against the score that would have
        won the game too (`Decision.goal`): the best other final total + 1, or in a solo game
        the best total of the high-score list of its rules (the record to beat; no goal
        without one). One score column and one game a match; the first time for a rule set
        the threshold tables are computed (minutes).
        """
        record = self.store.load_game(game_id)
        goals = self._winning_totals(record) if against_winning_total else None
        if goals is not None and self.solve_wait is not None:  # a server: never minutes
            from fivedice.strategy.thresholds import default_top, thresholds_if_ready

            rules = record.settings.rules
            if thresholds_if_ready(rules, default_top(rules)) is None:
                raise TablesPreparingError(GOAL_TABLES_PREPARING)
        return self._review(record, with_chances=True, explain=explain, goals=goals)

    def _winning_totals(self, record: GameRecord) -> tuple[int | None, ...] | None:
        """Per seat: the final total that would have won the game (see `review`)."""
        *_, last = record.states()
        state = last[1]
        rules = state.rules
        if (
            not rules.is_single_column
            or state.settings.match_length != 1
            or not has_layer_tables(rules)  # Maxi Yatzy: no threshold tables (compact table)
        ):
            return None
        totals = state.totals
        if len(totals) > 1:
            return tuple(
                max(total for other, total in enumerate(totals) if other != seat) + 1
                for seat in range(len(totals))
            )
        from fivedice.service.records import find_preset_rules

        best = max(
            (
                entry.total
                for key, entries in self.high_scores().items()  # type: ignore[attr-defined]
                if find_preset_rules(key) == rules
                for entry in entries
                if entry.game_id != record.game_id
            ),
            default=None,
        )
        return (None if best is None else best + 1,)

    def _review(
        self,
        record: GameRecord,
        *,
        with_chances: bool,
        explain: bool | None = False,
        goals: tuple[int | None, ...] | None = None,
    ) -> GameReview:
        """`review` of a loaded record (`with_chances`: the curve's winning chances too;
        `explain`: the decisions' reasons; `goals`: a winning total per seat)."""
        game_id = record.game_id
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
                estimate_options=partial(estimated_hints, explain=explain),
                win_chances=game_win_chances if with_chances else None,
                explain=explain,
                goals=goals,
            )

    def summarize_game(self, game_id: int, *, may_solve: bool = True) -> bool:
        """Stores the proficiency of each human seat of a finished game that statistics count
        (not practice); whether it was stored. Never raises for a game that cannot be
        reviewed (unusual rules not solved here, a damaged log): `skill` tries again later.

        Args:
            game_id: the game.
            may_solve: False: only if the rules' table is solved already (the move that ends
                a game is not kept waiting for a solve; the statistics make it later).

        Raises:
            StoreUnavailableError: the summary could not be written (nor the game read).
        """
        from fivedice.strategy.review import PROFICIENCY_METHOD, Proficiency

        record = self.store.load_game(game_id)
        if record.status != FINISHED or record.practice:
            return False
        humans = [index for index, seat in enumerate(record.settings.seats) if not seat.is_cpu]
        if not humans:
            return False
        summaries = ReviewSummaries(self.store)
        if not is_supported(record.settings.rules):
            # Never reviewable (Maxi Yatzy's saved rolls): stored as nothing to judge, so
            # that no statistics view tries it again; `skill` leaves such rows out.
            nothing = Proficiency(exact=False).figures()
            summaries.save(game_id, PROFICIENCY_METHOD, dict.fromkeys(humans, nothing))
            return False
        try:
            if not may_solve and not _table_at_hand(record):
                return False
            review = self._review(record, with_chances=False)
        except (FivediceError, ImportError) as error:
            log.info("game %s not summarised for the statistics: %s", game_id, error)
            return False
        figures = {seat: review.seats[seat].proficiency.figures() for seat in humans}
        summaries.save(game_id, PROFICIENCY_METHOD, figures)
        return True

    def skill(self, profile: str | None = None) -> list[SkillStats]:
        """Each player's proficiency per rules over their finished games (practice games
        left out, as in `stats`; every default human name is one profile, `profile_of`):
        the loss per decision game by game, overall, its trend, the share of optimal
        decisions, the longest run of them, by kind (keeps, boxes) and phase (early, late).
        Estimated figures (several columns) are never added to exact ones.

        Games finished without a stored summary (before summaries were kept, or a summary
        that could not be made then) are summarised first.

        Raises:
            StoreUnavailableError, DatabaseDamagedError: the store cannot be read.
        """
        from fivedice.strategy.review import (
            PROFICIENCY_METHOD,
            GameSkill,
            Proficiency,
            skill_stats,
        )

        summaries = ReviewSummaries(self.store)
        for game_id in summaries.unsummarized(PROFICIENCY_METHOD):
            try:
                self.summarize_game(game_id)
            except FivediceError as error:  # a damaged game: its summary stays missing
                log.info("game %s not summarised for the statistics: %s", game_id, error)
        if profile is not None and is_default_human_name(profile):
            rows = [
                row
                for row in summaries.summaries(PROFICIENCY_METHOD)
                if is_default_human_name(row.profile)
            ]
        else:
            rows = summaries.summaries(PROFICIENCY_METHOD, profile)
        groups: dict[tuple[str, str], list[GameSkill]] = defaultdict(list)
        for row in rows:
            proficiency = Proficiency.from_figures(row.figures)
            if not proficiency.decisions:
                continue  # a game with nothing to judge (rules no review handles)
            key = (profile_of(row.profile), row.rules)
            groups[key].append(GameSkill(row.game_id, row.finished_at, proficiency))
        found: list[SkillStats] = []
        for (name, rules), games in sorted(groups.items(), key=lambda g: (g[0][0].lower(), g[0])):
            found += skill_stats(name, rules, games)
        return found


def _table_at_hand(record: GameRecord) -> bool:
    """Whether the solved table a review of the game needs is there without solving."""
    from fivedice.strategy.cache import load_cached

    rules = record.settings.rules
    return load_cached(rules.replace(column_multipliers=(1,))) is not None
