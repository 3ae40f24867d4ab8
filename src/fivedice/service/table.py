"""Games at the table (`fivedice table`): the players roll real dice and the app keeps the
card. The use cases every front end of it shares: opening (or resuming) the game to keep, and
an entry typed with a box's name turned into the notation the service applies. The settings
of such a game are `service.settings.build_table_settings`.
"""

from __future__ import annotations

from fivedice.core.categories import CATEGORIES
from fivedice.core.errors import N_, MalformedActionError
from fivedice.core.game import GameKind, GameSettings, SettingsError
from fivedice.core.rules import RuleSet
from fivedice.service.games import GameService, GameView
from fivedice.store import GameClosedError
from fivedice.wording.boxes import parse_score_words


def open_table_game(
    service: GameService,
    settings: GameSettings | None,
    *,
    seed: int | None,
    practice: bool,
    resume: bool,
    resume_game: int | None,
) -> GameView:
    """The table game to keep: the one to resume (`resume_game`, else the latest unfinished
    table game), or a new one with `settings`.

    Raises:
        GameNotFoundError, GameClosedError, SettingsError: nothing to resume, or not a
            game at the table.
    """
    if resume or resume_game is not None:
        game_id = resume_game
        if game_id is None:
            waiting = service.latest_unfinished(GameKind.TABLE.value)
            if waiting is None:
                raise SettingsError(N_("there is no unfinished game at the table to resume"))
            game_id = waiting.game_id
        view = service.load(game_id)
        if not view.state.settings.is_table:
            raise SettingsError(
                N_("game {id} is not a game at the table; 'fivedice play --resume' continues it"),
                id=game_id,
            )
        if view.is_over:
            raise GameClosedError(
                N_("game {game_id} is {status}; it takes no more actions"),
                game_id=game_id,
                status=view.status,
            )
        return view
    if settings is None:
        raise SettingsError(N_("name the players at the table, e.g. --player Ann --player Bob"))
    return service.create_game(settings, seed=seed, practice=practice)


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
