"""The strategy guide and the `guide` level: the level plays exactly the shipped rules (checked
by a second, straightforward reading of the guide's data), the guide is short, and its games
are legal and complete."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from fivedice.core.card import ScoreCard
from fivedice.core.rules import CLASSIC, RuleSet, find_ruleset
from fivedice.strategy.bots import Bot
from fivedice.strategy.guide import guide_for, load_guide
from fivedice.strategy.guide_play import game_rng, play_guide_game
from fivedice.strategy.levels import LEVELS

DATA = json.loads(
    resources.files("fivedice.strategy").joinpath("guide_classic.json").read_text("utf-8")
)
BOXES = [box.key for box in CLASSIC.boxes]


# -- a second reading of the guide, written from its words ------------------------------------


def most_common(counts: dict[int, int], faces: list[int]) -> int | None:
    """The face among `faces` that most dice show, the higher face on a tie."""
    shown = [f for f in faces if counts[f] > 0]
    return max(shown, key=lambda f: (counts[f], f)) if shown else None


def straight_held(counts: dict[int, int], straights: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The faces held of the straight with most faces held (the first listed on a tie)."""
    held = [tuple(f for f in s if counts[f]) for s in straights]
    return max(held, key=len)  # max keeps the first of equals


SMALLS = [(2, 3, 4, 5), (3, 4, 5, 6), (1, 2, 3, 4)]
LARGES = [(2, 3, 4, 5, 6), (1, 2, 3, 4, 5)]


def facts(scores: dict[str, int | None], dice: tuple[int, ...], rolls_left: int) -> dict[str, int]:
    counts = {f: dice.count(f) for f in range(1, 7)}
    face = most_common(counts, list(range(1, 7)))
    assert face is not None
    upper = [scores[key] for key in BOXES[:6]]
    total = sum(s or 0 for s in upper)
    margin = sum(s - 3 * (i + 1) for i, s in enumerate(upper) if s is not None)
    return {
        "of_a_kind": counts[face],
        "face": face,
        "second": max(counts[f] for f in range(1, 7) if f != face),
        "small_run": len(straight_held(counts, SMALLS)),
        "large_run": len(straight_held(counts, LARGES)),
        "rolls_left": rolls_left,
        "turn": 1 + sum(s is not None for s in scores.values()),
        "face_upper_open": int(upper[face - 1] is None),
        **{f"{key}_open": int(scores[key] is None) for key in BOXES[6:]},
        "upper_margin": 15 if total >= 63 else max(-15, min(15, margin)),
        "sum": sum(dice),
        "yahtzee_scored": int((scores["yahtzee"] or 0) > 0),
    }


def keep_by_words(action: str, dice: tuple[int, ...], scores: dict[str, int | None]) -> list[int]:
    counts = {f: dice.count(f) for f in range(1, 7)}
    face = most_common(counts, list(range(1, 7)))
    assert face is not None
    if action == "all":
        return sorted(dice)
    if action == "nothing":
        return []
    if action in ("high4", "high5"):
        return sorted(d for d in dice if d >= int(action[-1]))
    if action == "most_upper":
        open_faces = [f for f in range(1, 7) if scores[BOXES[f - 1]] is None]
        face = most_common(counts, open_faces) or face
        return [face] * counts[face]
    if action in ("most", "most_high4", "most_high5"):
        low = int(action[-1]) if action != "most" else 7
        return sorted([face] * counts[face] + [d for d in dice if d != face and d >= low])
    if action in ("small_draw", "large_draw"):
        return list(straight_held(counts, SMALLS if action == "small_draw" else LARGES))
    assert action == "house"
    kept = [face] * min(3, counts[face])
    other = most_common(counts, [f for f in range(1, 7) if f != face])
    if other is not None and counts[other] >= 2:
        kept += [other] * 2
    return sorted(kept)


def keep_of_the_guide(scores: dict[str, int | None], dice: tuple[int, ...], rolls_left: int):
    seen = facts(scores, dice, rolls_left)
    for rule in DATA["keep"]:
        if all(low <= seen[name] <= high for name, low, high in rule["when"]):
            return keep_by_words(rule["action"], dice, scores)
    return keep_by_words("most", dice, scores)


