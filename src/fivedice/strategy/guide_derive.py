"""Deriving a strategy guide from the solver (run by `scripts/derive-guide.py`).

1. **Positions.** Games are played (by the optimal player, then by the guide being learned),
   and at every decision the solver's exact value of every option is recorded: for a keep,
   the points each of the guide's actions (`guide.ACTIONS`) loses against the best keep; for
   a box, every legal box's points and optimal value.
2. **Box rules.** The par table and the upper-section weight are tuned by coordinate descent
   to lose the fewest points against the solver's box choices.
3. **Keep rules.** Rules are added greedily, each placed at the top of the list (it overrides
   the rules below it where its conditions hold): among every action and every conjunction of
   up to `MAX_CONDITIONS` conditions (grown one condition at a time), the rule that saves the
   most points over the recorded positions, while one saves at least `min_gain` a game.
4. **Worth.** Each rule's worth is the mean points a game loses when it is left out, over
   games played with common random numbers (`guide_play`); a rule that does not pay (worth
   0 or less) is left out, the weakest first, and the worths measured again.

Points per game over positions: the positions come from whole games, so the points a rule
saves summed over them, divided by the number of games, is its saving a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.guide import (
    ACTIONS,
    FEATURES,
    MOST,
    UPPER_BOXES,
    Condition,
    Guide,
    KeepRule,
    Position,
    action_keep,
    bonus_in_play,
    bonus_threshold,
    choose_box_index,
    features,
)
from fivedice.strategy.guide_play import game_rng, play_guide_games
from fivedice.strategy.policy import column_key, legal_boxes, placement

__all__ = ["Samples", "derive", "learn_keep_rules", "sample_positions", "tune_box_rules"]

MAX_CONDITIONS = 4
FloatArray = h.FloatArray
IntArray = h.IntArray


@dataclass
class Samples:
    """Decisions recorded from `games` games with the solver's values of every option.

    Keep decisions: `keep_features` (P, features), `keep_loss` (P, actions): the points each
    action loses against the best keep. Box decisions: `box_points` (Q, boxes, -1 where not
    legal), `box_value` (Q, boxes, -inf where not legal): points now plus the optimal value
    after, and `bonus_in_play` (Q,).
    """

    games: int
    keep_features: IntArray
    keep_loss: FloatArray
    box_points: IntArray
    box_value: FloatArray
    bonus_in_play: IntArray

    def __add__(self, other: Samples) -> Samples:
        return Samples(
            self.games + other.games,
            np.concatenate([self.keep_features, other.keep_features]),
            np.concatenate([self.keep_loss, other.keep_loss]),
            np.concatenate([self.box_points, other.box_points]),
            np.concatenate([self.box_value, other.box_value]),
            np.concatenate([self.bonus_in_play, other.bonus_in_play]),
        )


def sample_positions(
    rules: RuleSet, values: h.Values, games: int, seed: int, guide: Guide | None = None
) -> Samples:
    """Plays `games` games (optimally, or by `guide`) recording every decision's options."""
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    player = h.player_args(rules, values)
    arrays, params = rt.arrays, rt.params
    threshold = bonus_threshold(rules)
    levels = rules.rolls_per_turn - 1
    keep_features: list[tuple[int, ...]] = []
    keep_loss: list[list[float]] = []
    box_points: list[list[int]] = []
    box_value: list[list[float]] = []
    in_play: list[int] = []
    ends = np.empty(dt.rolls)
    keep_values = np.empty((levels, dt.keeps))
    roll_values = np.empty((levels + 1, dt.rolls))
    best = np.empty(dt.keeps)
    out_box = np.empty(rt.boxes, dtype=np.int64)
    out_joker = np.empty(rt.boxes, dtype=np.int64)
    for g in range(games):
        rng = game_rng(seed, g)
        card = np.full((1, rt.boxes), -1, dtype=np.int64)
        scores: list[int | None] = [None] * rt.boxes
        for _ in range(rt.boxes):
            h.end_values(card, player, ends)
            h.turn_tables(ends, levels, dt.keep_add, dt.keep_remove, keep_values, roll_values, best)
            counts = [0] * 6
            for _ in range(rt.dice):
                counts[int(rng.random() * 6)] += 1
            for rolls_left in range(levels, 0, -1):
                dice = tuple(f + 1 for f in range(6) for _ in range(counts[f]))
                roll = dt.roll_of[dice]
                options = [k for k in dt.roll_keeps[roll] if k >= 0]
                top = max(keep_values[rolls_left - 1, k] for k in options)
                position = Position(tuple(scores), tuple(counts), rolls_left)
                upper_open = tuple(s is None for s in scores[:UPPER_BOXES])
                losses = [
                    top
                    - keep_values[rolls_left - 1, dt.keep_of[action_keep(a, counts, upper_open)]]
                    for a in range(len(ACTIONS))
                ]
                keep_features.append(features(position))
                keep_loss.append(losses)
                if guide is None:
                    chosen = max(options, key=lambda k: keep_values[rolls_left - 1, k])
                    keep = _keep_dice(dt, chosen)
                else:
                    keep = guide.keep(position)
                if len(keep) == rt.dice:
                    break
                counts = [0] * 6
                for die in keep:
                    counts[die - 1] += 1
                for _ in range(rt.dice - len(keep)):
                    counts[int(rng.random() * 6)] += 1
            roll = dt.roll_of[tuple(f + 1 for f in range(6) for _ in range(counts[f]))]
            key = column_key(card[0], params)
            n = legal_boxes(card[0], roll, arrays, out_box, out_joker)
            points_row = [-1] * rt.boxes
            value_row = [-np.inf] * rt.boxes
            options_now = []
            for i in range(n):
                box, joker = int(out_box[i]), int(out_joker[i])
                points, _, _ = placement(card[0], box, joker, roll, key[1], arrays)
                points_row[box] = int(points)
                value_row[box] = h.placement_gain(card[0], box, joker, roll, key, arrays, values)
                options_now.append((box, int(points), joker))
            box_points.append(points_row)
            box_value.append(value_row)
            in_play.append(1 if bonus_in_play(scores, threshold) else 0)
            if guide is None:
                i = int(np.argmax([value_row[box] for box, _, _ in options_now]))
            else:
                i = choose_box_index(guide, [(b, p) for b, p, _ in options_now], scores, threshold)
            box, points, joker = options_now[i]
            points, _, _ = placement(card[0], box, joker, roll, key[1], arrays)
            card[0, box] = points
            scores[box] = int(points)
    return Samples(
        games,
        np.array(keep_features, dtype=np.int64),
        np.array(keep_loss, dtype=np.float64),
        np.array(box_points, dtype=np.int64),
        np.array(box_value, dtype=np.float64),
        np.array(in_play, dtype=np.int64),
    )


