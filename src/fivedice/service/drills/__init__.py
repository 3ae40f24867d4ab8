"""Drills ("Practice"): positions from the player's own costliest decisions, and a built-in
set of classic teaching positions, as puzzles, with spaced repetition.

**Where positions come from.** The player's finished games (for the local user: every human
seat that no browser holds; for a web visitor: the seats their browser session held) are
reviewed as `fivedice review` does; from each game the `PER_GAME` costliest decisions that
lost at least `MIN_LOSS` expected points become positions (the same position met twice is
one drill). Only games with an exact advisor are used (one column, five dice): with several
columns, or Maxi Yatzy, the best move is an estimate, and a drill must have one right answer.
For newcomers there is `BUILTIN`: classic teaching positions whose best moves are the
advisor's (a test checks each against the solved table).

**The schedule** (a Leitner scheme with two boxes, counted in answers rather than days):

* a position is **mastered**, and never shown again, once answered right `MASTERED` (2)
  times in a row;
* a **miss** puts it back to the start: it comes back after `AFTER_MISS` (3) other answers;
* a **right** answer short of mastery brings it back after `AFTER_RIGHT` (8) other answers;
* what comes next: a position that is due (its turn has come; the longest due first); else
  a new one (the player's own, costliest first, then the built-in ones in order); else the
  waiting position due soonest (so a missed one is never lost when little else is left).

The clock is the owner's number of answers, kept in the store, so a position missed at the
end of one session is still due a few answers into the next. Progress is kept per owner, as
the tutorial's (`LOCAL` for the command line and terminal app, a browser session's key on
the web), in its own tables: drills never write games, actions, results or statistics.

A drill's answer is given as in a game: the dice to hold (`hold 1 3`, or `1 3`), `roll`
(hold nothing), or `score` and a box (`score chance`, `s full house`, a box's name in the
player's language). It is right when it loses nothing against the advisor's best.
"""

from fivedice.service.drills.answers import MAX_ANSWER, parse_answer
from fivedice.service.drills.positions import (
    BUILTIN,
    BUILTIN_PREFIX,
    BuiltinPosition,
    DrillError,
    Position,
    builtin_position,
)
from fivedice.service.drills.schedule import (
    AFTER_MISS,
    AFTER_RIGHT,
    MASTERED,
    pick_next,
    reschedule,
)
from fivedice.service.drills.service import (
    GAMES_PER_LOOK,
    MIN_LOSS,
    PER_GAME,
    RIGHT_TOLERANCE,
    Drill,
    DrillProgress,
    DrillResult,
    Drills,
)

__all__ = [
    "AFTER_MISS",
    "AFTER_RIGHT",
    "BUILTIN",
    "BUILTIN_PREFIX",
    "GAMES_PER_LOOK",
    "MASTERED",
    "MAX_ANSWER",
    "MIN_LOSS",
    "PER_GAME",
    "RIGHT_TOLERANCE",
    "BuiltinPosition",
    "Drill",
    "DrillError",
    "DrillProgress",
    "DrillResult",
    "Drills",
    "Position",
    "builtin_position",
    "parse_answer",
    "pick_next",
    "reschedule",
]
