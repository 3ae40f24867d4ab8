"""The game service's CPU stepping and in-memory game (the saved games are in tests/store)."""

from __future__ import annotations

import pytest

from fivedice.core.actions import Hold, Release, Roll, Score
from fivedice.core.card import ScoreCard
from fivedice.core.categories import Category
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, SettingsError, apply, new_game
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.service.games import (
    CpuLevelError,
    GameService,
    HintsUnavailableError,
    LocalGame,
    cpu_next_action,
    hold_positions,
    make_cpu_player,
)
from fivedice.store import GameNotFoundError, StaleVersionError, Store
from fivedice.strategy.levels import LEVELS


class KeepSixes:
    def choose_keep(self, rules, card, dice, rolls_left):
        return tuple(d for d in dice if d == 6)

    def choose_box(self, rules, card, dice):
        return card.placements(rules, dice)[-1]


def factory(level, seed, rules):
    return KeepSixes()


def test_hold_positions_prefers_dice_already_held():
    assert hold_positions((6, 2, 6, 6, 1), (False, False, True, False, False), (6, 6)) == {1, 3}
    assert hold_positions((1, 2, 3, 4, 5), (False,) * 5, ()) == set()
    with pytest.raises(ValueError):
        hold_positions((1, 2, 3, 4, 5), (False,) * 5, (6,))


def test_cpu_moves_one_step_at_a_time():
    settings = GameSettings((Seat("CPU", "casual"),))
    state = new_game(settings)
    assert cpu_next_action(state, KeepSixes()) == Roll()
    state = apply(state, "roll", ScriptedDice([6, 1, 6, 2, 3]))
    assert cpu_next_action(state, KeepSixes()) == Hold((1, 3))
    state = apply(state, "hold 1 2 3")
    assert cpu_next_action(state, KeepSixes()) == Release((2,))
    state = apply(state, "release 2")
    assert cpu_next_action(state, KeepSixes()) == Roll()
    state = apply(state, "roll", ScriptedDice([6, 2, 3]))
    assert cpu_next_action(state, KeepSixes()) == Hold((2,))
    state = apply(state, "hold 2")
    state = apply(state, "roll", ScriptedDice([5, 5]))
    assert state.rolls_left == 0
    assert cpu_next_action(state, KeepSixes()) == Score(Category.CHANCE)


def test_local_game_plays_cpu_seats_with_an_injected_player():
    settings = GameSettings((Seat("Ann"), Seat("CPU 1", "casual")))
    game = LocalGame.start(settings, seed=3, cpu_factory=factory)
    assert not game.is_cpu_turn
    game.act("roll")
    game.act("score chance")
    assert game.is_cpu_turn
    while game.is_cpu_turn:
        game.cpu_step()
    assert game.state.cards[1].boxes_filled == 1
    assert [text for text, _ in game.log][:2] == ["roll", "score chance"]


def test_make_cpu_player_builds_a_bot():
    pytest.importorskip("fivedice.strategy.bots")
    player = make_cpu_player("beginner", seed=1, rules=RuleSet())
    keep = player.choose_keep(RuleSet(), ScoreCard.empty(RuleSet()), (6, 6, 6, 1, 2), 2)
    assert set(keep) <= {1, 2, 6}


def test_hints_need_rolled_dice(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), cpu_factory=factory)
    view = service.create_game(GameSettings((Seat("Ann"),)), seed=1)
    with pytest.raises(HintsUnavailableError, match="rolled"):
        service.hint(view.game_id)
    triple = service.create_game(GameSettings((Seat("Ann"),), find_ruleset("triple")), seed=1)
    with pytest.raises(HintsUnavailableError, match="rolled"):
        service.hint(triple.game_id)