def box_of_the_guide(scores: dict[str, int | None], options: list[tuple[str, int]]) -> str:
    pars, weight = DATA["box"]["pars"], DATA["box"]["upper_weight"]
    upper = [scores[key] for key in BOXES[:6]]
    total = sum(s or 0 for s in upper)
    reach = total + sum(5 * (i + 1) for i, s in enumerate(upper) if s is None)
    in_play = total < 63 <= reach
    best, chosen = None, ""
    for key, points in options:
        value = points - pars[key]
        if key in BOXES[:6] and in_play:
            value += weight * (points - 3 * (BOXES.index(key) + 1))
        if best is None or value > best + 1e-9:
            best, chosen = value, key
    return chosen


# -- positions ---------------------------------------------------------------------------------


def random_positions(games: int, seed: int):
    """(card, dice, rolls left) of random games: random keeps, random boxes."""
    rng = random.Random(seed)
    for _ in range(games):
        card = ScoreCard.empty(CLASSIC)
        while not card.is_complete:
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            for rolls_left in (2, 1):
                yield card, dice, rolls_left
                held = [d for d in dice if rng.random() < 0.5]
                dice = tuple(held + [rng.randint(1, 6) for _ in range(5 - len(held))])
            yield card, dice, 0
            placements = card.placements(CLASSIC, dice)
            chosen = rng.choice(placements)
            card = card.fill(CLASSIC, 0, chosen.category, dice)


@pytest.mark.parametrize(("games", "seed"), [(40, 5), pytest.param(800, 6, marks=pytest.mark.slow)])
def test_the_guide_level_plays_the_rules_of_the_guide_keeps_and_boxes(games, seed):
    bot = Bot("guide", CLASSIC)
    keeps = boxes = 0
    for card, dice, rolls_left in random_positions(games, seed):
        column = card.columns[0]
        scores = dict(zip(BOXES, column.scores, strict=True))
        if rolls_left:
            expected = keep_of_the_guide(scores, dice, rolls_left)
            assert list(bot.choose_keep(CLASSIC, card, dice, rolls_left)) == expected, (
                scores,
                dice,
                rolls_left,
            )
            keeps += 1
        else:
            options = [(p.category.key, p.box_points) for p in card.placements(CLASSIC, dice)]
            chosen = bot.choose_box(CLASSIC, card, dice)
            assert chosen.category.key == box_of_the_guide(scores, options), (scores, dice)
            boxes += 1
    assert keeps == 2 * boxes == 2 * games * 13


def test_the_guide_is_at_most_fifty_rules_each_measured():
    from fivedice.wording.guide import guide_text

    text = guide_text(DATA)
    assert text.rule_count <= 50
    assert len(DATA["keep"]) >= 5
    assert all(isinstance(rule["worth"], float | int) for rule in DATA["keep"])
    assert DATA["games"] >= 10_000


def test_the_fast_games_score_as_the_level_plays_on_the_real_card():
    """`guide_play` (the simulator's games, on the kernels' arrays) and the level on the core's
    score card make the same decisions and the same totals from the same dice."""
    guide = load_guide()
    bot = Bot("guide", CLASSIC)
    for game in range(15):
        fast = play_guide_game(guide, CLASSIC, game_rng(3, game))
        rng = game_rng(3, game)
        card = ScoreCard.empty(CLASSIC)
        while not card.is_complete:
            dice = [int(rng.random() * 6) + 1 for _ in range(5)]
            for rolls_left in (2, 1):
                keep = list(bot.choose_keep(CLASSIC, card, tuple(sorted(dice)), rolls_left))
                if len(keep) == 5:
                    break
                dice = keep + [int(rng.random() * 6) + 1 for _ in range(5 - len(keep))]
            dice_sorted = tuple(sorted(dice))
            placement = bot.choose_box(CLASSIC, card, dice_sorted)
            card = card.fill(CLASSIC, 0, placement.category, dice_sorted)
        assert card.total(CLASSIC) == fast.score


def test_guide_is_a_level_between_casual_and_strong():
    assert LEVELS.index("casual") < LEVELS.index("guide") < LEVELS.index("strong")


