"""Review summaries (table `review_summaries`, migration 0011_reviewsummaries).

One row per finished game and human seat: the seat's proficiency in that game (the figures
of `fivedice.strategy.review.Proficiency`, by name: decisions, losses, runs), so that the
statistics read a player's loss per decision over many games without reviewing each game
again. The store keeps the figures as it is given them and knows nothing of how they are
computed; `method` is the version of that computation, and a row of another method counts
as missing.

Only what statistics count is summarised: finished, non-practice games, seats of a human
with a profile (a CPU seat has none). Rows are derived data: a game's rows go with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, exc, insert, select

from fivedice.core.errors import N_
from fivedice.core.names import name_key
from fivedice.store import schema
from fivedice.store.database import Store, utc_now
from fivedice.store.rows import FINISHED, Damage, date_in, text_in, whole_in

Figures = Mapping[str, float | int | bool]
"""A seat's figures by name: "exact", every name of `schema.SUMMARY_COUNTS` (whole numbers)
and of `schema.SUMMARY_LOSSES` (expected points)."""


@dataclass(frozen=True)
class SummaryRow:
    """One stored summary, with whose it is: the player, the rules and when the game ended."""

    game_id: int
    seat: int
    profile: str
    rules: str
    finished_at: datetime
    figures: Figures


class ReviewSummaries:
    """Reads and writes the review summaries of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def summaries(self, method: int, profile: str | None = None) -> list[SummaryRow]:
        """Every stored summary of `method` that statistics count (finished, non-practice
        games; human seats with a profile), oldest game first.

        Raises:
            DatabaseDamagedError: a row is not what fivedice wrote.
        """
        games, seats, profiles = schema.games, schema.game_seats, schema.profiles
        table = schema.review_summaries
        query = (
            select(
                *self.store._columns(table),
                profiles.c.name.label("profile"),
                games.c.rules_key,
                *[c for c in self.store._columns(games) if c.name == "updated_at"],
            )
            .join(games, games.c.id == table.c.game_id)
            .join(seats, and_(seats.c.game_id == table.c.game_id, seats.c.seat == table.c.seat))
            .join(profiles, profiles.c.id == seats.c.profile_id)
            .where(*self._counted(), table.c.method == method)
            .order_by(games.c.updated_at, table.c.game_id, table.c.seat)
        )
        if profile is not None:
            query = query.where(profiles.c.name_key == name_key(profile))
        with self.store._errors(N_("read the statistics")), self.store._reader.begin() as c:
            rows = c.execute(query).all()
        return [self._checked(row) for row in rows]

    def unsummarized(self, method: int) -> list[int]:
        """The games statistics count with a human seat that has no summary of `method`
        (games finished before summaries were kept, or under an older method), oldest first.
        """
        games, seats, table = schema.games, schema.game_seats, schema.review_summaries
        summarised = (
            select(table.c.game_id)
            .where(
                table.c.game_id == seats.c.game_id,
                table.c.seat == seats.c.seat,
                table.c.method == method,
            )
            .exists()
        )
        query = (
            select(games.c.id)
            .join(seats, seats.c.game_id == games.c.id)
            .where(*self._counted(), seats.c.profile_id.is_not(None), ~summarised)
            .group_by(games.c.id)
            .order_by(games.c.id)
        )
        with self.store._errors(N_("read the statistics")), self.store._reader.begin() as c:
            return [int(game_id) for game_id in c.execute(query).scalars()]

    def save(self, game_id: int, method: int, by_seat: Mapping[int, Figures]) -> None:
        """Stores the summaries of a game's seats (replacing any of the same seats).

        Two processes may summarise the same game at once: they write the same figures, so
        the one that comes second keeps the first one's rows.

        Raises:
            StoreUnavailableError: nothing was written (it is computed again next time).
        """
        if not by_seat:
            return
        table = schema.review_summaries
        now = utc_now()
        rows = [
            {"game_id": game_id, "seat": seat, "method": method, "created_at": now, **figures}
            for seat, figures in by_seat.items()
        ]
        with self.store._errors(N_("save the statistics"), writing=True):
            try:
                with self.store.writing() as c:
                    c.execute(
                        delete(table).where(
                            table.c.game_id == game_id, table.c.seat.in_(list(by_seat))
                        )
                    )
                    c.execute(insert(table), rows)
            except exc.IntegrityError:
                pass  # another process stored them first (or the game is gone)

    @staticmethod
    def _counted() -> tuple[Any, ...]:
        """The conditions of a game that statistics count: finished, not practice."""
        games = schema.games
        return (games.c.status == FINISHED, games.c.practice.is_(False))

    def _checked(self, row: Any) -> SummaryRow:
        """The summary a row holds, every value checked as `fivedice.store.rows` does."""
        try:
            figures: dict[str, float | int | bool] = {"exact": _flag_in(row.exact)}
            for name in schema.SUMMARY_COUNTS:
                figures[name] = whole_in(row._mapping[name], f"review_summaries.{name}")
            for name in schema.SUMMARY_LOSSES:
                figures[name] = _number_in(row._mapping[name], f"review_summaries.{name}")
            return SummaryRow(
                whole_in(row.game_id, "review_summaries.game_id"),
                whole_in(row.seat, "review_summaries.seat"),
                text_in(row.profile, "profiles.name"),
                text_in(row.rules_key, "games.rules_key"),
                date_in(row.updated_at, "games.updated_at"),
                figures,
            )
        except Damage as error:
            raise self.store._damaged(error) from None


def _flag_in(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if value in (0, 1):  # SQLite hands a boolean back as 0 or 1 in some paths
        return bool(value)
    raise Damage(
        N_("{column} is not a whole number: {value!r}"),
        column="review_summaries.exact",
        value=value,
    )


def _number_in(value: object, column: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Damage(N_("{column} is not a number: {value!r}"), column=column, value=value)
    return float(value)