def _keep_dice(dt: h.DiceTables, keep: int) -> tuple[int, ...]:
    faces = dt.keep_faces[keep]
    return tuple(f + 1 for f in range(6) for _ in range(int(faces[f])))


def box_loss(samples: Samples, pars: FloatArray, upper_weight: float) -> float:
    """Points a game the par rule loses against the solver's box choices."""
    points = samples.box_points.astype(np.float64)
    legal = samples.box_points >= 0
    score = points - pars[None, :]
    faces = 3.0 * np.arange(1, UPPER_BOXES + 1)
    score[:, :UPPER_BOXES] += (
        upper_weight * samples.bonus_in_play[:, None] * (points[:, :UPPER_BOXES] - faces[None, :])
    )
    score = np.where(legal, score, -np.inf)
    chosen = np.argmax(score, axis=1)
    values = samples.box_value
    loss = values.max(axis=1) - values[np.arange(len(chosen)), chosen]
    return float(loss.sum()) / samples.games


def tune_box_rules(
    samples: Samples, pars: FloatArray, upper_weight: float, rounds: int = 3
) -> tuple[FloatArray, float]:
    """The par table and upper weight after coordinate descent on `box_loss`."""
    pars = pars.copy()
    best = box_loss(samples, pars, upper_weight)
    for _ in range(rounds):
        for b in range(len(pars) + 1):
            current = upper_weight if b == len(pars) else pars[b]
            grid = (
                np.arange(0.0, 3.01, 0.1)
                if b == len(pars)
                else current + np.arange(-12.0, 12.01, 0.5)
            )
            for candidate in grid:
                trial_pars, trial_weight = pars.copy(), upper_weight
                if b == len(pars):
                    trial_weight = float(candidate)
                else:
                    trial_pars[b] = round(float(candidate), 1)
                loss = box_loss(samples, trial_pars, trial_weight)
                if loss < best - 1e-9:
                    best, pars, upper_weight = loss, trial_pars, trial_weight
    return pars, upper_weight


