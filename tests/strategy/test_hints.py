"""One `Hint` type from the service to every front end."""

from __future__ import annotations

import typing

import pytest

from fivedice.core.categories import Category
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, Hint, HintKind, LocalGame, state_hints
from fivedice.store import Store
from fivedice.strategy.advisor import advise
from fivedice.strategy.hints import estimated_hints, exact_hints, find_hint, hints_for
from fivedice.web.hub import hint_data


def rolled(rules_name: str, dice: tuple[int, ...], held: tuple[int, ...] = ()):
    """A solo game of `rules_name` with `dice` showing (and `held` positions held)."""
    rules = find_ruleset(rules_name)
    state = new_game(GameSettings((Seat("Ann"),), rules), ScriptedDice([]))
    state = apply(state, "roll", ScriptedDice(list(dice)))
    if held:
        state = apply(state, "hold " + " ".join(map(str, held)), ScriptedDice([]))
    return state


def test_exact_hints_are_the_advisors_options_with_their_holds(classic_table) -> None:
    state = rolled("classic", (6, 2, 6, 3, 6), held=(3,))
    hints = exact_hints(classic_table, state)
    options = advise(classic_table, state.cards[0].columns[0], state.dice, state.rolls_left)
    assert [(h.keep, h.category, h.value, h.loss) for h in hints] == [
        (o.keep, o.category, o.value, o.loss) for o in options
    ]
    assert not any(h.estimate for h in hints) and all(h.column is None for h in hints)
    for hint in hints:
        if hint.kind is HintKind.KEEP:
            assert hint.category is None and hint.box is None and hint.action == "roll"
            assert hint.hold is not None
            assert sorted(state.dice[p - 1] for p in hint.hold) == list(hint.keep)
            if hint.keep and 6 in hint.keep:
                assert 3 in hint.hold  # the six already held stays held
        else:
            assert hint.keep is None and hint.hold is None
            assert hint.box == hint.category.key and hint.action == f"score {hint.box}"
            assert hint.notation == hint.action
    best = hints[0]
    assert best.keep == (6, 6, 6) and best.notation == "keep 6 6 6"
    assert find_hint(hints, keep=(6, 6, 6)) is best
    assert find_hint(hints, category=Category.SIXES).box == "sixes"
    assert find_hint(hints, keep=(1, 1)) is None


def test_several_columns_name_their_column_and_are_estimates() -> None:
    state = rolled("triple", (5, 5, 5, 2, 1))
    hints = hints_for(state)
    assert hints == estimated_hints(state)
    assert all(h.estimate for h in hints)
    boxes = [h for h in hints if h.kind is HintKind.SCORE]
    assert {h.column for h in boxes} == {0, 1, 2}
    fives = [h for h in boxes if h.category is Category.FIVES]
    assert sorted(h.notation for h in fives) == ["score 1:fives", "score 2:fives", "score 3:fives"]
    assert sorted(h.action for h in fives) == ["score 2:fives", "score 3:fives", "score fives"]
    # A box is found in its own column only; a keep has no column.
    second = find_hint(hints, category=Category.FIVES, column=1)
    assert second is not None and second.column == 1
    assert all(h.column is None for h in hints if h.kind is HintKind.KEEP)


def test_the_service_returns_hints_and_the_api_shape_is_built_from_them(tmp_path) -> None:
    assert typing.get_type_hints(GameService.hint)["return"] == list[Hint]
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    view = service.create_game(GameSettings((Seat("Ann"),)), seed=4)
    view = service.apply_action(view.game_id, "roll", 0)
    hints = service.hint(view.game_id)
    assert all(isinstance(hint, Hint) for hint in hints)
    assert hints == state_hints(view.state)  # one path: the service's and the fronts' agree
    keep = next(h for h in hints if h.kind is HintKind.KEEP and h.keep)
    data = hint_data(keep)
    assert data == {
        "kind": "keep",
        "box": None,
        "column": None,
        "keep": list(keep.keep),
        "hold": list(keep.hold),
        "action": "roll",
        "value": keep.value,
        "loss": keep.loss,
        "estimate": False,
        "breakdown": None,  # not asked for: the hints carry no breakdown
        "chances_this_turn": None,
    }
    box = next(h for h in hints if h.kind is HintKind.SCORE)
    assert hint_data(box)["box"] == box.category.key and hint_data(box)["keep"] is None


def test_an_unsaved_game_and_the_tutorial_coach_get_the_same_hints(tmp_path) -> None:
    game = LocalGame.start(GameSettings((Seat("Ann"),)), seed=9)
    game.act("roll")
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    assert game.hint() == state_hints(game.state) == service.tutorial_coach(game.state)


def test_hints_need_a_decision() -> None:
    state = new_game(GameSettings((Seat("Ann"),)), ScriptedDice([]))
    with pytest.raises(ValueError, match="no dice"):
        hints_for(state)
