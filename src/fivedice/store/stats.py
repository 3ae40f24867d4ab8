"""Statistics per profile and rule preset, and high-score lists, from stored results.

A "game" here is one finished game of a match (a match of five counts five). Practice games
are never stored as results that count (`Store.results` leaves them out).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from fivedice.store.rows import ResultRow

BUCKET = 50  # width of a score-distribution bucket
HIGH_SCORES = 10


@dataclass(frozen=True)
class ProfileStats:
    """One profile under one rule preset."""

    profile: str
    rules: str
    games: int
    wins: int  # first place (shared firsts count) in games of two or more seats
    multiplayer_games: int
    average: float
    best: int
    worst: int
    distribution: dict[str, int] = field(default_factory=dict)  # "150-199": games
    upper_bonus_rate: float = 0.0  # share of columns that earned the upper bonus
    yahtzees: int = 0  # Yahtzee boxes scored (not 0) plus extra-Yahtzee bonuses
    box_averages: dict[str, float] = field(default_factory=dict)  # per column filled

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile,
            "rules": self.rules,
            "games": self.games,
            "wins": self.wins,
            "multiplayer_games": self.multiplayer_games,
            "average": round(self.average, 2),
            "best": self.best,
            "worst": self.worst,
            "distribution": self.distribution,
            "upper_bonus_rate": round(self.upper_bonus_rate, 4),
            "yahtzees": self.yahtzees,
            "box_averages": {k: round(v, 2) for k, v in self.box_averages.items()},
        }


@dataclass(frozen=True)
class HighScore:
    """One entry of a high-score list."""

    place: int
    profile: str
    total: int
    game_id: int
    date: str

    def to_json(self) -> dict[str, object]:
        return {
            "place": self.place,
            "player": self.profile,
            "total": self.total,
            "game": self.game_id,
            "date": self.date,
        }


def bucket(total: int) -> str:
    low = (total // BUCKET) * BUCKET
    return f"{low}-{low + BUCKET - 1}"


def profile_stats(rows: Iterable[ResultRow]) -> list[ProfileStats]:
    """Statistics grouped by (profile, rules), sorted by profile name then rules."""
    groups: dict[tuple[str, str], list[ResultRow]] = defaultdict(list)
    for row in rows:
        groups[(row.profile, row.rules)].append(row)
    out = []
    for (profile, rules), group in sorted(groups.items(), key=lambda g: (g[0][0].lower(), g[0])):
        totals = [row.total for row in group]
        multi = [row for row in group if row.seat_count > 1]
        columns = sum(row.columns for row in group)
        box_sums: Counter[str] = Counter()
        for row in group:
            for key, scores in row.boxes.items():
                box_sums[key] += sum(scores)
        distribution = Counter(bucket(total) for total in totals)
        out.append(
            ProfileStats(
                profile=profile,
                rules=rules,
                games=len(group),
                wins=sum(1 for row in multi if row.rank == 1),
                multiplayer_games=len(multi),
                average=sum(totals) / len(totals),
                best=max(totals),
                worst=min(totals),
                distribution=dict(
                    sorted(distribution.items(), key=lambda item: int(item[0].split("-")[0]))
                ),
                upper_bonus_rate=sum(row.upper_bonuses for row in group) / columns,
                yahtzees=sum(row.yahtzees for row in group),
                box_averages={key: box_sums[key] / columns for key in group[0].boxes},
            )
        )
    return out


def high_scores(
    rows: Iterable[ResultRow], size: int = HIGH_SCORES, *, kind: str = "play"
) -> dict[str, list[HighScore]]:
    """The best `size` solo results per rule preset of the games of one `kind` (the dice the
    app rolled, "play", by default: games at the table, whose dice were typed in, have a
    board of their own); ties keep the earlier game first."""
    solo: dict[str, list[ResultRow]] = defaultdict(list)
    for row in rows:
        if row.seat_count == 1 and row.kind == kind:
            solo[row.rules].append(row)
    lists = {}
    for rules in sorted(solo):
        best = sorted(solo[rules], key=lambda r: (-r.total, r.game_id, r.game_number))[:size]
        lists[rules] = [
            HighScore(place, row.profile, row.total, row.game_id, f"{row.finished_at:%Y-%m-%d}")
            for place, row in enumerate(best, start=1)
        ]
    return lists