def _candidate_conditions(values: IntArray) -> list[tuple[Condition, np.ndarray]]:
    """Every single test worth trying: each feature at or above, or at or below, a value."""
    found = []
    for f in range(len(FEATURES)):
        column = values[:, f]
        seen = np.unique(column)
        low, high = int(seen.min()), int(seen.max())
        for v in seen:
            v = int(v)
            if v > low:
                found.append((Condition(f, v, high), column >= v))
            if v < high:
                found.append((Condition(f, low, v), column <= v))
    return found


def _merge(conditions: tuple[Condition, ...], new: Condition) -> tuple[Condition, ...]:
    """The conditions with `new` added (two tests of one feature become one range)."""
    for i, old in enumerate(conditions):
        if old.feature == new.feature:
            merged = Condition(new.feature, max(old.low, new.low), min(old.high, new.high))
            return (*conditions[:i], merged, *conditions[i + 1 :])
    return (*conditions, new)


def learn_keep_rules(
    samples: Samples,
    most_rules: int,
    min_gain: float = 0.02,
    beam: int = 12,
    seeds: int = 60,
    report: Callable[[str], None] | None = None,
) -> list[KeepRule]:
    """The keep rules, first match first, learned greedily (see the module's docstring).

    A rule's conditions are grown by a beam search: the `seeds` best single tests start it,
    the `beam` best partial rules of each length are each extended by every single test, and
    the best rule of any length wins.
    """
    values, loss = samples.keep_features, samples.keep_loss
    # Positions with the same features are matched by the same rules: merge them.
    values, inverse = np.unique(values, axis=0, return_inverse=True)
    merged_loss = np.zeros((len(values), loss.shape[1]))
    np.add.at(merged_loss, inverse.reshape(-1), loss)
    loss = merged_loss
    candidates = _candidate_conditions(values)
    holds = np.stack([hold for _, hold in candidates]).astype(np.float32)
    current = loss[:, MOST].copy()
    rules: list[KeepRule] = []
    while len(rules) < most_rules:
        best_gain, best_rule, best_mask = 0.0, None, None
        for action in range(len(ACTIONS)):
            saving = (current - loss[:, action]).astype(np.float32)
            everywhere = np.ones(len(current), dtype=bool)
            frontier: list[tuple[float, tuple[Condition, ...], np.ndarray]] = [
                (float(saving.sum()), (), everywhere)
            ]
            for depth in range(MAX_CONDITIONS):
                width = seeds if depth == 0 else beam
                # Every parent's gain with every test added, as one matrix product.
                parents = np.stack([saving * mask for _, _, mask in frontier], axis=1)
                all_gains = holds @ parents
                grown: dict[tuple[Condition, ...], tuple[float, np.ndarray]] = {}
                for j, (gain, conditions, mask) in enumerate(frontier):
                    gains = all_gains[:, j]
                    for c in np.argsort(gains)[::-1][:width]:
                        if gains[c] <= gain + 1e-6:
                            break
                        merged = _merge(conditions, candidates[c][0])
                        key = tuple(sorted(merged, key=lambda x: (x.feature, x.low, x.high)))
                        if key not in grown:
                            grown[key] = (float(gains[c]), mask & candidates[c][1])
                ranked = sorted(grown.items(), key=lambda item: -item[1][0])[:width]
                frontier = [(gain, conditions, mask) for conditions, (gain, mask) in ranked]
                if not frontier:
                    break
                if frontier[0][0] > best_gain:
                    gain, conditions, mask = frontier[0]
                    best_gain, best_rule, best_mask = gain, KeepRule(action, conditions), mask
        if best_rule is None or best_mask is None or best_gain / samples.games < min_gain:
            break
        current[best_mask] = loss[best_mask, best_rule.action]
        rules.insert(0, best_rule)
        if report is not None:
            report(
                f"rule {len(rules)}: {ACTIONS[best_rule.action]} "
                f"{[c.as_data() for c in best_rule.conditions]} saves "
                f"{best_gain / samples.games:.3f}; left {current.sum() / samples.games:.3f}"
            )
    return rules