@pytest.mark.parametrize("preset", ["free-choice", "simple", "classic-five"])
def test_every_preset_of_the_classic_card_is_played_by_the_classic_guide(preset):
    rules = find_ruleset(preset)
    assert guide_for(rules) is load_guide("classic")


def test_other_cards_play_like_casual():
    yatzy = find_ruleset("yatzy")
    assert guide_for(yatzy) is None
    assert guide_for(find_ruleset("triple")) is None
    bot = Bot("guide", yatzy)
    card = ScoreCard.empty(yatzy)
    assert bot.guide_for(yatzy) is None
    assert len(bot.choose_keep(yatzy, card, (6, 6, 6, 2, 1), 2)) <= 5


def test_no_upper_bonus_means_the_upper_rule_never_applies():
    rules = RuleSet(upper_bonus=False)
    bot = Bot("guide", rules)
    card = ScoreCard.empty(rules)
    # Four 2s: 8 in Twos is 2 above par, which only counts while a bonus is in play.
    box = bot.choose_box(rules, card, (2, 2, 2, 2, 5))
    pars = DATA["box"]["pars"]
    options = {p.category.key: p.box_points for p in card.placements(rules, (2, 2, 2, 2, 5))}
    expected = max(options, key=lambda key: options[key] - pars[key])
    assert box.category.key == expected


@pytest.mark.parametrize("preset", ["classic", "free-choice"])
def test_the_guide_level_plays_legal_complete_games_through_the_service(preset):
    from fivedice.core.game import GameSettings, Seat
    from fivedice.service.local import LocalGame

    rules = find_ruleset(preset)
    settings = GameSettings((Seat("CPU 1", "guide"), Seat("CPU 2", "guide")), rules)
    game = LocalGame.start(settings, seed=11)
    steps = 0
    while game.is_cpu_turn:
        game.cpu_step()  # an illegal action would raise here
        steps += 1
    assert game.state.is_match_over
    assert all(card.is_complete for card in game.state.cards)
    assert steps >= 2 * 13 * 2  # at least a roll and a score a turn


@pytest.mark.slow
def test_the_learner_finds_the_rule_hidden_in_the_losses():
    """Decisions where keeping high dice is best exactly when the dice add up to 20 or more
    and Chance is open, and the default (the most common face) best otherwise: the learner
    states that one rule, and the box tuner finds pars that copy the solver's choices."""
    import numpy as np

    from fivedice.strategy.guide import ACTIONS, FEATURES, MOST
    from fivedice.strategy.guide_derive import Samples, box_loss, learn_keep_rules, tune_box_rules

    rng = np.random.default_rng(1)
    count = 800
    values = rng.integers(0, 2, size=(count, len(FEATURES)))
    values[:, FEATURES.index("sum")] = rng.integers(5, 31, size=count)
    values[:, FEATURES.index("chance_open")] = rng.integers(0, 2, size=count)
    wanted = (values[:, FEATURES.index("sum")] >= 20) & (
        values[:, FEATURES.index("chance_open")] == 1
    )
    loss = np.full((count, len(ACTIONS)), 3.0)
    high = ACTIONS.index("high4")
    loss[wanted, high] = 0.0
    loss[~wanted, MOST] = 0.0
    # Two legal boxes: the solver takes box 1 only when it earns more than 10 points more.
    points = np.full((count, 13), -1)
    points[:, :2] = rng.integers(0, 30, size=(count, 2))
    value = np.where(points >= 0, points.astype(float), -np.inf)
    value[:, 1] -= 10.5
    samples = Samples(100, values, loss, points, value, np.zeros(count, dtype=np.int64))
    rules = learn_keep_rules(samples, most_rules=5)
    assert len(rules) == 1
    assert ACTIONS[rules[0].action] == "high4"
    assert {(FEATURES[c.feature], c.low, c.high) for c in rules[0].conditions} == {
        ("sum", 20, 30),
        ("chance_open", 1, 1),
    }
    start = np.zeros(13)
    pars, _ = tune_box_rules(samples, start, 0.0, rounds=1)
    assert box_loss(samples, start, 0.0) > 0
    assert box_loss(samples, pars, 0.0) == 0
    assert 10 <= pars[1] - pars[0] < 11
