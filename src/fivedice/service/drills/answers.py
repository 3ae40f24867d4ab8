"""A drill's answer, given as in a game (`hold 1 3`, `1 3`, `roll`, `score chance`), read and
checked by the core as a game checks it.
"""

from __future__ import annotations

from fivedice.core.actions import Action, Hold, Roll, Score, parse_action
from fivedice.core.errors import N_, IllegalActionError, MalformedActionError
from fivedice.core.game import apply
from fivedice.core.rules import RuleSet
from fivedice.service.drills.positions import Position
from fivedice.wording.boxes import parse_score_words

MAX_ANSWER = 100
"""The longest answer read (as the plain mode's longest command)."""


_VERBS = {"r": "roll", "roll": "roll", "hold": "hold", "s": "score", "score": "score"}


def parse_answer(text: str, rules: RuleSet) -> Action:
    """A drill's answer as in a game: die positions to hold (`hold 1 3`, `1 3`, `13`),
    `roll` (`r`; hold nothing) or `score` and a box (`s chance`, a box's name in the player's
    language too).

    >>> from fivedice.core.rules import find_ruleset
    >>> parse_answer("1 3", find_ruleset("classic"))
    Hold(positions=(1, 3))

    Raises:
        MalformedActionError: not an answer (the message says what one looks like).
    """
    words = text.split()
    if not words or len(text) > MAX_ANSWER:
        raise MalformedActionError(
            N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
        )
    joined = "".join(words).replace(",", "")
    if joined.isascii() and joined.isdigit():
        return parse_action(" ".join(["hold", *words]), rules.dice)
    verb = _VERBS.get(words[0].casefold())
    if verb is None:
        raise MalformedActionError(
            N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
        )
    if verb == "score":
        if len(words) < 2:
            raise MalformedActionError(N_("name a box to score, e.g. score chance"))
        return parse_score_words(" ".join(words[1:]), rules.boxes)
    return parse_action(" ".join([verb, *words[1:]]), rules.dice)


def chosen_move(position: Position, action: Action) -> tuple[tuple[int, ...] | None, Score | None]:
    """The keep or the box an answer chooses, checked by the core as a game checks it.

    Raises:
        ActionError: the answer is not a legal move here (the core's reason).
    """
    state = position.state()
    if isinstance(action, Score):
        apply(state, action)  # refuses a filled box, a column that is not there, ...
        return None, action
    if isinstance(action, Hold):
        return apply(state, action).turn.kept_values, None
    if isinstance(action, Roll):
        if position.rolls_left <= 0:
            raise IllegalActionError(N_("no rolls are left: choose a box to score"))
        return (), None
    raise MalformedActionError(
        N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
    )