def mean_score(guide: Guide, rules: RuleSet, games: int, seed: int) -> FloatArray:
    """The guide's scores over `games` games (common random numbers under `seed`)."""
    return np.array([r.score for r in play_guide_games(guide, rules, games, seed)], dtype=float)


def derive(
    rules: RuleSet,
    values: h.Values,
    *,
    games: int = 1500,
    rounds: int = 2,
    most_keep_rules: int = 35,
    worth_games: int = 2000,
    final_games: int = 10_000,
    seed: int = 1,
    rules_name: str = "classic",
    report: Callable[[str], None] | None = None,
) -> Guide:
    """A guide for the rules, derived from the optimal `values` (see the module's docstring).

    Round one learns from the optimal player's games; each further round adds the positions
    the guide itself reaches (it makes mistakes the optimal player never shows it).
    """
    say = report or (lambda _text: None)
    samples = sample_positions(rules, values, games, seed)
    say(f"sampled {len(samples.keep_loss)} keeps, {len(samples.box_value)} boxes (optimal play)")
    pars = h.typical_box_values(rules).copy()
    upper_weight = 1.0
    guide = Guide(tuple(float(p) for p in pars), upper_weight, ())
    for round_number in range(rounds):
        if round_number > 0:
            more = sample_positions(rules, values, games, seed + 1000 * round_number, guide)
            samples = samples + more
            say(f"round {round_number + 1}: {len(samples.keep_loss)} keeps")
        pars, upper_weight = tune_box_rules(samples, pars, upper_weight)
        say(f"box rules lose {box_loss(samples, pars, upper_weight):.3f} a game")
        keep_rules = learn_keep_rules(samples, most_keep_rules, report=say)
        guide = Guide(tuple(float(p) for p in pars), upper_weight, tuple(keep_rules))
    measured = measure(guide, rules, worth_games, final_games, seed + 77, rules_name, say)
    return replace(measured, optimum=float(h.state_value(values, 0, 0, 0)))


def measure(
    guide: Guide,
    rules: RuleSet,
    worth_games: int,
    final_games: int,
    seed: int,
    rules_name: str,
    say: Callable[[str], None],
) -> Guide:
    """The guide with each rule's worth and its mean score measured by simulation.

    A keep rule whose measured worth is not above 0 does not pay: the least worth of them is
    dropped and the worths are measured again, until every rule pays.
    """
    while True:
        base = mean_score(guide, rules, worth_games, seed)
        worths = []
        for i in range(len(guide.keep_rules)):
            without = replace(guide, keep_rules=guide.keep_rules[:i] + guide.keep_rules[i + 1 :])
            worths.append(float((base - mean_score(without, rules, worth_games, seed)).mean()))
            say(f"rule {i + 1} worth {worths[-1]:.2f}")
        if not worths or min(worths) > 0:
            break
        weakest = int(np.argmin(worths))
        say(f"rule {weakest + 1} does not pay ({worths[weakest]:.2f}): left out")
        guide = replace(
            guide, keep_rules=guide.keep_rules[:weakest] + guide.keep_rules[weakest + 1 :]
        )
    greedy = replace(guide, pars=(0.0,) * len(guide.pars), upper_weight=0.0)
    box_worth = float((base - mean_score(greedy, rules, worth_games, seed)).mean())
    flat = replace(guide, upper_weight=0.0)
    upper_worth = float((base - mean_score(flat, rules, worth_games, seed)).mean())
    final = mean_score(guide, rules, final_games, seed + 1)
    say(f"mean {final.mean():.2f} over {final_games} games; box rules worth {box_worth:.2f}")
    return replace(
        guide,
        keep_rules=tuple(
            replace(rule, worth=worth) for rule, worth in zip(guide.keep_rules, worths, strict=True)
        ),
        box_worth=box_worth,
        upper_worth=upper_worth,
        mean=float(final.mean()),
        games=final_games,
        rules_name=rules_name,
    )
