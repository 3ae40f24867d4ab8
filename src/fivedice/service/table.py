"""Games at the table (`fivedice table`): the players roll real dice and the app keeps the
card. The use case every front end of it shares: an entry typed with a box's name turned
into the notation the service applies. The settings of such a game are
`service.settings.build_table_settings`; opening or resuming one is
`service.opening.open_game(..., kind=GameKind.TABLE)`.
"""

from __future__ import annotations

from fivedice.core.categories import CATEGORIES
from fivedice.core.errors import MalformedActionError
from fivedice.core.rules import RuleSet
from fivedice.wording.boxes import parse_score_words


def table_entry(line: str, rules: RuleSet | None = None) -> str:
    """The entry in notation: a box named as on the card, in the player's language too
    (`score Dreierpasch`, `score Full House 25`), becomes its key; anything else is passed on
    as typed (the service says what is wrong with it)."""
    words = line.split()
    if len(words) < 2 or words[0].casefold() != "score":
        return line
    box_words, points = words[1:], []
    if len(box_words) > 1 and box_words[-1].isascii() and box_words[-1].isdigit():
        box_words, points = box_words[:-1], box_words[-1:]
    try:
        action = parse_score_words(" ".join(box_words), rules.boxes if rules else CATEGORIES)
    except MalformedActionError:
        return line
    key = action.category.key
    box = f"{action.column + 1}:{key}" if action.column else key
    return " ".join(["score", box, *points])