def test_multi_column_hints_are_legal_best_first_and_match_the_expert(tmp_path):
    pytest.importorskip("fivedice.strategy.bots")
    from fivedice.strategy.players import make_bot

    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), cpu_factory=factory)
    rules = find_ruleset("triple")
    view = service.create_game(GameSettings((Seat("Ann"),), rules), seed=3)
    view = service.apply_action(view.game_id, "roll", 0)
    view = service.apply_action(view.game_id, "score 2:chance", 1)
    view = service.apply_action(view.game_id, "roll", 2)
    state = view.state
    expert = make_bot("expert", rules)
    for _ in range(3):  # with two rolls left, one, and none
        options = service.hint(view.game_id)
        values = [option.value for option in options]
        assert values == sorted(values, reverse=True)
        assert options[0].loss == 0 and all(o.loss >= 0 for o in options)
        assert all(o.estimate for o in options)
        card = state.cards[state.current_seat]
        legal = {(p.column, p.category) for p in state.placements()}
        boxes = [o for o in options if o.category is not None]
        assert {(o.column, o.category) for o in boxes} == legal
        assert all(o.notation == f"score {o.column + 1}:{o.category.key}" for o in boxes)
        keeps = [o for o in options if o.category is None]
        if state.rolls_left:
            assert {o.keep for o in keeps} == {
                k for k, _ in expert.keep_options(rules, card, state.dice, state.rolls_left)
            }
            assert all(o.column is None for o in keeps)
            best_keep = expert.choose_keep(rules, card, state.dice, state.rolls_left)
            assert keeps[0].keep == best_keep
        else:
            assert not keeps
            chosen = expert.choose_box(rules, card, state.dice)
            assert (boxes[0].column, boxes[0].category) == (chosen.column, chosen.category)
        if not state.rolls_left:
            break
        view = service.apply_action(view.game_id, "roll", view.version)
        state = view.state


def test_view_is_the_cached_current_view_and_writes_are_still_checked(tmp_path):
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    service = GameService(Store(url), cpu_factory=factory)
    other = GameService(Store(url), cpu_factory=factory)  # another worker process
    created = service.create_game(GameSettings((Seat("Ann"),)), seed=1)
    assert service.view(created.game_id) is created  # cached: no database read
    rolled = service.apply_action(created.game_id, "roll", 0)
    assert service.view(created.game_id) is rolled
    assert other.view(created.game_id) == rolled  # not cached there: loaded

    moved = other.apply_action(created.game_id, "hold 1", 1)
    assert service.view(created.game_id).version == 1  # behind the database, by design
    with pytest.raises(StaleVersionError) as caught:
        service.apply_action(created.game_id, "hold 2", 1)
    assert caught.value.current == 2
    assert service.view(created.game_id) == moved  # the refusal refreshed the cache

    with pytest.raises(GameNotFoundError):
        service.view(12345)


def test_view_cache_keeps_the_most_recently_used_games(tmp_path, monkeypatch):
    monkeypatch.setattr(GameService, "CACHED_VIEWS", 2)
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), cpu_factory=factory)
    first, second, third = (
        service.create_game(GameSettings((Seat("Ann"),)), seed=seed) for seed in (1, 2, 3)
    )
    assert service.view(third.game_id) is third and service.view(second.game_id) is second
    again = service.view(first.game_id)  # dropped from the cache: loaded again
    assert again == first and again is not first


@pytest.mark.parametrize("level", ["god", "Casual", "", " expert"])
def test_a_game_with_an_unknown_cpu_level_is_never_created(tmp_path, level):
    # The levels are the one list of the strategy layer; nothing is saved.
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), cpu_factory=factory)
    settings = GameSettings((Seat("Ann"), Seat("CPU", level)))
    with pytest.raises(CpuLevelError, match="a CPU level is one of") as caught:
        service.create_game(settings, seed=1)
    assert isinstance(caught.value, SettingsError)  # so front ends answer it as bad input
    assert caught.value.params["seat"] == 2
    assert ", ".join(LEVELS) in str(caught.value)
    assert service.list_games() == []
    for known in LEVELS:
        created = service.create_game(GameSettings((Seat("Ann"), Seat("CPU", known))), seed=1)
        assert created.state.seats[1].cpu_level == known


def test_versions_after_gives_every_missed_version_rebuilt_from_the_log(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'x.sqlite3'}"), cpu_factory=factory)
    view = service.create_game(GameSettings((Seat("Ann"),)), seed=1)
    seen = [view]
    for action in ("roll", "hold 1", "roll"):
        seen.append(service.apply_action(view.game_id, action, seen[-1].version))
    missed = service.versions_after(view.game_id, 1)
    assert [v.version for v in missed] == [2, 3]
    assert [v.state for v in missed] == [seen[2].state, seen[3].state]
    assert service.versions_after(view.game_id, 3) == []
    for unknown in (None, 99):  # a new reader, or a version the game does not have: now only
        (now,) = service.versions_after(view.game_id, unknown)
        assert now.version == 3 and now.state == seen[3].state
